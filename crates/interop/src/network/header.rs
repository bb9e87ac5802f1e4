//! [`UdpHeader`]: the headers GNU Radio's UDP blocks put before the items of a datagram.
//!
//! The layouts are GNU Radio 3.10's `gnuradio/network/packet_headers.h`, written by a `memcpy`
//! of a C++ struct, so integers are in the sender's byte order (little-endian on every machine
//! GNU Radio runs on) and the struct's padding is on the wire:
//!
//! - `seqnum` (GNU Radio's header type 1): a `u64` sequence number; 8 bytes.
//! - `seqplussize` (2): a `u64` sequence number, an `i16` length (the sender's payload size,
//!   header included) and 6 bytes of padding; 16 bytes (the header's comment says 10, the
//!   struct's `sizeof` is 16).
//! - `ata` (5, received only: GNU Radio's `udp_sink` cannot send it): the Allen Telescope
//!   Array's 64-byte header, whose `u32` sequence number is at byte 20.
//!
//! GNU Radio's sink numbers its datagrams from 1. Its GRC file offers a CHDR header (4) on the
//! sink, which GNU Radio 3.10's `udp_sink` itself refuses ("Unknown UDP header type").

use std::fmt;
use std::str::FromStr;

/// A header before the items of each UDP datagram (GNU Radio's `header` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UdpHeader {
    /// Items only (GNU Radio's 0).
    #[default]
    None,
    /// A 64-bit sequence number (GNU Radio's 1).
    SeqNum,
    /// A 64-bit sequence number and a 16-bit size, 16 bytes with padding (GNU Radio's 2).
    SeqPlusSize,
    /// The Allen Telescope Array's 64-byte header (GNU Radio's 5); received only.
    Ata,
}

impl UdpHeader {
    /// The names, for a parameter's words.
    pub const WORDS: &'static [&'static str] = &["none", "seqnum", "seqplussize", "ata"];

    /// Bytes on the wire.
    pub const fn size(self) -> usize {
        match self {
            UdpHeader::None => 0,
            UdpHeader::SeqNum => 8,
            UdpHeader::SeqPlusSize => 16,
            UdpHeader::Ata => 64,
        }
    }

    /// The name (`seqnum`).
    pub const fn name(self) -> &'static str {
        match self {
            UdpHeader::None => "none",
            UdpHeader::SeqNum => "seqnum",
            UdpHeader::SeqPlusSize => "seqplussize",
            UdpHeader::Ata => "ata",
        }
    }

    /// GNU Radio's number for it (`header` in its Python and GRC).
    pub const fn gnuradio_number(self) -> i64 {
        match self {
            UdpHeader::None => 0,
            UdpHeader::SeqNum => 1,
            UdpHeader::SeqPlusSize => 2,
            UdpHeader::Ata => 5,
        }
    }

    /// The header GNU Radio numbers `n`, if it is one radioflow knows.
    pub const fn from_gnuradio_number(n: i64) -> Option<Self> {
        Some(match n {
            0 => UdpHeader::None,
            1 => UdpHeader::SeqNum,
            2 => UdpHeader::SeqPlusSize,
            5 => UdpHeader::Ata,
            _ => return None,
        })
    }

    /// Writes the header of the datagram numbered `seq` into `out` (exactly
    /// [`size`](Self::size) bytes), `payload_size` being the whole datagram's size.
    ///
    /// # Panics
    /// If `out` is not `size()` bytes long, or for [`Ata`](Self::Ata) (never sent).
    pub(crate) fn write(self, out: &mut [u8], seq: u64, payload_size: usize) {
        assert_eq!(out.len(), self.size(), "header buffer");
        match self {
            UdpHeader::None => {}
            UdpHeader::SeqNum => out.copy_from_slice(&seq.to_ne_bytes()),
            UdpHeader::SeqPlusSize => {
                out[..8].copy_from_slice(&seq.to_ne_bytes());
                // GNU Radio stores its int payload size in an int16_t: sizes above 32767 wrap
                // there too.
                out[8..10].copy_from_slice(&(payload_size as i16).to_ne_bytes());
                out[10..].fill(0);
            }
            UdpHeader::Ata => unreachable!("GNU Radio's udp_sink sends no ATA header"),
        }
    }

    /// The sequence number of a datagram starting with this header (at least `size()` bytes).
    pub(crate) fn sequence(self, datagram: &[u8]) -> Option<u64> {
        let bytes = |at: usize, n: usize| datagram.get(at..at + n);
        match self {
            UdpHeader::None => None,
            UdpHeader::SeqNum | UdpHeader::SeqPlusSize => {
                Some(u64::from_ne_bytes(bytes(0, 8)?.try_into().ok()?))
            }
            UdpHeader::Ata => Some(u64::from(u32::from_ne_bytes(
                bytes(20, 4)?.try_into().ok()?,
            ))),
        }
    }
}

impl fmt::Display for UdpHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for UdpHeader {
    type Err = String;

    /// A name (`seqnum`) or GNU Radio's number (`1`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(h) = Self::WORDS
            .iter()
            .position(|w| *w == s)
            .and_then(|i| [Self::None, Self::SeqNum, Self::SeqPlusSize, Self::Ata].get(i))
        {
            return Ok(*h);
        }
        s.parse::<i64>()
            .ok()
            .and_then(Self::from_gnuradio_number)
            .ok_or_else(|| {
                format!(
                    "no UDP header '{s}' ({}, or GNU Radio's 0, 1, 2, 5)",
                    Self::WORDS.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_parse_to_the_same_header() {
        for h in [
            UdpHeader::None,
            UdpHeader::SeqNum,
            UdpHeader::SeqPlusSize,
            UdpHeader::Ata,
        ] {
            assert_eq!(h.name().parse::<UdpHeader>(), Ok(h));
            assert_eq!(h.gnuradio_number().to_string().parse::<UdpHeader>(), Ok(h));
        }
        // CHDR (4) and the removed types 3 are refused.
        assert!("4".parse::<UdpHeader>().is_err());
        assert!("3".parse::<UdpHeader>().is_err());
        assert!("chdr".parse::<UdpHeader>().is_err());
    }

    #[test]
    fn headers_have_gnu_radio_layouts() {
        let mut seq = [0u8; 8];
        UdpHeader::SeqNum.write(&mut seq, 0x0102_0304_0506_0708, 1472);
        assert_eq!(seq, 0x0102_0304_0506_0708u64.to_ne_bytes());
        assert_eq!(
            UdpHeader::SeqNum.sequence(&seq),
            Some(0x0102_0304_0506_0708)
        );

        let mut both = [0xAAu8; 16];
        UdpHeader::SeqPlusSize.write(&mut both, 7, 1472);
        assert_eq!(both[..8], 7u64.to_ne_bytes());
        assert_eq!(both[8..10], 1472i16.to_ne_bytes());
        assert_eq!(both[10..], [0; 6]);
        assert_eq!(UdpHeader::SeqPlusSize.sequence(&both), Some(7));

        let mut ata = [0u8; 64];
        ata[20..24].copy_from_slice(&99u32.to_ne_bytes());
        assert_eq!(UdpHeader::Ata.sequence(&ata), Some(99));
        assert_eq!(UdpHeader::Ata.sequence(&ata[..23]), None);
    }
}
