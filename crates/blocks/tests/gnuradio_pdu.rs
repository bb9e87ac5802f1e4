//! gr-pdu's blocks against GNU Radio 3.10's on the same input, run by `gnuradio/pdu.py` in one
//! GNU Radio process; ours under every scheduler. SKIPPED where GNU Radio is not installed.
//! - tagged_stream_to_pdu and pdu_to_tagged_stream, for each item type GRC offers (byte, float,
//!   complex): PDUs equal (compared as PMTs), streams and tags equal. A packet the stream ends
//!   inside, a key tagged twice, a PDU whose bytes are not whole items and one shorter than an
//!   item are among the cases.
//! - pdu_set, pdu_remove, pdu_filter (and inverted): the PDUs out equal.
//! - random_pdu: the same PDUs (GNU Radio's generator, seed and draws), each within the mask
//!   and the lengths.

use radioflow_blocks::{
    Head, MessageBurstSource, MessageDebug, PduFilter, PduItem, PduRemove, PduSet,
    PduToTaggedStream, RandomPdu, TaggedStreamToPdu, VectorSink, VectorSource,
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
        // Random: the same generator, seed and draws as GNU Radio's: the same PDUs.
        let ours = ours_random(s.as_ref());
        check_random(&ours, "ours");
        assert_eq!(ours, pdus_of("random"), "random_pdu, {name}");
    }
}
