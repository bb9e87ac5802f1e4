//! gr-dtv's ATSC receiver blocks from the deinterleaver on (atsc_deinterleaver,
//! atsc_rs_decoder, atsc_derandomizer, atsc_depad) against GNU Radio 3.10's on the same
//! input, run by `gnuradio/atsc_rx.py` in one GNU Radio process: the chain cut after each
//! block, data and pipeline information compared byte for byte; ours under every scheduler.
//! The input: our transmitter's interleaved codewords (its stages equal GNU Radio's, see
//! `gnuradio.rs`) of 700 packets, with two bursts of byte errors: one the code corrects (5
//! bytes a codeword after deinterleaving), one it cannot (12 a codeword: transport error
//! flags and indicators). Tags on both inputs, compared on every output. Then the round trip: the transport stream comes back 52 packets
//! late, but for the packets flagged. SKIPPED where GNU Radio is not installed.

use radioflow_atsc::{
    AtscDeinterleaver, AtscDepad, AtscDerandomizer, AtscInterleaver, AtscPad, AtscRandomizer,
    AtscRsDecoder, AtscRsEncoder,
};
use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_runtime::{
    Block, BlockId, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";
const PACKETS: usize = 700;

/// Tags on the codewords and on their pipeline information.
const TAGS: [(u64, &str, i64); 2] = [(0, "a", 1), (100, "b", 2)];
const PLINFO_TAGS: [(u64, &str, i64); 2] = [(50, "c", 3), (699, "d", 4)];

type Tags = Vec<(u64, String, i64)>;

fn tag_list(tags: &[Tag]) -> Tags {
    let mut l: Tags = tags
        .iter()
        .map(|t| {
            let Pmt::Int(v) = t.value else {
                panic!("tag value {:?}", t.value)
            };
            (t.offset, t.key.to_string(), v)
        })
        .collect();
    l.sort();
    l
}

/// GNU Radio's tags, from the script's JSON (none where the file is absent).
fn read_tags(path: &std::path::Path) -> Tags {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let v: Value = serde_json::from_str(&text).unwrap();
    let mut l: Tags = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t[0].as_u64().unwrap(),
                t[1].as_str().unwrap().to_owned(),
                t[2].as_i64().unwrap(),
            )
        })
        .collect();
    l.sort();
    l
}

fn tags(list: &[(u64, &str, i64)]) -> Vec<Tag> {
    list.iter().map(|&(o, k, v)| Tag::new(o, k, v)).collect()
}

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.dtv"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(
            FlowScheduler::new()
                .workers(2)
                .chunk_bytes(4096)
                .buffer_bytes(1 << 16),
        ),
    ]
}

fn transport_stream() -> Vec<u8> {
    let mut ts = Vec::new();
    for p in 0..PACKETS {
        ts.push(0x47);
        ts.extend((0..187usize).map(|k| ((k * 7919 + p * 104_729) ^ (k >> 3)) as u8));
        // No transport error indicated (the derandomizer writes that bit).
        let at = ts.len() - 187;
        ts[at] &= 0x7f;
    }
    ts
}

/// Our transmitter to the interleaver: the codewords (207 bytes each) and their pipeline
/// information (pairs of shorts), with the error bursts.
fn codewords(ts: &[u8]) -> (Vec<u8>, Vec<i16>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ts.to_vec()));
    let blocks: [Box<dyn Block>; 4] = [
        Box::new(AtscPad::new()),
        Box::new(AtscRandomizer::new()),
        Box::new(AtscRsEncoder::new()),
        Box::new(AtscInterleaver::new()),
    ];
    let mut last = src;
    for b in blocks {
        let id = fg.add_boxed(None, b);
        fg.connect(last, id).unwrap();
        last = id;
    }
    let sink = fg.add(VectorSink::<u8>::new().with_vlen(256));
    fg.connect(last, sink).unwrap();
    fg.run().unwrap();
    let items = fg.block::<VectorSink<u8>>(sink).unwrap().data().to_vec();
    let mut data = Vec::new();
    let mut plinfo = Vec::new();
    for item in items.chunks(256) {
        plinfo.push(i16::from_le_bytes([item[0], item[1]]));
        plinfo.push(i16::from_le_bytes([item[2], item[3]]));
        data.extend_from_slice(&item[4..211]);
    }
    // 52 · 5 bytes wrong in a row: 5 in each of 52 codewords after deinterleaving.
    for b in &mut data[150 * 207..150 * 207 + 52 * 5] {
        *b ^= 0x5a;
    }
    // 52 · 12: 12 in each, more than the 10 the code corrects.
    for b in &mut data[400 * 207..400 * 207 + 52 * 12] {
        *b ^= 0xa5;
    }
    (data, plinfo)
}

/// What a stage wrote: data, pipeline information (empty where it has none), the tags on each.
struct Out {
    data: Vec<u8>,
    plinfo: Vec<i16>,
    tags: Tags,
    plinfo_tags: Tags,
}

/// Our receiver's first `stages` blocks on the codewords.
fn run_ours(stages: usize, data: &[u8], plinfo: &[i16], s: &dyn Scheduler) -> Out {
    let mut fg = Flowgraph::new();
    let src = fg.add(
        VectorSource::new(data.to_vec())
            .with_vlen(207)
            .unwrap()
            .tags(tags(&TAGS)),
    );
    let psrc = fg.add(
        VectorSource::new(plinfo.to_vec())
            .with_vlen(2)
            .unwrap()
            .tags(tags(&PLINFO_TAGS)),
    );
    let mut last: (BlockId, &str) = (src, "out");
    let mut plast: (BlockId, &str) = (psrc, "out");
    let blocks: [Box<dyn Block>; 4] = [
        Box::new(AtscDeinterleaver::new()),
        Box::new(AtscRsDecoder::new()),
        Box::new(AtscDerandomizer::new()),
        Box::new(AtscDepad::new()),
    ];
    let vlen = [207, 188, 188, 1][stages - 1];
    for (k, b) in blocks.into_iter().take(stages).enumerate() {
        let id = fg.add_boxed(None, b);
        fg.connect(last, (id, "in")).unwrap();
        if k < 3 {
            fg.connect(plast, (id, "plinfo_in")).unwrap();
        }
        last = (id, "out");
        plast = (id, "plinfo_out");
    }
    let sink = fg.add(VectorSink::<u8>::new().with_vlen(vlen));
    fg.connect(last, sink).unwrap();
    let psink = (stages <= 2).then(|| {
        let p = fg.add(VectorSink::<i16>::new().with_vlen(2));
        fg.connect(plast, p).unwrap();
        p
    });
    fg.run_with(s).unwrap();
    let out = fg.block::<VectorSink<u8>>(sink).unwrap();
    let pout = psink.map(|p| fg.block::<VectorSink<i16>>(p).unwrap());
    Out {
        data: out.data().to_vec(),
        tags: tag_list(out.tags()),
        plinfo: pout.map(|p| p.data().to_vec()).unwrap_or_default(),
        plinfo_tags: pout.map(|p| tag_list(p.tags())).unwrap_or_default(),
    }
}

#[test]
fn each_stage_of_the_receiver_equals_gnu_radio_s_and_the_stream_comes_back() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    let ts = transport_stream();
    let (data, plinfo) = codewords(&ts);
    let dir = std::env::temp_dir().join(format!("radioflow-atsc-rx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("codewords.bin"), &data).unwrap();
    let pbytes: Vec<u8> = plinfo.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::write(dir.join("plinfo.bin"), &pbytes).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/atsc_rx.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            json!({
                "out": dir,
                "tags": TAGS.iter().map(|&(o, k, v)| json!([o, k, v])).collect::<Vec<_>>(),
                "plinfo_tags": PLINFO_TAGS
                    .iter()
                    .map(|&(o, k, v)| json!([o, k, v]))
                    .collect::<Vec<_>>(),
            })
            .to_string()
            .as_bytes(),
        )
        .unwrap();
    assert!(child.wait().unwrap().success(), "GNU Radio's script failed");
    let names = [
        "atsc_deinterleaver",
        "atsc_rs_decoder",
        "atsc_derandomizer",
        "atsc_depad",
    ];
    let mut last = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let want = std::fs::read(dir.join(format!("stage{}.bin", k + 1))).unwrap();
        assert!(!want.is_empty(), "{name}: GNU Radio made nothing");
        let want_pl: Vec<i16> = std::fs::read(dir.join(format!("stage{}.plinfo.bin", k + 1)))
            .map(|b| {
                b.chunks(2)
                    .map(|c| i16::from_le_bytes([c[0], c[1]]))
                    .collect()
            })
            .unwrap_or_default();
        let want_tags = read_tags(&dir.join(format!("stage{}.tags.json", k + 1)));
        let want_pl_tags = read_tags(&dir.join(format!("stage{}.plinfo.tags.json", k + 1)));
        for s in schedulers() {
            let out = run_ours(k + 1, &data, &plinfo, &*s);
            let (got, got_pl) = (out.data, out.plinfo);
            assert_eq!(got.len(), want.len(), "after {name} on {}: bytes", s.name());
            if let Some(b) = (0..got.len()).find(|&b| got[b] != want[b]) {
                panic!(
                    "after {name} on {}: byte {b}: {} vs GNU Radio's {}",
                    s.name(),
                    got[b],
                    want[b]
                );
            }
            assert_eq!(got_pl, want_pl, "after {name} on {}: plinfo", s.name());
            assert_eq!(out.tags, want_tags, "after {name} on {}: tags", s.name());
            assert_eq!(
                out.plinfo_tags,
                want_pl_tags,
                "after {name} on {}: plinfo tags",
                s.name()
            );
            last = got;
        }
    }
    // The round trip: packet p comes out as packet p + 52, but where RS gave up.
    let flags = run_ours(2, &data, &plinfo, &SingleThread::new()).plinfo;
    let (mut back, mut lost) = (0, 0);
    for p in 52..PACKETS {
        let failed = flags[2 * p] as u16 & 0x20 != 0;
        let out = &last[p * 188..(p + 1) * 188];
        let sent = &ts[(p - 52) * 188..(p - 51) * 188];
        if failed {
            assert_eq!(out[1] & 0x80, 0x80, "packet {p}: transport error indicator");
            lost += 1;
        } else {
            assert_eq!(out, sent, "packet {p}");
            back += 1;
        }
    }
    assert!(
        lost >= 40 && back >= PACKETS - 52 - 60,
        "{back} back, {lost} lost"
    );
    std::fs::remove_dir_all(&dir).ok();
}
