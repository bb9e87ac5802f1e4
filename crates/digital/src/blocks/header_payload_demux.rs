//! [`HeaderPayloadDemux`]: bursts cut into a header, sent to be parsed, and the payload its
//! parser's answer says follows (GNU Radio's `digital.header_payload_demux`).

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Where the demux stands (GNU Radio's states, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Looking for the next trigger.
    FindTrigger,
    /// A trigger found: the header goes out once it is all in.
    Header,
    /// The header went out: waiting for its verdict on `header_data`.
    WaitForMsg,
    /// The verdict was a payload length: the payload's tags go out, the header is passed.
    HeaderRxSuccess,
    /// The verdict was no payload: one item is passed, then the search goes on.
    HeaderRxFail,
    /// The payload goes out once it is all in.
    Payload,
}

/// Cuts bursts of items into a header and a payload (GNU Radio's
/// `digital.header_payload_demux`, GRC's `digital_header_payload_demux`). A burst starts at
/// a trigger: a tag of key `trigger_tag_key` on the input, or a non-zero byte on the optional
/// `trigger` input, whichever comes first. From `header_padding` items before it, the header
/// (`header_len` symbols of `items_per_symbol` items, each after a guard interval of
/// `guard_interval` items that is left out, and `header_padding` items either side) goes out
/// on `out_hdr`; then the block waits for the header's verdict on `header_data`, which a
/// parser downstream sends: a payload length in symbols (an integer, or a dict with it under
/// `length_tag_key`, and maybe `payload_offset`, an item shift within the padding), or
/// anything else (`#f`) for a header refused, after which the search goes on one item past
/// the header's start. Given a length, the payload (that many symbols, from the end of the
/// header, shifted by `payload_offset`) goes out on `out_payload` once it is all in, its first
/// item tagged with the verdict (the length under `length_tag_key` for an integer, each
/// entry of a dict as a tag); the search goes on from the payload's last item (or its last
/// `header_padding` items). With `output_symbols`, each output item is one symbol (a vector
/// of `items_per_symbol`), otherwise items.
///
/// Tags: the input's tags within the header or payload go out with it (not the trigger's),
/// at their symbol's index with `output_symbols`, otherwise at their item's (with a guard
/// interval and items out, at the symbol's index plus the position in the symbol: GNU
/// Radio's arithmetic, kept). The header's first item also carries a timing tag (where
/// `timing_tag_key` is not empty): the last such tag's time `(seconds, fraction)` seen
/// before the header plus the items since at `samp_rate` (from `(0, 0.0)` before any; the
/// whole seconds of the difference added to the seconds, its fraction to the fraction,
/// which may pass 1 as GNU Radio's does), and each of the `special_tags` with the last value
/// seen before the header (`#nil` before any).
///
/// As in GNU Radio, a verdict that comes while the block is not waiting for one changes its
/// state all the same, and a header or payload must fit in the buffers (a longer one stops
/// the run with an error naming the block, where GNU Radio waits forever). The block does
/// not end at the end of the stream while a verdict may still come. Where GNU Radio would
/// consume a negative count (a payload of 0 symbols without padding, a stream shorter than
/// the padding), nothing is consumed.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_digital::{HeaderPayloadDemux, ProtocolParser};
///
/// // A burst from item 1: access code 1010, the length (1 byte) twice (16 bits each), the
/// // payload's 8 bits.
/// let mut bits = vec![0u8, 1, 0, 1, 0];
/// for half in [1u16, 1] {
///     bits.extend((0..16).rev().map(|k| ((half >> k) & 1) as u8));
/// }
/// bits.extend([1, 1, 0, 1, 0, 0, 1, 0, 0, 0]);
/// let mut trigger = vec![0u8; bits.len()];
/// trigger[1] = 1;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(bits));
/// let trig = fg.add(VectorSource::new(trigger));
/// let demux = fg.add(HeaderPayloadDemux::<u8>::new(
///     36, 1, 0, "payload symbols", "", false, "", 1.0, Vec::new(), 0,
/// ).map_err(|(_, e)| e)?);
/// let parse = fg.add(ProtocolParser::new("default access_code=1010 threshold=0 bps=1".parse()?));
/// let pld = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, demux)?;
/// fg.connect(trig, (demux, "trigger"))?;
/// fg.connect((demux, "out_hdr"), parse)?;
/// fg.connect_message((parse, "info"), (demux, "header_data"))?;
/// fg.connect((demux, "out_payload"), pld)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(pld).unwrap().data(), &[1, 1, 0, 1, 0, 0, 1, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "header_payload_demux",
    summary = "Bursts cut at a trigger into a header, sent to be parsed, and the payload the parser's verdict on `header_data` says follows (GNU Radio's header_payload_demux).",
    dtypes = [Complex32, Float32, Int32, Int16, Uint8],
    make = Self::new(header_len, items_per_symbol, guard_interval, &length_tag_key, &trigger_tag_key, output_symbols, &timing_tag_key, samp_rate, tag_keys(&special_tags)?, header_padding).map_err(|(p, e)| Refused::param(p, e))?
)]
#[param(header_len: usize, example = 2, doc = "header symbols (at least 1)")]
#[param(items_per_symbol: usize = 1, doc = "items per symbol (at least 1): an OFDM symbol's carriers")]
#[param(guard_interval: usize = 0, doc = "items before each symbol that are left out (a cyclic prefix)")]
#[param(length_tag_key: String = "frame_len", doc = "the key of the payload length in the verdict, and of the tag that carries it")]
#[param(trigger_tag_key: String = "", doc = "the key of the tags that start a burst (empty: only the trigger input does)")]
#[param(output_symbols: bool = false, doc = "each output item is a symbol (a vector of items_per_symbol), not an item")]
#[param(timing_tag_key: String = "rx_time", doc = "the key of the time tags to follow (empty: no time tag on the header)")]
#[param(samp_rate: f64 = 1.0, above = 0.0, doc = "the input's sample rate, for the header's time")]
#[param(special_tags: Vec<Pmt> = [], doc = "keys of tags whose last value goes on each header")]
#[param(header_padding: usize = 0, doc = "items taken before and after the header (a timing uncertainty)")]
#[message_input(
    name = "header_data",
    doc = "the header's verdict: a payload length in symbols (an integer, or a dict with it under length_tag_key), or anything else for a header refused"
)]
#[derive(Debug)]
pub struct HeaderPayloadDemux<T: Item> {
    /// The items, bursts among them.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// A non-zero byte starts a burst (optional).
    #[input(name = "trigger")]
    trigger: StreamInput<u8>,
    /// The headers, with their padding.
    #[output(name = "out_hdr")]
    header: StreamOutput<T>,
    /// The payloads.
    #[output(name = "out_payload")]
    payload: StreamOutput<T>,
    /// Symbols per header.
    header_len: usize,
    /// Padding in whole symbols, and the items left over.
    pad_symbols: usize,
    pad_items: usize,
    /// All the padding, in items.
    pad_total: usize,
    items_per_symbol: usize,
    guard: usize,
    length_key: Pmt,
    trigger_key: Pmt,
    uses_trigger_tag: bool,
    output_symbols: bool,
    state: State,
    /// The payload's symbols, and its shift in items, from the last verdict.
    payload_len: usize,
    payload_offset: i64,
    /// The tags for the payload's first item, from the last verdict.
    payload_tags: Vec<(Pmt, Pmt)>,
    /// The time tags' key, `None` where none is followed.
    timing_key: Option<Pmt>,
    payload_offset_key: Pmt,
    /// The last time tag consumed: its item and value.
    last_time_offset: u64,
    last_time: Pmt,
    sampling_time: f64,
    /// The special tags' keys and their last values consumed.
    special: Vec<(Pmt, Pmt)>,
}

/// The keys of `special_tags` (symbols or strings, as GNU Radio's list of strings).
fn tag_keys(list: &[Pmt]) -> Result<Vec<String>, Refused> {
    list.iter()
        .map(|k| {
            k.as_symbol().map(str::to_owned).ok_or_else(|| {
                Refused::param("special_tags", format!("{k} is not a tag key (a string)"))
            })
        })
        .collect()
}

#[block]
impl<T: Item> HeaderPayloadDemux<T> {
    /// A demux with GNU Radio's parameters, in its order (the item type is `T`).
    ///
    /// # Errors
    /// Naming the parameter, as GNU Radio refuses it: `header_len` or `items_per_symbol` 0,
    /// `samp_rate` not positive, padding not whole symbols with `output_symbols` or a guard
    /// interval.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        header_len: usize,
        items_per_symbol: usize,
        guard_interval: usize,
        length_tag_key: &str,
        trigger_tag_key: &str,
        output_symbols: bool,
        timing_tag_key: &str,
        samp_rate: f64,
        special_tags: Vec<String>,
        header_padding: usize,
    ) -> Result<Self, (&'static str, String)> {
        if header_len < 1 {
            return Err(("header_len", "must be at least 1 symbol".into()));
        }
        if items_per_symbol < 1 {
            return Err(("items_per_symbol", "must be at least 1".into()));
        }
        if samp_rate.is_nan() || samp_rate <= 0.0 {
            return Err(("samp_rate", format!("{samp_rate} is not a positive rate")));
        }
        let pad_items = header_padding % items_per_symbol;
        if (output_symbols || guard_interval > 0) && pad_items != 0 {
            return Err((
                "header_padding",
                format!(
                    "{header_padding} is not a multiple of items_per_symbol ({items_per_symbol}), \
                     as it must be with output_symbols or a guard interval"
                ),
            ));
        }
        let period = items_per_symbol + guard_interval;
        let header_in = header_len * period + 2 * header_padding;
        let symbol_out = if output_symbols { items_per_symbol } else { 1 };
        let mut header = StreamOutput::new();
        let mut payload = StreamOutput::new();
        if output_symbols {
            header.set_vlen(items_per_symbol);
            payload.set_vlen(items_per_symbol);
        }
        let header_out = (header_len + 2 * (header_padding / items_per_symbol)) * items_per_symbol
            + 2 * pad_items;
        Ok(Self {
            input: StreamInput::new().with_min_items(header_in),
            trigger: StreamInput::optional(),
            header: header.with_min_items(header_out.max(symbol_out)),
            payload,
            header_len,
            pad_symbols: header_padding / items_per_symbol,
            pad_items,
            pad_total: header_padding,
            items_per_symbol,
            guard: guard_interval,
            length_key: Pmt::symbol(length_tag_key),
            trigger_key: Pmt::symbol(trigger_tag_key),
            uses_trigger_tag: !trigger_tag_key.is_empty(),
            output_symbols,
            state: State::FindTrigger,
            payload_len: 0,
            payload_offset: 0,
            payload_tags: Vec::new(),
            timing_key: (!timing_tag_key.is_empty()).then(|| Pmt::symbol(timing_tag_key)),
            payload_offset_key: Pmt::symbol("payload_offset"),
            last_time_offset: 0,
            last_time: Pmt::Tuple(vec![Pmt::Uint64(0), Pmt::Double(0.0)].into()),
            sampling_time: 1.0 / samp_rate,
            special: special_tags
                .iter()
                .map(|k| (Pmt::symbol(k.as_str()), Pmt::Null))
                .collect(),
        })
    }

    /// The header's verdict: a payload length (an integer, or a dict with it under the
    /// length tag's key), or anything else for a header refused.
    #[message_input(name = "header_data")]
    fn header_data(&mut self, msg: Pmt) -> Result<(), BlockError> {
        self.payload_tags.clear();
        self.state = State::HeaderRxFail;
        let mut length = None;
        if let Pmt::Int(n) = msg {
            length = Some(n);
            self.payload_tags
                .push((self.length_key.clone(), msg.clone()));
        } else if let Some(entries) = msg.as_dict() {
            for (k, v) in entries {
                self.payload_tags.push((k.clone(), v.clone()));
                if *k == self.length_key {
                    length = Some(long(k, v)?);
                }
                if *k == self.payload_offset_key {
                    self.payload_offset = long(k, v)?;
                    if self.payload_offset.unsigned_abs() > self.pad_total as u64 {
                        // GNU Radio's "Payload offset exceeds padding".
                        return Ok(());
                    }
                }
            }
        }
        match length {
            Some(n) if n >= 0 => {
                self.payload_len = n as usize;
                self.state = State::HeaderRxSuccess;
            }
            // A negative length: GNU Radio's length 0 and a failed header.
            Some(_) => self.payload_len = 0,
            None => {}
        }
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while self.step()? {}
        Ok(if self.state == State::WaitForMsg {
            WorkStatus::WaitMessage
        } else {
            WorkStatus::Continue
        })
    }
}

/// A verdict's integer entry (GNU Radio's `to_long`, which throws on anything else).
fn long(key: &Pmt, value: &Pmt) -> Result<i64, BlockError> {
    match value {
        Pmt::Int(n) => Ok(*n),
        _ => Err(BlockError::msg(format!(
            "header_data: the entry {key} is {value}, not an integer"
        ))),
    }
}

impl<T: Item> HeaderPayloadDemux<T> {
    /// Items per symbol on the input: the symbol and its guard interval.
    fn period(&self) -> usize {
        self.items_per_symbol + self.guard
    }

    /// Items readable on every connected input.
    fn readable(&self) -> usize {
        let n = self.input.slice().len();
        if self.trigger.is_connected() {
            n.min(self.trigger.slice().len())
        } else {
            n
        }
    }

    /// Free room on `port`'s output, in its items (symbols with `output_symbols`).
    fn room(&mut self, header: bool) -> usize {
        let out = if header {
            &mut self.header
        } else {
            &mut self.payload
        };
        out.slice().len() / out.vlen()
    }

    /// Runs one action of the state machine; `false` where it must wait.
    fn step(&mut self) -> Result<bool, BlockError> {
        match self.state {
            State::WaitForMsg => Ok(false),
            State::HeaderRxFail => {
                if self.readable() == 0 {
                    return Ok(false);
                }
                self.consume(1);
                self.state = State::FindTrigger;
                Ok(true)
            }
            State::FindTrigger => Ok(self.find_trigger()),
            State::Header => {
                let symbols = self.header_len + 2 * self.pad_symbols;
                let need_in = self.header_len * self.period() + 2 * self.pad_total;
                let need_out = if self.output_symbols {
                    symbols
                } else {
                    symbols * self.items_per_symbol + 2 * self.pad_items
                };
                if self.readable() < need_in || self.room(true) < need_out {
                    return Ok(false);
                }
                self.add_special_tags()?;
                self.copy_symbols(true, symbols, 2 * self.pad_items);
                self.state = State::WaitForMsg;
                Ok(true)
            }
            State::HeaderRxSuccess => {
                let at = self.payload.offset();
                for (k, v) in &self.payload_tags {
                    self.payload.add_tag(at, k.clone(), v.clone());
                }
                let n =
                    (self.header_len * self.period() + self.pad_total) as i64 + self.payload_offset;
                self.consume(n.max(0) as usize);
                self.payload_offset = 0;
                self.state = State::Payload;
                Ok(true)
            }
            State::Payload => {
                let need_in = self.payload_len * self.period();
                let need_out = if self.output_symbols {
                    self.payload_len
                } else {
                    self.payload_len * self.items_per_symbol
                };
                if self.readable() < need_in || self.room(false) < need_out {
                    return Ok(false);
                }
                self.copy_symbols(false, self.payload_len, 0);
                // The padding (at least an item) stays: the next trigger may lie in it.
                self.consume(need_in.saturating_sub(self.pad_total.max(1)));
                self.state = State::FindTrigger;
                Ok(true)
            }
        }
    }

    /// Looks for a trigger after the padding; consumes up to the padding before it (or all
    /// but the padding where there is none). `false` where nothing moved.
    fn find_trigger(&mut self) -> bool {
        let n = self.readable();
        let skip = self.pad_total;
        let mut at = n;
        if n >= skip {
            let stream = self.trigger.is_connected().then(|| self.trigger.slice());
            if let Some(i) = stream.and_then(|t| t[skip..n].iter().position(|&b| b != 0)) {
                at = skip + i;
            }
            if self.uses_trigger_tag {
                let base = self.input.offset();
                let range = base + skip as u64..base + n as u64;
                if let Some(t) = self
                    .input
                    .tags()
                    .iter()
                    .find(|t| range.contains(&t.offset) && t.key == self.trigger_key)
                {
                    at = at.min((t.offset - base) as usize);
                }
            }
        }
        let found = at < n;
        if found {
            self.state = State::Header;
        }
        let consumed = at.saturating_sub(skip);
        self.consume(consumed);
        found || consumed > 0
    }

    /// Consumes `n` items of every input, after noting the time and special tags on them.
    fn consume(&mut self, n: usize) {
        let start = self.input.offset();
        let end = start + n as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            if self.timing_key.as_ref() == Some(&t.key) {
                self.last_time = t.value.clone();
                self.last_time_offset = t.offset;
            }
            for (key, value) in &mut self.special {
                if *key == t.key {
                    *value = t.value.clone();
                }
            }
        }
        self.input.consume(n);
        if self.trigger.is_connected() {
            self.trigger.consume(n);
        }
    }

    /// The time and special tags on the header's first item.
    fn add_special_tags(&mut self) -> Result<(), BlockError> {
        let at = self.header.offset();
        if let Some(key) = &self.timing_key {
            let items = self.input.offset() - self.last_time_offset;
            let time =
                advance(&self.last_time, self.sampling_time * items as f64).ok_or_else(|| {
                    BlockError::msg(format!(
                        "the time tag {key} holds {}, not GNU Radio's (seconds, fraction)",
                        self.last_time
                    ))
                })?;
            self.header.add_tag(at, key.clone(), time);
        }
        for (key, value) in &self.special {
            self.header.add_tag(at, key.clone(), value.clone());
        }
        Ok(())
    }

    /// Copies `symbols` symbols (each after its guard interval) and `padding` more items from
    /// the start of the input to the header or payload output, with the input's tags on them
    /// (not the trigger's); consumes nothing.
    fn copy_symbols(&mut self, header: bool, symbols: usize, padding: usize) {
        let (ips, period, guard) = (self.items_per_symbol, self.period(), self.guard);
        let x = self.input.slice();
        let out = if header {
            &mut self.header
        } else {
            &mut self.payload
        };
        let y = out.slice();
        if guard > 0 {
            for (s, o) in y.chunks_exact_mut(ips).take(symbols).enumerate() {
                o.copy_from_slice(&x[s * period + guard..(s + 1) * period]);
            }
        } else {
            let n = symbols * ips + padding;
            y[..n].copy_from_slice(&x[..n]);
        }
        let (base, at) = (self.input.offset(), out.offset());
        let end = base + (symbols * period + padding) as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            if t.key == self.trigger_key {
                continue;
            }
            let rel = (t.offset - base) as usize;
            let new = if self.output_symbols {
                rel / period
            } else if guard > 0 {
                // GNU Radio's arithmetic: the symbol's index plus the place in the symbol.
                rel / period + (rel % period).saturating_sub(guard)
            } else {
                rel
            };
            out.add_tag_at(at + new as u64, t);
        }
        let produced = if self.output_symbols {
            symbols * ips
        } else {
            symbols * ips + padding
        };
        out.produce(produced);
    }
}

/// GNU Radio's time `(seconds, fraction)` plus `seconds` more: the difference's whole seconds
/// added to the seconds, its fraction to the fraction (not carried). `None` where `time` is
/// no such pair.
fn advance(time: &Pmt, seconds: f64) -> Option<Pmt> {
    let Pmt::Tuple(parts) = time else {
        return None;
    };
    let [s, f] = &parts[..] else {
        return None;
    };
    let whole = s.as_u64().or_else(|| s.as_i64().map(|v| v as u64))?;
    let frac = f.as_f64()?;
    let (diff_whole, diff_frac) = (seconds.trunc(), seconds.fract());
    Some(Pmt::Tuple(
        vec![
            Pmt::Uint64(whole.wrapping_add(diff_whole as u64)),
            Pmt::Double(frac + diff_frac),
        ]
        .into(),
    ))
}
