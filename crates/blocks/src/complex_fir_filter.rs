//! [`ComplexFirFilter`]: an FIR filter with complex taps, keeping one output in `decimation`.

use crate::rate_work::rate_work_delayed;
use radioflow_dsp::{ComplexTapFir, ComplexTapSample, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Filters samples with complex taps and keeps one output in `decimation`, like GNU Radio's
/// `fir_filter_ccc` (and, from Rust with `f32` samples, `fir_filter_fcc`):
/// `y[k] = Σ_j taps[j] · x[k·decimation - j]` from zero history (kernel
/// [`radioflow_dsp::ComplexTapFir`]: the taps' real and imaginary parts as two SIMD real-tap
/// filters). A tag on input `i` moves to output `i / decimation` rounded (halves up, as GNU
/// Radio), or later when that output was made already.
///
/// # Example
/// ```
/// use radioflow_blocks::{ComplexFirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let j = Complex32::new(0.0, 1.0);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0), Complex32::new(2.0, 0.0)]));
/// // y[n] = x[n] + j·x[n-1]
/// let fir = fg.add(ComplexFirFilter::<Complex32>::new(&[Complex32::new(1.0, 0.0), j], 1)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, fir)?;
/// fg.connect(fir, sink)?;
/// fg.run()?;
/// assert_eq!(
///     fg.block::<VectorSink<Complex32>>(sink).unwrap().data(),
///     &[Complex32::new(1.0, 0.0), Complex32::new(2.0, 1.0)]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "complex_fir_filter",
    summary = "A FIR filter with complex `taps` keeping one output in `decimation` (SIMD; GNU Radio's fir_filter_ccc).",
    dtypes = [Complex32],
    make = Self::new(&complex(&taps), decimation)
        .map(|b| b.with_delay(delay))
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(taps: Vec<T>, doc = "the filter's complex taps")]
#[param(decimation: usize = 1, min = 1, doc = "inputs per output")]
#[param(delay: u64 = 0, doc = "the sample delay tags are moved by, in input samples (GNU Radio's declare_sample_delay)")]
#[derive(Debug)]
pub struct ComplexFirFilter<T: ComplexTapSample + Item + Into<Complex32>> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The filtered samples, one per `decimation` inputs.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// Tags move as if the input came this many samples later.
    delay: u64,
    kernel: ComplexTapFir<T>,
}

/// The taps as complex numbers (the registry's taps are of the item type).
pub(crate) fn complex<T: Copy + Into<Complex32>>(taps: &[T]) -> Vec<Complex32> {
    taps.iter().map(|&t| t.into()).collect()
}

#[block]
impl<T: ComplexTapSample + Item + Into<Complex32>> ComplexFirFilter<T> {
    /// A filter with these taps keeping one output in `decimation`.
    ///
    /// # Errors
    /// If `taps` is empty or `decimation` is 0; the error names the parameter.
    pub fn new(taps: &[Complex32], decimation: usize) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            delay: 0,
            kernel: ComplexTapFir::new(taps, decimation)?,
        })
    }

    /// Tags moved as if the input came `delay` samples later (GNU Radio's
    /// `declare_sample_delay`, its `samp_delay` parameter).
    pub fn with_delay(self, delay: u64) -> Self {
        Self { delay, ..self }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let d = self.kernel.decimation() as u64;
        let kernel = &mut self.kernel;
        rate_work_delayed(
            &mut self.input,
            &mut self.output,
            1,
            d,
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

    /// `y[k] = Σ_j taps[j]·x[kD - j]`, in f64.
    fn naive(taps: &[Complex32], d: usize, x: &[Complex32]) -> Vec<(f64, f64)> {
        (0..x.len())
            .step_by(d)
            .map(|n| {
                (0..taps.len().min(n + 1)).fold((0.0, 0.0), |(re, im), j| {
                    let (t, s) = (taps[j], x[n - j]);
                    let (tr, ti, sr, si) = (t.re as f64, t.im as f64, s.re as f64, s.im as f64);
                    (re + tr * sr - ti * si, im + tr * si + ti * sr)
                })
            })
            .collect()
    }

    #[test]
    fn equals_the_naive_filter_whatever_the_calls() {
        let taps = random_complex(4, 23);
        let x = random_complex(5, 1500);
        for d in [1, 2, 5] {
            let want = naive(&taps, d, &x);
            for (push, space) in [(1500, 4096), (7, 3), (1, 1), (300, 17)] {
                let mut h = Harness::new(ComplexFirFilter::<Complex32>::new(&taps, d).unwrap());
                h.push_tag("in", 25, "t", 1i64);
                let (y, tags) = run_chunked::<_, _, Complex32>(&mut h, &x, push, space);
                assert_eq!(y.len(), want.len(), "d {d}, {push}/{space}");
                for (k, (g, w)) in y.iter().zip(&want).enumerate() {
                    let err = (f64::from(g.re) - w.0).abs() + (f64::from(g.im) - w.1).abs();
                    assert!(err < 1e-4, "d {d}: output {k}: {g} vs {w:?}");
                }
                // 25 / d rounded, halves up (GNU Radio's rule); later only without room.
                let at = (2 * 25 + d as u64) / (2 * d as u64);
                assert_eq!(tags.len(), 1);
                assert!(tags[0] >= at, "d {d}: {tags:?}");
                if space == 4096 {
                    assert_eq!(tags, [at], "d {d}");
                }
            }
        }
    }

    #[test]
    fn refuses_bad_parameters() {
        let one = [Complex32::new(1.0, 0.0)];
        let err = |r: Result<ComplexFirFilter<Complex32>, ParamError>| r.unwrap_err().name;
        assert_eq!(err(ComplexFirFilter::new(&[], 1)), "taps");
        assert_eq!(err(ComplexFirFilter::new(&one, 0)), "decimation");
    }
}
