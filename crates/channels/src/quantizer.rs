//! [`Quantizer`]: floats rounded to a signed integer of `bits` bits.

use radioflow_dsp::{float_to_int, int_to_float, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Items converted per step (the scratch buffer's size: nothing allocates while data flows).
const STEP: usize = 4096;

/// Quantizes floats as a `bits`-bit converter would (GNU Radio 3.10's `channels.quantizer`,
/// a chain of `multiply_const_ff(2^(bits-1))`, `float_to_short`, `short_to_float` and
/// `multiply_const_ff(2^-(bits-1))`): `x · 2^(bits-1)` rounded to the nearest integer (ties
/// to even) and saturated to a 16-bit short, then scaled back. As in GNU Radio, more than 16
/// bits saturates at the short's range (`bits` 17 clips at ±0.5). Tags pass with their items.
///
/// # Errors
/// `bits` outside 1 to 32, naming the parameter (GNU Radio takes any number, but below 1
/// the scale is a fraction and above 32 nothing changes but the clipping).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_channels::Quantizer;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.3f32, -0.9, 2.0]));
/// let q = fg.add(Quantizer::new(3)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, q)?;
/// fg.connect(q, sink)?;
/// fg.run()?;
/// // Steps of 1/4: 0.3 -> 0.25, -0.9 -> -1.0; 2.0 -> 8/4.
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), [0.25, -1.0, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "quantizer",
    summary = "Floats rounded to a bits-bit signed integer grid and saturated to 16 bits (GNU Radio's channels.quantizer).",
    make = Self::new(bits).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(bits: i64 = 16, doc = "the converter's bits, 1 to 32 (more than 16 saturate at the short's range)")]
#[derive(Debug)]
pub struct Quantizer {
    #[input(name = "in")]
    input: StreamInput<f32>,
    #[output(name = "out")]
    output: StreamOutput<f32>,
    scale: f32,
    shorts: Vec<i16>,
    scaled: Vec<f32>,
}

#[block]
impl Quantizer {
    /// A `bits`-bit quantizer.
    ///
    /// # Errors
    /// `bits` outside 1 to 32, naming the parameter.
    pub fn new(bits: i64) -> Result<Self, ParamError> {
        if !(1..=32).contains(&bits) {
            return Err(ParamError::new("bits", format!("{bits} is not 1 to 32")));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            scale: 2f32.powi(bits as i32 - 1),
            shorts: vec![0; STEP],
            scaled: vec![0.0; STEP],
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self
            .input
            .slice()
            .len()
            .min(self.output.slice().len())
            .min(STEP);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        // GNU Radio's first multiply is its own float product, then float_to_short(1, 1).
        for (s, &x) in self.scaled[..n].iter_mut().zip(&self.input.slice()[..n]) {
            *s = x * self.scale;
        }
        float_to_int(&self.scaled[..n], 1.0, &mut self.shorts[..n]);
        int_to_float(&self.shorts[..n], 1.0, &mut self.scaled[..n]);
        let back = 1.0 / self.scale;
        for (o, &s) in self.output.slice()[..n].iter_mut().zip(&self.scaled[..n]) {
            *o = s * back;
        }
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
