//! [`SampleAndHold`]: a stream sampled where a control stream says so.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The data item where the control byte is not 0, else the last such item (0 before the
/// first), like GNU Radio's `sample_and_hold_xx`. The tags of both inputs go to the same
/// output items (data's first where both tag one).
///
/// # Example
/// ```
/// use radioflow_blocks::{SampleAndHold, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let data = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0, 4.0]));
/// let ctrl = fg.add(VectorSource::new(vec![0u8, 1, 0, 1]));
/// let sh = fg.add(SampleAndHold::<f32>::new());
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(data, (sh, 0))?;
/// fg.connect(ctrl, (sh, 1))?;
/// fg.connect(sh, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[0.0, 2.0, 2.0, 4.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "sample_and_hold",
    summary = "The data where the control byte is not 0, else the last such item.",
    dtypes = [Float32, Int32, Int16, Uint8]
)]
#[derive(Debug)]
pub struct SampleAndHold<T: Item> {
    /// The data.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Bytes: not 0 where the data is sampled.
    #[input(name = "ctrl")]
    ctrl: StreamInput<u8>,
    /// The held data, with the tags of both inputs.
    #[output(name = "out")]
    output: StreamOutput<T>,
    held: T,
}

#[block]
impl<T: Item> SampleAndHold<T> {
    /// Holding 0 until the first sample.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new(),
            ctrl: StreamInput::new(),
            output: StreamOutput::new(),
            held: T::zeroed(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (x, c) = (self.input.slice(), self.ctrl.slice());
        let y = self.output.slice();
        let n = x.len().min(c.len()).min(y.len());
        for ((y, &x), &c) in y[..n].iter_mut().zip(x).zip(c) {
            if c != 0 {
                self.held = x;
            }
            *y = self.held;
        }
        propagate_tags(&self.input, &mut self.output, n);
        propagate_tags(&self.ctrl, &mut self.output, n);
        self.input.consume(n);
        self.ctrl.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

impl<T: Item> Default for SampleAndHold<T> {
    fn default() -> Self {
        Self::new()
    }
}
