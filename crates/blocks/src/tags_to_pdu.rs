//! [`TagsToPdu`]: the items from a start tag to an end tag as one PDU.

use crate::pdu_item::PduItem;
use radioflow_dsp::ParamError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends each burst of the stream as a PDU on `pdus` (GNU Radio's `pdu.tags_to_pdu_X`): a
/// burst starts at an item tagged `start_tag` (that item is its first, after the `prepend`
/// items) and ends before the next item tagged `end_tag`, or once it holds `max_pdu_size`
/// items (the rest up to the next start tag is dropped). A start tag inside a burst drops the
/// burst (an error is logged) and starts a new one; an end tag outside one is ignored.
///
/// At an end tag, zeros are appended until the burst's length less `eob_offset` is a multiple
/// of `eob_alignment`. A PDU is sent only if it holds more than `tail_size` items. Its metadata
/// has `rx_time` (a tuple of uint64 seconds and double fraction: the burst's start from the
/// last `rx_time` tag seen, or `start_time` at item 0, at `samp_rate`), `sample_rate` and
/// `pdu_num` (a uint64 counting bursts, those dropped too), and with `time_debug` `sys_time`
/// (the wall clock when sent, seconds since 1970). With `publish_detections` each burst's
/// start offset goes out on `detects` as a uint64.
///
/// A dict on `conf` with `eob_offset` and/or `eob_alignment` (greater than 0) changes them.
///
/// A burst the stream ends inside is not sent (GNU Radio's block then never finishes: it keeps
/// the burst's last item to read again).
///
/// As GNU Radio's, a tag on the same item after the start or end tag that is handled there is
/// not looked at (an `rx_time` there is missed); where a burst reaches `max_pdu_size`, GNU
/// Radio may have read `rx_time` tags a little past that point first (as its work calls fall),
/// this block reads them in stream order.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, TagsToPdu, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt, Tag};
///
/// let tags = vec![Tag::new(1, "SOB", true), Tag::new(4, "EOB", false)];
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new((0u8..8).collect()).tags(tags));
/// let t2p = fg.add(TagsToPdu::<u8>::new("SOB", "EOB", 1024, 1000.0).unwrap());
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect(src, t2p)?;
/// fg.connect_message((t2p, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// let pdus = fg.block::<MessageDebug>(dbg).unwrap().messages();
/// assert_eq!(pdus[0].as_pair().unwrap().1, &Pmt::blob(vec![1, 2, 3]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tags_to_pdu",
    summary = "The items from each start tag to the next end tag (or max_pdu_size) as a PDU on `pdus`, with rx_time, sample_rate and pdu_num (GNU Radio's tags_to_pdu).",
    dtypes = [Uint8, Int16, Int32, Float32, Complex32],
    make = Self::new(start_tag, end_tag, max_pdu_size, samp_rate)
        .and_then(|b| b.prepend(prepend).tail_size(tail_size).start_time(start_time))
        .and_then(|b| b.eob(eob_alignment, eob_offset))
        .map_err(|e| Refused::param(e.name, e.reason))?
        .publish_detections(publish_detections)
        .time_debug(time_debug)
)]
#[param(start_tag: String = "SOB", doc = "the key of the tag on a burst's first item")]
#[param(end_tag: String = "EOB", doc = "the key of the tag on the item after a burst")]
#[param(max_pdu_size: u32 = 1024, doc = "items in a PDU at most (at least 1)")]
#[param(samp_rate: f64, doc = "samples per second, for the bursts' rx_time (> 0)")]
#[param(prepend: Vec<T> = [], doc = "items put before each burst's first")]
#[param(publish_detections: bool = false, doc = "send each burst's start offset on `detects`")]
#[param(tail_size: u32 = 0, doc = "PDUs of this many items or fewer are not sent")]
#[param(start_time: f64 = 0.0, doc = "the time of item 0, in seconds (>= 0)")]
#[param(eob_alignment: u32 = 1, doc = "a burst ended by a tag is padded with zeros to a multiple of this (at least 1)")]
#[param(eob_offset: u32 = 0, doc = "... plus this many items (below eob_alignment)")]
#[param(time_debug: bool = false, doc = "add sys_time, the wall clock when sent, to the metadata")]
#[message_input(name = "conf", doc = "a dict changing eob_offset and eob_alignment")]
#[derive(Debug)]
pub struct TagsToPdu<T: PduItem> {
    /// The stream with start and end tags.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// A PDU per burst.
    #[message_output]
    pdus: MessageOutput,
    /// Each burst's start offset (with `publish_detections`).
    #[message_output]
    detects: MessageOutput,
    start_key: Pmt,
    end_key: Pmt,
    max: usize,
    rate: f64,
    prepend: Vec<T>,
    publish_detections: bool,
    tail: usize,
    alignment: u64,
    eob_offset: u64,
    time_debug: bool,
    /// The last known time: whole seconds, fraction, and the item it is the time of.
    known: (u64, f64, u64),
    /// Whether a burst is being gathered, its items and where it started.
    triggered: bool,
    items: Vec<T>,
    start: u64,
    /// Bursts counted (those dropped too).
    count: u64,
    /// The metadata, kept from PDU to PDU as GNU Radio keeps it.
    meta: Pmt,
}

#[block]
impl<T: PduItem> TagsToPdu<T> {
    /// Bursts between tags `start_tag` and `end_tag`, at most `max_pdu_size` items, timed at
    /// `samp_rate`.
    ///
    /// # Errors
    /// `max_pdu_size` of 0 or `samp_rate` not above 0.
    pub fn new(
        start_tag: impl AsRef<str>,
        end_tag: impl AsRef<str>,
        max_pdu_size: u32,
        samp_rate: f64,
    ) -> Result<Self, ParamError> {
        if max_pdu_size == 0 {
            return Err(ParamError::new("max_pdu_size", "must be at least 1"));
        }
        if samp_rate.is_nan() || samp_rate <= 0.0 {
            return Err(ParamError::new(
                "samp_rate",
                format!("must be above 0, not {samp_rate}"),
            ));
        }
        Ok(Self {
            input: StreamInput::new(),
            pdus: MessageOutput::new(),
            detects: MessageOutput::new(),
            start_key: Pmt::symbol(start_tag.as_ref()),
            end_key: Pmt::symbol(end_tag.as_ref()),
            max: max_pdu_size as usize,
            rate: samp_rate,
            prepend: Vec::new(),
            publish_detections: false,
            tail: 0,
            alignment: 1,
            eob_offset: 0,
            time_debug: false,
            known: (0, 0.0, 0),
            triggered: false,
            items: Vec::new(),
            start: 0,
            count: 0,
            meta: Pmt::Null,
        })
    }

    /// Puts `items` before each burst's first item.
    pub fn prepend(mut self, items: Vec<T>) -> Self {
        self.prepend = items;
        self
    }

    /// PDUs of `n` items or fewer are not sent.
    pub fn tail_size(mut self, n: u32) -> Self {
        self.tail = n as usize;
        self
    }

    /// Item 0 is at `seconds`.
    ///
    /// # Errors
    /// `seconds` below 0 (or not a number).
    pub fn start_time(mut self, seconds: f64) -> Result<Self, ParamError> {
        if seconds.is_nan() || seconds < 0.0 {
            return Err(ParamError::new(
                "start_time",
                format!("must be at least 0, not {seconds}"),
            ));
        }
        let whole = seconds as u64;
        self.known = (whole, seconds - whole as f64, 0);
        Ok(self)
    }

    /// A burst ended by a tag is padded with zeros until its length less `offset` is a
    /// multiple of `alignment`.
    ///
    /// # Errors
    /// `alignment` of 0, or `offset` not below it.
    pub fn eob(mut self, alignment: u32, offset: u32) -> Result<Self, ParamError> {
        if alignment == 0 {
            return Err(ParamError::new("eob_alignment", "must be at least 1"));
        }
        if offset >= alignment {
            return Err(ParamError::new(
                "eob_offset",
                format!("must be below eob_alignment ({alignment}), not {offset}"),
            ));
        }
        self.alignment = alignment.into();
        self.eob_offset = offset.into();
        Ok(self)
    }

    /// Sends each burst's start offset on `detects`.
    pub fn publish_detections(mut self, on: bool) -> Self {
        self.publish_detections = on;
        self
    }

    /// Adds `sys_time` (the wall clock when sent) to the metadata.
    pub fn time_debug(mut self, on: bool) -> Self {
        self.time_debug = on;
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let from = self.input.offset();
        let n = self.input.slice().len();
        let end = from + n as u64;
        let mut at = from;
        let mut i = 0;
        while let Some(tag) = self.input.tags().get(i) {
            i += 1;
            if tag.offset < at || tag.offset >= end {
                continue;
            }
            let kind = if tag.key == self.start_key {
                Kind::Start
            } else if tag.key == self.end_key {
                Kind::End
            } else if tag.key == *"rx_time" {
                Kind::Time(tag.value.clone())
            } else {
                continue;
            };
            let offset = tag.offset;
            self.gather(at, offset);
            at = offset;
            match kind {
                Kind::Time(t) => self.set_time(&t, offset),
                Kind::Start => {
                    if self.triggered {
                        tracing::error!(
                            "tags_to_pdu: start tag received during burst {} at offset {offset}, previous burst dropped",
                            self.count
                        );
                        self.count += 1;
                        self.triggered = false;
                        self.items.clear();
                    }
                    self.start = offset;
                    self.items.extend_from_slice(&self.prepend);
                    let item = self.input.slice()[(offset - from) as usize];
                    self.items.push(item);
                    self.triggered = true;
                    if self.publish_detections {
                        self.detects.post(Pmt::Uint64(offset));
                    }
                    at = offset + 1;
                }
                Kind::End => {
                    if self.triggered {
                        // GNU Radio computes this in size_t: a burst shorter than the
                        // offset wraps around.
                        let len = self.items.len() as u64;
                        let short = len.wrapping_sub(self.eob_offset) % self.alignment;
                        if short != 0 {
                            let zeros = (self.alignment - short) as usize;
                            self.items.resize(self.items.len() + zeros, T::zeroed());
                        }
                        self.publish();
                    } else {
                        tracing::info!(
                            "tags_to_pdu: received unexpected end tag at offset {offset}"
                        );
                    }
                    at = offset + 1;
                }
            }
        }
        self.gather(at, end);
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }

    /// Adds the items from stream offset `at` to `to` to the burst, if one is being gathered;
    /// sends it where it reaches the largest size.
    fn gather(&mut self, at: u64, to: u64) {
        if !self.triggered {
            return;
        }
        if self.items.len() >= self.max {
            // The prepended items and the first filled it.
            self.items.truncate(self.max);
            self.publish();
            return;
        }
        let from = self.input.offset();
        let room = (self.max - self.items.len()) as u64;
        let take = to.saturating_sub(at).min(room) as usize;
        let first = (at - from) as usize;
        self.items
            .extend_from_slice(&self.input.slice()[first..first + take]);
        if self.items.len() >= self.max {
            self.publish();
        }
    }

    fn set_time(&mut self, value: &Pmt, offset: u64) {
        let parts = match value {
            Pmt::Tuple(t) if t.len() >= 2 => t[0].as_u64().zip(t[1].as_f64()),
            _ => None,
        };
        match parts {
            Some((seconds, fraction)) => self.known = (seconds, fraction, offset),
            None => tracing::warn!(
                "tags_to_pdu: rx_time tag at offset {offset} is not a tuple (seconds, fraction); ignored"
            ),
        }
    }

    fn publish(&mut self) {
        let (seconds, fraction, known_at) = self.known;
        // GNU Radio's arithmetic: the whole seconds of the difference truncated toward zero,
        // the fraction kept below 1 only upward.
        let mut delta = (self.start as i64 - known_at as i64) as f64 / self.rate;
        let whole = delta as i32;
        delta -= f64::from(whole);
        let mut int_seconds = seconds.wrapping_add_signed(whole.into());
        let mut frac_seconds = fraction + delta;
        if frac_seconds >= 1.0 {
            frac_seconds -= 1.0;
            int_seconds += 1;
        }
        let time = Pmt::Tuple(vec![Pmt::Uint64(int_seconds), Pmt::Double(frac_seconds)].into());
        self.meta.dict_add("rx_time", time);
        self.meta.dict_add("sample_rate", self.rate);
        self.meta.dict_add("pdu_num", Pmt::Uint64(self.count));
        if self.time_debug {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64());
            self.meta.dict_add("sys_time", now);
        }
        if self.items.len() > self.tail {
            self.pdus
                .post(Pmt::pair(self.meta.clone(), T::pdu_vector(&self.items)));
        }
        self.count += 1;
        self.triggered = false;
        self.items.clear();
    }

    #[message_input]
    fn conf(&mut self, msg: Pmt) -> Result<(), BlockError> {
        if !msg.is_dict() {
            return Ok(());
        }
        if let Some(v) = msg.dict_get("eob_offset") {
            match v.as_u64() {
                Some(offset) => self.eob_offset = offset,
                None => tracing::warn!(
                    "tags_to_pdu conf: eob_offset {v} is not a whole number; ignored"
                ),
            }
        }
        if let Some(v) = msg.dict_get("eob_alignment") {
            match v.as_u64() {
                Some(alignment) if alignment > 0 => self.alignment = alignment,
                _ => tracing::error!(
                    "tags_to_pdu conf: illegal value {v} for eob_alignment; not set"
                ),
            }
        }
        Ok(())
    }
}

/// What a tag means to [`TagsToPdu`].
enum Kind {
    Start,
    End,
    Time(Pmt),
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn datas(pdus: &[Pmt]) -> Vec<Vec<u8>> {
        pdus.iter()
            .map(|p| p.as_pair().unwrap().1.as_blob().unwrap().to_vec())
            .collect()
    }

    /// Runs `block` over 0..30 with `tags`, in pieces of `chunk`.
    fn run(block: TagsToPdu<u8>, tags: &[(u64, &str)], chunk: usize) -> Vec<Pmt> {
        let mut h = Harness::new(block);
        for &(at, key) in tags {
            h.push_tag("in", at, key, true);
        }
        let data: Vec<u8> = (0..30).collect();
        for piece in data.chunks(chunk) {
            h.push("in", piece);
            h.work().unwrap();
        }
        h.take_messages("pdus")
    }

    #[test]
    fn bursts_padding_largest_size_and_a_second_start_whatever_the_pieces() {
        let tags = [
            (2, "SOB"),
            (5, "EOB"),
            (7, "EOB"),
            (8, "SOB"),
            (10, "SOB"),
            (20, "EOB"),
            (22, "SOB"),
            (23, "EOB"),
        ];
        let block = || {
            TagsToPdu::<u8>::new("SOB", "EOB", 6, 10.0)
                .unwrap()
                .prepend(vec![99])
                .eob(4, 1)
                .unwrap()
                .tail_size(2)
        };
        let whole = run(block(), &tags, 30);
        for chunk in [1, 4, 7] {
            assert_eq!(run(block(), &tags, chunk), whole, "pieces of {chunk}");
        }
        // [99 2 3 4] padded to 5 (5 - 1 = 4); 8's burst dropped at 10; 10's cut at 6 items;
        // 22's [99 22] padded to 5, but [99 22 0 0 0] is 5 > 2: sent.
        assert_eq!(
            datas(&whole),
            [
                vec![99, 2, 3, 4, 0],
                vec![99, 10, 11, 12, 13, 14],
                vec![99, 22, 0, 0, 0]
            ]
        );
        let nums: Vec<u64> = whole
            .iter()
            .map(|p| {
                p.as_pair()
                    .unwrap()
                    .0
                    .dict_get("pdu_num")
                    .unwrap()
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(nums, [0, 2, 3]);
    }

    #[test]
    fn rx_time_is_counted_from_the_last_time_tag() {
        let mut h = Harness::new(
            TagsToPdu::<u8>::new("SOB", "EOB", 100, 4.0)
                .unwrap()
                .start_time(1.5)
                .unwrap(),
        );
        h.push_tag("in", 6, "SOB", true);
        h.push_tag("in", 8, "EOB", true);
        h.push_tag(
            "in",
            10,
            "rx_time",
            Pmt::Tuple(vec![Pmt::Uint64(7), Pmt::Double(0.75)].into()),
        );
        h.push_tag("in", 13, "SOB", true);
        h.push_tag("in", 14, "EOB", true);
        h.push("in", &[0u8; 20]);
        h.work().unwrap();
        let times: Vec<Pmt> = h
            .take_messages("pdus")
            .iter()
            .map(|p| p.as_pair().unwrap().0.dict_get("rx_time").unwrap().clone())
            .collect();
        let t = |s, f| Pmt::Tuple(vec![Pmt::Uint64(s), Pmt::Double(f)].into());
        // 1.5 + 6/4 = 3.0; 7.75 + 3/4 = 8.5.
        assert_eq!(times, [t(3, 0.0), t(8, 0.5)]);
    }

    #[test]
    fn bad_parameters_are_refused_by_name() {
        let e = |r: Result<TagsToPdu<u8>, ParamError>| r.unwrap_err().name;
        assert_eq!(e(TagsToPdu::new("a", "b", 0, 1.0)), "max_pdu_size");
        assert_eq!(e(TagsToPdu::new("a", "b", 1, 0.0)), "samp_rate");
        let ok = || TagsToPdu::<u8>::new("a", "b", 1, 1.0).unwrap();
        assert_eq!(e(ok().eob(0, 0)), "eob_alignment");
        assert_eq!(e(ok().eob(2, 2)), "eob_offset");
        assert_eq!(e(ok().start_time(-1.0)), "start_time");
    }
}
