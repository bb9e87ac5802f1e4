//! [`TagDebug`]: a sink that prints (and keeps) the tags it receives.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fmt::Write as _;
use std::io::Write as _;

/// The line that opens and closes each printout.
const RULE: &str = "----------------------------------------------------------------------";

/// Discards its input streams' items (in step: as many from each) and prints their tags to standard output as GNU Radio's
/// `tag_debug` does: each work call that brings a tag prints a block naming the debug sink,
/// then every input stream (`Input Stream: 00`, ...) with its tags (offset, source, key,
/// value; [`print_text`](Self::print_text)). With a `filter` key only tags of that key count;
/// `display` off keeps the tags without printing (GNU Radio's `set_display`). Every tag seen is
/// kept: [`tags`](Self::tags).
///
/// How tags group into printouts follows the work calls, which differ between schedulers and
/// from GNU Radio's. The source is the tag's source id where it is a symbol, else `n/a`, as in
/// GNU Radio.
///
/// # Example
/// ```
/// use radioflow_blocks::{TagDebug, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Tag};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32; 8]).tags(vec![Tag::new(3, "burst", 1i64)]));
/// let debug = fg.add(TagDebug::<f32>::new("after the source", "", 1).display(false));
/// fg.connect(src, debug)?;
/// fg.run()?;
/// assert_eq!(fg.block::<TagDebug<f32>>(debug).unwrap().tags()[0].1.offset, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tag_debug",
    summary = "Discards items and prints the tags of its inputs as GNU Radio's tag_debug does (ports in0..).",
    dtypes = all,
    make = Ok::<_, Refused>(Self::new(&label, &filter, num_inputs).display(display).with_vlen(vlen))
)]
#[param(label: String = "", doc = "names this sink in the printouts (GNU Radio's name)")]
#[param(filter: String = "", doc = "only tags of this key (empty: all)")]
#[param(num_inputs: usize = 1, min = 1, doc = "input streams")]
#[param(display: bool = true, settable, doc = "print the tags (else only keep them)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct TagDebug<T: Item> {
    /// The streams whose tags are shown.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    name: String,
    filter: Option<Pmt>,
    display: bool,
    /// Every tag seen, with its input's index.
    seen: Vec<(usize, Tag)>,
}

#[block]
impl<T: Item> TagDebug<T> {
    /// A sink of `num_inputs` streams (at least 1) printing as `name`; tags of key `filter`
    /// only, unless it is empty.
    pub fn new(name: &str, filter: &str, num_inputs: usize) -> Self {
        Self {
            inputs: (0..num_inputs.max(1)).map(|_| StreamInput::new()).collect(),
            name: name.to_owned(),
            filter: (!filter.is_empty()).then(|| Pmt::symbol(filter)),
            display: true,
            seen: Vec::new(),
        }
    }

    /// Prints the tags (the default) or only keeps them.
    pub fn display(mut self, on: bool) -> Self {
        self.display = on;
        self
    }

    /// Prints from the next work call on, or stops printing (GNU Radio's `set_display`).
    pub fn set_display(&mut self, on: bool) {
        self.display = on;
    }

    /// Items of `vlen` scalars (GNU Radio's `vlen`).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        for i in &mut self.inputs {
            i.set_vlen(vlen);
        }
        self
    }

    /// Every tag received (that the filter let through), with its input's index, in order.
    pub fn tags(&self) -> &[(usize, Tag)] {
        &self.seen
    }

    /// GNU Radio 3.10's printout of one work call: `name`, then each input stream's tags.
    pub fn print_text(name: &str, streams: &[&[Tag]]) -> String {
        let mut out = format!("\n{RULE}\nTag Debug: {name}\n");
        for (i, tags) in streams.iter().enumerate() {
            let _ = writeln!(out, "Input Stream: {i:02}");
            for t in *tags {
                // GNU Radio's std::setw(10) on each label.
                let _ = writeln!(
                    out,
                    "{:>10}{}{:>10}{}{:>10}{}{:>10}{}",
                    "Offset: ",
                    t.offset,
                    "Source: ",
                    t.srcid.as_symbol().unwrap_or("n/a"),
                    "Key: ",
                    t.key
                        .as_symbol()
                        .map_or_else(|| t.key.to_string(), str::to_owned),
                    "Value: ",
                    t.value
                );
            }
        }
        out.push_str(RULE);
        out.push('\n');
        out
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        // Items in step on every input, as GNU Radio's (a sync block): the runtime ends the
        // block when one input has ended, as GNU Radio's scheduler does.
        let n = self
            .inputs
            .iter()
            .map(|i| i.slice().len() / i.vlen())
            .min()
            .unwrap_or(0);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let filter = &self.filter;
        let shown = |t: &Tag| filter.as_ref().is_none_or(|k| t.key == *k);
        // Most calls bring no tag: those allocate nothing.
        let any = self.inputs.iter().any(|i| {
            let end = i.offset() + n as u64;
            i.tags().iter().take_while(|t| t.offset < end).any(shown)
        });
        let calls: Vec<Vec<Tag>> = if any {
            self.inputs
                .iter()
                .map(|i| {
                    let end = i.offset() + n as u64;
                    let tags = i.tags().iter().take_while(|t| t.offset < end);
                    tags.filter(|t| shown(t)).cloned().collect()
                })
                .collect()
        } else {
            Vec::new()
        };
        for input in &mut self.inputs {
            input.consume(n * input.vlen());
        }
        if !any {
            return Ok(WorkStatus::Continue);
        }
        if self.display {
            let streams: Vec<&[Tag]> = calls.iter().map(Vec::as_slice).collect();
            // One write of the whole printout, so that two blocks' printouts do not interleave.
            let text = Self::print_text(&self.name, &streams);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
        for (i, tags) in calls.into_iter().enumerate() {
            self.seen.extend(tags.into_iter().map(|t| (i, t)));
        }
        Ok(WorkStatus::Continue)
    }
}
