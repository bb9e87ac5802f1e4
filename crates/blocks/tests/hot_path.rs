//! The hot path allocates nothing: a run's allocation count does not grow with the number of
//! items or messages it moves (set-up allocates the same amount whatever the size).
//!
//! The counter sees every thread of the process, so this test has no libtest harness
//! (`harness = false` in Cargo.toml): with one, the harness's main thread allocates when
//! another test ends or prints, at a moment that depends on scheduling, and a run could count
//! it (once seen: 347 allocations for 1e5 items against 341 for 2e7). Here the checks run one
//! after the other on the main thread, and nothing else runs.

use radioflow_blocks::{
    Copy, FirFilter, Head, MessageBurstSource, MessageCounter, MessageForwarder, NullSink,
    NullSource,
};
use radioflow_runtime::{
    Complex32, Counters, Flowgraph, Pmt, Scheduler, SingleThread, ThreadPerBlock, TraceConfig,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_of_stream_run(s: &dyn Scheduler, samples: u64) -> u64 {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(samples));
    fg.connect(src, head).unwrap();
    for _ in 0..2 {
        let c1 = fg.add(Copy::<f32>::new());
        let c2 = fg.add(Copy::<f32>::new());
        let sink = fg.add(NullSink::<f32>::new());
        fg.connect(head, c1).unwrap();
        fg.connect(c1, c2).unwrap();
        fg.connect(c2, sink).unwrap();
    }
    let before = ALLOCS.load(Relaxed);
    fg.run_with(s).unwrap();
    ALLOCS.load(Relaxed) - before
}

/// null source -> head -> FIR (100 taps) -> null sink with time counters on and a trace ring
/// of 64 events that a large run wraps many times.
fn allocations_of_timed_fir_run(samples: u64) -> u64 {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<Complex32>::new());
    let head = fg.add(Head::<Complex32>::new(samples));
    let fir = fg.add(FirFilter::<Complex32>::new(&[0.5; 100]));
    let sink = fg.add(NullSink::<Complex32>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, fir).unwrap();
    fg.connect(fir, sink).unwrap();
    fg.set_counters(Counters::Timed);
    fg.set_trace(Some(TraceConfig {
        events_per_block: 64,
    }));
    let before = ALLOCS.load(Relaxed);
    fg.run_with(&ThreadPerBlock::new()).unwrap();
    ALLOCS.load(Relaxed) - before
}

fn stream_runs_allocate_the_same_whatever_the_number_of_items() {
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
    ];
    for s in schedulers {
        // The first run in a process also pays one-time initialisation.
        allocations_of_stream_run(s.as_ref(), 1000);
        let small = allocations_of_stream_run(s.as_ref(), 100_000);
        let large = allocations_of_stream_run(s.as_ref(), 20_000_000);
        // 200x the items (thousands of work calls more) must not mean more allocations.
        assert_eq!(
            small,
            large,
            "{}: {small} allocations for 1e5 items, {large} for 2e7",
            s.name()
        );
    }
    // Time counters and a wrapping trace add nothing per item either.
    allocations_of_timed_fir_run(1000);
    let (small, large) = (
        allocations_of_timed_fir_run(100_000),
        allocations_of_timed_fir_run(1_000_000),
    );
    assert_eq!(
        small, large,
        "timed FIR: {small} allocations for 1e5 items, {large} for 1e6"
    );
}

fn message_hops_do_not_allocate_beyond_the_queue_segments() {
    fn run(burst: usize) -> u64 {
        let mut fg = Flowgraph::new();
        let src = fg.add(MessageBurstSource::repeat(
            Pmt::U8Vector(vec![0; 500].into()),
            burst,
        ));
        let mut prev = src;
        for _ in 0..5 {
            let f = fg.add(MessageForwarder::new());
            fg.connect_message(prev, f).unwrap();
            prev = f;
        }
        let c = fg.add(MessageCounter::new());
        fg.connect_message(prev, c).unwrap();
        let before = ALLOCS.load(Relaxed);
        fg.run_with(&SingleThread::new()).unwrap();
        assert_eq!(fg.block::<MessageCounter>(c).unwrap().count(), burst as u64);
        ALLOCS.load(Relaxed) - before
    }
    let (a, b) = (run(1_000), run(11_000));
    // 10k more messages over 6 hops = 60k deliveries; the lock-free queues allocate one segment
    // per 31 messages (about 2k segments), the payload is shared, never copied.
    let extra = b - a;
    assert!(
        extra < 60_000 / 20,
        "{extra} extra allocations for 60000 extra deliveries"
    );
}

fn main() {
    let checks: [(&str, fn()); 2] = [
        (
            "stream_runs_allocate_the_same_whatever_the_number_of_items",
            stream_runs_allocate_the_same_whatever_the_number_of_items,
        ),
        (
            "message_hops_do_not_allocate_beyond_the_queue_segments",
            message_hops_do_not_allocate_beyond_the_queue_segments,
        ),
    ];
    for (name, check) in checks {
        check();
        println!("test {name} ... ok");
    }
    // The summary line libtest prints, which scripts/test.sh counts (a failed check panics
    // above and the binary exits non-zero).
    println!(
        "test result: ok. {} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out",
        checks.len()
    );
}
