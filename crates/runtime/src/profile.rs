//! [`Profile`]: a per-block table of the last run (share of time, throughput, latency),
//! like the DSEL paper's Table 3, with the bottleneck marked.

use crate::block_id::BlockId;
use crate::flowgraph::Flowgraph;
use crate::stats::{BlockStats, ThreadStats};
use std::fmt;

/// One block's line of a [`Profile`].
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileRow {
    /// Instance name.
    pub name: String,
    /// Its counters.
    pub stats: BlockStats,
    /// Its time in work as a share of all blocks' time in work (0..=1).
    pub share: f64,
    /// Items per second of its own time in work: produced, or consumed for a sink. The rate
    /// the block could sustain alone on one core.
    pub throughput: f64,
    /// The block that takes the largest share of time.
    pub bottleneck: bool,
}

/// The profile of a flowgraph's last run, built from its counters (run it with
/// [`Counters::Timed`](crate::Counters::Timed) for the time columns).
///
/// Time in work is what `work` took, so a block that waits inside `work` (a throttle, a
/// real-time source sleeping until samples are due) shows its waiting as time and may be
/// marked the bottleneck; message handling is not timed (see the `msgs` column).
///
/// ```
/// use radioflow_runtime::prelude::*;
/// use radioflow_runtime::testing::{Counter, Sink};
/// use radioflow_runtime::{Counters, Profile};
/// let mut fg = Flowgraph::new();
/// let src = fg.add(Counter::new(10_000));
/// let sink = fg.add(Sink::new());
/// fg.connect(src, sink).unwrap();
/// fg.set_counters(Counters::Timed);
/// fg.run().unwrap();
/// let profile = Profile::of(&fg, 0.01);
/// assert_eq!(profile.rows.len(), 2);
/// println!("{profile}");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// One row per block, in the order added.
    pub rows: Vec<ProfileRow>,
    /// Wall-clock seconds of the run (as measured by the caller).
    pub seconds: f64,
    /// Context switches of every scheduler thread.
    pub threads: Vec<ThreadStats>,
}

impl Profile {
    /// The profile of `fg`'s last run, which took `seconds`.
    pub fn of(fg: &Flowgraph, seconds: f64) -> Self {
        let stats: Vec<BlockStats> = (0..fg.len())
            .map(|i| {
                fg.stats(BlockId::from_index(i))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        let total: u64 = stats.iter().map(|s| s.work_ns).sum();
        let slowest = stats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.work_ns > 0)
            .max_by_key(|(_, s)| s.work_ns)
            .map(|(i, _)| i);
        let rows = stats
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let items = if s.items_produced > 0 {
                    s.items_produced
                } else {
                    s.items_consumed
                };
                ProfileRow {
                    name: fg.name(BlockId::from_index(i)).to_owned(),
                    share: if total > 0 {
                        s.work_ns as f64 / total as f64
                    } else {
                        0.0
                    },
                    throughput: if s.work_ns > 0 {
                        items as f64 / (s.work_ns as f64 * 1e-9)
                    } else {
                        0.0
                    },
                    bottleneck: slowest == Some(i),
                    stats: s,
                }
            })
            .collect();
        Self {
            rows,
            seconds,
            threads: fg.thread_stats().to_vec(),
        }
    }

    /// The bottleneck's row, if time was recorded.
    pub fn bottleneck(&self) -> Option<&ProfileRow> {
        self.rows.iter().find(|r| r.bottleneck)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .rows
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        writeln!(
            f,
            "{:<width$}  {:>9} {:>12} {:>12} {:>7} {:>11}  {:>28}  {:>9} {:>9} {:>6}",
            "block",
            "calls",
            "items in",
            "items out",
            "time %",
            "Mitems/s",
            "latency us min / avg / max",
            "in empty",
            "out full",
            "msgs",
        )?;
        for r in &self.rows {
            let s = &r.stats;
            writeln!(
                f,
                "{:<width$}  {:>9} {:>12} {:>12} {:>7.2} {:>11.1}  {:>8.2} / {:>7.2} / {:>7.1}  {:>9} {:>9} {:>6}{}",
                r.name,
                s.work_calls,
                s.items_consumed,
                s.items_produced,
                100.0 * r.share,
                r.throughput / 1e6,
                s.work_ns_min as f64 / 1e3,
                s.work_ns_avg() / 1e3,
                s.work_ns_max as f64 / 1e3,
                s.input_empty,
                s.output_full,
                s.messages,
                if r.bottleneck { "  <- bottleneck" } else { "" },
            )?;
        }
        let busy: u64 = self.rows.iter().map(|r| r.stats.work_ns).sum();
        write!(
            f,
            "run {:.4} s; time in work {:.4} s over {} thread(s)",
            self.seconds,
            busy as f64 * 1e-9,
            self.threads.len()
        )?;
        let vol: u64 = self.threads.iter().map(|t| t.voluntary_switches).sum();
        let inv: u64 = self.threads.iter().map(|t| t.involuntary_switches).sum();
        let cpu: f64 = self.threads.iter().map(|t| t.cpu_time.as_secs_f64()).sum();
        write!(
            f,
            "; on a CPU {cpu:.4} s; context switches {vol} voluntary, {inv} involuntary"
        )
    }
}
