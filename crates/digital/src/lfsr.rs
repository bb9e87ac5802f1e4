//! [`Lfsr`]: GNU Radio's Fibonacci linear feedback shift register (`digital::lfsr`), the
//! scramblers' sequence.

/// A shift register of `len + 1` bits: each step puts out its low bit and shifts in, at bit
/// `len`, the parity of the register masked by `mask` (GNU Radio's `lfsr`, bit for bit).
#[derive(Clone, Debug)]
pub struct Lfsr {
    register: u64,
    mask: u64,
    seed: u64,
    len: u32,
}

impl Lfsr {
    /// A register holding `seed`.
    ///
    /// # Errors
    /// `len` over 63 (GNU Radio's limit).
    pub fn new(mask: u64, seed: u64, len: u32) -> Result<Self, String> {
        if len > 63 {
            return Err(format!("{len} is over 63"));
        }
        Ok(Self {
            register: seed,
            mask,
            seed,
            len,
        })
    }

    fn feedback(&self) -> u64 {
        u64::from((self.register & self.mask).count_ones() & 1)
    }

    fn shift(&mut self, bit: u64) {
        self.register = (self.register >> 1) | (bit << self.len);
    }

    /// The next bit of the sequence.
    #[inline]
    pub fn next_bit(&mut self) -> u8 {
        let out = (self.register & 1) as u8;
        let bit = self.feedback();
        self.shift(bit);
        out
    }

    /// Multiplicative scrambling of one bit (the low bit of `input`).
    #[inline]
    pub fn scramble(&mut self, input: u8) -> u8 {
        let out = (self.register & 1) as u8;
        let bit = self.feedback() ^ u64::from(input & 1);
        self.shift(bit);
        out
    }

    /// Multiplicative descrambling of one bit (the inverse of [`scramble`](Self::scramble)).
    #[inline]
    pub fn descramble(&mut self, input: u8) -> u8 {
        let out = (self.feedback() ^ u64::from(input & 1)) as u8;
        self.shift(u64::from(input & 1));
        out
    }

    /// Back to the seed.
    pub fn reset(&mut self) {
        self.register = self.seed;
    }
}
