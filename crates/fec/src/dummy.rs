//! [`DummyEncoder`] and [`DummyDecoder`]: no code at all (GNU Radio's `dummy_encoder` and
//! `dummy_decoder`), to measure a channel's raw bit errors through the same blocks.

use crate::code::{Decoder, Encoder, Soft};

/// Copies frames of `frame_bits` bits (GNU Radio's `fec.dummy_encoder_make(frame_bits)`).
#[derive(Debug, Clone)]
pub struct DummyEncoder {
    frame_bits: usize,
}

impl DummyEncoder {
    /// An encoder of `frame_bits`-bit frames (at least 1, checked by the definition).
    pub fn new(frame_bits: usize) -> Self {
        Self { frame_bits }
    }
}

impl Encoder for DummyEncoder {
    fn input_size(&self) -> usize {
        self.frame_bits
    }
    fn output_size(&self) -> usize {
        self.frame_bits
    }
    fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        output.copy_from_slice(input);
    }
}

/// Decides each soft value by its sign: 1 where `>= 0` (GNU Radio's
/// `fec.dummy_decoder.make(frame_bits)`, VOLK's binary slicer).
#[derive(Debug, Clone)]
pub struct DummyDecoder {
    frame_bits: usize,
}

impl DummyDecoder {
    /// A decoder of `frame_bits`-bit frames.
    pub fn new(frame_bits: usize) -> Self {
        Self { frame_bits }
    }
}

impl Decoder for DummyDecoder {
    fn input_size(&self) -> usize {
        self.frame_bits
    }
    fn output_size(&self) -> usize {
        self.frame_bits
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Float(x) = input else {
            panic!("dummy decoder takes floats")
        };
        for (o, x) in output.iter_mut().zip(x) {
            *o = u8::from(*x >= 0.0);
        }
    }
}
