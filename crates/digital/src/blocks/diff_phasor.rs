//! [`DiffPhasor`]: each sample times the conjugate of the one before.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// `out[n] = in[n] · conj(in[n-1])`, the sample before the first taken as 0 (so the first
/// output is 0), as GNU Radio's `diff_phasor_cc`: the phase change from one symbol to the
/// next. Tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::DiffPhasor;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0), Complex32::new(0.0, 1.0)]));
/// let op = fg.add(DiffPhasor::new());
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, op)?;
/// fg.connect(op, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data()[1], Complex32::new(0.0, 1.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "diff_phasor",
    summary = "Each sample times the conjugate of the one before (GNU Radio's diff_phasor_cc).",
    make = Self::new()
)]
#[derive(Debug, Default)]
pub struct DiffPhasor {
    /// Samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// `in[n] · conj(in[n-1])`, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    previous: Complex32,
}

#[block]
impl DiffPhasor {
    /// A differential phasor, the sample before the first 0.
    pub fn new() -> Self {
        Self::default()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let mut previous = self.previous;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, i) in y.iter_mut().zip(x) {
                *o = i * previous.conj();
                previous = *i;
            }
        });
        self.previous = previous;
        Ok(WorkStatus::Continue)
    }
}
