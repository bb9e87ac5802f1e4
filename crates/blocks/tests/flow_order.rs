//! A `flow` worker repeats passes over one chain while it moves before it goes on to the next
//! chain (`scheduler/worker.rs`), so that one chain's buffers are in the caches at a time.

use radioflow_blocks::runtime::{FlowScheduler, Flowgraph, TraceConfig, COUNTERS_COMPILED};
use radioflow_blocks::{Copy, Head, NullSink, NullSource};

#[test]
fn a_worker_runs_one_chain_for_many_passes_before_the_next() {
    let items = 1u64 << 20;
    let chunk = 1024usize;
    let mut fg = Flowgraph::new();
    fg.set_trace(Some(TraceConfig {
        events_per_block: 1 << 12,
    }));
    let mut sinks = Vec::new();
    for _ in 0..2 {
        let src = fg.add(NullSource::<f32>::new());
        let head = fg.add(Head::<f32>::new(items));
        let copy = fg.add(Copy::<f32>::new());
        let sink = fg.add(NullSink::<f32>::new());
        fg.connect(src, head).unwrap();
        fg.connect(head, copy).unwrap();
        fg.connect(copy, sink).unwrap();
        sinks.push(sink);
    }
    fg.run_with(&FlowScheduler::new().workers(1).chunk_bytes(chunk))
        .unwrap();
    for s in sinks {
        assert_eq!(fg.block::<NullSink<f32>>(s).unwrap().items(), items);
    }
    if !COUNTERS_COMPILED {
        return; // no traces without counters; the item counts were checked
    }
    let mut json = Vec::new();
    fg.trace().unwrap().write_chrome_json(&mut json).unwrap();
    let trace: serde_json::Value = serde_json::from_slice(&json).unwrap();
    // Work calls in time order, each named by the pipe of its block (instance names end in the
    // block's number of its kind, here the pipe's).
    let mut calls: Vec<(f64, char)> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .map(|e| {
            let name = e["name"].as_str().unwrap();
            (e["ts"].as_f64().unwrap(), name.chars().last().unwrap())
        })
        .collect();
    calls.sort_by(|a, b| a.0.total_cmp(&b.0));
    let switches = calls.windows(2).filter(|w| w[0].1 != w[1].1).count();
    let calls_per_switch = calls.len() as f64 / (switches.max(1) as f64);
    // One pass per chain and turn would switch pipes every 4 calls; repeating a chain moves
    // many chunks through it (a chunk takes 4 calls) before the other pipe's turn.
    assert!(
        calls_per_switch > 40.0,
        "{} work calls, {switches} switches between the pipes",
        calls.len()
    );
}
