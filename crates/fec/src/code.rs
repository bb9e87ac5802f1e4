//! [`Encoder`] and [`Decoder`]: what every code object of GNU Radio's FEC API says about itself
//! (frame sizes, conversions the generic blocks put around it) and does (one frame).

use std::fmt::Debug;

/// The conversion a generic encoder block puts around an encoder (GNU Radio's
/// `get_input_conversion` / `get_output_conversion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conversion {
    /// None: one bit per byte in and out (`"none"`).
    None,
    /// Bits are packed 8 per byte, most significant first, before the code (`"pack"`).
    Pack,
    /// The code's output is packed bytes, unpacked most significant bit first after it
    /// (`"packed_bits"`).
    PackedBits,
}

/// A code's encoder: frames of [`input_size`](Self::input_size) bits (one per byte, in the
/// low bit) become frames of [`output_size`](Self::output_size) bits.
pub trait Encoder: Debug + Send {
    /// Bits in per frame.
    fn input_size(&self) -> usize;
    /// Bits out per frame.
    fn output_size(&self) -> usize;
    /// What the generic block does to the input first.
    fn input_conversion(&self) -> Conversion {
        Conversion::None
    }
    /// What the generic block does to the output after.
    fn output_conversion(&self) -> Conversion {
        Conversion::None
    }
    /// Encodes one frame: `input` is [`input_size`](Self::input_size) long, `output`
    /// [`output_size`](Self::output_size). An encoder may carry state from frame to frame
    /// (a streaming convolutional code).
    fn encode(&mut self, input: &[u8], output: &mut [u8]);
    /// Sets the frame to `bits` bits, at most the size it was made with (GNU Radio's
    /// `set_frame_size`, which the PDU blocks call per PDU): `false` where `bits` is more
    /// (the frame is then that largest size) or a frame of `bits` cannot be coded.
    fn set_frame_size(&mut self, bits: usize) -> bool;
}

/// What a decoder takes: GNU Radio's generic blocks give soft values as floats, or turn them
/// into bytes first (`"uchar"`: `rint(x · 48 + shift)` clamped to 0..=255).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SoftInput {
    /// Floats as they come (positive: a 1 bit).
    Float,
    /// Bytes, `rint(x · 48 + shift)` clamped to 0..=255 (128 + 48 for a clean 1 bit with GNU
    /// Radio's shift of 128).
    Uchar {
        /// The offset added after scaling (GNU Radio's `get_shift`).
        shift: f32,
    },
}

impl SoftInput {
    /// The byte GNU Radio's generic blocks make of soft value `x` for a `Uchar` decoder
    /// (`multiply_const_ff(48)`, `add_const_ff(shift)`, `float_to_uchar`, each in `f32`).
    pub fn quantize(shift: f32, x: f32) -> u8 {
        let v = (x * 48.0 + shift).round_ties_even();
        // `as` saturates (and makes NaN 0), as float_to_uchar clamps.
        v as u8
    }
}

/// Soft values of one frame, as the decoder's [`SoftInput`] says.
#[derive(Debug, Clone, Copy)]
pub enum Soft<'a> {
    /// For a [`SoftInput::Float`] decoder.
    Float(&'a [f32]),
    /// For a [`SoftInput::Uchar`] decoder.
    Uchar(&'a [u8]),
}

/// A code's decoder: frames of [`input_size`](Self::input_size) soft values (plus
/// [`history`](Self::history) values of the next frame it looks ahead into) become frames of
/// [`output_size`](Self::output_size) bits, one per byte.
pub trait Decoder: Debug + Send {
    /// Soft values consumed per frame.
    fn input_size(&self) -> usize;
    /// Bits out per frame.
    fn output_size(&self) -> usize;
    /// Soft values past the frame the decoder reads (a streaming Viterbi decoder's look
    /// ahead); the frame's input slice is `input_size + history` long.
    fn history(&self) -> usize {
        0
    }
    /// The form it takes soft values in.
    fn soft_input(&self) -> SoftInput {
        SoftInput::Float
    }
    /// Decodes one frame into `output` ([`output_size`](Self::output_size) long).
    ///
    /// # Panics
    /// If `input` is not in the form [`soft_input`](Self::soft_input) says.
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]);
    /// Data bits per code bit (GNU Radio's `rate()` of a decoder: 1/2 for a rate 1/2 code).
    fn rate(&self) -> f64;
    /// As [`Encoder::set_frame_size`], `bits` being data bits.
    fn set_frame_size(&mut self, bits: usize) -> bool;
    /// Iterations the last frame took (GNU Radio's `get_iterations`; -1 for a decoder that
    /// does not iterate).
    fn iterations(&self) -> i64 {
        -1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantize_rounds_half_to_even_and_clamps_like_float_to_uchar() {
        assert_eq!(SoftInput::quantize(128.0, 1.0), 176);
        assert_eq!(SoftInput::quantize(128.0, -1.0), 80);
        assert_eq!(SoftInput::quantize(0.0, 0.5 / 48.0), 0);
        assert_eq!(SoftInput::quantize(128.0, 10.0), 255);
        assert_eq!(SoftInput::quantize(128.0, -10.0), 0);
        assert_eq!(SoftInput::quantize(128.0, f32::NAN), 0);
    }
}
