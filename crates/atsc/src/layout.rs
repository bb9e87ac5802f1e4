//! The byte layout of gr-dtv's ATSC items, which its blocks pass as fixed-size vectors of
//! bytes: a 4-byte pipeline header ([`Plinfo`]) before the data (but in the padded transport
//! packet), then zero padding to a power of two. A stream of ours and one of GNU Radio's
//! compare byte for byte at every stage.
//!
//! | item                     | header | data             | padding | size |
//! |--------------------------|--------|------------------|---------|------|
//! | padded transport packet  | none   | 188 (sync first) | 68      | 256  |
//! | randomized packet        | 4      | 187 (no sync)    | 65      | 256  |
//! | Reed-Solomon codeword    | 4      | 207              | 45      | 256  |
//! | data segment             | 4      | 832 symbols      | 188     | 1024 |

/// Bytes of a transport packet, sync byte included.
pub const PACKET: usize = 188;
/// Bytes of a transport packet after its sync byte.
pub const PAYLOAD: usize = 187;
/// Bytes of a Reed-Solomon codeword: the payload and 20 parity bytes (A/53 Part 2, 5.3.3).
pub const CODEWORD: usize = 207;
/// Symbols of a data segment: 4 of segment sync, 828 of data (A/53 Part 2, 5.2).
pub const SEGMENT: usize = 832;
/// Data segments a field, its field sync segment not counted (A/53 Part 2, 5.2).
pub const SEGMENTS_PER_FIELD: usize = 312;
/// The MPEG-2 transport packet's sync byte.
pub const SYNC_BYTE: u8 = 0x47;

/// Bytes of the items between the pad and the trellis encoder.
pub const PACKET_ITEM: usize = 256;
/// Bytes of a data segment item (the trellis encoder's and the field sync mux's).
pub const SEGMENT_ITEM: usize = 1024;
/// Where the data start in an item with a header.
pub const DATA: usize = 4;

/// gr-dtv's pipeline information (`plinfo`): flags and the segment's number in its field,
/// two little-endian 16-bit words at the start of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Plinfo {
    /// The flags (`REGULAR`, `FIRST`, `FIELD2`, `TRANSPORT_ERROR`).
    pub flags: u16,
    /// The segment's number in its field, 0 to 311.
    pub segno: i16,
}

impl Plinfo {
    /// A data segment (not a field sync).
    pub const REGULAR: u16 = 0x0001;
    /// The first data segment after a field sync: interleavers restart there.
    pub const FIRST: u16 = 0x0008;
    /// In the frame's second field.
    pub const FIELD2: u16 = 0x0010;
    /// Reed-Solomon found an error it could not correct (or the segment number is past the field).
    pub const TRANSPORT_ERROR: u16 = 0x0020;

    /// Data segment `segno` of field 1 or 2, as gr-dtv's `set_regular_seg` marks it.
    pub fn regular(field2: bool, segno: usize) -> Self {
        let mut flags = Self::REGULAR;
        if segno == 0 {
            flags |= Self::FIRST;
        }
        if segno >= SEGMENTS_PER_FIELD {
            flags |= Self::TRANSPORT_ERROR;
        }
        if field2 {
            flags |= Self::FIELD2;
        }
        Self {
            flags,
            segno: segno as i16,
        }
    }

    /// Reads the header at the start of `item`.
    pub fn read(item: &[u8]) -> Self {
        Self {
            flags: u16::from_le_bytes([item[0], item[1]]),
            segno: i16::from_le_bytes([item[2], item[3]]),
        }
    }

    /// Writes the header at the start of `item`.
    pub fn write(self, item: &mut [u8]) {
        item[..2].copy_from_slice(&self.flags.to_le_bytes());
        item[2..4].copy_from_slice(&self.segno.to_le_bytes());
    }

    /// The first data segment of a field.
    pub fn first(self) -> bool {
        self.flags & Self::FIRST != 0
    }

    /// In the second field.
    pub fn field2(self) -> bool {
        self.flags & Self::FIELD2 != 0
    }

    /// The last data segment of a field (a data segment numbered 311).
    pub fn last(self) -> bool {
        self.flags & Self::REGULAR != 0 && self.segno as usize == SEGMENTS_PER_FIELD - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_two_little_endian_words() {
        let mut item = [0u8; 8];
        Plinfo::regular(true, 0).write(&mut item);
        assert_eq!(item[..4], [0x19, 0, 0, 0]);
        Plinfo::regular(false, 311).write(&mut item);
        assert_eq!(item[..4], [0x01, 0, 0x37, 0x01]);
        let p = Plinfo::read(&item);
        assert!(p.last() && !p.first() && !p.field2());
    }
}
