//! [`Prbs`]: DVB-T2's pseudo-random binary sequence 1 + x^14 + x^15 (ETSI EN 302 755
//! clause 5.2.2's scrambler), which scrambles L1-post (clause 7.3.2.1, version 1.3.1) and
//! makes the dummy cells (clause 8.3.7).

/// The sequence from its start (register 100101010000000), one bit per call.
#[derive(Debug, Clone)]
pub(crate) struct Prbs {
    register: u16,
}

impl Prbs {
    /// The sequence at its first bit.
    pub(crate) fn new() -> Self {
        Self { register: 0x4A80 }
    }
}

impl Iterator for Prbs {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        // The register's two last stages (x^14 and x^15) sum to the output, which enters
        // the first stage.
        let b = (self.register ^ (self.register >> 1)) & 1;
        self.register >>= 1;
        self.register |= b << 14;
        Some(b as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_as_the_standard_says() {
        // EN 302 755 clause 5.2.2: the scrambler's first bits are 0000 0011 ...
        let first: Vec<u8> = Prbs::new().take(8).collect();
        assert_eq!(first, [0, 0, 0, 0, 0, 0, 1, 1]);
        // Period 2^15 - 1.
        let mut p = Prbs::new();
        let head: Vec<u8> = p.by_ref().take(40).collect();
        let mut q = Prbs::new();
        q.nth(32766);
        let again: Vec<u8> = q.take(40).collect();
        assert_eq!(head, again);
    }
}
