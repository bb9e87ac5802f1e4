//! The inner code's decoder as gr-dtv's `dvbt_viterbi_decoder` computes it: a hard-decision
//! Viterbi decoder of the 171/133 code (ETSI EN 300 744 clause 4.3.3), 64 states of 8-bit
//! wrapping metrics, the survivors' input bits kept a byte a state and traced back a fixed
//! number of bytes, as gr-dtv's SSE2 code (the one Debian's GNU Radio runs on x86-64) does
//! it, decision for decision.

use crate::inner_code::puncturing;
use crate::params::CodeRate;

/// States of the K = 7 code.
const STATES: usize = 64;
/// Traceback bytes gr-dtv keeps at most (rate 7/8's).
const TRACEBACK_MAX: usize = 24;
/// The generators as gr-dtv numbers them: 0x4F and 0x6D, the bit-reversed 171 and 133 octal
/// (the state register's newest bit is its lowest here).
const POLYS: [u8; 2] = [0x4f, 0x6d];

/// A depunctured bit that was not sent: it adds no metric.
const ERASED: u8 = 2;

/// The decoder's state between blocks: metrics and survivor bytes of the 64 states, the ring
/// of the last traceback's survivor bytes.
#[derive(Debug, Clone)]
pub(crate) struct Viterbi {
    /// The code's sent bits of a puncturing period, X1 Y1 X2 Y2 … (1 sent, 0 not).
    puncture: Vec<bool>,
    /// Bits a received byte (the constellation's).
    m: usize,
    /// Bytes traced back before one is output (gr-dtv's choice per rate).
    traceback: usize,
    /// Received bytes a block (whole puncturing periods of `m`-bit bytes).
    block_in: usize,
    /// Decoded bytes a block.
    block_out: usize,
    /// The expected bit of each generator on the branch into state 2s from state s
    /// (s < 32).
    branch: [[u8; 32]; 2],
    metrics: [u8; STATES],
    paths: [u8; STATES],
    /// The last `traceback` survivor bytes, at `store` the newest.
    history: [[u8; STATES]; TRACEBACK_MAX],
    store: usize,
    /// One block depunctured: 0, 1 or [`ERASED`].
    bits: Vec<u8>,
}

impl Viterbi {
    /// gr-dtv's traceback in bytes for `rate`.
    fn traceback_of(rate: CodeRate) -> usize {
        match rate {
            CodeRate::R1_2 => 5,
            CodeRate::R2_3 => 9,
            CodeRate::R3_4 => 10,
            CodeRate::R5_6 => 15,
            CodeRate::R7_8 => 24,
        }
    }

    /// The decoder of `rate` for bytes of `m` bits, in blocks of `block_size` · k / 8
    /// decoded bytes (`k/n` the rate). The caller checks that `block_size · n` is a multiple
    /// of `m` and `block_size · k` of 8.
    pub(crate) fn new(rate: CodeRate, m: usize, block_size: usize) -> Self {
        let (k, n) = rate.k_n();
        debug_assert!((block_size * n).is_multiple_of(m) && (block_size * k).is_multiple_of(8));
        let puncture = puncturing(rate).iter().flat_map(|&(x, y)| [x, y]).collect();
        let mut branch = [[0u8; 32]; 2];
        for (g, poly) in POLYS.iter().enumerate() {
            for (s, b) in branch[g].iter_mut().enumerate() {
                *b = (((2 * s) as u8 & poly).count_ones() & 1) as u8;
            }
        }
        let mut v = Self {
            puncture,
            m,
            traceback: Self::traceback_of(rate),
            block_in: block_size * n / m,
            block_out: block_size * k / 8,
            branch,
            metrics: [0; STATES],
            paths: [0; STATES],
            history: [[0; STATES]; TRACEBACK_MAX],
            store: 0,
            bits: vec![0; 2 * k * block_size],
        };
        v.reset();
        v
    }

    /// Received bytes a block.
    pub(crate) fn block_in(&self) -> usize {
        self.block_in
    }

    /// Decoded bytes a block.
    pub(crate) fn block_out(&self) -> usize {
        self.block_out
    }

    /// Bytes traced back: after a reset, the first this many decoded bytes are not sent
    /// (they were decided before the trellis had settled).
    pub(crate) fn traceback(&self) -> usize {
        self.traceback
    }

    /// Starts again from metrics and survivors all zero (a super-frame's start). The ring's
    /// position stays where it is, as gr-dtv's does.
    pub(crate) fn reset(&mut self) {
        self.metrics = [0; STATES];
        self.paths = [0; STATES];
        self.history = [[0; STATES]; TRACEBACK_MAX];
    }

    /// Decodes one block: `input` ([`block_in`](Self::block_in) bytes of `m` received bits,
    /// the first the most significant) into `output` ([`block_out`](Self::block_out) bytes,
    /// the decision of `traceback` bytes before each).
    pub(crate) fn decode_block(&mut self, input: &[u8], output: &mut [u8]) {
        debug_assert_eq!(input.len(), self.block_in);
        debug_assert_eq!(output.len(), self.block_out);
        self.depuncture(input);
        let mut out = output.iter_mut();
        let mut bits = std::mem::take(&mut self.bits);
        for (q, four) in bits.chunks_exact(4).enumerate() {
            self.step(four[0], four[1]);
            self.step(four[2], four[3]);
            // gr-dtv outputs after the third group of four bits and every fourth after it.
            if q % 4 == 2 {
                *out.next().expect("a block's bytes") = self.output_byte();
            }
        }
        std::mem::swap(&mut self.bits, &mut bits);
    }

    /// Spreads `input`'s bits over the puncturing pattern, [`ERASED`] where a bit was not
    /// sent (the pattern restarts each block).
    fn depuncture(&mut self, input: &[u8]) {
        let period = self.puncture.len();
        let mut count = 0;
        for &byte in input {
            for j in (0..self.m).rev() {
                while !self.puncture[count % period] {
                    self.bits[count] = ERASED;
                    count += 1;
                }
                self.bits[count] = (byte >> j) & 1;
                count += 1;
                while count < self.bits.len() && !self.puncture[count % period] {
                    self.bits[count] = ERASED;
                    count += 1;
                }
            }
        }
        debug_assert_eq!(count, self.bits.len());
    }

    /// One trellis step on the received pair (x, y): the branch metrics are the number of
    /// agreeing bits; state 2s and 2s + 1 come from s or s + 32, the larger metric winning
    /// when their wrapped 8-bit difference is positive, the survivor's byte shifted left with a
    /// 1 in where it came from s + 32.
    fn step(&mut self, x: u8, y: u8) {
        let mut metrics = [0u8; STATES];
        let mut paths = [0u8; STATES];
        for s in 0..32 {
            let (agree, disagree) = if x == ERASED {
                let d = self.branch[1][s] ^ y;
                (1u8.wrapping_sub(d), d)
            } else if y == ERASED {
                let d = self.branch[0][s] ^ x;
                (1u8.wrapping_sub(d), d)
            } else {
                let d = (self.branch[0][s] ^ x) + (self.branch[1][s] ^ y);
                (2u8.wrapping_sub(d), d)
            };
            let m0 = self.metrics[s].wrapping_add(agree);
            let m1 = self.metrics[s + 32].wrapping_add(disagree);
            let m2 = self.metrics[s].wrapping_add(disagree);
            let m3 = self.metrics[s + 32].wrapping_add(agree);
            let d0 = (m0.wrapping_sub(m1) as i8) > 0;
            let d1 = (m2.wrapping_sub(m3) as i8) > 0;
            // SSE2 shifts 16-bit lanes: an even state's top bit moves into the next one's
            // bottom bit (gr-dtv's survivor bytes never hold eight bits when shifted, so it
            // stays 0; kept for exactness).
            let shift = |p: &[u8; STATES], i: usize| {
                let carry = if i % 2 == 1 { p[i - 1] >> 7 } else { 0 };
                (p[i] << 1) | carry
            };
            let shift0 = shift(&self.paths, s);
            let shift1 = shift(&self.paths, s + 32).wrapping_add(1);
            metrics[2 * s] = if d0 { m0 } else { m1 };
            metrics[2 * s + 1] = if d1 { m2 } else { m3 };
            paths[2 * s] = if d0 { shift0 } else { shift1 };
            paths[2 * s + 1] = if d1 { shift0 } else { shift1 };
        }
        self.metrics = metrics;
        self.paths = paths;
    }

    /// Stores the survivors, traces back from the best state (the first of the largest
    /// metric) `traceback` bytes and returns that byte; clears the survivors and lowers the
    /// metrics by their least (they wrap otherwise).
    fn output_byte(&mut self) -> u8 {
        let tb = self.traceback;
        self.store = (self.store + 1) % tb;
        self.history[self.store] = self.paths;
        let mut best = 0;
        let mut least = self.metrics[0];
        for (s, &m) in self.metrics.iter().enumerate().skip(1) {
            if m > self.metrics[best] {
                best = s;
            }
            least = least.min(m);
        }
        let mut pos = self.store;
        for _ in 0..tb - 1 {
            best = usize::from(self.history[pos][best] >> 2);
            pos = (pos + tb - 1) % tb;
        }
        let byte = self.history[pos][best];
        self.paths = [0; STATES];
        for m in &mut self.metrics {
            *m = m.wrapping_sub(least);
        }
        byte
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inner_code::InnerCoder;

    /// Encodes `data` with the transmitter's coder (m = 2) and decodes it.
    fn round_trip(rate: CodeRate, data: &[u8], errors: &[usize]) -> Vec<u8> {
        let m = 2;
        let mut coder = InnerCoder::new(rate, m);
        let mut coded = vec![0u8; data.len() / coder.group_in() * coder.group_out()];
        for (i, o) in data
            .chunks_exact(coder.group_in())
            .zip(coded.chunks_exact_mut(coder.group_out()))
        {
            coder.encode_group(i, o);
        }
        for &e in errors {
            coded[e] ^= 1;
        }
        let (k, _) = rate.k_n();
        let block_size = 8 * 21;
        let mut v = Viterbi::new(rate, m, block_size);
        let mut out = vec![0u8; coded.len() / v.block_in() * v.block_out()];
        for (i, o) in coded
            .chunks_exact(v.block_in())
            .zip(out.chunks_exact_mut(v.block_out()))
        {
            v.decode_block(i, o);
        }
        assert_eq!(v.block_out(), block_size * k / 8);
        out
    }

    #[test]
    fn decodes_what_the_inner_coder_sends_every_rate() {
        for rate in [
            CodeRate::R1_2,
            CodeRate::R2_3,
            CodeRate::R3_4,
            CodeRate::R5_6,
            CodeRate::R7_8,
        ] {
            let data: Vec<u8> = (0..21 * 7 * 8).map(|k| (k * 37 + k / 5) as u8).collect();
            // A few wrong bits, far apart.
            let out = round_trip(rate, &data, &[40, 700, 1500]);
            let tb = Viterbi::traceback_of(rate);
            // Decoded byte j is data byte j - traceback: the survivors' bits are the ones
            // leaving the register, six steps late, and the first byte has six steps.
            assert_eq!(
                out[tb..],
                data[..out.len() - tb],
                "{rate:?}: the data, {tb} bytes late"
            );
        }
    }
}
