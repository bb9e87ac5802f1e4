//! [`DcBlocker`]: removes the DC component with cascaded moving averages.

use radioflow_dsp::{DcBlocker as Kernel, FirSample, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Removes the DC component of `f32` or `Complex32` samples, like GNU Radio's
/// `dc_blocker_ff`/`_cc`: the input, delayed to line up, minus its mean over cascaded moving
/// averages of `length` samples, four of them (`long_form`) or two (kernel
/// [`radioflow_dsp::DcBlocker`]). One output per input; tags keep their positions.
///
/// # Example
/// ```
/// use radioflow_blocks::{DcBlocker, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![5.0f32; 500]));
/// let dc = fg.add(DcBlocker::<f32>::new(32, true)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, dc)?;
/// fg.connect(dc, sink)?;
/// fg.run()?;
/// assert!(fg.block::<VectorSink<f32>>(sink).unwrap().data()[200..].iter().all(|v| v.abs() < 1e-6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dc_blocker",
    summary = "Removes DC: the input minus its mean over cascaded moving averages of `length` (GNU Radio's dc_blocker).",
    dtypes = [Complex32, Float32],
    make = Self::new(length, long_form).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(length: usize = 32, min = 1, doc = "the moving averages' length, samples")]
#[param(long_form: bool = true, doc = "four averages (flatter pass band) rather than two")]
#[derive(Debug)]
pub struct DcBlocker<T: FirSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The samples without their DC component.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: Kernel<T>,
}

#[block]
impl<T: FirSample + Item> DcBlocker<T> {
    /// A DC blocker averaging over `length` samples, long form (4 averages) or short (2).
    ///
    /// # Errors
    /// If `length` is 0 (naming it).
    pub fn new(length: usize, long_form: bool) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(length, long_form)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_zero_length() {
        assert_eq!(DcBlocker::<f32>::new(0, true).unwrap_err().name, "length");
    }
}
