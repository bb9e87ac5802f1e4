//! [`Rms`]: a running root-mean-square level.

use radioflow_dsp::{FirSample, ParamError, SinglePoleIir};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The running RMS of `f32` or `Complex32` samples: the square root of the squared
/// magnitudes smoothed by `y = α·|x|² + (1 - α)·y[-1]` (`f64` state), like GNU Radio's
/// `rms_ff`/`rms_cf`. One `f32` output per input; tags stay on their items.
///
/// # Example
/// ```
/// use radioflow_blocks::{Rms, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// // A unit phasor's RMS is 1 (alpha 1: no smoothing).
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.6, 0.8); 4]));
/// let rms = fg.add(Rms::<Complex32>::new(1.0)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, rms)?;
/// fg.connect(rms, sink)?;
/// fg.run()?;
/// assert!(fg.block::<VectorSink<f32>>(sink).unwrap().data().iter().all(|y| (y - 1.0).abs() < 1e-6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "rms",
    summary = "The running RMS level: sqrt of |x|^2 smoothed by a single-pole IIR of weight alpha (GNU Radio's rms_ff/rms_cf).",
    dtypes = [Complex32, Float32],
    make = Self::new(alpha).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(alpha: f64 = 0.0001, at_least = 0.0, at_most = 1.0, settable, doc = "the weight of the new squared magnitude (set while running: from the next sample on, the state kept)")]
#[derive(Debug)]
pub struct Rms<T: FirSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The RMS level.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    iir: SinglePoleIir,
}

#[block]
impl<T: FirSample + Item> Rms<T> {
    /// A level meter smoothing the squared magnitude with weight `alpha`.
    ///
    /// # Errors
    /// If `alpha` is not in `[0, 1]`.
    pub fn new(alpha: f64) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            iir: SinglePoleIir::new(alpha)?,
        })
    }

    /// Weighs the squared magnitudes from now on with `alpha`, the state kept (GNU Radio's
    /// `set_alpha`).
    ///
    /// # Panics
    /// If `alpha` is not in `[0, 1]` (a running graph's value is checked before).
    pub fn set_alpha(&mut self, alpha: f64) {
        if let Err(e) = self.iir.set_alpha(alpha) {
            panic!("rms: {e}");
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let iir = &mut self.iir;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            let parts = T::components(x);
            for (o, s) in y.iter_mut().zip(parts.chunks_exact(T::COMPONENTS)) {
                // In `f32`, as GNU Radio squares, then smoothed in `f64`.
                let mag_sqrd = s.iter().fold(0f32, |acc, v| acc + v * v);
                *o = iir.step(f64::from(mag_sqrd)).sqrt() as f32;
            }
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn alpha_set_while_running_weighs_the_next_samples_and_keeps_the_state() {
        let mut h = Harness::new(Rms::<f32>::new(1.0).unwrap());
        h.push("in", &[3.0f32]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [3.0]);
        h.post("alpha", 0.5).unwrap();
        // Squares averaged with the kept state 9: (9 + 1) / 2 = 5, then (5 + 1) / 2 = 3.
        h.push("in", &[1.0f32, 1.0]);
        h.work().unwrap();
        let y = h.take_output::<f32>("out");
        assert!(
            (y[0] - 5f32.sqrt()).abs() < 1e-6 && (y[1] - 3f32.sqrt()).abs() < 1e-6,
            "{y:?}"
        );
    }
}
