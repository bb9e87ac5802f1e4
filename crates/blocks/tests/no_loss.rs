//! No silent loss, no hang (issue 16): blocks that need large windows, impossible buffer sizes,
//! stop while a block sleeps, `wait()` from a block, failing start hooks. Every test runs
//! under every scheduler: `tpb`, `single`, and `flow` with 1, 2 and 3 workers (and tiny
//! chunks).

use radioflow_blocks::{NullSink, Throttle, VectorSink, VectorSource};
use radioflow_runtime::prelude::*;
use radioflow_runtime::testing::{reframed, Reframe};
use radioflow_runtime::{FlowScheduler, Item};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Every scheduler the tests run on, with a label for failures.
fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new().workers(1)),
        Box::new(FlowScheduler::new().workers(2)),
        Box::new(FlowScheduler::new().workers(3)),
        // Chunks and buffers far smaller than any window below.
        Box::new(
            FlowScheduler::new()
                .workers(2)
                .chunk_bytes(256)
                .buffer_bytes(4096),
        ),
    ]
}

fn flow_schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(FlowScheduler::new().workers(1)),
        Box::new(FlowScheduler::new().workers(2)),
        Box::new(FlowScheduler::new().workers(3)),
    ]
}

/// Items of `T` in one of `flow`'s default chunks on this machine (an eighth of L2): what a
/// block may write per call under `flow` unless it declares more.
fn chunk_items<T>() -> usize {
    FlowScheduler::new().geometry().chunk_bytes / std::mem::size_of::<T>()
}

/// Runs `fg`; a run still going after two minutes is stopped and the test fails as hung
/// (none of these runs needs more than a second).
fn run(fg: &mut Flowgraph, s: &dyn Scheduler) -> Result<(), RunError> {
    fg.start(s)?;
    let t0 = Instant::now();
    while !fg.is_finished() {
        if t0.elapsed() > Duration::from_secs(120) {
            fg.stop();
            let _ = fg.wait();
            panic!("{} hung", s.name());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    fg.wait()
}

/// Source -> one `Reframe` per frame pair -> sink, run on `s`; returns the sink's items.
fn run_chain<T: Item + PartialEq + std::fmt::Debug>(
    input: Vec<T>,
    stages: Vec<Reframe<T>>,
    s: &dyn Scheduler,
) -> Result<Vec<T>, RunError> {
    let mut fg = Flowgraph::new();
    let mut prev = fg.add(VectorSource::new(input));
    for stage in stages {
        let b = fg.add(stage);
        fg.connect(prev, b).unwrap();
        prev = b;
    }
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(prev, sink).unwrap();
    run(&mut fg, s)?;
    Ok(fg.block::<VectorSink<T>>(sink).unwrap().data().to_vec())
}

fn counting(n: usize) -> Vec<u32> {
    (0..n as u32).collect()
}

/// Checks that `got` is `want` without printing a million items on failure.
fn assert_same<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: item count");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!("{what}: item {i} is {:?}, expected {:?}", got[i], want[i]);
    }
}

#[test]
fn an_output_frame_larger_than_any_default_buffer_arrives_whole() {
    // One input item -> 40,000 outputs (the case: more than tpb's 64 KiB buffer), one
    // chunk and one item, and 300,000 (more than any buffer a scheduler picks by itself: flow's
    // two chunks, its 1 MiB between workers).
    for n_out in [40_000, chunk_items::<u32>() + 1, 300_000] {
        for s in schedulers() {
            let frames = [(1, n_out)];
            let input = counting(7);
            let got = run_chain(input.clone(), vec![Reframe::declared(1, n_out)], s.as_ref())
                .unwrap_or_else(|e| panic!("{} {n_out}: {e}", s.name()));
            assert_same(&got, &reframed(&input, &frames), s.name());
        }
    }
}

#[test]
fn one_item_to_16385_outputs_arrives_whole() {
    // Just over tpb's and single's 64 KiB buffer of f32.
    for s in schedulers() {
        let input: Vec<f32> = (0..5).map(|i| i as f32).collect();
        let got = run_chain(
            input.clone(),
            vec![Reframe::declared(1, 16_385)],
            s.as_ref(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", s.name()));
        assert_same(&got, &reframed(&input, &[(1, 16_385)]), s.name());
    }
}

#[test]
fn frames_of_one_chunk_and_one_item_per_call_lose_nothing() {
    // 32,769 (the case: one item more than flow's chunk of f32 on a 1 MiB L2) and one
    // item more than the chunk of this machine; the trailing partial frame (7 items) is
    // dropped at the end, as in GNU Radio.
    for n in [32_769, chunk_items::<f32>() + 1] {
        for s in schedulers() {
            let input: Vec<f32> = (0..5 * n + 7).map(|i| i as f32).collect();
            let frames = [(n, n)];
            let got = run_chain(input.clone(), vec![Reframe::declared(n, n)], s.as_ref())
                .unwrap_or_else(|e| panic!("{} {n}: {e}", s.name()));
            assert_same(&got, &reframed(&input, &frames), s.name());
        }
    }
}

#[test]
fn flow_widens_a_window_a_block_did_not_declare() {
    // Blocks written without declarations that need one item more than a chunk: flow's
    // per-call cap (one chunk) and its regions are what held them back; the buffers (two
    // chunks) are large enough.
    let n = chunk_items::<u32>() + 1;
    for s in flow_schedulers() {
        for (n_in, n_out, len) in [(1, n, 3), (n, n, 3 * n + 5)] {
            let input = counting(len);
            let got = run_chain(
                input.clone(),
                vec![Reframe::undeclared(n_in, n_out)],
                s.as_ref(),
            )
            .unwrap_or_else(|e| panic!("{} {n_in}->{n_out}: {e}", s.name()));
            let want = reframed(&input, &[(n_in, n_out)]);
            assert_same(&got, &want, &format!("{} {n_in}->{n_out}", s.name()));
        }
    }
}

#[test]
fn input_frames_larger_than_the_default_buffer_arrive_whole() {
    for s in schedulers() {
        for n_in in [16_385, 70_000, 2 * chunk_items::<u32>() + 1] {
            let input = counting(4 * n_in + 3);
            let got = run_chain(input.clone(), vec![Reframe::declared(n_in, 2)], s.as_ref())
                .unwrap_or_else(|e| panic!("{} {n_in}: {e}", s.name()));
            assert_same(&got, &reframed(&input, &[(n_in, 2)]), s.name());
        }
    }
}

#[test]
fn an_undeclared_input_frame_larger_than_its_buffer_is_an_error_not_a_hang() {
    // 300,000 u32 (1.2 MB) is more than any buffer a scheduler picks by itself (flow's
    // largest is 1 MiB between workers).
    for s in schedulers() {
        let result = run_chain(
            counting(1_000_000),
            vec![Reframe::undeclared(300_000, 1)],
            s.as_ref(),
        );
        match result {
            Err(RunError::Stalled { block, port, error }) => {
                assert_eq!(
                    (block.as_str(), port.as_str()),
                    ("reframe0", "in"),
                    "{}",
                    s.name()
                );
                assert!(error.contains("with_min_items"), "{}: {error}", s.name());
            }
            other => panic!("{}: expected a stalled block, got {other:?}", s.name()),
        }
    }
}

#[test]
fn complex_dvbs2_frames_pass_unchanged_through_every_scheduler() {
    // Normal DVB-S2 frames of 64,800 symbols (518 KB of Complex32), split into four quarter
    // frames and joined again.
    let input: Vec<Complex32> = (0..3 * 64_800 + 11)
        .map(|i| Complex32::new(i as f32, -(i as f32)))
        .collect();
    let frames = [(64_800, 64_800), (16_200, 16_200), (64_800, 64_800)];
    let want = reframed(&input, &frames);
    for s in schedulers() {
        let stages = frames
            .iter()
            .map(|&(a, b)| Reframe::declared(a, b))
            .collect();
        let got = run_chain(input.clone(), stages, s.as_ref())
            .unwrap_or_else(|e| panic!("{}: {e}", s.name()));
        assert_same(&got, &want, s.name());
    }
}

/// Source -> sink with the connection's buffer set to `bytes` (and the sink's input needing
/// `need` items); returns what `start` said.
fn start_with_buffer(bytes: usize, need: usize, s: &dyn Scheduler) -> Result<(), RunError> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(counting(10)));
    let sink = fg.add(Reframe::<u32>::declared(need, 1));
    let out = fg.add(NullSink::<u32>::new());
    let e = fg.connect(src, sink).unwrap();
    fg.connect(sink, out).unwrap();
    fg.set_buffer_size(e, bytes);
    run(&mut fg, s)
}

#[test]
fn impossible_buffer_sizes_are_errors_naming_the_port() {
    for s in schedulers() {
        for bytes in [usize::MAX, (1usize << 63) - 1, 1 << 62, 1 << 46] {
            match start_with_buffer(bytes, 1, s.as_ref()) {
                Err(RunError::Buffer { port, error }) => {
                    assert_eq!(port, "vector_source0.out", "{} {bytes}", s.name());
                    assert!(error.contains("memory"), "{} {bytes}: {error}", s.name());
                }
                other => panic!(
                    "{} {bytes}: expected a buffer error, got {other:?}",
                    s.name()
                ),
            }
        }
        // Smaller than the reader's declared window: an error, not a silent end.
        match start_with_buffer(4096, 10_000, s.as_ref()) {
            Err(RunError::Buffer { port, error }) => {
                assert_eq!(port, "vector_source0.out");
                assert!(
                    error.contains("reframe0.in of 10000") && error.contains("40000 bytes"),
                    "{error}"
                );
            }
            other => panic!("{}: expected a buffer error, got {other:?}", s.name()),
        }
        // Large enough: runs.
        start_with_buffer(40_000, 10_000, s.as_ref()).unwrap();
    }
}

#[test]
fn a_huge_default_buffer_size_is_an_error() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(counting(10)));
        let sink = fg.add(NullSink::<u32>::new());
        fg.connect(src, sink).unwrap();
        fg.set_default_buffer_size(1 << 62);
        assert!(
            matches!(run(&mut fg, s.as_ref()), Err(RunError::Buffer { .. })),
            "{}",
            s.name()
        );
    }
}

#[test]
fn stop_interrupts_a_throttle_waiting_for_its_next_item() {
    // One item per 1000 s: without an interruptible sleep, stop() would wait that long (the
    // hang guard in `run` fails the test after two minutes).
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![1.0f32; 10]));
        let throttle = fg.add(Throttle::<f32>::new(0.001));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, throttle).unwrap();
        fg.connect(throttle, sink).unwrap();
        fg.start(s.as_ref()).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        fg.stop();
        let t0 = Instant::now();
        while !fg.is_finished() {
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "{}: stop() did not interrupt the throttle",
                s.name()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        fg.wait().unwrap();
        let got = fg.block::<VectorSink<f32>>(sink).unwrap().data().len();
        assert!(
            got <= 1,
            "{}: {got} items passed a 0.001/s throttle",
            s.name()
        );
    }
}

/// A block that calls `wait()` on its own flowgraph from `work` and records the answer.
struct WaitsForItself {
    input: StreamInput<u32>,
    fg: Arc<Mutex<Option<Flowgraph>>>,
    answer: Arc<Mutex<Option<Result<(), RunError>>>>,
}

impl Block for WaitsForItself {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let mut fg = self.fg.lock().unwrap();
        let answer = fg.as_mut().map(Flowgraph::wait);
        *self.answer.lock().unwrap() = answer;
        Ok(WorkStatus::Done)
    }
}

#[test]
fn wait_from_a_block_of_the_same_graph_is_refused() {
    for s in schedulers() {
        let shared = Arc::new(Mutex::new(None));
        let answer = Arc::new(Mutex::new(None));
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(counting(100)));
        let b = fg.add(WaitsForItself {
            input: StreamInput::new(),
            fg: shared.clone(),
            answer: answer.clone(),
        });
        fg.connect(src, b).unwrap();
        {
            // The block's work takes this lock first: it runs once the graph is in place.
            let mut slot = shared.lock().unwrap();
            *slot = Some(fg);
            slot.as_mut().unwrap().start(s.as_ref()).unwrap();
        }
        let t0 = Instant::now();
        while !shared.lock().unwrap().as_ref().unwrap().is_finished() {
            assert!(t0.elapsed() < Duration::from_secs(120), "{} hung", s.name());
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut fg = shared.lock().unwrap().take().unwrap();
        fg.wait().unwrap();
        assert_eq!(
            answer.lock().unwrap().clone(),
            Some(Err(RunError::WaitFromBlock)),
            "{}",
            s.name()
        );
    }
}

/// A pass-through block whose `start` hook does what it is told and whose hooks are counted.
struct Hooks {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    start: fn() -> Result<(), BlockError>,
    started: Arc<AtomicUsize>,
    stopped: Arc<AtomicUsize>,
}

impl Hooks {
    fn new(start: fn() -> Result<(), BlockError>) -> (Self, Arc<AtomicUsize>, Arc<AtomicUsize>) {
        let (started, stopped) = (Arc::default(), Arc::default());
        let b = Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            start,
            started: Arc::clone(&started),
            stopped: Arc::clone(&stopped),
        };
        (b, started, stopped)
    }
}

impl Block for Hooks {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
        p.stream_output("out", &mut self.output);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
            o.copy_from_slice(i)
        });
        Ok(WorkStatus::Continue)
    }

    fn start(&mut self) -> Result<(), BlockError> {
        (self.start)()?;
        self.started.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.stopped.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

fn starts() -> Result<(), BlockError> {
    Ok(())
}

fn fails() -> Result<(), BlockError> {
    Err(BlockError::msg("no device"))
}

fn panics() -> Result<(), BlockError> {
    panic!("the device exploded")
}

#[test]
fn a_failing_or_panicking_start_hook_is_an_error_and_stops_the_blocks_already_started() {
    for s in schedulers() {
        for (later, says) in [
            (fails as fn() -> _, "no device"),
            (panics, "the device exploded"),
        ] {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(counting(10)));
            let (first, first_started, first_stopped) = Hooks::new(starts);
            let (second, _, second_stopped) = Hooks::new(later);
            let a = fg.add_named("first", first);
            let b = fg.add_named("second", second);
            let sink = fg.add(NullSink::<u32>::new());
            fg.connect(src, a).unwrap();
            fg.connect(a, b).unwrap();
            fg.connect(b, sink).unwrap();
            match run(&mut fg, s.as_ref()) {
                Err(RunError::StartFailed { block, error }) => {
                    assert_eq!(block, "second", "{}", s.name());
                    assert!(error.contains(says), "{}: {error}", s.name());
                }
                other => panic!("{}: expected a start failure, got {other:?}", s.name()),
            }
            assert_eq!(first_started.load(Ordering::SeqCst), 1);
            assert_eq!(
                first_stopped.load(Ordering::SeqCst),
                1,
                "first was never stopped"
            );
            assert_eq!(
                second_stopped.load(Ordering::SeqCst),
                0,
                "second never started"
            );
        }
    }
}
