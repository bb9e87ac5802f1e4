//! The packet blocks against GNU Radio 3.10's on the same input, run by `gnuradio/packets.py`
//! in one GNU Radio process; ours under every scheduler. SKIPPED where GNU Radio is not
//! installed.
//! - crc_append / crc_check: widths 8 to 64, reflected or not, an initial value that is not
//!   its own reflection, the CRC in either byte order, a header skipped, the CRC discarded;
//!   PDUs too short, corrupted, empty. The PDUs out on each port equal.
//! - crc32_async_bb, both modes: the PDUs out equal (bad ones dropped).
//! - crc32_bb, both modes, packed and not: the stream and its tags equal (a tag past the
//!   shortened packet, one at its end, a corrupted packet and one too short among them).

use radioflow_blocks::{MessageBurstSource, MessageDebug, VectorSink, VectorSource};
use radioflow_digital::{Crc32Async, Crc32Stream, CrcAppend, CrcCheck};
use radioflow_dsp::Crc;
use radioflow_runtime::{
    Block, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.digital"])
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

fn pdu(meta: Pmt, bytes: &[u8]) -> Pmt {
    Pmt::pair(meta, Pmt::blob(bytes.to_vec()))
}

/// The last PDU of every case: its metadata marks it; GNU Radio's script waits for it.
fn marker(bytes: &[u8]) -> Pmt {
    pdu(Pmt::dict_from([("marker", true)]), bytes)
}

/// A PDU case: name, GNU Radio's constructor, our block, output ports, PDUs in.
struct PduCase {
    name: String,
    make: String,
    ours: Box<dyn Fn() -> Box<dyn Block>>,
    ports: &'static [&'static str],
    pdus: Vec<Pmt>,
}

/// Byte PDUs of several lengths, one with metadata, then `marker`.
fn payloads(marker_pdu: Pmt) -> Vec<Pmt> {
    let mut v = Vec::new();
    for len in [0usize, 1, 2, 3, 9, 40] {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 29 + len) as u8).collect();
        v.push(pdu(Pmt::Null, &bytes));
    }
    v.push(pdu(Pmt::dict_from([("k", 3i64)]), b"123456789"));
    v.push(marker_pdu);
    v
}

/// The CRC parameter sets: num_bits, poly, initial, final xor, in/result reflected, swap,
/// header bytes.
type CrcSet = (u32, u64, u64, u64, bool, bool, bool, u64);
const CRCS: &[CrcSet] = &[
    (32, 0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF, true, true, false, 0),
    (32, 0x04C11DB7, 0x12345678, 0xFFFFFFFF, true, true, true, 0),
    (16, 0x1021, 0xFFFF, 0, false, false, false, 2),
    (8, 0x07, 0x5A, 0x33, true, false, false, 1),
    (24, 0x864CFB, 0xB704CE, 0, false, true, true, 0),
    (
        64,
        0x42F0E1EBA9EA3693,
        0x0123456789ABCDEF,
        u64::MAX,
        true,
        true,
        false,
        3,
    ),
];

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn pdu_cases() -> Vec<PduCase> {
    let mut cases = Vec::new();
    for (i, &(bits, poly, init, xor, rin, rout, swap, skip)) in CRCS.iter().enumerate() {
        let args = format!(
            "{bits}, {poly:#x}, {init:#x}, {xor:#x}, {}, {}, {}",
            py_bool(rin),
            py_bool(rout),
            py_bool(swap)
        );
        cases.push(PduCase {
            name: format!("append{i}"),
            make: format!("digital.crc_append({args}, {skip})"),
            ours: Box::new(move || {
                Box::new(CrcAppend::new(bits, poly, init, xor, rin, rout, swap, skip).unwrap())
            }),
            ports: &["out"],
            pdus: payloads(marker(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])),
        });
        // The payloads with their CRC, some corrupted, for the check.
        for discard in [false, true] {
            let crc_len = (bits / 8) as usize;
            let mut pdus = Vec::new();
            for (j, p) in payloads(Pmt::Null).into_iter().enumerate().take(7) {
                let Some((meta, Pmt::U8Vector(b))) = p.as_pair() else {
                    unreachable!()
                };
                let mut bytes = b.to_vec();
                let crc = crc_of(bits, poly, init, xor, rin, rout, &bytes, skip);
                let mut tail: Vec<u8> = (1..=crc_len)
                    .map(|k| (crc >> (bits as usize - 8 * k)) as u8)
                    .collect();
                if swap {
                    tail.reverse();
                }
                bytes.extend(tail);
                if j % 3 == 1 {
                    // Corrupt one bit of the body or the CRC.
                    let at = (j * 7) % bytes.len();
                    bytes[at] ^= 0x10;
                }
                pdus.push(pdu(meta.clone(), &bytes));
            }
            // Good, to `ok`: the marker.
            let mut m = vec![0xAB; skip as usize + 5];
            let crc = crc_of(bits, poly, init, xor, rin, rout, &m, skip);
            let mut tail: Vec<u8> = (1..=crc_len)
                .map(|k| (crc >> (bits as usize - 8 * k)) as u8)
                .collect();
            if swap {
                tail.reverse();
            }
            m.extend(tail);
            pdus.push(marker(&m));
            cases.push(PduCase {
                name: format!("check{i}_{discard}"),
                make: format!("digital.crc_check({args}, {}, {skip})", py_bool(discard)),
                ours: Box::new(move || {
                    Box::new(
                        CrcCheck::new(bits, poly, init, xor, rin, rout, swap, discard, skip)
                            .unwrap(),
                    )
                }),
                ports: &["ok", "fail"],
                pdus,
            });
        }
    }
    cases.push(PduCase {
        name: "crc32_async_add".into(),
        make: "digital.crc32_async_bb(False)".into(),
        ours: Box::new(|| Box::new(Crc32Async::new(false))),
        ports: &["out"],
        pdus: payloads(marker(b"end")),
    });
    let mut checked: Vec<Pmt> = Vec::new();
    for (j, p) in payloads(marker(b"end")).into_iter().enumerate() {
        let Some((meta, Pmt::U8Vector(b))) = p.as_pair() else {
            unreachable!()
        };
        let mut bytes = b.to_vec();
        let crc = crc_of(32, 0x04C11DB7, !0, !0, true, true, &bytes, 0) as u32;
        bytes.extend(crc.to_le_bytes());
        if j == 2 || j == 5 {
            bytes[j] ^= 1;
        }
        checked.push(pdu(meta.clone(), &bytes));
    }
    cases.push(PduCase {
        name: "crc32_async_check".into(),
        make: "digital.crc32_async_bb(True)".into(),
        ours: Box::new(|| Box::new(Crc32Async::new(true))),
        ports: &["out"],
        pdus: checked,
    });
    cases
}

/// The CRC of `bytes` after `skip` header bytes, by radioflow's kernel (the check cases
/// compare with GNU Radio's verdicts, so a wrong CRC here shows as a difference); 0 for a
/// PDU too short to have one (it is dropped unread).
#[allow(clippy::too_many_arguments)]
fn crc_of(
    bits: u32,
    poly: u64,
    init: u64,
    xor: u64,
    rin: bool,
    rout: bool,
    bytes: &[u8],
    skip: u64,
) -> u64 {
    let crc = Crc::new(bits, poly, init, xor, rin, rout).unwrap();
    bytes.get(skip as usize..).map_or(0, |b| crc.compute(b))
}

fn ours_pdus(case: &PduCase, s: &dyn Scheduler) -> Vec<Vec<Pmt>> {
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::new(case.pdus.clone()));
    let b = fg.add_boxed(None, (case.ours)());
    fg.connect_message((src, "out"), (b, "in")).unwrap();
    let dbgs: Vec<_> = case
        .ports
        .iter()
        .map(|port| {
            let d = fg.add(MessageDebug::new());
            fg.connect_message((b, *port), (d, "store")).unwrap();
            d
        })
        .collect();
    fg.run_with(s).unwrap();
    dbgs.iter()
        .map(|d| fg.block::<MessageDebug>(*d).unwrap().messages().to_vec())
        .collect()
}

/// A stream case: name, GNU Radio's constructor, check, packed, bytes, tags.
type StreamCase = (String, String, bool, bool, Vec<u8>, Vec<Tag>);

fn stream_cases() -> Vec<StreamCase> {
    let mut cases = Vec::new();
    for packed in [true, false] {
        let unit = if packed { 4 } else { 32 };
        // Packets of 5, 9, 0 and 2 items (2 is too short to check), bits when unpacked.
        let lens = [5usize, 9, 0, 2];
        let mut items = Vec::new();
        let mut tags = Vec::new();
        for (p, &len) in lens.iter().enumerate() {
            let at = items.len() as u64;
            tags.push(Tag::new(at, "packet_len", len as i64));
            if len > 1 {
                tags.push(Tag::new(at + 1, "in_packet", p as i64));
            }
            items.extend((0..len).map(|i| {
                let v = (i * 37 + p * 11) as u8;
                if packed {
                    v
                } else {
                    v & 1
                }
            }));
        }
        tags.push(Tag::new(0, "first", 1i64));
        cases.push((
            format!("add_{packed}"),
            format!("digital.crc32_bb(False, 'packet_len', {})", py_bool(packed)),
            false,
            packed,
            items,
            tags,
        ));
        // Packets with their CRC (made by radioflow's block, checked by GNU Radio's):
        // good, corrupted, good with a tag past its shortened end and one at its end.
        let mut fg = Flowgraph::new();
        let body: Vec<u8> = (0..12u8)
            .map(|i| if packed { i * 17 } else { (i / 3) & 1 })
            .collect();
        let mut src_tags = Vec::new();
        for p in 0..3u64 {
            src_tags.push(Tag::new(p * 12, "packet_len", 12i64));
        }
        let src =
            fg.add(VectorSource::new([body.clone(), body.clone(), body].concat()).tags(src_tags));
        let add = fg.add(Crc32Stream::new(false, "packet_len", packed));
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, add).unwrap();
        fg.connect(add, sink).unwrap();
        fg.run().unwrap();
        let mut items = fg.block::<VectorSink<u8>>(sink).unwrap().data().to_vec();
        let len = 12 + unit;
        items[len + 3] ^= 1;
        let mut tags: Vec<Tag> = (0..3u64)
            .map(|p| Tag::new(p * len as u64, "packet_len", len as i64))
            .collect();
        tags.push(Tag::new(2 * len as u64 + 12, "at_end", 1i64));
        tags.push(Tag::new(2 * len as u64 + 13, "past_end", 2i64));
        tags.push(Tag::new(len as u64 + 2, "dropped", 3i64));
        // One more packet, too short to hold a CRC.
        tags.push(Tag::new(3 * len as u64, "packet_len", 2i64));
        items.extend([1, 0]);
        cases.push((
            format!("check_{packed}"),
            format!("digital.crc32_bb(True, 'packet_len', {})", py_bool(packed)),
            true,
            packed,
            items,
            tags,
        ));
    }
    cases
}

fn ours_stream(case: &StreamCase, s: &dyn Scheduler) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    let (_, _, check, packed, items, tags) = case;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items.clone()).tags(tags.clone()));
    let b = fg.add(Crc32Stream::new(*check, "packet_len", *packed));
    let sink = fg.add(VectorSink::<u8>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.run_with(s).unwrap();
    let out = fg.block::<VectorSink<u8>>(sink).unwrap();
    let tags = out
        .tags()
        .iter()
        .map(|t| (t.offset, t.key.to_string(), t.value.clone()))
        .collect();
    (out.data().to_vec(), tags)
}

#[test]
fn packet_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.digital)");
        return;
    }
    let pdu_cases = pdu_cases();
    let stream_cases = stream_cases();
    let hexes = |v: &[Pmt]| v.iter().map(|p| hex(&p.to_bytes())).collect::<Vec<_>>();
    let job = json!({
        "pdu": pdu_cases.iter().map(|c| json!({
            "name": c.name, "make": c.make, "ports": c.ports, "pdus": hexes(&c.pdus),
        })).collect::<Vec<_>>(),
        "stream": stream_cases.iter().map(|(name, make, _, _, items, tags)| json!({
            "name": name, "make": make, "items": hex(items),
            "tags": tags.iter().map(|t| json!([t.offset, t.key.to_string(), hex(&t.value.to_bytes())])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/packets.py");
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
    // The result is the last line: GNU Radio's loggers write before it.
    let stdout = String::from_utf8(out.stdout).unwrap();
    let gr: Value = serde_json::from_str(stdout.trim_end().lines().last().unwrap()).unwrap();
    for s in schedulers() {
        let sched = s.name().to_owned();
        for case in &pdu_cases {
            let ours = ours_pdus(case, s.as_ref());
            for (port, ours) in case.ports.iter().zip(ours) {
                let theirs: Vec<Pmt> = gr[&case.name][port]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(pmt_of)
                    .collect();
                // Every port has PDUs to compare (a check case has good and bad ones).
                assert!(
                    !theirs.is_empty(),
                    "{} {port}: GNU Radio sent none",
                    case.name
                );
                assert_eq!(ours, theirs, "{} {port}, {sched}", case.name);
            }
        }
        for case in &stream_cases {
            let (items, tags) = ours_stream(case, s.as_ref());
            let g = &gr[&case.0];
            let gr_tags: Vec<(u64, String, Pmt)> = g["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t[0].as_u64().unwrap(),
                        t[1].as_str().unwrap().to_owned(),
                        pmt_of(&t[2]),
                    )
                })
                .collect();
            assert_eq!(
                hex(&items),
                g["items"].as_str().unwrap(),
                "{} items, {sched}",
                case.0
            );
            assert_eq!(tags, gr_tags, "{} tags, {sched}", case.0);
            if case.2 {
                // The tag past the shortened packet moved onto its last item.
                assert!(
                    tags.contains(&(12 + 11, "past_end".into(), Pmt::Int(2))),
                    "{tags:?}"
                );
                assert!(!tags.iter().any(|t| t.1 == "dropped"), "{tags:?}");
            }
        }
    }
}
