//! The trellis coding (ATSC A/53 Part 2, 5.3.5): 12 identical encoders, each a precoder on
//! the byte pair's high bit and a rate-1/2, 4-state convolutional code on the low bit
//! (figure 5.7), whose 3-bit outputs are the 8 levels' indexes (0 for -7 to 7 for +7); bytes
//! go to the encoders and symbols come from them in the order of table 5.2, where the
//! order moves by four encoders at each segment sync.

/// Encoders side by side.
pub(crate) const CODERS: usize = 12;
/// Data symbols a segment: 207 bytes of four 2-bit symbols.
const DATA_SYMBOLS: usize = 828;
/// The segment sync (A/53 Part 2, 5.2): +5, -5, -5, +5, as level indexes.
pub(crate) const SEGMENT_SYNC: [u8; 4] = [6, 1, 1, 6];

/// One encoder: the precoder's delay (its last Y2) and the code's two delays.
#[derive(Debug, Clone, Copy, Default)]
struct Coder {
    precoded: u8,
    d1: u8,
    d0: u8,
}

impl Coder {
    /// The level index for the 2-bit input `x` (X2 high, X1 low).
    fn encode(&mut self, x: u8) -> u8 {
        let (x2, x1) = (x >> 1 & 1, x & 1);
        let y2 = x2 ^ self.precoded;
        self.precoded = y2;
        let z0 = self.d0;
        (self.d1, self.d0) = (self.d0, x1 ^ self.d1);
        y2 << 2 | x1 << 1 | z0
    }
}

/// The 12 encoders and the order they take bytes in.
#[derive(Debug, Clone, Default)]
pub struct TrellisEncoder {
    coders: [Coder; CODERS],
}

impl TrellisEncoder {
    /// Encoders at state 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// Codes 12 segments: `codewords` (12 · 207 bytes) into `symbols` (12 · 832 level
    /// indexes, each segment's 4 sync symbols first).
    ///
    /// The 207 · 12 bytes go 12 at a time, byte i of a group to encoder `(first + i) mod 12`;
    /// each group makes 48 symbols: 12 of its bits 7-6 (encoder `first` first), then 12 of
    /// bits 5-4, 3-2, 1-0. `first` starts at 0 and moves on by 4 at each segment sync; a sync
    /// that falls before a group (every fourth segment) moves it before the group's bytes are
    /// handed out.
    pub fn encode(&mut self, codewords: &[u8], symbols: &mut [u8]) {
        debug_assert_eq!(codewords.len(), CODERS * 207);
        debug_assert_eq!(symbols.len(), CODERS * (DATA_SYMBOLS + 4));
        let mut first = CODERS - 4;
        let (mut at, mut next_sync) = (0, 0);
        let mut moved = false;
        let mut bytes = [0u8; CODERS];
        for group in codewords.chunks_exact(CODERS) {
            if at == next_sync {
                first = (first + 4) % CODERS;
                moved = true;
            }
            for (i, &b) in group.iter().enumerate() {
                bytes[(first + i) % CODERS] = b;
            }
            for shift in [6, 4, 2, 0] {
                if at == next_sync {
                    symbols[at..at + 4].copy_from_slice(&SEGMENT_SYNC);
                    at += 4;
                    next_sync = at + DATA_SYMBOLS;
                    if !moved {
                        first = (first + 4) % CODERS;
                    }
                    moved = false;
                }
                for i in 0..CODERS {
                    let c = (first + i) % CODERS;
                    symbols[at] = self.coders[c].encode(bytes[c] >> shift & 3);
                    at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_s_outputs_follow_figure_5_7() {
        // From state 0: Z2 Z1 is the input, Z0 the code's delay (0).
        for x in 0..4 {
            assert_eq!(Coder::default().encode(x), x << 1);
        }
        // The precoder: a 1 in X2 stays in Y2 until the next 1.
        let mut c = Coder::default();
        let high: Vec<u8> = [2, 0, 0, 2, 0].iter().map(|&x| c.encode(x) >> 2).collect();
        assert_eq!(high, [1, 1, 1, 0, 0]);
    }

    #[test]
    fn each_segment_starts_with_its_sync() {
        let mut enc = TrellisEncoder::new();
        let codewords = vec![0u8; CODERS * 207];
        let mut symbols = vec![9u8; CODERS * 832];
        enc.encode(&codewords, &mut symbols);
        for seg in symbols.chunks(832) {
            assert_eq!(seg[..4], SEGMENT_SYNC);
            // Zeros through encoders at state 0: level index 0.
            assert!(seg[4..].iter().all(|&s| s == 0));
        }
    }
}
