//! The data randomizer (ATSC A/53 Part 2, 5.3.2, figure 5.4): a 16-bit maximal-length shift
//! register, generator X^16 + X^13 + X^12 + X^11 + X^7 + X^6 + X^3 + X + 1, loaded with
//! 0xF180 before the first data segment of each field; each data byte (the sync byte is not
//! sent) is XORed with 8 of its bits, then the register clocks once.
//!
//! The register is kept bit-reversed (as gr-dtv keeps it): X^1 in bit 15, X^16 in bit 0, so
//! the preload reads 0x018F and a clock is a shift right that feeds back through [`FEEDBACK`].

/// The preload 0xF180 with its bits reversed.
const PRELOAD: u16 = 0x018f;
/// The generator's taps in the bit-reversed register.
const FEEDBACK: u16 = 0xa638;
/// Register bits that make output bits D0 to D7 (A/53 Part 2 figure 5.4).
const OUTPUT_BITS: [u16; 8] = [
    0x8000, 0x2000, 0x1000, 0x0200, 0x0020, 0x0010, 0x0008, 0x0004,
];

/// The randomizer's register; [`Randomizer::next_byte`] gives the byte to XOR with the next
/// data byte.
#[derive(Debug, Clone)]
pub struct Randomizer {
    state: u16,
}

impl Default for Randomizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Randomizer {
    /// The register at its preload.
    pub fn new() -> Self {
        Self { state: PRELOAD }
    }

    /// Back to the preload (the start of a field).
    pub fn reset(&mut self) {
        self.state = PRELOAD;
    }

    /// The byte for the next data byte; clocks the register.
    pub fn next_byte(&mut self) -> u8 {
        let mut out = 0u8;
        for (bit, &mask) in OUTPUT_BITS.iter().enumerate() {
            if self.state & mask != 0 {
                out |= 1 << bit;
            }
        }
        self.state = if self.state & 1 != 0 {
            ((self.state ^ FEEDBACK) >> 1) | 0x8000
        } else {
            self.state >> 1
        };
        out
    }

    /// XORs `data` with the next `data.len()` bytes of the sequence (randomizing and
    /// derandomizing are the same).
    pub fn apply(&mut self, data: &mut [u8]) {
        for d in data {
            *d ^= self.next_byte();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_maximal_length() {
        // A primitive generator of degree 16: the register comes back after 2^16 - 1 clocks.
        let mut r = Randomizer::new();
        let mut period = 0;
        loop {
            r.next_byte();
            period += 1;
            if r.state == PRELOAD {
                break;
            }
            assert!(period < 1 << 16);
        }
        assert_eq!(period, (1 << 16) - 1);
    }

    #[test]
    fn applying_twice_restores() {
        let data: Vec<u8> = (0..187).map(|i| (i * 13) as u8).collect();
        let mut x = data.clone();
        Randomizer::new().apply(&mut x);
        assert_ne!(x, data);
        Randomizer::new().apply(&mut x);
        assert_eq!(x, data);
    }
}
