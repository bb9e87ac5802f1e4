//! [`InterpFirFilter`]: an interpolating FIR filter.

use crate::rate_work::rate_work_delayed;
use radioflow_dsp::{FirSample, InterpolatingFir, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Makes `interpolation` outputs per input: the input with `interpolation - 1` zeros after
/// each sample, filtered by real `taps`, like GNU Radio's `interp_fir_filter_fff`/`_ccf`
/// (kernel [`radioflow_dsp::InterpolatingFir`], polyphase, from zero history as GNU
/// Radio's; checked against its output). A tag on input `i` moves to output
/// `i · interpolation`.
///
/// # Example
/// ```
/// use radioflow_blocks::{InterpFirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// // Linear interpolation by 2.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![2.0f32, 4.0, 6.0]));
/// let interp = fg.add(InterpFirFilter::<f32>::new(&[0.5, 1.0, 0.5], 2)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, interp)?;
/// fg.connect(interp, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert_eq!(y, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "interp_fir_filter",
    summary = "Makes `interpolation` outputs per input with a FIR filter of real `taps` (polyphase; GNU Radio's interp_fir_filter).",
    dtypes = [Complex32, Float32],
    make = Self::new(&taps, interpolation)
        .map(|b| b.with_delay(delay))
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(taps: &[f32], doc = "the filter's taps, designed at the output rate")]
#[param(interpolation: usize = 1, min = 1, doc = "outputs per input")]
#[param(delay: u64 = 0, doc = "the sample delay tags are moved by, in input samples (GNU Radio's declare_sample_delay)")]
#[derive(Debug)]
pub struct InterpFirFilter<T: FirSample + Item> {
    /// The samples (`f32` or `Complex32`).
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The filtered samples, at the input's rate · `interpolation`.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: InterpolatingFir<T>,
    /// Input samples tags are moved by.
    delay: u64,
}

#[block]
impl<T: FirSample + Item> InterpFirFilter<T> {
    /// A filter with these taps making `interpolation` outputs per input.
    ///
    /// # Errors
    /// If `taps` is empty or `interpolation` is 0; the error names the parameter.
    pub fn new(taps: &[f32], interpolation: usize) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: InterpolatingFir::new(taps, interpolation)?,
            delay: 0,
        })
    }

    /// Tags moved as if the input came `delay` samples later (GNU Radio's
    /// `declare_sample_delay`, its `samp_delay` parameter).
    pub fn with_delay(self, delay: u64) -> Self {
        Self { delay, ..self }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.kernel.interpolation() as u64;
        let kernel = &mut self.kernel;
        rate_work_delayed(
            &mut self.input,
            &mut self.output,
            i,
            1,
            self.delay,
            |x, y| kernel.process(x, y),
        );
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{random_real, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn equals_the_kernel_whatever_the_calls() {
        let x = random_real(8, 1000);
        let taps = random_real(9, 25);
        let mut kernel = InterpolatingFir::<f32>::new(&taps, 3).unwrap();
        let mut want = vec![0.0f32; 3000];
        assert_eq!(kernel.process(&x, &mut want), (1000, 3000));
        for (push, space) in [(1000, 4000), (7, 3), (1, 3), (100, 31)] {
            let mut h = Harness::new(InterpFirFilter::<f32>::new(&taps, 3).unwrap());
            h.push_tag("in", 100, "t", 1i64);
            let (y, tags) = run_chunked::<_, _, f32>(&mut h, &x, push, space);
            assert_eq!(y, want, "{push}/{space}");
            assert_eq!(tags, [300], "{push}/{space}");
        }
    }

    #[test]
    fn refuses_bad_parameters() {
        assert_eq!(
            InterpFirFilter::<f32>::new(&[], 2).unwrap_err().name,
            "taps"
        );
        let e = InterpFirFilter::<f32>::new(&[1.0], 0).unwrap_err();
        assert_eq!(e.name, "interpolation");
    }
}
