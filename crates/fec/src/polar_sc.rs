//! Successive cancellation on a polar code: [`ScState`] (one decoding path's likelihoods and
//! partial sums, as Tal and Vardy lay them out) and [`PolarScDecoder`] (GNU Radio's
//! `fec.polar_decoder_sc.make` and `fec.polar_decoder_sc_systematic.make`).
//!
//! GNU Radio's arithmetic: each soft value `y` (positive for a 1 bit) becomes the likelihood
//! ratio `y · -2.19722458` in f32; two ratios combine as `sign(a) sign(b) min(|a|, |b|)` for
//! the upper bit and `b ± a` (minus where the upper bit is 1) for the lower; a bit is 1 where
//! its ratio is below 0. Those operations round the same whatever order a decoder visits the
//! tree in, so its decisions are GNU Radio's.

use crate::code::{Decoder, Soft};
use crate::polar::{transform, PolarCode};

/// GNU Radio's factor from a soft value to a likelihood ratio (`D_LLR_FACTOR`).
const LLR_FACTOR: f32 = -2.197_224_6;

/// One path's state: per layer λ (0 the channel, `n` the bit decided) its `2^(n-λ)`
/// likelihood ratios and partial-sum pairs, and the bits decided.
#[derive(Debug, Clone)]
pub(crate) struct ScState {
    power: u32,
    /// Layer λ starts at `offsets[λ]` in `p`, at twice that in `c`.
    offsets: Vec<usize>,
    p: Vec<f32>,
    c: Vec<u8>,
    pub(crate) u: Vec<u8>,
    /// The ratio of the bit last computed.
    pub(crate) llr: f32,
}

fn upper(a: f32, b: f32) -> f32 {
    1f32.copysign(a) * 1f32.copysign(b) * a.abs().min(b.abs())
}

fn lower(a: f32, b: f32, upper_bit: u8) -> f32 {
    if upper_bit == 0 {
        b + a
    } else {
        b - a
    }
}

impl ScState {
    pub(crate) fn new(code: &PolarCode) -> Self {
        let power = code.power();
        let mut offsets = Vec::with_capacity(power as usize + 1);
        let mut at = 0;
        for layer in 0..=power {
            offsets.push(at);
            at += code.n() >> layer;
        }
        Self {
            power,
            offsets,
            p: vec![0.0; at],
            c: vec![0; 2 * at],
            u: vec![0; code.n()],
            llr: 0.0,
        }
    }

    /// Starts a block of soft values `y`.
    pub(crate) fn init(&mut self, y: &[f32]) {
        for (p, y) in self.p.iter_mut().zip(y) {
            *p = y * LLR_FACTOR;
        }
        self.u.fill(0);
    }

    /// Computes the ratio of bit `phi` (the bits before it decided) into `llr`.
    pub(crate) fn compute(&mut self, phi: usize) {
        self.calc(self.power as usize, phi);
        self.llr = self.p[self.offsets[self.power as usize]];
    }

    fn calc(&mut self, layer: usize, phi: usize) {
        if layer == 0 {
            return;
        }
        let even = phi.is_multiple_of(2);
        if even {
            self.calc(layer - 1, phi >> 1);
        }
        let (prev, this) = (self.offsets[layer - 1], self.offsets[layer]);
        let size = 1usize << (self.power as usize - layer);
        for beta in 0..size {
            let (a, b) = (self.p[prev + 2 * beta], self.p[prev + 2 * beta + 1]);
            self.p[this + beta] = if even {
                upper(a, b)
            } else {
                lower(a, b, self.c[2 * (this + beta)])
            };
        }
    }

    /// Decides bit `phi` to be `bit`.
    pub(crate) fn decide(&mut self, phi: usize, bit: u8) {
        self.u[phi] = bit;
        let top = self.offsets[self.power as usize];
        self.c[2 * top + phi % 2] = bit;
        if phi % 2 == 1 {
            self.update(self.power as usize, phi);
        }
    }

    fn update(&mut self, layer: usize, phi: usize) {
        if layer == 0 {
            return;
        }
        let psi = phi >> 1;
        let (prev, this) = (self.offsets[layer - 1], self.offsets[layer]);
        let size = 1usize << (self.power as usize - layer);
        for beta in 0..size {
            let (c0, c1) = (self.c[2 * (this + beta)], self.c[2 * (this + beta) + 1]);
            self.c[2 * (prev + 2 * beta) + psi % 2] = c0 ^ c1;
            self.c[2 * (prev + 2 * beta + 1) + psi % 2] = c1;
        }
        if psi % 2 == 1 {
            self.update(layer - 1, psi);
        }
    }

    /// Takes `other`'s state (no allocation: the sizes are equal).
    pub(crate) fn copy_from(&mut self, other: &Self) {
        self.p.copy_from_slice(&other.p);
        self.c.copy_from_slice(&other.c);
        self.u.copy_from_slice(&other.u);
        self.llr = other.llr;
    }
}

/// The data of decided bits `u`: at the information positions, or for a systematic code, at
/// the bit-reversed information positions of `u` coded again (`frame` for the scratch).
pub(crate) fn extract(
    code: &PolarCode,
    systematic: bool,
    u: &[u8],
    frame: &mut [u8],
    out: &mut [u8],
) {
    if systematic {
        frame.copy_from_slice(u);
        transform(frame, code.power());
        for (o, r) in out.iter_mut().zip(code.info_reversed()) {
            *o = frame[*r];
        }
    } else {
        for (o, i) in out.iter_mut().zip(code.info()) {
            *o = u[*i];
        }
    }
}

/// GNU Radio's successive cancellation decoders: `fec.polar_decoder_sc.make(N, K, positions,
/// values)` and (`systematic`) `fec.polar_decoder_sc_systematic.make(N, K, positions)`.
/// Blocks of `N` soft values (positive: a 1 bit) to `K` data bits.
#[derive(Debug, Clone)]
pub struct PolarScDecoder {
    code: PolarCode,
    systematic: bool,
    state: ScState,
    frame: Vec<u8>,
}

impl PolarScDecoder {
    /// A decoder of `code`, systematic or not.
    pub fn new(code: PolarCode, systematic: bool) -> Self {
        Self {
            state: ScState::new(&code),
            frame: vec![0; code.n()],
            code,
            systematic,
        }
    }
}

impl Decoder for PolarScDecoder {
    fn input_size(&self) -> usize {
        self.code.n()
    }
    fn output_size(&self) -> usize {
        self.code.k()
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Float(input) = input else {
            panic!("the polar decoder takes floats");
        };
        self.state.init(input);
        for phi in 0..self.code.n() {
            self.state.compute(phi);
            let bit = self
                .code
                .frozen_value(phi)
                .unwrap_or(u8::from(self.state.llr < 0.0));
            self.state.decide(phi, bit);
        }
        extract(
            &self.code,
            self.systematic,
            &self.state.u,
            &mut self.frame,
            output,
        );
    }
    fn rate(&self) -> f64 {
        self.code.k() as f64 / self.code.n() as f64
    }
    /// Refused (`false`) whatever `bits` is: one block per frame, as GNU Radio's.
    fn set_frame_size(&mut self, _bits: usize) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Encoder;
    use crate::polar::PolarEncoder;

    #[test]
    fn clean_blocks_decode_systematic_or_not() {
        let code = PolarCode::new(16, 8, vec![0, 1, 2, 3, 4, 5, 8, 9], vec![1, 0, 1]).unwrap();
        for systematic in [false, true] {
            let code = if systematic {
                PolarCode::new(16, 8, code.frozen().to_vec(), vec![]).unwrap()
            } else {
                code.clone()
            };
            let mut enc = PolarEncoder::new(code.clone(), systematic);
            let mut dec = PolarScDecoder::new(code, systematic);
            let data = [1, 0, 0, 1, 1, 1, 0, 1];
            let mut x = [0u8; 16];
            enc.encode(&data, &mut x);
            let soft: Vec<f32> = x.iter().map(|b| f32::from(*b) * 2.0 - 1.0).collect();
            let mut out = [9u8; 8];
            dec.decode(Soft::Float(&soft), &mut out);
            assert_eq!(out, data, "systematic {systematic}");
        }
    }
}
