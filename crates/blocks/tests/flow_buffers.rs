//! `flow` gives a connection between two workers a larger buffer than the cache-sized ones
//! inside a chain, so that the two workers do not wake each other chunk by chunk; and the
//! connections inside a chain borrow the chain's two regions, so that a chunk goes down the
//! chain through memory that stays in L1.

use radioflow_blocks::runtime::copy_work;
use radioflow_blocks::runtime::prelude::*;
use radioflow_blocks::runtime::{FlowScheduler, Flowgraph};
use radioflow_blocks::{Copy, Head, NullSink, NullSource, VectorSink, VectorSource};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Passes items on, one per call for its first `slow_calls` calls (so that its input buffer
/// fills up), and records the largest readable window it saw, in bytes.
struct WindowProbe {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    slow_calls: usize,
    largest: Arc<AtomicUsize>,
}

impl Block for WindowProbe {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
        p.stream_output("out", &mut self.output);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let readable = std::mem::size_of_val(self.input.slice());
        self.largest.fetch_max(readable, Ordering::Relaxed);
        let limit = if self.slow_calls > 0 {
            self.slow_calls -= 1;
            1
        } else {
            usize::MAX
        };
        one_to_one_work(&mut self.input, &mut self.output, limit, |i, o| {
            o.copy_from_slice(i)
        });
        Ok(WorkStatus::Continue)
    }
}

/// null source -> head(`items`) -> `branches` x (probe -> sink); returns the graph and each
/// probe's largest readable window.
fn fan_out(items: u64, branches: usize) -> (Flowgraph, Vec<Arc<AtomicUsize>>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(items));
    fg.connect(src, head).unwrap();
    let mut largest = Vec::new();
    for _ in 0..branches {
        let seen = Arc::new(AtomicUsize::new(0));
        let probe = fg.add(WindowProbe {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            slow_calls: 20_000,
            largest: seen.clone(),
        });
        let sink = fg.add(NullSink::<f32>::new());
        fg.connect(head, probe).unwrap();
        fg.connect(probe, sink).unwrap();
        largest.push(seen);
    }
    (fg, largest)
}

#[test]
fn a_connection_between_workers_gets_a_large_buffer() {
    let chunk = 8 * 1024;
    // Two chains (probe -> sink) after the head: with two workers the chains go to different
    // workers, so one probe reads the head's buffer from the other worker.
    let (mut fg, largest) = fan_out(1 << 20, 2);
    fg.run_with(
        &FlowScheduler::new()
            .workers(2)
            .chunk_bytes(chunk)
            .balance(false),
    )
    .unwrap();
    let seen: Vec<usize> = largest.iter().map(|s| s.load(Ordering::Relaxed)).collect();
    // Inside a chain a buffer holds 2 chunks (16 KiB); the head's buffer, read from both
    // workers, may hold 1 MiB, and the slow probes let it fill.
    assert!(
        seen.iter().any(|&b| b > 4 * chunk),
        "largest readable windows {seen:?} bytes: no buffer beyond 4 chunks"
    );
    assert!(seen.iter().all(|&b| b <= 1 << 20), "{seen:?}");
}

#[test]
fn connections_inside_a_worker_keep_cache_sized_buffers() {
    let chunk = 8 * 1024;
    // One chain on one worker: every buffer stays at 2 chunks.
    let (mut fg, largest) = fan_out(1 << 18, 1);
    fg.run_with(&FlowScheduler::new().workers(1).chunk_bytes(chunk))
        .unwrap();
    let seen = largest[0].load(Ordering::Relaxed);
    assert!(
        seen > 0 && seen <= 2 * chunk,
        "largest readable window {seen} bytes"
    );
}

/// Copies its input and records the addresses of the output windows it wrote into.
struct AddressProbe {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    seen: Arc<Mutex<BTreeSet<usize>>>,
}

impl Block for AddressProbe {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
        p.stream_output("out", &mut self.output);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let at = self.output.slice().as_ptr() as usize;
        let n = one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
            o.copy_from_slice(i)
        });
        if n > 0 {
            self.seen.lock().unwrap().insert(at);
        }
        Ok(WorkStatus::Continue)
    }
}

/// null source -> head -> 4 probes -> sink on `scheduler`; the output addresses of each probe.
fn probed_chain(scheduler: FlowScheduler) -> Vec<BTreeSet<usize>> {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(1 << 20));
    fg.connect(src, head).unwrap();
    let mut last = head;
    let mut seen = Vec::new();
    for _ in 0..4 {
        let s = Arc::new(Mutex::new(BTreeSet::new()));
        let probe = fg.add(AddressProbe {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            seen: s.clone(),
        });
        fg.connect(last, probe).unwrap();
        last = probe;
        seen.push(s);
    }
    let sink = fg.add(NullSink::<f32>::new());
    fg.connect(last, sink).unwrap();
    fg.run_with(&scheduler.workers(1).chunk_bytes(8 * 1024))
        .unwrap();
    seen.iter().map(|s| s.lock().unwrap().clone()).collect()
}

#[test]
fn a_chain_passes_chunks_through_two_shared_regions() {
    let seen = probed_chain(FlowScheduler::new());
    // Probes two apart write into the same region, probes next to each other never share.
    assert!(
        !seen[0].is_disjoint(&seen[2]) && !seen[1].is_disjoint(&seen[3]),
        "{seen:?}"
    );
    assert!(seen[0].is_disjoint(&seen[1]) && seen[2].is_disjoint(&seen[3]));
    // Without regions every connection writes into its own ring.
    let rings = probed_chain(FlowScheduler::new().regions(false));
    for (i, a) in rings.iter().enumerate() {
        for b in &rings[i + 1..] {
            assert!(a.is_disjoint(b), "{rings:?}");
        }
    }
}

/// Copies its input with [`copy_work`] and records whether its output was marked as read on
/// another core.
struct MarkProbe {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    marked: Arc<AtomicBool>,
    unmarked: Arc<AtomicBool>,
}

impl Block for MarkProbe {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
        p.stream_output("out", &mut self.output);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let flag = if self.output.read_elsewhere() {
            &self.marked
        } else {
            &self.unmarked
        };
        flag.store(true, Ordering::Relaxed);
        copy_work(&mut self.input, &mut self.output, usize::MAX);
        Ok(WorkStatus::Continue)
    }
}

/// vector source -> probe -> 2 x (copy -> vector sink) on `scheduler`: whether the probe saw
/// its output marked and unmarked, and what each sink received.
fn marked_fan_out(scheduler: FlowScheduler, data: &[f32]) -> ((bool, bool), Vec<Vec<f32>>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data.to_vec()));
    let (marked, unmarked) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let probe = fg.add(MarkProbe {
        input: StreamInput::new(),
        output: StreamOutput::new(),
        marked: marked.clone(),
        unmarked: unmarked.clone(),
    });
    fg.connect(src, probe).unwrap();
    let mut sinks = Vec::new();
    for _ in 0..2 {
        let copy = fg.add(Copy::<f32>::new());
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(probe, copy).unwrap();
        fg.connect(copy, sink).unwrap();
        sinks.push(sink);
    }
    fg.run_with(&scheduler.balance(false)).unwrap();
    let received = sinks
        .iter()
        .map(|&s| fg.block::<VectorSink<f32>>(s).unwrap().data().to_vec())
        .collect();
    (
        (
            marked.load(Ordering::Relaxed),
            unmarked.load(Ordering::Relaxed),
        ),
        received,
    )
}

#[test]
fn outputs_read_on_another_worker_are_marked_and_stream_every_item() {
    // 1.2 MB of distinct values, in chunks of 64 KiB: the marked copies take the streaming path.
    let data: Vec<f32> = (0..300_000).map(|i| i as f32 * 0.5 - 7.0).collect();
    let chunk = 64 * 1024;
    // Two workers: the source and probe on one, the two copy chains split between them, so one
    // copy reads the probe's output from the other worker.
    let (flags, received) =
        marked_fan_out(FlowScheduler::new().workers(2).chunk_bytes(chunk), &data);
    assert_eq!(flags, (true, false), "(marked, unmarked) seen by the probe");
    for r in &received {
        assert!(
            r == &data,
            "a sink received {} items, not the source's {}",
            r.len(),
            data.len()
        );
    }
    // One worker, or the marks turned off: never marked, same items.
    for scheduler in [
        FlowScheduler::new().workers(1).chunk_bytes(chunk),
        FlowScheduler::new()
            .workers(2)
            .chunk_bytes(chunk)
            .streaming_stores(false),
    ] {
        let (flags, received) = marked_fan_out(scheduler, &data);
        assert_eq!(flags, (false, true), "(marked, unmarked) seen by the probe");
        assert!(received.iter().all(|r| r == &data));
    }
}
