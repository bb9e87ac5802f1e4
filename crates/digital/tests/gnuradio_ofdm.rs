//! The OFDM blocks against GNU Radio 3.10's on the same input, run by `gnuradio/ofdm.py` in
//! one GNU Radio process; ours under every scheduler. SKIPPED where GNU Radio is not
//! installed.
//! - ofdm_cyclic_prefixer: one prefix length and a list in turn, with and without
//!   raised-cosine flanks, framed by length tags (a frame cut by the end of the stream) or
//!   not: the samples and the length tags equal, and the other tags where GNU Radio puts
//!   them once (see the block's docs).
//! - ofdm_carrier_allocator_cvc: occupied carriers in turn (below DC too), pilots in turn
//!   (sets of carriers and of values of different counts, a pilot over data), sync words,
//!   shifted or not, several frames (one cut by the end): the vectors and all tags equal.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::{OfdmCarrierAllocator, OfdmCyclicPrefixer};
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
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
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(
            FlowScheduler::new()
                .workers(2)
                .chunk_bytes(64)
                .buffer_bytes(4096),
        ),
    ]
}

type Tags = Vec<(u64, String, i64)>;

struct Case {
    name: &'static str,
    make: &'static str,
    vlen: usize,
    out_vlen: usize,
    symbols: usize,
    tags: Vec<(u64, &'static str, i64)>,
    ours: fn() -> Box<dyn Block>,
}

fn data(c: &Case) -> Vec<Complex32> {
    (0..c.symbols * c.vlen)
        .map(|k| Complex32::new((k % 13) as f32 - 6.0, ((k * 7) % 11) as f32 * 0.5))
        .collect()
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "cp_uniform",
            make: "digital.ofdm_cyclic_prefixer(8, 8 + 2, 0, '')",
            vlen: 8,
            out_vlen: 1,
            symbols: 5,
            tags: vec![(1, "x", 1), (4, "y", 2)],
            ours: || Box::new(OfdmCyclicPrefixer::new(8, &[2], 0, "").unwrap()),
        },
        Case {
            name: "cp_rolloff",
            make: "digital.ofdm_cyclic_prefixer(8, 8 + 4, 3, '')",
            vlen: 8,
            out_vlen: 1,
            symbols: 6,
            tags: vec![],
            ours: || Box::new(OfdmCyclicPrefixer::new(8, &[4], 3, "").unwrap()),
        },
        Case {
            name: "cp_frames_rolloff",
            make: "digital.ofdm_cyclic_prefixer(8, 8 + 4, 3, 'frame_len')",
            vlen: 8,
            out_vlen: 1,
            symbols: 7,
            // The last frame (3 symbols from 5) is cut by the end.
            tags: vec![
                (0, "frame_len", 2),
                (1, "x", 5),
                (2, "frame_len", 3),
                (5, "frame_len", 3),
            ],
            ours: || Box::new(OfdmCyclicPrefixer::new(8, &[4], 3, "frame_len").unwrap()),
        },
        Case {
            name: "cp_list_frames",
            make: "digital.ofdm_cyclic_prefixer(8, [4, 3, 3], 2, 'len')",
            vlen: 8,
            out_vlen: 1,
            symbols: 6,
            tags: vec![(0, "len", 4), (4, "len", 2)],
            ours: || Box::new(OfdmCyclicPrefixer::new(8, &[4, 3, 3], 2, "len").unwrap()),
        },
        Case {
            name: "allocator_pilots_shifted",
            make: "digital.ofdm_carrier_allocator_cvc(8, ((1, 2, 3), (1, 2, -1)), ((-2,), (-3,), (3,)), ((100,), (200j,)), (), 'len', True)",
            vlen: 1,
            out_vlen: 8,
            symbols: 20,
            tags: vec![
                (0, "len", 7),
                (0, "y", 2),
                (4, "x", 1),
                (7, "len", 9),
                (8, "z", 3),
                (15, "w", 4),
                (16, "len", 5),
            ],
            ours: || {
                let c = |re: f32, im: f32| Complex32::new(re, im);
                Box::new(
                    OfdmCarrierAllocator::new(
                        8,
                        &[vec![1, 2, 3], vec![1, 2, -1]],
                        &[vec![-2], vec![-3], vec![3]],
                        &[vec![c(100.0, 0.0)], vec![c(0.0, 200.0)]],
                        &[],
                        "len",
                        true,
                    )
                    .unwrap(),
                )
            },
        },
        Case {
            name: "allocator_sync_words",
            make: "digital.ofdm_carrier_allocator_cvc(4, ((1, -1), (2,)), ((),), ((),), ((1, 1j, -1, -1j), (0.5,) * 4), 'packet_len', False)",
            vlen: 1,
            out_vlen: 4,
            symbols: 12,
            tags: vec![
                (0, "packet_len", 5),
                (0, "a", 1),
                (2, "b", 2),
                (4, "c", 3),
                (5, "packet_len", 7),
                (11, "d", 4),
            ],
            ours: || {
                let c = |re: f32, im: f32| Complex32::new(re, im);
                Box::new(
                    OfdmCarrierAllocator::new(
                        4,
                        &[vec![1, -1], vec![2]],
                        &[vec![]],
                        &[vec![]],
                        &[
                            vec![c(1.0, 0.0), c(0.0, 1.0), c(-1.0, 0.0), c(0.0, -1.0)],
                            vec![c(0.5, 0.0); 4],
                        ],
                        "packet_len",
                        false,
                    )
                    .unwrap(),
                )
            },
        },
    ]
}

fn run_ours(c: &Case, s: &dyn Scheduler) -> (Vec<Complex32>, Tags) {
    let tags = c.tags.iter().map(|&(o, k, v)| Tag::new(o, k, v)).collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(
        VectorSource::new(data(c))
            .with_vlen(c.vlen)
            .unwrap()
            .tags(tags),
    );
    let block = fg.add_boxed(None, (c.ours)());
    let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(c.out_vlen));
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

#[test]
fn ofdm_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.digital)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-digital-ofdm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    let job = json!({
        "out": dir,
        "cases": cases.iter().map(|c| json!({
            "name": c.name,
            "make": c.make,
            "vlen": c.vlen,
            "out_vlen": c.out_vlen,
            "data": data(c).iter().flat_map(|z| [z.re, z.im]).collect::<Vec<_>>(),
            "tags": c.tags.iter().map(|&(o, k, v)| json!([o, k, v])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/ofdm.py");
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
    for c in &cases {
        let base = dir.join(c.name);
        let bytes = std::fs::read(base.with_extension("bin")).unwrap();
        let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
        let want: Vec<Complex32> = bytes
            .chunks(8)
            .map(|p| Complex32::new(f(&p[..4]), f(&p[4..])))
            .collect();
        let want_tags: Value = serde_json::from_str(
            &std::fs::read_to_string(base.with_extension("tags.json")).unwrap(),
        )
        .unwrap();
        let want_tags: Tags = want_tags
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
        for s in schedulers() {
            let (got, mut tags) = run_ours(c, &*s);
            assert_eq!(got.len(), want.len(), "{} on {}: length", c.name, s.name());
            for (k, (a, b)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (a - b).norm() <= 1e-5 * (1.0 + b.norm()),
                    "{} on {}: sample {k}: {a} vs GNU Radio's {b}",
                    c.name,
                    s.name()
                );
            }
            // GNU Radio without frames puts every tag twice (see the block's docs).
            let mut want_tags = want_tags.clone();
            want_tags.dedup();
            tags.sort();
            want_tags.sort();
            assert_eq!(tags, want_tags, "{} on {}: tags", c.name, s.name());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
