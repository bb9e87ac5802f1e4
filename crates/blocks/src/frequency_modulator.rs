//! [`FrequencyModulator`]: frequency modulation of a float stream.

use radioflow_dsp::FrequencyModulator as Kernel;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Makes a unit phasor whose frequency is the input times `sensitivity` (radians per sample
/// per unit), like GNU Radio's `frequency_modulator_fc` (kernel
/// [`radioflow_dsp::FrequencyModulator`], checked against GNU Radio's output). One output per
/// input; tags stay on their items.
///
/// # Example
/// ```
/// use radioflow_blocks::{FrequencyModulator, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// // A constant input is a tone: a quarter turn per sample.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32; 8]));
/// let fm = fg.add(FrequencyModulator::new(std::f32::consts::FRAC_PI_2));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, fm)?;
/// fg.connect(fm, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert!((y[3] - Complex32::new(1.0, 0.0)).norm() < 1e-5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "frequency_modulator",
    summary = "Frequency-modulates a unit phasor by the input times `sensitivity` rad/sample (GNU Radio's frequency_modulator_fc).",
    dtypes = [Float32]
)]
#[param(sensitivity: f32, settable, doc = "radians per sample per unit of input (set while running: from the next sample on, the phase kept)")]
#[derive(Debug)]
pub struct FrequencyModulator {
    /// The frequency, in units of `sensitivity`.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// The unit phasor.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    kernel: Kernel,
}

#[block]
impl FrequencyModulator {
    /// A modulator turning by `sensitivity` radians per sample per unit of input.
    pub fn new(sensitivity: f32) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(sensitivity),
        }
    }

    /// Turns by `sensitivity` per unit of input from the next sample on; the phase runs on
    /// (GNU Radio's `set_sensitivity`).
    pub fn set_sensitivity(&mut self, sensitivity: f32) {
        self.kernel.set_sensitivity(sensitivity);
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
    use radioflow_runtime::testing::Harness;

    #[test]
    fn sensitivity_set_while_running_turns_on_from_the_phase_reached_as_gnu_radio_s() {
        let x: Vec<f32> = (0..600)
            .map(|n| ((n * 7) % 11) as f32 / 11.0 - 0.5)
            .collect();
        let mut h = Harness::new(FrequencyModulator::new(0.1));
        h.push("in", &x[..300]);
        h.set_space("out", 600);
        h.work().unwrap();
        h.post("sensitivity", Pmt::Double(0.3)).unwrap();
        h.push("in", &x[300..]);
        h.work().unwrap();
        let y = h.take_output::<Complex32>("out");
        assert_eq!(y.len(), 600);
        // GNU Radio's state rule: each output turns the one before by sensitivity · input, the
        // phase carried across the change.
        for n in 1..600 {
            let k = if n < 300 { 0.1 } else { 0.3 };
            let want = y[n - 1] * Complex32::from_polar(1.0, k * x[n]);
            assert!(
                (y[n] - want).norm() < 1e-4,
                "sample {n}: {} vs {want}",
                y[n]
            );
        }
    }
}
