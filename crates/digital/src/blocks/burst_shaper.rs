//! [`BurstShaper`]: each burst of a tagged stream padded and ramped up and down.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::ops::Mul;

/// An item type the shaper's window multiplies (GNU Radio's `_ff` and `_cc`).
pub trait Shaped: Item + Mul<Output = Self> {
    /// The real number `x` as an item.
    fn real(x: f32) -> Self;
}

impl Shaped for f32 {
    fn real(x: f32) -> Self {
        x
    }
}

impl Shaped for Complex32 {
    fn real(x: f32) -> Self {
        Complex32::new(x, 0.0)
    }
}

/// Where the shaper is in a burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Wait,
    PrePad,
    RampUp,
    Copy,
    RampDown,
    PostPad,
}

/// Shapes each burst of a tagged stream (GNU Radio 3.10's `digital.burst_shaper_ff/_cc`): a
/// burst starts at an item tagged `length_tag_name` = its length N and becomes
/// `pre_padding` zeros, the burst ramped up and down by the window, then `post_padding`
/// zeros, with a length tag for the whole.
///
/// The window's first ⌈len/2⌉ taps ramp up and its last ⌈len/2⌉ ramp down (they share
/// the middle tap of an odd window). Without phasing the ramps multiply the burst's first and
/// last items (at most N/2 each: a short burst takes the first N/2 taps of each ramp, as
/// GNU Radio's does). With `insert_phasing`, the ramps multiply an alternating +1, -1, ...
/// sequence inserted before and after the burst, whose items pass unchanged.
///
/// Tags: the output's length tag (value N + padding + phasing) is on the burst's first
/// output item, with the other tags of the burst's first input item; the other tags of the
/// burst's items move with their items; tags on items outside any burst are dropped with
/// those items, as GNU Radio drops them (with a warning). A length tag on an item inside a
/// burst is ignored. The stream ending inside a burst ends the output there (without
/// phasing, or before the burst's last item is read), as GNU Radio's does.
///
/// # Errors
/// A length tag whose value is not a whole number >= 0 stops the run, naming the item.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::BurstShaper;
/// use radioflow_runtime::{Flowgraph, Pmt, Tag};
///
/// let mut fg = Flowgraph::new();
/// let tag = Tag::new(0, "packet_len", Pmt::Int(4));
/// let src = fg.add(VectorSource::new(vec![1.0f32; 4]).tags(vec![tag]));
/// let shaper = fg.add(BurstShaper::new(vec![0.5, 1.0, 0.5], 1, 2, false, "packet_len"));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, shaper)?;
/// fg.connect(shaper, sink)?;
/// fg.run()?;
/// let sink = fg.block::<VectorSink<f32>>(sink).unwrap();
/// assert_eq!(sink.data(), [0.0, 0.5, 1.0, 1.0, 0.5, 0.0, 0.0]);
/// assert_eq!(sink.tags()[0].value, Pmt::Int(7));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "burst_shaper",
    summary = "Each burst of a tagged stream with zeros before and after and its edges ramped by a window, optionally over inserted ±1 phasing symbols (GNU Radio's burst_shaper).",
    dtypes = [Float32, Complex32]
)]
#[param(window: Vec<T> = [], doc = "the window: its first ⌈len/2⌉ taps ramp up, its last ⌈len/2⌉ down")]
#[param(pre_padding: usize = 0, doc = "zeros before each burst")]
#[param(post_padding: usize = 0, doc = "zeros after each burst")]
#[param(insert_phasing: bool = false, doc = "ramp alternating ±1 symbols inserted around the burst instead of the burst's own edges")]
#[param(length_tag_name: String = "packet_len", doc = "the length tag's key, in and out")]
#[derive(Debug)]
pub struct BurstShaper<T: Shaped> {
    /// Bursts, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The shaped bursts, each starting with a length tag.
    #[output(name = "out")]
    output: StreamOutput<T>,
    up: Vec<T>,
    down: Vec<T>,
    up_phasing: Vec<T>,
    down_phasing: Vec<T>,
    pre: usize,
    post: usize,
    phasing: bool,
    key: Pmt,
    state: State,
    /// Items the current state writes, and how many it has written.
    limit: usize,
    index: usize,
    /// The burst's length.
    len: usize,
    /// The input offset of the current burst's first item (its tags went out with the
    /// length tag), and the offset from which a length tag starts the next burst.
    first: u64,
    next_from: u64,
}

#[block]
impl<T: Shaped> BurstShaper<T> {
    /// Shapes bursts marked by `length_tag_name` tags with `window`, padding and phasing.
    pub fn new(
        window: Vec<T>,
        pre_padding: usize,
        post_padding: usize,
        insert_phasing: bool,
        length_tag_name: impl AsRef<str>,
    ) -> Self {
        let half = window.len() / 2;
        let up = window[..window.len() - half].to_vec();
        let down = window[half..].to_vec();
        let sign = |i: usize| T::real(if i.is_multiple_of(2) { 1.0 } else { -1.0 });
        let up_phasing = up.iter().enumerate().map(|(i, &w)| sign(i) * w).collect();
        let down_phasing = down.iter().enumerate().map(|(i, &w)| sign(i) * w).collect();
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            up,
            down,
            up_phasing,
            down_phasing,
            pre: pre_padding,
            post: post_padding,
            phasing: insert_phasing,
            key: Pmt::symbol(length_tag_name.as_ref()),
            state: State::Wait,
            limit: 0,
            index: 0,
            len: 0,
            first: 0,
            next_from: 0,
        }
    }

    /// The items around a burst's own: padding, and the phasing symbols where inserted.
    fn extra(&self) -> usize {
        let phasing = if self.phasing {
            self.up.len() + self.down.len()
        } else {
            0
        };
        self.pre + self.post + phasing
    }

    fn enter(&mut self, state: State) {
        self.state = state;
        self.index = 0;
        let half = self.len / 2;
        self.limit = match state {
            State::Wait => 0,
            State::PrePad => self.pre,
            State::RampUp if self.phasing => self.up.len(),
            State::RampUp => half.min(self.up.len()),
            State::Copy if self.phasing => self.len,
            State::Copy => self.len - (2 * half).min(self.up.len() + self.down.len()),
            State::RampDown if self.phasing => self.down.len(),
            State::RampDown => half.min(self.down.len()),
            State::PostPad => self.post,
        };
    }

    /// Moves the tags of the next `n` input items to the next `n` output items, but for
    /// length tags and those of the burst's first item (already out with the length tag).
    fn move_tags(&mut self, n: usize) {
        let (from, to) = (self.input.offset(), self.output.offset());
        let end = from + n as u64;
        for t in self.input.tags() {
            if t.offset >= from && t.offset < end && t.key != self.key && t.offset != self.first {
                self.output.add_tag_at(t.offset - from + to, t);
            }
        }
    }

    /// Starts the next burst if its length tag is in the window (dropping the items before
    /// it); otherwise drops the window.
    fn start_burst(&mut self) -> Result<(), BlockError> {
        let at = self.input.offset();
        let avail = self.input.slice().len() as u64;
        let from = self.next_from.max(at);
        let tag = self
            .input
            .tags()
            .iter()
            .find(|t| t.key == self.key && t.offset >= from && t.offset < at + avail);
        let Some(tag) = tag else {
            if avail > 0 {
                tracing::warn!("burst_shaper: dropping {avail} items outside any burst");
                self.input.consume(avail as usize);
            }
            return Ok(());
        };
        let first = tag.offset;
        let len = match tag.value.as_i64() {
            Some(n) if n >= 0 => n as usize,
            _ => {
                return Err(BlockError::msg(format!(
                    "the length tag '{}' on item {first} is {}, not a whole number >= 0",
                    self.key, tag.value
                )));
            }
        };
        let skip = (first - at) as usize;
        if skip > 0 {
            tracing::warn!("burst_shaper: dropping {skip} items outside any burst");
            self.input.consume(skip);
        }
        self.len = len;
        self.first = first;
        self.next_from = first + len.max(1) as u64;
        let out = self.output.offset();
        let total = i64::try_from(len + self.extra()).unwrap_or(i64::MAX);
        self.output.add_tag(out, self.key.clone(), Pmt::Int(total));
        for t in self.input.tags() {
            if t.offset == first && t.key != self.key {
                self.output.add_tag_at(out, t);
            }
        }
        self.enter(State::PrePad);
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            let reads = match self.state {
                State::RampDown => !self.phasing,
                State::PostPad => false,
                _ => true,
            };
            if reads && self.input.slice().is_empty() {
                return Ok(if self.input.is_finished() {
                    WorkStatus::Done
                } else {
                    WorkStatus::Continue
                });
            }
            if self.state == State::Wait {
                self.start_burst()?;
                continue;
            }
            let space = self.output.slice().len();
            let mut n = (self.limit - self.index).min(space);
            let range = self.index..self.index + n;
            match self.state {
                State::PrePad | State::PostPad => {
                    self.output.slice()[..n].fill(T::real(0.0));
                    self.output.produce(n);
                }
                State::RampUp | State::RampDown if self.phasing => {
                    let phasing = if self.state == State::RampUp {
                        &self.up_phasing[range]
                    } else {
                        &self.down_phasing[range]
                    };
                    self.output.slice()[..n].copy_from_slice(phasing);
                    self.output.produce(n);
                }
                _ => {
                    n = n.min(self.input.slice().len());
                    self.move_tags(n);
                    let ramp = match self.state {
                        State::RampUp => Some(&self.up[self.index..self.index + n]),
                        State::RampDown => Some(&self.down[self.index..self.index + n]),
                        _ => None,
                    };
                    let input = &self.input.slice()[..n];
                    let out = &mut self.output.slice()[..n];
                    match ramp {
                        Some(ramp) => {
                            for ((o, &x), &w) in out.iter_mut().zip(input).zip(ramp) {
                                *o = x * w;
                            }
                        }
                        None => out.copy_from_slice(input),
                    }
                    self.input.consume(n);
                    self.output.produce(n);
                }
            }
            self.index += n;
            if self.index == self.limit {
                let next = match self.state {
                    State::Wait => State::Wait,
                    State::PrePad => State::RampUp,
                    State::RampUp => State::Copy,
                    State::Copy => State::RampDown,
                    State::RampDown => State::PostPad,
                    State::PostPad => State::Wait,
                };
                self.enter(next);
            } else if n == 0 {
                return Ok(WorkStatus::Continue);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn short_bursts_take_half_of_each_ramp_and_phasing_passes_the_burst() {
        let window = vec![0.25f32, 0.5, 1.0, 0.5, 0.25];
        let mut h = Harness::new(BurstShaper::new(window.clone(), 0, 1, false, "len"));
        h.push_tag("in", 1, "len", 3i64);
        h.push_tag("in", 2, "x", 5i64);
        h.push("in", &[9.0f32, 2.0, 2.0, 2.0]);
        h.work().unwrap();
        let (out, tags) = h.take_output_with_tags::<f32>("out");
        // N = 3: one item of each ramp (its first tap: 0.25 up, 1.0 down), one copied.
        assert_eq!(out, [0.5, 2.0, 2.0, 0.0]);
        let tags: Vec<_> = tags.iter().map(|t| (t.offset, t.value.clone())).collect();
        assert_eq!(tags, [(0, Pmt::Int(4)), (1, Pmt::Int(5))]);

        let mut h = Harness::new(BurstShaper::new(window, 1, 0, true, "len"));
        h.push_tag("in", 0, "len", 2i64);
        h.push("in", &[3.0f32, 3.0]);
        h.finish_input("in");
        h.work().unwrap();
        let out = h.take_output::<f32>("out");
        assert_eq!(
            out,
            [0.0, 0.25, -0.5, 1.0, 3.0, 3.0, 1.0, -0.5, 0.25],
            "the phasing goes out after the stream ends"
        );
    }

    #[test]
    fn a_bad_length_stops_the_run() {
        let mut h = Harness::new(BurstShaper::<f32>::new(vec![], 0, 0, false, "len"));
        h.push_tag("in", 0, "len", -1i64);
        h.push("in", &[1.0f32]);
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("item 0") && e.contains("'len'"), "{e}");
    }
}
