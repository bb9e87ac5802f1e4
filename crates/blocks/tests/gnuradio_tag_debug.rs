//! tag_debug's printout against GNU Radio 3.10's on the same tags (`gnuradio/tag_debug.py`),
//! and the tags it keeps under every scheduler. SKIPPED where GNU Radio is not installed.

use radioflow_blocks::runtime::{
    FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{TagDebug, VectorSource};
use std::process::Command;

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
