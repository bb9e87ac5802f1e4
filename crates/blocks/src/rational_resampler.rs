//! [`RationalResampler`]: changes the sample rate by `interpolation / decimation`.

use crate::rate_work::rate_work;
use radioflow_dsp::{firdes, FirSample, ParamError, RationalResampler as Kernel};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Resamples `f32` or `Complex32` samples by `interpolation / decimation` with a polyphase
/// filter, like GNU Radio's `rational_resampler_xxf` (kernel
/// [`radioflow_dsp::RationalResampler`], checked against GNU Radio's output; like it, the
/// output starts at the first full window). A tag on input `i` moves to output
/// `i · interpolation / decimation` rounded (halves up, as GNU Radio), or later when that
/// output was made already (the kernel takes input ahead of the output space it is
/// given).
///
/// The taps are designed at `interpolation` times the input rate with gain `interpolation`:
/// [`new`](Self::new) designs them as GNU Radio does when given none
/// ([`firdes::resampler`]).
///
/// # Example
/// ```
/// use radioflow_blocks::{RationalResampler, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// // 48 kHz -> 44.1 kHz of a constant: the constant, 147 per 160.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32; 4800]));
/// let rs = fg.add(RationalResampler::<f32>::new(147, 160)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, rs)?;
/// fg.connect(rs, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert!(y.len() > 4300 && (y[4000] - 1.0).abs() < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "rational_resampler",
    summary = "Resamples by `interpolation / decimation` (polyphase; GNU Radio's rational_resampler).",
    dtypes = [Complex32, Float32],
    make = Self::with_bandwidth(interpolation, decimation, fractional_bw)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(interpolation: usize, min = 1, doc = "the interpolation factor")]
#[param(decimation: usize, min = 1, doc = "the decimation factor")]
#[param(fractional_bw: f64 = 0.0, at_least = 0.0, below = 0.5, doc = "the designed filter's pass band, a fraction of the lower Nyquist band (0: GNU Radio's default, 0.4)")]
#[derive(Debug)]
pub struct RationalResampler<T: FirSample + Item> {
    /// The samples (`f32` or `Complex32`).
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The samples at the input's rate · `interpolation / decimation`.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: Kernel<T>,
}

#[block]
impl<T: FirSample + Item> RationalResampler<T> {
    /// A resampler by `interpolation / decimation` with GNU Radio's default taps.
    ///
    /// # Errors
    /// If a factor is 0; the error names it.
    pub fn new(interpolation: usize, decimation: usize) -> Result<Self, ParamError> {
        Self::with_bandwidth(interpolation, decimation, 0.0)
    }

    /// A resampler with the taps GNU Radio designs for a pass band of `fractional_bw` of the
    /// lower Nyquist band (its `fractional_bw`; 0 is GNU Radio's default, 0.4).
    ///
    /// # Errors
    /// If a factor is 0 or `fractional_bw` is not in `[0, 0.5)`; the error names it.
    pub fn with_bandwidth(
        interpolation: usize,
        decimation: usize,
        fractional_bw: f64,
    ) -> Result<Self, ParamError> {
        let taps = firdes::resampler(interpolation, decimation, fractional_bw)?;
        Self::with_taps(&taps, interpolation, decimation)
    }

    /// A resampler with these taps.
    ///
    /// # Errors
    /// If `taps` is empty or a factor is 0; the error names the parameter.
    pub fn with_taps(
        taps: &[f32],
        interpolation: usize,
        decimation: usize,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(taps, interpolation, decimation)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (i, d) = (
            self.kernel.interpolation() as u64,
            self.kernel.decimation() as u64,
        );
        let kernel = &mut self.kernel;
        rate_work(&mut self.input, &mut self.output, i, d, |x, y| {
            kernel.process(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{random_real, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn equals_the_kernel_in_one_call_whatever_the_calls() {
        let x = random_real(8, 3000);
        let taps = firdes::resampler(3, 2, 0.0).unwrap();
        let mut kernel = Kernel::<f32>::new(&taps, 3, 2).unwrap();
        let mut want = vec![0.0f32; 5000];
        let (c, p) = kernel.process(&x, &mut want);
        assert_eq!(c, 3000);
        want.truncate(p);
        for (push, space) in [(3000, 8000), (7, 3), (1, 1), (100, 33)] {
            let mut h = Harness::new(RationalResampler::<f32>::new(3, 2).unwrap());
            h.push_tag("in", 100, "t", 1i64);
            let (y, tags) = run_chunked::<_, _, f32>(&mut h, &x, push, space);
            assert_eq!(y, want, "{push}/{space}");
            assert_eq!(tags.len(), 1);
            assert!(tags[0] >= 150, "{tags:?}");
            if space == 8000 {
                assert_eq!(tags, [150], "input 100 -> output 150");
            }
        }
    }
}
