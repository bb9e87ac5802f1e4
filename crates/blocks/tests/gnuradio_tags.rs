//! The tag blocks against GNU Radio 3.10's on the same tags: tag_debug's printout
//! (`gnuradio/tag_debug.py`) and the tags it keeps, tagged_stream_mux's packets and tags
//! (`gnuradio/tagged_stream_mux.py`), under every scheduler. SKIPPED where GNU Radio is not
//! installed.

use radioflow_blocks::runtime::{
    FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{TagDebug, TaggedStreamMux, VectorSink, VectorSource};
use serde_json::{json, Value};
use std::io::Write;
use std::process::Command;
use std::process::Stdio;

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The tags of `gnuradio/tag_debug.py`.
fn tags() -> Vec<Tag> {
    vec![
        Tag::new(0, "k", Pmt::Int(3)),
        Tag::new(2, "d", Pmt::Double(1.5)),
        Tag::new(3, "whole", Pmt::Double(2.0)),
        Tag::new(5, "k", Pmt::symbol("sym")),
        Tag::new(7, "b", Pmt::Bool(true)),
        Tag::new(
            9,
            "c",
            Pmt::Complex(radioflow_blocks::runtime::pmt::Complex64::new(1.0, 2.0)),
        ),
        Tag::new(11, "p", Pmt::pair(Pmt::symbol("a"), Pmt::Int(2))),
        Tag::new(12, "nil", Pmt::Null),
        Tag::new(13, "k", Pmt::Int(4)).with_srcid(Pmt::symbol("src")),
        Tag::new(14, "s", Pmt::Int(5)).with_srcid(Pmt::Int(1)),
        Tag::new(15, "u", Pmt::Uint64(1 << 40)),
    ]
}

#[test]
fn printouts_equal_gnu_radio_s_and_every_tag_is_kept() {
    let all = tags();
    let only_k: Vec<Tag> = all
        .iter()
        .filter(|t| t.key.as_symbol() == Some("k"))
        .cloned()
        .collect();
    if gnuradio_present() {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/tag_debug.py");
        let out = Command::new(PYTHON).arg(script).output().unwrap();
        assert!(out.status.success(), "GNU Radio's script failed");
        let gr = String::from_utf8(out.stdout).unwrap();
        let dbg = TagDebug::<f32>::print_text("dbg", &[&all, &[]]);
        let only = TagDebug::<f32>::print_text("only_k", &[&only_k]);
        // The two sinks print in either order.
        assert!(
            gr == format!("{dbg}{only}") || gr == format!("{only}{dbg}"),
            "GNU Radio printed:\n{gr}\nradioflow:\n{dbg}{only}"
        );
    } else {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
    }
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in &schedulers {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![0.0f32; 16]).tags(tags()));
        let quiet = fg.add(VectorSource::new(vec![0.0f32; 16]));
        let dbg = fg.add(TagDebug::<f32>::new("dbg", "", 2).display(false));
        let only = fg.add(TagDebug::<f32>::new("only_k", "k", 1).display(false));
        fg.connect(src, (dbg, 0)).unwrap();
        fg.connect(quiet, (dbg, 1)).unwrap();
        fg.connect(src, only).unwrap();
        fg.run_with(s.as_ref()).unwrap();
        let kept =
            |b| -> Vec<(usize, Tag)> { fg.block::<TagDebug<f32>>(b).unwrap().tags().to_vec() };
        assert_eq!(
            kept(dbg),
            all.iter().map(|t| (0, t.clone())).collect::<Vec<_>>(),
            "{}",
            s.name()
        );
        assert_eq!(
            kept(only),
            only_k.iter().map(|t| (0, t.clone())).collect::<Vec<_>>(),
            "{}",
            s.name()
        );
    }
}

#[test]
fn tagged_stream_mux_equals_gnu_radio_s() {
    // Packets of 3 and 4 bytes on input 0, 2 and 3 on input 1 (and an empty one before the
    // second, its tag on the same item), with tags on packet heads and inside.
    let a = (
        (1..8).collect::<Vec<u8>>(),
        vec![
            (0, "len", 3),
            (3, "len", 4),
            (0, "x", 0),
            (1, "y", 1),
            (3, "z", 3),
            (6, "q", 6),
        ],
    );
    let b = (
        (100..105).collect::<Vec<u8>>(),
        vec![
            (0, "len", 2),
            (2, "len", 0),
            (2, "len", 3),
            (0, "u", 0),
            (2, "w", 2),
            (4, "v", 4),
        ],
    );
    let heads = [0usize, 1, 5];
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    let stream = |s: &(Vec<u8>, Vec<(u64, &str, i64)>)| json!({"items": s.0, "tags": s.1});
    let job = json!({"heads": heads, "a": stream(&a), "b": stream(&b)});
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/gnuradio/tagged_stream_mux.py"
    );
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
    let tags_of = |s: &(Vec<u8>, Vec<(u64, &str, i64)>)| -> Vec<Tag> {
        s.1.iter()
            .map(|&(o, k, v)| Tag::new(o, Pmt::symbol(k), Pmt::Int(v)))
            .collect()
    };
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in &schedulers {
        for head in heads {
            let mut fg = Flowgraph::new();
            let src_a = fg.add(VectorSource::new(a.0.clone()).tags(tags_of(&a)));
            let src_b = fg.add(VectorSource::new(b.0.clone()).tags(tags_of(&b)));
            let mux = fg.add(TaggedStreamMux::<u8>::new(2, "len", head));
            let sink = fg.add(VectorSink::<u8>::new());
            fg.connect(src_a, (mux, 0)).unwrap();
            fg.connect(src_b, (mux, 1)).unwrap();
            fg.connect(mux, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let k = fg.block::<VectorSink<u8>>(sink).unwrap();
            let want = &gr[head.to_string()];
            let items: Vec<u8> = want["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u8)
                .collect();
            assert_eq!(k.data(), &items[..], "head {head} on {}", s.name());
            let got: Vec<(u64, String, i64)> = k
                .tags()
                .iter()
                .map(|t| (t.offset, t.key.to_string(), t.value.as_i64().unwrap()))
                .collect();
            let want_tags: Vec<(u64, String, i64)> = want["tags"]
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
            assert_eq!(got, want_tags, "head {head} tags on {}", s.name());
        }
    }
}

/// A tag's source id goes through blocks with the tag, as GNU Radio's propagation keeps
/// `srcid`: through a one-for-one block (`propagate_tags`) and a rate-changing one
/// (`tag_map`), under every scheduler.
#[test]
fn source_ids_travel_with_their_tags() {
    use radioflow_blocks::{KeepOneInN, MultiplyConst};
    let tagged = vec![
        Tag::new(2, "k", Pmt::Int(1)).with_srcid(Pmt::symbol("src")),
        Tag::new(4, "k", Pmt::Int(2)),
    ];
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in &schedulers {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![1.0f32; 8]).tags(tagged.clone()));
        let mul = fg.add(MultiplyConst::new(2.0f32));
        let keep = fg.add(KeepOneInN::<f32>::new(2).unwrap());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, mul).unwrap();
        fg.connect(mul, keep).unwrap();
        fg.connect(keep, sink).unwrap();
        fg.run_with(s.as_ref()).unwrap();
        let got = fg.block::<VectorSink<f32>>(sink).unwrap().tags().to_vec();
        let srcids: Vec<(&Pmt, Option<&str>)> = got
            .iter()
            .map(|t| (&t.value, t.srcid.as_symbol()))
            .collect();
        assert_eq!(
            srcids,
            [(&Pmt::Int(1), Some("src")), (&Pmt::Int(2), None)],
            "{}",
            s.name()
        );
    }
}

#[test]
fn multiply_by_tag_value_equals_gnu_radio_s() {
    use radioflow_blocks::runtime::pmt::Complex64;
    use radioflow_blocks::runtime::Complex32;
    use radioflow_blocks::MultiplyByTagValue;
    // 48 samples; tags of key `amp` of every number kind GNU Radio takes (and one that is no number, which
    // leaves the factor), on the first item, on neighbouring items and twice on one item, and
    // a tag of another key that changes nothing.
    let items: Vec<Complex32> = (0..48)
        .map(|i| Complex32::new(i as f32 * 0.25 - 1.0, 0.5 - i as f32 * 0.125))
        .collect();
    let tags: Vec<(u64, &str, Pmt)> = vec![
        (0, "amp", Pmt::Int(3)),
        (5, "amp", Pmt::Double(-0.5)),
        (6, "ph", Pmt::Double(9.0)),
        (6, "amp", Pmt::Complex(Complex64::new(0.5, 2.0))),
        (11, "amp", Pmt::symbol("loud")),
        // Not Pmt::Uint64: GNU Radio's block stops on one (`pmt_to_double: wrong_type`).
        (17, "amp", Pmt::Int(7)),
        (17, "amp", Pmt::Double(0.1)),
        (30, "amp", Pmt::Complex(Complex64::new(-1.25, 0.3))),
    ];
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    let tag_json = |(o, k, v): &(u64, &str, Pmt)| match v {
        Pmt::Int(i) => json!([o, k, "int", i]),
        Pmt::Double(d) => json!([o, k, "double", d]),
        Pmt::Uint64(u) => json!([o, k, "uint64", u]),
        Pmt::Complex(c) => json!([o, k, "complex", [c.re, c.im]]),
        other => json!([o, k, "symbol", other.as_symbol().unwrap()]),
    };
    let vlens = [1usize, 2];
    let job = json!({
        "vlens": vlens,
        "items": items.iter().map(|z| [z.re, z.im]).collect::<Vec<_>>(),
        "tags": tags.iter().map(tag_json).collect::<Vec<_>>(),
    });
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/gnuradio/multiply_by_tag_value.py"
    );
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
    // The last line: GNU Radio's warnings (the tag that is no number) come before it.
    let text = String::from_utf8(out.stdout).unwrap();
    let gr: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert!(
        text.contains("incompatible value of 'loud'"),
        "GNU Radio warns of the tag that is no number"
    );
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in &schedulers {
        for vlen in vlens {
            let want = &gr[vlen.to_string()];
            let want_items: Vec<Complex32> = want["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|z| {
                    Complex32::new(z[0].as_f64().unwrap() as f32, z[1].as_f64().unwrap() as f32)
                })
                .collect();
            // The tags on items of `vlen` samples: item offsets scaled down.
            let tags: Vec<Tag> = tags
                .iter()
                .map(|(o, k, v)| Tag::new(*o / vlen as u64, *k, v.clone()))
                .collect();
            let mut fg = Flowgraph::new();
            let src = fg.add(
                VectorSource::new(items.clone())
                    .with_vlen(vlen)
                    .unwrap()
                    .tags(tags.clone()),
            );
            let mul = fg.add(MultiplyByTagValue::new("amp").with_vlen(vlen));
            let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(vlen));
            fg.connect(src, mul).unwrap();
            fg.connect(mul, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let k = fg.block::<VectorSink<Complex32>>(sink).unwrap();
            assert_eq!(
                k.data().len(),
                want_items.len(),
                "vlen {vlen} on {}",
                s.name()
            );
            for (n, (a, b)) in k.data().iter().zip(&want_items).enumerate() {
                // VOLK's complex multiply may fuse a multiply and an add: a rounding apart.
                assert!(
                    (a - b).norm() <= 1e-6 * b.norm().max(1.0),
                    "sample {n}, vlen {vlen} on {}: {a} vs GNU Radio's {b}",
                    s.name()
                );
            }
            let got: Vec<(u64, String)> = k
                .tags()
                .iter()
                .map(|t| (t.offset, t.key.to_string()))
                .collect();
            let want_tags: Vec<(u64, String)> = want["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| (t[0].as_u64().unwrap(), t[1].as_str().unwrap().to_owned()))
                .collect();
            assert_eq!(got, want_tags, "vlen {vlen} tags on {}", s.name());
        }
    }
}
