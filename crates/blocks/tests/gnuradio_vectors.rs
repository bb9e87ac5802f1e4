//! Vector items against GNU Radio 3.10 on the same input: stream_to_vector, vector_to_stream,
//! the basic blocks with `vlen` > 1 (head counting vectors, copy, throttle, file_source,
//! vector_source/vector_sink), the element-wise blocks on vectors and the constants per
//! position (multiply_const_v, add_const_v), the FFT of vectors (fft_vcc, fft_vfc: windowed,
//! shifted, forward and reverse), data and tag offsets (in vectors) equal, run by
//! `gnuradio/vectors.py` in one GNU Radio process. SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{
    Add, AddConstV, ComplexToMag, Copy, Divide, Fft, FileSource, Head, MultiplyConst,
    MultiplyConstV, Nlog10, StreamToVector, Throttle, VectorSink, VectorSource, VectorToStream,
};
use radioflow_runtime::{Block, BlockId, Complex32, Flowgraph, Pmt, Tag};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success())
}

type Tags = Vec<(u64, String, i64)>;

/// How radioflow runs a case: its blocks from the data, the tags and the data's file, in
/// chain order (the last a `VectorSink<f32>`, or a `VectorSink<Complex32>` read as pairs of
/// floats), then the extra blocks.
type Ours = fn(&[f32], Vec<Tag>, &Path) -> Vec<Box<dyn Block>>;

struct Case {
    name: &'static str,
    data: Vec<f32>,
    tags: Vec<u64>,
    gr: &'static [&'static str],
    /// GNU Radio's blocks outside the chain.
    gr_extra: &'static [&'static str],
    /// Connections besides the chain's: (block, block, input port), indices into chain + extra.
    links: &'static [(usize, usize, usize)],
    /// Largest difference allowed per value (0: bit for bit).
    tol: f32,
    ours: Ours,
}

fn run_ours(case: &Case, path: &Path) -> (Vec<f32>, Tags) {
    let tags = case
        .tags
        .iter()
        .map(|&o| Tag::new(o, format!("t{o}"), o as i64))
        .collect();
    let mut fg = Flowgraph::new();
    let ids: Vec<BlockId> = (case.ours)(&case.data, tags, path)
        .into_iter()
        .map(|b| fg.add_boxed(None, b))
        .collect();
    let chain = case.gr.len();
    for w in ids[..chain].windows(2) {
        fg.connect(w[0], w[1]).unwrap();
    }
    for &(a, b, port) in case.links {
        fg.connect(ids[a], (ids[b], format!("in{port}").as_str()))
            .unwrap();
    }
    fg.run().unwrap();
    let last = ids[chain - 1];
    let (data, sink_tags) = match fg.block::<VectorSink<f32>>(last) {
        Some(sink) => (sink.data().to_vec(), sink.tags().to_vec()),
        None => {
            let sink = fg.block::<VectorSink<Complex32>>(last).unwrap();
            let pairs = sink.data().iter().flat_map(|z| [z.re, z.im]).collect();
            (pairs, sink.tags().to_vec())
        }
    };
    let tags = sink_tags
        .iter()
        .map(|t| {
            let Pmt::Int(v) = t.value else {
                panic!("{}: tag value {:?}", case.name, t.value)
            };
            (t.offset, t.key.to_string(), v)
        })
        .collect();
    (data, tags)
}

/// GNU Radio's Blackman-Harris window of `n` (`fft.window.blackmanharris`), in float32.
fn blackman_harris(n: usize) -> Vec<f32> {
    radioflow_dsp::firdes::cosine_sum(n, &[0.35875, 0.48829, 0.14128, 0.01168])
        .into_iter()
        .map(|w| w as f32)
        .collect()
}

/// The FFT cases: complex pairs of `data` (or the floats, `real`) in vectors of `size`.
fn fft_case(name: &'static str, gr: &'static [&'static str], ours: Ours) -> Case {
    Case {
        name,
        data: floats(80),
        tags: vec![0, 2, 4],
        gr,
        gr_extra: &[],
        links: &[],
        // f32 transforms of values up to 37 over at most 8 points (outputs up to 500): FFTW and rustfft round
        // differently.
        tol: 1e-3,
        ours,
    }
}

fn floats(n: usize) -> Vec<f32> {
    (0..n).map(|k| k as f32 * 0.5 - 3.0).collect()
}

fn complex_pairs(d: &[f32]) -> Vec<Complex32> {
    d.chunks(2).map(|p| Complex32::new(p[0], p[1])).collect()
}

fn cases() -> Vec<Case> {
    vec![
        fft_case(
            "fft_vcc_forward_shift_blackmanharris",
            &[
                "blocks.vector_source_c([complex(a, b) for a, b in zip(data[::2], data[1::2])], False, 8, tags)",
                "fft.fft_vcc(8, True, fft.window.blackmanharris(8), True, 2)",
                "blocks.vector_sink_c(8)",
            ],
            |d, t, _| {
                vec![
                    Box::new(VectorSource::new(complex_pairs(d)).with_vlen(8).unwrap().tags(t)),
                    Box::new(Fft::<Complex32>::new(8, true, &blackman_harris(8), true).unwrap()),
                    Box::new(VectorSink::<Complex32>::new().with_vlen(8)),
                ]
            },
        ),
        fft_case(
            "fft_vcc_reverse_shift_odd_windowed",
            &[
                "blocks.vector_source_c([complex(a, b) for a, b in zip(data[::2], data[1::2])], False, 5, tags)",
                "fft.fft_vcc(5, False, [0.5, 1.0, 1.5, 2.0, 2.5], True)",
                "blocks.vector_sink_c(5)",
            ],
            |d, t, _| {
                vec![
                    Box::new(VectorSource::new(complex_pairs(d)).with_vlen(5).unwrap().tags(t)),
                    Box::new(Fft::<Complex32>::new(5, false, &[0.5, 1.0, 1.5, 2.0, 2.5], true).unwrap()),
                    Box::new(VectorSink::<Complex32>::new().with_vlen(5)),
                ]
            },
        ),
        fft_case(
            "fft_vcc_reverse",
            &[
                "blocks.vector_source_c([complex(a, b) for a, b in zip(data[::2], data[1::2])], False, 4, tags)",
                "fft.fft_vcc(4, False, [], False)",
                "blocks.vector_sink_c(4)",
            ],
            |d, t, _| {
                vec![
                    Box::new(VectorSource::new(complex_pairs(d)).with_vlen(4).unwrap().tags(t)),
                    Box::new(Fft::<Complex32>::new(4, false, &[], false).unwrap()),
                    Box::new(VectorSink::<Complex32>::new().with_vlen(4)),
                ]
            },
        ),
        fft_case(
            "fft_vfc_forward_shift_odd",
            &[
                "blocks.vector_source_f(data, False, 5, tags)",
                "fft.fft_vfc(5, True, [], True)",
                "blocks.vector_sink_c(5)",
            ],
            |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(5).unwrap().tags(t)),
                    Box::new(Fft::<f32>::new(5, true, &[], true).unwrap()),
                    Box::new(VectorSink::<Complex32>::new().with_vlen(5)),
                ]
            },
        ),
        fft_case(
            // GNU Radio's own rotation of real input of an odd size (see VectorFft::process).
            "fft_vfc_reverse_shift_odd_windowed",
            &[
                "blocks.vector_source_f(data, False, 5, tags)",
                "fft.fft_vfc(5, False, [0.5, 1.0, 1.5, 2.0, 2.5], True)",
                "blocks.vector_sink_c(5)",
            ],
            |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(5).unwrap().tags(t)),
                    Box::new(Fft::<f32>::new(5, false, &[0.5, 1.0, 1.5, 2.0, 2.5], true).unwrap()),
                    Box::new(VectorSink::<Complex32>::new().with_vlen(5)),
                ]
            },
        ),
        Case {
            name: "s2v_4",
            data: floats(42),
            tags: vec![0, 1, 2, 3, 5, 6, 9, 13, 41],
            gr: &[
                "blocks.vector_source_f(data, False, 1, tags)",
                "blocks.stream_to_vector(gr.sizeof_float, 4)",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).tags(t)),
                    Box::new(StreamToVector::<f32>::new(4, 1).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                ]
            },
        },
        Case {
            name: "v2s_4",
            data: floats(40),
            tags: vec![0, 2, 3, 9],
            gr: &[
                "blocks.vector_source_f(data, False, 4, tags)",
                "blocks.vector_to_stream(gr.sizeof_float, 4)",
                "blocks.vector_sink_f()",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(4).unwrap().tags(t)),
                    Box::new(VectorToStream::<f32>::new(4, 1).unwrap()),
                    Box::new(VectorSink::<f32>::new()),
                ]
            },
        },
        Case {
            name: "s2v_3_of_vlen_2",
            data: floats(50),
            tags: vec![1, 4, 7, 24],
            gr: &[
                "blocks.vector_source_f(data, False, 2, tags)",
                "blocks.stream_to_vector(gr.sizeof_float * 2, 3)",
                "blocks.vector_sink_f(6)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(2).unwrap().tags(t)),
                    Box::new(StreamToVector::<f32>::new(3, 2).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(6)),
                ]
            },
        },
        Case {
            name: "v2s_3_of_vlen_2",
            data: floats(48),
            tags: vec![0, 3, 7],
            gr: &[
                "blocks.vector_source_f(data, False, 6, tags)",
                "blocks.vector_to_stream(gr.sizeof_float * 2, 3)",
                "blocks.vector_sink_f(2)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(6).unwrap().tags(t)),
                    Box::new(VectorToStream::<f32>::new(3, 2).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(2)),
                ]
            },
        },
        Case {
            // head counts vectors; copy and throttle pass tags on vectors.
            name: "s2v_copy_throttle_head_v2s",
            data: floats(64),
            tags: vec![0, 5, 6, 17, 30, 50],
            gr: &[
                "blocks.vector_source_f(data, False, 1, tags)",
                "blocks.stream_to_vector(gr.sizeof_float, 4)",
                "blocks.copy(gr.sizeof_float * 4)",
                "blocks.throttle(gr.sizeof_float * 4, 1e9)",
                "blocks.head(gr.sizeof_float * 4, 11)",
                "blocks.vector_to_stream(gr.sizeof_float, 4)",
                "blocks.vector_sink_f()",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).tags(t)),
                    Box::new(StreamToVector::<f32>::new(4, 1).unwrap()),
                    Box::new(Copy::<f32>::new().with_vlen(4)),
                    Box::new(Throttle::<f32>::new(1e9).with_vlen(4)),
                    Box::new(Head::<f32>::new(11).with_vlen(4)),
                    Box::new(VectorToStream::<f32>::new(4, 1).unwrap()),
                    Box::new(VectorSink::<f32>::new()),
                ]
            },
        },
        Case {
            name: "file_source_vlen_3",
            data: floats(41),
            tags: vec![],
            gr: &[
                "blocks.file_source(gr.sizeof_float * 3, path, False)",
                "blocks.vector_sink_f(3)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |_, _, path| {
                vec![
                    Box::new(FileSource::<f32>::new(path).unwrap().with_vlen(3)),
                    Box::new(VectorSink::<f32>::new().with_vlen(3)),
                ]
            },
        },
        Case {
            name: "vector_source_repeat_vlen_4",
            data: floats(12),
            tags: vec![0, 2],
            gr: &[
                "blocks.vector_source_f(data, True, 4, tags)",
                "blocks.head(gr.sizeof_float * 4, 10)",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(
                        VectorSource::new(d.to_vec())
                            .with_vlen(4)
                            .unwrap()
                            .repeat(true)
                            .tags(t),
                    ),
                    Box::new(Head::<f32>::new(10).with_vlen(4)),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                ]
            },
        },
        Case {
            // Two streams of vectors added position by position, tags from both.
            name: "add_vlen_4",
            data: floats(40),
            tags: vec![1, 6, 9],
            gr: &[
                "blocks.vector_source_f(data, False, 1, tags)",
                "blocks.stream_to_vector(gr.sizeof_float, 4)",
                "blocks.add_vff(4)",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &["blocks.vector_source_f(data[::-1], False, 4, tags)"],
            links: &[(4, 2, 1)],
            tol: 0.0,
            ours: |d, t, _| {
                let reversed: Vec<f32> = d.iter().rev().copied().collect();
                vec![
                    Box::new(VectorSource::new(d.to_vec()).tags(t.clone())),
                    Box::new(StreamToVector::<f32>::new(4, 1).unwrap()),
                    Box::new(Add::<f32>::new(2).with_vlen(4)),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                    Box::new(VectorSource::new(reversed).with_vlen(4).unwrap().tags(t)),
                ]
            },
        },
        Case {
            name: "divide_vlen_2",
            data: (1..=24).map(|k| k as f32 * 0.75).collect(),
            tags: vec![],
            gr: &[
                "blocks.vector_source_f(data, False, 2, [])",
                "blocks.divide_ff(2)",
                "blocks.vector_sink_f(2)",
            ],
            gr_extra: &["blocks.vector_source_f(data[::-1], False, 2, [])"],
            links: &[(3, 1, 1)],
            tol: 0.0,
            ours: |d, _, _| {
                let reversed: Vec<f32> = d.iter().rev().copied().collect();
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(2).unwrap()),
                    Box::new(Divide::<f32>::new(2).with_vlen(2)),
                    Box::new(VectorSink::<f32>::new().with_vlen(2)),
                    Box::new(VectorSource::new(reversed).with_vlen(2).unwrap()),
                ]
            },
        },
        Case {
            name: "multiply_const_vlen_4",
            data: floats(32),
            tags: vec![2, 5],
            gr: &[
                "blocks.vector_source_f(data, False, 4, tags)",
                "blocks.multiply_const_ff(2.5, 4)",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(4).unwrap().tags(t)),
                    Box::new(MultiplyConst::<f32>::new(2.5).with_vlen(4)),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                ]
            },
        },
        Case {
            name: "multiply_const_per_position",
            data: floats(32),
            tags: vec![1, 6],
            gr: &[
                "blocks.vector_source_f(data, False, 4, tags)",
                "blocks.multiply_const_vff([1.5, -2.0, 0.25, 3.0])",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(4).unwrap().tags(t)),
                    Box::new(MultiplyConstV::<f32>::new(vec![1.5, -2.0, 0.25, 3.0]).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                ]
            },
        },
        Case {
            name: "add_const_per_position",
            data: floats(30),
            tags: vec![0, 9],
            gr: &[
                "blocks.vector_source_f(data, False, 3, tags)",
                "blocks.add_const_vff([1.5, -2.0, 0.25])",
                "blocks.vector_sink_f(3)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(3).unwrap().tags(t)),
                    Box::new(AddConstV::<f32>::new(vec![1.5, -2.0, 0.25]).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(3)),
                ]
            },
        },
        Case {
            name: "nlog10_vlen_4",
            data: (1..=40).map(|k| k as f32 * 0.25).collect(),
            tags: vec![3],
            gr: &[
                "blocks.vector_source_f(data, False, 4, tags)",
                "blocks.nlog10_ff(10, 4, 1.5)",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &[],
            links: &[],
            // VOLK's log2 is a polynomial within 1e-5 of log2, times 10 / log2(10).
            tol: 1e-4,
            ours: |d, t, _| {
                vec![
                    Box::new(VectorSource::new(d.to_vec()).with_vlen(4).unwrap().tags(t)),
                    Box::new(Nlog10::new(10.0, 1.5).with_vlen(4).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                ]
            },
        },
        Case {
            name: "complex_to_mag_vlen_4",
            data: floats(64),
            tags: vec![1, 7],
            gr: &[
                "blocks.vector_source_c([complex(a, b) for a, b in zip(data[::2], data[1::2])], False, 4, tags)",
                "blocks.complex_to_mag(4)",
                "blocks.vector_sink_f(4)",
            ],
            gr_extra: &[],
            links: &[],
            tol: 0.0,
            ours: |d, t, _| {
                let c: Vec<Complex32> = d.chunks(2).map(|p| Complex32::new(p[0], p[1])).collect();
                vec![
                    Box::new(VectorSource::new(c).with_vlen(4).unwrap().tags(t)),
                    Box::new(ComplexToMag::new().with_vlen(4).unwrap()),
                    Box::new(VectorSink::<f32>::new().with_vlen(4)),
                ]
            },
        },
    ]
}

#[test]
fn vector_items_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = cases();
    let job = json!({
        "out": dir.path(),
        "cases": cases.iter().map(|c| json!({
            "name": c.name,
            "data": c.data,
            "tags": c.tags.iter().map(|&o| json!([o, format!("t{o}"), o])).collect::<Vec<_>>(),
            "chain": c.gr,
            "extra": c.gr_extra,
            "links": c.links,
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/vectors.py");
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
    for case in &cases {
        let base = dir.path().join(case.name);
        let (got, tags) = run_ours(case, &base.with_extension("input.f32"));
        let bytes = std::fs::read(base.with_extension("bin")).unwrap();
        let want: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
        assert_eq!(got.len(), want.len(), "{}: data length", case.name);
        for (k, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!(
                (a - b).abs() <= case.tol || a.to_bits() == b.to_bits(),
                "{}: value {k}: {a} vs GNU Radio's {b}",
                case.name
            );
        }
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
        assert_eq!(tags, want_tags, "{}: tags", case.name);
    }
    println!("{} GNU Radio cases equal", cases.len());
}
