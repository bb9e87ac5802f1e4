//! Fault injection under every scheduler: a block that panics, returns an error, stalls in
//! its work call, is very slow, or floods messages, at chosen and random points. The graph
//! ends with an error naming the block (a stall: `stop` returns and `wait_timeout` names the
//! block), what was delivered before the fault is intact and in order, and no thread or
//! memory is left behind.

use radioflow_blocks::{MessageCounter, NullSink};
use radioflow_runtime::testing::{runtime_threads, runtime_threads_settled, Counter, Sink};
use radioflow_runtime::{
    block, BlockError, FlowScheduler, Flowgraph, MessageOutput, Pmt, Ports, RunError, Scheduler,
    SingleThread, StreamInput, StreamOutput, ThreadPerBlock, WorkStatus,
};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The tests count the process's threads: one test at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new().workers(1)),
        Box::new(FlowScheduler::new().workers(2)),
        Box::new(
            FlowScheduler::new()
                .workers(3)
                .chunk_bytes(256)
                .buffer_bytes(4096),
        ),
    ]
}

#[derive(Clone, Debug)]
enum Fault {
    Panic,
    Error,
    /// Sleeps this long in every work call from the fault on (passing few items per call).
    Slow(Duration),
    /// Loops in its work call, ignoring stop, until the flag is set; `entered` says it began.
    Stall {
        release: Arc<AtomicBool>,
        entered: Arc<AtomicBool>,
    },
}

/// Passes `u32`s through and injects its fault when item `at` would pass.
#[derive(Ports)]
struct Faulty {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    at: u64,
    passed: u64,
    fault: Fault,
}

#[block(type_name = "Faulty")]
impl Faulty {
    fn new(at: u64, fault: Fault) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            at,
            passed: 0,
            fault,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (i, o) = (self.input.slice(), self.output.slice());
        let mut n = i.len().min(o.len());
        let faulty = self.passed + n as u64 > self.at;
        if faulty {
            match &self.fault {
                Fault::Panic => panic!("injected panic at item {}", self.at),
                Fault::Error => {
                    return Err(BlockError::msg(format!(
                        "injected error at item {}",
                        self.at
                    )))
                }
                Fault::Slow(d) => {
                    std::thread::sleep(*d);
                    n = n.min(64);
                }
                Fault::Stall { release, entered } => {
                    entered.store(true, SeqCst);
                    while !release.load(SeqCst) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    return Ok(WorkStatus::Continue);
                }
            }
        }
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.passed += n as u64;
        Ok(WorkStatus::Continue)
    }
}

/// Resident memory of this process in bytes (Linux).
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// Counter(n) -> faulty -> sink, run to its end; the result and what the sink received.
fn run_faulty(
    n: u64,
    fault: Fault,
    at: u64,
    s: &dyn Scheduler,
) -> (Result<(), RunError>, Vec<u32>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(Counter::new(n).chunked(at ^ 0x5eed, 977));
    let f = fg.add(Faulty::new(at, fault));
    let sink = fg.add(Sink::new());
    fg.connect(src, f).unwrap();
    fg.connect(f, sink).unwrap();
    let result = fg.run_with(s);
    let items = fg.block::<Sink>(sink).unwrap().items.clone();
    (result, items)
}

/// A small deterministic generator of fault positions.
fn positions(seed: u64, n: u64, count: usize) -> Vec<u64> {
    let mut x = seed;
    (0..count)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % n
        })
        .collect()
}

#[test]
fn a_panic_or_an_error_ends_the_run_naming_the_block_with_delivered_items_intact() {
    let _serial = serial();
    let n = 50_000;
    let baseline = runtime_threads();
    for s in schedulers() {
        for (k, at) in [0, 1, n - 1]
            .into_iter()
            .chain(positions(7, n, 4))
            .enumerate()
        {
            let fault = if k % 2 == 0 {
                Fault::Panic
            } else {
                Fault::Error
            };
            let (result, items) = run_faulty(n, fault.clone(), at, s.as_ref());
            let e = result.expect_err("a fault must end the run with an error");
            assert_eq!(e.block(), Some("faulty0"), "{}: {e}", s.name());
            let text = e.to_string();
            assert!(
                text.contains(&format!("at item {at}")),
                "{}: {text}",
                s.name()
            );
            match fault {
                Fault::Panic => assert!(matches!(e, RunError::BlockPanicked { .. }), "{e:?}"),
                _ => assert!(matches!(e, RunError::BlockFailed { .. }), "{e:?}"),
            }
            // What reached the sink is the stream's beginning, in order, before the fault.
            assert!(
                items.len() as u64 <= at,
                "{}: {} items past {at}",
                s.name(),
                items.len()
            );
            assert!(
                items.iter().enumerate().all(|(i, &v)| v == i as u32),
                "{}: delivered items corrupted",
                s.name()
            );
            assert_eq!(
                runtime_threads_settled(baseline),
                baseline,
                "{}: threads left behind",
                s.name()
            );
        }
    }
}

#[test]
fn a_stalled_block_is_named_stop_returns_and_nothing_is_left_behind() {
    let _serial = serial();
    let baseline = runtime_threads();
    for s in schedulers() {
        let release = Arc::new(AtomicBool::new(false));
        let entered = Arc::new(AtomicBool::new(false));
        let fault = Fault::Stall {
            release: release.clone(),
            entered: entered.clone(),
        };
        let mut fg = Flowgraph::new();
        let src = fg.add(Counter::new(1_000_000));
        let f = fg.add(Faulty::new(5_000, fault));
        let sink = fg.add(NullSink::<u32>::new());
        fg.connect(src, f).unwrap();
        fg.connect(f, sink).unwrap();
        fg.start(s.as_ref()).unwrap();
        let t0 = Instant::now();
        while !entered.load(SeqCst) {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "{}: never stalled",
                s.name()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        fg.stop(); // returns at once, however the blocks behave
        match fg.wait_timeout(Duration::from_millis(50)) {
            Err(RunError::Unresponsive { blocks, .. }) => {
                assert_eq!(blocks, ["faulty0"], "{}", s.name())
            }
            other => panic!("{}: {other:?}", s.name()),
        }
        assert!(fg.is_running(), "the run goes on after a timed-out wait");
        release.store(true, SeqCst);
        fg.wait().unwrap();
        assert_eq!(
            runtime_threads_settled(baseline),
            baseline,
            "{}: threads left behind",
            s.name()
        );
    }
}

#[test]
fn a_very_slow_block_delays_the_graph_but_loses_nothing() {
    let _serial = serial();
    let n = 20_000;
    for s in schedulers() {
        for at in [0, 7_777] {
            let (result, items) =
                run_faulty(n, Fault::Slow(Duration::from_micros(100)), at, s.as_ref());
            result.unwrap();
            assert_eq!(items.len() as u64, n, "{}", s.name());
            assert!(
                items.iter().enumerate().all(|(i, &v)| v == i as u32),
                "{}",
                s.name()
            );
        }
    }
}

/// Streams `u32`s through and posts `per_call` messages on `flood` in every work call.
#[derive(Ports)]
struct Flooder {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    #[message_output]
    flood: MessageOutput,
    per_call: u32,
    posted: u64,
}

#[block]
impl Flooder {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (i, o) = (self.input.slice(), self.output.slice());
        let n = i.len().min(o.len()).min(256);
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        if n > 0 {
            for k in 0..self.per_call {
                self.flood.post(Pmt::Int(i64::from(k)));
            }
            self.posted += u64::from(self.per_call);
        }
        Ok(WorkStatus::Continue)
    }
}

fn flood_once(s: &dyn Scheduler) -> (u64, u64) {
    let mut fg = Flowgraph::new();
    let src = fg.add(Counter::new(50_000));
    let flooder = fg.add(Flooder {
        input: StreamInput::new(),
        output: StreamOutput::new(),
        flood: MessageOutput::new(),
        per_call: 100,
        posted: 0,
    });
    let sink = fg.add(NullSink::<u32>::new());
    let counter = fg.add(MessageCounter::new());
    fg.connect(src, flooder).unwrap();
    fg.connect(flooder, sink).unwrap();
    fg.connect_message((flooder, "flood"), (counter, "in"))
        .unwrap();
    fg.run_with(s).unwrap();
    assert_eq!(fg.block::<NullSink<u32>>(sink).unwrap().items(), 50_000);
    (
        fg.block::<Flooder>(flooder).unwrap().posted,
        fg.block::<MessageCounter>(counter).unwrap().count(),
    )
}

#[test]
fn a_message_flood_is_delivered_whole_and_leaves_no_memory_behind() {
    let _serial = serial();
    let baseline = runtime_threads();
    for s in schedulers() {
        let (posted, counted) = flood_once(s.as_ref());
        assert!(posted >= 100 * (50_000 / 256), "{}: {posted}", s.name());
        assert_eq!(counted, posted, "{}: messages lost", s.name());
        assert_eq!(
            runtime_threads_settled(baseline),
            baseline,
            "{}: threads left behind",
            s.name()
        );
    }
    // Memory: after warm-up runs, ten more floods (each ~20,000 messages) leave RSS flat.
    let s = FlowScheduler::new().workers(2);
    for _ in 0..3 {
        flood_once(&s);
    }
    let before = rss();
    for _ in 0..10 {
        flood_once(&s);
    }
    let grown = rss().saturating_sub(before);
    assert!(grown < 16 << 20, "RSS grew by {grown} bytes over 10 runs");
}
