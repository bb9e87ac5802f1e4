//! Streaming blocks with fixed rates used as tasks.

use radioflow_blocks::MultiplyConst;
use radioflow_framed::{ExecError, Out, PipelineBuilder, Sequence, Status, TaskGraph, TaskId};
use std::sync::{Arc, Mutex};

const N: usize = 64;

/// What the sink saw.
type Seen = Arc<Mutex<Vec<f32>>>;

/// counter -> MultiplyConst(3) as a task -> record.
fn graph(out_len: usize) -> (TaskGraph, [TaskId; 3], Out<f32>, Seen) {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("src", 0u32);
    let src = g.task(m, "src");
    let so = g.output::<f32>(src, "out", N);
    g.codelet(src, move |k: &mut u32, io| {
        for (i, x) in io.output(so).iter_mut().enumerate() {
            *x = (*k as usize * N + i) as f32;
        }
        *k += 1;
        Status::Continue
    });
    let (mul, mi, mo) = g
        .stream_block::<f32, f32, _>("triple", MultiplyConst::<f32>::new(3.0), N, out_len)
        .unwrap();
    g.bind(mi, so).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let m = g.sequential_module("sink", ());
    let sink = g.task(m, "sink");
    let ki = g.input::<f32>(sink, "in", out_len);
    g.codelet(sink, move |_: &mut (), io| {
        s2.lock().unwrap().extend_from_slice(io.input(ki));
        Status::Continue
    });
    g.bind(ki, mo).unwrap();
    (g, [src.into(), mul.into(), sink.into()], mo, seen)
}

#[test]
fn a_streaming_block_runs_as_a_task_in_a_sequence() {
    let (g, _, out, seen) = graph(N);
    let mut seq = Sequence::new(g).unwrap();
    for _ in 0..20 {
        seq.exec_once().unwrap();
    }
    let want: Vec<f32> = (0..20 * N).map(|v| 3.0 * v as f32).collect();
    assert_eq!(*seen.lock().unwrap(), want);
    assert_eq!(seq.read(out)[0], 3.0 * (19 * N) as f32);
}

#[test]
fn a_streaming_block_runs_as_a_pipeline_stage() {
    let (g, [src, mul, sink], _, seen) = graph(N);
    let mut p = PipelineBuilder::new(g)
        .stage([src])
        .stage([mul])
        .stage([sink])
        .build()
        .unwrap();
    let mut n = 0;
    p.exec(move || {
        n += 1;
        n == 50
    })
    .unwrap();
    let want: Vec<f32> = (0..50 * N).map(|v| 3.0 * v as f32).collect();
    assert_eq!(*seen.lock().unwrap(), want);
}

#[test]
fn a_block_that_cannot_fill_a_frame_is_an_error() {
    let (g, [src, mul, sink], _, _) = graph(2 * N);
    let mut p = PipelineBuilder::new(g)
        .stage([src, mul, sink])
        .build()
        .unwrap();
    let e = p.exec(|| false).unwrap_err();
    assert_eq!(
        e,
        ExecError::Panicked {
            stage: 0,
            task: "triple".into(),
            message: "'triple' produced 64 of the 128 items of a frame".into()
        }
    );
}
