//! Pipelines: order under duplication, data carried across stages, early exit, both adaptor
//! modes and waiting modes, planning, failures.

use radioflow_framed::{
    plan, BuildError, CloneableTaskId, ExecError, Out, PipelineBuilder, Plan, PlannedStage,
    Sequence, Status, TaskGraph, TaskId, Wait,
};
use std::sync::{Arc, Mutex};

const LEN: usize = 64;

struct Parts {
    g: TaskGraph,
    src: TaskId,
    work: CloneableTaskId,
    check: CloneableTaskId,
    sink: TaskId,
    seen: Arc<Mutex<Vec<(u64, u64, bool)>>>,
}

/// source (sequential: numbers frames) -> work (cloneable; uneven duration; aborts frames
/// with `abort(k)`) -> check (cloneable) -> sink (sequential; records frame number, the
/// work's result, and whether the source's number arrived unchanged across two stages).
fn graph(abort: fn(u64) -> bool) -> Parts {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("source", 0u64);
    let src = g.task(m, "source");
    let idx = g.output::<u64>(src, "idx", 1);
    let data = g.output::<u64>(src, "data", LEN);
    g.codelet(src, move |n: &mut u64, io| {
        io.output(idx)[0] = *n;
        for (j, d) in io.output(data).iter_mut().enumerate() {
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
        if abort(k) {
            return Status::Abort;
        }
        // Uneven work so that replicas finish out of order.
        let spin = (k * 7919 % 13) * 200;
        let mut acc = 0u64;
        for s in 0..spin {
            acc = acc.wrapping_mul(31).wrapping_add(s);
        }
        std::hint::black_box(acc);
        for (o, i) in io.output(wo).iter_mut().zip(x) {
            *o = i * 2;
        }
        Status::Continue
    });
    g.bind(wi, data).unwrap();
    let check = g.stateless("check");
    let ci = g.input::<u64>(check, "in", LEN);
    let co = g.output::<u64>(check, "sum", 1);
    g.codelet(check, move |_, io| {
        io.output(co)[0] = io.input(ci).iter().sum();
        Status::Continue
    });
    g.bind(ci, wo).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let m = g.sequential_module("sink", ());
    let sink = g.task(m, "sink");
    let ki = g.input::<u64>(sink, "idx", 1);
    let ks = g.input::<u64>(sink, "sum", 1);
    let kd = g.input::<u64>(sink, "data", LEN);
    g.codelet(sink, move |_: &mut (), io| {
        let k = io.input(ki)[0];
        let intact = io.input(kd)[0] == k * 1000;
        s2.lock().unwrap().push((k, io.input(ks)[0], intact));
        Status::Continue
    });
    g.bind(ki, idx).unwrap();
    g.bind(ks, co).unwrap();
    g.bind(kd, data).unwrap();
    Parts {
        g,
        src: src.into(),
        work: work.into(),
        check: check.into(),
        sink: sink.into(),
        seen,
    }
}

fn expected_sum(k: u64) -> u64 {
    (0..LEN as u64).map(|j| 2 * (k * 1000 + j)).sum()
}

fn run(p: &mut radioflow_framed::Pipeline, frames: u64) -> radioflow_framed::PipelineReport {
    let mut n = 0;
    p.exec(move || {
        n += 1;
        n == frames
    })
    .unwrap()
}

fn check_seen(seen: &[(u64, u64, bool)], frames: u64, abort: fn(u64) -> bool) {
    let want: Vec<u64> = (0..frames).filter(|&k| !abort(k)).collect();
    let got: Vec<u64> = seen.iter().map(|s| s.0).collect();
    assert_eq!(got, want, "frames out of order or lost");
    for &(k, sum, intact) in seen {
        assert_eq!(sum, expected_sum(k), "frame {k}: wrong data");
        assert!(
            intact,
            "frame {k}: the source's data did not cross two stages intact"
        );
    }
}

#[test]
fn order_is_preserved_under_duplication_in_every_mode() {
    // Under Miri 12 frames, as the other pipeline tests: 4 for each of 3 replicas.
    let frames = if cfg!(miri) { 12 } else { 300 };
    let mut modes = Vec::new();
    for copy in [false, true] {
        for wait in [Wait::Passive, Wait::Active] {
            for (shape, (replicas, buffer)) in [(1, 1), (3, 1), (2, 4)].into_iter().enumerate() {
                modes.push((copy, wait, replicas, buffer, shape));
            }
        }
    }
    if cfg!(miri) {
        // Miri spends ~3 s on each run, most of it starting threads and spinning: there the 6
        // runs in which every pair of (copy, wait, shape) values still meets once.
        modes.retain(|&(copy, wait, _, _, shape)| {
            (copy ^ (wait == Wait::Active)) == (shape % 2 == 1)
        });
    }
    for (copy, wait, replicas, buffer, _) in modes {
        let p = graph(|_| false);
        let mut pipe = PipelineBuilder::new(p.g)
            .stage([p.src])
            .replicated_stage(replicas, [p.work, p.check])
            .stage([p.sink])
            .copy(copy)
            .wait(wait)
            .buffer(buffer)
            .build()
            .unwrap();
        let r = run(&mut pipe, frames);
        assert_eq!((r.frames, r.aborted), (frames, 0));
        assert_eq!(r.stages[1].replicas, replicas);
        assert_eq!(r.stages[1].frames, frames);
        check_seen(&p.seen.lock().unwrap(), frames, |_| false);
    }
}

#[test]
fn a_replicated_stage_can_be_last_and_first() {
    // Work and check on 2 threads, each running the sink's successor... here: source then a
    // replicated stage that ends the pipeline (no order needed after it).
    // Under Miri (each frame interpreted), enough frames for every replica to take several.
    let frames = if cfg!(miri) { 12 } else { 50 };
    let p = graph(|_| false);
    let mut pipe = PipelineBuilder::new(p.g)
        .stage([p.src])
        .replicated_stage(3, [p.work])
        .stage([p.check.into(), p.sink])
        .build()
        .unwrap();
    run(&mut pipe, frames);
    check_seen(&p.seen.lock().unwrap(), frames, |_| false);

    // A replicated first stage (a duplicated sequence): frames still numbered in order.
    let mut g = TaskGraph::new();
    let t = g.stateless("square");
    let o = g.output::<u64>(t, "out", 1);
    let calls = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let c2 = calls.clone();
    g.codelet(t, move |_, io| {
        io.output(o)[0] = c2.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Status::Continue
    });
    let mut pipe = PipelineBuilder::new(g)
        .replicated_stage(2, [t.into()])
        .build()
        .unwrap();
    let frames = if cfg!(miri) { 12 } else { 100 };
    let r = run(&mut pipe, frames);
    assert_eq!(r.frames, frames);
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), frames);
}

#[test]
fn aborted_frames_skip_later_stages_and_keep_the_order() {
    let abort: fn(u64) -> bool = |k| k % 3 == 1;
    for copy in [false, true] {
        let p = graph(abort);
        let mut pipe = PipelineBuilder::new(p.g)
            .stage([p.src])
            .replicated_stage(2, [p.work, p.check])
            .stage([p.sink])
            .copy(copy)
            .build()
            .unwrap();
        // A third of the frames aborted; under Miri 12 of 60 (each frame interpreted).
        let frames = if cfg!(miri) { 12 } else { 60 };
        let r = run(&mut pipe, frames);
        assert_eq!((r.frames, r.aborted), (frames, frames / 3));
        check_seen(&p.seen.lock().unwrap(), frames, abort);
    }
}

#[test]
fn a_pipeline_can_run_again() {
    let p = graph(|_| false);
    let mut pipe = PipelineBuilder::new(p.g)
        .stage([p.src])
        .replicated_stage(2, [p.work, p.check])
        .stage([p.sink])
        .build()
        .unwrap();
    run(&mut pipe, 10);
    run(&mut pipe, 10);
    // The source's state carries on: frames 0..20 in order.
    check_seen(&p.seen.lock().unwrap(), 20, |_| false);
}

/// src -> for 4 { a; b } -> sink (records); returns the graph, the tasks by role and what the
/// sink saw (frame n gives n + 8).
#[allow(clippy::type_complexity)]
fn loop_graph() -> (
    TaskGraph,
    TaskId,
    Vec<CloneableTaskId>,
    TaskId,
    Arc<Mutex<Vec<u32>>>,
) {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("src", 0u32);
    let src = g.task(m, "src");
    let so = g.output::<u32>(src, "out", 1);
    g.codelet(src, move |n: &mut u32, io| {
        io.output(so)[0] = *n;
        *n += 1;
        Status::Continue
    });
    let sw = g.switcher::<u32>("loop", 2, 1);
    g.bind(sw.select_in(1), so).unwrap();
    let (it, p) = g.iterate("it", 4, sw.select_out()).unwrap();
    g.bind(sw.commute_in(), sw.select_out()).unwrap();
    g.bind(sw.commute_path(), p).unwrap();
    let mut body = Vec::new();
    let mut prev = sw.commute_out(0);
    for name in ["a", "b"] {
        let t = g.stateless(name);
        let (i, o) = (g.input::<u32>(t, "in", 1), g.output::<u32>(t, "out", 1));
        g.codelet(t, move |_, io| {
            io.output(o)[0] = io.input(i)[0] + 1;
            Status::Continue
        });
        g.bind(i, prev).unwrap();
        prev = o;
        body.push(CloneableTaskId::from(t));
    }
    g.bind(sw.select_in(0), prev).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let sink = g.sequential_module("sink", ());
    let k = g.task(sink, "sink");
    let ki = g.input::<u32>(k, "in", 1);
    g.codelet(k, move |_: &mut (), io| {
        s2.lock().unwrap().push(io.input(ki)[0]);
        Status::Continue
    });
    g.bind(ki, sw.commute_out(1)).unwrap();
    let mut stage = vec![sw.select_task(), sw.commute_task(), it.into()];
    stage.extend(body);
    (g, src.into(), stage, k.into(), seen)
}

#[test]
fn a_switcher_loop_runs_inside_a_replicated_stage() {
    let (g, src, stage, sink, seen) = loop_graph();
    let mut pipe = PipelineBuilder::new(g)
        .stage([src])
        .replicated_stage(2, stage)
        .stage([sink])
        .pin(0, vec![0]) // best effort
        .build()
        .unwrap();
    run(&mut pipe, 40);
    let want: Vec<u32> = (0..40).map(|n| n + 8).collect();
    assert_eq!(*seen.lock().unwrap(), want);
}

#[test]
fn a_plan_keeps_a_loop_in_one_stage() {
    let (g, ..) = loop_graph();
    let mut seq = Sequence::new(g).unwrap();
    seq.set_profiling(true);
    for _ in 0..20 {
        seq.exec_once().unwrap();
    }
    let profile = seq.profile();
    let plan = plan(&profile, 3);
    let (g, _, body, _, seen) = loop_graph();
    let body: Vec<TaskId> = body.into_iter().map(TaskId::from).collect();
    let holding = plan
        .stages
        .iter()
        .filter(|s| s.tasks.iter().any(|t| body.contains(t)))
        .count();
    assert_eq!(holding, 1, "{plan:?}");
    let mut pipe = PipelineBuilder::from_plan(g, &plan).build().unwrap();
    run(&mut pipe, 40);
    let want: Vec<u32> = (0..40).map(|n| n + 8).collect();
    assert_eq!(*seen.lock().unwrap(), want);
}

#[test]
fn plan_from_a_profile_builds_a_working_pipeline() {
    let p = graph(|_| false);
    let mut seq = Sequence::new(p.g).unwrap();
    seq.set_profiling(true);
    let mut n = 0;
    seq.exec(|| {
        n += 1;
        n == 50
    })
    .unwrap();
    let profile = seq.profile();
    let plan = plan(&profile, 4);
    assert!(!plan.stages.is_empty());
    assert_eq!(plan.stages.iter().map(|s| s.tasks.len()).sum::<usize>(), 4);
    assert!(plan.stages.iter().all(|s| s.replicas <= 4));
    assert!(plan.stages.iter().map(|s| s.replicas).sum::<usize>() <= 8);
    // A stage holding the source or the sink is never replicated.
    for s in &plan.stages {
        if s.tasks.contains(&p.src) || s.tasks.contains(&p.sink) {
            assert_eq!(s.replicas, 1);
        }
    }
    let p2 = graph(|_| false); // the same graph again, fresh state
    let mut pipe = PipelineBuilder::from_plan(p2.g, &plan).build().unwrap();
    run(&mut pipe, 50);
    check_seen(&p2.seen.lock().unwrap(), 50, |_| false);
}

#[test]
fn a_plan_that_replicates_a_sequential_module_is_refused() {
    let p = graph(|_| false);
    let plan = Plan {
        stages: vec![PlannedStage {
            tasks: vec![p.src, p.work.into(), p.check.into(), p.sink],
            replicas: 2,
            ns_per_frame: 0.0,
        }],
        frames_per_second: 0.0,
    };
    let e = PipelineBuilder::from_plan(p.g, &plan).build().unwrap_err();
    assert_eq!(
        e,
        BuildError::NotCloneable {
            stage: 0,
            task: "source".into()
        }
    );
}

#[test]
fn bad_stages_are_refused() {
    let p = graph(|_| false);
    let e = PipelineBuilder::new(p.g)
        .stage([p.src])
        .replicated_stage(2, [p.work, p.check])
        .build()
        .unwrap_err();
    assert_eq!(e, BuildError::StageMembership("sink".into()));
    let p = graph(|_| false);
    let e = PipelineBuilder::new(p.g)
        .stage([p.sink])
        .stage([p.src, p.work.into(), p.check.into()])
        .build()
        .unwrap_err();
    assert!(matches!(e, BuildError::OutsideSequence { .. }), "{e}");
}

#[test]
fn a_panicking_task_stops_the_pipeline_with_an_error() {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("src", 0u32);
    let src = g.task(m, "src");
    let so = g.output::<u32>(src, "out", 1);
    g.codelet(src, move |n: &mut u32, io| {
        io.output(so)[0] = *n;
        *n += 1;
        Status::Continue
    });
    let bad = g.stateless("bad");
    let bi = g.input::<u32>(bad, "in", 1);
    g.codelet(bad, move |_, io| {
        assert!(io.input(bi)[0] < 5, "frame 5 is bad");
        Status::Continue
    });
    g.bind(bi, so).unwrap();
    let mut pipe = PipelineBuilder::new(g)
        .stage([src.into()])
        .replicated_stage(2, [bad.into()])
        .build()
        .unwrap();
    let e = pipe.exec(|| false).unwrap_err();
    assert_eq!(
        e,
        ExecError::Panicked {
            stage: 1,
            task: "bad".into(),
            message: "frame 5 is bad".into()
        }
    );
}

#[allow(dead_code)]
fn _handles_are_copy(o: Out<u32>) -> (Out<u32>, Out<u32>) {
    (o, o)
}
