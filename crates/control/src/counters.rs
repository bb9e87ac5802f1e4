//! [`Report`]: every block's live counters and rates, and every thread's CPU use, sampled by the
//! control port's own thread at a fixed rate (the graph's blocks are never asked for anything:
//! a sample is relaxed loads of counters the scheduler keeps anyway).

use crate::threads::{self, ThreadSample};
use radioflow_runtime::{BlockId, BlockStats, BufferFill, StatsHandle};
use serde::Serialize;
use std::time::Instant;

/// One block's counters and their rates over the last sampling interval.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BlockSample {
    /// The block's name.
    pub name: String,
    /// Work calls so far.
    pub work_calls: u64,
    /// Items consumed (all stream inputs).
    pub items_in: u64,
    /// Items produced (all stream outputs).
    pub items_out: u64,
    /// Items consumed per second.
    pub in_per_s: f64,
    /// Items produced per second.
    pub out_per_s: f64,
    /// Work calls per second.
    pub calls_per_s: f64,
    /// Share of all blocks' time in work over the interval (0 to 1; timed counters only).
    pub share: f64,
    /// Nanoseconds in work so far (timed counters only).
    pub work_ns: u64,
    /// Steps that found an input empty.
    pub input_empty: u64,
    /// Steps that found an output full.
    pub output_full: u64,
    /// Messages handled.
    pub messages: u64,
    /// The events the block counts itself (a radio's `overflows`), by name; left out of the
    /// JSON when it counts none.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub events: std::collections::BTreeMap<&'static str, u64>,
}

/// How full one stream output's buffer is.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BufferSample {
    /// The writing block.
    pub block: String,
    /// Its output port.
    pub port: String,
    /// Items written and not yet read by the slowest reader.
    pub items: u64,
    /// The buffer's capacity in items.
    pub capacity: u64,
    /// `items / capacity`.
    pub fill: f64,
}

/// A snapshot of the whole graph.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Seconds since the control port started.
    pub t: f64,
    /// Whether the graph runs.
    pub running: bool,
    /// Every block, in index order.
    pub blocks: Vec<BlockSample>,
    /// The block with the largest share of time in work (or, untimed, the most work calls
    /// per second) over the interval, among those that do not wait by design; `None` when
    /// nothing ran or when the graph is paced ([`paced_by`](Self::paced_by)).
    pub bottleneck: Option<String>,
    /// The block that waits on a clock or a device by design (a throttle, a sound card, a
    /// radio) when it has the largest share of all: the graph runs at its pace, and no block
    /// is its bottleneck.
    pub paced_by: Option<String>,
    /// The process's threads.
    pub threads: Vec<ThreadSample>,
    /// Every connected stream output's buffer (while the graph runs).
    pub buffers: Vec<BufferSample>,
}

/// Turns successive counter snapshots into [`Report`]s.
#[derive(Debug)]
pub(crate) struct Sampler {
    names: Vec<String>,
    /// Per block (in index order), whether it waits by design and so is never the bottleneck.
    paced: Vec<bool>,
    /// Connected stream outputs: block index, output index, block name, port name.
    outputs: Vec<(usize, usize, String, String)>,
    origin: Instant,
    last: Option<(Instant, Vec<BlockStats>, Vec<ThreadSample>)>,
}

impl Sampler {
    /// A sampler for blocks named `names` (in index order), `paced` those that wait on a
    /// clock or a device by design.
    pub(crate) fn new(
        names: Vec<String>,
        paced: Vec<bool>,
        outputs: Vec<(usize, usize, String, String)>,
    ) -> Self {
        Self {
            names,
            paced,
            outputs,
            origin: Instant::now(),
            last: None,
        }
    }

    /// Samples `stats`, or a program's `tasks` counters (neither: nothing runs; the last
    /// counters are kept).
    pub(crate) fn sample(
        &mut self,
        stats: Option<&StatsHandle>,
        tasks: Option<Vec<BlockStats>>,
        fill: Option<&BufferFill>,
    ) -> Report {
        let now = Instant::now();
        let running = stats.is_some() || tasks.is_some();
        let current: Vec<BlockStats> = match (stats, tasks) {
            (Some(h), _) => (0..self.names.len())
                .map(|i| h.get(BlockId::from_index(i)).unwrap_or_default())
                .collect(),
            (None, Some(t)) => t,
            (None, None) => self
                .last
                .as_ref()
                .map(|l| l.1.clone())
                .unwrap_or_else(|| vec![BlockStats::default(); self.names.len()]),
        };
        let mut threads = threads::sample();
        let (dt, previous, previous_threads) = match &self.last {
            Some((t, p, pt)) => ((now - *t).as_secs_f64(), Some(p), Some(pt)),
            None => (0.0, None, None),
        };
        let rate = |a: u64, b: u64| {
            if dt > 0.0 {
                a.saturating_sub(b) as f64 / dt
            } else {
                0.0
            }
        };
        let zero = BlockStats::default();
        let mut blocks: Vec<BlockSample> = current
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let p = previous.and_then(|p| p.get(i)).unwrap_or(&zero);
                BlockSample {
                    name: self.names[i].clone(),
                    work_calls: s.work_calls,
                    items_in: s.items_consumed,
                    items_out: s.items_produced,
                    in_per_s: rate(s.items_consumed, p.items_consumed),
                    out_per_s: rate(s.items_produced, p.items_produced),
                    calls_per_s: rate(s.work_calls, p.work_calls),
                    share: s.work_ns.saturating_sub(p.work_ns) as f64,
                    work_ns: s.work_ns,
                    input_empty: s.input_empty,
                    output_full: s.output_full,
                    messages: s.messages,
                    events: s.events.iter().copied().collect(),
                }
            })
            .collect();
        let total: f64 = blocks.iter().map(|b| b.share).sum();
        for b in &mut blocks {
            b.share = if total > 0.0 { b.share / total } else { 0.0 };
        }
        let key = |b: &BlockSample| if total > 0.0 { b.share } else { b.calls_per_s };
        // A block that waits by design (a throttle sleeping to its rate) spends its time
        // waiting, not computing: the bottleneck is the busiest of the others, unless the
        // busiest of all waits by design (then the graph keeps its pace, and none is).
        let paced = |i: usize| self.paced.get(i).copied().unwrap_or(false);
        let busiest = |want_paced: bool| {
            blocks
                .iter()
                .enumerate()
                .filter(|(i, b)| paced(*i) == want_paced && key(b) > 0.0)
                .max_by(|(_, a), (_, b)| key(a).total_cmp(&key(b)))
                .map(|(_, b)| b)
        };
        let (computing, waiting) = (busiest(false), busiest(true));
        let (bottleneck, paced_by) = match (computing, waiting) {
            (Some(c), Some(w)) if key(w) > key(c) => (None, Some(w.name.clone())),
            (c, _) => (c.map(|b| b.name.clone()), None),
        };
        if let Some(pt) = previous_threads {
            for t in &mut threads {
                if let Some(p) = pt.iter().find(|p| p.tid == t.tid)
                    && dt > 0.0
                {
                    t.cpu_share = ((t.cpu_s - p.cpu_s) / dt).max(0.0);
                }
            }
        }
        let buffers = fill
            .map(|f| {
                self.outputs
                    .iter()
                    .filter_map(|(b, o, block, port)| {
                        let (items, capacity) = f.get(BlockId::from_index(*b), *o)?;
                        Some(BufferSample {
                            block: block.clone(),
                            port: port.clone(),
                            items,
                            capacity,
                            fill: if capacity > 0 {
                                items as f64 / capacity as f64
                            } else {
                                0.0
                            },
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.last = Some((now, current, threads.clone()));
        Report {
            t: (now - self.origin).as_secs_f64(),
            running,
            blocks,
            bottleneck,
            paced_by,
            threads,
            buffers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_s_own_events_reach_the_report_by_name_and_only_where_counted() {
        let mut sampler = Sampler::new(
            vec!["radio".into(), "sink".into()],
            vec![true, false],
            vec![],
        );
        let radio = BlockStats {
            events: vec![("overflows", 3), ("timeouts", 0)],
            ..BlockStats::default()
        };
        let report = sampler.sample(None, Some(vec![radio, BlockStats::default()]), None);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(
            json["blocks"][0]["events"],
            serde_json::json!({"overflows": 3, "timeouts": 0})
        );
        assert!(json["blocks"][1].get("events").is_none(), "{json}");
    }
}
