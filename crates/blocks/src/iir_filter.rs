//! [`IirFilter`]: a recursive filter, and the FM de-emphasis.

use radioflow_dsp::{Iir, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Filters `f32` samples with an IIR filter `Σ_k a[k]·y[n-k] = Σ_k b[k]·x[n-k]` (direct
/// form I, `f64` state), like GNU Radio's `iir_filter_ffd` (kernel [`radioflow_dsp::Iir`]);
/// [`fm_deemphasis`](Self::fm_deemphasis) is GNU Radio's `fm_deemph`. One output per input;
/// tags keep their positions.
///
/// For the FM de-emphasis, [`fm_deemphasis`](Self::fm_deemphasis) takes `sample_rate` (Hz)
/// and `tau` (s: 75 µs in the Americas, 50 µs elsewhere).
///
/// # Example
/// ```
/// use radioflow_blocks::{IirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32; 4800]));
/// let deemph = fg.add(IirFilter::fm_deemphasis(48e3, 50e-6)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, deemph)?;
/// fg.connect(deemph, sink)?;
/// fg.run()?;
/// // Unit gain at DC once settled.
/// assert!((fg.block::<VectorSink<f32>>(sink).unwrap().data()[4799] - 1.0).abs() < 1e-4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "iir_filter",
    summary = "A recursive filter with feed-forward taps `b` and feedback taps `a` (GNU Radio's iir_filter_ffd).",
    dtypes = [Float32],
    make = Self::new(&b, &a).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(b: &[f64], doc = "feed-forward taps")]
#[param(a: &[f64], doc = "feedback taps, `a[0]` weighing `y[n]`")]
#[derive(Debug)]
pub struct IirFilter {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// The filtered samples.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    kernel: Iir,
}

#[block]
impl IirFilter {
    /// A filter with feed-forward taps `b` and feedback taps `a`.
    ///
    /// # Errors
    /// If `b` or `a` is empty, `a[0]` is 0 or a tap is not finite; the error names it.
    pub fn new(b: &[f64], a: &[f64]) -> Result<Self, ParamError> {
        Ok(Self::with(Iir::new(b, a)?))
    }

    /// The FM de-emphasis of time constant `tau` seconds at `sample_rate`.
    ///
    /// # Errors
    /// If a parameter is not finite and positive or the corner is above Nyquist.
    pub fn fm_deemphasis(sample_rate: f64, tau: f64) -> Result<Self, ParamError> {
        Ok(Self::with(Iir::fm_deemphasis(sample_rate, tau)?))
    }

    fn with(kernel: Iir) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel,
        }
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
    use crate::test_util::{random_real, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn equals_the_naive_recursion_across_calls() {
        let (b, a) = ([0.2, 0.3, -0.1], [1.0, -0.5, 0.1]);
        let x = random_real(9, 700);
        let mut want = vec![0.0f64; x.len()];
        for n in 0..x.len() {
            let mut acc = 0.0;
            for k in 0..3 {
                if n >= k {
                    acc += b[k] * f64::from(x[n - k]);
                }
                if k > 0 && n >= k {
                    acc -= a[k] * want[n - k];
                }
            }
            want[n] = acc;
        }
        for (push, space) in [(700, 700), (3, 2), (1, 1)] {
            let mut h = Harness::new(IirFilter::new(&b, &a).unwrap());
            h.push_tag("in", 4, "t", 1i64);
            let (y, tags) = run_chunked::<_, _, f32>(&mut h, &x, push, space);
            assert_eq!(y.len(), 700);
            for (n, (g, w)) in y.iter().zip(&want).enumerate() {
                assert!((f64::from(*g) - w).abs() < 1e-5, "{n}: {g} vs {w}");
            }
            assert_eq!(tags, [4]);
        }
    }

    #[test]
    fn deemphasis_is_3_db_down_at_its_corner() {
        // 50 µs: corner at 1/(2π·50 µs) = 3183 Hz.
        let fs = 48e3;
        let f = 1.0 / (2.0 * std::f64::consts::PI * 50e-6);
        let x: Vec<f32> = (0..48_000)
            .map(|n| (2.0 * std::f64::consts::PI * f * n as f64 / fs).sin() as f32)
            .collect();
        let mut h = Harness::new(IirFilter::fm_deemphasis(fs, 50e-6).unwrap());
        let (y, _) = run_chunked::<_, _, f32>(&mut h, &x, 48_000, 48_000);
        let peak = y[24_000..].iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!(
            (peak - std::f32::consts::FRAC_1_SQRT_2).abs() < 0.01,
            "{peak}"
        );
        assert_eq!(IirFilter::fm_deemphasis(fs, -1.0).unwrap_err().name, "tau");
    }
}
