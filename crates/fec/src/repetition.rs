//! [`RepetitionEncoder`] and [`RepetitionDecoder`]: each bit sent `rep` times, decided by
//! vote (GNU Radio's `repetition_encoder` and `repetition_decoder`).

use crate::code::{Decoder, Encoder, Soft};
use crate::dummy::clamp_frame;

/// Each bit of a `frame_bits`-bit frame `rep` times in a row (GNU Radio's
/// `fec.repetition_encoder_make(frame_bits, rep)`).
#[derive(Debug, Clone)]
pub struct RepetitionEncoder {
    frame_bits: usize,
    max_bits: usize,
    rep: usize,
}

impl RepetitionEncoder {
    /// An encoder of `frame_bits`-bit frames repeating each bit `rep` times (both at least 1,
    /// checked by the definition).
    pub fn new(frame_bits: usize, rep: usize) -> Self {
        Self {
            frame_bits,
            max_bits: frame_bits,
            rep,
        }
    }
}

impl Encoder for RepetitionEncoder {
    fn input_size(&self) -> usize {
        self.frame_bits
    }
    fn output_size(&self) -> usize {
        self.frame_bits * self.rep
    }
    fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        for (o, b) in output.chunks_exact_mut(self.rep).zip(input) {
            o.fill(*b);
        }
    }
    fn set_frame_size(&mut self, bits: usize) -> bool {
        clamp_frame(&mut self.frame_bits, self.max_bits, bits)
    }
}

/// Each bit decided from its `rep` soft copies: 1 where the share of positive copies is
/// above `ap_prob` (GNU Radio's `fec.repetition_decoder.make(frame_bits, rep, ap_prob)`;
/// 0.5 is a majority vote).
#[derive(Debug, Clone)]
pub struct RepetitionDecoder {
    frame_bits: usize,
    max_bits: usize,
    rep: usize,
    ap_prob: f32,
}

impl RepetitionDecoder {
    /// A decoder of `frame_bits`-bit frames sent `rep` times each, deciding 1 above share
    /// `ap_prob` (0 to 1, checked by the definition).
    pub fn new(frame_bits: usize, rep: usize, ap_prob: f32) -> Self {
        Self {
            frame_bits,
            max_bits: frame_bits,
            rep,
            ap_prob,
        }
    }
}

impl Decoder for RepetitionDecoder {
    fn input_size(&self) -> usize {
        self.frame_bits * self.rep
    }
    fn output_size(&self) -> usize {
        self.frame_bits
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Float(x) = input else {
            panic!("repetition decoder takes floats")
        };
        for (o, copies) in output.iter_mut().zip(x.chunks_exact(self.rep)) {
            let ones = copies.iter().filter(|x| **x > 0.0).count();
            // In f32 as GNU Radio divides, so a share equal to `ap_prob` compares the same.
            *o = u8::from(ones as f32 / self.rep as f32 > self.ap_prob);
        }
    }
    fn rate(&self) -> f64 {
        1.0 / self.rep as f64
    }
    fn set_frame_size(&mut self, bits: usize) -> bool {
        clamp_frame(&mut self.frame_bits, self.max_bits, bits)
    }
}
