//! `flow` hands chains between workers while they run (`scheduler/balance.rs`): the data stays
//! exact, and a block really changes threads (seen in the run's trace).

use radioflow_blocks::runtime::prelude::*;
use radioflow_blocks::runtime::testing::{Counter, FailAfter, Sink};
use radioflow_blocks::runtime::{
    BlockId, FlowScheduler, Flowgraph, TraceConfig, COUNTERS_COMPILED,
};
use radioflow_blocks::{Copy, Head, NullSink, NullSource, VectorSink, VectorSource};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Threads (trace `tid`s) that ran each block's work calls. `None` when the runtime was built
/// without counters (`no-counters`), which also compiles traces out.
fn threads_per_block(fg: &Flowgraph) -> Option<HashMap<String, HashSet<u64>>> {
    if !COUNTERS_COMPILED {
        return None;
    }
    let mut json = Vec::new();
    fg.trace()
        .expect("the trace was asked for")
        .write_chrome_json(&mut json)
        .unwrap();
    let trace: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let mut per_block: HashMap<String, HashSet<u64>> = HashMap::new();
    for e in trace["traceEvents"].as_array().unwrap() {
        if e["ph"] == "X" {
            per_block
                .entry(e["name"].as_str().unwrap().to_owned())
                .or_default()
                .insert(e["tid"].as_u64().unwrap());
        }
    }
    Some(per_block)
}

/// `pipes` pipes of null source -> head(items) -> `copies` copies -> null sink.
fn pipes(fg: &mut Flowgraph, pipes: usize, copies: usize, items: u64) -> Vec<BlockId> {
    let mut sinks = Vec::new();
    for _ in 0..pipes {
        let mut prev = fg.add(NullSource::<f32>::new());
        let head = fg.add(Head::<f32>::new(items));
        fg.connect(prev, head).unwrap();
        prev = head;
        for _ in 0..copies {
            let c = fg.add(Copy::<f32>::new());
            fg.connect(prev, c).unwrap();
            prev = c;
        }
        let sink = fg.add(NullSink::<f32>::new());
        fg.connect(prev, sink).unwrap();
        sinks.push(sink);
    }
    sinks
}

#[test]
fn handed_over_chains_keep_every_item_in_order() {
    let mut fg = Flowgraph::new();
    fg.set_trace(Some(TraceConfig {
        events_per_block: 1 << 16,
    }));
    let mut sinks = Vec::new();
    for p in 0..3u32 {
        let data: Vec<u32> = (0..200_000u32).map(|k| k.wrapping_mul(p + 1)).collect();
        let src = fg.add(VectorSource::new(data));
        let a = fg.add(Copy::<u32>::new());
        let b = fg.add(Copy::<u32>::new());
        let sink = fg.add(VectorSink::<u32>::new());
        fg.connect(src, a).unwrap();
        fg.connect(a, b).unwrap();
        fg.connect(b, sink).unwrap();
        sinks.push(sink);
    }
    let s = FlowScheduler::new()
        .workers(2)
        .chunk_bytes(1024)
        .buffer_bytes(8192)
        .balance_stress(2);
    fg.run_with(&s).unwrap();
    for (p, &sink) in sinks.iter().enumerate() {
        let got = fg.block::<VectorSink<u32>>(sink).unwrap().data();
        assert!(
            got.iter()
                .copied()
                .eq((0..200_000u32).map(|k| k.wrapping_mul(p as u32 + 1))),
            "pipe {p}"
        );
    }
    if let Some(threads) = threads_per_block(&fg) {
        let moved = threads.values().filter(|t| t.len() > 1).count();
        assert!(moved > 0, "stress mode must move blocks between threads");
    }
}

#[test]
fn a_single_chain_cut_for_an_idle_worker_keeps_every_item_in_order() {
    // One chain of eight blocks on two workers: worker 1 starts with nothing. Stress turns cut
    // the chain in its middle (unmeasured, `scheduler/cut.rs`) and hand the tail to the other
    // worker, again and again while pieces of two or more blocks are left: every cut first
    // moves the chain's items out of its regions, so no region is used by two threads.
    for chunk in [1024, 4096] {
        let mut fg = Flowgraph::new();
        fg.set_trace(Some(TraceConfig {
            events_per_block: 1 << 16,
        }));
        let data: Vec<u32> = (0..300_000u32)
            .map(|k| k.wrapping_mul(2_654_435_761))
            .collect();
        let mut prev = fg.add(VectorSource::new(data.clone()));
        for _ in 0..6 {
            let c = fg.add(Copy::<u32>::new());
            fg.connect(prev, c).unwrap();
            prev = c;
        }
        let sink = fg.add(VectorSink::<u32>::new());
        fg.connect(prev, sink).unwrap();
        let s = FlowScheduler::new()
            .workers(2)
            .chunk_bytes(chunk)
            .buffer_bytes(4 * chunk)
            .balance_stress(2);
        fg.run_with(&s).unwrap();
        assert!(
            fg.block::<VectorSink<u32>>(sink).unwrap().data() == data.as_slice(),
            "chunk {chunk}: the chain's output differs from its input"
        );
        if let Some(threads) = threads_per_block(&fg) {
            let all: HashSet<u64> = threads.values().flatten().copied().collect();
            assert!(all.len() >= 2, "chunk {chunk}: one chain stayed on {all:?}");
        }
    }
}

#[test]
fn a_cut_can_be_switched_off() {
    // Without stress turns nothing is cut unless measured costs say so; with `cut(false)` the
    // idle worker is not even started: every block runs on one thread.
    let mut fg = Flowgraph::new();
    fg.set_trace(Some(TraceConfig {
        events_per_block: 1 << 16,
    }));
    let sinks = pipes(&mut fg, 1, 6, 2_000_000);
    fg.run_with(&FlowScheduler::new().workers(2).cut(false))
        .unwrap();
    assert_eq!(
        fg.block::<NullSink<f32>>(sinks[0]).unwrap().items(),
        2_000_000
    );
    if let Some(threads) = threads_per_block(&fg) {
        let all: HashSet<u64> = threads.values().flatten().copied().collect();
        assert_eq!(all.len(), 1, "{threads:?}");
    }
}

/// A source of zeros that runs until a block of the run has been seen on a second thread
/// (`moved`, which it sets itself when its own work calls change threads), or until `cap`
/// items: the pipes it feeds outlive any scheduling delay, so the test does not depend on how
/// fast the machine is or how busy.
#[derive(Ports)]
struct UntilMoved {
    #[output]
    out: StreamOutput<f32>,
    moved: Arc<AtomicBool>,
    cap: u64,
    produced: u64,
    first_thread: Option<std::thread::ThreadId>,
}

#[block]
impl UntilMoved {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let here = std::thread::current().id();
        if *self.first_thread.get_or_insert(here) != here {
            self.moved.store(true, Ordering::Relaxed);
        }
        if self.moved.load(Ordering::Relaxed) || self.produced >= self.cap {
            return Ok(WorkStatus::Done);
        }
        let n = (self.out.slice().len() as u64).min(self.cap - self.produced) as usize;
        self.out.slice()[..n].fill(0.0);
        self.out.produce(n);
        self.produced += n as u64;
        Ok(WorkStatus::Continue)
    }
}

#[test]
fn a_worker_that_ran_out_of_blocks_takes_a_chain_over() {
    // Three pipes of three blocks on two workers (too few blocks to cut one at start): the
    // first and third go to worker 0, the second, much shorter, to worker 1. When worker 1 has
    // finished its pipe, it must take one of the other two over. The long pipes run until a
    // block has changed threads (with balancing), or for 30 M items (without, where nothing
    // may move); with balancing, 2^36 items is only a guard against a hang.
    let run = |balance: bool| {
        let mut fg = Flowgraph::new();
        fg.set_trace(Some(TraceConfig {
            events_per_block: 1 << 16,
        }));
        let moved = Arc::new(AtomicBool::new(false));
        let long = if balance { 1u64 << 36 } else { 30_000_000 };
        let mut pipes = Vec::new();
        for n in [long, 1_000_000, long] {
            let src = if n == long {
                fg.add(UntilMoved {
                    out: StreamOutput::new(),
                    moved: moved.clone(),
                    cap: n,
                    produced: 0,
                    first_thread: None,
                })
            } else {
                fg.add(NullSource::<f32>::new())
            };
            let head = fg.add(Head::<f32>::new(n));
            let sink = fg.add(NullSink::<f32>::new());
            fg.connect(src, head).unwrap();
            fg.connect(head, sink).unwrap();
            pipes.push((src, sink, n));
        }
        fg.run_with(&FlowScheduler::new().workers(2).balance(balance))
            .unwrap();
        for &(src, sink, n) in &pipes {
            let got = fg.block::<NullSink<f32>>(sink).unwrap().items();
            match fg.block::<UntilMoved>(src) {
                // Every item the source made reached the sink.
                Some(s) => assert_eq!(got, s.produced),
                None => assert_eq!(got, n),
            }
        }
        if balance {
            assert!(
                moved.load(Ordering::Relaxed),
                "no block of a long pipe changed threads within 2^36 items"
            );
        }
        threads_per_block(&fg)
    };
    let (Some(fixed), Some(balanced)) = (run(false), run(true)) else {
        return; // no traces in a build without counters; items and `moved` were checked
    };
    assert!(
        fixed.values().all(|t| t.len() == 1),
        "without balancing every block stays on its worker"
    );
    let moved: Vec<&String> = balanced
        .iter()
        .filter(|(_, t)| t.len() > 1)
        .map(|(b, _)| b)
        .collect();
    // A whole pipe moves: source, head and sink.
    assert!(
        moved.len() >= 3,
        "a pipe should have moved, moved: {moved:?}"
    );
}

/// An endless pipe and a short one on two workers: the worker of the short one then waits,
/// hungry, for work that never comes (the other has a single chain); a stop or a failure must
/// still end the run.
fn endless_and_short(fg: &mut Flowgraph, fail_after: Option<u64>) {
    let src = fg.add(Counter::new(u64::MAX));
    let mid: BlockId = match fail_after {
        Some(n) => fg.add(FailAfter::error(n)),
        None => fg.add(Sink::new()),
    };
    fg.connect(src, mid).unwrap();
    if fail_after.is_some() {
        let sink = fg.add(NullSink::<u32>::new());
        fg.connect(mid, sink).unwrap();
    }
    pipes(fg, 1, 0, 1000);
}

#[test]
fn stop_and_failure_end_a_run_with_a_hungry_worker() {
    let s = FlowScheduler::new().workers(2);
    let mut fg = Flowgraph::new();
    endless_and_short(&mut fg, None);
    fg.start(&s).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    fg.stop();
    fg.wait().unwrap();

    let mut fg = Flowgraph::new();
    endless_and_short(&mut fg, Some(5_000_000));
    let err = fg.run_with(&s).unwrap_err().to_string();
    assert!(err.contains("fail_after0"), "{err}");
}

/// A sink that, once its work runs on another thread than its first call did (a cut handed it
/// to the worker that started idle), sleeps a minute the way blocks wait (interruptibly).
struct SleepsOnceMoved {
    input: radioflow_blocks::runtime::StreamInput<f32>,
    first: Option<std::thread::ThreadId>,
    /// Told once, when the block finds itself on another thread.
    moved: Option<std::sync::mpsc::Sender<()>>,
    /// Told whether the sleep ran its whole minute (`true`) or a stop cut it short.
    slept: std::sync::mpsc::Sender<bool>,
}

impl radioflow_blocks::runtime::Block for SleepsOnceMoved {
    fn ports(&mut self, p: &mut radioflow_blocks::runtime::Ports<'_>) {
        p.stream_input("in", &mut self.input);
    }

    fn work(
        &mut self,
    ) -> Result<radioflow_blocks::runtime::WorkStatus, radioflow_blocks::runtime::BlockError> {
        let me = std::thread::current().id();
        if *self.first.get_or_insert(me) != me {
            if let Some(moved) = self.moved.take() {
                moved.send(()).ok();
            }
            let whole =
                radioflow_blocks::runtime::interruptible_sleep(std::time::Duration::from_secs(60));
            self.slept.send(whole).ok();
            if !whole {
                return Ok(radioflow_blocks::runtime::WorkStatus::Continue);
            }
        }
        let n = self.input.slice().len();
        self.input.consume(n);
        Ok(radioflow_blocks::runtime::WorkStatus::Continue)
    }
}

#[test]
fn a_block_handed_to_a_worker_that_started_idle_wakes_for_a_stop() {
    // The worker a chain is cut for starts without blocks; it must still enter the run, so a
    // block it is handed sleeps the way a stop interrupts. Were it not, the stop below would
    // wait out the whole minute.
    let (moved, on_another_thread) = std::sync::mpsc::channel();
    let (slept, sleeps) = std::sync::mpsc::channel();
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let sink = fg.add(SleepsOnceMoved {
        input: radioflow_blocks::runtime::StreamInput::new(),
        first: None,
        moved: Some(moved),
        slept,
    });
    fg.connect(src, sink).unwrap();
    fg.start(&FlowScheduler::new().workers(2).balance_stress(2))
        .unwrap();
    on_another_thread
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("stress turns never cut the chain");
    fg.stop();
    fg.wait().unwrap();
    // The block reports how its first sleep ended: cut short by the stop, not run out (no
    // clock is read; a sleep that ignored the stop would report `true` after its minute).
    assert_eq!(
        sleeps.try_recv(),
        Ok(false),
        "the stop did not reach the block's sleep"
    );
}
