//! Fault injection in framed pipelines: a task that panics at a chosen frame, under every
//! replica count, hand-over and waiting mode, stops the pipeline with an error naming its
//! stage and task; frames finished before it arrived whole and in order; no thread is left.
//! A very slow replica delays the pipeline but loses nothing.

use radioflow_framed::{ExecError, PipelineBuilder, Status, TaskGraph, Wait};
use radioflow_runtime::testing::{runtime_threads, runtime_threads_settled};
use std::sync::{Arc, Mutex};

const LEN: usize = 32;

/// The tests count the process's threads: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// source -> work (cloneable; panics at frame `bad`, sleeps per frame if `slow`) -> sink.
fn run(
    replicas: usize,
    copy: bool,
    wait: Wait,
    frames: u64,
    bad: Option<u64>,
    slow: bool,
) -> (Result<u64, ExecError>, Vec<u64>) {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("source", 0u64);
    let src = g.task(m, "source");
    let out = g.output::<u64>(src, "out", LEN);
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
    g.codelet(work, move |_, io| {
        let x = io.input(wi);
        let k = x[0] / 1000;
        assert!(Some(k) != bad, "injected panic at frame {k}");
        if slow && k % 3 == 1 {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        io.output(wo).copy_from_slice(x);
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
        let k = x[0] / 1000;
        assert!(
            x.iter().enumerate().all(|(j, &v)| v == k * 1000 + j as u64),
            "frame {k} damaged"
        );
        s2.lock().unwrap().push(k);
        Status::Continue
    });
    g.bind(ki, wo).unwrap();
    let mut pipe = PipelineBuilder::new(g)
        .stage([src.into()])
        .replicated_stage(replicas, [work.into()])
        .stage([sink.into()])
        .copy(copy)
        .wait(wait)
        .buffer(2)
        .build()
        .unwrap();
    let mut n = 0;
    let r = pipe
        .exec(move || {
            n += 1;
            n >= frames
        })
        .map(|r| r.frames);
    let seen = seen.lock().unwrap().clone();
    (r, seen)
}

#[test]
fn a_panicking_task_is_named_and_what_came_before_is_whole_and_in_order() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let baseline = runtime_threads();
    for replicas in [1, 2, 3] {
        for copy in [false, true] {
            for wait in [Wait::Passive, Wait::Active] {
                for bad in [0, 1, 17, 99] {
                    let (r, seen) = run(replicas, copy, wait, 100, Some(bad), false);
                    match r {
                        Err(ExecError::Panicked {
                            stage,
                            task,
                            message,
                        }) => {
                            assert_eq!((stage, task.as_str()), (1, "work"));
                            assert_eq!(message, format!("injected panic at frame {bad}"));
                        }
                        other => panic!("{replicas} replicas, frame {bad}: {other:?}"),
                    }
                    let want: Vec<u64> = (0..seen.len() as u64).collect();
                    assert_eq!(seen, want, "frames lost or out of order before the fault");
                    assert!(seen.len() as u64 <= bad);
                    assert_eq!(
                        runtime_threads_settled(baseline),
                        baseline,
                        "threads left behind"
                    );
                }
            }
        }
    }
}

#[test]
fn a_very_slow_replica_delays_but_loses_nothing() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    for replicas in [1, 3] {
        let (r, seen) = run(replicas, false, Wait::Passive, 60, None, true);
        assert_eq!(r.unwrap(), 60);
        assert_eq!(seen, (0..60).collect::<Vec<_>>());
    }
}
