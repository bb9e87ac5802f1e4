//! One `counters` run (Rondeau 2013, the GNU Radio maintainer's notes): null source ->
//! head(N complex) -> K FIR filters of 100 real taps (each its own taps) -> null sink, with the
//! per-block counters compiled out, switched off, or on (counts and time in work), and thread
//! affinity off or on. Verified: the sink received exactly N items.
//!
//! "Compiled out" needs a binary built with the runtime's `no-counters` feature, so every
//! configuration runs as a child process (`radioflow bench counters-run ...`, one run each),
//! alike for all three modes and for GNU Radio.

use crate::experiment::{connect, timed_run};
use crate::measurement::{BenchError, Measurement};
use radioflow_blocks::{FirFilter, Head, NullSink, NullSource};
use radioflow_runtime::{
    BlockId, Complex32, Counters, FlowScheduler, Flowgraph, Scheduler, ThreadPerBlock,
    COUNTERS_COMPILED,
};
use serde_json::json;
use std::path::PathBuf;
use std::process::Command;

/// Parameters of one `counters` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountersParams {
    /// FIR filters in the chain (1, and 20 in the notes' second graph).
    pub stages: usize,
    /// Complex samples through the head block.
    pub samples: u64,
    /// Taps per filter (100 in the notes).
    pub taps: usize,
}

/// The taps of FIR number `f`: splitmix64 values in [0, 1) (the notes used `random(100)`); the
/// GNU Radio peer computes the same sequence.
pub fn taps(f: usize, n: usize) -> Vec<f32> {
    let mut s = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(f as u64 + 1);
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 40) as f32 / 16_777_216.0
        })
        .collect()
}

/// The graph (blocks named `src`, `head`, `fir0`.., `sink`) and its sink.
///
/// # Errors
/// No stage or no tap.
pub fn build(p: &CountersParams) -> Result<(Flowgraph, BlockId), BenchError> {
    if p.stages == 0 || p.taps == 0 {
        return Err(BenchError::Params(
            "counters needs at least one FIR and one tap".into(),
        ));
    }
    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", NullSource::<Complex32>::new());
    let head = fg.add_named("head", Head::<Complex32>::new(p.samples));
    connect(&mut fg, src, head);
    let mut prev = head;
    for f in 0..p.stages {
        let fir = fg.add_named(
            &format!("fir{f}"),
            FirFilter::<Complex32>::new(&taps(f, p.taps)),
        );
        connect(&mut fg, prev, fir);
        prev = fir;
    }
    let sink = fg.add_named("sink", NullSink::<Complex32>::new());
    connect(&mut fg, prev, sink);
    Ok((fg, sink))
}

/// The scheduler of a run: `tpb` with the notes' affinity (source, head and sink on the first
/// CPU, the filters on the others in turn), `flow` with its workers pinned, or `single`
/// (deterministic, for instruction counts; no affinity).
pub fn scheduler(name: &str, p: &CountersParams, affinity: bool) -> Option<Box<dyn Scheduler>> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    match name {
        "tpb" => {
            let mut s = ThreadPerBlock::new();
            if affinity {
                for b in ["src", "head", "sink"] {
                    s = s.pin(b, vec![0]);
                }
                for f in 0..p.stages {
                    s = s.pin(format!("fir{f}"), vec![(1 + f) % cpus]);
                }
            }
            Some(Box::new(s))
        }
        "flow" => Some(Box::new(FlowScheduler::new().pin(affinity))),
        "single" => Some(Box::new(radioflow_runtime::SingleThread::new())),
        _ => None,
    }
}

/// Builds, runs and verifies one run in this process, with `counters` recorded.
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run(
    p: &CountersParams,
    scheduler: &dyn Scheduler,
    counters: Counters,
    affinity: bool,
) -> Result<Measurement, BenchError> {
    let (mut fg, sink) = build(p)?;
    fg.set_counters(counters);
    let seconds = timed_run("counters", &mut fg, scheduler)?;
    let got = fg
        .block::<NullSink<Complex32>>(sink)
        .map_or(0, NullSink::items);
    let mode = match (COUNTERS_COMPILED, counters) {
        (false, _) => "compiled-out",
        (true, Counters::Off) => "off",
        (true, Counters::Counts) => "counts",
        (true, Counters::Timed) => "on",
    };
    Ok(Measurement {
        experiment: "counters".into(),
        runtime: "radioflow".into(),
        scheduler: scheduler.name().to_owned(),
        params: json!({
            "stages": p.stages, "samples": p.samples, "taps": p.taps,
            "counters": mode, "affinity": if affinity { "on" } else { "off" },
        }),
        seconds,
        verified: got == p.samples,
        extra: json!({ "fir_kernel": radioflow_dsp_kernel() }),
        detail: format!("sink got {got} of {} items", p.samples),
    })
}

fn radioflow_dsp_kernel() -> &'static str {
    radioflow_dsp::Fir::<Complex32>::new(&[1.0]).kernel_name()
}

/// A `radioflow` binary with the counters compiled out: `RADIOFLOW_NO_COUNTERS_BIN`, else
/// built on first use with `cargo build --release -p radioflow-cli --features
/// radioflow-runtime/no-counters` into `target/no-counters` of the repository.
///
/// # Errors
/// Cargo is missing or the build fails; the message says why.
pub fn compiled_out_binary() -> Result<PathBuf, BenchError> {
    if let Some(p) = std::env::var_os("RADIOFLOW_NO_COUNTERS_BIN") {
        return Ok(PathBuf::from(p));
    }
    let root = crate::peers::repo_root();
    let target = root.join("target/no-counters");
    let bin = target.join("release/radioflow");
    eprintln!("building radioflow with the counters compiled out (target/no-counters) ...");
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "-p",
            "radioflow-cli",
            "--features",
            "radioflow-runtime/no-counters",
            "--target-dir",
        ])
        .arg(&target)
        .output()
        .map_err(|e| BenchError::Peer(format!("cannot run cargo: {e}")))?;
    if !out.status.success() || !bin.exists() {
        let why = String::from_utf8_lossy(&out.stderr);
        let why = why.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
        return Err(BenchError::Peer(format!(
            "cannot build the no-counters binary ({why})"
        )));
    }
    Ok(bin)
}

/// Runs one configuration in a child `radioflow` (`bin`) and returns its measurement.
///
/// # Errors
/// The child failed or printed no measurement.
pub fn run_child(
    bin: &std::path::Path,
    p: &CountersParams,
    scheduler: &str,
    counters: &str,
    affinity: bool,
) -> Result<Measurement, BenchError> {
    let out = Command::new(bin)
        .args(["bench", "counters-run", "--scheduler", scheduler])
        .args(["--stages", &p.stages.to_string()])
        .args(["--samples", &p.samples.to_string()])
        .args(["--taps", &p.taps.to_string()])
        .args(["--counters", counters])
        .args(["--affinity", if affinity { "on" } else { "off" }])
        .output()
        .map_err(|e| BenchError::Peer(format!("{}: {e}", bin.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Measurement>(l).ok())
        .ok_or_else(|| {
            BenchError::Peer(format!(
                "{} counters-run: no measurement (exit {}): {}",
                bin.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taps_are_in_the_unit_interval_and_differ_per_filter() {
        let (a, b) = (taps(0, 100), taps(1, 100));
        assert!(a.iter().chain(&b).all(|&t| (0.0..1.0).contains(&t)));
        assert_ne!(a, b);
        assert_eq!(a, taps(0, 100));
    }

    #[test]
    fn a_chain_run_delivers_every_item_on_both_schedulers() {
        let p = CountersParams {
            stages: 3,
            samples: 20_000,
            taps: 100,
        };
        for name in ["tpb", "flow"] {
            for affinity in [false, true] {
                let s = scheduler(name, &p, affinity).unwrap();
                let m = run(&p, s.as_ref(), Counters::Timed, affinity).unwrap();
                assert!(m.verified, "{name}: {}", m.detail);
            }
        }
    }
}
