//! Sequences: schedule order, loops and switches choosing paths from data, early exit,
//! construction errors, profiling.

use radioflow_framed::{BuildError, ExecError, In, Out, Sequence, Status, TaskGraph, TaskId};
use std::sync::{Arc, Mutex};

/// A stateless task `out[i] = f(in[i])` over `len` u32s.
fn map(
    g: &mut TaskGraph,
    name: &str,
    len: usize,
    f: fn(u32) -> u32,
) -> (TaskId, In<u32>, Out<u32>) {
    let t = g.stateless(name);
    let i = g.input::<u32>(t, "in", len);
    let o = g.output::<u32>(t, "out", len);
    g.codelet(t, move |_, io| {
        for (o, i) in io.output(o).iter_mut().zip(io.input(i)) {
            *o = f(*i);
        }
        Status::Continue
    });
    (t.into(), i, o)
}

/// A source writing 0, 1, 2, ... (one value per frame) into `len` u32s.
fn counter(g: &mut TaskGraph, name: &str, len: usize) -> (TaskId, Out<u32>) {
    let m = g.sequential_module(name, 0u32);
    let t = g.task(m, name);
    let o = g.output::<u32>(t, "out", len);
    g.codelet(t, move |n: &mut u32, io| {
        io.output(o).fill(*n);
        *n += 1;
        Status::Continue
    });
    (t.into(), o)
}

#[test]
fn chain_runs_in_binding_order_until_stop() {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "t1", 8);
    let (_, i2, o2) = map(&mut g, "t2", 8, |x| x + 1);
    let (_, i3, o3) = map(&mut g, "t3", 8, |x| x * 10);
    let (_, i4, o4) = map(&mut g, "t4", 8, |x| x + 7);
    g.bind(i2, c).unwrap();
    g.bind(i3, o2).unwrap();
    g.bind(i4, o3).unwrap();
    let mut seq = Sequence::new(g).unwrap();
    assert_eq!(seq.order(), ["t1", "t2", "t3", "t4"]);
    let mut n = 0;
    let r = seq
        .exec(|| {
            n += 1;
            n >= 100
        })
        .unwrap();
    assert_eq!((r.frames, r.aborted), (100, 0));
    assert_eq!(seq.read(o4), &[(99 + 1) * 10 + 7; 8]);
}

#[test]
fn first_and_last_tasks_bound_the_sequence() {
    // The paper's Fig. 2: first tasks t1 and t3, last tasks t5 and t6; t7, t8 left out.
    let mut g = TaskGraph::new();
    let (t1, c1) = counter(&mut g, "t1", 2);
    let (t3, c3) = counter(&mut g, "t3", 2);
    let (_, i2, o2) = map(&mut g, "t2", 2, |x| x + 1);
    let t4 = g.stateless("t4");
    let (a, b) = (g.input::<u32>(t4, "in1", 2), g.input::<u32>(t4, "in2", 2));
    let o4 = g.output::<u32>(t4, "out", 2);
    g.codelet(t4, move |_, io| {
        let (a, b) = (io.input(a), io.input(b));
        for (k, o) in io.output(o4).iter_mut().enumerate() {
            *o = a[k] + b[k];
        }
        Status::Continue
    });
    let (t5, i5, o5) = map(&mut g, "t5", 2, |x| x * 2);
    let (t6, i6, o6) = map(&mut g, "t6", 2, |x| x * 3);
    let (_, i7, _) = map(&mut g, "t7", 2, |x| x);
    let (_, i8, _) = map(&mut g, "t8", 2, |x| x);
    g.bind(i2, c1).unwrap();
    g.bind(a, o2).unwrap();
    g.bind(b, c3).unwrap();
    g.bind(i5, o4).unwrap();
    g.bind(i6, o4).unwrap();
    g.bind(i7, o5).unwrap();
    g.bind(i8, o6).unwrap();
    let mut seq = Sequence::with_bounds(g, &[t1, t3], &[t5, t6]).unwrap();
    assert_eq!(seq.order(), ["t1", "t2", "t3", "t4", "t5", "t6"]);
    seq.exec_once().unwrap();
    seq.exec_once().unwrap();
    // Second frame: t1 = 1, t3 = 1 -> t4 = (1 + 1) + 1 = 3.
    assert_eq!(seq.read(o5), &[6, 6]);
    assert_eq!(seq.read(o6), &[9, 9]);
}

/// Builds: counter -> while (x < limit(frame)) { x = x + 1 (two tasks) } -> sink, where the
/// loop count depends on the data. Returns the graph, the sink output and a body counter.
fn data_loop() -> (TaskGraph, Out<u32>, Arc<Mutex<u32>>) {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 1);
    let sw = g.switcher::<u32>("loop", 2, 1);
    g.bind(sw.select_in(1), c).unwrap();
    // Control: loop while value % 10 < 5 (a frame starting at n does 5 - n % 10 rounds).
    let ctl = g.stateless("ctl");
    let ci = g.input::<u32>(ctl, "in", 1);
    let co = g.output::<u32>(ctl, "path", 1);
    g.codelet(ctl, move |_, io| {
        io.output(co)[0] = u32::from(io.input(ci)[0] % 10 >= 5);
        Status::Continue
    });
    g.bind(ci, sw.select_out()).unwrap();
    g.bind(sw.commute_in(), sw.select_out()).unwrap();
    g.bind(sw.commute_path(), co).unwrap();
    let body = Arc::new(Mutex::new(0));
    let b2 = body.clone();
    let inc = g.stateless("inc");
    let ii = g.input::<u32>(inc, "in", 1);
    let io_ = g.output::<u32>(inc, "out", 1);
    g.codelet(inc, move |_, io| {
        *b2.lock().unwrap() += 1;
        io.output(io_)[0] = io.input(ii)[0] + 1;
        Status::Continue
    });
    let (_, pi, po) = map(&mut g, "pass", 1, |x| x);
    g.bind(ii, sw.commute_out(0)).unwrap();
    g.bind(pi, io_).unwrap();
    g.bind(sw.select_in(0), po).unwrap();
    let (_, si, so) = map(&mut g, "sink", 1, |x| x);
    g.bind(si, sw.commute_out(1)).unwrap();
    (g, so, body)
}

#[test]
fn loop_iterations_follow_the_data() {
    let (g, out, body) = data_loop();
    let mut seq = Sequence::new(g).unwrap();
    assert_eq!(
        seq.order(),
        [
            "src",
            "loop::select",
            "ctl",
            "loop::commute",
            "inc",
            "pass",
            "sink"
        ]
    );
    let mut expect_body = 0;
    for n in 0..12u32 {
        assert_eq!(seq.exec_once().unwrap(), Status::Continue);
        let rounds = 5u32.saturating_sub(n % 10);
        expect_body += rounds;
        assert_eq!(seq.read(out), &[n + rounds], "frame {n}");
    }
    assert_eq!(*body.lock().unwrap(), expect_body);
}

#[test]
fn nested_for_loops_run_inner_times_outer() {
    // for 2 { for 5 { body } }: body runs 10 times per frame.
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 1);
    let outer = g.switcher::<u32>("outer", 2, 1);
    g.bind(outer.select_in(1), c).unwrap();
    let (_, oi) = g.iterate("outer_it", 2, outer.select_out()).unwrap();
    g.bind(outer.commute_in(), outer.select_out()).unwrap();
    g.bind(outer.commute_path(), oi).unwrap();
    let inner = g.switcher::<u32>("inner", 2, 1);
    g.bind(inner.select_in(1), outer.commute_out(0)).unwrap();
    let (_, ii) = g.iterate("inner_it", 5, inner.select_out()).unwrap();
    g.bind(inner.commute_in(), inner.select_out()).unwrap();
    g.bind(inner.commute_path(), ii).unwrap();
    let (_, a_in, a_out) = map(&mut g, "add", 1, |x| x + 1);
    let (_, b_in, b_out) = map(&mut g, "pass", 1, |x| x);
    g.bind(a_in, inner.commute_out(0)).unwrap();
    g.bind(b_in, a_out).unwrap();
    g.bind(inner.select_in(0), b_out).unwrap();
    // Inner exit -> back to the outer select.
    let (_, x_in, x_out) = map(&mut g, "between", 1, |x| x + 100);
    let (_, y_in, y_out) = map(&mut g, "between2", 1, |x| x);
    g.bind(x_in, inner.commute_out(1)).unwrap();
    g.bind(y_in, x_out).unwrap();
    g.bind(outer.select_in(0), y_out).unwrap();
    let (_, s_in, s_out) = map(&mut g, "sink", 1, |x| x);
    g.bind(s_in, outer.commute_out(1)).unwrap();
    let mut seq = Sequence::new(g).unwrap();
    for n in 0..3 {
        seq.exec_once().unwrap();
        assert_eq!(seq.read(s_out), &[n + 2 * (5 + 100)]);
    }
}

#[test]
fn switch_takes_the_path_the_data_chooses() {
    // t1 counts; path = value % 3; path k adds 10^k through 3 - k tasks; merge -> sink.
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "t1", 4);
    let (_, pi, po) = map(&mut g, "t2", 1, |x| x % 3);
    let pick = g.stateless("pick");
    let (ki, ko) = (
        g.input::<u32>(pick, "in", 4),
        g.output::<u32>(pick, "out", 1),
    );
    g.codelet(pick, move |_, io| {
        io.output(ko)[0] = io.input(ki)[0];
        Status::Continue
    });
    g.bind(ki, c).unwrap();
    g.bind(pi, ko).unwrap();
    let sw = g.switcher::<u32>("sw", 3, 4);
    g.bind(sw.commute_in(), c).unwrap();
    g.bind(sw.commute_path(), po).unwrap();
    for (k, (tasks, add)) in [(3, 1u32), (2, 10), (1, 100)].into_iter().enumerate() {
        let mut prev = sw.commute_out(k);
        for j in 0..tasks {
            let f: fn(u32) -> u32 = match (add, j) {
                (1, 0) => |x| x + 1,
                (10, 0) => |x| x + 10,
                (100, 0) => |x| x + 100,
                _ => |x| x,
            };
            let (_, i, o) = map(&mut g, &format!("p{k}_{j}"), 4, f);
            g.bind(i, prev).unwrap();
            prev = o;
        }
        g.bind(sw.select_in(k), prev).unwrap();
    }
    let (_, si, so) = map(&mut g, "sink", 4, |x| x);
    g.bind(si, sw.select_out()).unwrap();
    let mut seq = Sequence::new(g).unwrap();
    assert_eq!(
        seq.order(),
        [
            "t1",
            "pick",
            "t2",
            "sw::commute",
            "p0_0",
            "p0_1",
            "p0_2",
            "p1_0",
            "p1_1",
            "p2_0",
            "sw::select",
            "sink"
        ]
    );
    for n in 0..9u32 {
        seq.exec_once().unwrap();
        let want = n + [1, 10, 100][(n % 3) as usize];
        assert_eq!(seq.read(so), &[want; 4], "frame {n}");
    }
}

#[test]
fn abort_drops_the_rest_of_the_frame() {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 1);
    let gate = g.stateless("gate");
    let (gi, go) = (
        g.input::<u32>(gate, "in", 1),
        g.output::<u32>(gate, "out", 1),
    );
    g.codelet(gate, move |_, io| {
        let v = io.input(gi)[0];
        if v % 2 == 1 {
            return Status::Abort;
        }
        io.output(go)[0] = v;
        Status::Continue
    });
    g.bind(gi, c).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let sink = g.stateless("sink");
    let si = g.input::<u32>(sink, "in", 1);
    g.codelet(sink, move |_, io| {
        s2.lock().unwrap().push(io.input(si)[0]);
        Status::Continue
    });
    g.bind(si, go).unwrap();
    let mut seq = Sequence::new(g).unwrap();
    let mut n = 0;
    let r = seq
        .exec(|| {
            n += 1;
            n == 10
        })
        .unwrap();
    assert_eq!((r.frames, r.aborted), (10, 5));
    assert_eq!(*seen.lock().unwrap(), [0, 2, 4, 6, 8]);
}

#[test]
fn bad_bindings_are_refused_naming_the_sockets() {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 4);
    let t = g.stateless("dst");
    let short = g.input::<u32>(t, "short", 3);
    let floats = g.input::<f32>(t, "floats", 4);
    g.codelet(t, |_, _| Status::Continue);
    assert_eq!(
        g.bind(short, c).unwrap_err().to_string(),
        "cannot bind dst::short (3 elements) to src::out (4 elements)"
    );
    let err = g.bind_names("dst::floats", "src::out").unwrap_err();
    assert!(matches!(err, BuildError::TypeMismatch { .. }), "{err}");
    assert!(err.to_string().contains("dst::floats (f32)"), "{err}");
    assert!(err.to_string().contains("src::out (u32)"), "{err}");
    assert_eq!(
        g.bind_names("dst::nothing", "src::out").unwrap_err(),
        BuildError::UnknownSocket("dst::nothing".into())
    );
    let _ = floats;
    // Unbound inputs are refused when the sequence is built.
    assert_eq!(
        Sequence::new(g).unwrap_err(),
        BuildError::Unbound("dst::short".into())
    );
}

#[test]
fn double_binding_missing_codelet_and_cycles_are_refused() {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 1);
    let (_, i, _) = map(&mut g, "a", 1, |x| x);
    g.bind(i, c).unwrap();
    let e = g.bind(i, c).unwrap_err();
    assert_eq!(e.to_string(), "input a::in is already bound to src::out");

    let mut g = TaskGraph::new();
    let t = g.stateless("lazy");
    let _ = g.output::<u32>(t, "out", 1);
    assert_eq!(
        Sequence::new(g).unwrap_err(),
        BuildError::NoCodelet("lazy".into())
    );

    // A cycle not closed by a switcher never becomes ready.
    let mut g = TaskGraph::new();
    let (_, ai, ao) = map(&mut g, "a", 1, |x| x);
    let (_, bi, bo) = map(&mut g, "b", 1, |x| x);
    g.bind(ai, bo).unwrap();
    g.bind(bi, ao).unwrap();
    assert_eq!(
        Sequence::new(g).unwrap_err(),
        BuildError::Unreachable("a".into())
    );
}

#[test]
fn a_loop_body_of_one_task_reading_its_own_output_is_refused() {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 1);
    let sw = g.switcher::<u32>("sw", 2, 1);
    g.bind(sw.select_in(1), c).unwrap();
    let (_, p) = g.iterate("it", 3, sw.select_out()).unwrap();
    g.bind(sw.commute_in(), sw.select_out()).unwrap();
    g.bind(sw.commute_path(), p).unwrap();
    let (_, i, o) = map(&mut g, "inc", 1, |x| x + 1);
    g.bind(i, sw.commute_out(0)).unwrap();
    g.bind(sw.select_in(0), o).unwrap();
    assert_eq!(
        Sequence::new(g).unwrap_err(),
        BuildError::ReadsOwnOutput {
            input: "inc::in".into(),
            output: "inc::out".into()
        }
    );
}

#[test]
fn a_path_out_of_range_is_an_error_naming_the_switcher() {
    let mut g = TaskGraph::new();
    let (_, c) = counter(&mut g, "src", 1);
    let sw = g.switcher::<u32>("sw", 2, 1);
    g.bind(sw.commute_in(), c).unwrap();
    g.bind(sw.commute_path(), c).unwrap(); // frame 2 asks for path 2
    for k in 0..2 {
        let (_, i, o) = map(&mut g, &format!("p{k}"), 1, |x| x);
        g.bind(i, sw.commute_out(k)).unwrap();
        g.bind(sw.select_in(k), o).unwrap();
    }
    let mut seq = Sequence::new(g).unwrap();
    seq.exec_once().unwrap();
    seq.exec_once().unwrap();
    assert_eq!(
        seq.exec_once().unwrap_err(),
        ExecError::PathOutOfRange {
            switcher: "sw".into(),
            path: 2,
            paths: 2
        }
    );
}

#[test]
fn profile_counts_every_execution() {
    let (g, _, _) = data_loop();
    let mut seq = Sequence::new(g).unwrap();
    seq.set_profiling(true);
    for _ in 0..10 {
        seq.exec_once().unwrap();
    }
    let p = seq.profile();
    assert_eq!(p.frames, 10);
    let count = |name: &str| p.tasks.iter().find(|t| t.name == name).unwrap().stats.count;
    assert_eq!(count("src"), 10);
    // Frames 0..10 loop 5, 4, 3, 2, 1, 0, 0, 0, 0, 0 times = 15 body rounds.
    assert_eq!(count("inc"), 15);
    assert_eq!(count("loop::select"), 25);
    assert_eq!(count("loop::commute"), 25);
    let table = p.table(1000.0);
    assert!(
        table.lines().count() >= 6 && table.contains("inc"),
        "{table}"
    );
}
