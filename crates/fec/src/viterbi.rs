//! [`CcDecoder`]: GNU Radio's Viterbi decoder of the K = 7, rate 1/2 convolutional codes
//! (`fec.cc_decoder.make`), with its 8-bit path metrics.
//!
//! Written here rather than taken from a crate: the point is GNU Radio's exact decisions
//! (its metric quantization, saturation, renormalization threshold, tie-breaking and its
//! chainback bookkeeping per mode), which a general Viterbi crate does not reproduce. The
//! arithmetic is that of VOLK's `volk_8u_x4_conv_k7_r2_8u` SSE kernel (the one GNU Radio runs
//! on x86): branch metric `avg(a, b) >> 2` in 0..=63, saturating additions, ties to the lower
//! predecessor's partner, metrics lowered by their minimum when state 0's passes 210.

use crate::cc::{CcCode, CcMode};
use crate::code::{Decoder, Soft, SoftInput};

const K: usize = 7;
const STATES: usize = 1 << (K - 1);
const HALF: usize = STATES / 2;
/// The largest branch metric (`2 · (255 >> 2) >> 2` in VOLK's terms).
const MAX_METRIC: u8 = 63;
const RENORMALIZE_ABOVE: u8 = 210;

/// GNU Radio's Viterbi decoder for a K = 7, rate 1/2 [`CcCode`] (the only shape GNU Radio's
/// `cc_decoder` runs: it throws "parameters not supported" for others). Soft input as bytes
/// (`SoftInput::Uchar` with shift 128: 0 a sure 0 bit, 255 a sure 1).
#[derive(Debug, Clone)]
pub struct CcDecoder {
    code: CcCode,
    /// The register states' bits are `Branchtab` in GNU Radio: 255 where polynomial `j` gives
    /// a 1 for even state `2 i`, at `j · 32 + i`.
    branch: [[u8; HALF]; 2],
    /// The metrics the next frame starts from (GNU Radio's `old_metrics`) and the other
    /// buffer (`new_metrics`), which VOLK's kernel alternates between step by step.
    old: [u8; STATES],
    new: [u8; STATES],
    /// Per step, bit `s` set where new state `s` came from its upper predecessor.
    decisions: Vec<u64>,
    /// Trellis steps per frame (`d_veclen`).
    steps: usize,
    /// The frame size the decoder was made with, the largest it takes.
    max_bits: usize,
    /// The state the next streaming frame starts in (`d_start_state_chaining`).
    start_chaining: u32,
    /// The end state a terminated frame is decoded to (`-1`: the best one found).
    end_state: i64,
    /// A tailbiting frame followed by its own beginning again.
    wrapped: Vec<u8>,
}

impl CcDecoder {
    /// A decoder of `code`, frames ending in `end_state` where `code.mode` is terminated
    /// (`-1`: wherever the metrics say).
    ///
    /// # Errors
    /// Naming the parameter: `k` or the rate is not 7 or 2 (as GNU Radio), a frame shorter than
    /// K - 1 bits, `end_state` is not -1 or a state.
    pub fn new(code: CcCode, end_state: i64) -> Result<Self, (&'static str, String)> {
        if code.k as usize != K {
            return Err((
                "k",
                format!(
                    "{} is not supported: GNU Radio's cc_decoder runs K = 7 only",
                    code.k
                ),
            ));
        }
        if code.rate() != 2 {
            return Err((
                "rate",
                format!(
                    "{} is not supported: GNU Radio's cc_decoder runs rate 1/2 only",
                    code.rate()
                ),
            ));
        }
        // The trace-back of a frame starts K - 1 steps before its end (GNU Radio's
        // `chainback_viterbi(…, framebits - (K - 1), …)`, unsigned there).
        if code.frame_bits < K - 1 {
            return Err((
                "framebits",
                format!(
                    "{} bits are fewer than the {} a K = {K} decoder traces back from",
                    code.frame_bits,
                    K - 1
                ),
            ));
        }
        if end_state < -1 || end_state >= STATES as i64 {
            return Err((
                "state_end",
                format!("{end_state} is neither -1 nor a state of a 6-bit register"),
            ));
        }
        let mut branch = [[0u8; HALF]; 2];
        for (j, row) in branch.iter_mut().enumerate() {
            for (i, b) in row.iter_mut().enumerate() {
                *b = if CcCode::parity(code.polys[j], 2 * i as u32) == 1 {
                    255
                } else {
                    0
                };
            }
        }
        let steps = Self::steps_of(code.mode, code.frame_bits);
        let mut d = Self {
            branch,
            old: [0; STATES],
            new: [0; STATES],
            decisions: vec![0; steps],
            steps,
            max_bits: code.frame_bits,
            start_chaining: code.start_state,
            end_state,
            wrapped: Vec::new(),
            code,
        };
        if d.code.mode == CcMode::Tailbiting {
            d.wrapped = vec![0; 2 * steps];
        }
        match d.code.mode {
            CcMode::Streaming | CcMode::Tailbiting => d.old = [31; STATES],
            CcMode::Truncated | CcMode::Terminated => d.biased(d.code.start_state),
        }
        Ok(d)
    }

    /// Trellis steps of a frame of `bits` data bits (`d_veclen`).
    fn steps_of(mode: CcMode, bits: usize) -> usize {
        match mode {
            CcMode::Tailbiting => bits + 6 * (K - 1),
            CcMode::Truncated => bits,
            CcMode::Streaming | CcMode::Terminated => bits + K - 1,
        }
    }

    /// Metrics for a known start state (GNU Radio's `init_viterbi`).
    fn biased(&mut self, start: u32) {
        self.old = [63; STATES];
        self.old[start as usize % STATES] = 0;
    }

    /// One trellis step from `x` into `y` for symbols `s0, s1`.
    fn step(
        branch: &[[u8; HALF]; 2],
        x: &[u8; STATES],
        y: &mut [u8; STATES],
        s0: u8,
        s1: u8,
    ) -> u64 {
        let mut dec = 0u64;
        for i in 0..HALF {
            let (a, b) = (u16::from(branch[0][i] ^ s0), u16::from(branch[1][i] ^ s1));
            let metric = (((a + b + 1) >> 1) >> 2) as u8;
            let other = MAX_METRIC - metric;
            let (lo, hi) = (x[i], x[i + HALF]);
            let (m0, m1) = (lo.saturating_add(metric), hi.saturating_add(other));
            let (m2, m3) = (lo.saturating_add(other), hi.saturating_add(metric));
            y[2 * i] = m0.min(m1);
            y[2 * i + 1] = m2.min(m3);
            dec |= u64::from(m1 <= m0) << (2 * i);
            dec |= u64::from(m3 <= m2) << (2 * i + 1);
        }
        if y[0] > RENORMALIZE_ABOVE {
            let min = *y.iter().min().unwrap_or(&0);
            for m in y.iter_mut() {
                *m -= min;
            }
        }
        dec
    }

    /// Runs `self.steps` trellis steps over `syms` (two per step). VOLK's kernel takes steps
    /// two at a time, `old -> new -> old`: an odd last step is not taken, its decisions
    /// left 0.
    fn update(&mut self, syms: &[u8]) {
        self.decisions[..self.steps].fill(0);
        for pair in 0..self.steps / 2 {
            let s = 4 * pair;
            self.decisions[2 * pair] =
                Self::step(&self.branch, &self.old, &mut self.new, syms[s], syms[s + 1]);
            self.decisions[2 * pair + 1] = Self::step(
                &self.branch,
                &self.new,
                &mut self.old,
                syms[s + 2],
                syms[s + 3],
            );
        }
    }

    /// The state of least metric (the first of equals), in the buffer GNU Radio reads.
    fn best_end_state(&self) -> u32 {
        let met = if (K + self.steps).is_multiple_of(2) {
            &self.new
        } else {
            &self.old
        };
        let mut best = 0;
        for (s, m) in met.iter().enumerate() {
            if *m < met[best] {
                best = s;
            }
        }
        best as u32
    }

    /// Traces back from `end` over steps `tail ..` (GNU Radio's `chainback_viterbi`, with its
    /// indexing), writing bit `n` at `(n + tail - (K - 1)) % frame`; returns the state after
    /// the step at `frame - (K - 1)` (the next streaming frame's start).
    fn chainback(&self, out: &mut [u8], nbits: usize, end: u32, tail: usize) -> u32 {
        let frame = self.code.frame_bits;
        let dif = tail - (K - 1);
        let mut state = end as usize % STATES;
        let mut back = |n: usize, state: &mut usize| {
            let k = ((self.decisions[n + tail] >> *state) & 1) as usize;
            *state = (*state >> 1) | (k << (K - 2));
            out[(n + dif) % frame] = k as u8;
        };
        let mut ret = 0;
        let threshold = frame - (K - 1);
        let mut n = nbits;
        while n > threshold {
            n -= 1;
            back(n, &mut state);
            ret = state;
        }
        while n > 0 {
            n -= 1;
            back(n, &mut state);
        }
        ret as u32
    }
}

impl Decoder for CcDecoder {
    fn input_size(&self) -> usize {
        self.code.encoded_bits()
    }
    fn output_size(&self) -> usize {
        self.code.frame_bits
    }
    fn history(&self) -> usize {
        if self.code.mode == CcMode::Streaming {
            2 * (K - 1)
        } else {
            0
        }
    }
    fn soft_input(&self) -> SoftInput {
        SoftInput::Uchar { shift: 128.0 }
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Uchar(syms) = input else {
            panic!("cc decoder takes bytes")
        };
        let frame = self.code.frame_bits;
        match self.code.mode {
            CcMode::Tailbiting => {
                let mut wrapped = std::mem::take(&mut self.wrapped);
                let (head, rest) = wrapped[..2 * self.steps].split_at_mut(2 * frame);
                head.copy_from_slice(&syms[..2 * frame]);
                rest.copy_from_slice(&syms[..rest.len()]);
                self.update(&wrapped[..2 * self.steps]);
                self.wrapped = wrapped;
                let end = self.best_end_state();
                self.chainback(output, frame, end, self.steps - frame);
                self.old = [31; STATES];
            }
            CcMode::Truncated => {
                self.update(syms);
                let end = self.best_end_state();
                for i in 0..K - 1 {
                    output[self.steps - 1 - i] = ((end >> i) & 1) as u8;
                }
                self.chainback(output, frame - (K - 1), end, K - 1);
                self.biased(self.code.start_state);
            }
            CcMode::Streaming | CcMode::Terminated => {
                self.update(syms);
                let best = self.best_end_state();
                let end = match (self.code.mode, self.end_state) {
                    (CcMode::Terminated, s) if s >= 0 => s as u32,
                    _ => best,
                };
                self.start_chaining = self.chainback(output, frame, end, K - 1);
                let start = if self.code.mode == CcMode::Streaming {
                    self.start_chaining
                } else {
                    self.code.start_state
                };
                self.biased(start);
            }
        }
    }
    fn rate(&self) -> f64 {
        0.5
    }
    fn set_frame_size(&mut self, bits: usize) -> bool {
        // GNU Radio reads a tailbiting frame's start again: it must be that long.
        if bits < K || (self.code.mode == CcMode::Tailbiting && bits < 6 * (K - 1)) {
            return false;
        }
        let fits = crate::dummy::clamp_frame(&mut self.code.frame_bits, self.max_bits, bits);
        if self.code.mode == CcMode::Terminated {
            // GNU Radio's cc_decoder takes the padding off the frame here (in code bits,
            // from data bits): kept, for the same frames.
            let pad = self.code.padding_bits() * 2;
            self.code.frame_bits = self.code.frame_bits.saturating_sub(pad).max(K);
        }
        self.steps = Self::steps_of(self.code.mode, self.code.frame_bits);
        fits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::CcEncoder;
    use crate::code::Encoder;

    fn roundtrip(mode: CcMode) {
        let code = CcCode::new(64, 7, 2, vec![109, 79], 0, mode, false).unwrap();
        let mut enc = CcEncoder::new(code.clone());
        let mut dec = CcDecoder::new(code, -1).unwrap();
        let frames = 4;
        let bits: Vec<u8> = (0..64 * frames)
            .map(|i| ((i * 7 + i / 3) % 5 % 2) as u8)
            .collect();
        let mut syms = Vec::new();
        for f in bits.chunks(64) {
            let mut out = vec![0; enc.output_size()];
            enc.encode(f, &mut out);
            syms.extend(out.iter().map(|b| if *b == 1 { 176u8 } else { 80 }));
        }
        syms.extend([128; 12]);
        let (n_in, mut decoded) = (dec.input_size(), Vec::new());
        for f in 0..frames {
            let mut out = vec![0; 64];
            dec.decode(
                Soft::Uchar(&syms[f * n_in..(f + 1) * n_in + dec.history()]),
                &mut out,
            );
            decoded.extend(out);
        }
        assert_eq!(decoded, bits, "{mode:?}");
    }

    #[test]
    fn clean_frames_decode_in_every_mode() {
        for mode in [
            CcMode::Streaming,
            CcMode::Terminated,
            CcMode::Tailbiting,
            CcMode::Truncated,
        ] {
            roundtrip(mode);
        }
    }

    #[test]
    fn only_gnu_radios_shape_is_decoded() {
        let c = CcCode::new(64, 5, 2, vec![19, 29], 0, CcMode::Streaming, false).unwrap();
        assert_eq!(CcDecoder::new(c, -1).unwrap_err().0, "k");
        let c = CcCode::new(64, 7, 3, vec![109, 79, 91], 0, CcMode::Streaming, false).unwrap();
        assert_eq!(CcDecoder::new(c, -1).unwrap_err().0, "rate");
        // Shorter than the trace-back: refused (it underflowed before, a panic).
        for mode in [CcMode::Terminated, CcMode::Streaming, CcMode::Truncated] {
            let c = CcCode::new(2, 7, 2, vec![109, 79], 0, mode, false).unwrap();
            let err = CcDecoder::new(c, -1).unwrap_err();
            assert_eq!(err.0, "framebits", "{mode:?}: {}", err.1);
        }
        let c = CcCode::new(6, 7, 2, vec![109, 79], 0, CcMode::Terminated, false).unwrap();
        assert!(CcDecoder::new(c, -1).is_ok());
    }
}
