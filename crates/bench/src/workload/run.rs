//! One `workload` run (Green et al., Fig. 5-13): a [`RateSource`] that must deliver `rate`
//! samples per second -> processor block(s) doing a chosen kind and amount of work per packet
//! -> a [`RateProbe`]. The "signal quality" is delivered over required samples: 1 while the
//! machine keeps up, less once the work per packet exceeds what the cores can do in real time.
//!
//! Configurations: the work of one packet done by one block with `threads` threads inside it
//! (intra-component parallelism) or split over `blocks` chained blocks (inter-component), on
//! all cores or pinned to one, with a multi-threaded or the single-threaded scheduler.
//! Verified: every sample the source delivered reached the probe.

use crate::experiment::{connect, timed_run};
use crate::measurement::{BenchError, Measurement};
use radioflow_blocks::{RateProbe, RateSource};
use radioflow_runtime::prelude::*;
use radioflow_runtime::Scheduler;
use serde_json::json;
use std::hint::black_box;

/// Samples per packet: the processor works once per packet.
pub const PACKET: usize = 1024;

/// The kinds of work of the paper's processor block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// In-place floating-point division (the paper's baseline).
    FloatDivision,
    /// In-place integer addition and subtraction.
    IntAddSub,
    /// Reversal of an integer array with a temporary variable (`size` = array length).
    ReverseTemp,
    /// Reversal of an integer array with XOR swaps.
    ReverseXor,
    /// Allocation (and first touch) of `size` bytes.
    Allocation,
    /// An empty loop.
    EmptyLoop,
    /// Recursive calls (`size` calls, in runs of depth 1000).
    Recursion,
}

impl Kind {
    /// Every kind with its name.
    pub const ALL: [(Kind, &'static str); 7] = [
        (Kind::FloatDivision, "fdiv"),
        (Kind::IntAddSub, "intaddsub"),
        (Kind::ReverseTemp, "reverse-temp"),
        (Kind::ReverseXor, "reverse-xor"),
        (Kind::Allocation, "alloc"),
        (Kind::EmptyLoop, "empty"),
        (Kind::Recursion, "recursion"),
    ];

    /// Parses a name of [`Kind::ALL`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
    }

    /// The kind's name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("?", |(_, n)| n)
    }

    /// Does `units` of this work (`scratch`: an array of at least `units` integers for the
    /// reversals).
    pub fn run(self, units: usize, scratch: &mut [i32]) {
        match self {
            Kind::FloatDivision => {
                let mut v = [1.0f32; 16];
                for i in 0..units {
                    v[i & 15] /= 1.000_001;
                }
                black_box(v);
            }
            Kind::IntAddSub => {
                let mut v = [0i32; 16];
                for i in 0..units {
                    v[i & 15] = black_box(v[i & 15].wrapping_add(3)).wrapping_sub(1);
                }
                black_box(v);
            }
            // The paper's two swap methods, written out on purpose.
            #[allow(clippy::manual_swap)]
            Kind::ReverseTemp => {
                let a = &mut scratch[..units];
                for i in 0..units / 2 {
                    let t = a[i];
                    a[i] = a[units - 1 - i];
                    a[units - 1 - i] = t;
                }
                black_box(a);
            }
            #[allow(clippy::manual_swap)]
            Kind::ReverseXor => {
                let a = &mut scratch[..units];
                for i in 0..units / 2 {
                    let j = units - 1 - i;
                    a[i] ^= a[j];
                    a[j] ^= a[i];
                    a[i] ^= a[j];
                }
                black_box(a);
            }
            Kind::Allocation => {
                black_box(vec![1u8; units]);
            }
            Kind::EmptyLoop => {
                for i in 0..units {
                    black_box(i);
                }
            }
            Kind::Recursion => {
                fn down(n: usize) -> usize {
                    if n == 0 {
                        0
                    } else {
                        black_box(down(n - 1)) + 1
                    }
                }
                let mut left = units;
                while left > 0 {
                    let d = left.min(1000);
                    black_box(down(d));
                    left -= d;
                }
            }
        }
    }
}

/// The paper's processor block: per packet of [`PACKET`] samples, `units` of work of `kind`
/// (in proportion for a shorter call), shared among `threads` threads (the calling one and
/// `threads - 1` scoped ones); the samples pass through unchanged.
pub struct Processor {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    kind: Kind,
    units: usize,
    /// One scratch array per thread (for the reversals).
    scratch: Vec<Vec<i32>>,
}

impl Processor {
    /// A processor doing `units` of `kind` per packet on `threads` threads.
    pub fn new(kind: Kind, units: usize, threads: usize) -> Self {
        let threads = threads.max(1);
        let per = units.div_ceil(threads);
        let len = if matches!(kind, Kind::ReverseTemp | Kind::ReverseXor) {
            per
        } else {
            0
        };
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kind,
            units,
            scratch: (0..threads)
                .map(|t| (0..len as i32).map(|i| i ^ t as i32).collect())
                .collect(),
        }
    }
}

impl Block for Processor {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
        p.stream_output("out", &mut self.output);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (kind, units, scratch) = (self.kind, self.units, &mut self.scratch);
        one_to_one_work(&mut self.input, &mut self.output, PACKET, |i, o| {
            o.copy_from_slice(i);
            let units = (units * i.len()).div_ceil(PACKET);
            let threads = scratch.len();
            let per = units.div_ceil(threads);
            let (first, rest) = scratch.split_first_mut().expect("at least one thread");
            std::thread::scope(|s| {
                for (t, buf) in rest.iter_mut().enumerate() {
                    let n = per.min(units.saturating_sub((t + 1) * per));
                    s.spawn(move || kind.run(n, buf));
                }
                kind.run(per.min(units), first);
            });
        });
        Ok(WorkStatus::Continue)
    }
}

/// How the work is arranged and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// Chained processor blocks, each doing `1 / blocks` of the work.
    pub blocks: usize,
    /// Threads inside each processor block.
    pub threads: usize,
    /// Pin every thread (and the threads they start) to CPU 0.
    pub one_core: bool,
    /// The single-threaded scheduler instead of thread per block.
    pub single: bool,
}

impl Arrangement {
    /// The paper's comparison (Green et al.) with `n` threads or blocks: one block one thread, threads inside
    /// one block, chained blocks, both of those on one core, and the single-threaded scheduler.
    pub fn seed_set(n: usize) -> [Arrangement; 6] {
        let a = |blocks, threads, one_core, single| Arrangement {
            blocks,
            threads,
            one_core,
            single,
        };
        [
            a(1, 1, false, false),
            a(1, n, false, false),
            a(n, 1, false, false),
            a(1, n, true, false),
            a(n, 1, true, false),
            a(1, 1, false, true),
        ]
    }

    /// A short label (`intra 2`, `inter 2`, `intra 2, 1 core`, `single`).
    pub fn label(&self) -> String {
        let mut s = if self.single {
            "single-threaded".to_owned()
        } else if self.blocks > 1 {
            format!("inter {} blocks", self.blocks)
        } else {
            format!(
                "intra {} thread{}",
                self.threads,
                if self.threads > 1 { "s" } else { "" }
            )
        };
        if self.one_core {
            s.push_str(", 1 core");
        }
        s
    }
}

/// Parameters of one `workload` run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkloadParams {
    /// Required samples per second.
    pub rate: f64,
    /// Seconds of samples.
    pub seconds: f64,
    /// Kind of work.
    pub kind: Kind,
    /// Units of work per packet (split over blocks and threads).
    pub units: usize,
    /// Arrangement.
    pub arrangement: Arrangement,
}

/// Builds and runs one configuration; [`Measurement::extra`] holds `quality` (delivered /
/// required), `delivered`, `required`, `dropped` and `delivered_rate`.
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run(p: &WorkloadParams) -> Result<Measurement, BenchError> {
    let a = p.arrangement;
    if a.blocks == 0 || p.rate.is_nan() || p.rate <= 0.0 || p.seconds.is_nan() || p.seconds <= 0.0 {
        return Err(BenchError::Params(
            "workload needs a block, a positive rate and duration".into(),
        ));
    }
    let required = (p.rate * p.seconds) as u64;
    let mut fg = Flowgraph::new();
    let src = fg.add_named("source", RateSource::new(p.rate, required));
    let mut prev = src;
    for b in 0..a.blocks {
        let proc = fg.add_named(
            &format!("processor{b}"),
            Processor::new(p.kind, p.units.div_ceil(a.blocks), a.threads),
        );
        connect(&mut fg, prev, proc);
        prev = proc;
    }
    let probe = fg.add_named("probe", RateProbe::new());
    connect(&mut fg, prev, probe);
    let scheduler: Box<dyn Scheduler> = match (a.single, a.one_core) {
        (true, _) => Box::new(SingleThread::new()),
        (false, true) => Box::new(ThreadPerBlock::new().pin_all(vec![0])),
        (false, false) => Box::new(ThreadPerBlock::new()),
    };
    let seconds = timed_run("workload", &mut fg, scheduler.as_ref())?;
    let source = fg.block::<RateSource>(src).expect("source");
    let (delivered_src, dropped) = (source.delivered(), source.dropped());
    let k = fg.block::<RateProbe>(probe).expect("probe");
    let delivered = k.items();
    let quality = delivered as f64 / required.max(1) as f64;
    Ok(Measurement {
        experiment: "workload".into(),
        runtime: "radioflow".into(),
        scheduler: scheduler.name().to_owned(),
        params: json!({
            "rate": p.rate, "seconds": p.seconds, "kind": p.kind.name(), "units": p.units,
            "blocks": a.blocks, "threads": a.threads, "one_core": a.one_core,
            "arrangement": a.label(),
        }),
        seconds,
        verified: delivered == delivered_src,
        extra: json!({
            "quality": quality, "delivered": delivered, "required": required,
            "dropped": dropped, "delivered_rate": k.delivered_rate(),
        }),
        detail: format!("{delivered} of {required} samples delivered ({dropped} dropped)"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_runs_and_reversal_reverses() {
        let mut a: Vec<i32> = (0..10).collect();
        Kind::ReverseTemp.run(10, &mut a);
        assert_eq!(a, (0..10).rev().collect::<Vec<_>>());
        Kind::ReverseXor.run(10, &mut a);
        assert_eq!(a, (0..10).collect::<Vec<_>>());
        for (k, name) in Kind::ALL {
            assert_eq!(Kind::from_name(name), Some(k));
            k.run(1000, &mut vec![0; 1000]);
        }
    }

    #[test]
    fn light_work_keeps_up_and_every_delivered_sample_arrives() {
        let seed = Arrangement::seed_set(2);
        for arrangement in [seed[1], seed[4], seed[5]] {
            let m = run(&WorkloadParams {
                rate: 200_000.0,
                seconds: 0.05,
                kind: Kind::IntAddSub,
                units: 100,
                arrangement,
            })
            .unwrap();
            assert!(m.verified, "{}", m.detail);
            assert_eq!(m.extra["required"], 10_000);
            // Delivered + dropped = required, whatever the machine's speed.
            let (d, x) = (
                m.extra["delivered"].as_u64().unwrap(),
                m.extra["dropped"].as_u64().unwrap(),
            );
            assert_eq!(d + x, 10_000);
        }
    }
}
