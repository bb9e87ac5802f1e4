//! The DVB-T2 OFDM blocks against gr-dtv's (GNU Radio 3.10) on the same input, run by
//! `gnuradio/dvbt2.py` in one GNU Radio process; ours under every scheduler. SKIPPED where
//! GNU Radio is not installed.
//! - dvbt2_cellinterleaver: every frame size and constellation, time interleaving off, one
//!   TI block, several (FEC blocks a multiple of them or not), more TI blocks than FEC
//!   blocks; two interleaving frames and a cut one (no output from it); cells and tags equal,
//!   bit for bit (the block only moves cells).

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_dvbt2::Dvbt2CellInterleaver;
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

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

type Tags = Vec<(u64, String, i64)>;

struct Case {
    name: String,
    make: String,
    /// Input cells.
    len: usize,
    tags: Vec<(u64, &'static str, i64)>,
    ours: Box<dyn Fn() -> Box<dyn Block>>,
}

/// Cells all different, so that a cell out of place shows.
fn data(c: &Case) -> Vec<Complex32> {
    (0..c.len)
        .map(|k| Complex32::new(k as f32, ((k * 7919) % 1013) as f32 - 500.0))
        .collect()
}

fn cell_interleaver_cases() -> Vec<Case> {
    let cells = |frame: &str, c: &str| match (frame, c) {
        ("normal", "qpsk") => 32400,
        ("normal", "16qam") => 16200,
        ("normal", "64qam") => 10800,
        ("normal", "256qam") | ("short", "qpsk") => 8100,
        ("short", "16qam") => 4050,
        ("short", "64qam") => 2700,
        _ => 2025,
    };
    let gr_frame = |f: &str| {
        if f == "normal" {
            "dtv.FECFRAME_NORMAL"
        } else {
            "dtv.FECFRAME_SHORT"
        }
    };
    let gr_mod = |c: &str| match c {
        "qpsk" => "dtv.MOD_QPSK",
        "16qam" => "dtv.MOD_16QAM",
        "64qam" => "dtv.MOD_64QAM",
        _ => "dtv.MOD_256QAM",
    };
    // (frame, constellation, FEC blocks, TI blocks, frames): short frames swept wider, as
    // they cost less.
    let sweep: [(&'static str, &'static str, usize, usize, usize); 10] = [
        ("short", "qpsk", 4, 2, 2),
        ("short", "16qam", 3, 0, 2),
        ("short", "64qam", 5, 2, 2),
        ("short", "256qam", 7, 3, 2),
        ("short", "256qam", 2, 3, 2),
        ("short", "qpsk", 3, 1, 2),
        ("normal", "qpsk", 2, 1, 1),
        ("normal", "16qam", 2, 0, 1),
        ("normal", "64qam", 3, 2, 1),
        ("normal", "256qam", 4, 3, 1),
    ];
    sweep
        .into_iter()
        .map(|(frame, c, fec, ti, frames)| {
            let frame_cells = cells(frame, c) * fec;
            Case {
                name: format!("ci_{frame}_{c}_{fec}_{ti}"),
                make: format!(
                    "dtv.dvbt2_cellinterleaver_cc({}, {}, {fec}, {ti})",
                    gr_frame(frame),
                    gr_mod(c)
                ),
                // And a cut frame, which neither outputs.
                len: frames * frame_cells + frame_cells / 2,
                tags: vec![(0, "a", 1), (17, "b", 2), (frame_cells as u64 + 3, "c", 3)],
                ours: Box::new(move || {
                    Box::new(Dvbt2CellInterleaver::new(frame, c, fec, ti).unwrap())
                }),
            }
        })
        .collect()
}

fn run_ours(c: &Case, s: &dyn Scheduler) -> (Vec<Complex32>, Tags) {
    let tags = c.tags.iter().map(|&(o, k, v)| Tag::new(o, k, v)).collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data(c)).tags(tags));
    let block = fg.add_boxed(None, (c.ours)());
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, block).unwrap();
    fg.connect(block, sink).unwrap();
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    let tags = sink
        .tags()
        .iter()
        .map(|t| {
            let Pmt::Int(v) = t.value else {
                panic!("{}: tag value {:?}", c.name, t.value)
            };
            (t.offset, t.key.to_string(), v)
        })
        .collect();
    (sink.data().to_vec(), tags)
}

/// Runs `cases` in GNU Radio and ours under every scheduler; cells equal bit for bit.
fn equal_gnu_radio_s(label: &str, cases: &[Case]) {
    let dir = std::env::temp_dir().join(format!("radioflow-dvbt2-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let job = json!({
        "out": dir,
        "cases": cases.iter().map(|c| json!({
            "name": c.name,
            "make": c.make,
            "data": data(c).iter().flat_map(|z| [z.re, z.im]).collect::<Vec<_>>(),
            "tags": c.tags.iter().map(|&(o, k, v)| json!([o, k, v])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/dvbt2.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "GNU Radio's script failed");
    for c in cases {
        let base = dir.join(&c.name);
        let bytes = std::fs::read(base.with_extension("bin")).unwrap();
        let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
        let want: Vec<Complex32> = bytes
            .chunks(8)
            .map(|p| Complex32::new(f(&p[..4]), f(&p[4..])))
            .collect();
        assert!(!want.is_empty(), "{}: GNU Radio made nothing", c.name);
        let want_tags: Value = serde_json::from_str(
            &std::fs::read_to_string(base.with_extension("tags.json")).unwrap(),
        )
        .unwrap();
        let mut want_tags: Tags = want_tags
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
        want_tags.sort();
        for s in schedulers() {
            let (got, mut tags) = run_ours(c, &*s);
            assert_eq!(got.len(), want.len(), "{} on {}: length", c.name, s.name());
            if let Some(k) = (0..got.len()).find(|&k| got[k] != want[k]) {
                panic!(
                    "{} on {}: cell {k}: {} vs GNU Radio's {}",
                    c.name,
                    s.name(),
                    got[k],
                    want[k]
                );
            }
            tags.sort();
            assert_eq!(tags, want_tags, "{} on {}: tags", c.name, s.name());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cell_interleaver_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("cellinterleaver", &cell_interleaver_cases());
}
