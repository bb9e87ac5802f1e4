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
#[param(sensitivity: f32, doc = "radians per sample per unit of input")]
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

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}
