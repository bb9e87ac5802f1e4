//! gr-pdu's blocks against GNU Radio 3.10's on the same input, run by `gnuradio/pdu.py` in one
//! GNU Radio process; ours under every scheduler. SKIPPED where GNU Radio is not installed.
//! - tagged_stream_to_pdu and pdu_to_tagged_stream, for each item type GRC offers (byte, float,
//!   complex): PDUs equal (compared as PMTs), streams and tags equal. A packet the stream ends
//!   inside, a key tagged twice, a PDU whose bytes are not whole items and one shorter than an
//!   item are among the cases.
//! - pdu_set, pdu_remove, pdu_filter (and inverted): the PDUs out equal.
//! - pdu_split (empty parts dropped or passed): the dicts and vectors out equal; a message that
//!   is not a PDU dropped.
//! - random_pdu: the same PDUs (GNU Radio's generator, seed and draws), each within the mask
//!   and the lengths.
//! - The burst blocks, for each item type GRC offers (byte, short, int, float, complex):
//!   take_skip_to_pdu's PDUs; tags_to_pdu's PDUs and detections (prepended items, padding to
//!   an alignment, a burst cut at the largest size, a second start tag dropping a burst, end
//!   tags outside bursts, rx_time tags); pdu_to_stream's stream and tx_sob/tx_time/tx_eob
//!   tags (timed PDUs, so that each is a burst of its own in GNU Radio whatever its timing);
//!   burst_tagger's stream and tags (both inputs' tags copied).
//! - tag_gate (tags passed, stopped, or all but one key; vectors too) and rotator_cc (the
//!   samples within GNU Radio's f32 phase drift, the tags passed) run in the same process.

use radioflow_blocks::{
    BurstTagger, EarlyBurst, Head, MessageBurstSource, MessageDebug, PduFilter, PduItem, PduRemove,
    PduSet, PduSplit, PduToStream, PduToTaggedStream, RandomPdu, RotatorCc, TagGate,
    TaggedStreamToPdu, TagsToPdu, TakeSkipToPdu, VectorSink, VectorSource,
};
use radioflow_runtime::{Block, Complex32};
use radioflow_runtime::{
    FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.pdu"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn pmt_of(v: &Value) -> Pmt {
    Pmt::from_bytes(&unhex(v.as_str().unwrap())).unwrap()
}

/// The stream's tags for the `to_pdu` cases: packets of 3, 4 and 2 items, then one of 5 the
/// stream (10 items) ends inside; other tags inside packets, one key twice.
fn stream_tags() -> Vec<Tag> {
    vec![
        Tag::new(0, "packet_len", 3i64),
        Tag::new(1, "a", 7i64),
        Tag::new(1, "b", Pmt::symbol("x")),
        Tag::new(2, "a", 9i64),
        Tag::new(3, "packet_len", 4i64),
        Tag::new(5, "c", 1.5f64),
        Tag::new(7, "packet_len", 2i64),
        Tag::new(9, "packet_len", 5i64),
    ]
}

/// Our PDUs for `items` with [`stream_tags`].
fn ours_to_pdu<T: PduItem>(items: &[T], s: &dyn Scheduler) -> Vec<Pmt> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items.to_vec()).tags(stream_tags()));
    let s2p = fg.add(TaggedStreamToPdu::<T>::new("packet_len"));
    let dbg = fg.add(MessageDebug::new());
    fg.connect(src, s2p).unwrap();
    fg.connect_message((s2p, "pdus"), (dbg, "store")).unwrap();
    fg.run_with(s).unwrap();
    fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec()
}

/// The PDUs for the `to_stream` cases: metadata, bytes that are not whole floats, a vector
/// shorter than one item (no packet), then a PDU the head ends inside.
fn stream_pdus() -> Vec<Pmt> {
    let meta = Pmt::dict_from([("a", Pmt::Int(1)), ("b", Pmt::symbol("x"))]);
    vec![
        Pmt::pair(meta, Pmt::F32Vector(vec![1.0, 2.0, -3.5].into())),
        Pmt::pair(Pmt::Null, Pmt::blob((0..17).collect::<Vec<u8>>())),
        Pmt::pair(Pmt::Null, Pmt::blob(vec![9])),
        Pmt::pair(Pmt::Null, Pmt::F32Vector(vec![5.0, 6.0, 7.0, 8.0].into())),
    ]
}

/// Items the `to_stream` cases take, per item size: a head in the last PDU.
fn stream_items(size: usize) -> u64 {
    ((12 + 16) / size + 8 / size) as u64
}

/// Our stream and tags (offset, key, value) for [`stream_pdus`].
fn ours_to_stream<T: PduItem>(s: &dyn Scheduler) -> (Vec<T>, Vec<(u64, Pmt, Pmt)>) {
    let n = stream_items(std::mem::size_of::<T>());
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::new(stream_pdus()));
    let p2s = fg.add(PduToTaggedStream::<T>::new("packet_len"));
    let head = fg.add(Head::<T>::new(n));
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect_message((src, "out"), (p2s, "pdus")).unwrap();
    fg.connect(p2s, head).unwrap();
    fg.connect(head, sink).unwrap();
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<T>>(sink).unwrap();
    let tags = sink
        .tags()
        .iter()
        .map(|t| (t.offset, t.key.clone(), t.value.clone()))
        .collect();
    (sink.data().to_vec(), tags)
}

/// GNU Radio's stream and tags for a `to_stream` case.
fn gr_stream<T: PduItem>(v: &Value) -> (Vec<T>, Vec<(u64, Pmt, Pmt)>) {
    let items = bytemuck::pod_collect_to_vec(&unhex(v["items"].as_str().unwrap()));
    let tags = v["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t[0].as_u64().unwrap(),
                Pmt::symbol(t[1].as_str().unwrap()),
                pmt_of(&t[2]),
            )
        })
        .collect();
    (items, tags)
}

/// The PDUs for the metadata cases; the last one's data is the marker GNU Radio's run waits
/// for (it passes every case's block).
fn meta_pdus() -> Vec<Pmt> {
    let data = Pmt::blob(vec![1, 2]);
    vec![
        Pmt::pair(Pmt::Null, data.clone()),
        Pmt::pair(Pmt::dict_from([("k", 1i64), ("z", 2)]), data.clone()),
        Pmt::pair(Pmt::dict_from([("k", 7i64)]), Pmt::Int(4)),
        Pmt::pair(Pmt::dict_from([("k", 1.0f64)]), data.clone()),
        Pmt::pair(Pmt::dict_from([("k", Pmt::symbol("on"))]), data.clone()),
        Pmt::pair(Pmt::dict_from([("k", 1i64)]), Pmt::blob(vec![0xde, 0xad])),
    ]
}

/// The metadata cases: name, block (as pdu.py names it), k, v, invert.
fn meta_cases() -> Vec<(&'static str, &'static str, Pmt, Pmt, bool)> {
    let k = Pmt::symbol("k");
    vec![
        ("set", "set", k.clone(), Pmt::symbol("v"), false),
        (
            "set_new",
            "set",
            Pmt::symbol("new"),
            Pmt::Double(2.5),
            false,
        ),
        ("remove", "remove", k.clone(), Pmt::Null, false),
        (
            "remove_absent",
            "remove",
            Pmt::symbol("q"),
            Pmt::Null,
            false,
        ),
        ("filter", "filter", k.clone(), Pmt::Int(1), false),
        ("filter_inverted", "filter", k.clone(), Pmt::Int(7), true),
    ]
}

/// Our PDUs out of `block` for [`meta_pdus`].
fn ours_meta<B: Block>(block: B, s: &dyn Scheduler) -> Vec<Pmt> {
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::new(meta_pdus()));
    let b = fg.add(block);
    let dbg = fg.add(MessageDebug::new());
    fg.connect_message((src, "out"), (b, "pdus")).unwrap();
    fg.connect_message((b, "pdus"), (dbg, "store")).unwrap();
    fg.run_with(s).unwrap();
    fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec()
}

/// pdu_split's messages: full, empty parts, not a PDU, and a marker PDU last (it ends both
/// outputs in GNU Radio's run).
fn split_messages() -> Vec<Pmt> {
    vec![
        Pmt::pair(Pmt::dict_from([("k", 1i64)]), Pmt::blob(vec![1, 2])),
        Pmt::pair(Pmt::Null, Pmt::F32Vector(Vec::new().into())),
        Pmt::pair(
            Pmt::dict_from([("e", true)]),
            Pmt::C32Vector(Vec::new().into()),
        ),
        Pmt::pair(Pmt::Null, Pmt::F32Vector(vec![0.5].into())),
        Pmt::Int(3),
        Pmt::pair(Pmt::Null, Pmt::Int(4)),
        Pmt::pair(Pmt::dict_from([("end", true)]), Pmt::blob(vec![9])),
    ]
}

/// pdu_split's settings checked: empty parts dropped, then passed.
const SPLIT_PASSES: [bool; 2] = [false, true];

/// Our dicts and vectors out of pdu_split for [`split_messages`].
fn ours_split(pass_empty: bool, s: &dyn Scheduler) -> (Vec<Pmt>, Vec<Pmt>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::new(split_messages()));
    let b = fg.add(PduSplit::new(pass_empty));
    let (dicts, vecs) = (fg.add(MessageDebug::new()), fg.add(MessageDebug::new()));
    fg.connect_message((src, "out"), (b, "pdu")).unwrap();
    fg.connect_message((b, "dict"), (dicts, "store")).unwrap();
    fg.connect_message((b, "vec"), (vecs, "store")).unwrap();
    fg.run_with(s).unwrap();
    let got = |d| fg.block::<MessageDebug>(d).unwrap().messages().to_vec();
    (got(dicts), got(vecs))
}

/// random_pdu's case: min, max, mask, modulo, PDUs.
const RANDOM: (i64, i64, u32, i64, usize) = (3, 20, 0x3c, 4, 1000);

fn ours_random(s: &dyn Scheduler) -> Vec<Pmt> {
    let (min, max, mask, modulo, n) = RANDOM;
    let mut fg = Flowgraph::new();
    let ticks = fg.add(MessageBurstSource::repeat(Pmt::Bool(true), n - 1));
    let random = fg.add(RandomPdu::new(min, max, mask, modulo).unwrap());
    let dbg = fg.add(MessageDebug::new());
    fg.connect_message((ticks, "out"), (random, "generate"))
        .unwrap();
    fg.connect_message((random, "pdus"), (dbg, "store"))
        .unwrap();
    fg.run_with(s).unwrap();
    fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec()
}

/// Checks what any draw must give: `n` PDUs, lengths multiples of the modulo in the range,
/// bytes within the mask.
fn check_random(pdus: &[Pmt], who: &str) {
    let (min, max, mask, modulo, n) = RANDOM;
    assert_eq!(pdus.len(), n, "{who}: PDUs");
    for pdu in pdus {
        let Some((Pmt::Null, Pmt::U8Vector(bytes))) = pdu.as_pair() else {
            panic!("{who}: not a (nil . u8vector) PDU: {pdu}");
        };
        let len = bytes.len() as i64;
        assert!(
            len % modulo == 0 && (min - modulo..=max).contains(&len),
            "{who}: length {len}"
        );
        assert!(
            bytes.iter().all(|&b| u32::from(b) & !mask == 0),
            "{who}: a byte outside the mask"
        );
    }
}

/// The burst cases' items per type: 40 of each.
struct BurstItems {
    bytes: Vec<u8>,
    shorts: Vec<i16>,
    ints: Vec<i32>,
    floats: Vec<f32>,
    complex: Vec<Complex32>,
}

fn burst_items() -> BurstItems {
    BurstItems {
        bytes: (0..40).map(|i| 3 * i + 1).collect(),
        shorts: (0..40).map(|i| -100 * i + 7).collect(),
        ints: (0..40).map(|i| 70_000 * i - 1).collect(),
        floats: (0..40).map(|i| i as f32 * 0.5 - 2.0).collect(),
        complex: (0..40)
            .map(|i| Complex32::new(i as f32, 1.0 - i as f32))
            .collect(),
    }
}

/// take_skip_to_pdu's take and skip.
const TAKE_SKIP: (u32, u32) = (3, 5);

/// tags_to_pdu's settings: max size, rate, items prepended (copies of the first item), tail,
/// start time, EOB alignment and offset.
const TAGS_TO_PDU: (u32, f64, usize, u32, f64, u32, u32) = (6, 8.0, 1, 2, 1.5, 4, 1);

fn time(seconds: u64, fraction: f64) -> Pmt {
    Pmt::Tuple(vec![Pmt::Uint64(seconds), Pmt::Double(fraction)].into())
}

/// tags_to_pdu's stream tags: a burst padded to the alignment, an end tag outside a burst, a
/// burst dropped by a second start, one cut at the largest size, time tags before and inside
/// bursts. (No burst the stream ends inside: GNU Radio's block then never finishes, keeping
/// the burst's last item to read again.)
fn burst_tags() -> Vec<Tag> {
    vec![
        Tag::new(1, "rx_time", time(2, 0.25)),
        Tag::new(3, "SOB", true),
        Tag::new(6, "EOB", true),
        Tag::new(8, "EOB", true),
        Tag::new(10, "SOB", true),
        Tag::new(12, "SOB", true),
        Tag::new(20, "EOB", true),
        Tag::new(22, "rx_time", time(5, 0.5)),
        Tag::new(25, "SOB", true),
        Tag::new(26, "EOB", true),
        Tag::new(30, "SOB", true),
        Tag::new(31, "rx_time", time(9, 0.875)),
        Tag::new(33, "EOB", true),
    ]
}

/// pdu_to_stream's PDUs of `items`: 4 untimed, then 2 and 5 timed.
fn timed_pdus<T: PduItem>(items: &[T]) -> Vec<Pmt> {
    let timed = |s| Pmt::dict_from([("tx_time", time(s, 0.5))]);
    vec![
        Pmt::pair(Pmt::Null, T::pdu_vector(&items[..4])),
        Pmt::pair(timed(1), T::pdu_vector(&items[4..6])),
        Pmt::pair(timed(2), T::pdu_vector(&items[6..11])),
    ]
}

/// burst_tagger's trigger: runs above 0, a negative value (off).
fn trigger() -> Vec<i16> {
    (0..40)
        .map(|i: i16| match i % 7 {
            2..=4 => 1,
            5 => -1,
            _ => 0,
        })
        .collect()
}

type Stream<T> = (Vec<T>, Vec<(u64, Pmt, Pmt)>);

fn sorted_tags(tags: &[Tag]) -> Vec<(u64, Pmt, Pmt)> {
    let mut tags: Vec<_> = tags
        .iter()
        .map(|t| (t.offset, t.key.clone(), t.value.clone()))
        .collect();
    tags.sort_by_key(|(o, k, _)| (*o, k.to_string()));
    tags
}

/// Our outputs of the four burst blocks.
struct Bursts<T> {
    take_skip: Vec<Pmt>,
    tags_to_pdu: Vec<Pmt>,
    detects: Vec<Pmt>,
    to_stream: Stream<T>,
    tagger: Stream<T>,
}

/// Our outputs of the four burst blocks for `items`.
fn ours_bursts<T: PduItem>(items: &[T], s: &dyn Scheduler) -> Bursts<T> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items.to_vec()));
    let ts = fg.add(TakeSkipToPdu::<T>::new(TAKE_SKIP.0, TAKE_SKIP.1).unwrap());
    let dbg = fg.add(MessageDebug::new());
    fg.connect(src, ts).unwrap();
    fg.connect_message((ts, "pdus"), (dbg, "store")).unwrap();
    fg.run_with(s).unwrap();
    let take_skip = fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec();

    let (max, rate, prepend, tail, start, alignment, offset) = TAGS_TO_PDU;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items.to_vec()).tags(burst_tags()));
    let t2p = fg.add(
        TagsToPdu::<T>::new("SOB", "EOB", max, rate)
            .unwrap()
            .prepend(vec![items[0]; prepend])
            .tail_size(tail)
            .start_time(start)
            .unwrap()
            .eob(alignment, offset)
            .unwrap()
            .publish_detections(true),
    );
    let dbg = fg.add(MessageDebug::new());
    let det = fg.add(MessageDebug::new());
    fg.connect(src, t2p).unwrap();
    fg.connect_message((t2p, "pdus"), (dbg, "store")).unwrap();
    fg.connect_message((t2p, "detects"), (det, "store"))
        .unwrap();
    fg.run_with(s).unwrap();
    let tags_to_pdu = fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec();
    let detects = fg.block::<MessageDebug>(det).unwrap().messages().to_vec();

    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::new(timed_pdus(items)));
    let p2s = fg.add(PduToStream::<T>::new(EarlyBurst::Append, 64));
    let head = fg.add(Head::<T>::new(11));
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect_message((src, "out"), (p2s, "pdus")).unwrap();
    fg.connect(p2s, head).unwrap();
    fg.connect(head, sink).unwrap();
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<T>>(sink).unwrap();
    let to_stream = (sink.data().to_vec(), sorted_tags(sink.tags()));

    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items.to_vec()).tags(vec![Tag::new(1, "data", 5i64)]));
    let trig = fg.add(VectorSource::new(trigger()).tags(vec![Tag::new(2, "trig", 6i64)]));
    let tagger = fg.add(
        BurstTagger::<T>::new()
            .true_tag("SOB", true)
            .false_tag("EOB", false),
    );
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, (tagger, "in")).unwrap();
    fg.connect(trig, (tagger, "trigger")).unwrap();
    fg.connect(tagger, sink).unwrap();
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<T>>(sink).unwrap();
    let tagger = (sink.data().to_vec(), sorted_tags(sink.tags()));
    Bursts {
        take_skip,
        tags_to_pdu,
        detects,
        to_stream,
        tagger,
    }
}

/// The burst part of the job for GNU Radio.
fn bursts_job(items: &BurstItems) -> Value {
    let (max, rate, prepend, tail, start, alignment, offset) = TAGS_TO_PDU;
    let pdus = |p: Vec<Pmt>| p.iter().map(|p| hex(&p.to_bytes())).collect::<Vec<_>>();
    json!({
        "types": {
            "byte": hex(&items.bytes),
            "short": hex(bytemuck::cast_slice(&items.shorts)),
            "int": hex(bytemuck::cast_slice(&items.ints)),
            "float": hex(bytemuck::cast_slice(&items.floats)),
            "complex": hex(bytemuck::cast_slice(&items.complex)),
        },
        "take_skip": {"take": TAKE_SKIP.0, "skip": TAKE_SKIP.1},
        "tags_to_pdu": {
            "max": max, "rate": rate, "prepend": prepend, "tail": tail, "start_time": start,
            "alignment": alignment, "offset": offset,
            "tags": burst_tags().iter()
                .map(|t| json!([t.offset, t.key.to_string(), hex(&t.value.to_bytes())]))
                .collect::<Vec<_>>(),
        },
        "to_stream": {
            "byte": {"pdus": pdus(timed_pdus(&items.bytes)), "items": 11},
            "short": {"pdus": pdus(timed_pdus(&items.shorts)), "items": 11},
            "int": {"pdus": pdus(timed_pdus(&items.ints)), "items": 11},
            "float": {"pdus": pdus(timed_pdus(&items.floats)), "items": 11},
            "complex": {"pdus": pdus(timed_pdus(&items.complex)), "items": 11},
        },
        "burst_tagger": {"trigger": trigger(), "true_key": "SOB", "false_key": "EOB"},
    })
}

/// Checks our burst blocks against GNU Radio's outputs `gr` for type `name`.
fn check_bursts<T: PduItem + std::fmt::Debug + PartialEq>(
    items: &[T],
    name: &str,
    gr: &Value,
    s: &dyn Scheduler,
) {
    let sched = s.name();
    let pdus = |v: &Value| -> Vec<Pmt> { v.as_array().unwrap().iter().map(pmt_of).collect() };
    let stream = |v: &Value| -> Stream<T> {
        let (items, tags) = gr_stream::<T>(v);
        let mut tags: Vec<_> = tags;
        tags.sort_by_key(|(o, k, _)| (*o, k.to_string()));
        (items, tags)
    };
    let Bursts {
        take_skip,
        tags_to_pdu: t2p,
        detects,
        to_stream,
        tagger,
    } = ours_bursts(items, s);
    let gr_take_skip = &gr[format!("take_skip_{name}")];
    if gr_take_skip.is_null() {
        // GNU Radio 3.10.5 has no take_skip_to_pdu_i: the PDUs GNU Radio's other types give.
        let (take, skip) = (TAKE_SKIP.0 as usize, TAKE_SKIP.1 as usize);
        let expected: Vec<Pmt> = (0..)
            .map(|k| k * (take + skip))
            .take_while(|start| start + take <= items.len())
            .enumerate()
            .map(|(k, start)| {
                let meta = Pmt::dict_from([("pdu_num", Pmt::Uint64(k as u64))]);
                Pmt::pair(meta, T::pdu_vector(&items[start..start + take]))
            })
            .collect();
        assert_eq!(take_skip, expected, "take_skip {name}, {sched}");
    } else {
        assert_eq!(take_skip, pdus(gr_take_skip), "take_skip {name}, {sched}");
    }
    let gr_t2p = &gr[format!("tags_to_pdu_{name}")];
    assert_eq!(t2p, pdus(&gr_t2p["pdus"]), "tags_to_pdu {name}, {sched}");
    assert_eq!(
        detects,
        pdus(&gr_t2p["detects"]),
        "tags_to_pdu detects {name}, {sched}"
    );
    assert_eq!(
        to_stream,
        stream(&gr[format!("to_stream_{name}")]),
        "to_stream {name}, {sched}"
    );
    assert_eq!(
        tagger,
        stream(&gr[format!("burst_tagger_{name}")]),
        "burst_tagger {name}, {sched}"
    );
}

/// tag_gate's cases: name, vlen, propagate_tags, single_key.
const GATES: &[(&str, usize, bool, &str)] = &[
    ("gate_all", 1, true, ""),
    ("gate_all_key", 1, true, "a"),
    ("gate_none", 1, false, ""),
    ("gate_but_a", 1, false, "a"),
    ("gate_but_a_vectors", 2, false, "a"),
];

/// rotator_cc's increment.
const PHASE_INC: f64 = 0.3;

/// tag_gate's and rotator's tags, as offsets in scalars (the vector cases divide them).
fn gate_tags() -> Vec<Tag> {
    vec![
        Tag::new(0, "a", 1i64),
        Tag::new(3, "b", 2i64),
        Tag::new(6, "a", 3i64),
        Tag::new(9, "c", Pmt::symbol("x")),
    ]
}

fn gate_floats() -> Vec<f32> {
    (0..20).map(|i| i as f32 - 4.5).collect()
}

fn rotator_input() -> Vec<Complex32> {
    (0..500)
        .map(|i| Complex32::new((i as f32 * 0.1).cos(), (i as f32 * 0.07).sin()))
        .collect()
}

fn gates_job() -> Value {
    json!({
        "floats": hex(bytemuck::cast_slice(&gate_floats())),
        "complex": hex(bytemuck::cast_slice(&rotator_input())),
        "phase_inc": PHASE_INC,
        "tags": gate_tags().iter()
            .map(|t| json!([t.offset, t.key.to_string(), hex(&t.value.to_bytes())]))
            .collect::<Vec<_>>(),
        "gates": GATES.iter().map(|(n, v, p, k)| json!([n, v, p, k])).collect::<Vec<_>>(),
    })
}

/// Checks tag_gate and rotator_cc against GNU Radio's outputs `gr`.
fn check_gates(gr: &Value, s: &dyn Scheduler) {
    let sched = s.name();
    for &(name, vlen, propagate, key) in GATES {
        let tags: Vec<Tag> = gate_tags()
            .into_iter()
            .map(|t| Tag::new(t.offset / vlen as u64, t.key, t.value))
            .collect();
        let mut fg = Flowgraph::new();
        let src = fg.add(
            VectorSource::new(gate_floats())
                .with_vlen(vlen)
                .unwrap()
                .tags(tags),
        );
        let gate = fg.add(
            TagGate::<f32>::new(propagate)
                .single_key(key)
                .with_vlen(vlen),
        );
        let sink = fg.add(VectorSink::<f32>::new().with_vlen(vlen));
        fg.connect(src, gate).unwrap();
        fg.connect(gate, sink).unwrap();
        fg.run_with(s).unwrap();
        let sink = fg.block::<VectorSink<f32>>(sink).unwrap();
        let ours = (sink.data().to_vec(), sorted_tags(sink.tags()));
        let (items, mut tags) = gr_stream::<f32>(&gr[name]);
        tags.sort_by_key(|(o, k, _)| (*o, k.to_string()));
        assert_eq!(ours, (items, tags), "{name}, {sched}");
    }
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(rotator_input()).tags(gate_tags()));
    let rot = fg.add(RotatorCc::new(PHASE_INC, true).unwrap());
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, rot).unwrap();
    fg.connect(rot, sink).unwrap();
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    let (want, mut want_tags) = gr_stream::<Complex32>(&gr["rotator"]);
    want_tags.sort_by_key(|(o, k, _)| (*o, k.to_string()));
    assert_eq!(sink.data().len(), want.len(), "rotator, {sched}");
    for (n, (g, w)) in sink.data().iter().zip(&want).enumerate() {
        // GNU Radio turns by an f32 increment, renormalized every 512 samples: its phase
        // strays by about 1e-7 rad a sample.
        let tol = 1e-5 + 2e-7 * n as f32;
        assert!(
            (g - w).norm() <= tol * w.norm().max(1.0),
            "rotator {n}: {g} vs {w}, {sched}"
        );
    }
    assert_eq!(sorted_tags(sink.tags()), want_tags, "rotator tags, {sched}");
}

#[test]
fn pdu_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.pdu)");
        return;
    }
    let bytes: Vec<u8> = (0..10).map(|i| 3 * i + 1).collect();
    let floats: Vec<f32> = (0..10).map(|i| i as f32 * 0.5 - 2.0).collect();
    let complex: Vec<Complex32> = (0..10)
        .map(|i| Complex32::new(i as f32, -(i as f32)))
        .collect();
    let burst = burst_items();
    let tags: Vec<Value> = stream_tags()
        .iter()
        .map(|t| json!([t.offset, t.key.to_string(), hex(&t.value.to_bytes())]))
        .collect();
    let stream_pdus_hex: Vec<String> = stream_pdus().iter().map(|p| hex(&p.to_bytes())).collect();
    let job = json!({
        "to_pdu": [
            {"name": "byte", "type": "byte", "items": hex(&bytes), "tags": tags},
            {"name": "float", "type": "float", "items": hex(bytemuck::cast_slice(&floats)), "tags": tags},
            {"name": "complex", "type": "complex", "items": hex(bytemuck::cast_slice(&complex)), "tags": tags},
        ],
        "to_stream": [
            {"name": "byte", "type": "byte", "pdus": &stream_pdus_hex, "items": stream_items(1)},
            {"name": "float", "type": "float", "pdus": &stream_pdus_hex, "items": stream_items(4)},
            {"name": "complex", "type": "complex", "pdus": &stream_pdus_hex, "items": stream_items(8)},
        ],
        "meta": meta_cases().iter().map(|(name, block, k, v, invert)| json!({
            "name": name, "block": block, "k": hex(&k.to_bytes()), "v": hex(&v.to_bytes()),
            "invert": invert, "pdus": meta_pdus().iter().map(|p| hex(&p.to_bytes())).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "random": [{
            "name": "random", "min": RANDOM.0, "max": RANDOM.1, "mask": RANDOM.2,
            "modulo": RANDOM.3, "n": RANDOM.4,
        }],
        "split": SPLIT_PASSES.map(|pass| json!({
            "name": format!("split_{pass}"), "pass_empty": pass,
            "pdus": split_messages().iter().map(|p| hex(&p.to_bytes())).collect::<Vec<_>>(),
        })),
        "bursts": bursts_job(&burst),
        "gates": gates_job(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/pdu.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "GNU Radio's script failed");
    let gr: Value = serde_json::from_slice(&out.stdout).unwrap();

    let pdus_of =
        |name: &str| -> Vec<Pmt> { gr[name].as_array().unwrap().iter().map(pmt_of).collect() };
    for s in schedulers() {
        let name = s.name().to_owned();
        assert_eq!(
            ours_to_pdu(&bytes, s.as_ref()),
            pdus_of("byte"),
            "byte, {name}"
        );
        assert_eq!(
            ours_to_pdu(&floats, s.as_ref()),
            pdus_of("float"),
            "float, {name}"
        );
        assert_eq!(
            ours_to_pdu(&complex, s.as_ref()),
            pdus_of("complex"),
            "complex, {name}"
        );
        assert_eq!(
            ours_to_stream::<u8>(s.as_ref()),
            gr_stream::<u8>(&gr["stream_byte"]),
            "to_stream byte, {name}"
        );
        assert_eq!(
            ours_to_stream::<f32>(s.as_ref()),
            gr_stream::<f32>(&gr["stream_float"]),
            "to_stream float, {name}"
        );
        assert_eq!(
            ours_to_stream::<Complex32>(s.as_ref()),
            gr_stream::<Complex32>(&gr["stream_complex"]),
            "to_stream complex, {name}"
        );
        for (case, block, k, v, invert) in meta_cases() {
            let ours = match block {
                "set" => ours_meta(PduSet::new(k, v), s.as_ref()),
                "remove" => ours_meta(PduRemove::new(k), s.as_ref()),
                _ => ours_meta(PduFilter::new(k, v, invert), s.as_ref()),
            };
            assert_eq!(ours, pdus_of(case), "{case}, {name}");
        }
        for pass in [false, true] {
            let case = format!("split_{pass}");
            let parts = |part: &str| -> Vec<Pmt> {
                gr[&case][part]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(pmt_of)
                    .collect()
            };
            assert_eq!(
                ours_split(pass, s.as_ref()),
                (parts("dict"), parts("vec")),
                "{case}, {name}"
            );
        }
        // Random: the same generator, seed and draws as GNU Radio's: the same PDUs.
        let ours = ours_random(s.as_ref());
        check_random(&ours, "ours");
        assert_eq!(ours, pdus_of("random"), "random_pdu, {name}");
        check_bursts(&burst.bytes, "byte", &gr, s.as_ref());
        check_bursts(&burst.shorts, "short", &gr, s.as_ref());
        check_bursts(&burst.ints, "int", &gr, s.as_ref());
        check_bursts(&burst.floats, "float", &gr, s.as_ref());
        check_bursts(&burst.complex, "complex", &gr, s.as_ref());
        check_gates(&gr, s.as_ref());
    }
}
