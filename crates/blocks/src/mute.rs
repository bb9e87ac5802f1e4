//! [`Mute`]: a stream or zeros.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes its input, or zeros in its place while muted, like GNU Radio's `mute_xx`; the tags
/// pass either way. The `set_mute` message input (a bool, GNU Radio's port) mutes or unmutes
/// it from the next work call on.
///
/// # Example
/// ```
/// use radioflow_blocks::{Mute, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0]));
/// let mute = fg.add(Mute::<f32>::new(true));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, mute)?;
/// fg.connect(mute, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[0.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "mute",
    summary = "Its input, or zeros while muted.",
    dtypes = all
)]
#[param(mute: bool = false, settable, doc = "write zeros instead of the input (set while running: from the next work call on)")]
#[message_input(name = "set_mute", doc = "a bool: mute (true) or pass (false)")]
#[derive(Debug)]
pub struct Mute<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The items, or zeros while muted; the input's tags.
    #[output(name = "out")]
    output: StreamOutput<T>,
    mute: bool,
}

#[block]
impl<T: Item> Mute<T> {
    /// Passes the input, or (`mute`) writes zeros.
    pub fn new(mute: bool) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            mute,
        }
    }

    /// Mutes (true) or passes (false) from the next work call on (GNU Radio's `set_mute`).
    #[message_input]
    pub fn set_mute(&mut self, mute: bool) {
        self.mute = mute;
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.mute {
            one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |_, o| {
                o.fill(T::zeroed());
            });
        } else {
            copy_work(&mut self.input, &mut self.output, usize::MAX);
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn zeros_while_muted_with_the_tags_either_way() {
        let mut h = Harness::new(Mute::<i32>::new(false));
        h.push("in", &[1i32, 2]);
        h.work().unwrap();
        assert_eq!(h.take_output::<i32>("out"), [1, 2]);
        h.post("set_mute", true).unwrap();
        h.push_tag("in", 2, "t", 0i64);
        h.push("in", &[3i32]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i32>("out");
        assert_eq!(items, [0]);
        assert_eq!(tags, [Tag::new(2, "t", 0i64)]);
    }

    #[test]
    fn mute_set_while_running_through_its_parameter() {
        let mut h = Harness::new(Mute::<f32>::new(false));
        h.post("mute", true).unwrap();
        h.push("in", &[1.0f32]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [0.0]);
        h.post("mute", false).unwrap();
        h.push("in", &[2.0f32]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [2.0]);
    }
}
