//! The paper's Fig. 7: a sequential source, a heavy cloneable stage duplicated on every core,
//! a sequential sink; frames keep their order. Then the same graph planned automatically from
//! a profile.
//!
//! `cargo run --release -p radioflow-framed --example pipeline`

use radioflow_framed::{
    plan, CloneableTaskId, PipelineBuilder, Sequence, Status, TaskGraph, TaskId,
};
use std::sync::{Arc, Mutex};

const N: usize = 2048;

/// The graph's tasks and what the sink saw.
struct Built {
    g: TaskGraph,
    src: TaskId,
    heavy: CloneableTaskId,
    sink: TaskId,
    seen: Arc<Mutex<Vec<u64>>>,
}

/// source -> heavy -> sink.
fn build() -> Built {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("source", 0u64);
    let src = g.task(m, "source");
    let idx = g.output::<u64>(src, "idx", 1);
    let data = g.output::<f32>(src, "data", N);
    g.codelet(src, move |k: &mut u64, io| {
        io.output(idx)[0] = *k;
        for (i, x) in io.output(data).iter_mut().enumerate() {
            *x = ((*k as usize + i) % 17) as f32;
        }
        *k += 1;
        Status::Continue
    });
    // A cloneable module: each replica gets its own copy of the taps.
    let m = g.module("heavy", vec![0.5f32; 48]);
    let heavy = g.task(m, "filter");
    let (x, y) = (
        g.input::<f32>(heavy, "in", N),
        g.output::<f32>(heavy, "out", N),
    );
    g.codelet(heavy, move |taps: &mut Vec<f32>, io| {
        let (x, y) = (io.input(x), io.output(y));
        for (i, y) in y.iter_mut().enumerate() {
            *y = taps
                .iter()
                .enumerate()
                .map(|(k, h)| h * x[(i + k) % N])
                .sum();
        }
        Status::Continue
    });
    g.bind(x, data).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let m = g.sequential_module("sink", ());
    let sink = g.task(m, "sink");
    let (ki, ky) = (g.input::<u64>(sink, "idx", 1), g.input::<f32>(sink, "y", N));
    g.codelet(sink, move |_: &mut (), io| {
        std::hint::black_box(io.input(ky));
        s2.lock().unwrap().push(io.input(ki)[0]); // idx crosses two stage boundaries
        Status::Continue
    });
    g.bind(ki, idx).unwrap();
    g.bind(ky, y).unwrap();
    Built {
        g,
        src: src.into(),
        heavy: heavy.into(),
        sink: sink.into(),
        seen,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let frames = 2000;
    for replicas in 1..=cores {
        let Built {
            g,
            src,
            heavy,
            sink,
            seen,
        } = build();
        let mut p = PipelineBuilder::new(g)
            .stage([src])
            .replicated_stage(replicas, [heavy])
            .stage([sink])
            .buffer(2)
            .build()?;
        let mut n = 0;
        let r = p.exec(move || {
            n += 1;
            n == frames
        })?;
        let in_order = seen.lock().unwrap().iter().copied().eq(0..frames);
        println!(
            "{replicas} replica(s): {:.0} frames/s, in order: {in_order}",
            r.frames as f64 / r.seconds
        );
    }
    // Automatic planning from a sequential profile.
    let mut seq = Sequence::new(build().g)?;
    seq.set_profiling(true);
    let mut n = 0;
    seq.exec(|| {
        n += 1;
        n == 200
    })?;
    let profile = seq.profile();
    let plan = plan(&profile, cores);
    print!("{}", plan.table(&profile, N as f64 * 32.0));
    let Built { g, seen, .. } = build();
    let mut p = PipelineBuilder::from_plan(g, &plan).build()?;
    let mut n = 0;
    let r = p.exec(move || {
        n += 1;
        n == frames
    })?;
    println!(
        "planned: {:.0} frames/s (predicted at most {:.0}), in order: {}",
        r.frames as f64 / r.seconds,
        plan.frames_per_second,
        seen.lock().unwrap().iter().copied().eq(0..frames)
    );
    Ok(())
}
