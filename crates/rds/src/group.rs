//! [`Group`]: four blocks as received, and the fields every group carries.

/// A received group: its four 16-bit information words, each `None` if its block was lost
/// (uncorrectable, or before block synchronisation). Block 3 may carry offset C' (version B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Group {
    /// Blocks 1 to 4 (A, B, C or C', D).
    pub blocks: [Option<u16>; 4],
    /// Whether block 3 carried offset C' rather than C.
    pub c_prime: bool,
    /// Which blocks were corrected rather than received error-free: bit `i` for block
    /// `i + 1`.
    pub corrected: u8,
}

/// A group's version: A (block 3 carries data) or B (block 3 repeats the PI code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// Version A.
    A,
    /// Version B.
    B,
}

impl Group {
    /// The group type (0..=15) and version, from block 2 (EN 50067 §3.1.1), if block 2 was
    /// received.
    pub fn kind(&self) -> Option<(u8, Version)> {
        let b = self.blocks[1]?;
        let version = if b & 0x0800 != 0 {
            Version::B
        } else {
            Version::A
        };
        Some(((b >> 12) as u8, version))
    }

    /// The programme identification code, from block 1 or (version B) block 3.
    pub fn pi(&self) -> Option<u16> {
        self.blocks[0].or(if self.c_prime { self.blocks[2] } else { None })
    }

    /// The programme identification code from a block received error-free (1, or 3 in
    /// version B): a corrected block may be a miscorrection, and the PI comes every group.
    pub fn pi_error_free(&self) -> Option<u16> {
        let clean = |i: usize| self.blocks[i].filter(|_| self.corrected & (1 << i) == 0);
        clean(0).or(if self.c_prime { clean(2) } else { None })
    }

    /// The programme type (0..=31), from block 2.
    pub fn pty(&self) -> Option<u8> {
        self.blocks[1].map(|b| ((b >> 5) & 0x1f) as u8)
    }

    /// The traffic programme flag, from block 2.
    pub fn tp(&self) -> Option<bool> {
        self.blocks[1].map(|b| b & 0x0400 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_block_two() {
        // Group 2A, TP, PTY 14, text A/B 1, segment 5.
        let b = (2 << 12) | (1 << 10) | (14 << 5) | (1 << 4) | 5;
        let g = Group {
            blocks: [Some(0xD393), Some(b), None, None],
            ..Group::default()
        };
        assert_eq!(g.kind(), Some((2, Version::A)));
        assert_eq!(g.pty(), Some(14));
        assert_eq!(g.tp(), Some(true));
        assert_eq!(g.pi(), Some(0xD393));
        let b_version = Group {
            blocks: [None, Some(b | 0x0800), Some(0x1234), None],
            c_prime: true,
            corrected: 0,
        };
        assert_eq!(b_version.kind(), Some((2, Version::B)));
        assert_eq!(b_version.pi(), Some(0x1234));
        let corrected_a = Group { corrected: 1, ..g };
        assert_eq!(corrected_a.pi(), Some(0xD393));
        assert_eq!(corrected_a.pi_error_free(), None);
        assert_eq!(Group::default().kind(), None);
    }
}
