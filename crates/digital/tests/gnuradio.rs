//! Every block of the crate and every constellation kind against GNU Radio 3.10's own
//! (`digital.constellation_decoder_cb`, `constellation_soft_decoder_cf`,
//! `chunks_to_symbols_*`, `map_bb`, `diff_encoder_bb`/`diff_decoder_bb`, `binary_slicer_fb`,
//! `diff_phasor_cc`, the scramblers) on the same input, run by `gnuradio/run_digital.py` in
//! one GNU Radio process: outputs equal (soft decisions within 1e-4, relative above 1) and
//! tags at the same offsets, with radioflow's blocks run under each scheduler (one small
//! chunk size among them, so that state carries across work calls). SKIPPED where GNU Radio
//! is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::{
    AdditiveScrambler, BinarySlicer, ChunksToSymbols, ChunksToSymbolsInt, ChunksToSymbolsShort,
    Constellation, ConstellationDecoder, ConstellationSoftDecoder, Descrambler, DiffCoding,
    DiffDecoder, DiffEncoder, DiffPhasor, MapBytes, Scrambler,
};
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Item, Pmt, Scheduler, SingleThread, Tag,
    ThreadPerBlock,
};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.digital"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Items of one of GNU Radio's stream types.
#[derive(Clone, Debug, PartialEq)]
enum Items {
    B(Vec<u8>),
    S(Vec<i16>),
    I(Vec<i32>),
    F(Vec<f32>),
    C(Vec<Complex32>),
}

impl Items {
    fn code(&self) -> &'static str {
        match self {
            Items::B(_) => "b",
            Items::S(_) => "s",
            Items::I(_) => "i",
            Items::F(_) => "f",
            Items::C(_) => "c",
        }
    }

    fn bytes(&self) -> Vec<u8> {
        match self {
            Items::B(v) => v.clone(),
            Items::S(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Items::I(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Items::F(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Items::C(v) => v
                .iter()
                .flat_map(|c| c.re.to_le_bytes().into_iter().chain(c.im.to_le_bytes()))
                .collect(),
        }
    }

    fn read(code: &str, bytes: &[u8]) -> Items {
        let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
        match code {
            "b" => Items::B(bytes.to_vec()),
            "f" => Items::F(bytes.chunks_exact(4).map(f).collect()),
            _ => Items::C(
                bytes
                    .chunks_exact(8)
                    .map(|b| Complex32::new(f(&b[..4]), f(&b[4..])))
                    .collect(),
            ),
        }
    }

    /// Real numbers to compare (a complex item as two).
    fn reals(&self) -> Vec<f32> {
        match self {
            Items::B(v) => v.iter().map(|&b| f32::from(b)).collect(),
            Items::S(v) => v.iter().map(|&b| f32::from(b)).collect(),
            Items::I(v) => v.iter().map(|&b| b as f32).collect(),
            Items::F(v) => v.clone(),
            Items::C(v) => v.iter().flat_map(|c| [c.re, c.im]).collect(),
        }
    }
}

type Tags = Vec<(u64, String)>;

/// radioflow's output and tags for `input` (tagged `tags`, value `true`) through `block`,
/// run by `scheduler`.
fn ours<I: Item, O: Item>(
    block: impl Block,
    input: &[I],
    tags: &[(u64, &str)],
    scheduler: &dyn Scheduler,
) -> (Vec<O>, Tags) {
    let mut fg = Flowgraph::new();
    let tags = tags
        .iter()
        .map(|&(o, k)| Tag::new(o, k, Pmt::Bool(true)))
        .collect();
    let src = fg.add(VectorSource::new(input.to_vec()).tags(tags));
    let b = fg.add(block);
    let sink = fg.add(VectorSink::<O>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.run_with(scheduler).unwrap();
    let out = fg.block::<VectorSink<O>>(sink).unwrap();
    let tags = out
        .tags()
        .iter()
        .map(|t| (t.offset, t.key.to_string()))
        .collect();
    (out.data().to_vec(), tags)
}

/// Deterministic numbers in [0, 1) (an LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Samples spread over [-1.5, 1.5]², with the ties the slicers decide by their own rules (on
/// the axes, at 0).
fn samples(n: usize) -> Vec<Complex32> {
    let mut r = Lcg(35);
    let mut v: Vec<Complex32> = (0..n)
        .map(|_| Complex32::new(3.0 * r.next() - 1.5, 3.0 * r.next() - 1.5))
        .collect();
    v.extend([
        Complex32::new(0.0, 0.0),
        Complex32::new(0.0, 0.5),
        Complex32::new(-0.5, 0.0),
        Complex32::new(0.4, 0.4),
        Complex32::new(-0.0, -0.7),
    ]);
    v
}

fn bytes(n: usize, modulo: u32) -> Vec<u8> {
    let mut r = Lcg(7);
    (0..n)
        .map(|_| ((r.next() * modulo as f32) as u32 % modulo) as u8)
        .collect()
}

/// One block on one input, in GNU Radio's words and in radioflow's.
struct Case {
    name: String,
    make: String,
    input: Items,
    tags: Vec<(u64, &'static str)>,
    out: &'static str,
    /// Soft decisions: compared within a tolerance; else exactly.
    soft: bool,
    run: Run,
}

/// radioflow's run of a case: its input and tags through the block, by a scheduler.
type Run = Box<dyn Fn(&Items, &[(u64, &str)], &dyn Scheduler) -> (Items, Tags)>;

/// The constellations of the tests: GNU Radio's constructor and radioflow's text form.
fn constellations() -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("bpsk", "digital.constellation_bpsk().base()".into(), "bpsk"),
        ("qpsk", "digital.constellation_qpsk().base()".into(), "qpsk"),
        ("dqpsk", "digital.constellation_dqpsk().base()".into(), "dqpsk"),
        ("psk8", "digital.constellation_8psk().base()".into(), "8psk"),
        ("qam16", "digital.constellation_16qam().base()".into(), "16qam"),
        (
            "calcdist_power",
            "digital.constellation_calcdist([-3-1j, -1+1j, 1+2j, 2-1j], [0, 1, 3, 2], 4, 1, \
             digital.constellation.POWER_NORMALIZATION).base()"
                .into(),
            "calcdist points=-3,-1;-1,1;1,2;2,-1 map=0,1,3,2 rot=4 dim=1 norm=power",
        ),
        (
            "calcdist_amplitude",
            "digital.constellation_calcdist([-1, 1, 3j], [], 1, 1).base()".into(),
            "calcdist points=-1,0;1,0;0,3 map= rot=1 dim=1 norm=amplitude",
        ),
        (
            "calcdist_none",
            "digital.constellation_calcdist([0.2, -0.3j, 0.5+0.5j, -1-1j], [3, 2, 1, 0], 4, 1, \
             digital.constellation.NO_NORMALIZATION).base()"
                .into(),
            "calcdist points=0.2,0;0,-0.3;0.5,0.5;-1,-1 map=3,2,1,0 rot=4 dim=1 norm=none",
        ),
        (
            "rect",
            "digital.constellation_rect([-3-3j, -3-1j, -3+1j, -3+3j, -1-3j, -1-1j, -1+1j, \
             -1+3j, 1-3j, 1-1j, 1+1j, 1+3j, 3-3j, 3-1j, 3+1j, 3+3j], list(range(16)), 4, 4, 4, \
             2, 2).base()"
                .into(),
            "rect points=-3,-3;-3,-1;-3,1;-3,3;-1,-3;-1,-1;-1,1;-1,3;1,-3;1,-1;1,1;1,3;3,-3;3,-1;3,1;3,3 \
             map=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 rot=4 sectors=4,4 widths=2,2 norm=amplitude",
        ),
    ]
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let s = samples(600);
    for (name, gr, text) in constellations() {
        let c: Constellation = text.parse().unwrap();
        cases.push(Case {
            name: format!("decoder_{name}"),
            make: format!("digital.constellation_decoder_cb({gr})"),
            input: Items::C(s.clone()),
            tags: vec![(3, "k"), (100, "k")],
            out: "b",
            soft: false,
            run: {
                let c = c.clone();
                Box::new(move |x, t, sch| {
                    let Items::C(x) = x else { unreachable!() };
                    let (y, tags) = ours(ConstellationDecoder::new(c.clone()), x, t, sch);
                    (Items::B(y), tags)
                })
            },
        });
        if c.bits_per_symbol() == 0 || c.soft_bits() != c.bits_per_symbol() {
            continue;
        }
        for precision in [None, Some(6)] {
            let (gr, c, suffix) = match precision {
                None => (gr.clone(), c.clone(), String::new()),
                Some(p) => (
                    format!("lut({gr}, {p})"),
                    c.clone().with_soft_lut(p).unwrap(),
                    format!("_lut{p}"),
                ),
            };
            cases.push(Case {
                name: format!("soft_{name}{suffix}"),
                make: format!("digital.constellation_soft_decoder_cf({gr})"),
                input: Items::C(s[..200].to_vec()),
                tags: vec![(5, "k")],
                out: "f",
                soft: true,
                run: Box::new(move |x, t, sch| {
                    let Items::C(x) = x else { unreachable!() };
                    let block = ConstellationSoftDecoder::new(c.clone()).unwrap();
                    let (y, tags) = ours(block, x, t, sch);
                    (Items::F(y), tags)
                }),
            });
        }
    }
    // Two samples per symbol: the nearest pair.
    let two =
        "calcdist points=-1,-1;1,1;1,-1;-1,1;0.5,0;0,0.5;-0.5,0;0,-0.5 map= rot=1 dim=2 norm=none";
    let c2: Constellation = two.parse().unwrap();
    cases.push(Case {
        name: "decoder_dim2".into(),
        make: "digital.constellation_decoder_cb(digital.constellation_calcdist([-1-1j, 1+1j, \
               1-1j, -1+1j, 0.5, 0.5j, -0.5, -0.5j], [], 1, 2, \
               digital.constellation.NO_NORMALIZATION).base())"
            .into(),
        input: Items::C(s[..401].to_vec()),
        tags: vec![(7, "k")],
        out: "b",
        soft: false,
        run: Box::new(move |x, t, sch| {
            let Items::C(x) = x else { unreachable!() };
            let (y, tags) = ours(ConstellationDecoder::new(c2.clone()), x, t, sch);
            (Items::B(y), tags)
        }),
    });
    // chunks_to_symbols, complex and float, of dimension 1 and 2.
    let table_c = [
        Complex32::new(1.0, 0.5),
        Complex32::new(-0.25, 2.0),
        Complex32::new(0.0, -1.0),
        Complex32::new(3.0, 3.0),
    ];
    for d in [1usize, 2] {
        let n = table_c.len() / d;
        let input = Items::B(bytes(300, n as u32));
        let table = table_c.to_vec();
        let py: Vec<String> = table
            .iter()
            .map(|c| format!("complex({}, {})", c.re, c.im))
            .collect();
        cases.push(Case {
            name: format!("chunks_bc_{d}"),
            make: format!("digital.chunks_to_symbols_bc([{}], {d})", py.join(", ")),
            input: input.clone(),
            tags: vec![(0, "k"), (9, "k")],
            out: "c",
            soft: false,
            run: Box::new(move |x, t, sch| {
                let Items::B(x) = x else { unreachable!() };
                let block = ChunksToSymbols::new(table.clone(), d).unwrap();
                let (y, tags) = ours(block, x, t, sch);
                (Items::C(y), tags)
            }),
        });
        let floats = vec![-1.5f32, 0.25, 2.0, 7.0];
        cases.push(Case {
            name: format!("chunks_bf_{d}"),
            make: format!("digital.chunks_to_symbols_bf({floats:?}, {d})"),
            input,
            tags: vec![(4, "k")],
            out: "f",
            soft: false,
            run: Box::new(move |x, t, sch| {
                let Items::B(x) = x else { unreachable!() };
                let block = ChunksToSymbols::new(floats.clone(), d).unwrap();
                let (y, tags) = ours(block, x, t, sch);
                (Items::F(y), tags)
            }),
        });
    }
    // Short and int chunks.
    let chunks = bytes(200, 4);
    let table = table_c.to_vec();
    cases.push(Case {
        name: "chunks_sc_1".into(),
        make: "digital.chunks_to_symbols_sc([complex(1, 0.5), complex(-0.25, 2), complex(0, -1), \
               complex(3, 3)], 1)"
            .into(),
        input: Items::S(chunks.iter().map(|&b| i16::from(b)).collect()),
        tags: vec![(3, "k")],
        out: "c",
        soft: false,
        run: Box::new(move |x, t, sch| {
            let Items::S(x) = x else { unreachable!() };
            let block = ChunksToSymbolsShort::new(table.clone(), 1).unwrap();
            let (y, tags) = ours(block, x, t, sch);
            (Items::C(y), tags)
        }),
    });
    cases.push(Case {
        name: "chunks_if_2".into(),
        make: "digital.chunks_to_symbols_if([-1.5, 0.25, 2.0, 7.0, 0.5, -9.0, 1.0, 2.0], 2)".into(),
        input: Items::I(chunks.iter().map(|&b| i32::from(b)).collect()),
        tags: vec![(6, "k")],
        out: "f",
        soft: false,
        run: Box::new(move |x, t, sch| {
            let Items::I(x) = x else { unreachable!() };
            let table = vec![-1.5f32, 0.25, 2.0, 7.0, 0.5, -9.0, 1.0, 2.0];
            let block = ChunksToSymbolsInt::new(table, 2).unwrap();
            let (y, tags) = ours(block, x, t, sch);
            (Items::F(y), tags)
        }),
    });
    // Byte blocks.
    let byte_cases: Vec<(&str, String, u32, Run)> = vec![
        (
            "map_bb",
            "digital.map_bb([3, 2, 1, 0, 7])".into(),
            256,
            through(move || MapBytes::new(&[3, 2, 1, 0, 7])),
        ),
        (
            "diff_encoder_2",
            "digital.diff_encoder_bb(2, digital.DIFF_DIFFERENTIAL)".into(),
            2,
            through(move || DiffEncoder::new(2, DiffCoding::Differential).unwrap()),
        ),
        (
            "diff_encoder_4",
            "digital.diff_encoder_bb(4)".into(),
            4,
            through(move || DiffEncoder::new(4, DiffCoding::Differential).unwrap()),
        ),
        (
            "diff_encoder_nrzi",
            "digital.diff_encoder_bb(2, digital.DIFF_NRZI)".into(),
            2,
            through(move || DiffEncoder::new(2, DiffCoding::Nrzi).unwrap()),
        ),
        (
            "diff_decoder_2",
            "digital.diff_decoder_bb(2)".into(),
            2,
            through(move || DiffDecoder::new(2, DiffCoding::Differential).unwrap()),
        ),
        (
            "diff_decoder_5",
            "digital.diff_decoder_bb(5)".into(),
            7,
            through(move || DiffDecoder::new(5, DiffCoding::Differential).unwrap()),
        ),
        (
            "diff_decoder_nrzi",
            "digital.diff_decoder_bb(2, digital.DIFF_NRZI)".into(),
            2,
            through(move || DiffDecoder::new(2, DiffCoding::Nrzi).unwrap()),
        ),
        (
            "scrambler",
            "digital.scrambler_bb(0x8A, 0x7F, 7)".into(),
            2,
            through(move || Scrambler::new(0x8A, 0x7F, 7).unwrap()),
        ),
        (
            "descrambler",
            "digital.descrambler_bb(0x21, 0x3, 16)".into(),
            256,
            through(move || Descrambler::new(0x21, 0x3, 16).unwrap()),
        ),
        (
            "additive",
            "digital.additive_scrambler_bb(0x8A, 0x7F, 7)".into(),
            256,
            through(move || AdditiveScrambler::new(0x8A, 0x7F, 7, 0, 1, "").unwrap()),
        ),
        (
            "additive_count",
            "digital.additive_scrambler_bb(0x19, 0x1, 4, count=37, bits_per_byte=8)".into(),
            256,
            through(move || AdditiveScrambler::new(0x19, 0x1, 4, 37, 8, "").unwrap()),
        ),
        (
            "additive_tag",
            "digital.additive_scrambler_bb(0x8A, 0x7F, 7, count=5, bits_per_byte=3, \
             reset_tag_key='reset')"
                .into(),
            256,
            through(move || AdditiveScrambler::new(0x8A, 0x7F, 7, 5, 3, "reset").unwrap()),
        ),
    ];
    for (name, make, modulo, block) in byte_cases {
        cases.push(Case {
            name: name.into(),
            make,
            input: Items::B(bytes(1000, modulo)),
            tags: vec![(1, "k"), (40, "reset"), (41, "reset"), (300, "reset")],
            out: "b",
            soft: false,
            run: block,
        });
    }
    let mut r = Lcg(11);
    let mut floats: Vec<f32> = (0..500).map(|_| 2.0 * r.next() - 1.0).collect();
    floats.extend([0.0, -0.0, 1e-30, -1e-30, f32::NAN]);
    cases.push(Case {
        name: "binary_slicer".into(),
        make: "digital.binary_slicer_fb()".into(),
        input: Items::F(floats),
        tags: vec![(2, "k")],
        out: "b",
        soft: false,
        run: Box::new(|x, t, sch| {
            let Items::F(x) = x else { unreachable!() };
            let (y, tags) = ours(BinarySlicer::new(), x, t, sch);
            (Items::B(y), tags)
        }),
    });
    cases.push(Case {
        name: "diff_phasor".into(),
        make: "digital.diff_phasor_cc()".into(),
        input: Items::C(s[..300].to_vec()),
        tags: vec![(0, "k")],
        out: "c",
        soft: false,
        run: Box::new(|x, t, sch| {
            let Items::C(x) = x else { unreachable!() };
            let (y, tags) = ours(DiffPhasor::new(), x, t, sch);
            (Items::C(y), tags)
        }),
    });
    cases
}

/// Runs bytes through the block `make` makes.
fn through<B: Block + 'static>(make: impl Fn() -> B + 'static) -> Run {
    Box::new(move |x, t, sch| {
        let Items::B(x) = x else { unreachable!() };
        let (y, tags) = ours(make(), x, t, sch);
        (Items::B(y), tags)
    })
}

/// GNU Radio's outputs and tags for every case, from one Python process.
fn gnu_radio(cases: &[Case], dir: &Path) -> Vec<(Items, Tags)> {
    let mut job_cases = Vec::new();
    for c in cases {
        let input = dir.join(format!("{}.in", c.name));
        std::fs::write(&input, c.input.bytes()).unwrap();
        let tags: Vec<String> = c
            .tags
            .iter()
            .map(|(o, k)| format!("[{o}, \"{k}\"]"))
            .collect();
        job_cases.push(format!(
            "{{\"name\": \"{}\", \"make\": {:?}, \"input\": {:?}, \"in\": \"{}\", \"out\": \"{}\", \"tags\": [{}]}}",
            c.name,
            c.make,
            input.display().to_string(),
            c.input.code(),
            c.out,
            tags.join(", ")
        ));
    }
    let job = format!(
        "{{\"out\": {:?}, \"cases\": [{}]}}",
        dir.display().to_string(),
        job_cases.join(", ")
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/run_digital.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "run_digital.py failed");
    cases
        .iter()
        .map(|c| {
            let out = std::fs::read(dir.join(format!("{}.bin", c.name))).unwrap();
            let tags = std::fs::read_to_string(dir.join(format!("{}.tags.json", c.name))).unwrap();
            (Items::read(c.out, &out), parse_tags(&tags))
        })
        .collect()
}

/// `[[offset, "key"], ...]` as the script writes it.
fn parse_tags(json: &str) -> Tags {
    json.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split("], [")
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let t = t.trim_matches(|c| c == '[' || c == ']');
            let (o, k) = t.split_once(", ").unwrap();
            (o.parse().unwrap(), k.trim_matches('"').to_owned())
        })
        .collect()
}

#[test]
fn every_block_and_constellation_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.digital)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-digital-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    let theirs = gnu_radio(&cases, &dir);
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        // Small chunks: many work calls, the blocks' state carried across them.
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096)),
    ];
    for (case, (want, want_tags)) in cases.iter().zip(&theirs) {
        for s in &schedulers {
            let (got, tags) = (case.run)(&case.input, &case.tags, s.as_ref());
            let at = format!("{} under {}", case.name, s.name());
            let (g, w) = (got.reals(), want.reals());
            assert_eq!(g.len(), w.len(), "{at}: lengths");
            for (i, (a, b)) in g.iter().zip(&w).enumerate() {
                let same = if case.soft {
                    (a - b).abs() <= 1e-4 * b.abs().max(1.0)
                } else {
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
                };
                assert!(same, "{at}: value {i}: ours {a}, GNU Radio's {b}");
            }
            assert_eq!(&tags, want_tags, "{at}: tags");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
