//! [`DummyEncoder`] and [`DummyDecoder`]: no code at all (GNU Radio's `dummy_encoder` and
//! `dummy_decoder`), to measure a channel's raw bit errors through the same blocks.

use crate::code::{Decoder, Encoder, Soft};

/// Copies frames of `frame_bits` bits (GNU Radio's `fec.dummy_encoder_make(frame_bits)`).
#[derive(Debug, Clone)]
pub struct DummyEncoder {
    frame_bits: usize,
    max_bits: usize,
}

impl DummyEncoder {
    /// An encoder of `frame_bits`-bit frames (at least 1, checked by the definition).
    pub fn new(frame_bits: usize) -> Self {
        Self {
            frame_bits,
            max_bits: frame_bits,
        }
    }
}

/// GNU Radio's `set_frame_size` of every code: at most the size the object was made with.
pub(crate) fn clamp_frame(frame: &mut usize, max: usize, bits: usize) -> bool {
    *frame = bits.min(max);
    bits <= max
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
    fn set_frame_size(&mut self, bits: usize) -> bool {
        clamp_frame(&mut self.frame_bits, self.max_bits, bits)
    }
}

/// Decides each soft value by its sign: 1 where `>= 0` (GNU Radio's
/// `fec.dummy_decoder.make(frame_bits)`, VOLK's binary slicer).
#[derive(Debug, Clone)]
pub struct DummyDecoder {
    frame_bits: usize,
    max_bits: usize,
}

impl DummyDecoder {
    /// A decoder of `frame_bits`-bit frames.
    pub fn new(frame_bits: usize) -> Self {
        Self {
            frame_bits,
            max_bits: frame_bits,
        }
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
    fn rate(&self) -> f64 {
        1.0
    }
    fn set_frame_size(&mut self, bits: usize) -> bool {
        clamp_frame(&mut self.frame_bits, self.max_bits, bits)
    }
}
