//! The packet blocks against GNU Radio 3.10's on the same input, run by `gnuradio/packets.py`
//! in one GNU Radio process; ours under every scheduler. SKIPPED where GNU Radio is not
//! installed.
//! - crc_append / crc_check: widths 8 to 64, reflected or not, an initial value that is not
//!   its own reflection, the CRC in either byte order, a header skipped, the CRC discarded;
//!   PDUs too short, corrupted, empty. The PDUs out on each port equal.
//! - crc32_async_bb, both modes: the PDUs out equal (bad ones dropped).
//! - crc32_bb, both modes, packed and not: the stream and its tags equal (a tag past the
//!   shortened packet, one at its end, a corrupted packet and one too short among them).
//! - protocol_formatter_async and protocol_formatter_bb with each header format (default,
//!   default with a short code, counter, crc, ofdm): headers equal, bit for bit, and their
//!   tags.
//! - packet_headergenerator_bb with packet_header_default (1 and 2 bits per byte, padding):
//!   the headers and their length tags equal, packet numbers past 12 bits.
//! - protocol_parser_b with the formats that have an access code: the info dicts equal (bits
//!   of the code wrong within and beyond the threshold, a bad header among them).
//! - header_payload_demux (`gnuradio/demux_cases.rs`): bytes and complex, items and symbols
//!   out, guard intervals, padding, trigger input and tags, every kind of verdict (length,
//!   dicts, payload offsets, refusals): both outputs' items and tags equal.

#[path = "gnuradio/demux_cases.rs"]
mod demux_cases;

use radioflow_blocks::{MessageBurstSource, MessageDebug, VectorSink, VectorSource};
use radioflow_digital::{
    Crc32Async, Crc32Stream, CrcAppend, CrcCheck, HeaderFormat, PacketHeaderGenerator,
    ProtocolFormatter, ProtocolFormatterAsync, ProtocolParser,
};
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
            // Bad, to `fail`.
            m[skip as usize] ^= 0x40;
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

/// The header formats: GNU Radio's constructor and radioflow's text form.
fn formats() -> Vec<(&'static str, String, HeaderFormat)> {
    let code = "10101010111101010101";
    [
        (
            "default",
            "digital.header_format_default(digital.packet_utils.default_access_code, 0, 1)"
                .to_string(),
            format!(
                "default access_code={} threshold=0 bps=1",
                radioflow_digital::DEFAULT_ACCESS_CODE
            ),
        ),
        (
            "default_short",
            format!("digital.header_format_default('{code}', 3, 2)"),
            format!("default access_code={code} threshold=3 bps=2"),
        ),
        (
            "counter",
            "digital.header_format_counter('1011001110', 1, 4)".to_string(),
            "counter access_code=1011001110 threshold=1 bps=4".to_string(),
        ),
        (
            "crc",
            "digital.header_format_crc('len', 'num')".to_string(),
            "crc len_key=len num_key=num".to_string(),
        ),
        (
            // 40 header bits (the 32 of the crc header and 8 of padding).
            "ofdm",
            "digital.header_format_ofdm(((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10), (1, 2, 3, 4, -1, -2, -3, -4, 5, -5, 6, -6, 7, -7, 8, -8, 9, -9, 10, -10)), 2, 'len', 'frame', 'num', 1, 2, False)".to_string(),
            "ofdm len_key=len frame_key=frame num_key=num header_bits=40 carriers=20,20 payload_bps=2".to_string(),
        ),
    ]
    .into_iter()
    .map(|(name, make, text)| (name, make, text.parse().unwrap()))
    .collect()
}

/// The formatter cases: PDUs of several lengths (one past 12 bits, one past 16) for each
/// format.
fn formatter_cases() -> Vec<PduCase> {
    formats()
        .into_iter()
        .map(|(name, make, format)| {
            let mut pdus: Vec<Pmt> = [0usize, 3, 300, 5000, 70_000]
                .iter()
                .map(|&n| pdu(Pmt::dict_from([("n", n as i64)]), &vec![(n % 251) as u8; n]))
                .collect();
            pdus.push(marker(&[1, 2, 3]));
            PduCase {
                name: format!("formatter_{name}"),
                make: format!("digital.protocol_formatter_async({make})"),
                ours: Box::new(move || Box::new(ProtocolFormatterAsync::new(format.clone()))),
                ports: &["header", "payload"],
                pdus,
            }
        })
        .collect()
}

/// Bits of `bytes`, most significant first (least for `lsb_first`).
fn bits_of(bytes: &[u8], lsb_first: bool) -> Vec<u8> {
    bytes
        .iter()
        .flat_map(|b| {
            (0..8).map(move |k| {
                if lsb_first {
                    (b >> k) & 1
                } else {
                    (b >> (7 - k)) & 1
                }
            })
        })
        .collect()
}

/// The parser cases: for each format with an access code, headers of several lengths among
/// other bits, some with bits of the access code wrong (within the threshold and beyond), one
/// whose lengths differ. Not crc: GNU Radio 3.10's parser of it never finishes a finite
/// stream (its loop reads past the input), so the crc parser is checked on the headers GNU
/// Radio's formatter makes (the formatter cases, and `header_format.rs`).
fn parse_cases() -> Vec<(String, String, HeaderFormat, Vec<u8>)> {
    // Zeros between headers: random bits would now and then look like an access code
    // within the threshold near the end, and GNU Radio's parser never finishes a stream that
    // ends inside a header (its loop reads past the input).
    let noise = |n: usize| vec![0u8; n];
    formats()
        .into_iter()
        .filter(|(_, _, format)| {
            !matches!(format, HeaderFormat::Crc { .. } | HeaderFormat::Ofdm(_))
        })
        .map(|(name, make, format)| {
            let mut bits = Vec::new();
            for (i, len) in [3usize, 300, 4000, 0, 77].into_iter().enumerate() {
                bits.extend(noise(40 + 13 * i));
                let mut h = bits_of(&format.format(len, i as u64), false);
                match i {
                    // One bit of the access code wrong, then four (beyond every threshold).
                    1 => h[2] ^= 1,
                    2 => {
                        for k in [0, 5, 9, 13] {
                            h[k] ^= 1;
                        }
                    }
                    // The two lengths (or the counter's) differ.
                    3 => {
                        let at = h.len() - 1;
                        h[at] ^= 1;
                    }
                    _ => {}
                }
                bits.extend(h);
            }
            (
                format!("parser_{name}"),
                format!("digital.protocol_parser_b({make})"),
                format,
                bits,
            )
        })
        .collect()
}

fn ours_parse(format: &HeaderFormat, bits: &[u8], s: &dyn Scheduler) -> Vec<Pmt> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bits.to_vec()));
    let p = fg.add(ProtocolParser::new(format.clone()));
    let dbg = fg.add(MessageDebug::new());
    fg.connect(src, p).unwrap();
    fg.connect_message((p, "info"), (dbg, "store")).unwrap();
    fg.run_with(s).unwrap();
    fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec()
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

/// A stream case: GNU Radio's constructor and ours, the bytes in and their tags.
struct StreamCase {
    name: String,
    make: String,
    ours: Box<dyn Fn() -> Box<dyn Block>>,
    items: Vec<u8>,
    tags: Vec<Tag>,
}

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
        cases.push(StreamCase {
            name: format!("add_{packed}"),
            make: format!("digital.crc32_bb(False, 'packet_len', {})", py_bool(packed)),
            ours: Box::new(move || Box::new(Crc32Stream::new(false, "packet_len", packed))),
            items,
            tags,
        });
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
        cases.push(StreamCase {
            name: format!("check_{packed}"),
            make: format!("digital.crc32_bb(True, 'packet_len', {})", py_bool(packed)),
            ours: Box::new(move || Box::new(Crc32Stream::new(true, "packet_len", packed))),
            items,
            tags,
        });
    }
    for (header_len, bits_per_byte) in [(40usize, 1usize), (24, 2)] {
        // A packet of 5000 items (a length past 12 bits), then packets of 3, 0 and 1 items,
        // more than 4096 (numbers past 12 bits); a tag GNU Radio does not pass.
        let mut tags = Vec::new();
        let mut at = 0;
        let lengths = [3usize, 0, 1].into_iter().cycle().take(4101);
        for len in std::iter::once(5000).chain(lengths) {
            tags.push(Tag::new(at, "packet_len", len as i64));
            if at == 0 {
                tags.push(Tag::new(at, "other", 1i64));
            }
            at += len as u64;
        }
        let default = format!(
            "digital.packet_header_default({header_len}, 'packet_len', 'num', {bits_per_byte})"
        );
        cases.push(StreamCase {
            name: format!("headergenerator_{header_len}_{bits_per_byte}"),
            make: format!("digital.packet_headergenerator_bb({default}, 'packet_len')"),
            ours: Box::new(move || {
                Box::new(
                    PacketHeaderGenerator::new(header_len, "packet_len", bits_per_byte).unwrap(),
                )
            }),
            items: vec![9; at as usize],
            tags,
        });
    }
    for (name, make, format) in formats() {
        // Packets of 3, 0 and 300 items, with tags GNU Radio does not pass. (GNU Radio's
        // tagged stream blocks never finish a stream that ends inside a packet.)
        let mut tags = Vec::new();
        let mut at = 0;
        for len in [3usize, 0, 300] {
            tags.push(Tag::new(at, "packet_len", len as i64));
            tags.push(Tag::new(at, "other", 1i64));
            at += len as u64;
        }
        cases.push(StreamCase {
            name: format!("formatter_bb_{name}"),
            make: format!("digital.protocol_formatter_bb({make}, 'packet_len')"),
            ours: Box::new(move || Box::new(ProtocolFormatter::new(format.clone(), "packet_len"))),
            items: vec![9; at as usize],
            tags,
        });
    }
    cases
}

fn ours_stream(case: &StreamCase, s: &dyn Scheduler) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(case.items.clone()).tags(case.tags.clone()));
    let b = fg.add_boxed(None, (case.ours)());
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
    let mut pdu_cases = pdu_cases();
    pdu_cases.extend(formatter_cases());
    let parse_cases = parse_cases();
    let stream_cases = stream_cases();
    let hexes = |v: &[Pmt]| v.iter().map(|p| hex(&p.to_bytes())).collect::<Vec<_>>();
    let job = json!({
        "pdu": pdu_cases.iter().map(|c| json!({
            "name": c.name, "make": c.make, "ports": c.ports, "pdus": hexes(&c.pdus),
        })).collect::<Vec<_>>(),
        "stream": stream_cases.iter().map(|c| json!({
            "name": c.name, "make": c.make, "items": hex(&c.items),
            "tags": c.tags.iter().map(|t| json!([t.offset, t.key.to_string(), hex(&t.value.to_bytes())])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let job = {
        let mut job = job;
        job["parse"] = parse_cases
            .iter()
            .map(|(name, make, _, bits)| json!({"name": name, "make": make, "bits": hex(bits)}))
            .collect();
        job
    };
    let demux_cases = demux_cases::demux_cases();
    let job = {
        let mut job = job;
        job["demux"] = demux_cases.iter().map(|c| c.job()).collect();
        job
    };
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
        for (name, _, format, bits) in &parse_cases {
            // GNU Radio also sends #f after each work call that found no header (a count
            // that depends on its scheduler): the headers are compared.
            let keep = |m: &Pmt| *m != Pmt::Bool(false);
            let theirs: Vec<Pmt> = gr[name]
                .as_array()
                .unwrap()
                .iter()
                .map(pmt_of)
                .filter(keep)
                .collect();
            let ours: Vec<Pmt> = ours_parse(format, bits, s.as_ref())
                .into_iter()
                .filter(keep)
                .collect();
            assert!(theirs.len() >= 2, "{name}: GNU Radio found {theirs:?}");
            assert_eq!(ours, theirs, "{name}, {sched}");
        }
        for case in &demux_cases {
            let ours = case.ours(s.as_ref());
            for ((items, tags), port) in ours.into_iter().zip(["hdr", "payload"]) {
                let g = &gr[&case.name][port];
                let gr_tags = demux_cases::sorted(
                    g["tags"]
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
                        .collect(),
                );
                assert!(!items.is_empty(), "{} {port}: nothing out", case.name);
                assert_eq!(
                    Value::from(items),
                    g["items"],
                    "{} {port} items, {sched}",
                    case.name
                );
                assert_eq!(tags, gr_tags, "{} {port} tags, {sched}", case.name);
            }
        }
        for case in &stream_cases {
            let (items, tags) = ours_stream(case, s.as_ref());
            let g = &gr[&case.name];
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
                case.name
            );
            assert_eq!(tags, gr_tags, "{} tags, {sched}", case.name);
            assert!(!items.is_empty(), "{}: nothing out", case.name);
            if case.name.starts_with("check_") {
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
