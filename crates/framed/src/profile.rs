//! Per-task profiling: count, total/min/avg/max duration, and the paper's Table 3.

use std::fmt::Write;

/// Durations of one task over the frames it ran on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskStats {
    /// Executions.
    pub count: u64,
    /// Sum of durations (ns).
    pub total_ns: u64,
    /// Shortest (ns); `u64::MAX` before the first execution.
    pub min_ns: u64,
    /// Longest (ns).
    pub max_ns: u64,
}

impl Default for TaskStats {
    fn default() -> Self {
        TaskStats {
            count: 0,
            total_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
        }
    }
}

impl TaskStats {
    #[inline]
    pub(crate) fn record(&mut self, ns: u64) {
        self.count += 1;
        self.total_ns += ns;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
    }

    /// Mean duration (ns), 0 before the first execution.
    pub fn avg_ns(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total_ns as f64 / self.count as f64
        }
    }
}

/// One task's row of a [`SequenceProfile`].
#[derive(Clone, Debug)]
pub struct TaskProfile {
    /// The task.
    pub task: crate::TaskId,
    /// Its name.
    pub name: String,
    /// Whether it may be duplicated (its module can be cloned).
    pub cloneable: bool,
    /// Whether it is a switcher task (select or commute; durations are not measured).
    pub control: bool,
    /// Durations.
    pub stats: TaskStats,
}

/// Per-task statistics of a profiled run of a sequence (or of a pipeline, its stages' tasks
/// together), in execution order. Not the streaming runtime's per-block
/// [`Profile`](radioflow_runtime::Profile).
#[derive(Clone, Debug, Default)]
pub struct SequenceProfile {
    /// Tasks in the order the sequence runs them.
    pub tasks: Vec<TaskProfile>,
    /// Frames the sequence ran (including aborted ones).
    pub frames: u64,
    /// Positions in `tasks` (inclusive ranges) a pipeline must not cut (switcher regions).
    pub(crate) spans: Vec<(usize, usize)>,
}

impl SequenceProfile {
    /// Mean time a task takes per frame (ns): its total over the frames (a task in a loop
    /// counts every iteration).
    pub fn ns_per_frame(&self, i: usize) -> f64 {
        self.tasks[i].stats.total_ns as f64 / self.frames.max(1) as f64
    }

    /// Whether a pipeline may cut between task `i - 1` and task `i`.
    pub fn can_cut_before(&self, i: usize) -> bool {
        i > 0 && i < self.tasks.len() && !self.spans.iter().any(|&(a, b)| a < i && i <= b)
    }

    /// A table like the paper's Table 3: per task, throughput normalised to `info_bits` of
    /// information per frame (Mb/s), latency avg/min/max (µs), share of the time (%); then the
    /// total.
    pub fn table(&self, info_bits: f64) -> String {
        let total: u64 = self.tasks.iter().map(|t| t.stats.total_ns).sum();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<28} {:>4} {:>10} {:>12} {:>10} {:>10} {:>10} {:>7}",
            "task", "dup", "count", "Mb/s", "avg µs", "min µs", "max µs", "time %"
        );
        for (i, t) in self.tasks.iter().enumerate() {
            if t.control {
                continue;
            }
            let per_frame = self.ns_per_frame(i);
            let _ = writeln!(
                s,
                "{:<28} {:>4} {:>10} {:>12.2} {:>10.2} {:>10.2} {:>10.2} {:>7.2}",
                t.name,
                if t.cloneable { "yes" } else { "no" },
                t.stats.count,
                mbps(info_bits, per_frame),
                t.stats.avg_ns() / 1e3,
                if t.stats.count == 0 {
                    0.0
                } else {
                    t.stats.min_ns as f64 / 1e3
                },
                t.stats.max_ns as f64 / 1e3,
                100.0 * t.stats.total_ns as f64 / total.max(1) as f64
            );
        }
        let per_frame = total as f64 / self.frames.max(1) as f64;
        let _ = writeln!(
            s,
            "{:<28} {:>4} {:>10} {:>12.2} {:>10.2} {:>10} {:>10} {:>7.2}",
            "total",
            "",
            self.frames,
            mbps(info_bits, per_frame),
            per_frame / 1e3,
            "",
            "",
            100.0
        );
        s
    }
}

fn mbps(bits: f64, ns: f64) -> f64 {
    if ns <= 0.0 {
        f64::INFINITY
    } else {
        bits / ns * 1e3
    }
}
