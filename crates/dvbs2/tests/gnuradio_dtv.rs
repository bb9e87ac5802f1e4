//! gr-dtv's DVB-S2/T2 transmitter blocks against radioflow's, block by block, on the same
//! input, run by `gnuradio/dtv.py` in one GNU Radio process; ours under every scheduler.
//! SKIPPED where GNU Radio is not installed. Every output item must be equal, bit for bit
//! (complex samples by their f32 bit patterns), and the tags too: three in the first frame of
//! every case (where GNU Radio puts them deterministically: at their offsets, written in its
//! first call), and for the blocks that make one item per item one in a later frame.
//! - dvb_bbheader: DVB-S2 normal and short, roll-offs of DVB-S2 and DVB-S2X (the alternating
//!   `11`), DVB-T2 normal and high efficiency modes, in-band type B signalling.
//! - dvb_bbscrambler, dvb_bch, dvb_ldpc: every code rate of both frame sizes (DVB-S2), DVB-T2
//!   codes (those shared with DVB-S2 and its own normal 2/3 and short 3/5).
//! - dvbs2_interleaver, dvbs2_modulator: every MODCOD of both frame sizes (the mapper with 2X
//!   interpolation on every other one), labels above the constellation's size masked.
//! - dvbs2_physical: every constellation, pilots on and off, Gold codes 0 and 131 071.
//! - dvbt2_interleaver: every constellation and demultiplexing table, both frame sizes;
//!   dvbt2_modulator: every constellation, rotated (cyclic Q delay) or not.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_dvbs2::{FrameSize, Modcod};
use radioflow_runtime::registry;
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::io::Write;
use std::path::Path;
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

#[derive(Clone)]
enum Items {
    Bytes(Vec<u8>),
    Complex(Vec<Complex32>),
}

impl Items {
    fn code(&self) -> &'static str {
        match self {
            Items::Bytes(_) => "b",
            Items::Complex(_) => "c",
        }
    }

    fn to_file(&self, path: &Path) {
        let bytes: Vec<u8> = match self {
            Items::Bytes(b) => b.clone(),
            Items::Complex(c) => c
                .iter()
                .flat_map(|z| [z.re.to_le_bytes(), z.im.to_le_bytes()].concat())
                .collect(),
        };
        std::fs::write(path, bytes).unwrap();
    }
}

/// One block on one input: GNU Radio's constructor and radioflow's registry id and
/// parameters (so the blocks are made as a graph file makes them).
struct Case {
    name: String,
    make: String,
    block: &'static str,
    params: Vec<(&'static str, Pmt)>,
    input: Items,
    complex_out: bool,
    /// Offsets of the input's tags (key `t`, value their index).
    tags: Vec<u64>,
}

/// Tags in the first frame of every input.
const FIRST_FRAME_TAGS: [u64; 3] = [0, 5, 100];

fn sym(s: &str) -> Pmt {
    Pmt::symbol(s)
}

fn ts(rng: &mut impl Rng, bytes: usize) -> Vec<u8> {
    (0..bytes)
        .map(|i| {
            if i.is_multiple_of(188) {
                0x47
            } else {
                rng.r#gen()
            }
        })
        .collect()
}

fn bits(rng: &mut impl Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.gen_range(0..2)).collect()
}

const RATES: [(&str, &str); 11] = [
    ("C1_4", "1/4"),
    ("C1_3", "1/3"),
    ("C2_5", "2/5"),
    ("C1_2", "1/2"),
    ("C3_5", "3/5"),
    ("C2_3", "2/3"),
    ("C3_4", "3/4"),
    ("C4_5", "4/5"),
    ("C5_6", "5/6"),
    ("C8_9", "8/9"),
    ("C9_10", "9/10"),
];

fn gr_rate(rate: &str) -> &'static str {
    RATES.iter().find(|(_, r)| *r == rate).unwrap().0
}

fn gr_frame(frame: &str) -> &'static str {
    if frame == "normal" {
        "FECFRAME_NORMAL"
    } else {
        "FECFRAME_SHORT"
    }
}

/// (Kbch, Nbch, Nldpc) of a DVB-S2 code.
fn sizes(frame: &str, rate: &str) -> (usize, usize, usize) {
    let f: FrameSize = frame.parse().unwrap();
    let fec = Modcod::all()
        .find(|m| m.rate().to_string() == rate)
        .unwrap()
        .fec(f)
        .unwrap();
    (fec.kbch, fec.nbch, fec.nldpc)
}

fn cases() -> Vec<Case> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(302_307);
    let mut cases = Vec::new();
    // Mode adaptation: (standard, frame, rate, roll-off, mode, in-band, frames).
    let headers = [
        (
            "dvb-s2", "normal", "9/10", "RO_0_20", "0.20", false, false, 3,
        ),
        ("dvb-s2", "short", "1/4", "RO_0_15", "0.15", false, false, 5),
        ("dvb-s2", "short", "8/9", "RO_0_05", "0.05", false, false, 4),
        (
            "dvb-s2", "normal", "1/2", "RO_0_35", "0.35", false, false, 2,
        ),
        ("dvb-t2", "normal", "3/5", "RO_0_35", "0.35", true, false, 3),
        ("dvb-t2", "short", "1/3", "RO_0_25", "0.25", false, true, 5),
        ("dvb-t2", "normal", "5/6", "RO_0_35", "0.35", true, true, 4),
    ];
    for (k, &(standard, frame, rate, gr_ro, ro, hem, inband, frames)) in headers.iter().enumerate()
    {
        let (kbch, _, _) = sizes(frame, rate);
        let gr_std = if standard == "dvb-s2" {
            "STANDARD_DVBS2"
        } else {
            "STANDARD_DVBT2"
        };
        let mode = if hem {
            "INPUTMODE_HIEFF"
        } else {
            "INPUTMODE_NORMAL"
        };
        let band = if inband { "INBAND_ON" } else { "INBAND_OFF" };
        // Enough for `frames` frames and part of one more (not written by either).
        let input = ts(&mut rng, (frames * kbch / 8) + 100);
        cases.push(Case {
            name: format!("bbheader{k}"),
            make: format!(
                "dtv.dvb_bbheader_bb(dtv.{gr_std}, dtv.{}, dtv.{}, dtv.{gr_ro}, dtv.{mode}, \
                 dtv.{band}, 2, 12345678)",
                gr_frame(frame),
                gr_rate(rate)
            ),
            block: "dvb_bbheader",
            params: vec![
                ("standard", sym(standard)),
                ("frame", sym(frame)),
                ("rate", sym(rate)),
                ("rolloff", sym(ro)),
                ("high_efficiency", Pmt::Bool(hem)),
                ("inband", Pmt::Bool(inband)),
                ("fecblocks", Pmt::Int(2)),
                ("tsrate", Pmt::Int(12_345_678)),
            ],
            input: Items::Bytes(input),
            complex_out: false,
            tags: FIRST_FRAME_TAGS.to_vec(),
        });
    }
    // The FEC blocks: every DVB-S2 code, and DVB-T2 codes it shares.
    let mut codes: Vec<(&str, &str, &str)> = Vec::new();
    for frame in ["normal", "short"] {
        for (_, rate) in RATES {
            if !(frame == "short" && rate == "9/10") {
                codes.push(("dvb-s2", frame, rate));
            }
        }
    }
    codes.extend([
        ("dvb-t2", "normal", "3/5"),
        ("dvb-t2", "normal", "2/3"),
        ("dvb-t2", "short", "2/5"),
        ("dvb-t2", "short", "3/5"),
        ("dvb-t2", "short", "5/6"),
    ]);
    for (k, &(standard, frame, rate)) in codes.iter().enumerate() {
        let (kbch, nbch, _) = sizes(frame, rate);
        let gr_std = if standard == "dvb-s2" {
            "STANDARD_DVBS2"
        } else {
            "STANDARD_DVBT2"
        };
        let args = format!(
            "dtv.{gr_std}, dtv.{}, dtv.{}",
            gr_frame(frame),
            gr_rate(rate)
        );
        let params = || {
            vec![
                ("standard", sym(standard)),
                ("frame", sym(frame)),
                ("rate", sym(rate)),
            ]
        };
        // Two frames and a part: the part is not written.
        if k % 4 == 0 {
            cases.push(Case {
                name: format!("bbscrambler{k}"),
                make: format!("dtv.dvb_bbscrambler_bb({args})"),
                block: "dvb_bbscrambler",
                params: params(),
                input: Items::Bytes(bits(&mut rng, 2 * kbch + 7)),
                complex_out: false,
                // One item per item: a tag in the second frame lands on its item too.
                tags: vec![0, 5, 100, kbch as u64 + 7],
            });
        }
        cases.push(Case {
            name: format!("bch{k}"),
            make: format!("dtv.dvb_bch_bb({args})"),
            block: "dvb_bch",
            params: params(),
            input: Items::Bytes(bits(&mut rng, 2 * kbch + 7)),
            complex_out: false,
            tags: FIRST_FRAME_TAGS.to_vec(),
        });
        cases.push(Case {
            name: format!("ldpc{k}"),
            make: format!("dtv.dvb_ldpc_bb({args}, dtv.MOD_OTHER)"),
            block: "dvb_ldpc",
            params: params(),
            input: Items::Bytes(bits(&mut rng, 2 * nbch + 7)),
            complex_out: false,
            tags: FIRST_FRAME_TAGS.to_vec(),
        });
    }
    // Interleaver and mapper: every MODCOD of both frame sizes.
    let mut k = 0;
    for m in Modcod::all() {
        for frame in ["normal", "short"] {
            let rate = m.rate().to_string();
            if frame == "short" && rate == "9/10" {
                continue;
            }
            let c = m.to_string();
            let c = c.split('-').next().unwrap().to_owned();
            let gr_c = format!("MOD_{}", c.to_uppercase());
            let (_, _, nldpc) = sizes(frame, &rate);
            let args = format!(
                "dtv.{}, dtv.{}, dtv.{gr_c}",
                gr_frame(frame),
                gr_rate(&rate)
            );
            let s2 = || {
                vec![
                    ("frame", sym(frame)),
                    ("rate", sym(&rate)),
                    ("constellation", sym(&c)),
                ]
            };
            cases.push(Case {
                name: format!("interleaver{k}"),
                make: format!("dtv.dvbs2_interleaver_bb({args})"),
                block: "dvbs2_interleaver",
                params: s2(),
                input: Items::Bytes(bits(&mut rng, nldpc + 100)),
                complex_out: false,
                tags: FIRST_FRAME_TAGS.to_vec(),
            });
            let interpolation = k % 2 == 1;
            let gr_i = if interpolation {
                "INTERPOLATION_ON"
            } else {
                "INTERPOLATION_OFF"
            };
            let mut params = s2();
            params.push(("interpolation", Pmt::Bool(interpolation)));
            cases.push(Case {
                name: format!("modulator{k}"),
                make: format!("dtv.dvbs2_modulator_bc({args}, dtv.{gr_i})"),
                block: "dvbs2_modulator",
                params,
                input: Items::Bytes((0..2000).map(|_| rng.r#gen()).collect()),
                complex_out: true,
                // Without interpolation one item per item: later tags land on their items.
                tags: if interpolation {
                    FIRST_FRAME_TAGS.to_vec()
                } else {
                    vec![0, 5, 100, 1500, 1999]
                },
            });
            k += 1;
        }
    }
    // DVB-T2's interleaver: every constellation with every rate whose demultiplexing differs,
    // both frame sizes; its mapper: every constellation, rotated or not.
    let t2 = [
        ("qpsk", "normal", "1/2"),
        ("qpsk", "short", "1/3"),
        ("qpsk", "short", "2/5"),
        ("16qam", "normal", "3/5"),
        ("16qam", "normal", "5/6"),
        ("16qam", "short", "1/3"),
        ("16qam", "short", "2/5"),
        ("16qam", "short", "3/4"),
        ("64qam", "normal", "3/5"),
        ("64qam", "normal", "2/3"),
        ("64qam", "short", "1/3"),
        ("64qam", "short", "2/5"),
        ("64qam", "short", "4/5"),
        ("256qam", "normal", "3/5"),
        ("256qam", "normal", "2/3"),
        ("256qam", "normal", "3/4"),
        ("256qam", "short", "1/3"),
        ("256qam", "short", "2/5"),
        ("256qam", "short", "1/2"),
    ];
    for (k, &(c, frame, rate)) in t2.iter().enumerate() {
        let nldpc = frame.parse::<FrameSize>().unwrap().nldpc();
        let bits_per_cell = match c {
            "qpsk" => 2,
            "16qam" => 4,
            "64qam" => 6,
            _ => 8,
        };
        let gr_c = format!("MOD_{}", c.to_uppercase());
        cases.push(Case {
            name: format!("t2interleaver{k}"),
            make: format!(
                "dtv.dvbt2_interleaver_bb(dtv.{}, dtv.{}, dtv.{gr_c})",
                gr_frame(frame),
                gr_rate(rate)
            ),
            block: "dvbt2_interleaver",
            params: vec![
                ("frame", sym(frame)),
                ("rate", sym(rate)),
                ("constellation", sym(c)),
            ],
            input: Items::Bytes(bits(&mut rng, 2 * nldpc + 3)),
            complex_out: false,
            tags: FIRST_FRAME_TAGS.to_vec(),
        });
        let rotation = k % 2 == 0;
        let gr_r = if rotation {
            "ROTATION_ON"
        } else {
            "ROTATION_OFF"
        };
        cases.push(Case {
            name: format!("t2modulator{k}"),
            make: format!(
                "dtv.dvbt2_modulator_bc(dtv.{}, dtv.{gr_c}, dtv.{gr_r})",
                gr_frame(frame)
            ),
            block: "dvbt2_modulator",
            params: vec![
                ("frame", sym(frame)),
                ("constellation", sym(c)),
                ("rotation", Pmt::Bool(rotation)),
            ],
            input: Items::Bytes(
                (0..2 * nldpc / bits_per_cell + 9)
                    .map(|_| rng.r#gen())
                    .collect(),
            ),
            complex_out: true,
            tags: vec![0, 5, 100, (nldpc / bits_per_cell) as u64 + 7],
        });
    }
    // ATSC's 8-VSB levels (gr-dtv's ATSC transmitter): labels with bits above the three read.
    cases.push(Case {
        name: "modulator_8vsb".to_owned(),
        make: "dtv.dvbs2_modulator_bc(dtv.FECFRAME_NORMAL, dtv.C1_4, dtv.MOD_8VSB, \
               dtv.INTERPOLATION_OFF)"
            .to_owned(),
        block: "dvbs2_modulator",
        params: vec![
            ("frame", sym("normal")),
            ("rate", sym("1/4")),
            ("constellation", sym("8vsb")),
            ("interpolation", Pmt::Bool(false)),
        ],
        input: Items::Bytes((0..2000).map(|_| rng.r#gen()).collect()),
        complex_out: true,
        tags: vec![0, 5, 100, 1500, 1999],
    });
    // PL framing: each constellation, pilots on and off, two Gold codes.
    let frames = [
        ("qpsk", "1/4", "normal", true, 0),
        ("qpsk", "8/9", "short", false, 131_071),
        ("8psk", "3/5", "short", true, 131_071),
        ("16apsk", "2/3", "short", false, 0),
        ("32apsk", "9/10", "normal", true, 7),
    ];
    for (k, &(c, rate, frame, pilots, gold)) in frames.iter().enumerate() {
        let m: Modcod = format!("{c}-{rate}").parse().unwrap();
        let (_, _, nldpc) = sizes(frame, rate);
        let nsym = nldpc / m.constellation().bits_per_symbol();
        let points = (0..2 * nsym + 5)
            .map(|_| Complex32::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
            .collect();
        let gr_p = if pilots { "PILOTS_ON" } else { "PILOTS_OFF" };
        cases.push(Case {
            name: format!("physical{k}"),
            make: format!(
                "dtv.dvbs2_physical_cc(dtv.{}, dtv.{}, dtv.MOD_{}, dtv.{gr_p}, {gold})",
                gr_frame(frame),
                gr_rate(rate),
                c.to_uppercase()
            ),
            block: "dvbs2_physical",
            params: vec![
                ("frame", sym(frame)),
                ("rate", sym(rate)),
                ("constellation", sym(c)),
                ("pilots", Pmt::Bool(pilots)),
                ("goldcode", Pmt::Int(gold)),
            ],
            input: Items::Complex(points),
            complex_out: true,
            tags: FIRST_FRAME_TAGS.to_vec(),
        });
    }
    cases
}

fn make(c: &Case) -> Box<dyn Block> {
    let d = registry::find(c.block).unwrap_or_else(|| panic!("no block {}", c.block));
    let given = c.params.iter().map(|(n, v)| ((*n).to_owned(), v.clone()));
    registry::make(d, None, given).unwrap_or_else(|e| panic!("{}: {e}", c.name))
}

type Tags = Vec<(u64, String, i64)>;

fn input_tags(c: &Case) -> Vec<Tag> {
    c.tags
        .iter()
        .enumerate()
        .map(|(k, &o)| Tag::new(o, "t", k as i64))
        .collect()
}

fn tag_list(tags: &[Tag]) -> Tags {
    tags.iter()
        .map(|t| {
            let Pmt::Int(v) = t.value else {
                panic!("tag value {:?}", t.value)
            };
            (t.offset, t.key.to_string(), v)
        })
        .collect()
}

/// Our output as bytes (complex samples as their little-endian f32s), and its tags.
fn run_ours(c: &Case, s: &dyn Scheduler) -> (Vec<u8>, Tags) {
    let mut fg = Flowgraph::new();
    let src = match &c.input {
        Items::Bytes(b) => fg.add(VectorSource::new(b.clone()).tags(input_tags(c))),
        Items::Complex(z) => fg.add(VectorSource::new(z.clone()).tags(input_tags(c))),
    };
    let block = fg.add_boxed(None, make(c));
    fg.connect(src, block).unwrap();
    if c.complex_out {
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(block, sink).unwrap();
        fg.run_with(s).unwrap();
        let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        let data = sink
            .data()
            .iter()
            .flat_map(|z| [z.re.to_le_bytes(), z.im.to_le_bytes()].concat())
            .collect();
        (data, tag_list(sink.tags()))
    } else {
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(block, sink).unwrap();
        fg.run_with(s).unwrap();
        let sink = fg.block::<VectorSink<u8>>(sink).unwrap();
        (sink.data().to_vec(), tag_list(sink.tags()))
    }
}

#[test]
fn gr_dtv_blocks_equal_gnu_radio_s() {
    radioflow_dvbs2::DvbBch::dvbs2(FrameSize::Short, "1/2").unwrap(); // links the registry
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-dvbs2-dtv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    for c in &cases {
        c.input.to_file(&dir.join(format!("{}.in", c.name)));
    }
    let job = json!({
        "cases": cases.iter().map(|c| json!({
            "make": c.make,
            "input": dir.join(format!("{}.in", c.name)),
            "in": c.input.code(),
            "out": if c.complex_out { "c" } else { "b" },
            "output": dir.join(format!("{}.out", c.name)),
            "tags": c.tags.iter().enumerate().map(|(k, &o)| json!([o, "t", k])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/dtv.py");
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
        let want = std::fs::read(dir.join(format!("{}.out", c.name))).unwrap();
        assert!(!want.is_empty(), "{}: GNU Radio wrote nothing", c.name);
        let want_tags: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{}.out.tags.json", c.name))).unwrap(),
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
        assert_eq!(
            want_tags.len(),
            c.tags.len(),
            "{}: GNU Radio's tags",
            c.name
        );
        for s in schedulers() {
            let (got, mut tags) = run_ours(c, &*s);
            tags.sort();
            assert_eq!(
                tags,
                want_tags,
                "{} ({}) on {}: tags",
                c.name,
                c.make,
                s.name()
            );
            assert_eq!(
                got.len(),
                want.len(),
                "{} ({}) on {}: length",
                c.name,
                c.make,
                s.name()
            );
            if let Some(at) = got.iter().zip(&want).position(|(a, b)| a != b) {
                panic!(
                    "{} ({}) on {}: first difference at byte {at} of {}",
                    c.name,
                    c.make,
                    s.name(),
                    want.len()
                );
            }
        }
    }
    println!("{} cases equal GNU Radio's on every scheduler", cases.len());
    std::fs::remove_dir_all(dir).ok();
}

/// A block's parameters by name.
type Params = Vec<(&'static str, Pmt)>;

/// What the standards do not define is refused by name: rates of the other standard, MODCODs
/// outside EN 302 307-1 table 12, Gold codes out of range.
#[test]
fn codes_and_settings_radioflow_lacks_are_refused_by_name() {
    radioflow_dvbs2::DvbBch::dvbs2(FrameSize::Short, "1/2").unwrap(); // links the registry
    let cases: [(&str, Params, &[&str]); 6] = [
        (
            "dvb_ldpc",
            vec![
                ("standard", sym("dvb-t2")),
                ("frame", sym("normal")),
                ("rate", sym("8/9")),
            ],
            &["dvb_ldpc", "8/9", "DVB-T2", "EN 302 755"],
        ),
        (
            "dvb_bbheader",
            vec![
                ("standard", sym("dvb-t2")),
                ("frame", sym("short")),
                ("rate", sym("1/4")),
            ],
            &["dvb_bbheader", "1/4", "DVB-T2"],
        ),
        (
            "dvb_bch",
            vec![
                ("standard", sym("dvb-t2")),
                ("frame", sym("normal")),
                ("rate", sym("1/4")),
            ],
            &["dvb_bch", "1/4", "DVB-T2"],
        ),
        (
            "dvbs2_physical",
            vec![("goldcode", Pmt::Int(262_142))],
            &["dvbs2_physical", "goldcode", "262142"],
        ),
        (
            "dvbs2_interleaver",
            vec![("constellation", sym("16apsk")), ("rate", sym("1/2"))],
            &["dvbs2_interleaver", "16apsk-1/2", "Table 12"],
        ),
        (
            "dvbs2_modulator",
            vec![
                ("constellation", sym("8vsb")),
                ("interpolation", Pmt::Bool(true)),
            ],
            &["dvbs2_modulator", "interpolation", "8vsb"],
        ),
    ];
    for (id, given, words) in cases {
        let d = registry::find(id).unwrap();
        let given = given.into_iter().map(|(k, v)| (k.to_owned(), v));
        let err = registry::make(d, None, given)
            .err()
            .unwrap_or_else(|| panic!("{id}: accepted"))
            .to_string();
        for w in words {
            assert!(err.contains(w), "{id}: {err:?} does not say {w:?}");
        }
    }
}
