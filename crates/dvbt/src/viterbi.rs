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

/// A step's branch metrics: `agree[s]` on the branches s → 2s and s + 32 → 2s + 1,
/// `disagree[s]` on the other two.
#[derive(Debug, Clone, Copy)]
struct BranchMetrics {
    agree: [u8; 32],
    disagree: [u8; 32],
}

impl BranchMetrics {
    /// gr-dtv's metrics for the pair (x, y): the bits agreeing with `branch` (each
    /// generator's expected bit), an erased bit counting for neither.
    fn new(branch: &[[u8; 32]; 2], x: u8, y: u8) -> Self {
        let mut m = Self {
            agree: [0; 32],
            disagree: [0; 32],
        };
        for (s, (&bx, &by)) in branch[0].iter().zip(&branch[1]).enumerate() {
            let (agree, disagree) = if x == ERASED {
                let d = by ^ y;
                (1u8.wrapping_sub(d), d)
            } else if y == ERASED {
                let d = bx ^ x;
                (1u8.wrapping_sub(d), d)
            } else {
                let d = (bx ^ x) + (by ^ y);
                (2u8.wrapping_sub(d), d)
            };
            m.agree[s] = agree;
            m.disagree[s] = disagree;
        }
        m
    }
}

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
    /// For each received pair (x, y), each 0, 1 or [`ERASED`]: the branch metrics of the
    /// 32 butterflies, (agreeing, disagreeing) bits with the branch from state s into 2s.
    branch_metrics: [[BranchMetrics; 3]; 3],
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
        let branch_metrics = std::array::from_fn(|x| {
            std::array::from_fn(|y| BranchMetrics::new(&branch, x as u8, y as u8))
        });
        let mut v = Self {
            puncture,
            m,
            traceback: Self::traceback_of(rate),
            block_in: block_size * n / m,
            block_out: block_size * k / 8,
            branch_metrics,
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
    /// when their wrapped 8-bit difference is positive (SSE2's signed compare), the survivor's
    /// byte shifted left with a 1 added where it came from s + 32. The survivor bytes shift as
    /// 16-bit lanes, as gr-dtv's SSE2 code shifts them: an even state's top bit moves into
    /// the next state's bottom bit.
    #[inline]
    fn step(&mut self, x: u8, y: u8) {
        let bm = &self.branch_metrics[usize::from(x)][usize::from(y)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 CPU has it.
        unsafe {
            step_sse2(bm, &mut self.metrics, &mut self.paths);
        }
        #[cfg(not(target_arch = "x86_64"))]
        step_portable(bm, &mut self.metrics, &mut self.paths);
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

/// [`Viterbi::step`] one state at a time: the reference the SIMD step is checked against,
/// and the step where there is no SSE2.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn step_portable(bm: &BranchMetrics, metrics: &mut [u8; STATES], paths: &mut [u8; STATES]) {
    let mut new_metrics = [0u8; STATES];
    let mut new_paths = [0u8; STATES];
    // A 16-bit lane's shift: the even byte's top bit into the odd byte's bottom bit.
    let shift = |p: &[u8; STATES], i: usize| {
        let carry = if i % 2 == 1 { p[i - 1] >> 7 } else { 0 };
        (p[i] << 1) | carry
    };
    for s in 0..32 {
        let (a, d) = (bm.agree[s], bm.disagree[s]);
        let m0 = metrics[s].wrapping_add(a);
        let m1 = metrics[s + 32].wrapping_add(d);
        let m2 = metrics[s].wrapping_add(d);
        let m3 = metrics[s + 32].wrapping_add(a);
        let d0 = (m0.wrapping_sub(m1) as i8) > 0;
        let d1 = (m2.wrapping_sub(m3) as i8) > 0;
        let shift0 = shift(paths, s);
        let shift1 = shift(paths, s + 32).wrapping_add(1);
        new_metrics[2 * s] = if d0 { m0 } else { m1 };
        new_metrics[2 * s + 1] = if d1 { m2 } else { m3 };
        new_paths[2 * s] = if d0 { shift0 } else { shift1 };
        new_paths[2 * s + 1] = if d1 { shift0 } else { shift1 };
    }
    *metrics = new_metrics;
    *paths = new_paths;
}

/// [`Viterbi::step`] sixteen states at a time, gr-dtv's SSE2 butterfly's operations.
///
/// # Safety
/// The CPU must have SSE2 (every x86-64 CPU does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn step_sse2(bm: &BranchMetrics, metrics: &mut [u8; STATES], paths: &mut [u8; STATES]) {
    use std::arch::x86_64::*;
    let mut new_metrics = [0u8; STATES];
    let mut new_paths = [0u8; STATES];
    let zero = _mm_setzero_si128();
    let one = _mm_set1_epi8(1);
    // 16 bytes at `p[at..]`; every `at` below is at most 48, so 16 bytes fit in 64 (32 in
    // the branch tables: at most 16).
    let load = |p: &[u8], at: usize| {
        debug_assert!(at + 16 <= p.len());
        // SAFETY: `at + 16 <= p.len()` (the callers' offsets); unaligned loads.
        unsafe { _mm_loadu_si128(p.as_ptr().add(at).cast()) }
    };
    let select = |mask: __m128i, a: __m128i, b: __m128i| {
        _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b))
    };
    for half in 0..2 {
        let at = 16 * half;
        let agree = load(&bm.agree, at);
        let disagree = load(&bm.disagree, at);
        let low = load(metrics, at);
        let high = load(metrics, at + 32);
        let m0 = _mm_add_epi8(low, agree);
        let m1 = _mm_add_epi8(high, disagree);
        let m2 = _mm_add_epi8(low, disagree);
        let m3 = _mm_add_epi8(high, agree);
        let d0 = _mm_cmpgt_epi8(_mm_sub_epi8(m0, m1), zero);
        let d1 = _mm_cmpgt_epi8(_mm_sub_epi8(m2, m3), zero);
        let survivor0 = select(d0, m0, m1);
        let survivor1 = select(d1, m2, m3);
        let shift0 = _mm_slli_epi16(load(paths, at), 1);
        let shift1 = _mm_add_epi8(_mm_slli_epi16(load(paths, at + 32), 1), one);
        let path0 = select(d0, shift0, shift1);
        let path1 = select(d1, shift0, shift1);
        // States 2s and 2s + 1 side by side.
        let out = |dst: &mut [u8; STATES], a: __m128i, b: __m128i| {
            // SAFETY: bytes 2 · at to 2 · at + 32 of 64 (at is 0 or 16); unaligned stores.
            unsafe {
                _mm_storeu_si128(dst.as_mut_ptr().add(2 * at).cast(), _mm_unpacklo_epi8(a, b));
                _mm_storeu_si128(
                    dst.as_mut_ptr().add(2 * at + 16).cast(),
                    _mm_unpackhi_epi8(a, b),
                );
            }
        };
        out(&mut new_metrics, survivor0, survivor1);
        out(&mut new_paths, path0, path1);
    }
    *metrics = new_metrics;
    *paths = new_paths;
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
    fn the_simd_step_is_the_portable_one() {
        // Random metrics, survivors (top bits included) and branch metrics of every pair.
        let mut seed = 0x2545_f491_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as u8
        };
        let branch = [[0u8; 32], [1u8; 32]];
        for round in 0..200 {
            let mut bm = BranchMetrics::new(&branch, (round % 3) as u8, (round / 3 % 3) as u8);
            if round % 2 == 1 {
                bm.agree = std::array::from_fn(|_| next());
                bm.disagree = std::array::from_fn(|_| next());
            }
            let metrics: [u8; STATES] = std::array::from_fn(|_| next());
            let paths: [u8; STATES] = std::array::from_fn(|_| next());
            let (mut m1, mut p1) = (metrics, paths);
            step_portable(&bm, &mut m1, &mut p1);
            #[cfg(target_arch = "x86_64")]
            {
                let (mut m2, mut p2) = (metrics, paths);
                // SAFETY: SSE2 is part of the x86-64 baseline.
                unsafe { step_sse2(&bm, &mut m2, &mut p2) };
                assert_eq!((m1, p1), (m2, p2), "round {round}");
            }
        }
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
