//! The scheduler conformance suite: every scheduler must pass every test here.
//!
//! To cover a new scheduler, add one line to [`schedulers`].

use radioflow_blocks::{
    Copy, Head, MessageBurstSource, MessageCounter, MessageForwarder, NullSink, NullSource,
    VectorSink, VectorSource,
};
use radioflow_runtime::testing::{reframed, Combine, Counter, FailAfter, Reframe, Sink};
use radioflow_runtime::{
    BlockError, BlockId, Complex32, ConnectError, FlowScheduler, Flowgraph, Pmt, RunError,
    Scheduler, SingleThread, StreamInput, ThreadPerBlock, WorkStatus,
};
use std::time::{Duration, Instant};

/// Every scheduler under test.
fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
        // Tiny chunks and buffers, pinned: many more passes, wraps and cross-worker wake-ups.
        Box::new(
            FlowScheduler::new()
                .workers(3)
                .pin(true)
                .chunk_bytes(64)
                .buffer_bytes(4096),
        ),
        // Chains handed from worker to worker every few passes, asked for or not: every task
        // crosses threads many times while its neighbours keep waking it.
        Box::new(
            FlowScheduler::new()
                .workers(3)
                .chunk_bytes(256)
                .buffer_bytes(4096)
                .balance_stress(3),
        ),
        // The placement made at start, never changed.
        Box::new(FlowScheduler::new().balance(false)),
    ]
}

/// Runs `fg` on `s`, failing the test (instead of hanging) if it takes longer than a minute.
fn run(fg: &mut Flowgraph, s: &dyn Scheduler) -> Result<(), RunError> {
    fg.start(s)?;
    let t0 = Instant::now();
    while !fg.is_finished() {
        if t0.elapsed() > Duration::from_secs(60) {
            fg.stop();
            let _ = fg.wait();
            panic!("scheduler {} hung", s.name());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    fg.wait()
}

/// Small deterministic generator for graph shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random DAG of sources, `Combine` blocks (fan-in 1..=3, random constants) and sinks, with
/// fan-out, random chunk sizes, buffer sizes and per-call limits; returns the graph, its sinks
/// and the stream each sink must receive (computed without running anything).
fn random_graph(seed: u64) -> (Flowgraph, Vec<(BlockId, Vec<u32>)>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut fg = Flowgraph::new();
    let mut streams: Vec<(BlockId, Vec<u32>)> = Vec::new();
    let mut readers: Vec<usize> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let n = rng.below(60_000);
        let id = fg.add(Counter::new(n).chunked(rng.next(), 1 + rng.below(5000) as usize));
        streams.push((id, (0..n as u32).collect()));
        readers.push(0);
    }
    for _ in 0..2 + rng.below(12) {
        let k = 1 + rng.below(3) as usize;
        let add = rng.below(1000) as u32;
        let inputs: Vec<usize> = (0..k)
            .map(|_| rng.below(streams.len() as u64) as usize)
            .collect();
        let id = fg.add(Combine::new(k, add).chunked(rng.next(), 1 + rng.below(3000) as usize));
        if rng.below(3) == 0 {
            fg.set_max_items(id, 1 + rng.below(700) as usize);
        }
        let len = inputs
            .iter()
            .map(|&i| streams[i].1.len())
            .min()
            .unwrap_or(0);
        let mut out = vec![add; len];
        for (port, &src) in inputs.iter().enumerate() {
            let e = fg.connect(streams[src].0, (id, port)).unwrap();
            if rng.below(2) == 0 {
                fg.set_buffer_size(e, 1 + rng.below(64 * 1024) as usize);
            }
            readers[src] += 1;
            for (o, x) in out.iter_mut().zip(&streams[src].1) {
                *o = o.wrapping_add(*x);
            }
        }
        streams.push((id, out));
        readers.push(0);
    }
    let mut sinks = Vec::new();
    for i in 0..streams.len() {
        // Every output needs a reader; some get a second one (more fan-out).
        if readers[i] == 0 || rng.below(4) == 0 {
            let sink = fg.add(Sink::new().chunked(rng.next(), 1 + rng.below(4000) as usize));
            fg.connect(streams[i].0, sink).unwrap();
            sinks.push((sink, streams[i].1.clone()));
        }
    }
    (fg, sinks)
}

#[test]
fn random_graphs_conserve_items_in_order() {
    let graphs = if cfg!(debug_assertions) { 40 } else { 150 };
    for s in schedulers() {
        for seed in 0..graphs {
            let (mut fg, sinks) = random_graph(seed);
            run(&mut fg, s.as_ref()).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", s.name()));
            for (sink, want) in sinks {
                let got = &fg.block::<Sink>(sink).unwrap().items;
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{} seed {seed}: item count at {}",
                    s.name(),
                    fg.name(sink)
                );
                assert!(
                    got == &want,
                    "{} seed {seed}: items differ at {}",
                    s.name(),
                    fg.name(sink)
                );
            }
        }
    }
}

#[test]
fn chains_of_one_to_one_blocks_conserve_items_in_order() {
    // A chain keeps to one worker under `flow`, whose connections then borrow the chain's
    // regions; blocks that consume random amounts leave items behind in them.
    let graphs = if cfg!(debug_assertions) { 8 } else { 30 };
    for s in schedulers() {
        for seed in 0..graphs {
            let mut rng = Rng(seed * 7919 + 1);
            let n = 1 + rng.below(100_000);
            let mut fg = Flowgraph::new();
            let mut last =
                fg.add(Counter::new(n).chunked(rng.next(), 1 + rng.below(5000) as usize));
            let mut add = 0u32;
            for _ in 0..1 + rng.below(12) {
                let k = rng.below(50) as u32;
                let largest = if rng.below(2) == 0 { 40 } else { 4000 };
                let chunk = 1 + rng.below(largest) as usize;
                let c = fg.add(Combine::new(1, k).chunked(rng.next(), chunk));
                fg.connect(last, c).unwrap();
                last = c;
                add = add.wrapping_add(k);
            }
            let sink = fg.add(Sink::new().chunked(rng.next(), 1 + rng.below(4000) as usize));
            fg.connect(last, sink).unwrap();
            run(&mut fg, s.as_ref()).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", s.name()));
            let got = &fg.block::<Sink>(sink).unwrap().items;
            let want: Vec<u32> = (0..n as u32).map(|x| x.wrapping_add(add)).collect();
            assert!(got == &want, "{} seed {seed}: items differ", s.name());
        }
    }
}

#[test]
fn tags_arrive_at_their_offsets_through_chains_and_fan_out() {
    for s in schedulers() {
        let n = 100_000u64;
        let mut fg = Flowgraph::new();
        let src = fg.add(Counter::new(n).chunked(7, 3000).tag_every(97));
        let a = fg.add(Combine::new(1, 0).chunked(8, 500));
        let b = fg.add(Combine::new(1, 0).chunked(9, 4000));
        fg.connect(src, a).unwrap();
        fg.connect(a, b).unwrap();
        let sinks: Vec<BlockId> = (0..3)
            .map(|i| {
                let k = fg.add(Sink::new().chunked(10 + i, 100 + 1000 * i as usize));
                fg.connect(b, k).unwrap();
                k
            })
            .collect();
        let direct = fg.add(Sink::new());
        fg.connect(src, direct).unwrap();
        run(&mut fg, s.as_ref()).unwrap();
        let want: Vec<u64> = (0..n).step_by(97).collect();
        for k in sinks.into_iter().chain([direct]) {
            let sink = fg.block::<Sink>(k).unwrap();
            let offsets: Vec<u64> = sink.tags.iter().map(|t| t.offset).collect();
            assert_eq!(offsets, want, "{}: tag offsets at {}", s.name(), fg.name(k));
            for t in &sink.tags {
                assert_eq!(t.key, Pmt::Symbol("n".into()));
                assert_eq!(t.value, Pmt::Uint64(t.offset));
                // The tagged item is the one the source tagged.
                assert_eq!(u64::from(sink.items[t.offset as usize]), t.offset);
            }
        }
    }
}

#[test]
fn end_of_stream_propagates_downstream_through_a_chain() {
    for s in schedulers() {
        let data: Vec<f32> = (0..250_000).map(|i| i as f32 * 0.5).collect();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(data.clone()));
        let mut prev = src;
        for _ in 0..5 {
            let c = fg.add(Copy::<f32>::new());
            fg.connect(prev, c).unwrap();
            prev = c;
        }
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(prev, sink).unwrap();
        run(&mut fg, s.as_ref()).unwrap();
        assert_eq!(
            fg.block::<VectorSink<f32>>(sink).unwrap().data(),
            &data[..],
            "{}",
            s.name()
        );
    }
}

#[test]
fn end_of_stream_propagates_upstream_from_head_to_an_endless_source() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(NullSource::<f32>::new());
        let short = fg.add(Head::<f32>::new(10));
        let long = fg.add(Head::<f32>::new(1_000_000));
        let (ks, kl) = (
            fg.add(NullSink::<f32>::new()),
            fg.add(NullSink::<f32>::new()),
        );
        fg.connect(src, short).unwrap();
        fg.connect(src, long).unwrap();
        fg.connect(short, ks).unwrap();
        fg.connect(long, kl).unwrap();
        run(&mut fg, s.as_ref()).unwrap();
        assert_eq!(
            fg.block::<NullSink<f32>>(ks).unwrap().items(),
            10,
            "{}",
            s.name()
        );
        assert_eq!(
            fg.block::<NullSink<f32>>(kl).unwrap().items(),
            1_000_000,
            "{}",
            s.name()
        );
    }
}

#[test]
fn every_item_type_flows_unchanged() {
    #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
    #[repr(C)]
    struct Sample {
        t: u64,
        iq: [i16; 2],
        flags: u32,
    }
    fn check<T: radioflow_runtime::Item + PartialEq + std::fmt::Debug>(
        s: &dyn Scheduler,
        data: Vec<T>,
    ) {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(data.clone()));
        let c = fg.add(Copy::<T>::new());
        let sink = fg.add(VectorSink::<T>::new());
        fg.connect(src, c).unwrap();
        fg.connect(c, sink).unwrap();
        run(&mut fg, s).unwrap();
        assert_eq!(
            fg.block::<VectorSink<T>>(sink).unwrap().data(),
            &data[..],
            "{}",
            s.name()
        );
    }
    for s in schedulers() {
        let s = s.as_ref();
        check(s, (0..70_000).map(|i| i as f32).collect::<Vec<f32>>());
        check(
            s,
            (0..70_000)
                .map(|i| Complex32::new(i as f32, -(i as f32)))
                .collect(),
        );
        check(s, (0..70_000).map(|i| i as i16).collect::<Vec<i16>>());
        check(s, (0..70_000).map(|i| i as i8).collect::<Vec<i8>>());
        check(s, (0..70_000).map(|i| i as u8).collect::<Vec<u8>>());
        // 16-byte items: the buffer is rounded to whole pages and whole items.
        check(
            s,
            (0..70_000u64)
                .map(|t| Sample {
                    t,
                    iq: [t as i16, (t as i16).wrapping_neg()],
                    flags: 7,
                })
                .collect(),
        );
        // 12-byte items do not divide a page.
        check(
            s,
            (0..70_000u32)
                .map(|t| [t, t + 1, t + 2])
                .collect::<Vec<[u32; 3]>>(),
        );
    }
}

#[test]
fn message_graphs_deliver_every_message_and_end_when_sources_finish() {
    for s in schedulers() {
        let (pipes, stages, burst) = (4, 5, 1000);
        let mut fg = Flowgraph::new();
        let payload = Pmt::U8Vector(vec![0xA5; 500].into());
        let src = fg.add(MessageBurstSource::repeat(payload.clone(), burst));
        let head = fg.add(MessageForwarder::new());
        fg.connect_message(src, head).unwrap();
        let mut counters = Vec::new();
        for _ in 0..pipes {
            let mut prev = head;
            for _ in 0..stages {
                let f = fg.add(MessageForwarder::new());
                fg.connect_message(prev, f).unwrap();
                prev = f;
            }
            let c = fg.add(MessageCounter::new());
            fg.connect_message(prev, c).unwrap();
            counters.push(c);
        }
        // A second source into the first counter: fan-in.
        let extra = fg.add(MessageBurstSource::repeat(Pmt::Int(1), 10));
        fg.connect_message((extra, "out"), (counters[0], "in"))
            .unwrap();
        run(&mut fg, s.as_ref()).unwrap();
        for (i, c) in counters.iter().enumerate() {
            let counter = fg.block::<MessageCounter>(*c).unwrap();
            let want = burst as u64 + if i == 0 { 10 } else { 0 };
            assert_eq!(counter.count(), want, "{}: counter {i}", s.name());
        }
        assert_eq!(
            fg.block::<MessageCounter>(counters[1]).unwrap().last(),
            Some(&payload)
        );
    }
}

#[test]
fn a_failing_block_stops_the_graph_and_is_named() {
    for s in schedulers() {
        for panic in [false, true] {
            let mut fg = Flowgraph::new();
            let src = fg.add(Counter::new(u64::MAX >> 1));
            let fail = fg.add_named(
                "culprit",
                if panic {
                    FailAfter::panic(50_000)
                } else {
                    FailAfter::error(50_000)
                },
            );
            let sink = fg.add(Sink::new());
            fg.connect(src, fail).unwrap();
            fg.connect(fail, sink).unwrap();
            let err = run(&mut fg, s.as_ref()).unwrap_err();
            assert_eq!(err.block(), Some("culprit"), "{}: {err}", s.name());
            match (&err, panic) {
                (RunError::BlockPanicked { message, .. }, true) => {
                    assert!(message.contains("deliberate panic"))
                }
                (RunError::BlockFailed { error, .. }, false) => {
                    assert!(error.contains("deliberate failure"))
                }
                _ => panic!("{}: unexpected error {err}", s.name()),
            }
            assert!(err.to_string().contains("culprit"));
            // Everything the failing block published before failing arrived, in order.
            let got = &fg.block::<Sink>(sink).unwrap().items;
            assert!(got.iter().copied().eq(0..got.len() as u32), "{}", s.name());
        }
    }
}

#[test]
fn a_failing_start_hook_prevents_the_run() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(Counter::new(10));
        let f = fg.add_named("bad_start", FailAfter::at_start());
        let sink = fg.add(Sink::new());
        fg.connect(src, f).unwrap();
        fg.connect(f, sink).unwrap();
        let err = fg.run_with(s.as_ref()).unwrap_err();
        assert!(
            matches!(err, RunError::StartFailed { ref block, .. } if block == "bad_start"),
            "{err}"
        );
        assert!(fg.block::<Sink>(sink).unwrap().items.is_empty());
    }
}

/// A sink that counts what it consumed where the test can see it while the graph runs (live
/// counters may be compiled out).
#[derive(radioflow_runtime::Ports)]
struct SeenSink {
    #[input(name = "in")]
    input: StreamInput<f32>,
    seen: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

#[radioflow_runtime::block]
impl SeenSink {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        self.seen
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(WorkStatus::Continue)
    }
}

#[test]
fn stop_ends_an_endless_graph() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let src = fg.add(NullSource::<f32>::new());
        let c = fg.add(Copy::<f32>::new());
        let sink = fg.add(SeenSink {
            input: StreamInput::new(),
            seen: seen.clone(),
        });
        fg.connect(src, c).unwrap();
        fg.connect(c, sink).unwrap();
        fg.start(s.as_ref()).unwrap();
        // Wait until items flowed (the deadline only keeps a broken build from hanging).
        let t0 = Instant::now();
        while seen.load(std::sync::atomic::Ordering::Relaxed) == 0 {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "{}: nothing flowed",
                s.name()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let handle = fg.stop_handle().unwrap();
        std::thread::spawn(move || handle.stop()).join().unwrap();
        fg.wait().unwrap();
        assert!(matches!(fg.wait(), Err(RunError::NotRunning)));
    }
}

#[test]
fn bad_graphs_are_refused_before_running_with_names() {
    let mut fg = Flowgraph::new();
    let f = fg.add_named("floats", NullSource::<f32>::new());
    let c = fg.add_named("complex_sink", NullSink::<Complex32>::new());
    let err = fg.connect(f, c).unwrap_err();
    assert!(matches!(err, ConnectError::TypeMismatch { .. }));
    let msg = err.to_string();
    assert!(
        msg.contains("floats.out produces float32 but complex_sink.in expects complex64"),
        "{msg}"
    );

    let err = fg.connect((f, "output"), c).unwrap_err();
    assert!(
        err.to_string().contains("floats") && err.to_string().contains("'output'"),
        "{err}"
    );
    let err = fg.connect((f, 3), c).unwrap_err();
    assert!(matches!(err, ConnectError::UnknownPort { .. }), "{err}");

    let s2 = fg.add_named("second", NullSource::<f32>::new());
    let k = fg.add_named("sink", NullSink::<f32>::new());
    fg.connect(f, k).unwrap();
    let err = fg.connect(s2, k).unwrap_err();
    assert!(
        err.to_string().contains("sink.in") && err.to_string().contains("floats.out"),
        "{err}"
    );

    // `second` is unconnected, and so is the complex sink's input.
    let err = fg.validate().unwrap_err();
    assert!(
        matches!(err, RunError::UnconnectedInput(ref p) if p == "complex_sink.in"),
        "{err}"
    );

    let mut fg = Flowgraph::new();
    let src = fg.add_named("src", NullSource::<f32>::new());
    let h = fg.add_named("h", Head::<f32>::new(1));
    fg.connect(src, h).unwrap();
    let err = fg.run_with(&SingleThread::new()).unwrap_err();
    assert_eq!(err, RunError::UnconnectedOutput("h.out".into()));

    let mut fg = Flowgraph::new();
    let a = fg.add_named("a", Combine::new(2, 0));
    let b = fg.add_named("b", Combine::new(1, 0));
    let src = fg.add_named("src", Counter::new(5));
    let k = fg.add(Sink::new());
    fg.connect(src, (a, 0)).unwrap();
    fg.connect(a, b).unwrap();
    fg.connect(b, (a, 1)).unwrap();
    fg.connect(b, k).unwrap();
    let err = fg.run_with(&ThreadPerBlock::new()).unwrap_err();
    assert_eq!(
        err,
        RunError::Cycle(vec!["a".into(), "b".into(), "a".into()])
    );

    let mut fg = Flowgraph::new();
    let m = fg.add(MessageCounter::new());
    let n = fg.add(NullSource::<f32>::new());
    let err = fg.connect_message(n, m).unwrap_err();
    assert!(err.to_string().contains("message output"), "{err}");
    assert!(matches!(Flowgraph::new().validate(), Err(RunError::Empty)));
}

#[test]
fn a_graph_can_run_again_after_it_finished() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(NullSource::<u8>::new());
        let head = fg.add(Head::<u8>::new(1000));
        let sink = fg.add(NullSink::<u8>::new());
        fg.connect(src, head).unwrap();
        fg.connect(head, sink).unwrap();
        run(&mut fg, s.as_ref()).unwrap();
        // Head has passed its items; the second run ends at once without new items.
        run(&mut fg, s.as_ref()).unwrap();
        assert_eq!(fg.block::<NullSink<u8>>(sink).unwrap().items(), 1000);
    }
}

#[test]
fn pinned_real_time_threads_give_the_same_results() {
    use radioflow_runtime::RealtimePolicy;
    let pinned: Vec<Box<dyn Scheduler>> = vec![
        Box::new(
            ThreadPerBlock::new()
                .pin_all(vec![0])
                .realtime(RealtimePolicy::RoundRobin(10)),
        ),
        Box::new(
            ThreadPerBlock::new()
                .pin("counter0", vec![1])
                .realtime(RealtimePolicy::Fifo(10)),
        ),
    ];
    for s in pinned {
        for seed in 0..10 {
            let (mut fg, sinks) = random_graph(1000 + seed);
            run(&mut fg, s.as_ref()).unwrap();
            for (sink, want) in sinks {
                assert!(fg.block::<Sink>(sink).unwrap().items == want, "seed {seed}");
            }
        }
    }
}

/// Claims one item more than its output window holds.
struct Overproduce {
    output: radioflow_runtime::StreamOutput<u32>,
}

impl radioflow_runtime::Block for Overproduce {
    fn ports(&mut self, p: &mut radioflow_runtime::Ports<'_>) {
        p.stream_output("out", &mut self.output);
    }
    fn work(&mut self) -> Result<radioflow_runtime::WorkStatus, radioflow_runtime::BlockError> {
        let n = self.output.slice().len();
        self.output.produce(n + 1);
        Ok(radioflow_runtime::WorkStatus::Continue)
    }
}

/// Consumes one item more than its input window holds.
struct Overconsume {
    input: radioflow_runtime::StreamInput<u32>,
}

impl radioflow_runtime::Block for Overconsume {
    fn ports(&mut self, p: &mut radioflow_runtime::Ports<'_>) {
        p.stream_input("in", &mut self.input);
    }
    fn work(&mut self) -> Result<radioflow_runtime::WorkStatus, radioflow_runtime::BlockError> {
        let n = self.input.slice().len();
        self.input.consume(n + 1);
        Ok(radioflow_runtime::WorkStatus::Continue)
    }
}

#[test]
fn a_block_cannot_write_past_free_space_or_read_past_written_items() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add_named(
            "greedy",
            Overproduce {
                output: Default::default(),
            },
        );
        let sink = fg.add(Sink::new());
        fg.connect(src, sink).unwrap();
        let err = run(&mut fg, s.as_ref()).unwrap_err();
        assert_eq!(err.block(), Some("greedy"), "{}: {err}", s.name());
        assert!(err.to_string().contains("were free"), "{err}");

        let mut fg = Flowgraph::new();
        let src = fg.add(Counter::new(1000));
        let sink = fg.add_named(
            "hungry",
            Overconsume {
                input: Default::default(),
            },
        );
        fg.connect(src, sink).unwrap();
        let err = run(&mut fg, s.as_ref()).unwrap_err();
        assert_eq!(err.block(), Some("hungry"), "{}: {err}", s.name());
        assert!(err.to_string().contains("were readable"), "{err}");
    }
}

#[test]
fn statistics_count_every_item_work_call_and_thread() {
    for s in schedulers() {
        let n = 100_000u64;
        let mut fg = Flowgraph::new();
        let src = fg.add(Counter::new(n).chunked(3, 1000));
        let mid = fg.add(Combine::new(1, 0).chunked(4, 700));
        let sink = fg.add(Sink::new());
        fg.connect(src, mid).unwrap();
        fg.connect(mid, sink).unwrap();
        run(&mut fg, s.as_ref()).unwrap();
        for b in [src, mid] {
            let st = fg.stats(b).unwrap();
            if !radioflow_runtime::COUNTERS_COMPILED {
                assert_eq!(st, &Default::default(), "compiled out: all zero");
                continue;
            }
            assert_eq!(st.items_produced, n, "{}: {}", s.name(), fg.name(b));
            assert_eq!(
                st.produced_log2.iter().sum::<u64>(),
                st.work_calls,
                "{}",
                s.name()
            );
            // Chunks of at most 1000 (700) items: at least n / 1000 calls, none above 2^10.
            assert!(st.work_calls >= n / 1000, "{}: {st:?}", s.name());
            assert!(
                st.produced_log2[10..].iter().all(|&c| c == 0),
                "{}: {st:?}",
                s.name()
            );
        }
        assert_eq!(fg.stats(sink).unwrap().items_produced, 0);
        let threads = fg.thread_stats();
        assert!(!threads.is_empty(), "{}", s.name());
        assert!(
            threads.iter().all(|t| t.name.starts_with("rf-")),
            "{}: {threads:?}",
            s.name()
        );
        if s.name() == "tpb" {
            assert_eq!(threads.len(), 3);
        }
    }
}

/// A sink that counts the odd items it sees as an event (a radio counts its overflows the
/// same way), its counter made by its `start` hook.
#[derive(radioflow_runtime::Ports)]
struct OddCounter {
    #[input(name = "in")]
    input: StreamInput<u32>,
    odd: radioflow_runtime::EventCounter,
}

#[radioflow_runtime::block]
impl OddCounter {
    fn start(&mut self) -> Result<(), BlockError> {
        self.odd = radioflow_runtime::EventCounter::new("odd items");
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let odd = self.input.slice().iter().filter(|&&x| x % 2 == 1).count();
        self.odd.add(odd as u64);
        let n = self.input.slice().len();
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

#[test]
fn a_block_s_own_event_counters_are_listed_with_its_statistics() {
    for s in schedulers() {
        let n = 10_001u32;
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new((0..n).collect::<Vec<u32>>()));
        let sink = fg.add(OddCounter {
            input: StreamInput::new(),
            // Made outside `start`: counts, listed nowhere (the run's is made by `start`).
            odd: radioflow_runtime::EventCounter::new("odd items"),
        });
        fg.connect(src, sink).unwrap();
        // Twice: each run lists the counter its start hook made, from zero (the vector source
        // gave all its items in the first run: none in the second).
        for odd in [u64::from(n / 2), 0] {
            run(&mut fg, s.as_ref()).unwrap();
            assert_eq!(
                fg.stats(sink).unwrap().events,
                [("odd items", odd)],
                "{}",
                s.name()
            );
            assert!(fg.stats(src).unwrap().events.is_empty(), "{}", s.name());
        }
    }
}

/// A window size for [`randomized_declared_windows_conserve_every_item_in_order`]: mostly
/// small, sometimes up to about a million items (4 MiB of u32).
fn random_window(rng: &mut Rng) -> usize {
    match rng.below(4) {
        0 => 1 + rng.below(16) as usize,
        1 => 1 + rng.below(5_000) as usize,
        2 => 10_000 + rng.below(100_000) as usize,
        _ => 200_000 + rng.below(900_000) as usize,
    }
}

#[test]
fn randomized_declared_windows_conserve_every_item_in_order() {
    // Chains of one to three frame-based blocks with random declared windows (up to several
    // MiB) on every scheduler: every buffer must be sized for them, no frame lost, none
    // reordered, no block ended early.
    let mut rng = Rng(0x5EED_0FF7_A3E5);
    let mut ran = 0;
    while ran < 6 {
        let stages = 1 + rng.below(3) as usize;
        let frames: Vec<(usize, usize)> = (0..stages)
            .map(|_| (random_window(&mut rng), random_window(&mut rng)))
            .collect();
        // Input for two to four frames of the last stage, and a partial frame on every stage.
        let mut len = (2 + rng.below(3) as usize) * frames[stages - 1].0;
        for &(n_in, n_out) in frames[..stages - 1].iter().rev() {
            len = len.div_ceil(n_out) * n_in + rng.below(n_in as u64) as usize;
        }
        let input: Vec<u32> = (0..len as u32).collect();
        let want = reframed(&input, &frames);
        // Graphs small enough for a debug build; others are drawn again.
        if len > 3_000_000 || want.len() > 3_000_000 || want.is_empty() {
            continue;
        }
        ran += 1;
        for s in schedulers() {
            let mut fg = Flowgraph::new();
            let mut prev = fg.add(VectorSource::new(input.clone()));
            for &(a, b) in &frames {
                let r = fg.add(Reframe::<u32>::declared(a, b));
                fg.connect(prev, r).unwrap();
                prev = r;
            }
            let sink = fg.add(VectorSink::<u32>::new());
            fg.connect(prev, sink).unwrap();
            run(&mut fg, s.as_ref()).unwrap_or_else(|e| panic!("{frames:?} {}: {e}", s.name()));
            let got = fg.block::<VectorSink<u32>>(sink).unwrap().data();
            assert_eq!(got.len(), want.len(), "{frames:?} {}", s.name());
            if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
                panic!(
                    "{frames:?} {}: item {i} is {}, not {}",
                    s.name(),
                    got[i],
                    want[i]
                );
            }
        }
    }
}

#[test]
fn long_lists_pass_through_message_blocks_on_every_scheduler() {
    // GNU Radio lists are pair chains: 100,000 items through two forwarders used to overflow a
    // scheduler thread's stack (and dropping a million-item list to abort the process).
    for n in [100_000i64, 1_000_000] {
        let list = || Pmt::list((0..n).map(Pmt::Int));
        let want = list();
        for s in schedulers() {
            let mut fg = Flowgraph::new();
            // Three distinct lists: the counter drops the first two on its scheduler thread.
            let src = fg.add(MessageBurstSource::new(vec![list(), list(), list()]));
            let a = fg.add(MessageForwarder::new());
            let b = fg.add(MessageForwarder::new());
            let c = fg.add(MessageCounter::new());
            fg.connect_message(src, a).unwrap();
            fg.connect_message(a, b).unwrap();
            fg.connect_message(b, c).unwrap();
            run(&mut fg, s.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", s.name()));
            let counter = fg.block::<MessageCounter>(c).unwrap();
            assert_eq!(counter.count(), 3, "{}", s.name());
            assert_eq!(counter.last(), Some(&want), "{} {n}", s.name());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// End of stream past a block with a connected message output (issue 32, item 16): a message
// output is not a reader of the stream, so a block whose stream outputs all lost their readers
// finishes, whatever its message receivers do (GNU Radio 3.10 ends the same graphs).

/// A copy of `f32` items with a message output: posts one message per work call that moved
/// items (or none), and raises `finished` in its stop hook.
#[derive(radioflow_runtime::Ports)]
struct Tap {
    #[input(name = "in")]
    input: StreamInput<f32>,
    #[output(name = "out")]
    output: radioflow_runtime::StreamOutput<f32>,
    #[message_output(name = "msg")]
    msg: radioflow_runtime::MessageOutput,
    publish: bool,
    posted: u64,
    finished: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

#[radioflow_runtime::block]
impl Tap {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = radioflow_runtime::one_to_one_work(
            &mut self.input,
            &mut self.output,
            usize::MAX,
            |i, o| o.copy_from_slice(i),
        );
        if self.publish && n > 0 {
            self.posted += 1;
            self.msg.post(Pmt::Int(self.posted as i64));
        }
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.finished
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

/// An `f32` sink counting its items; raises `finished` in its stop hook (when its input has
/// ended and it has consumed everything), so a test can wait for the stream part of a graph
/// whose message part never ends.
#[derive(radioflow_runtime::Ports)]
struct FlaggedSink {
    #[input(name = "in")]
    input: StreamInput<f32>,
    items: u64,
    finished: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

#[radioflow_runtime::block]
impl FlaggedSink {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        self.items += n as u64;
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.finished
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

/// An endless `f32` source (zeros) with a message input `cmd`, counting the messages; raises
/// `finished` in its stop hook.
#[derive(radioflow_runtime::Ports)]
struct CommandedSource {
    #[output(name = "out")]
    output: radioflow_runtime::StreamOutput<f32>,
    commands: u64,
    finished: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

#[radioflow_runtime::block]
impl CommandedSource {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let o = self.output.slice();
        let n = o.len();
        o.fill(0.0);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }

    #[message_input]
    fn cmd(&mut self, _msg: Pmt) {
        self.commands += 1;
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.finished
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

/// A message source that never ends by itself: one message in its first call, then idle
/// (GNU Radio's `message_strobe` beside a `message_debug` keeps that pair running too).
#[derive(radioflow_runtime::Ports)]
struct IdleMessageSource {
    #[message_output(name = "out")]
    out: radioflow_runtime::MessageOutput,
    sent: bool,
}

#[radioflow_runtime::block]
impl IdleMessageSource {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if !std::mem::replace(&mut self.sent, true) {
            self.out.post(Pmt::symbol("strobe"));
        }
        Ok(WorkStatus::Continue)
    }
}

/// What the message output of the tap is connected to.
#[derive(Clone, Copy, Debug)]
enum TapReceiver {
    /// A message counter fed only by the tap.
    Counter,
    /// The same, the tap never posting.
    SilentCounter,
    /// The endless source upstream of the tap.
    Upstream,
    /// A message counter that an endless message source feeds too: it never finishes, but
    /// the stream part of the graph does.
    EndlessCounter,
}

/// Waits (a hang guard only) until `flag` is raised.
fn wait_for(flag: &std::sync::atomic::AtomicBool, what: &str) {
    let t0 = Instant::now();
    while !flag.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(t0.elapsed() < Duration::from_secs(60), "{what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_message_output_does_not_keep_a_finished_stream_alive() {
    const N: u64 = 100_000;
    for receiver in [
        TapReceiver::Counter,
        TapReceiver::SilentCounter,
        TapReceiver::Upstream,
        TapReceiver::EndlessCounter,
    ] {
        for s in schedulers() {
            let what = format!("{}, {receiver:?}", s.name());
            let tap_done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let src_done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let mut fg = Flowgraph::new();
            let src = fg.add(CommandedSource {
                output: Default::default(),
                commands: 0,
                finished: src_done.clone(),
            });
            let tap = fg.add(Tap {
                input: StreamInput::new(),
                output: Default::default(),
                msg: Default::default(),
                publish: !matches!(receiver, TapReceiver::SilentCounter),
                posted: 0,
                finished: tap_done.clone(),
            });
            let head = fg.add(Head::<f32>::new(N));
            let sink_done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let sink = fg.add(FlaggedSink {
                input: StreamInput::new(),
                items: 0,
                finished: sink_done.clone(),
            });
            fg.connect(src, tap).unwrap();
            fg.connect(tap, head).unwrap();
            fg.connect(head, sink).unwrap();
            let counter = match receiver {
                TapReceiver::Upstream => {
                    fg.connect_message((tap, "msg"), (src, "cmd")).unwrap();
                    None
                }
                _ => {
                    let c = fg.add(MessageCounter::new());
                    fg.connect_message((tap, "msg"), (c, "in")).unwrap();
                    Some(c)
                }
            };
            if let (TapReceiver::EndlessCounter, Some(c)) = (receiver, counter) {
                let strobe = fg.add(IdleMessageSource {
                    out: Default::default(),
                    sent: false,
                });
                fg.connect_message((strobe, "out"), (c, "in")).unwrap();
                fg.start(s.as_ref()).unwrap();
                // The stream part ends by itself; the strobe and its counter run until stopped.
                wait_for(&tap_done, &format!("{what}: the tap never finished"));
                wait_for(&src_done, &format!("{what}: the source never finished"));
                // The sink too: a stop before it has drained its input would cut the count.
                wait_for(&sink_done, &format!("{what}: the sink never finished"));
                fg.stop();
                fg.wait().unwrap();
            } else {
                run(&mut fg, s.as_ref()).unwrap();
            }
            assert_eq!(fg.block::<FlaggedSink>(sink).unwrap().items, N, "{what}");
            let posted = fg.block::<Tap>(tap).unwrap().posted;
            match receiver {
                TapReceiver::Upstream => {
                    let got = fg.block::<CommandedSource>(src).unwrap().commands;
                    assert!(got <= posted, "{what}: {got} of {posted}");
                }
                TapReceiver::SilentCounter => {
                    let c = fg.block::<MessageCounter>(counter.unwrap()).unwrap();
                    assert_eq!((posted, c.count()), (0, 0), "{what}");
                }
                TapReceiver::Counter => {
                    // Every message posted before the tap finished was handled.
                    let c = fg.block::<MessageCounter>(counter.unwrap()).unwrap();
                    assert!(posted > 0, "{what}");
                    assert_eq!(c.count(), posted, "{what}");
                }
                TapReceiver::EndlessCounter => {}
            }
        }
    }
}

#[test]
fn a_timed_out_wait_names_the_blocks_it_waits_for() {
    for s in schedulers() {
        // Neither block can ever finish: the counter waits for its sender, the sender for its
        // receiver (GNU Radio's strobe and message_debug behave so too). Both are idle.
        let mut fg = Flowgraph::new();
        let strobe = fg.add_named(
            "strobe",
            IdleMessageSource {
                out: Default::default(),
                sent: false,
            },
        );
        let counter = fg.add_named("counter", MessageCounter::new());
        fg.connect_message((strobe, "out"), (counter, "in"))
            .unwrap();
        fg.start(s.as_ref()).unwrap();
        match fg.wait_timeout(Duration::from_millis(20)) {
            Err(e @ RunError::Unresponsive { .. }) => {
                let RunError::Unresponsive {
                    blocks, waiting, ..
                } = &e
                else {
                    unreachable!()
                };
                let mut all: Vec<&str> = blocks.iter().chain(waiting).map(|b| &**b).collect();
                all.sort_unstable();
                assert_eq!(all, ["counter", "strobe"], "{}: {e}", s.name());
                let text = e.to_string();
                assert!(
                    text.contains("counter") && text.contains("strobe"),
                    "{}: {text}",
                    s.name()
                );
            }
            other => panic!("{}: {other:?}", s.name()),
        }
        fg.stop();
        fg.wait().unwrap();
    }
}

/// Passes vectors of 3 `u32` in random runs of whole vectors, failing if a window it is
/// offered holds part of a vector.
#[derive(radioflow_runtime::Ports)]
struct WholeVectors {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: radioflow_runtime::StreamOutput<u32>,
    chunks: radioflow_runtime::testing::Chunks,
}

#[radioflow_runtime::block]
impl WholeVectors {
    fn new(seed: u64) -> Self {
        Self {
            input: StreamInput::new().with_vlen(3),
            output: radioflow_runtime::StreamOutput::new().with_vlen(3),
            chunks: radioflow_runtime::testing::Chunks::new(seed, 50),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (i, o) = (self.input.slice().len(), self.output.slice().len());
        if i % 3 != 0 || o % 3 != 0 {
            return Err(BlockError::msg(format!("windows of {i} and {o} scalars")));
        }
        let vectors = self.chunks.next(i.min(o) / 3);
        radioflow_runtime::one_to_one_work(
            &mut self.input,
            &mut self.output,
            3 * vectors,
            |a, b| b.copy_from_slice(a),
        );
        Ok(WorkStatus::Continue)
    }
}

/// The vector contract (docs/architecture.md, "Vector items"): whatever the buffer sizes and
/// per-call limits (the tiny ones end inside a vector), every window is whole vectors, every
/// scalar arrives in order, and tags counted in vectors land where GNU Radio puts them.
#[test]
fn vectors_arrive_whole_with_their_tags_under_every_scheduler() {
    use radioflow_blocks::{StreamToVector, VectorToStream};
    let n = 30_002u64;
    let whole = n - n % 3;
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(Counter::new(n).chunked(5, 700).tag_every(97));
        let s2v = fg.add(StreamToVector::<u32>::new(3, 1).unwrap());
        let mid = fg.add(WholeVectors::new(7));
        let v2s = fg.add(VectorToStream::<u32>::new(3, 1).unwrap());
        let sink = fg.add(Sink::new().chunked(9, 400));
        fg.connect(src, s2v).unwrap();
        fg.connect(s2v, mid).unwrap();
        fg.connect(mid, v2s).unwrap();
        fg.connect(v2s, sink).unwrap();
        run(&mut fg, s.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", s.name()));
        let sink = fg.block::<Sink>(sink).unwrap();
        assert_eq!(
            sink.items.len() as u64,
            whole,
            "{}: the last partial vector is dropped",
            s.name()
        );
        assert!(
            sink.items.iter().zip(0u32..).all(|(a, b)| *a == b),
            "{}: items in order",
            s.name()
        );
        // Scalar k is in vector k / 3; stream_to_vector rounds the tag's offset half up
        // (GNU Radio), vector_to_stream puts it on the vector's first scalar.
        let want: Vec<(u64, u64)> = (0..n)
            .step_by(97)
            .map(|k| (3 * ((2 * k + 3) / 6), k))
            .filter(|&(at, _)| at < whole)
            .collect();
        let got: Vec<(u64, u64)> = sink
            .tags
            .iter()
            .map(|t| match t.value {
                Pmt::Uint64(k) => (t.offset, k),
                ref v => panic!("tag value {v:?}"),
            })
            .collect();
        assert_eq!(got, want, "{}: tags", s.name());
    }
}

/// Consumes one scalar of a vector of 2.
#[derive(radioflow_runtime::Ports)]
struct HalfVector {
    #[input(name = "pairs")]
    input: StreamInput<f32>,
}

#[radioflow_runtime::block]
impl HalfVector {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if !self.input.slice().is_empty() {
            self.input.consume(1);
        }
        Ok(WorkStatus::Continue)
    }
}

#[test]
fn a_partial_vector_and_a_mismatched_vector_length_are_refused_with_names() {
    use radioflow_blocks::{NullSource, StreamToVector};
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(NullSource::<f32>::new().with_vlen(2));
        let half = fg.add_named(
            "half",
            HalfVector {
                input: StreamInput::new().with_vlen(2),
            },
        );
        fg.connect(src, half).unwrap();
        let err = run(&mut fg, s.as_ref()).unwrap_err();
        assert_eq!(err.block(), Some("half"), "{}: {err}", s.name());
        let text = err.to_string();
        assert!(
            text.contains("stream input 'pairs'") && text.contains("vectors of 2"),
            "{}: {text}",
            s.name()
        );
    }
    let mut fg = Flowgraph::new();
    let s2v = fg.add_named("s2v", StreamToVector::<f32>::new(4, 1).unwrap());
    let sink = fg.add_named("sink", radioflow_blocks::NullSink::<f32>::new());
    let err = fg.connect(s2v, sink).unwrap_err();
    assert!(matches!(err, ConnectError::TypeMismatch { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "item type mismatch: s2v.out produces float32[4] but sink.in expects float32"
    );
}
