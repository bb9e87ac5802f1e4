//! The header/payload demux cases of `gnuradio_packets.rs`: bursts with headers whose items
//! say their verdict (a code, a length, an offset), answered by a block on each side that
//! reads whole headers and posts the verdict back to the demux (GNU Radio's side in
//! `packets.py`, `Verdicts`). Both outputs' items and tags compared.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::HeaderPayloadDemux;
use radioflow_runtime::prelude::*;
use radioflow_runtime::{Complex32, Flowgraph, Scheduler};
use serde_json::{json, Value};

/// An item the cases use: bytes or complex; its verdict value is its (real part's) integer.
pub(crate) trait Scalar: Item {
    fn value(self) -> i64;
    fn json(self) -> Value;
    fn of(v: i64, salt: i64) -> Self;
}

impl Scalar for u8 {
    fn value(self) -> i64 {
        i64::from(self)
    }
    fn json(self) -> Value {
        json!(self)
    }
    fn of(v: i64, _: i64) -> Self {
        v as u8
    }
}

impl Scalar for Complex32 {
    fn value(self) -> i64 {
        self.re.round() as i64
    }
    fn json(self) -> Value {
        json!([self.re, self.im])
    }
    fn of(v: i64, salt: i64) -> Self {
        Complex32::new(v as f32, (salt % 17) as f32 - 8.0)
    }
}

/// The verdict on a header from its scalars at `at`: 1 a bare length, 2 a dict with the
/// length and another entry, 3 a dict with a payload offset (the third scalar minus 8) and
/// the length, 4 nil, 5 a dict without a length, 6 a negative length, anything else `#f`.
fn verdict(code: i64, length: i64, off: i64, key: &str) -> Pmt {
    let mut d = Pmt::Null;
    match code {
        1 => return Pmt::Int(length),
        2 => {
            d.dict_add(Pmt::symbol(key), length);
            d.dict_add("extra", 7i64);
        }
        3 => {
            d.dict_add("payload_offset", off - 8);
            d.dict_add(Pmt::symbol(key), length);
        }
        4 => return Pmt::Null,
        5 => d.dict_add("other", length),
        6 => return Pmt::Int(-2),
        _ => return Pmt::Bool(false),
    }
    d
}

/// Reads whole headers (`scalars` each) and posts each one's verdict.
#[derive(Ports)]
struct Verdicts<T: Scalar> {
    #[input(name = "in")]
    input: StreamInput<T>,
    #[message_output(name = "out")]
    out: MessageOutput,
    scalars: usize,
    at: usize,
    key: String,
}

#[block]
impl<T: Scalar> Verdicts<T> {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let x = self.input.slice();
        let n = x.len() / self.scalars;
        for h in x.chunks_exact(self.scalars).take(n) {
            let v = |i: usize| h[self.at + i].value();
            self.out.post(verdict(v(0), v(1), v(2), &self.key));
        }
        self.input.consume(n * self.scalars);
        Ok(WorkStatus::Continue)
    }
}

/// A tag as compared: offset, key, value.
pub(crate) type ShownTag = (u64, String, Pmt);

/// One output's scalars (as JSON, as GNU Radio's script writes them) and tags.
pub(crate) type Output = (Vec<Value>, Vec<ShownTag>);

/// One burst: where its trigger is, and what its header says.
#[derive(Clone, Copy)]
struct Burst {
    trigger: usize,
    code: i64,
    length: i64,
    off: i64,
}

/// A demux case: its parameters (GNU Radio's order), input and bursts.
pub(crate) struct DemuxCase {
    pub(crate) name: String,
    complex: bool,
    header_len: usize,
    ips: usize,
    gi: usize,
    length_key: &'static str,
    trigger_key: &'static str,
    output_symbols: bool,
    timing_key: &'static str,
    samp_rate: f64,
    special: Vec<String>,
    pad: usize,
    /// Input items (as integers, made into the item type), tags, trigger bytes.
    items: Vec<i64>,
    tags: Vec<Tag>,
    trigger: Option<Vec<u8>>,
}

impl DemuxCase {
    fn vlen(&self) -> usize {
        if self.output_symbols {
            self.ips
        } else {
            1
        }
    }

    /// Scalars per header out, padding included.
    fn header_scalars(&self) -> usize {
        (self.header_len + 2 * (self.pad / self.ips)) * self.ips + 2 * (self.pad % self.ips)
    }

    /// The input item of the header's `j`th scalar out, for the burst triggered at `t`.
    fn header_item(&self, t: usize, j: usize) -> usize {
        let start = t - self.pad;
        if self.gi == 0 {
            start + j
        } else {
            start + (j / self.ips) * (self.ips + self.gi) + self.gi + j % self.ips
        }
    }

    fn make(&self) -> String {
        let specials: Vec<String> = self.special.iter().map(|s| format!("'{s}'")).collect();
        format!(
            "digital.header_payload_demux({}, {}, {}, '{}', '{}', {}, {}, '{}', {:?}, [{}], {})",
            self.header_len,
            self.ips,
            self.gi,
            self.length_key,
            self.trigger_key,
            if self.output_symbols { "True" } else { "False" },
            if self.complex { 8 } else { 1 },
            self.timing_key,
            self.samp_rate,
            specials.join(", "),
            self.pad
        )
    }

    pub(crate) fn job(&self) -> Value {
        let items: Vec<Value> = if self.complex {
            self.items
                .iter()
                .enumerate()
                .map(|(i, &v)| Complex32::of(v, i as i64).json())
                .collect()
        } else {
            self.items.iter().map(|&v| json!(v)).collect()
        };
        json!({
            "name": self.name, "make": self.make(), "complex": self.complex, "items": items,
            "tags": self.tags.iter().map(|t| json!([t.offset, t.key.to_string(), super::hex(&t.value.to_bytes())])).collect::<Vec<_>>(),
            "trigger": self.trigger.clone().unwrap_or_default(), "vlen": self.vlen(),
            "header_scalars": self.header_scalars(), "at": self.pad, "length_key": self.length_key,
        })
    }

    /// Our run: each output's scalars (as JSON, as GNU Radio's are) and tags.
    pub(crate) fn ours(&self, s: &dyn Scheduler) -> [Output; 2] {
        if self.complex {
            self.run::<Complex32>(s)
        } else {
            self.run::<u8>(s)
        }
    }

    fn run<T: Scalar>(&self, s: &dyn Scheduler) -> [Output; 2] {
        let mut fg = Flowgraph::new();
        let items: Vec<T> = (self.items.iter().enumerate())
            .map(|(i, &v)| T::of(v, i as i64))
            .collect();
        let src = fg.add(VectorSource::new(items).tags(self.tags.clone()));
        let demux = fg.add(
            HeaderPayloadDemux::<T>::new(
                self.header_len,
                self.ips,
                self.gi,
                self.length_key,
                self.trigger_key,
                self.output_symbols,
                self.timing_key,
                self.samp_rate,
                self.special.clone(),
                self.pad,
            )
            .unwrap(),
        );
        let vlen = self.vlen();
        let verdicts = fg.add(Verdicts::<T> {
            input: StreamInput::new().with_vlen(vlen),
            out: MessageOutput::new(),
            scalars: self.header_scalars(),
            at: self.pad,
            key: self.length_key.into(),
        });
        let sinks = [(); 2].map(|_| fg.add(VectorSink::<T>::new().with_vlen(vlen)));
        fg.connect(src, (demux, "in")).unwrap();
        if let Some(t) = &self.trigger {
            let trig = fg.add(VectorSource::new(t.clone()));
            fg.connect(trig, (demux, "trigger")).unwrap();
        }
        fg.connect((demux, "out_hdr"), sinks[0]).unwrap();
        fg.connect((demux, "out_hdr"), verdicts).unwrap();
        fg.connect((demux, "out_payload"), sinks[1]).unwrap();
        fg.connect_message((verdicts, "out"), (demux, "header_data"))
            .unwrap();
        fg.run_with(s).unwrap();
        sinks.map(|k| {
            let sink = fg.block::<VectorSink<T>>(k).unwrap();
            let tags = sink.tags().iter();
            (
                sink.data().iter().map(|v| v.json()).collect(),
                sorted(
                    tags.map(|t| (t.offset, t.key.to_string(), t.value.clone()))
                        .collect(),
                ),
            )
        })
    }
}

/// Tags in one order for both sides (GNU Radio's order among tags on one item is its
/// buffer's).
pub(crate) fn sorted(mut tags: Vec<ShownTag>) -> Vec<ShownTag> {
    tags.sort_by_key(|(o, k, v)| (*o, k.clone(), v.to_bytes()));
    tags
}

/// A pseudo-random item, never a verdict code by chance where it matters (10..250).
fn filler(i: usize) -> i64 {
    10 + ((i as i64 * 7919 + 13) % 240)
}

/// A case's input: filler, then each burst's header scalars set to its verdict.
#[allow(clippy::too_many_arguments)]
fn case(
    name: &str,
    complex: bool,
    (header_len, ips, gi, pad): (usize, usize, usize, usize),
    output_symbols: bool,
    trigger_key: &'static str,
    timing_key: &'static str,
    special: &[&str],
    trigger_stream: bool,
    bursts: &[Burst],
    len: usize,
) -> DemuxCase {
    let mut c = DemuxCase {
        name: name.into(),
        complex,
        header_len,
        ips,
        gi,
        length_key: "frame_len",
        trigger_key,
        output_symbols,
        timing_key,
        samp_rate: 1000.0,
        special: special.iter().map(|s| s.to_string()).collect(),
        pad,
        items: (0..len).map(filler).collect(),
        tags: Vec::new(),
        trigger: trigger_stream.then(|| vec![0; len]),
    };
    for b in bursts {
        for (j, v) in [b.code, b.length, b.off].into_iter().enumerate() {
            let i = c.header_item(b.trigger, c.pad + j);
            c.items[i] = v;
        }
        match &mut c.trigger {
            Some(t) => t[b.trigger] = 1,
            None => c.tags.push(Tag::new(b.trigger as u64, trigger_key, true)),
        }
    }
    // Tags to carry: on many items (some in headers and payloads, some between), times and
    // special tags now and then.
    for i in (3..len).step_by(11) {
        c.tags.push(Tag::new(i as u64, "x", i as i64));
    }
    for (n, i) in (5..len - 1).step_by(97).enumerate() {
        let time = Pmt::Tuple(vec![Pmt::Uint64(n as u64 * 3), Pmt::Double(0.25 * n as f64)].into());
        c.tags.push(Tag::new(i as u64, "rx_time", time));
        c.tags.push(Tag::new(i as u64 + 1, "sp", n as i64));
    }
    c.tags.sort_by_key(|t| t.offset);
    c
}

fn burst(trigger: usize, code: i64, length: i64, off: i64) -> Burst {
    Burst {
        trigger,
        code,
        length,
        off,
    }
}

pub(crate) fn demux_cases() -> Vec<DemuxCase> {
    vec![
        // Bytes, the trigger input, no padding: every kind of verdict; a trigger within a
        // payload (not taken), one right after a refused header's first item.
        case(
            "demux_bytes_trigger",
            false,
            (3, 1, 0, 0),
            false,
            "",
            "rx_time",
            &["sp", "never"],
            true,
            &[
                burst(4, 1, 5, 0),
                burst(20, 2, 9, 0),
                burst(25, 1, 2, 0),
                burst(40, 0, 4, 0),
                burst(41, 4, 0, 0),
                burst(50, 5, 3, 0),
                burst(60, 6, 3, 0),
                burst(70, 3, 2, 8),
                burst(80, 1, 12, 0),
                burst(150, 2, 30, 0),
            ],
            220,
        ),
        // Bytes, trigger tags, padding of 3 items over 4-item symbols: payload offsets within
        // the padding and one beyond (refused; GNU Radio keeps that offset for the next
        // payload). With items out, a padding of items_per_symbol items or more never lets
        // GNU Radio finish a stream (its search, called again and again, waits for a trigger
        // in the padding left at the end).
        case(
            "demux_bytes_tags_padding",
            false,
            (2, 4, 0, 3),
            false,
            "trig",
            "rx_time",
            &["sp"],
            false,
            &[
                burst(10, 3, 4, 5),
                burst(40, 3, 3, 11),
                burst(70, 3, 5, 12),
                burst(100, 2, 6, 0),
                burst(140, 3, 2, 8),
            ],
            200,
        ),
        // Complex, OFDM-like: symbols of 4 after a guard of 1, symbols out, a padding symbol.
        case(
            "demux_complex_symbols",
            true,
            (2, 4, 1, 4),
            true,
            "trig",
            "",
            &[],
            false,
            &[
                burst(12, 1, 3, 0),
                burst(60, 2, 4, 0),
                burst(110, 0, 1, 0),
                burst(140, 1, 2, 0),
            ],
            200,
        ),
        // Complex items out with a guard interval (GNU Radio's tag arithmetic there), both
        // the trigger input and trigger tags.
        case(
            "demux_complex_items_guard",
            true,
            (2, 3, 2, 0),
            false,
            "trig",
            "rx_time",
            &["sp"],
            true,
            &[burst(8, 1, 3, 0), burst(50, 2, 5, 0), burst(100, 1, 4, 0)],
            170,
        ),
    ]
}
