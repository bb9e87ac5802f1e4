//! GNU Radio metadata files against GNU Radio 3.10 (Debian's gnuradio, run with
//! /usr/bin/python3; tests/gnuradio/file_meta.py is the GNU Radio side, one process for every
//! case): radioflow's file_meta_sink writes the same bytes as GNU Radio's for the same items
//! and tags (segments cut by size and by tags, a full segment at a tag, tags on one item, the
//! rate of rx_rate tags times rel_rate, rx_time advanced by full segments, extras, detached
//! headers, every GRC item type), and radioflow's file_meta_source reads GNU Radio's files
//! into the items and tags GNU Radio's source gives. Prints SKIPPED and passes where GNU
//! Radio cannot be imported.

use radioflow_blocks::runtime::{
    Complex32, FlowScheduler, Flowgraph, Item, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_interop::{FileMetaSink, FileMetaSource};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnu_radio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks, numpy, pmt"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

struct Case {
    name: &'static str,
    kind: &'static str,
    /// Items (vectors of `vlen` scalars).
    n: usize,
    vlen: usize,
    max_seg: u64,
    samp_rate: f64,
    rel_rate: f64,
    extras: &'static [(&'static str, i64)],
    /// offset, key, value
    tags: Vec<(u64, &'static str, Pmt)>,
    detached: bool,
}

fn cases() -> Vec<Case> {
    let time = |s: u64, f: f64| Pmt::Tuple([Pmt::Uint64(s), Pmt::Double(f)].into());
    vec![
        Case {
            name: "float_segments",
            kind: "float",
            n: 10,
            vlen: 1,
            max_seg: 4,
            samp_rate: 1000.0,
            rel_rate: 0.5,
            extras: &[("foo", 1)],
            tags: vec![
                (3, "rx_rate", Pmt::Double(2000.0)),
                (6, "hello", Pmt::Int(7)),
            ],
            detached: false,
        },
        Case {
            name: "complex_same_offset",
            kind: "complex",
            n: 9,
            vlen: 1,
            max_seg: 100,
            samp_rate: 48e3,
            rel_rate: 1.0,
            extras: &[],
            tags: vec![
                (0, "rx_time", time(5, 0.25)),
                (0, "a", Pmt::Int(1)),
                (4, "b", Pmt::Int(2)),
                (4, "rx_rate", Pmt::Double(8000.0)),
            ],
            detached: false,
        },
        Case {
            name: "int_detached",
            kind: "int",
            n: 25,
            vlen: 1,
            max_seg: 10,
            samp_rate: 100.0,
            rel_rate: 1.0,
            extras: &[("x", 9), ("y", 8)],
            tags: vec![(12, "k", Pmt::Int(3))],
            detached: true,
        },
        Case {
            name: "short_full_at_tag",
            kind: "short",
            n: 12,
            vlen: 1,
            max_seg: 4,
            samp_rate: 8.0,
            rel_rate: 1.0,
            extras: &[],
            tags: vec![(8, "t", Pmt::Int(1))],
            detached: false,
        },
        Case {
            name: "complex_vectors",
            kind: "complex",
            n: 7,
            vlen: 3,
            max_seg: 2,
            samp_rate: 10.0,
            rel_rate: 1.0,
            extras: &[],
            tags: vec![(3, "k", Pmt::Int(4))],
            detached: false,
        },
        Case {
            name: "short_vectors_detached",
            kind: "short",
            n: 5,
            vlen: 10,
            max_seg: 3,
            samp_rate: 10.0,
            rel_rate: 1.0,
            extras: &[("z", 2)],
            tags: vec![],
            detached: true,
        },
        Case {
            name: "byte_plain",
            kind: "byte",
            n: 7,
            vlen: 1,
            max_seg: 1_000_000,
            samp_rate: 1.0,
            rel_rate: 1.0,
            extras: &[],
            tags: vec![],
            detached: false,
        },
    ]
}

/// Item `i` of a case: `i` (both parts of a complex).
trait Numbered: Item {
    fn nth(i: usize) -> Self;
}
impl Numbered for f32 {
    fn nth(i: usize) -> f32 {
        i as f32
    }
}
impl Numbered for Complex32 {
    fn nth(i: usize) -> Complex32 {
        Complex32::new(i as f32, i as f32)
    }
}
impl Numbered for i32 {
    fn nth(i: usize) -> i32 {
        i as i32
    }
}
impl Numbered for i16 {
    fn nth(i: usize) -> i16 {
        i as i16
    }
}
impl Numbered for u8 {
    fn nth(i: usize) -> u8 {
        i as u8
    }
}

fn ours_write<T: Numbered>(c: &Case, path: &Path, s: &dyn Scheduler) {
    let mut fg = Flowgraph::new();
    let tags = c
        .tags
        .iter()
        .map(|(o, k, v)| Tag::new(*o, Pmt::symbol(*k), v.clone()))
        .collect();
    let src = fg.add(
        VectorSource::new((0..c.n * c.vlen).map(T::nth).collect())
            .tags(tags)
            .with_vlen(c.vlen)
            .unwrap(),
    );
    let extras = Pmt::dict_from(
        c.extras
            .iter()
            .map(|(k, v)| (Pmt::symbol(*k), Pmt::Int(*v))),
    );
    let sink = fg.add(
        FileMetaSink::<T>::new(path, c.samp_rate, c.rel_rate, c.max_seg, extras, c.detached)
            .and_then(|s| s.with_vlen(c.vlen))
            .unwrap(),
    );
    fg.connect(src, sink).unwrap();
    fg.run_with(s).unwrap();
}

/// What our source reads from `path`: the items' bytes and the tags.
fn ours_read<T: Numbered>(
    path: &Path,
    c: &Case,
    s: &dyn Scheduler,
) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(FileMetaSource::<T>::new(path, false, c.detached, "").with_vlen(c.vlen));
    let sink = fg.add(VectorSink::<T>::new().with_vlen(c.vlen));
    fg.connect(src, sink).unwrap();
    fg.run_with(s).unwrap();
    let s = fg.block::<VectorSink<T>>(sink).unwrap();
    let tags = s
        .tags()
        .iter()
        .map(|t| {
            (
                t.offset,
                t.key.as_symbol().unwrap().to_owned(),
                t.value.clone(),
            )
        })
        .collect();
    (bytemuck::cast_slice(s.data()).to_vec(), tags)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn check<T: Numbered>(c: &Case, dir: &Path, gr: &Value, s: &dyn Scheduler) {
    let ours = dir.join(format!("{}.ours", c.name));
    let theirs = dir.join(format!("{}.gr", c.name));
    ours_write::<T>(c, &ours, s);
    assert_eq!(
        std::fs::read(&ours).unwrap(),
        std::fs::read(&theirs).unwrap(),
        "{}: the data file",
        c.name
    );
    if c.detached {
        let hdr = |p: &Path| std::fs::read(format!("{}.hdr", p.display())).unwrap();
        assert_eq!(hdr(&ours), hdr(&theirs), "{}: the header file", c.name);
    }
    let (items, tags) = ours_read::<T>(&theirs, c, s);
    let want = &gr[c.name];
    assert_eq!(
        items,
        hex(want["items"].as_str().unwrap()),
        "{}: items",
        c.name
    );
    let want_tags: Vec<(u64, String, Pmt)> = want["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t[0].as_u64().unwrap(),
                t[1].as_str().unwrap().to_owned(),
                Pmt::from_bytes(&hex(t[2].as_str().unwrap())).unwrap(),
            )
        })
        .collect();
    assert_eq!(tags, want_tags, "{}: tags", c.name);
}

#[test]
fn file_meta_sink_and_source_match_gnu_radio() {
    if !gnu_radio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = cases();
    let job = json!({
        "dir": dir.path(),
        "cases": cases.iter().map(|c| json!({
            "name": c.name, "type": c.kind, "n": c.n, "vlen": c.vlen, "max_seg": c.max_seg,
            "samp_rate": c.samp_rate, "rel_rate": c.rel_rate, "detached": c.detached,
            "extras": c.extras.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "tags": c.tags.iter().map(|(o, k, v)| match v {
                Pmt::Double(d) => json!([o, k, "double", d]),
                Pmt::Int(i) => json!([o, k, "long", i]),
                Pmt::Tuple(t) => json!([o, k, "time", [t[0].as_u64(), t[1].as_f64()]]),
                other => panic!("no such tag value in the cases: {other}"),
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/file_meta.py");
    let mut child = Command::new(PYTHON)
        .arg(&script)
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
    assert!(out.status.success(), "GNU Radio's side failed");
    let gr: Value = serde_json::from_slice(&out.stdout).unwrap();
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in &schedulers {
        for c in &cases {
            let s = s.as_ref();
            match c.kind {
                "float" => check::<f32>(c, dir.path(), &gr, s),
                "complex" => check::<Complex32>(c, dir.path(), &gr, s),
                "int" => check::<i32>(c, dir.path(), &gr, s),
                "short" => check::<i16>(c, dir.path(), &gr, s),
                _ => check::<u8>(c, dir.path(), &gr, s),
            }
        }
    }
}

#[test]
fn bad_parameters_and_files_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.meta");
    let err =
        |r: Result<FileMetaSink<f32>, radioflow_blocks::FileError>| r.unwrap_err().to_string();
    let e = err(FileMetaSink::new(&path, 1.0, 1.0, 0, Pmt::Null, false));
    assert!(e.contains("max_seg_size") && e.contains("x.meta"), "{e}");
    let e = err(FileMetaSink::new(&path, 1.0, 1.0, 10, Pmt::Int(1), false));
    assert!(e.contains("extra_dict is not a dict"), "{e}");

    // A tag that would change the header's size (GNU Radio writes a file no one can read).
    let mut fg = Flowgraph::new();
    let tag = Tag::new(1, Pmt::symbol("size"), Pmt::Double(4.0));
    let src = fg.add(VectorSource::new(vec![0f32; 4]).tags(vec![tag]));
    let sink = fg.add(FileMetaSink::<f32>::new(&path, 1.0, 1.0, 10, Pmt::Null, false).unwrap());
    fg.connect(src, sink).unwrap();
    let e = format!("{:#}", fg.run().unwrap_err());
    assert!(
        e.contains("not GNU Radio's 149") && e.contains("x.meta"),
        "{e}"
    );

    // Not a metadata file, an empty one, items of another size.
    let read = |p: &Path| {
        let mut fg = Flowgraph::new();
        let src = fg.add(FileMetaSource::<i16>::new(p, false, false, ""));
        let sink = fg.add(VectorSink::<i16>::new());
        fg.connect(src, sink).unwrap();
        format!("{:#}", fg.run().unwrap_err())
    };
    let junk = dir.path().join("junk");
    std::fs::write(&junk, [0xffu8; 200]).unwrap();
    let e = read(&junk);
    assert!(
        e.contains("not a metadata header") && e.contains("junk"),
        "{e}"
    );
    let empty = dir.path().join("empty");
    std::fs::write(&empty, []).unwrap();
    assert!(read(&empty).contains("no header"));
    let floats = dir.path().join("floats");
    ours_write::<f32>(&cases()[0], &floats, &FlowScheduler::new());
    let e = read(&floats);
    assert!(
        e.contains("items are 4 bytes") && e.contains("floats"),
        "{e}"
    );
    // Vectors: 3 shorts are not a float; 2 are (its bytes, read as they are).
    let mut fg = Flowgraph::new();
    let src = fg.add(FileMetaSource::<i16>::new(&floats, false, false, "").with_vlen(3));
    let sink = fg.add(VectorSink::<i16>::new().with_vlen(3));
    fg.connect(src, sink).unwrap();
    let e = format!("{:#}", fg.run().unwrap_err());
    assert!(
        e.contains("items are 4 bytes, this source's vectors of 3 int16 6"),
        "{e}"
    );
    let mut fg = Flowgraph::new();
    let src = fg.add(FileMetaSource::<i16>::new(&floats, false, false, "").with_vlen(2));
    let sink = fg.add(VectorSink::<i16>::new().with_vlen(2));
    fg.connect(src, sink).unwrap();
    fg.run().unwrap();
    let got = fg.block::<VectorSink<i16>>(sink).unwrap().data().to_vec();
    let want: Vec<f32> = (0..10).map(|i| i as f32).collect();
    assert_eq!(got, bytemuck::cast_slice::<f32, i16>(&want));
    let e =
        err(FileMetaSink::new(&path, 1.0, 1.0, 10, Pmt::Null, false).and_then(|s| s.with_vlen(0)));
    assert!(e.contains("vlen 0") && e.contains("x.meta"), "{e}");
}

#[test]
fn a_repeated_file_starts_again_with_its_tags() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three");
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1i16, 2, 3]));
    let sink = fg.add(FileMetaSink::<i16>::new(&path, 10.0, 1.0, 100, Pmt::Null, false).unwrap());
    fg.connect(src, sink).unwrap();
    fg.run().unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(FileMetaSource::<i16>::new(&path, true, false, ""));
    let head = fg.add(radioflow_blocks::Head::<i16>::new(7));
    let sink = fg.add(VectorSink::<i16>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    fg.run().unwrap();
    let s = fg.block::<VectorSink<i16>>(sink).unwrap();
    assert_eq!(s.data(), [1, 2, 3, 1, 2, 3, 1]);
    let rates: Vec<u64> = s
        .tags()
        .iter()
        .filter(|t| t.key.as_symbol() == Some("rx_rate"))
        .map(|t| t.offset)
        .collect();
    assert_eq!(rates, [0, 3, 6]);
}
