//! The shape of a UDP block's datagrams ([`Layout`]: header, payload size, item size), checked
//! once when the block is made ([`PacketError`]), and the check of each datagram received
//! ([`Malformed`]).

use super::header::UdpHeader;
use radioflow_runtime::registry::Refused;

/// The largest UDP payload over IPv4 (65535 minus the IP and UDP headers); a larger datagram
/// cannot be sent.
pub(crate) const MAX_PAYLOAD: usize = 65_507;

/// GNU Radio's smallest `payloadsize` ("must be at least 8 bytes").
const MIN_PAYLOAD: usize = 8;

/// Why a UDP block's header and payload size do not fit together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PacketError {
    /// GNU Radio refuses payloads under 8 bytes.
    #[error("payload_size {0} is too small: GNU Radio's UDP blocks need at least 8 bytes")]
    TooSmall(usize),
    /// No UDP datagram is that large.
    #[error("payload_size {0} is larger than a UDP datagram can be ({MAX_PAYLOAD} bytes)")]
    TooLarge(usize),
    /// The bytes after the header are not a positive whole number of items (GNU Radio 3.10
    /// would split items across datagrams and shift every item after the first datagram).
    #[error(
        "payload_size {payload} leaves {data} bytes after the {header} header ({header_size} \
         bytes), not a positive whole number of {item}-byte items"
    )]
    NotWholeItems {
        /// The payload size asked for.
        payload: usize,
        /// The bytes left for items.
        data: usize,
        /// The header.
        header: UdpHeader,
        /// Its size.
        header_size: usize,
        /// The item size.
        item: usize,
    },
    /// The header is one GNU Radio's `udp_sink` cannot send.
    #[error("header {0} is received only: GNU Radio's udp_sink sends none, seqnum or seqplussize")]
    NotSent(UdpHeader),
}

impl From<PacketError> for Refused {
    fn from(e: PacketError) -> Self {
        Refused::other(e)
    }
}

/// Why a received datagram was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Malformed {
    #[error("{len} bytes, shorter than the {header} header ({size} bytes)")]
    TooShort {
        len: usize,
        header: UdpHeader,
        size: usize,
    },
    #[error("{len} bytes, more than payload_size ({payload}): does the sender use the same payload size?")]
    TooLong { len: usize, payload: usize },
    #[error(
        "{data} bytes after the {header} header, not a whole number of {item}-byte items: \
         does the sender use the same item type and header?"
    )]
    NotWholeItems {
        data: usize,
        header: UdpHeader,
        item: usize,
    },
}

/// The shape of a UDP block's datagrams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) header: UdpHeader,
    /// Bytes of a whole datagram, header included (GNU Radio's `payloadsize`).
    pub(crate) payload_size: usize,
    pub(crate) item_size: usize,
}

impl Layout {
    /// Checks that `payload_size` holds `header` and a positive whole number of items.
    pub(crate) fn new(
        header: UdpHeader,
        payload_size: usize,
        item_size: usize,
    ) -> Result<Self, PacketError> {
        if payload_size < MIN_PAYLOAD {
            return Err(PacketError::TooSmall(payload_size));
        }
        if payload_size > MAX_PAYLOAD {
            return Err(PacketError::TooLarge(payload_size));
        }
        let data = payload_size.saturating_sub(header.size());
        if data == 0 || !data.is_multiple_of(item_size) {
            return Err(PacketError::NotWholeItems {
                payload: payload_size,
                data,
                header,
                header_size: header.size(),
                item: item_size,
            });
        }
        Ok(Self {
            header,
            payload_size,
            item_size,
        })
    }

    /// Items in a full datagram.
    pub(crate) fn items_per_packet(&self) -> usize {
        (self.payload_size - self.header.size()) / self.item_size
    }

    /// Where the items of a datagram of `len` bytes start, or why it is malformed. A datagram
    /// without a header is any run of bytes (they join the stream; a partial item waits for
    /// the next datagram); one with a header is the header then whole items, at most
    /// `payload_size` bytes in all (GNU Radio's sink sends exactly `payload_size`).
    pub(crate) fn items_start(&self, len: usize) -> Result<usize, Malformed> {
        let size = self.header.size();
        if size == 0 {
            return Ok(0);
        }
        if len < size {
            return Err(Malformed::TooShort {
                len,
                header: self.header,
                size,
            });
        }
        if len > self.payload_size {
            return Err(Malformed::TooLong {
                len,
                payload: self.payload_size,
            });
        }
        if !(len - size).is_multiple_of(self.item_size) {
            return Err(Malformed::NotWholeItems {
                data: len - size,
                header: self.header,
                item: self.item_size,
            });
        }
        Ok(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_radio_default_payload_fits_every_type_and_header() {
        for header in [UdpHeader::None, UdpHeader::SeqNum, UdpHeader::SeqPlusSize] {
            for item in [1, 2, 4, 8] {
                let l = Layout::new(header, 1472, item).unwrap();
                assert_eq!(l.items_per_packet() * item + header.size(), 1472);
            }
        }
    }

    #[test]
    fn payloads_gnu_radio_would_garble_are_refused() {
        assert_eq!(
            Layout::new(UdpHeader::None, 7, 1),
            Err(PacketError::TooSmall(7))
        );
        assert_eq!(
            Layout::new(UdpHeader::None, 65_508, 1),
            Err(PacketError::TooLarge(65_508))
        );
        assert!(matches!(
            Layout::new(UdpHeader::SeqNum, 1470, 8),
            Err(PacketError::NotWholeItems { data: 1462, .. })
        ));
        assert!(matches!(
            Layout::new(UdpHeader::SeqPlusSize, 16, 4),
            Err(PacketError::NotWholeItems { data: 0, .. })
        ));
        let e = Layout::new(UdpHeader::SeqNum, 1470, 8)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("payload_size 1470") && e.contains("8-byte items"),
            "{e}"
        );
    }

    #[test]
    fn received_datagrams_are_checked_against_the_layout() {
        let l = Layout::new(UdpHeader::SeqNum, 8 + 4 * 10, 4).unwrap();
        assert_eq!(l.items_start(48), Ok(8));
        assert_eq!(
            l.items_start(12),
            Ok(8),
            "a shorter datagram of whole items"
        );
        assert_eq!(l.items_start(8), Ok(8), "a header alone");
        assert!(matches!(l.items_start(7), Err(Malformed::TooShort { .. })));
        assert!(matches!(l.items_start(52), Err(Malformed::TooLong { .. })));
        assert!(matches!(
            l.items_start(13),
            Err(Malformed::NotWholeItems { data: 5, .. })
        ));
        let none = Layout::new(UdpHeader::None, 1472, 8).unwrap();
        assert_eq!(none.items_start(3), Ok(0), "bytes join the stream");
    }
}
