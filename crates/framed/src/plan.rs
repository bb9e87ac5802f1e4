//! [`plan`]: stage boundaries and replica counts from a profile.

use crate::profile::SequenceProfile;
use crate::task_graph::TaskId;

/// One stage of a [`Plan`].
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedStage {
    /// Its tasks, in execution order.
    pub tasks: Vec<TaskId>,
    /// Threads (more than 1 only if every task can be cloned).
    pub replicas: usize,
    /// Sequential time of its tasks per frame (ns, from the profile).
    pub ns_per_frame: f64,
}

/// Stages and replicas chosen by [`plan`]; build it with
/// [`PipelineBuilder::from_plan`](crate::PipelineBuilder::from_plan).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The stages in order.
    pub stages: Vec<PlannedStage>,
    /// Predicted throughput: the slowest stage's replicas / time per frame (frames/s,
    /// ignoring adaptor costs).
    pub frames_per_second: f64,
}

impl Plan {
    /// The paper's Table 3 for this plan: each stage's tasks (throughput normalised to
    /// `info_bits` of information per frame in Mb/s, latency per frame in µs, share of the
    /// sequential time), then the stage (its throughput counts its replicas), then the total.
    pub fn table(&self, profile: &SequenceProfile, info_bits: f64) -> String {
        use std::fmt::Write;
        let per_frame = |i: usize| profile.ns_per_frame(i);
        let total: f64 = (0..profile.tasks.len()).map(per_frame).sum();
        let mbps = |ns: f64| {
            if ns > 0.0 {
                info_bits / ns * 1e3
            } else {
                f64::INFINITY
            }
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<30} {:>8} {:>12} {:>12} {:>8}",
            "stages and tasks", "replicas", "Mb/s", "latency µs", "time %"
        );
        for (k, st) in self.stages.iter().enumerate() {
            for t in &st.tasks {
                let Some(i) = profile.tasks.iter().position(|p| p.task == *t) else {
                    continue;
                };
                if profile.tasks[i].control {
                    continue;
                }
                let ns = per_frame(i);
                let _ = writeln!(
                    s,
                    "  {:<28} {:>8} {:>12.2} {:>12.2} {:>8.2}",
                    profile.tasks[i].name,
                    "",
                    mbps(ns),
                    ns / 1e3,
                    100.0 * ns / total.max(f64::MIN_POSITIVE)
                );
            }
            let _ = writeln!(
                s,
                "{:<30} {:>8} {:>12.2} {:>12.2} {:>8.2}",
                format!("stage {}", k + 1),
                st.replicas,
                mbps(st.ns_per_frame / st.replicas as f64),
                st.ns_per_frame / 1e3,
                100.0 * st.ns_per_frame / total.max(f64::MIN_POSITIVE)
            );
        }
        let _ = writeln!(
            s,
            "{:<30} {:>8} {:>12.2} {:>12.2} {:>8.2}",
            "total (sequential)",
            "",
            mbps(total),
            total / 1e3,
            100.0
        );
        let _ = writeln!(
            s,
            "{:<30} {:>8} {:>12.2}",
            "pipeline (predicted)",
            self.stages.iter().map(|s| s.replicas).sum::<usize>(),
            info_bits * self.frames_per_second / 1e6
        );
        s
    }
}

#[derive(Clone, Copy)]
struct Best {
    /// Bottleneck throughput (frames per ns).
    thr: f64,
    stages: usize,
    threads: usize,
    /// Start unit of the last stage and its replicas.
    from: usize,
    replicas: usize,
}

fn better(a: &Best, b: &Best) -> bool {
    let eps = 1e-9 * a.thr.max(b.thr).min(1e300);
    if (a.thr - b.thr).abs() > eps {
        return a.thr > b.thr;
    }
    (a.stages, a.threads) < (b.stages, b.threads)
}

/// Chooses contiguous stages over the profiled execution order and a replica count per stage
/// to maximise the predicted throughput (ties: fewer stages, then fewer threads). A stage of
/// `r` replicas whose tasks take `t` per frame handles at most `r / t` frames; all stages
/// together at most `cores / (sum of t)`, since they share the cores. A stage gets at most
/// `cores` replicas and the pipeline at most `2 x cores` threads (light stages mostly sleep
/// while waiting). Stages never split a switcher's loop or switch; a stage with a task that
/// cannot be cloned gets one thread.
///
/// # Panics
/// If `cores` is 0 or the profile has no task.
pub fn plan(profile: &SequenceProfile, cores: usize) -> Plan {
    assert!(cores > 0, "plan needs at least one core");
    let n = profile.tasks.len();
    assert!(n > 0, "plan needs a profile with tasks");
    // Units: runs of tasks between allowed cuts.
    let mut bounds = vec![0];
    for i in 1..n {
        if profile.can_cut_before(i) {
            bounds.push(i);
        }
    }
    bounds.push(n);
    let u = bounds.len() - 1;
    let time: Vec<f64> = (0..u)
        .map(|k| {
            (bounds[k]..bounds[k + 1])
                .map(|i| profile.ns_per_frame(i))
                .sum()
        })
        .collect();
    let clone: Vec<bool> = (0..u)
        .map(|k| (bounds[k]..bounds[k + 1]).all(|i| profile.tasks[i].cloneable))
        .collect();
    let cpu_cap = cores as f64 / time.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    let threads = 2 * cores;
    // best[i][c]: first i units on at most c threads.
    let none = Best {
        thr: f64::NEG_INFINITY,
        stages: usize::MAX,
        threads: usize::MAX,
        from: 0,
        replicas: 0,
    };
    let mut best = vec![vec![none; threads + 1]; u + 1];
    for b in best[0].iter_mut() {
        *b = Best {
            thr: f64::INFINITY,
            stages: 0,
            threads: 0,
            from: 0,
            replicas: 0,
        };
    }
    for i in 1..=u {
        for c in 1..=threads {
            let mut b = none;
            let mut t = 0.0;
            let mut cl = true;
            for j in (0..i).rev() {
                t += time[j];
                cl &= clone[j];
                let max_r = if cl { c.min(cores) } else { 1 };
                for r in 1..=max_r {
                    let p = best[j][c - r];
                    if p.thr == f64::NEG_INFINITY {
                        continue;
                    }
                    let stage_thr = if t <= 0.0 {
                        cpu_cap
                    } else {
                        (r as f64 / t).min(cpu_cap)
                    };
                    let cand = Best {
                        thr: p.thr.min(stage_thr),
                        stages: p.stages + 1,
                        threads: p.threads + r,
                        from: j,
                        replicas: r,
                    };
                    if better(&cand, &b) {
                        b = cand;
                    }
                }
            }
            best[i][c] = b;
        }
    }
    let mut stages = Vec::new();
    let (mut i, mut c) = (u, threads);
    let total = best[u][threads];
    while i > 0 {
        let b = best[i][c];
        let tasks: Vec<TaskId> = (bounds[b.from]..bounds[i])
            .map(|k| profile.tasks[k].task)
            .collect();
        let ns: f64 = (b.from..i).map(|k| time[k]).sum();
        stages.push(PlannedStage {
            tasks,
            replicas: b.replicas,
            ns_per_frame: ns,
        });
        c -= b.replicas;
        i = b.from;
    }
    stages.reverse();
    Plan {
        stages,
        frames_per_second: total.thr * 1e9,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{TaskProfile, TaskStats};

    fn prof(tasks: &[(f64, bool)]) -> SequenceProfile {
        SequenceProfile {
            tasks: tasks
                .iter()
                .enumerate()
                .map(|(i, &(ns, cloneable))| TaskProfile {
                    task: TaskId(i as u32),
                    name: format!("t{i}"),
                    cloneable,
                    control: false,
                    stats: TaskStats {
                        count: 1,
                        total_ns: ns as u64,
                        min_ns: ns as u64,
                        max_ns: ns as u64,
                    },
                })
                .collect(),
            frames: 1,
            spans: Vec::new(),
        }
    }

    #[test]
    fn heavy_cloneable_task_gets_the_spare_cores() {
        // The paper's Fig. 7: t1 sequential, t2..t4 four times t1, t5 t6 light and sequential.
        let p = prof(&[
            (100.0, false),
            (150.0, true),
            (150.0, true),
            (100.0, true),
            (30.0, false),
            (30.0, false),
        ]);
        let plan = plan(&p, 7);
        let shape: Vec<(usize, usize)> = plan
            .stages
            .iter()
            .map(|s| (s.tasks.len(), s.replicas))
            .collect();
        assert_eq!(shape, [(1, 1), (3, 4), (2, 1)]);
        assert!((plan.frames_per_second - 1e9 / 100.0).abs() < 1.0);
        let table = plan.table(&p, 1000.0);
        assert!(table.contains("stage 2"), "{table}");
        // Stage 2: 400 ns on 4 replicas = 1000 bits per 100 ns = 10000 Mb/s.
        let row = table.lines().find(|l| l.starts_with("stage 2")).unwrap();
        assert!(row.contains("10000.00"), "{row}");
    }

    #[test]
    fn light_sequential_ends_do_not_keep_the_heavy_stage_from_the_cores() {
        // source 20, heavy 610 (cloneable), sink 1 ns per frame, 2 cores: the heavy stage gets
        // both cores while the light ends sleep most of the time.
        let p = prof(&[(20.0, false), (610.0, true), (1.0, false)]);
        let plan = plan(&p, 2);
        let shape: Vec<(usize, usize)> = plan
            .stages
            .iter()
            .map(|s| (s.tasks.len(), s.replicas))
            .collect();
        assert_eq!(shape, [(1, 1), (1, 2), (1, 1)]);
        assert!((plan.frames_per_second - 2e9 / 631.0).abs() < 1.0);
    }

    #[test]
    fn one_core_is_one_stage_and_switcher_regions_are_not_cut() {
        let p = prof(&[(10.0, true), (20.0, true), (30.0, true)]);
        let plan1 = plan(&p, 1);
        assert_eq!(plan1.stages.len(), 1);
        assert_eq!(plan1.stages[0].tasks.len(), 3);
        let mut p = prof(&[(10.0, false), (20.0, false), (30.0, false), (40.0, false)]);
        p.spans = vec![(1, 3)];
        let plan2 = plan(&p, 4);
        let sizes: Vec<usize> = plan2.stages.iter().map(|s| s.tasks.len()).collect();
        assert_eq!(sizes, [1, 3]);
    }
}
