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
#[param(alpha: f64 = 1.0, at_least = 0.0, at_most = 1.0, doc = "the weight of the new sample")]
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

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process_samples(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}
