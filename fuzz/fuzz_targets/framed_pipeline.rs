//! The framed pipeline's adaptors under schedules chosen by the input: replica count, ring
//! size, copy or copy-less hand-over, passive or active waiting, frames that abort, and how
//! long each frame's work takes (so replicas finish out of order). Every frame that is not
//! aborted reaches the sink once, in order, with its data intact.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_framed::{PipelineBuilder, Status, TaskGraph, Wait};
use std::sync::{Arc, Mutex};

const LEN: usize = 16;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let replicas = 1 + (data[0] % 3) as usize;
    let buffer = 1 + (data[1] % 4) as usize;
    let copy = data[2] & 1 == 1;
    let wait = if data[2] & 2 == 2 { Wait::Active } else { Wait::Passive };
    let schedule: Arc<Vec<u8>> = Arc::new(data[3..].iter().copied().take(64).collect());
    let frames = schedule.len() as u64;

    let mut g = TaskGraph::new();
    let m = g.sequential_module("source", 0u64);
    let src = g.task(m, "source");
    let out = g.output::<u64>(src, "data", LEN);
    g.codelet(src, move |n: &mut u64, io| {
        for (j, d) in io.output(out).iter_mut().enumerate() {
            *d = *n * 1000 + j as u64;
        }
        *n += 1;
        Status::Continue
    });
    let work = g.stateless("work");
    let wi = g.input::<u64>(work, "in", LEN);
    let wo = g.output::<u64>(work, "out", LEN);
    let s = schedule.clone();
    g.codelet(work, move |_, io| {
        let x = io.input(wi);
        let k = (x[0] / 1000) as usize;
        let step = s.get(k).copied().unwrap_or(0);
        if step == 0xff {
            return Status::Abort;
        }
        let mut acc = 0u64;
        for i in 0..u64::from(step) * 50 {
            acc = acc.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(acc);
        for (o, i) in io.output(wo).iter_mut().zip(x) {
            *o = i + 1;
        }
        Status::Continue
    });
    g.bind(wi, out).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let m = g.sequential_module("sink", ());
    let sink = g.task(m, "sink");
    let ki = g.input::<u64>(sink, "in", LEN);
    g.codelet(sink, move |_: &mut (), io| {
        let x = io.input(ki);
        let k = (x[0] - 1) / 1000;
        let intact = x.iter().enumerate().all(|(j, &v)| v == k * 1000 + j as u64 + 1);
        s2.lock().unwrap().push((k, intact));
        Status::Continue
    });
    g.bind(ki, wo).unwrap();
    let mut pipe = PipelineBuilder::new(g)
        .stage([src.into()])
        .replicated_stage(replicas, [work.into()])
        .stage([sink.into()])
        .copy(copy)
        .wait(wait)
        .buffer(buffer)
        .build()
        .unwrap();
    let mut n = 0;
    let report = pipe
        .exec(move || {
            n += 1;
            n >= frames
        })
        .unwrap();
    let want: Vec<u64> = (0..frames).filter(|&k| schedule[k as usize] != 0xff).collect();
    let seen = seen.lock().unwrap();
    let got: Vec<u64> = seen.iter().map(|s| s.0).collect();
    assert_eq!(got, want, "frames lost, repeated or out of order");
    assert!(seen.iter().all(|s| s.1), "a frame's data changed on the way");
    assert_eq!(report.frames, frames);
});
