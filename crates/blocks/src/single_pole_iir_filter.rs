//! [`SinglePoleIirFilter`]: an exponential smoother.

use radioflow_dsp::{FirSample, ParamError, SinglePoleIir};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Smooths `f32` or `Complex32` samples, `y[n] = α·x[n] + (1 - α)·y[n-1]` from zero, like
/// GNU Radio's `single_pole_iir_filter_ff`/`_cc` (kernel [`radioflow_dsp::SinglePoleIir`],
/// `f64` state as GNU Radio's; a complex sample's parts each on their own). One output per
/// input; tags stay on their items.
///
/// # Example
/// ```
/// use radioflow_blocks::{SinglePoleIirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32; 3]));
/// let iir = fg.add(SinglePoleIirFilter::<f32>::new(0.5)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, iir)?;
/// fg.connect(iir, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), [0.5, 0.75, 0.875]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "single_pole_iir_filter",
    summary = "Exponential smoothing y = alpha x + (1 - alpha) y[-1] (GNU Radio's single_pole_iir_filter).",
    dtypes = [Complex32, Float32],
    make = Self::new(alpha).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(alpha: f64 = 1.0, at_least = 0.0, at_most = 1.0, settable, doc = "the weight of the new sample (set while running: from the next sample on, the state kept)")]
#[derive(Debug)]
pub struct SinglePoleIirFilter<T: FirSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The smoothed samples.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: SinglePoleIir,
}

#[block]
impl<T: FirSample + Item> SinglePoleIirFilter<T> {
    /// A smoother with weight `alpha` on the new sample.
    ///
    /// # Errors
    /// If `alpha` is not in `[0, 1]`.
    pub fn new(alpha: f64) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: SinglePoleIir::new(alpha)?,
        })
    }

    /// Weighs the samples from now on with `alpha`, the state kept (GNU Radio's `set_taps`).
    ///
    /// # Panics
    /// If `alpha` is not in `[0, 1]` (a running graph's value is checked before).
    pub fn set_alpha(&mut self, alpha: f64) {
        if let Err(e) = self.kernel.set_alpha(alpha) {
            panic!("single_pole_iir_filter: {e}");
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process_samples(x, y)
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
        let mut h = Harness::new(SinglePoleIirFilter::<f32>::new(1.0).unwrap());
        h.push("in", &[4.0f32]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [4.0]);
        // Through the settable parameter's message input, as a running graph gets it.
        h.post("alpha", 0.5).unwrap();
        h.push("in", &[0.0f32, 0.0]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [2.0, 1.0]);
        // A value outside [0, 1] is refused (warned, not applied): alpha stays 0.5.
        h.post("alpha", 1.5).unwrap();
        h.push("in", &[0.0f32]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [0.5]);
    }
}
