//! [`DecimatingFirFilter`]: an FIR filter keeping one output in `decimation`.

use crate::rate_work::rate_work_delayed;
use radioflow_dsp::{DecimatingFir, FirSample, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Filters `f32` or `Complex32` samples with real taps and keeps one output in `decimation`,
/// like GNU Radio's `fir_filter_fff`/`_ccf` with a decimation: `y[k] = Σ_j taps[j] ·
/// x[k·decimation - j]` from zero history (kernel [`radioflow_dsp::DecimatingFir`], which
/// below a decimation of 8 computes every output with the SIMD filter and keeps one in `D`,
/// faster there than [`FirFilter::decimating`](crate::FirFilter::decimating)). A tag on
/// input `i` moves to output `i / decimation` rounded (halves up, as GNU Radio), or later
/// when that output was made already (the kernel takes input ahead of the output space it
/// is given).
///
/// # Example
/// ```
/// use radioflow_blocks::{DecimatingFirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![2.0f32, 4.0, 6.0, 8.0, 10.0]));
/// let fir = fg.add(DecimatingFirFilter::<f32>::new(&[0.5, 0.5], 2)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, fir)?;
/// fg.connect(fir, sink)?;
/// fg.run()?;
/// // (x[2k] + x[2k-1]) / 2, x[-1] = 0.
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[1.0, 5.0, 9.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "decimating_fir_filter",
    summary = "A FIR filter with real `taps` keeping one output in `decimation` (SIMD).",
    dtypes = [Complex32, Float32],
    make = Self::new(&taps, decimation)
        .map(|b| b.with_delay(delay))
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(taps: &[f32], doc = "the filter's taps")]
#[param(decimation: usize = 1, min = 1, doc = "inputs per output")]
#[param(delay: u64 = 0, doc = "the sample delay tags are moved by, in input samples (GNU Radio's declare_sample_delay)")]
#[derive(Debug)]
pub struct DecimatingFirFilter<T: FirSample + Item> {
    /// The samples (`f32` or `Complex32`).
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The filtered samples, at the input's rate / `decimation`.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: DecimatingFir<T>,
    /// Input samples tags are moved by.
    delay: u64,
}

#[block]
impl<T: FirSample + Item> DecimatingFirFilter<T> {
    /// A filter with these taps keeping one output in `decimation`.
    ///
    /// # Errors
    /// If `taps` is empty or `decimation` is 0; the error names the parameter.
    pub fn new(taps: &[f32], decimation: usize) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: DecimatingFir::new(taps, decimation)?,
            delay: 0,
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
    use crate::test_util::{random_complex, random_real, run_chunked};
    use radioflow_runtime::testing::Harness;

    /// `y[k] = Σ_j taps[j]·x[kD - j]`, in f64.
    fn naive(taps: &[f32], d: usize, x: &[f32]) -> Vec<f64> {
        (0..x.len())
            .step_by(d)
            .map(|n| {
                (0..taps.len().min(n + 1))
                    .map(|j| f64::from(taps[j]) * f64::from(x[n - j]))
                    .sum()
            })
            .collect()
    }

    #[test]
    fn equals_the_naive_filter_whatever_the_calls() {
        let taps = random_real(4, 31);
        let x = random_real(5, 2000);
        for d in [1, 2, 5, 10] {
            let want = naive(&taps, d, &x);
            for (push, space) in [(2000, 4096), (7, 3), (1, 1), (300, 17)] {
                let mut h = Harness::new(DecimatingFirFilter::<f32>::new(&taps, d).unwrap());
                h.push_tag("in", 25, "t", 1i64);
                let (y, tags) = run_chunked::<_, _, f32>(&mut h, &x, push, space);
                assert_eq!(y.len(), want.len(), "d {d}, {push}/{space}");
                for (k, (g, w)) in y.iter().zip(&want).enumerate() {
                    assert!(
                        (f64::from(*g) - w).abs() < 1e-4,
                        "d {d}: output {k}: {g} vs {w}"
                    );
                }
                // Exact when the output has room; else no earlier (the kernel may take input
                // ahead of the outputs it has room for). 25 / d rounded, halves up, as GNU
                // Radio moves tags (25 / 2 -> 13, 25 / 10 -> 3).
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
    fn complex_samples_filter_each_part() {
        let taps = random_real(6, 9);
        let x = random_complex(7, 400);
        let re: Vec<f32> = x.iter().map(|z| z.re).collect();
        let im: Vec<f32> = x.iter().map(|z| z.im).collect();
        let mut h = Harness::new(DecimatingFirFilter::<Complex32>::new(&taps, 3).unwrap());
        let (y, _) = run_chunked::<_, _, Complex32>(&mut h, &x, 64, 10);
        let (wr, wi) = (naive(&taps, 3, &re), naive(&taps, 3, &im));
        assert_eq!(y.len(), wr.len());
        for (k, z) in y.iter().enumerate() {
            assert!(
                (f64::from(z.re) - wr[k]).abs() < 1e-4 && (f64::from(z.im) - wi[k]).abs() < 1e-4
            );
        }
    }
}
