//! The everyday stream blocks (routing: delay, repeat, keep_one_in_n, keep_m_in_n, skiphead,
//! stream_mux/demux, interleave/deinterleave, selector, mute; math: moving_average, integrate,
//! threshold, sample_and_hold, peak_detector) against GNU Radio 3.10's own on the same inputs
//! with tags, every item type, run by `gnuradio/streams.py` (one GNU Radio process per test):
//! items (bit for bit) and tags equal. SKIPPED where GNU Radio is not installed.

#[path = "support/streams.rs"]
mod support;

use radioflow_blocks::runtime::{Pmt, SingleThread, Tag};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use support::{math_cases, routing_cases, Case, Items};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `cases` in GNU Radio and compares each output with radioflow's.
fn compare_with_gnu_radio(cases: &[Case]) {
    let dir = tempfile::tempdir().unwrap();
    let specs: Vec<Value> = cases
        .iter()
        .map(|c| {
            let inputs: Vec<Value> = c
                .inputs
                .iter()
                .enumerate()
                .map(|(port, input)| {
                    let file = dir.path().join(format!("{}.in{port}.bin", c.name));
                    std::fs::write(&file, input.items.to_bytes()).unwrap();
                    let tags: Vec<Value> = input
                        .tags
                        .iter()
                        .map(|t| json!([t.offset, t.key.to_string(), t.value.as_i64().unwrap()]))
                        .collect();
                    json!({"type": input.items.kind().code(), "file": file, "tags": tags})
                })
                .collect();
            let outputs: Vec<&str> = c.outputs.iter().map(|k| k.code()).collect();
            json!({"name": c.name, "make": c.gr, "inputs": inputs, "outputs": outputs})
        })
        .collect();
    let job = json!({"out": dir.path(), "cases": specs});
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/streams.py");
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
    let mut failures = Vec::new();
    for c in cases {
        let ours = c.run(&SingleThread::new());
        for (port, ((items, tags), kind)) in ours.iter().zip(&c.outputs).enumerate() {
            let base = dir.path().join(format!("{}.out{port}", c.name));
            let theirs = Items::from_bytes(
                *kind,
                &std::fs::read(base.with_extension(format!("out{port}.bin"))).unwrap(),
            );
            if *items != theirs {
                failures.push(format!(
                    "{} ({}): output {port}: {} items, GNU Radio's {}; first differing at {:?}",
                    c.name,
                    c.gr,
                    items.len(),
                    theirs.len(),
                    first_difference(items, &theirs)
                ));
            }
            let their_tags: Value = serde_json::from_str(
                &std::fs::read_to_string(base.with_extension(format!("out{port}.tags.json")))
                    .unwrap(),
            )
            .unwrap();
            let their_tags: Vec<Tag> = their_tags
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    Tag::new(
                        t[0].as_u64().unwrap(),
                        t[1].as_str().unwrap(),
                        Pmt::Int(t[2].as_i64().unwrap()),
                    )
                })
                .collect();
            if c.gr_tags && *tags != their_tags {
                failures.push(format!(
                    "{} ({}): output {port}: tags {tags:?}, GNU Radio's {their_tags:?}",
                    c.name, c.gr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    println!("{} GNU Radio cases equal", cases.len());
}

/// Where two streams first differ (by raw bytes, as the items are compared).
fn first_difference(a: &Items, b: &Items) -> Option<usize> {
    let (a, b) = (a.to_bytes(), b.to_bytes());
    a.iter().zip(&b).position(|(x, y)| x != y)
}

#[test]
fn routing_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    compare_with_gnu_radio(&routing_cases());
}

#[test]
fn math_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    compare_with_gnu_radio(&math_cases());
}
