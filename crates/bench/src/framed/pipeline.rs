//! `bench pipeline`: a framed pipeline, source (sequential) -> heavy FIR stage (cloneable,
//! duplicated) -> checking sink (sequential), with copy and copy-less adaptors (Cassagne et al.
//! 2023, Fig. 11). The sink fingerprints every frame; a run is verified when every frame came, in
//! order, bit for bit as a reference computes it outside the timed runs.

use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::stats::{summarize, Summary};
use crate::values;
use clap::Args;
use radioflow_framed::{Pipeline, PipelineBuilder, PipelineReport, Status, TaskGraph, Wait};
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// The pipeline's size and adaptors.
#[derive(Clone, Copy, Debug)]
pub struct PipelineParams {
    /// Frames per run.
    pub frames: u64,
    /// Samples (f32) per frame.
    pub frame: usize,
    /// FIR taps of the heavy stage (its cost per sample).
    pub taps: usize,
    /// Frames per adaptor slot ring (per consumer replica).
    pub buffer: usize,
    /// Waiting on adaptors.
    pub wait: Wait,
    /// Highest replica count of the heavy stage (`None`: the number of CPUs).
    pub max_replicas: Option<usize>,
    /// Pin the source to CPU 0, heavy replica i to CPU i, the sink to the last CPU.
    pub pin: bool,
}

impl PipelineParams {
    /// Highest replica count measured.
    pub fn max_replicas(&self) -> usize {
        self.max_replicas.unwrap_or_else(cpus).max(1)
    }
}

fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `passive` or `active`.
pub fn wait_name(w: Wait) -> &'static str {
    match w {
        Wait::Passive => "passive",
        Wait::Active => "active",
    }
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

/// The fingerprints of the first frames as the heavy stage must compute them, computed once
/// per invocation (outside the timed runs) and shared by every configuration.
struct Reference {
    taps: Vec<f32>,
    frame: usize,
    prints: Vec<u64>,
}

impl Reference {
    fn new(p: &PipelineParams) -> Self {
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
    p: &PipelineParams,
    copy: bool,
    replicas: usize,
) -> Result<(Pipeline, Arc<SinkLog>), BenchError> {
    let f = p.frame;
    let mut g = TaskGraph::new();
    let src = g.sequential_module("source", 0u64);
    let generate = g.task(src, "generate");
    let idx = g.output::<u64>(generate, "idx", 1);
    let data = g.output::<f32>(generate, "data", f);
    g.codelet(generate, move |k: &mut u64, io| {
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
    let frames = usize::try_from(p.frames)
        .map_err(|_| BenchError::Params(format!("{} frames do not fit in memory", p.frames)))?;
    let result = Arc::new(SinkLog::new(frames));
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
    let cpus = cpus();
    let mut b = PipelineBuilder::new(g)
        .stage([generate.into()])
        .replicated_stage(replicas, [filter.into()])
        .stage([check.into()])
        .copy(copy)
        .wait(p.wait)
        .buffer(p.buffer);
    if p.pin {
        b = b
            .pin(0, vec![0])
            .pin(1, (0..cpus).collect())
            .pin(2, vec![cpus - 1]);
    }
    Ok((b.build()?, result))
}

/// One run of `p.frames` frames; returns the pipeline's report and whether it verified.
fn run_pipeline(
    p: &PipelineParams,
    copy: bool,
    replicas: usize,
    reference: &mut Reference,
) -> Result<(PipelineReport, bool), BenchError> {
    let (mut pipe, result) = build_pipeline(p, copy, replicas)?;
    let frames = p.frames;
    let mut n = 0;
    let report = pipe.exec(move || {
        n += 1;
        n == frames
    })?;
    drop(pipe);
    let ok = result.verified(frames, reference);
    Ok((report, ok))
}

/// Shares of a stage's thread time (of the run with the median throughput).
#[derive(Clone, Copy, Debug)]
pub struct StageShare {
    /// `source`, `heavy` or `sink`.
    pub stage: &'static str,
    /// Threads of the stage.
    pub replicas: usize,
    /// Share waiting on adaptors (0-1).
    pub wait: f64,
    /// Share copying frames (0-1).
    pub copy: f64,
    /// Share in the codelets (0-1).
    pub work: f64,
}

/// One configuration's throughput over the runs.
#[derive(Clone, Debug)]
pub struct PipelineResult {
    /// Copying adaptors (else copy-less).
    pub copy: bool,
    /// Replicas of the heavy stage.
    pub replicas: usize,
    /// Frames per second over the runs.
    pub frames_per_second: Summary,
    /// Median throughput over the same mode's with one replica.
    pub speedup: f64,
    /// Per stage, the shares of the run whose throughput is the median one.
    pub stages: Vec<StageShare>,
    /// Every run delivered every frame, in order, bit for bit.
    pub verified: bool,
}

impl PipelineResult {
    /// `copy` or `copyless`.
    pub fn mode(&self) -> &'static str {
        if self.copy {
            "copy"
        } else {
            "copyless"
        }
    }

    /// The JSON line of `bench pipeline --json`.
    pub fn to_json(&self, p: &PipelineParams, runs: usize) -> serde_json::Value {
        let shares: Vec<serde_json::Value> = self
            .stages
            .iter()
            .map(|s| {
                json!({
                    "stage": s.stage,
                    "replicas": s.replicas,
                    "wait": s.wait,
                    "copy": s.copy,
                    "work": s.work,
                })
            })
            .collect();
        let s = &self.frames_per_second;
        json!({
            "experiment": "pipeline",
            "mode": self.mode(),
            "replicas": self.replicas,
            "frames": p.frames,
            "frame_samples": p.frame,
            "taps": p.taps,
            "buffer": p.buffer,
            "wait": wait_name(p.wait),
            "runs": runs,
            "frames_per_second": s.median,
            "frames_per_second_mean": s.mean,
            "frames_per_second_ci95": s.ci95,
            "speedup": self.speedup,
            "stages": shares,
            "verified": self.verified,
        })
    }
}

/// Every configuration's result: copy-less then copy, 1 to `max_replicas` replicas each.
#[derive(Clone, Debug)]
pub struct PipelineStudy {
    /// One entry per configuration.
    pub results: Vec<PipelineResult>,
}

impl PipelineStudy {
    /// Median throughput copy-less over copy with `replicas` replicas (NaN if not measured).
    pub fn copyless_over_copy(&self, replicas: usize) -> f64 {
        let get = |copy: bool| {
            self.results
                .iter()
                .find(|r| r.copy == copy && r.replicas == replicas)
                .map_or(f64::NAN, |r| r.frames_per_second.median)
        };
        get(false) / get(true)
    }

    /// Every run of every configuration verified.
    pub fn verified(&self) -> bool {
        self.results.iter().all(|r| r.verified)
    }
}

/// Runs every configuration `runs` times, alternated run by run.
///
/// # Errors
///
/// A pipeline failed to build or run.
pub fn measure(p: &PipelineParams, runs: usize) -> Result<PipelineStudy, BenchError> {
    let configs: Vec<(bool, usize)> = [false, true]
        .into_iter()
        .flat_map(|c| (1..=p.max_replicas()).map(move |r| (c, r)))
        .collect();
    let mut reports: Vec<Vec<(PipelineReport, bool)>> = vec![Vec::new(); configs.len()];
    let mut reference = Reference::new(p);
    for _ in 0..runs {
        for (i, &(copy, r)) in configs.iter().enumerate() {
            reports[i].push(run_pipeline(p, copy, r, &mut reference)?);
        }
    }
    let mut base_fps = [f64::NAN; 2];
    let results = configs
        .iter()
        .zip(&reports)
        .map(|(&(copy, replicas), rs)| {
            let mut r = summarize_config(copy, replicas, rs);
            if replicas == 1 {
                base_fps[usize::from(copy)] = r.frames_per_second.median;
            }
            r.speedup = r.frames_per_second.median / base_fps[usize::from(copy)];
            r
        })
        .collect();
    Ok(PipelineStudy { results })
}

/// One configuration's runs summarized (the speedup is filled in by the caller).
fn summarize_config(copy: bool, replicas: usize, rs: &[(PipelineReport, bool)]) -> PipelineResult {
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
    let stages = rs[mid]
        .0
        .stages
        .iter()
        .zip(["source", "heavy", "sink"])
        .map(|(st, stage)| {
            let w = st.wall_s.max(1e-12);
            StageShare {
                stage,
                replicas: st.replicas,
                wait: st.wait_s / w,
                copy: st.copy_s / w,
                work: st.work_s / w,
            }
        })
        .collect();
    PipelineResult {
        copy,
        replicas,
        frames_per_second: s,
        speedup: f64::NAN,
        stages,
        verified: rs.iter().all(|(_, ok)| *ok),
    }
}

/// `bench pipeline`: source -> heavy (duplicated) -> sink.
#[derive(Args, Clone)]
pub(crate) struct PipelineArgs {
    /// Frames per run (accepts 2e4).
    #[arg(long, default_value = "20000", value_parser = values::count, allow_negative_numbers = true)]
    frames: u64,
    /// Samples (f32) per frame.
    #[arg(long, default_value = "4096", value_parser = values::small, allow_negative_numbers = true)]
    frame: usize,
    /// FIR taps of the heavy stage (its cost per sample).
    #[arg(long, default_value = "32", value_parser = values::small, allow_negative_numbers = true)]
    taps: usize,
    /// Frames per adaptor slot ring (per consumer replica). 4: with 2, four threads on two
    /// CPUs put a thread to sleep and wake it for almost every frame.
    #[arg(long, default_value = "4", value_parser = values::small, allow_negative_numbers = true)]
    buffer: usize,
    /// Waiting on adaptors: passive or active.
    #[arg(long, default_value = "passive")]
    wait: String,
    /// Highest replica count of the heavy stage (default: the number of CPUs).
    #[arg(long, value_parser = values::small, allow_negative_numbers = true)]
    max_replicas: Option<usize>,
    /// Pin the source to CPU 0, heavy replica i to CPU i, the sink to the last CPU.
    #[arg(long)]
    pin: bool,
}

/// The pipeline the arguments ask for (`--quick`: 200 frames of at most 1024 samples).
fn params(a: &PipelineArgs, quick: bool) -> Result<PipelineParams, BenchError> {
    let wait = match a.wait.as_str() {
        "passive" => Wait::Passive,
        "active" => Wait::Active,
        w => {
            return Err(BenchError::Params(format!(
                "--wait: '{w}' is not passive or active"
            )))
        }
    };
    Ok(PipelineParams {
        frames: if quick { 200 } else { a.frames },
        frame: if quick { a.frame.min(1024) } else { a.frame },
        taps: a.taps,
        buffer: a.buffer,
        wait,
        max_replicas: a.max_replicas,
        pin: a.pin,
    })
}

/// `radioflow bench pipeline`: every replica count in both modes, alternated run by run.
pub(crate) fn bench(a: PipelineArgs, c: &Common) -> Result<(), BenchError> {
    let p = params(&a, c.quick)?;
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "source (sequential) -> FIR {} taps over {} f32 (cloneable, x replicas) -> checking sink (sequential); {} frames, buffer {}, {:?} waiting, {} runs alternated; medians",
            p.taps, p.frame, p.frames, p.buffer, p.wait, c.runs
        );
    }
    let study = measure(&p, c.runs)?;
    if c.json {
        for r in &study.results {
            println!("{}", r.to_json(&p, c.runs));
        }
    } else {
        print_pipeline(&p, &study);
    }
    if !study.verified() {
        return Err(BenchError::Unverified(
            "the pipeline lost, reordered or corrupted frames".into(),
        ));
    }
    Ok(())
}

fn print_pipeline(p: &PipelineParams, study: &PipelineStudy) {
    println!(
        "{:<9} {:>8} {:>12} {:>8}   {:<54} {:>8}",
        "mode",
        "replicas",
        "frames/s",
        "speedup",
        "per stage: wait / copy / work (% of thread time)",
        "verified"
    );
    for r in &study.results {
        let per: Vec<String> = r
            .stages
            .iter()
            .map(|s| {
                format!(
                    "{:.0}/{:.0}/{:.0}",
                    100.0 * s.wait,
                    100.0 * s.copy,
                    100.0 * s.work
                )
            })
            .collect();
        println!(
            "{:<9} {:>8} {:>12.0} {:>8.2}   {:<54} {:>8}",
            r.mode(),
            r.replicas,
            r.frames_per_second.median,
            r.speedup,
            per.join("  "),
            if r.verified { "yes" } else { "NO" }
        );
    }
    for r in 1..=p.max_replicas() {
        println!(
            "replicas {r}: copy-less / copy = {:.2}",
            study.copyless_over_copy(r)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(frame: usize, taps: usize, frames: u64) -> PipelineParams {
        PipelineParams {
            frames,
            frame,
            taps,
            buffer: 4,
            wait: Wait::Passive,
            max_replicas: Some(2),
            pin: false,
        }
    }

    /// What the heavy stage computes for frame `k`.
    fn heavy_output(p: &PipelineParams, k: u64) -> Vec<f32> {
        let x: Vec<f32> = (0..p.frame).map(|i| sample(k, i, p.frame)).collect();
        let mut y = vec![0.0; p.frame];
        fir(&x, &taps_of(p.taps), &mut y);
        y
    }

    #[test]
    fn the_reference_accepts_the_right_frames_and_refuses_wrong_ones() {
        let p = params(256, 8, 6);
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
        let p = params(512, 4, 50);
        let mut r = Reference::new(&p);
        for copy in [false, true] {
            for replicas in [1, 2] {
                let (_, ok) = run_pipeline(&p, copy, replicas, &mut r).unwrap();
                assert!(ok, "copy {copy}, {replicas} replicas");
            }
        }
    }

    #[test]
    fn a_study_measures_every_configuration_and_its_speedup() {
        let study = measure(&params(256, 4, 20), 1).unwrap();
        let configs: Vec<(bool, usize)> =
            study.results.iter().map(|r| (r.copy, r.replicas)).collect();
        assert_eq!(configs, [(false, 1), (false, 2), (true, 1), (true, 2)]);
        assert!(study.verified());
        for r in &study.results {
            assert_eq!(r.stages.len(), 3);
            if r.replicas == 1 {
                assert_eq!(r.speedup, 1.0);
            }
        }
        assert!(study.copyless_over_copy(1).is_finite());
        assert!(study.copyless_over_copy(3).is_nan());
    }
}
