//! The RDS block code (IEC 62106-1 / EN 50067 §2.3 and Annexes A–C): a (26,16) shortened
//! cyclic code with generator `g(x) = x¹⁰+x⁸+x⁷+x⁵+x⁴+x³+1`, whose 10 check bits carry an
//! offset word naming the block's place in the group.
//!
//! Blocks are `u32`s holding 26 bits, the first transmitted bit (the information word's most
//! significant bit) at bit 25.

/// `g(x)` as a bit mask (bit `i` is the coefficient of `xⁱ`).
const GENERATOR: u32 = 0b101_1011_1001;

/// Bits in a block.
pub const BLOCK_BITS: u32 = 26;

/// The block's place in a group, named by its offset word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offset {
    /// Block 1 (PI code).
    A,
    /// Block 2 (group type, version, TP, PTY).
    B,
    /// Block 3 of a version A group.
    C,
    /// Block 3 of a version B group (carries the PI code again).
    CPrime,
    /// Block 4.
    D,
}

impl Offset {
    /// All offsets, in the order of [`Offset::word`]'s table.
    pub const ALL: [Offset; 5] = [Offset::A, Offset::B, Offset::C, Offset::CPrime, Offset::D];

    /// The 10-bit offset word added (modulo 2) to the checkword (EN 50067 Annex A, Table A.1).
    pub const fn word(self) -> u16 {
        match self {
            Offset::A => 0b00_1111_1100,
            Offset::B => 0b01_1001_1000,
            Offset::C => 0b01_0110_1000,
            Offset::CPrime => 0b11_0101_0000,
            Offset::D => 0b01_1011_0100,
        }
    }

    /// The syndrome [`syndrome`] gives for an error-free block carrying this offset.
    pub const fn syndrome(self) -> u16 {
        syndrome(self.word() as u32)
    }

    /// The block's index within the group: 0 for A, 1 for B, 2 for C and C', 3 for D.
    pub const fn index(self) -> usize {
        match self {
            Offset::A => 0,
            Offset::B => 1,
            Offset::C | Offset::CPrime => 2,
            Offset::D => 3,
        }
    }

    /// The offset whose syndrome is `syndrome`, if any.
    pub fn from_syndrome(syndrome: u16) -> Option<Offset> {
        Offset::ALL.into_iter().find(|o| o.syndrome() == syndrome)
    }
}

/// The 10-bit checkword of a 16-bit information word, before the offset word is added: the
/// remainder of `m(x)·x¹⁰` divided by `g(x)` (EN 50067 §2.3.1).
pub const fn checkword(info: u16) -> u16 {
    let mut reg = (info as u32) << 10;
    let mut bit = BLOCK_BITS - 1;
    while bit >= 10 {
        if reg & (1 << bit) != 0 {
            reg ^= GENERATOR << (bit - 10);
        }
        bit -= 1;
    }
    reg as u16
}

/// The 26-bit block carrying `info` at place `offset`: information word, then checkword plus
/// offset word.
pub const fn encode_block(info: u16, offset: Offset) -> u32 {
    ((info as u32) << 10) | (checkword(info) ^ offset.word()) as u32
}

/// Row `i` of the standard's parity-check matrix `H` (EN 50067 Annex B), for the block bit
/// transmitted `i`-th (bit `25 - i` of the block): `xⁱ mod g*(x)` with `g*` the reciprocal of
/// `g`, written with `x⁰` as the leftmost (most significant) of the 10 bits. The first ten rows
/// are the identity, the rest the standard's.
const fn parity_row(i: u32) -> u16 {
    // x^0 at bit 9 (leftmost) .. x^9 at bit 0.
    let mut reg: u32 = 1 << 9; // x^0, leftmost
    let mut k = 0;
    while k < i {
        // Multiply by x: move one place right (towards x^9); an x^10 term reduces by g*.
        let carry = reg & 1;
        reg >>= 1;
        if carry != 0 {
            // x^10 ≡ g*(x) - x^10 = the reversed low coefficients of g.
            reg ^= REDUCE;
        }
        k += 1;
    }
    reg as u16
}

/// `x¹⁰ mod g*(x)` in the left-to-right order of [`parity_row`]: the coefficients of `g`
/// below `x¹⁰`, reversed (row 10 of `H`, `1011011100`).
const REDUCE: u32 = {
    let mut out = 0;
    let mut j = 0;
    while j < 10 {
        // Coefficient of x^j of g* is the coefficient of x^(10-j) of g; place x^j at bit 9-j.
        if GENERATOR & (1 << (10 - j)) != 0 {
            out |= 1 << (9 - j);
        }
        j += 1;
    }
    out
};

const PARITY: [u16; BLOCK_BITS as usize] = {
    let mut rows = [0u16; BLOCK_BITS as usize];
    let mut i = 0;
    while i < BLOCK_BITS as usize {
        rows[i] = parity_row(i as u32);
        i += 1;
    }
    rows
};

/// The 10-bit syndrome `y·H` of a 26-bit block, with the standard's parity-check matrix `H`
/// (EN 50067 Annex B), so an error-free block gives its offset word's syndrome of Annex C
/// (for A, `1111011000`) and the syndromes of the offset words themselves.
pub const fn syndrome(block: u32) -> u16 {
    let mut s = 0;
    let mut i = 0;
    while i < BLOCK_BITS as usize {
        if block & (1 << (BLOCK_BITS as usize - 1 - i)) != 0 {
            s ^= PARITY[i];
        }
        i += 1;
    }
    s
}

/// The longest error burst the code corrects (EN 50067 Annex B: bursts of up to 5 bits).
pub const MAX_BURST: u8 = 5;

/// Syndrome-indexed table of correctable error patterns: every burst of `1..=max_burst` bits
/// (a pattern whose first and last set bits are at most `max_burst` apart) at every place
/// in the block, looked up by its syndrome.
#[derive(Clone, Debug)]
pub struct BurstCorrector {
    /// `patterns[s]` is the error pattern with syndrome `s`, 0 if none is correctable.
    patterns: Box<[u32; 1024]>,
    max_burst: u8,
}

impl BurstCorrector {
    /// A corrector for bursts of up to `max_burst` bits (clamped to [`MAX_BURST`]; 0
    /// corrects nothing). Within that length the code gives every burst its own syndrome,
    /// so the table is unambiguous.
    pub fn new(max_burst: u8) -> Self {
        let max_burst = max_burst.min(MAX_BURST);
        let mut patterns = Box::new([0u32; 1024]);
        if max_burst > 0 {
            let tail = 1u32 << (max_burst - 1);
            for start in 0..BLOCK_BITS {
                // The burst's first bit at `start` (counted from bit 0), further bits above.
                for rest in 0..tail {
                    let pattern = ((rest << 1) | 1) << start;
                    if pattern >> BLOCK_BITS != 0 {
                        continue;
                    }
                    let s = syndrome(pattern) as usize;
                    debug_assert!(patterns[s] == 0 || patterns[s] == pattern);
                    patterns[s] = pattern;
                }
            }
        }
        Self {
            patterns,
            max_burst,
        }
    }

    /// The longest burst corrected.
    pub fn max_burst(&self) -> u8 {
        self.max_burst
    }

    /// `block` corrected as a block at place `offset`: `Some((block, false))` if it is
    /// error-free, `Some((corrected, true))` if its errors form a correctable burst, `None`
    /// otherwise.
    pub fn correct(&self, block: u32, offset: Offset) -> Option<(u32, bool)> {
        let s = syndrome(block) ^ offset.syndrome();
        if s == 0 {
            return Some((block, false));
        }
        match self.patterns[s as usize] {
            0 => None,
            pattern => Some((block ^ pattern, true)),
        }
    }
}
