//! [`QuadratureDemod`]: FM demodulation.

use radioflow_dsp::QuadratureDemod as Kernel;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Demodulates FM: `out[n] = gain · arg(in[n] · conj(in[n-1]))`, like GNU Radio's
/// `quadrature_demod_cf` (kernel [`radioflow_dsp::QuadratureDemod`], `atan2` to f32 precision). For a
/// deviation of `Δf` Hz at `fs` samples/s, `gain = fs / (2π·Δf)` gives ±1 at full deviation.
/// One output per input; tags keep their positions.
///
/// # Example
/// ```
/// use radioflow_blocks::{QuadratureDemod, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// // A quarter turn per sample, scaled by 2/π: 1.
/// let x = (0..8).map(|n| Complex32::from_polar(1.0, n as f32 * std::f32::consts::FRAC_PI_2));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x.collect()));
/// let demod = fg.add(QuadratureDemod::new(2.0 / std::f32::consts::PI));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, demod)?;
/// fg.connect(demod, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert!(y[1..].iter().all(|v| (v - 1.0).abs() < 1e-5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "quadrature_demod",
    summary = "FM demodulation: gain times the phase step between samples (GNU Radio's quadrature_demod_cf).",
    dtypes = [Complex32]
)]
#[param(gain: f32, settable, doc = "the phase step's scale (set while running: from the next sample on, the last sample kept)")]
#[derive(Debug)]
pub struct QuadratureDemod {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The phase step between samples (radians per sample) times `gain`.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    kernel: Kernel,
}

#[block]
impl QuadratureDemod {
    /// A demodulator scaling the phase step by `gain`.
    pub fn new(gain: f32) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(gain),
        }
    }

    /// A demodulator giving ±1 at `deviation` Hz from a signal at `sample_rate`.
    pub fn for_deviation(sample_rate: f64, deviation: f64) -> Self {
        Self::new((sample_rate / (2.0 * std::f64::consts::PI * deviation)) as f32)
    }

    /// Scales by `gain` from the next sample on; the last sample, whose step the next output
    /// measures, is kept (GNU Radio's `set_gain`).
    pub fn set_gain(&mut self, gain: f32) {
        self.kernel.set_gain(gain);
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
    use crate::test_util::{random_complex, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn gain_set_while_running_scales_from_the_next_sample_as_gnu_radio_s() {
        let x = random_complex(4, 600);
        let mut h = Harness::new(QuadratureDemod::new(1.0));
        h.push("in", &x[..300]);
        h.set_space("out", 600);
        h.work().unwrap();
        h.post("gain", Pmt::Double(2.5)).unwrap();
        h.push("in", &x[300..]);
        h.work().unwrap();
        let got = h.take_output::<f32>("out");
        // A block made with the new gain: the same outputs from the change on (the step
        // from the sample before the change is measured from that sample).
        let mut fresh = Harness::new(QuadratureDemod::new(2.5));
        fresh.push("in", &x);
        fresh.set_space("out", 600);
        fresh.work().unwrap();
        let want = fresh.take_output::<f32>("out");
        assert_eq!(got.len(), 600);
        assert_eq!(got[300..], want[300..]);
        assert_ne!(got[..300], want[..300]);
    }

    #[test]
    fn equals_the_naive_phase_step_across_calls_keeping_tags() {
        let x = random_complex(3, 500);
        let want: Vec<f32> = (0..x.len())
            .map(|n| {
                let prev = if n == 0 {
                    Complex32::default()
                } else {
                    x[n - 1]
                };
                let p = x[n] * prev.conj();
                0.5 * p.im.atan2(p.re)
            })
            .collect();
        for (push, space) in [(500, 500), (1, 1), (7, 3)] {
            let mut h = Harness::new(QuadratureDemod::new(0.5));
            h.push_tag("in", 9, "t", 1i64);
            let (y, tags) = run_chunked::<_, _, f32>(&mut h, &x, push, space);
            assert_eq!(y.len(), want.len());
            for (n, (g, w)) in y.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() < 1e-6,
                    "{push}/{space}: sample {n}: {g} vs {w}"
                );
            }
            assert_eq!(tags, [9]);
        }
    }
}
