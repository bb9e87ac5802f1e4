//! [`ComplexInterpFirFilter`]: an interpolating FIR filter with complex taps.

use crate::complex_fir_filter::complex;
use crate::rate_work::rate_work_delayed;
use radioflow_dsp::{ComplexTapInterpFir, ComplexTapSample, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Makes `interpolation` outputs per input with complex taps, like GNU Radio's
/// `interp_fir_filter_ccc` (and, from Rust with `f32` samples, `interp_fir_filter_fcc`): the
/// input with `interpolation - 1` zeros after each sample, filtered by `taps`, from zero
/// history (kernel [`radioflow_dsp::ComplexTapInterpFir`], polyphase, SIMD). A tag on input
/// `i` moves to output `i · interpolation`.
///
/// # Example
/// ```
/// use radioflow_blocks::{ComplexInterpFirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let (one, j) = (Complex32::new(1.0, 0.0), Complex32::new(0.0, 1.0));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![one, 2.0 * one]));
/// // Each input, then itself times j.
/// let fir = fg.add(ComplexInterpFirFilter::<Complex32>::new(&[one, j], 2)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, fir)?;
/// fg.connect(fir, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data(), &[one, j, 2.0 * one, 2.0 * j]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "complex_interp_fir_filter",
    summary = "Makes `interpolation` outputs per input with a FIR filter of complex `taps` (polyphase, SIMD; GNU Radio's interp_fir_filter_ccc).",
    dtypes = [Complex32],
    make = Self::new(&complex(&taps), interpolation)
        .map(|b| b.with_delay(delay))
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(taps: Vec<T>, doc = "the filter's complex taps, designed at the output rate")]
#[param(interpolation: usize = 1, min = 1, doc = "outputs per input")]
#[param(delay: u64 = 0, doc = "the sample delay tags are moved by, in input samples (GNU Radio's declare_sample_delay)")]
#[derive(Debug)]
pub struct ComplexInterpFirFilter<T: ComplexTapSample + Item + Into<Complex32>> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The filtered samples, at the input's rate · `interpolation`.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// Tags move as if the input came this many samples later.
    delay: u64,
    kernel: ComplexTapInterpFir<T>,
}

#[block]
impl<T: ComplexTapSample + Item + Into<Complex32>> ComplexInterpFirFilter<T> {
    /// A filter with these taps making `interpolation` outputs per input.
    ///
    /// # Errors
    /// If `taps` is empty or `interpolation` is 0; the error names the parameter.
    pub fn new(taps: &[Complex32], interpolation: usize) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            delay: 0,
            kernel: ComplexTapInterpFir::new(taps, interpolation)?,
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
    use crate::test_util::{random_complex, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn equals_the_zero_stuffed_filter_whatever_the_calls() {
        let taps = random_complex(8, 19);
        let x = random_complex(9, 500);
        for i in [1, 3, 4] {
            // Zero-stuffed input, then the plain complex FIR.
            let mut up = vec![Complex32::default(); x.len() * i];
            for (n, &s) in x.iter().enumerate() {
                up[n * i] = s;
            }
            let want: Vec<Complex32> = (0..up.len())
                .map(|m| {
                    (0..taps.len().min(m + 1))
                        .map(|k| taps[k] * up[m - k])
                        .sum()
                })
                .collect();
            for (push, space) in [(500, 4096), (7, 5), (1, 4), (64, 17)] {
                let mut h =
                    Harness::new(ComplexInterpFirFilter::<Complex32>::new(&taps, i).unwrap());
                h.push_tag("in", 25, "t", 1i64);
                let (y, tags) = run_chunked::<_, _, Complex32>(&mut h, &x, push, space);
                assert_eq!(y.len(), want.len(), "i {i}, {push}/{space}");
                for (k, (g, w)) in y.iter().zip(&want).enumerate() {
                    assert!((g - w).norm() < 1e-4, "i {i}: output {k}: {g} vs {w}");
                }
                assert_eq!(tags, [25 * i as u64], "i {i}, {push}/{space}");
            }
        }
    }

    #[test]
    fn refuses_bad_parameters() {
        let one = [Complex32::new(1.0, 0.0)];
        let err = |r: Result<ComplexInterpFirFilter<Complex32>, ParamError>| r.unwrap_err().name;
        assert_eq!(err(ComplexInterpFirFilter::new(&[], 2)), "taps");
        assert_eq!(err(ComplexInterpFirFilter::new(&one, 0)), "interpolation");
    }
}
