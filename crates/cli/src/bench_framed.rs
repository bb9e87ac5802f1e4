//! `radioflow bench tasks` and `radioflow bench pipeline`: the framed-execution experiments of
//! seed 003 (Table 1 / Fig. 5: the cost of the DSEL per task; Fig. 11: copy vs copy-less
//! pipeline adaptors, stage duplication).

use anyhow::{bail, Context};
use clap::Args;
use radioflow_bench::stats::summarize;
use radioflow_bench::Machine;
use radioflow_framed::{
    Graph, Out, Pipeline, PipelineBuilder, PipelineReport, Sequence, Status, Switcher, Wait,
};
use serde_json::json;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// `bench tasks`: MB1-MB4.
#[derive(Args, Clone)]
pub(crate) struct TasksArgs {
    /// Compute tasks per micro-benchmark and run (the paper: 1,125,000; accepts 1.125e6).
    #[arg(long, default_value = "1125000", value_parser = crate::bench::parse_count)]
    tasks: u64,
    /// Active-wait duration of a compute task in ns, comma separated (the paper: 4000; its
    /// Fig. 5 sweeps 1 to 100 µs). 0: the task only reads the clock once.
    #[arg(long, default_value = "0,1000")]
    task_ns: String,
}

/// `bench pipeline`: source -> heavy (duplicated) -> sink.
#[derive(Args, Clone)]
pub(crate) struct PipelineArgs {
    /// Frames per run (accepts 2e4).
    #[arg(long, default_value = "20000", value_parser = crate::bench::parse_count)]
    frames: u64,
    /// Samples (f32) per frame.
    #[arg(long, default_value_t = 4096)]
    frame: usize,
    /// FIR taps of the heavy stage (its cost per sample).
    #[arg(long, default_value_t = 32)]
    taps: usize,
    /// Frames per adaptor slot ring (per consumer replica). 4: with 2, four threads on two
    /// CPUs put a thread to sleep and wake it for almost every frame.
    #[arg(long, default_value_t = 4)]
    buffer: usize,
    /// Waiting on adaptors: passive or active.
    #[arg(long, default_value = "passive")]
    wait: String,
    /// Highest replica count of the heavy stage (default: the number of CPUs).
    #[arg(long)]
    max_replicas: Option<usize>,
    /// Pin the source to CPU 0, heavy replica i to CPU i, the sink to the last CPU.
    #[arg(long)]
    pin: bool,
}

/// The paper's compute task: an active wait of `ns` nanoseconds, then `x + 1`.
#[inline(never)]
fn compute(x: u32, ns: u64) -> u32 {
    let t0 = Instant::now();
    if ns > 0 {
        while (t0.elapsed().as_nanos() as u64) < ns {}
    }
    black_box(t0);
    x.wrapping_add(1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mb {
    Mb1,
    Mb2,
    Mb3,
    Mb4,
}

impl Mb {
    const ALL: [Mb; 4] = [Mb::Mb1, Mb::Mb2, Mb::Mb3, Mb::Mb4];

    fn name(self) -> &'static str {
        match self {
            Mb::Mb1 => "MB1",
            Mb::Mb2 => "MB2",
            Mb::Mb3 => "MB3",
            Mb::Mb4 => "MB4",
        }
    }

    /// Compute tasks per sequence execution (MB4: on average over the three paths).
    fn compute_per_exec(self) -> f64 {
        match self {
            Mb::Mb1 => 3.0,
            Mb::Mb2 | Mb::Mb3 => 30.0,
            Mb::Mb4 => 2.0,
        }
    }

    /// Select + commute + iterate tasks per execution.
    fn control_per_exec(self) -> u64 {
        match self {
            Mb::Mb1 => 0,
            Mb::Mb2 => 3 * 11,
            Mb::Mb3 => 3 * (2 * 6 + 3),
            Mb::Mb4 => 3,
        }
    }
}

/// A chain of `n` compute tasks from `input`; returns the last output.
fn chain(g: &mut Graph, name: &str, n: usize, mut input: Out<u32>, ns: u64) -> Out<u32> {
    for k in 0..n {
        let t = g.stateless(&format!("{name}{k}"));
        let i = g.input::<u32>(t, "in", 1);
        let o = g.output::<u32>(t, "out", 1);
        g.codelet(t, move |_, io| {
            io.output(o)[0] = compute(io.input(i)[0], ns);
            Status::Continue
        });
        g.bind(i, input).expect("same shape");
        input = o;
    }
    input
}

/// A `for` loop of `n` iterations entered with `input`; returns (switcher, body entry).
fn for_loop(g: &mut Graph, name: &str, n: u32, input: Out<u32>) -> Switcher<u32> {
    let sw = g.switcher::<u32>(name, 2, 1);
    g.bind(sw.select_in(1), input).expect("same shape");
    let (_, p) = g
        .iterate(&format!("{name}_it"), n, sw.select_out())
        .expect("same shape");
    g.bind(sw.commute_in(), sw.select_out())
        .expect("same shape");
    g.bind(sw.commute_path(), p).expect("same shape");
    sw
}

/// Builds MBk; returns the sequence, the input socket and the socket holding the result.
fn build_mb(mb: Mb, ns: u64) -> anyhow::Result<(Sequence, Out<u32>, Out<u32>)> {
    let mut g = Graph::new();
    let src = g.external::<u32>("input", 1);
    let result = match mb {
        Mb::Mb1 => chain(&mut g, "c", 3, src, ns),
        Mb::Mb2 => {
            let sw = for_loop(&mut g, "loop", 10, src);
            let end = chain(&mut g, "c", 3, sw.commute_out(0), ns);
            g.bind(sw.select_in(0), end)?;
            sw.commute_out(1)
        }
        Mb::Mb3 => {
            let outer = for_loop(&mut g, "outer", 2, src);
            let inner = for_loop(&mut g, "inner", 5, outer.commute_out(0));
            let end = chain(&mut g, "c", 3, inner.commute_out(0), ns);
            g.bind(inner.select_in(0), end)?;
            g.bind(outer.select_in(0), inner.commute_out(1))?;
            outer.commute_out(1)
        }
        Mb::Mb4 => {
            // An iterate task choosing paths 0, 1, 2, 0, ... (3, 2 and 1 compute tasks).
            let m = g.module("cycle", 0u32);
            let it = g.task(m, "cycle");
            let ii = g.input::<u32>(it, "in", 1);
            let io_ = g.output::<u32>(it, "path", 1);
            g.codelet(it, move |k: &mut u32, io| {
                io.output(io_)[0] = *k;
                *k = if *k == 2 { 0 } else { *k + 1 };
                Status::Continue
            });
            g.bind(ii, src)?;
            let sw = g.switcher::<u32>("switch", 3, 1);
            g.bind(sw.commute_in(), src)?;
            g.bind(sw.commute_path(), io_)?;
            for (k, n) in [3, 2, 1].into_iter().enumerate() {
                let end = chain(&mut g, &format!("p{k}c"), n, sw.commute_out(k), ns);
                g.bind(sw.select_in(k), end)?;
            }
            sw.select_out()
        }
    };
    Ok((Sequence::new(g)?, src, result))
}

/// The same compute calls in a plain loop.
#[inline(never)]
fn plain(mb: Mb, execs: u64, ns: u64) -> u32 {
    let mut last = 0;
    for e in 0..execs {
        let mut x = black_box(0u32);
        match mb {
            Mb::Mb1 => {
                for _ in 0..3 {
                    x = compute(x, ns);
                }
            }
            Mb::Mb2 => {
                for _ in 0..10 {
                    for _ in 0..3 {
                        x = compute(x, ns);
                    }
                }
            }
            Mb::Mb3 => {
                for _ in 0..2 {
                    for _ in 0..5 {
                        for _ in 0..3 {
                            x = compute(x, ns);
                        }
                    }
                }
            }
            Mb::Mb4 => {
                for _ in 0..3 - (e % 3) {
                    x = compute(x, ns);
                }
            }
        }
        last = black_box(x);
    }
    last
}

struct MbRun {
    seq_s: f64,
    plain_s: f64,
    verified: bool,
}

fn run_mb(mb: Mb, execs: u64, ns: u64) -> anyhow::Result<MbRun> {
    let (mut seq, src, result) = build_mb(mb, ns)?;
    seq.write(src)[0] = 0;
    let t = Instant::now();
    let want_plain = plain(mb, execs, ns);
    let plain_s = t.elapsed().as_secs_f64();
    let mut n = 0;
    let t = Instant::now();
    let r = seq.exec(|| {
        n += 1;
        n == execs
    })?;
    let seq_s = t.elapsed().as_secs_f64();
    // The last execution's result: the number of compute tasks it ran.
    let want = match mb {
        Mb::Mb4 => 3 - ((execs - 1) % 3) as u32,
        _ => mb.compute_per_exec() as u32,
    };
    let verified = r.frames == execs && seq.read(result)[0] == want && want_plain == want;
    Ok(MbRun {
        seq_s,
        plain_s,
        verified,
    })
}

pub(crate) fn tasks(a: TasksArgs, runs: usize, json: bool, quick: bool) -> anyhow::Result<()> {
    let total = if quick { 11_250 } else { a.tasks };
    let durations: Vec<u64> = a
        .task_ns
        .split(',')
        .map(|s| s.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .context("--task-ns: comma separated integers")?;
    let durations = if quick { vec![0] } else { durations };
    if !json {
        println!("machine: {}", Machine::detect());
        println!(
            "{total} compute tasks per micro-benchmark, {runs} runs (sequence and plain loop alternate); medians"
        );
    }
    let mut all_ok = true;
    for &ns in &durations {
        // Per run: MB1's overhead per compute task, used to split MB2-4's overhead.
        let mut per: Vec<Vec<(MbRun, f64)>> = (0..4).map(|_| Vec::new()).collect();
        for _ in 0..runs {
            let mut oc = 0.0;
            for (k, mb) in Mb::ALL.into_iter().enumerate() {
                let execs = (total as f64 / mb.compute_per_exec()).round() as u64;
                let m = run_mb(mb, execs, ns)?;
                let n_c = execs as f64 * mb.compute_per_exec();
                if mb == Mb::Mb1 {
                    oc = (m.seq_s - m.plain_s) * 1e9 / n_c;
                }
                per[k].push((m, oc));
            }
        }
        if !json {
            println!("\ncompute task: active wait of {ns} ns");
            println!(
                "{:<4} {:>10} {:>10} {:>10} {:>10} {:>12} {:>14} {:>10} {:>8}",
                "MB",
                "seq exec",
                "C tasks",
                "ctl tasks",
                "seq s",
                "plain s",
                "ns/C task",
                "ns/ctl",
                "ok"
            );
        }
        for (k, mb) in Mb::ALL.into_iter().enumerate() {
            let execs = (total as f64 / mb.compute_per_exec()).round() as u64;
            let n_c = (execs as f64 * mb.compute_per_exec()).round();
            let n_ctl = execs * mb.control_per_exec() / 3 * 3;
            let runs_k = &per[k];
            let med = |f: &dyn Fn(&(MbRun, f64)) -> f64| {
                summarize(&runs_k.iter().map(f).collect::<Vec<_>>()).map_or(f64::NAN, |s| s.median)
            };
            let global = med(&|(m, _)| (m.seq_s - m.plain_s) * 1e9 / n_c);
            let oc = med(&|(_, oc)| *oc);
            let ctl = (mb != Mb::Mb1)
                .then(|| med(&|(m, oc)| ((m.seq_s - m.plain_s) * 1e9 - n_c * oc) / n_ctl as f64));
            let seq_s = med(&|(m, _)| m.seq_s);
            let plain_s = med(&|(m, _)| m.plain_s);
            let ok = runs_k.iter().all(|(m, _)| m.verified);
            all_ok &= ok;
            if json {
                println!(
                    "{}",
                    json!({
                        "experiment": "tasks",
                        "benchmark": mb.name(),
                        "task_ns": ns,
                        "sequence_executions": execs,
                        "compute_tasks": n_c as u64,
                        "control_tasks": n_ctl,
                        "runs": runs,
                        "seq_s_median": seq_s,
                        "plain_s_median": plain_s,
                        "overhead_ns_per_task": oc,
                        "overhead_ns_per_control_task": ctl,
                        "global_overhead_ns_per_task": global,
                        "overhead_percent": 100.0 * (seq_s - plain_s) / plain_s,
                        "verified": ok,
                    })
                );
            } else {
                println!(
                    "{:<4} {:>10} {:>10} {:>10} {:>10.4} {:>12.4} {:>14.2} {:>10} {:>8}",
                    mb.name(),
                    execs,
                    n_c,
                    n_ctl,
                    seq_s,
                    plain_s,
                    if mb == Mb::Mb1 { oc } else { global },
                    ctl.map_or("-".into(), |c| format!("{c:.2}")),
                    if ok { "yes" } else { "NO" }
                );
            }
        }
        if !json {
            println!("(ns/C task: MB1's overhead per compute task; for MB2-4 the whole overhead per compute task; ns/ctl: overhead per select/commute/iterate task once MB1's per-task overhead is taken out)");
        }
    }
    if !all_ok {
        bail!("a micro-benchmark computed a wrong result");
    }
    Ok(())
}

/// Deterministic source samples of frame `k`.
fn sample(k: u64, i: usize, frame: usize) -> f32 {
    let v = ((k * frame as u64 + i as u64).wrapping_mul(2_654_435_761) & 0xffff) as f32;
    v / 65_536.0 - 0.5
}

fn taps_of(n: usize) -> Vec<f32> {
    (0..n).map(|k| 1.0 / (1.0 + k as f32)).collect()
}

/// The heavy stage: a circular FIR over the frame.
fn fir(x: &[f32], h: &[f32], y: &mut [f32]) {
    let n = x.len();
    for (i, y) in y.iter_mut().enumerate() {
        let mut acc = 0.0f32;
        for (k, h) in h.iter().enumerate() {
            let j = i + k;
            acc += h * x[if j >= n { j - n } else { j }];
        }
        *y = acc;
    }
}

/// A cheap fingerprint of a frame's samples (bit for bit): Fletcher-style sums over the f32 bit
/// patterns, about one cycle per sample, so the sink checks every frame without competing with
/// the heavy stage for the CPUs; the reference fingerprints are computed outside the timed run.
fn fingerprint(y: &[f32]) -> u64 {
    let (mut a, mut b) = (0u64, 0u64);
    for y in y {
        a = a.wrapping_add(u64::from(y.to_bits()));
        b = b.wrapping_add(a);
    }
    a ^ b.rotate_left(32)
}

/// The fingerprints of the first `frames` frames as the heavy stage must compute them, computed
/// once per invocation (outside the timed runs) and shared by every configuration.
struct Reference {
    taps: Vec<f32>,
    frame: usize,
    prints: Vec<u64>,
}

impl Reference {
    fn new(p: &PipelineArgs) -> Self {
        Self {
            taps: taps_of(p.taps),
            frame: p.frame,
            prints: Vec::new(),
        }
    }

    /// Whether `seen` are the fingerprints of frames 0, 1, 2, ... in order.
    fn matches(&mut self, seen: &[u64]) -> bool {
        let (mut x, mut y) = (vec![0.0; self.frame], vec![0.0; self.frame]);
        while self.prints.len() < seen.len() {
            let k = self.prints.len() as u64;
            for (i, x) in x.iter_mut().enumerate() {
                *x = sample(k, i, self.frame);
            }
            fir(&x, &self.taps, &mut y);
            self.prints.push(fingerprint(&y));
        }
        self.prints[..seen.len()] == *seen
    }
}

/// What the sink saw: whether the frame numbers came in order, how many frames came, and each
/// frame's fingerprint. Preallocated and written with plain atomic stores, so the sink neither
/// allocates nor locks while frames flow; read after the pipeline's threads are joined.
struct SinkLog {
    in_order: AtomicBool,
    seen: AtomicUsize,
    prints: Box<[AtomicU64]>,
}

impl SinkLog {
    fn new(frames: usize) -> Self {
        SinkLog {
            in_order: AtomicBool::new(true),
            seen: AtomicUsize::new(0),
            prints: (0..frames).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Records the next frame (frames beyond the expected count are only counted).
    fn record(&self, in_order: bool, print: u64) {
        let n = self.seen.fetch_add(1, Ordering::Relaxed);
        if let Some(slot) = self.prints.get(n) {
            slot.store(print, Ordering::Relaxed);
        }
        self.in_order.store(in_order, Ordering::Relaxed);
    }

    /// Whether exactly `frames` frames came, in order, with the reference's fingerprints.
    fn verified(&self, frames: u64, reference: &mut Reference) -> bool {
        let seen = self.seen.load(Ordering::Relaxed);
        let prints: Vec<u64> = self.prints[..seen.min(self.prints.len())]
            .iter()
            .map(|p| p.load(Ordering::Relaxed))
            .collect();
        self.in_order.load(Ordering::Relaxed) && seen as u64 == frames && reference.matches(&prints)
    }
}

#[derive(Clone)]
struct Heavy {
    taps: Vec<f32>,
}

struct Checker {
    next: u64,
    in_order: bool,
}

fn build_pipeline(
    p: &PipelineArgs,
    copy: bool,
    replicas: usize,
    wait: Wait,
    frames: u64,
) -> anyhow::Result<(Pipeline, Arc<SinkLog>)> {
    let f = p.frame;
    let mut g = Graph::new();
    let src = g.sequential_module("source", 0u64);
    let gen = g.task(src, "generate");
    let idx = g.output::<u64>(gen, "idx", 1);
    let data = g.output::<f32>(gen, "data", f);
    g.codelet(gen, move |k: &mut u64, io| {
        io.output(idx)[0] = *k;
        for (i, x) in io.output(data).iter_mut().enumerate() {
            *x = sample(*k, i, f);
        }
        *k += 1;
        Status::Continue
    });
    let heavy = g.module(
        "heavy",
        Heavy {
            taps: taps_of(p.taps),
        },
    );
    let filter = g.task(heavy, "filter");
    let hi = g.input::<f32>(filter, "in", f);
    let ho = g.output::<f32>(filter, "out", f);
    g.codelet(filter, move |h: &mut Heavy, io| {
        fir(io.input(hi), &h.taps, io.output(ho));
        Status::Continue
    });
    g.bind(hi, data)?;
    let result = Arc::new(SinkLog::new(usize::try_from(frames)?));
    let log = result.clone();
    let checker = g.sequential_module(
        "sink",
        Checker {
            next: 0,
            in_order: true,
        },
    );
    let check = g.task(checker, "check");
    let ci = g.input::<u64>(check, "idx", 1);
    let cy = g.input::<f32>(check, "y", f);
    g.codelet(check, move |c: &mut Checker, io| {
        let k = io.input(ci)[0];
        c.in_order &= k == c.next;
        c.next += 1;
        log.record(c.in_order, fingerprint(io.input(cy)));
        Status::Continue
    });
    g.bind(ci, idx)?; // crosses two stage boundaries
    g.bind(cy, ho)?;
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut b = PipelineBuilder::new(g)
        .stage([gen.into()])
        .replicated_stage(replicas, [filter.into()])
        .stage([check.into()])
        .copy(copy)
        .wait(wait)
        .buffer(p.buffer);
    if p.pin {
        b = b
            .pin(0, vec![0])
            .pin(1, (0..cpus).collect())
            .pin(2, vec![cpus - 1]);
    }
    Ok((b.build()?, result))
}

fn run_pipeline(
    p: &PipelineArgs,
    frames: u64,
    copy: bool,
    replicas: usize,
    wait: Wait,
    reference: &mut Reference,
) -> anyhow::Result<(PipelineReport, bool)> {
    let (mut pipe, result) = build_pipeline(p, copy, replicas, wait, frames)?;
    let mut n = 0;
    let report = pipe.exec(move || {
        n += 1;
        n == frames
    })?;
    drop(pipe);
    let ok = result.verified(frames, reference);
    Ok((report, ok))
}

pub(crate) fn pipeline(
    p: PipelineArgs,
    runs: usize,
    json: bool,
    quick: bool,
) -> anyhow::Result<()> {
    let wait = match p.wait.as_str() {
        "passive" => Wait::Passive,
        "active" => Wait::Active,
        w => bail!("--wait: '{w}' is not passive or active"),
    };
    let p = if quick {
        PipelineArgs {
            frame: p.frame.min(1024),
            ..p
        }
    } else {
        p
    };
    let frames = if quick { 200 } else { p.frames };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max_r = p.max_replicas.unwrap_or(cpus).max(1);
    let configs: Vec<(bool, usize)> = [false, true]
        .into_iter()
        .flat_map(|c| (1..=max_r).map(move |r| (c, r)))
        .collect();
    if !json {
        println!("machine: {}", Machine::detect());
        println!(
            "source (sequential) -> FIR {} taps over {} f32 (cloneable, x replicas) -> checking sink (sequential); {frames} frames, buffer {}, {:?} waiting, {runs} runs alternated; medians",
            p.taps, p.frame, p.buffer, wait
        );
    }
    let mut results: Vec<Vec<(PipelineReport, bool)>> = vec![Vec::new(); configs.len()];
    let mut reference = Reference::new(&p);
    for _ in 0..runs {
        for (i, &(copy, r)) in configs.iter().enumerate() {
            results[i].push(run_pipeline(&p, frames, copy, r, wait, &mut reference)?);
        }
    }
    let mut all_ok = true;
    let mut base_fps = [f64::NAN; 2];
    if !json {
        println!(
            "{:<9} {:>8} {:>12} {:>8}   {:<54} {:>8}",
            "mode",
            "replicas",
            "frames/s",
            "speedup",
            "per stage: wait / copy / work (% of thread time)",
            "verified"
        );
    }
    for (i, &(copy, r)) in configs.iter().enumerate() {
        let rs = &results[i];
        let fps: Vec<f64> = rs
            .iter()
            .map(|(m, _)| m.frames as f64 / m.seconds)
            .collect();
        let s = summarize(&fps).expect("runs >= 1");
        // The run whose throughput is the median one, for the shares.
        let mid = fps
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - s.median).abs().total_cmp(&(b.1 - s.median).abs()))
            .map_or(0, |(k, _)| k);
        let rep = &rs[mid].0;
        let ok = rs.iter().all(|(_, ok)| *ok);
        all_ok &= ok;
        if r == 1 {
            base_fps[usize::from(copy)] = s.median;
        }
        let speedup = s.median / base_fps[usize::from(copy)];
        let names = ["source", "heavy", "sink"];
        let shares: Vec<serde_json::Value> = rep
            .stages
            .iter()
            .zip(names)
            .map(|(st, name)| {
                let w = st.wall_s.max(1e-12);
                json!({
                    "stage": name,
                    "replicas": st.replicas,
                    "wait": st.wait_s / w,
                    "copy": st.copy_s / w,
                    "work": st.work_s / w,
                })
            })
            .collect();
        let mode = if copy { "copy" } else { "copyless" };
        if json {
            println!(
                "{}",
                json!({
                    "experiment": "pipeline",
                    "mode": mode,
                    "replicas": r,
                    "frames": frames,
                    "frame_samples": p.frame,
                    "taps": p.taps,
                    "buffer": p.buffer,
                    "wait": p.wait,
                    "runs": runs,
                    "frames_per_second": s.median,
                    "frames_per_second_mean": s.mean,
                    "frames_per_second_ci95": s.ci95,
                    "speedup": speedup,
                    "stages": shares,
                    "verified": ok,
                })
            );
        } else {
            let per: Vec<String> = rep
                .stages
                .iter()
                .map(|st| {
                    let w = st.wall_s.max(1e-12);
                    format!(
                        "{:.0}/{:.0}/{:.0}",
                        100.0 * st.wait_s / w,
                        100.0 * st.copy_s / w,
                        100.0 * st.work_s / w
                    )
                })
                .collect();
            println!(
                "{:<9} {:>8} {:>12.0} {:>8.2}   {:<54} {:>8}",
                mode,
                r,
                s.median,
                speedup,
                per.join("  "),
                if ok { "yes" } else { "NO" }
            );
        }
    }
    if !json {
        for r in 1..=max_r {
            let get = |copy: bool| {
                configs
                    .iter()
                    .position(|&c| c == (copy, r))
                    .and_then(|i| {
                        let fps: Vec<f64> = results[i]
                            .iter()
                            .map(|(m, _)| m.frames as f64 / m.seconds)
                            .collect();
                        summarize(&fps).map(|s| s.median)
                    })
                    .unwrap_or(f64::NAN)
            };
            println!(
                "replicas {r}: copy-less / copy = {:.2}",
                get(false) / get(true)
            );
        }
    }
    if !all_ok {
        bail!("the pipeline lost, reordered or corrupted frames");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        p: PipelineArgs,
    }

    fn args(frame: usize, taps: usize) -> PipelineArgs {
        let frame = frame.to_string();
        let taps = taps.to_string();
        Cli::parse_from(["x", "--frame", &frame, "--taps", &taps]).p
    }

    /// What the heavy stage computes for frame `k`.
    fn heavy_output(p: &PipelineArgs, k: u64) -> Vec<f32> {
        let x: Vec<f32> = (0..p.frame).map(|i| sample(k, i, p.frame)).collect();
        let mut y = vec![0.0; p.frame];
        fir(&x, &taps_of(p.taps), &mut y);
        y
    }

    #[test]
    fn the_reference_accepts_the_right_frames_and_refuses_wrong_ones() {
        let p = args(256, 8);
        let mut r = Reference::new(&p);
        let good: Vec<u64> = (0..6).map(|k| fingerprint(&heavy_output(&p, k))).collect();
        assert!(r.matches(&good));
        assert!(r.matches(&good[..3]), "a prefix of the right frames");
        let mut swapped = good.clone();
        swapped.swap(2, 3);
        assert!(!r.matches(&swapped), "two frames out of order");
        for i in [0, 17, 255] {
            let mut y = heavy_output(&p, 4);
            y[i] = f32::from_bits(y[i].to_bits() ^ 1);
            let mut bad = good.clone();
            bad[4] = fingerprint(&y);
            assert!(!r.matches(&bad), "one bit flipped in sample {i} of frame 4");
        }
        let mut moved = heavy_output(&p, 1);
        moved.swap(10, 11);
        let mut bad = good.clone();
        bad[1] = fingerprint(&moved);
        assert!(!r.matches(&bad), "two samples swapped inside frame 1");
    }

    #[test]
    fn a_pipeline_run_verifies_on_every_mode() {
        let p = args(512, 4);
        let mut r = Reference::new(&p);
        for copy in [false, true] {
            for replicas in [1, 2] {
                let (_, ok) = run_pipeline(&p, 50, copy, replicas, Wait::Passive, &mut r).unwrap();
                assert!(ok, "copy {copy}, {replicas} replicas");
            }
        }
    }
}
