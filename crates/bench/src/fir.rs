//! `radioflow bench fir` (issue 18): radioflow's FIR kernels ([`radioflow_blocks::dsp::Fir`], AVX2+FMA
//! where the CPU has them) against GNU Radio's (`gr::filter::kernel::fir_filter_*`, VOLK dot
//! products; `peers/gnuradio/src/fir_kernels.cc`), each alone, without a flowgraph: the cost
//! per input sample of the filters the FM receiver and most SDR chains spend their time in.
//! Both filter the same input with the same taps, a cache-resident block over and over, and
//! the first block's outputs are compared (the `verified` column); runs alternate.

use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::peers::Peer;
use crate::stats::{summarize, Summary};
use crate::values;
use clap::Args;
use radioflow_blocks::dsp::{Fir, FirSample};
use radioflow_runtime::Complex32;
use std::process::Command;
use std::time::Instant;

/// One filter to time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirCase {
    /// Complex samples with real taps (`ccf`), else real (`fff`).
    pub complex: bool,
    /// Number of taps.
    pub taps: usize,
    /// One output kept in this many.
    pub decimation: usize,
}

impl FirCase {
    /// Its name, GNU Radio style: `fff 64 taps`, `ccf 145 taps /10`.
    pub fn name(&self) -> String {
        let kind = if self.complex { "ccf" } else { "fff" };
        match self.decimation {
            1 => format!("{kind} {} taps", self.taps),
            d => format!("{kind} {} taps /{d}", self.taps),
        }
    }
}

/// The cases of the default run: plain filters, and the FM receiver's two decimating ones
/// (channel: 145 complex taps by 10; audio: 385 real taps by 5).
pub const CASES: [FirCase; 4] = [
    FirCase {
        complex: false,
        taps: 64,
        decimation: 1,
    },
    FirCase {
        complex: true,
        taps: 64,
        decimation: 1,
    },
    FirCase {
        complex: true,
        taps: 145,
        decimation: 10,
    },
    FirCase {
        complex: false,
        taps: 385,
        decimation: 5,
    },
];

/// Outputs per block (as the peer's `BLOCK_OUTPUTS`).
const BLOCK_OUTPUTS: usize = 4096;

/// Input sample `i` (each component of a complex one) and tap `k`, as the peer makes them.
fn sample(i: usize) -> f32 {
    ((i * 7919) % 1000) as f32 / 1000.0 - 0.5
}

fn tap(k: usize) -> f32 {
    ((k * 31) % 17) as f32 / 17.0 - 0.5
}

/// One timed run: seconds, input samples filtered, and the sum of the first block's outputs.
#[derive(Clone, Copy, Debug)]
pub struct KernelRun {
    /// Seconds for `samples`.
    pub seconds: f64,
    /// Input samples filtered.
    pub samples: u64,
    /// Sum of the first block's outputs (real, imaginary).
    pub sum: (f64, f64),
}

/// Filters `x` into `y` as radioflow's FIR blocks do: every output vectorized across outputs
/// without decimation ([`Fir::filter`]), else a dot product per kept output.
fn filter<T: FirSample>(fir: &Fir<T>, x: &[T], y: &mut [T], d: usize) {
    if d == 1 {
        fir.filter(x, y);
    } else {
        fir.filter_decimated(x, y, d);
    }
}

/// Times radioflow's kernel on `case` for at least `samples` input samples.
pub fn run_radioflow(case: FirCase, samples: u64) -> KernelRun {
    if case.complex {
        let x = |i: usize| Complex32::new(sample(2 * i), sample(2 * i + 1));
        time_kernel(case, samples, x, |z| (f64::from(z.re), f64::from(z.im)))
    } else {
        time_kernel(case, samples, sample, |v| (f64::from(v), 0.0))
    }
}

/// [`run_radioflow`] for samples of type `T`, made by `make` and summed through `parts`.
fn time_kernel<T: FirSample>(
    case: FirCase,
    samples: u64,
    make: impl Fn(usize) -> T,
    parts: impl Fn(T) -> (f64, f64),
) -> KernelRun {
    let taps: Vec<f32> = (0..case.taps).map(tap).collect();
    let fir = Fir::<T>::new(&taps);
    let x: Vec<T> = (0..BLOCK_OUTPUTS * case.decimation + case.taps - 1)
        .map(make)
        .collect();
    let mut y = vec![T::default(); BLOCK_OUTPUTS];
    filter(&fir, &x, &mut y, case.decimation);
    let sum = y.iter().fold((0.0, 0.0), |(re, im), &v| {
        let (a, b) = parts(v);
        (re + a, im + b)
    });
    let per_block = (BLOCK_OUTPUTS * case.decimation) as u64;
    let blocks = samples.div_ceil(per_block).max(1);
    let t0 = Instant::now();
    for _ in 0..blocks {
        filter(&fir, std::hint::black_box(&x), &mut y, case.decimation);
        std::hint::black_box(&mut y);
    }
    KernelRun {
        seconds: t0.elapsed().as_secs_f64(),
        samples: blocks * per_block,
        sum,
    }
}

/// Times GNU Radio's kernel on `case` (the peer program `fir_kernels`, one process per run).
///
/// # Errors
/// The peer cannot be built or run, or printed something else than a measurement.
pub fn run_gnuradio(case: FirCase, samples: u64) -> Result<KernelRun, BenchError> {
    let bin = Peer::GnuRadio.ensure_built()?.with_file_name("fir_kernels");
    let out = Command::new(&bin)
        .args(["--kind", if case.complex { "complex" } else { "real" }])
        .args(["--taps", &case.taps.to_string()])
        .args(["--decimation", &case.decimation.to_string()])
        .args(["--samples", &samples.to_string()])
        .output()
        .map_err(|e| BenchError::Peer(format!("{}: {e}", bin.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(text.trim()).map_err(|e| {
        BenchError::Peer(format!(
            "{}: not a measurement ({e}): {text}{}",
            bin.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    })?;
    let num = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    Ok(KernelRun {
        seconds: num("seconds"),
        samples: v["samples"].as_u64().unwrap_or(0),
        sum: (num("sum_re"), num("sum_im")),
    })
}

/// One case's result.
#[derive(Clone, Debug)]
pub struct FirRow {
    /// The filter.
    pub case: FirCase,
    /// radioflow's nanoseconds per input sample, over the runs.
    pub radioflow: Summary,
    /// GNU Radio's, when measured.
    pub gnuradio: Option<Summary>,
    /// The two kernels' first outputs agree (relative 1e-4 of their magnitude); `None`
    /// without GNU Radio.
    pub verified: Option<bool>,
}

/// Runs every case `runs` times on each side, alternating, `samples` input samples per run.
///
/// # Errors
/// GNU Radio was asked for and its peer fails.
pub fn measure(
    cases: &[FirCase],
    samples: u64,
    runs: usize,
    gnuradio: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<FirRow>, BenchError> {
    let mut rows = Vec::new();
    for &case in cases {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let mut verified = None;
        for r in 0..runs.max(1) {
            progress(&format!("{} run {}/{}", case.name(), r + 1, runs.max(1)));
            let a = run_radioflow(case, samples);
            ours.push(a.seconds * 1e9 / a.samples as f64);
            if gnuradio {
                let b = run_gnuradio(case, samples)?;
                theirs.push(b.seconds * 1e9 / b.samples as f64);
                let scale = a.sum.0.abs() + a.sum.1.abs() + 1.0;
                let agree = (a.sum.0 - b.sum.0).abs() + (a.sum.1 - b.sum.1).abs() < 1e-4 * scale;
                verified = Some(verified.unwrap_or(true) && agree);
            }
        }
        rows.push(FirRow {
            case,
            radioflow: summarize(&ours).expect("at least one run"),
            gnuradio: summarize(&theirs),
            verified,
        });
    }
    Ok(rows)
}

/// Size of the `fir` run.
#[derive(Args, Clone)]
pub(crate) struct FirArgs {
    /// Input samples per run and filter (accepts 2e7).
    #[arg(long, default_value = "2e7", value_parser = values::count)]
    samples: u64,
}

/// `radioflow bench fir`: every case on each side, alternated run by run.
pub(crate) fn bench(a: FirArgs, c: &Common) -> Result<(), BenchError> {
    let gnuradio = c.gnuradio_only("bench fir")?;
    let (samples, runs) = if c.quick {
        (a.samples.min(200_000), 1)
    } else {
        (a.samples, c.runs)
    };
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let rows = measure(&CASES, samples, runs, gnuradio, &mut |what| {
        if !c.json {
            eprint!("\r{what}          ");
        }
    })?;
    if !c.json {
        eprintln!();
        println!("FIR kernels alone, ns per input sample (median of {runs}; cache-resident input)");
        println!(
            "{:<20} {:>12} {:>12} {:>12} {:>9}",
            "filter", "radioflow", "gnuradio", "/gnuradio", "verified"
        );
    }
    for r in &rows {
        let theirs = r.gnuradio.as_ref().map(|s| s.median);
        if c.json {
            println!(
                "{}",
                serde_json::json!({
                    "experiment": "fir", "filter": r.case.name(), "samples": samples,
                    "radioflow_ns_per_sample": r.radioflow.median,
                    "gnuradio_ns_per_sample": theirs, "verified": r.verified,
                })
            );
        } else {
            println!(
                "{:<20} {:>12.3} {:>12} {:>12} {:>9}",
                r.case.name(),
                r.radioflow.median,
                theirs.map_or("-".into(), |t| format!("{t:.3}")),
                theirs.map_or("-".into(), |t| format!("{:.2}x", t / r.radioflow.median)),
                match r.verified {
                    Some(true) => "yes",
                    Some(false) => "NO",
                    None => "-",
                }
            );
        }
    }
    if rows.iter().any(|r| r.verified == Some(false)) {
        return Err(BenchError::Unverified(
            "radioflow's and GNU Radio's filters disagree on some outputs".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_run_filters_what_it_says() {
        // The checksum is the sum of the first block's outputs: recompute it naively.
        for case in CASES {
            let run = run_radioflow(case, 1);
            assert_eq!(run.samples, (BLOCK_OUTPUTS * case.decimation) as u64);
            let c = if case.complex { 2 } else { 1 };
            let mut want = [0.0f64; 2];
            for k in 0..BLOCK_OUTPUTS {
                for j in 0..case.taps {
                    // Output k reads input k·D + taps - 1 - j with tap j.
                    let i = k * case.decimation + case.taps - 1 - j;
                    for (part, w) in want.iter_mut().enumerate().take(c) {
                        let x = if case.complex {
                            sample(2 * i + part)
                        } else {
                            sample(i)
                        };
                        *w += f64::from(tap(j)) * f64::from(x);
                    }
                }
            }
            let scale = want[0].abs() + want[1].abs() + 1.0;
            let err = (run.sum.0 - want[0]).abs() + (run.sum.1 - want[1]).abs();
            assert!(
                err < 1e-4 * scale,
                "{}: {:?} vs {want:?}",
                case.name(),
                run.sum
            );
        }
    }
}
