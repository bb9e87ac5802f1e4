//! [`BurstTagger`]: tags where a trigger stream turns on and off.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Copies `in` to `out` and tags where the `trigger` stream (shorts) turns on (> 0) and off
/// (GNU Radio's `blocks.burst_tagger`): the first item of each run of triggers above 0 gets
/// `(true_key, true_value)`, the first item after it `(false_key, false_value)`. The trigger
/// starts off. Tags of both inputs are copied to the same items of `out`, as GNU Radio's
/// sync blocks copy them.
///
/// The tags it makes carry the source id `burst_tagger` (GNU Radio's adds the block's unique
/// number, which depends on how many blocks the process made before).
///
/// # Example
/// ```
/// use radioflow_blocks::{BurstTagger, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let data = fg.add(VectorSource::new(vec![1.0f32; 6]));
/// let trigger = fg.add(VectorSource::new(vec![0i16, 1, 1, 0, 0, 2]));
/// let tagger = fg.add(BurstTagger::<f32>::new());
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(data, (tagger, "in"))?;
/// fg.connect(trigger, (tagger, "trigger"))?;
/// fg.connect(tagger, sink)?;
/// fg.run()?;
/// let tags: Vec<(u64, Pmt)> = fg.block::<VectorSink<f32>>(sink).unwrap().tags().iter()
///     .map(|t| (t.offset, t.value.clone())).collect();
/// assert_eq!(tags, [(1, Pmt::Bool(true)), (3, Pmt::Bool(false)), (5, Pmt::Bool(true))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "burst_tagger",
    summary = "Copies `in`, tagging where the `trigger` shorts turn above 0 (true_key) and back (false_key) (GNU Radio's burst_tagger).",
    dtypes = all,
    make = Self::new()
        .true_tag(&true_key, true_value)
        .false_tag(&false_key, false_value)
)]
#[param(true_key: String = "burst", doc = "the key of the tag where the trigger turns on")]
#[param(true_value: bool = true, doc = "its value")]
#[param(false_key: String = "burst", doc = "the key of the tag where the trigger turns off")]
#[param(false_value: bool = false, doc = "its value")]
#[derive(Debug)]
pub struct BurstTagger<T: Item> {
    /// The items to copy.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Above 0: on.
    #[input(name = "trigger")]
    trigger: StreamInput<i16>,
    /// The items, tagged.
    #[output(name = "out")]
    output: StreamOutput<T>,
    on: (Pmt, Pmt),
    off: (Pmt, Pmt),
    /// Whether the trigger is on.
    state: bool,
    srcid: Pmt,
}

impl<T: Item> Default for BurstTagger<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[block]
impl<T: Item> BurstTagger<T> {
    /// Tags `burst` = `#t` and `burst` = `#f`, GNU Radio's defaults.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new(),
            trigger: StreamInput::new(),
            output: StreamOutput::new(),
            on: (Pmt::symbol("burst"), Pmt::Bool(true)),
            off: (Pmt::symbol("burst"), Pmt::Bool(false)),
            state: false,
            srcid: Pmt::symbol("burst_tagger"),
        }
    }

    /// The tag where the trigger turns on.
    pub fn true_tag(mut self, key: &str, value: bool) -> Self {
        self.on = (Pmt::symbol(key), Pmt::Bool(value));
        self
    }

    /// The tag where the trigger turns off.
    pub fn false_tag(mut self, key: &str, value: bool) -> Self {
        self.off = (Pmt::symbol(key), Pmt::Bool(value));
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self
            .input
            .slice()
            .len()
            .min(self.trigger.slice().len())
            .min(self.output.slice().len());
        let at = self.output.offset();
        self.output.slice()[..n].copy_from_slice(&self.input.slice()[..n]);
        propagate_tags(&self.input, &mut self.output, n);
        propagate_tags(&self.trigger, &mut self.output, n);
        for (i, &t) in self.trigger.slice()[..n].iter().enumerate() {
            if (t > 0) != self.state {
                self.state = t > 0;
                let (key, value) = if self.state { &self.on } else { &self.off };
                self.output.push_tag(
                    Tag::new(at + i as u64, key.clone(), value.clone())
                        .with_srcid(self.srcid.clone()),
                );
            }
        }
        self.input.consume(n);
        self.trigger.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
