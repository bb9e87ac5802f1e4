//! [`Threshold`]: a float stream as 0 and 1 with hysteresis.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// 1 for an item above `high`, 0 for one below `low`, and for one between them (or equal to
/// either) the last of those, starting at `init`, like GNU Radio's `threshold_ff`. Tags pass
/// on the same items; `low` and `high` are settable while it runs.
///
/// # Example
/// ```
/// use radioflow_blocks::{Threshold, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 4.0, 7.0, 5.0, 2.0]));
/// let th = fg.add(Threshold::new(3.0, 6.0, 0.0));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, th)?;
/// fg.connect(th, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[0.0, 0.0, 1.0, 1.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "threshold",
    summary = "1 above `high`, 0 below `low`, the last of those in between."
)]
#[param(low: f32, settable, doc = "below it: 0")]
#[param(high: f32, settable, doc = "above it: 1")]
#[param(init: f32 = 0.0, doc = "the output until an item is above high or below low")]
#[derive(Debug)]
pub struct Threshold {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// 0 or 1 (or `init`), with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    low: f32,
    high: f32,
    last: f32,
}

#[block]
impl Threshold {
    /// 1 above `high`, 0 below `low`, `init` until one of them.
    pub fn new(low: f32, high: f32, init: f32) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            low,
            high,
            last: init,
        }
    }

    /// The lower threshold from the next work call on (GNU Radio's `set_lo`).
    pub fn set_low(&mut self, low: f32) {
        self.low = low;
    }

    /// The upper threshold from the next work call on (GNU Radio's `set_hi`).
    pub fn set_high(&mut self, high: f32) {
        self.high = high;
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (low, high, mut last) = (self.low, self.high, self.last);
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (y, &x) in y.iter_mut().zip(x) {
                if x > high {
                    last = 1.0;
                } else if x < low {
                    last = 0.0;
                }
                *y = last;
            }
        });
        self.last = last;
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn the_state_holds_across_calls_and_new_thresholds_apply() {
        let mut h = Harness::new(Threshold::new(3.0, 6.0, 0.5));
        h.push("in", &[4.0f32, 7.0]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [0.5, 1.0]);
        h.post("high", 8.0f64).unwrap();
        h.push("in", &[5.0f32, 7.5, 3.0, 2.9]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [1.0, 1.0, 1.0, 0.0]);
    }
}
