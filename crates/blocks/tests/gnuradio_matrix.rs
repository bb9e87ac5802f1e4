//! multiply_matrix and matrix_interleaver against GNU Radio 3.10's own on the same inputs
//! (`gnuradio/matrix.py`, one GNU Radio process): items and tags equal, under every scheduler.
//! SKIPPED where GNU Radio is not installed.

use radioflow_blocks::runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{
    MatrixInterleaver, MatrixItem, MatrixTags, MultiplyMatrix, VectorSink, VectorSource,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn schedulers() -> [Box<dyn Scheduler>; 3] {
    [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

type Tags = Vec<(u64, String, i64)>;

fn tags_of<T: radioflow_blocks::runtime::Item>(s: &VectorSink<T>) -> Tags {
    s.tags()
        .iter()
        .map(|t| (t.offset, t.key.to_string(), t.value.as_i64().unwrap()))
        .collect()
}

fn want_tags(v: &Value) -> Tags {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t[0].as_u64().unwrap(),
                t[1].as_str().unwrap().to_owned(),
                t[2].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Our multiply_matrix on the script's inputs: each output's items and tags.
fn multiply<T: MatrixItem>(
    a: Vec<Vec<T>>,
    tags: MatrixTags,
    n: usize,
    item: impl Fn(f32) -> T,
    s: &dyn Scheduler,
) -> Vec<(Vec<T>, Tags)> {
    let mut fg = Flowgraph::new();
    let (rows, cols) = (a.len(), a[0].len());
    let m = fg.add(MultiplyMatrix::new(a, tags).unwrap());
    for j in 0..cols {
        let items = (0..n).map(|i| item((i + 10 * j) as f32)).collect();
        let tag = Tag::new(
            j as u64 + 1,
            Pmt::symbol(format!("t{j}").as_str()),
            Pmt::Int(j as i64),
        );
        let src = fg.add(VectorSource::new(items).tags(vec![tag]));
        fg.connect(src, (m, j)).unwrap();
    }
    let sinks: Vec<_> = (0..rows)
        .map(|i| {
            let k = fg.add(VectorSink::<T>::new());
            fg.connect((m, i), k).unwrap();
            k
        })
        .collect();
    fg.run_with(s).unwrap();
    sinks
        .iter()
        .map(|&k| {
            let s = fg.block::<VectorSink<T>>(k).unwrap();
            (s.data().to_vec(), tags_of(s))
        })
        .collect()
}

#[test]
fn matrix_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    let real = vec![vec![1.0f32, 0.0, 2.0], vec![0.0, 0.0, -0.5]];
    let square = vec![vec![0.5f32, 1.0], vec![0.0, 3.0]];
    let cplx = vec![vec![Complex32::new(1.0, 2.0), Complex32::new(0.0, 0.0)]];
    let policies = [
        (MatrixTags::Dont, 0),
        (MatrixTags::AllToAll, 1),
        (MatrixTags::OneToOne, 2),
        (MatrixTags::Matrix, 3),
    ];
    let mut multiply_cases = Vec::new();
    for (p, tpp) in policies {
        let a = if p == MatrixTags::OneToOne {
            &square
        } else {
            &real
        };
        multiply_cases
            .push(json!({"name": format!("ff_{tpp}"), "type": "ff", "a": a, "tpp": tpp, "n": 50}));
    }
    multiply_cases.push(
        json!({"name": "cc", "type": "cc", "a": [[[1.0, 2.0], [0.0, 0.0]]], "tpp": 3, "n": 20}),
    );
    // (rows, cols, deint, vlen, scalars): one row is a copy; 26 scalars leave a block cut short.
    let shapes = [
        (2, 3, false, 1, 26),
        (2, 3, true, 1, 24),
        (2, 3, false, 2, 24),
        (3, 2, true, 2, 36),
        (1, 4, false, 1, 12),
    ];
    let interleave_cases: Vec<Value> = shapes
        .iter()
        .map(|&(rows, cols, deint, vlen, n)| {
            json!({"name": format!("mi_{rows}_{cols}_{deint}_{vlen}_{n}"), "rows": rows, "cols": cols, "deint": deint, "vlen": vlen, "n": n})
        })
        .collect();
    let job = json!({"multiply": multiply_cases, "interleave": interleave_cases});
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/matrix.py");
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

    for s in schedulers() {
        let s = s.as_ref();
        for (p, tpp) in policies {
            let a = if p == MatrixTags::OneToOne {
                square.clone()
            } else {
                real.clone()
            };
            let got = multiply(a, p, 50, |x| x, s);
            let want = &gr[format!("ff_{tpp}")];
            for (i, (items, tags)) in got.iter().enumerate() {
                let w: Vec<f32> = want["out"][i]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap() as f32)
                    .collect();
                assert_eq!(items, &w, "ff tpp {tpp} output {i} on {}", s.name());
                assert_eq!(
                    tags,
                    &want_tags(&want["tags"][i]),
                    "ff tpp {tpp} output {i} tags on {}",
                    s.name()
                );
            }
        }
        let got = multiply(
            cplx.clone(),
            MatrixTags::Matrix,
            20,
            |x| Complex32::new(x, x),
            s,
        );
        let want = &gr["cc"];
        let w: Vec<Complex32> = want["out"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| Complex32::new(c[0].as_f64().unwrap() as f32, c[1].as_f64().unwrap() as f32))
            .collect();
        assert_eq!(got[0].0, w, "cc on {}", s.name());
        assert_eq!(
            got[0].1,
            want_tags(&want["tags"][0]),
            "cc tags on {}",
            s.name()
        );

        for &(rows, cols, deint, vlen, n) in &shapes {
            let name = format!("mi_{rows}_{cols}_{deint}_{vlen}_{n}");
            let mut fg = Flowgraph::new();
            let tags = [1u64, 4, 8, 11]
                .iter()
                .map(|&o| Tag::new(o, Pmt::symbol("t"), Pmt::Int(o as i64)))
                .collect();
            let src = fg.add(
                VectorSource::new((0..n).collect())
                    .tags(tags)
                    .with_vlen(vlen)
                    .unwrap(),
            );
            let mi = fg.add(
                MatrixInterleaver::<i32>::new(rows, cols, deint)
                    .unwrap()
                    .with_vlen(vlen),
            );
            let sink = fg.add(VectorSink::<i32>::new().with_vlen(vlen));
            fg.connect(src, mi).unwrap();
            fg.connect(mi, sink).unwrap();
            fg.run_with(s).unwrap();
            let k = fg.block::<VectorSink<i32>>(sink).unwrap();
            let w: Vec<i32> = gr[&name]["out"][0]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap() as i32)
                .collect();
            assert_eq!(k.data(), &w[..], "{name} on {}", s.name());
            assert_eq!(
                tags_of(k),
                want_tags(&gr[&name]["tags"][0]),
                "{name} tags on {}",
                s.name()
            );
        }
    }
}

#[test]
fn a_new_matrix_of_the_same_shape_applies_and_others_are_refused_or_ignored() {
    use radioflow_runtime::testing::Harness;
    let mut h =
        Harness::new(MultiplyMatrix::<f32>::new(vec![vec![1.0, 1.0]], MatrixTags::Dont).unwrap());
    h.push("in0", &[1.0f32, 2.0]);
    h.push("in1", &[10.0f32, 20.0]);
    h.work().unwrap();
    assert_eq!(h.take_output::<f32>("out0"), [11.0, 22.0]);
    // A row as a uniform vector; then one of another shape, and text, ignored.
    h.post(
        "set_A",
        Pmt::Vector(vec![Pmt::F32Vector(vec![2.0, -1.0].into())].into()),
    )
    .unwrap();
    h.post(
        "set_A",
        Pmt::Vector(vec![Pmt::F32Vector(vec![1.0].into())].into()),
    )
    .unwrap();
    h.post("set_A", Pmt::Int(3)).unwrap();
    assert_eq!(h.block().a(), &[vec![2.0, -1.0]]);
    h.push("in0", &[1.0f32]);
    h.push("in1", &[10.0f32]);
    h.work().unwrap();
    assert_eq!(h.take_output::<f32>("out0"), [-8.0]);
    // Refused when made: empty, ragged, one-to-one on a matrix that is not square.
    assert!(MultiplyMatrix::<f32>::new(vec![], MatrixTags::Dont).is_err());
    let e =
        MultiplyMatrix::<f32>::new(vec![vec![1.0, 2.0], vec![1.0]], MatrixTags::Dont).unwrap_err();
    assert!(e.contains("row 1 has 1 columns, row 0 2"), "{e}");
    let e = MultiplyMatrix::<f32>::new(vec![vec![1.0, 2.0]], MatrixTags::OneToOne).unwrap_err();
    assert!(
        e.contains("one_to_one tags need as many outputs as inputs"),
        "{e}"
    );
}
