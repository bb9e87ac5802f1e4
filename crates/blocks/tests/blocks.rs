//! Every block in real flowgraphs, on both schedulers, with exact expected outputs.

use radioflow_blocks::runtime::testing::{Counter, Sink};
use radioflow_blocks::runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{
    AddConst, FileSink, FileSource, Head, MessageBurstSource, MessageCounter, MessageForwarder,
    Multiply, MultiplyConst, NullSink, NullSource, SignalSource, Throttle, VectorSink,
    VectorSource, Waveform,
};
use std::f64::consts::PI;
use std::io::ErrorKind;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

/// Runs `fg` to completion on `scheduler`; fails the test if it errors or does not end by
/// itself within 30 s.
fn run(fg: &mut Flowgraph, scheduler: &dyn Scheduler) {
    fg.start(scheduler).unwrap();
    let stop = fg.stop_handle().unwrap();
    let (done, timer) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let hung = timer.recv_timeout(Duration::from_secs(30)).is_err();
        if hung {
            stop.stop();
        }
        hung
    });
    let result = fg.wait();
    let _ = done.send(());
    assert!(
        !watchdog.join().unwrap(),
        "the graph did not finish by itself ({})",
        scheduler.name()
    );
    result.unwrap();
}

/// Connects port 0 of each block to port 0 of the next.
fn chain(fg: &mut Flowgraph, ids: &[radioflow_blocks::runtime::BlockId]) {
    for pair in ids.windows(2) {
        fg.connect(pair[0], pair[1]).unwrap();
    }
}

fn sym(s: &str) -> Pmt {
    Pmt::Symbol(s.into())
}

#[test]
fn null_source_head_null_sink_counts_exactly() {
    for s in schedulers() {
        for n in [0u64, 1, 4095, 1_000_003] {
            let mut fg = Flowgraph::new();
            let src = fg.add(NullSource::<Complex32>::new());
            let head = fg.add(Head::<Complex32>::new(n));
            let sink = fg.add(NullSink::<Complex32>::new());
            chain(&mut fg, &[src, head, sink]);
            run(&mut fg, s.as_ref());
            assert_eq!(fg.block::<NullSink<Complex32>>(sink).unwrap().items(), n);
        }
    }
}

#[test]
fn null_source_writes_zeros() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        // A small buffer: the source writes over its own earlier output many times.
        fg.set_default_buffer_size(4096);
        let src = fg.add(NullSource::<i16>::new());
        let head = fg.add(Head::<i16>::new(50_000));
        let sink = fg.add(VectorSink::<i16>::new());
        chain(&mut fg, &[src, head, sink]);
        run(&mut fg, s.as_ref());
        let data = fg.block::<VectorSink<i16>>(sink).unwrap().data();
        assert_eq!(data.len(), 50_000);
        assert!(data.iter().all(|&x| x == 0));
    }
}

#[test]
fn head_passes_first_items_and_their_tags() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        fg.set_default_buffer_size(4096);
        let src = fg.add(Counter::new(100_000).chunked(3, 500).tag_every(1000));
        let head = fg.add(Head::<u32>::new(12_345));
        let sink = fg.add(Sink::new().chunked(4, 700));
        chain(&mut fg, &[src, head, sink]);
        run(&mut fg, s.as_ref());
        let sink = fg.block::<Sink>(sink).unwrap();
        assert!(sink.items.iter().copied().eq(0..12_345));
        let offsets: Vec<u64> = sink.tags.iter().map(|t| t.offset).collect();
        assert_eq!(offsets, (0..=12).map(|k| k * 1000).collect::<Vec<_>>());
    }
}

#[test]
fn copy_preserves_data_and_tags() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        fg.set_default_buffer_size(4096);
        let src = fg.add(Counter::new(200_000).chunked(1, 1000).tag_every(7));
        // Named by path: a glob or plain import of `Copy` would shadow the std trait.
        let copy = fg.add(radioflow_blocks::Copy::<u32>::new());
        let sink = fg.add(Sink::new().chunked(2, 900));
        chain(&mut fg, &[src, copy, sink]);
        run(&mut fg, s.as_ref());
        let sink = fg.block::<Sink>(sink).unwrap();
        assert!(sink.items.iter().copied().eq(0..200_000));
        let want: Vec<Tag> = (0..200_000u64)
            .step_by(7)
            .map(|k| Tag::new(k, sym("n"), Pmt::Uint64(k)))
            .collect();
        assert_eq!(sink.tags, want);
    }
}

#[test]
fn vector_source_sink_round_trip() {
    for s in schedulers() {
        let data: Vec<u32> = (0..3000).map(|i| i * 3 + 1).collect();
        let tags = vec![
            Tag::new(2999, sym("last"), Pmt::Null),
            Tag::new(0, sym("first"), Pmt::Int(0)),
            Tag::new(1500, sym("mid"), Pmt::Double(0.5)),
        ];
        let mut fg = Flowgraph::new();
        fg.set_default_buffer_size(4096); // smaller than the data: several calls
        let src = fg.add(VectorSource::new(data.clone()).tags(tags));
        let sink = fg.add(VectorSink::<u32>::new());
        chain(&mut fg, &[src, sink]);
        run(&mut fg, s.as_ref());
        let sink = fg.block_mut::<VectorSink<u32>>(sink).unwrap();
        let keys: Vec<(u64, Pmt)> = sink
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.clone()))
            .collect();
        assert_eq!(
            keys,
            [(0, sym("first")), (1500, sym("mid")), (2999, sym("last"))]
        );
        assert_eq!(sink.take(), data);
        assert!(sink.data().is_empty());
    }
}

#[test]
fn vector_source_repeats_data_and_shifted_tags() {
    for s in schedulers() {
        for (len, total) in [(1usize, 10_000u64), (10, 95), (3000, 10_000)] {
            let data: Vec<u32> = (0..len as u32).collect();
            let tag_at: Vec<u64> = if len == 1 {
                vec![0]
            } else {
                vec![len as u64 - 1, 0, len as u64 / 2]
            };
            let tags = tag_at
                .iter()
                .map(|&o| Tag::new(o, sym("t"), Pmt::Uint64(o)))
                .collect();
            let mut fg = Flowgraph::new();
            fg.set_default_buffer_size(4096);
            let src = fg.add(VectorSource::new(data.clone()).repeat(true).tags(tags));
            let head = fg.add(Head::<u32>::new(total));
            let sink = fg.add(VectorSink::<u32>::new());
            chain(&mut fg, &[src, head, sink]);
            run(&mut fg, s.as_ref());
            let sink = fg.block::<VectorSink<u32>>(sink).unwrap();
            let want: Vec<u32> = data.iter().copied().cycle().take(total as usize).collect();
            assert_eq!(sink.data(), want);
            let want_tags: Vec<(u64, Pmt)> = (0..total)
                .filter(|i| tag_at.contains(&(i % len as u64)))
                .map(|i| (i, Pmt::Uint64(i % len as u64)))
                .collect();
            let got: Vec<(u64, Pmt)> = sink
                .tags()
                .iter()
                .map(|t| (t.offset, t.value.clone()))
                .collect();
            assert_eq!(got, want_tags, "len {len}");
        }
    }
}

#[test]
fn empty_vector_source_finishes() {
    for s in schedulers() {
        for repeat in [false, true] {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::<f32>::new(Vec::new()).repeat(repeat));
            let sink = fg.add(VectorSink::<f32>::new());
            chain(&mut fg, &[src, sink]);
            run(&mut fg, s.as_ref());
            assert!(fg.block::<VectorSink<f32>>(sink).unwrap().data().is_empty());
        }
    }
}

#[test]
#[should_panic(expected = "past the end")]
fn vector_source_rejects_tags_past_the_data() {
    let _ = VectorSource::new(vec![1u8, 2]).tags(vec![Tag::new(2, sym("x"), Pmt::Null)]);
}

fn complex_ramp(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| Complex32::new(i as f32, -(i as f32) * 0.5))
        .collect()
}

#[test]
fn file_sink_then_file_source_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for (k, s) in schedulers().iter().enumerate() {
        let path = dir.path().join(format!("ramp{k}.cf32"));
        let data = complex_ramp(100_000);

        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(data.clone()));
        let sink = fg.add(FileSink::<Complex32>::new(&path).unwrap());
        chain(&mut fg, &[src, sink]);
        run(&mut fg, s.as_ref());
        // Raw native-endian items, nothing else: GNU Radio's format.
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes, ne_bytes(&data));

        let mut fg = Flowgraph::new();
        let src = fg.add(FileSource::<Complex32>::new(&path).unwrap());
        let sink = fg.add(VectorSink::<Complex32>::new());
        chain(&mut fg, &[src, sink]);
        run(&mut fg, s.as_ref());
        assert_eq!(
            fg.block::<VectorSink<Complex32>>(sink).unwrap().data(),
            data
        );

        let mut fg = Flowgraph::new();
        let src = fg.add(FileSource::<Complex32>::new(&path).unwrap().repeat(true));
        let head = fg.add(Head::<Complex32>::new(250_000));
        let sink = fg.add(VectorSink::<Complex32>::new());
        chain(&mut fg, &[src, head, sink]);
        run(&mut fg, s.as_ref());
        let want: Vec<Complex32> = data.iter().copied().cycle().take(250_000).collect();
        assert_eq!(
            fg.block::<VectorSink<Complex32>>(sink).unwrap().data(),
            want
        );
    }
}

fn ne_bytes(data: &[Complex32]) -> Vec<u8> {
    data.iter()
        .flat_map(|c| c.re.to_ne_bytes().into_iter().chain(c.im.to_ne_bytes()))
        .collect()
}

#[test]
fn file_source_drops_a_trailing_partial_item() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.u32");
    let mut bytes: Vec<u8> = [7u32, 8, 9].iter().flat_map(|x| x.to_ne_bytes()).collect();
    bytes.extend([1, 2]);
    std::fs::write(&path, &bytes).unwrap();
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(FileSource::<u32>::new(&path).unwrap());
        let sink = fg.add(VectorSink::<u32>::new());
        chain(&mut fg, &[src, sink]);
        run(&mut fg, s.as_ref());
        assert_eq!(fg.block::<VectorSink<u32>>(sink).unwrap().data(), [7, 8, 9]);

        let mut fg = Flowgraph::new();
        let src = fg.add(FileSource::<u32>::new(&path).unwrap().repeat(true));
        let head = fg.add(Head::<u32>::new(7));
        let sink = fg.add(VectorSink::<u32>::new());
        chain(&mut fg, &[src, head, sink]);
        run(&mut fg, s.as_ref());
        assert_eq!(
            fg.block::<VectorSink<u32>>(sink).unwrap().data(),
            [7, 8, 9, 7, 8, 9, 7]
        );
    }
}

#[test]
fn file_source_with_less_than_one_item_finishes_even_when_repeating() {
    let dir = tempfile::tempdir().unwrap();
    for (name, len) in [("empty", 0), ("short", 3)] {
        let path = dir.path().join(name);
        std::fs::write(&path, vec![0u8; len]).unwrap();
        for s in schedulers() {
            let mut fg = Flowgraph::new();
            let src = fg.add(FileSource::<f32>::new(&path).unwrap().repeat(true));
            let sink = fg.add(VectorSink::<f32>::new());
            chain(&mut fg, &[src, sink]);
            run(&mut fg, s.as_ref());
            assert!(fg.block::<VectorSink<f32>>(sink).unwrap().data().is_empty());
        }
    }
}

#[test]
fn file_errors_name_the_path() {
    let dir = tempfile::tempdir().unwrap();

    let missing = dir.path().join("missing.f32");
    let e = FileSource::<f32>::new(&missing).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert_eq!(e.path(), missing);
    assert!(e.to_string().contains(missing.to_str().unwrap()), "{e}");

    let e = FileSource::<f32>::new(dir.path()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::IsADirectory);
    assert!(e.to_string().contains(dir.path().to_str().unwrap()), "{e}");

    let unwritable = dir.path().join("no-such-dir").join("out.f32");
    let e = FileSink::<f32>::new(&unwritable).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert!(e.to_string().contains(unwritable.to_str().unwrap()), "{e}");

    // Usable with `?` where an io::Error is expected.
    let io: std::io::Error = e.into();
    assert_eq!(io.kind(), ErrorKind::NotFound);
}

#[test]
fn file_sink_truncates_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.u8");
    std::fs::write(&path, [9u8; 100]).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1u8, 2, 3]));
    let sink = fg.add(FileSink::<u8>::new(&path).unwrap());
    chain(&mut fg, &[src, sink]);
    run(&mut fg, &SingleThread::new());
    assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
}

/// Largest |got - want(n)| over the run.
fn max_dev<T: Copy>(got: &[T], want: impl Fn(usize) -> T, dist: impl Fn(T, T) -> f64) -> f64 {
    got.iter()
        .enumerate()
        .map(|(n, &g)| dist(g, want(n)))
        .fold(0.0, f64::max)
}

// f32 output: rounding of amplitude and offset (about 6e-8 each, relative) plus the NCO's
// f64 error; 1e-6 relative to |amplitude| + |offset| is generous yet far below any bug.
const SIGNAL_TOL: f64 = 1e-6;

#[test]
fn signal_source_f32_matches_the_naive_formula() {
    let (f, fs, amp, off, phi) = (1234.5, 48_000.0, 1.5f32, -0.25f32, 0.3);
    let n = 300_000;
    let tol = SIGNAL_TOL * f64::from(amp.abs() + off.abs());
    for s in schedulers() {
        for waveform in [Waveform::Sine, Waveform::Cosine, Waveform::Constant] {
            let mut fg = Flowgraph::new();
            let src = fg.add(SignalSource::<f32>::new(waveform, f, fs, amp, off).phase(phi));
            let head = fg.add(Head::<f32>::new(n));
            let sink = fg.add(VectorSink::<f32>::new());
            chain(&mut fg, &[src, head, sink]);
            run(&mut fg, s.as_ref());
            let got = fg.block::<VectorSink<f32>>(sink).unwrap().data();
            assert_eq!(got.len() as u64, n);
            let (a, o) = (f64::from(amp), f64::from(off));
            let want = |k: usize| {
                let p = 2.0 * PI * f * k as f64 / fs + phi;
                match waveform {
                    Waveform::Sine => a * p.sin() + o,
                    Waveform::Cosine => a * p.cos() + o,
                    Waveform::Constant => a + o,
                    // Checked in signal_source's unit tests and gnuradio_signal_source.rs.
                    Waveform::Square | Waveform::Triangle | Waveform::Sawtooth => {
                        unreachable!("not in this loop")
                    }
                }
            };
            let dev = max_dev(got, |k| want(k) as f32, |g, w| f64::from((g - w).abs()));
            assert!(dev <= tol, "{waveform:?}: deviation {dev}");
        }
    }
}

#[test]
fn signal_source_complex_is_cos_plus_j_sin_for_sine_and_cosine() {
    let (f, fs, amp) = (-3000.0, 20_000.0, 0.8f32);
    let off = Complex32::new(0.1, -0.2);
    let n = 200_000;
    for s in schedulers() {
        for waveform in [Waveform::Sine, Waveform::Cosine, Waveform::Constant] {
            let mut fg = Flowgraph::new();
            let src = fg.add(SignalSource::<Complex32>::new(waveform, f, fs, amp, off));
            let head = fg.add(Head::<Complex32>::new(n));
            let sink = fg.add(VectorSink::<Complex32>::new());
            chain(&mut fg, &[src, head, sink]);
            run(&mut fg, s.as_ref());
            let got = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
            assert_eq!(got.len() as u64, n);
            let a = f64::from(amp);
            let want = |k: usize| {
                let (sin, cos) = match waveform {
                    Waveform::Constant => (0.0, 1.0),
                    _ => (2.0 * PI * f * k as f64 / fs).sin_cos(),
                };
                Complex32::new((a * cos) as f32, (a * sin) as f32) + off
            };
            let dev = max_dev(got, want, |g, w| f64::from((g - w).norm()));
            assert!(dev <= 2.0 * SIGNAL_TOL, "{waveform:?}: deviation {dev}");
        }
    }
}

/// Runs `data` (tagged on item 1) through `block` and returns the output and its tags.
fn through<T, B>(data: Vec<T>, block: B, scheduler: &dyn Scheduler) -> (Vec<T>, Vec<Tag>)
where
    T: radioflow_blocks::runtime::Item,
    B: radioflow_blocks::runtime::Block,
{
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data).tags(vec![Tag::new(1, sym("k"), Pmt::Int(1))]));
    let op = fg.add(block);
    let sink = fg.add(VectorSink::<T>::new());
    chain(&mut fg, &[src, op, sink]);
    run(&mut fg, scheduler);
    let sink = fg.block_mut::<VectorSink<T>>(sink).unwrap();
    (sink.take(), sink.tags().to_vec())
}

#[test]
fn add_and_multiply_const() {
    let tag = vec![Tag::new(1, sym("k"), Pmt::Int(1))];
    for s in schedulers() {
        let s = s.as_ref();
        let x: Vec<f32> = (0..10_000).map(|i| i as f32 * 0.25 - 7.0).collect();
        let (y, tags) = through(x.clone(), AddConst::new(1.5f32), s);
        assert_eq!(y, x.iter().map(|v| v + 1.5).collect::<Vec<_>>());
        assert_eq!(tags, tag);
        let (y, tags) = through(x.clone(), MultiplyConst::new(-3.0f32), s);
        assert_eq!(y, x.iter().map(|v| v * -3.0).collect::<Vec<_>>());
        assert_eq!(tags, tag);

        let z = complex_ramp(5000);
        let k = Complex32::new(0.5, 2.0);
        let (y, tags) = through(z.clone(), AddConst::new(k), s);
        assert_eq!(y, z.iter().map(|v| v + k).collect::<Vec<_>>());
        assert_eq!(tags, tag);
        let (y, _) = through(z.clone(), MultiplyConst::new(k), s);
        assert_eq!(y, z.iter().map(|v| v * k).collect::<Vec<_>>());

        let w: Vec<i16> = (-20_000..20_000).step_by(7).map(|v| v as i16).collect();
        let (y, tags) = through(w.clone(), AddConst::new(30_000i16), s);
        assert_eq!(
            y,
            w.iter().map(|v| v.wrapping_add(30_000)).collect::<Vec<_>>()
        );
        assert_eq!(tags, tag);
        let (y, _) = through(w.clone(), MultiplyConst::new(3i16), s);
        assert_eq!(y, w.iter().map(|v| v.wrapping_mul(3)).collect::<Vec<_>>());

        let v: Vec<i32> = (0..10_000)
            .map(|i: i32| i.wrapping_mul(1_000_003))
            .collect();
        let (y, _) = through(v.clone(), AddConst::new(-5i32), s);
        assert_eq!(y, v.iter().map(|x| x.wrapping_add(-5)).collect::<Vec<_>>());
        let (y, _) = through(v.clone(), MultiplyConst::new(7i32), s);
        assert_eq!(y, v.iter().map(|x| x.wrapping_mul(7)).collect::<Vec<_>>());
    }
}

#[test]
fn throttle_limits_the_rate_and_passes_everything() {
    for s in schedulers() {
        let data: Vec<u16> = (0..20_000).map(|i| i as u16).collect();
        let start = Instant::now();
        let (got, tags) = through(data.clone(), Throttle::<u16>::new(100_000.0), s.as_ref());
        let took = start.elapsed();
        assert_eq!(got, data);
        assert_eq!(tags.len(), 1);
        // 20 000 items at 100 000/s is 0.2 s: no load makes a wall clock run faster, so this
        // lower bound holds on any machine. (No upper bound: a loaded machine may take longer;
        // that the throttle releases items on schedule, not late, is checked deterministically
        // in throttle.rs's unit tests, call by call.)
        assert!(
            took >= Duration::from_millis(150),
            "{} took {took:?}",
            s.name()
        );
    }
}

#[test]
#[should_panic(expected = "throttle: items_per_second must be >= 0.001, not 0")]
fn throttle_rejects_a_zero_rate() {
    let _ = Throttle::<f32>::new(0.0);
}

#[test]
fn message_burst_through_forwarders_reaches_the_counter() {
    for s in schedulers() {
        let n = 10_000;
        let messages: Vec<Pmt> = (0..n).map(Pmt::Int).collect();
        let mut fg = Flowgraph::new();
        let src = fg.add(MessageBurstSource::new(messages));
        let mut prev = src;
        for _ in 0..8 {
            let fwd = fg.add(MessageForwarder::new());
            fg.connect_message((prev, "out"), (fwd, "in")).unwrap();
            prev = fwd;
        }
        // Fan out at the end: every counter sees every message.
        let counters: Vec<_> = (0..2).map(|_| fg.add(MessageCounter::new())).collect();
        for &c in &counters {
            fg.connect_message((prev, "out"), (c, "in")).unwrap();
        }
        run(&mut fg, s.as_ref());
        for &c in &counters {
            let c = fg.block::<MessageCounter>(c).unwrap();
            assert_eq!(c.count(), n as u64);
            assert_eq!(c.last(), Some(&Pmt::Int(n - 1)), "messages arrive in order");
        }
    }
}

#[test]
fn message_burst_repeat_shares_the_payload() {
    let payload = Pmt::U8Vector(vec![0u8; 1 << 20].into());
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::repeat(payload.clone(), 1000));
    let fwd = fg.add(MessageForwarder::new());
    let count = fg.add(MessageCounter::new());
    fg.connect_message(src, fwd).unwrap();
    fg.connect_message(fwd, count).unwrap();
    run(&mut fg, &ThreadPerBlock::new());
    let count = fg.block::<MessageCounter>(count).unwrap();
    assert_eq!(count.count(), 1000);
    let (Some(Pmt::U8Vector(got)), Pmt::U8Vector(sent)) = (count.last(), &payload) else {
        panic!("wrong message type");
    };
    assert!(std::sync::Arc::ptr_eq(got, sent), "the payload was copied");
}

#[test]
fn empty_message_burst_finishes() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(MessageBurstSource::new(Vec::new()));
        let count = fg.add(MessageCounter::new());
        fg.connect_message(src, count).unwrap();
        run(&mut fg, s.as_ref());
        let count = fg.block::<MessageCounter>(count).unwrap();
        assert_eq!((count.count(), count.last()), (0, None));
    }
}

#[test]
fn multiply_is_the_item_by_item_product_with_every_inputs_tags() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        fg.set_default_buffer_size(4096);
        let n = 50_000u32;
        let a: Vec<u32> = (0..n).collect();
        let b: Vec<u32> = (0..n).map(|k| k % 7 + 1).collect();
        let c: Vec<u32> = (0..n).map(|k| k % 3).collect();
        let tag = Tag::new(123, sym("b"), Pmt::Int(1));
        let sa = fg.add(Counter::new(u64::from(n)).chunked(3, 700).tag_every(10_000));
        let sb = fg.add(VectorSource::new(b.clone()).tags(vec![tag.clone()]));
        let sc = fg.add(VectorSource::new(c.clone()));
        let mul = fg.add(Multiply::<u32>::new(3));
        let sink = fg.add(Sink::new().chunked(4, 900));
        fg.connect(sa, (mul, "in0")).unwrap();
        fg.connect(sb, (mul, 1)).unwrap();
        fg.connect(sc, (mul, 2)).unwrap();
        fg.connect(mul, sink).unwrap();
        run(&mut fg, s.as_ref());
        let sink = fg.block::<Sink>(sink).unwrap();
        let want: Vec<u32> = (0..n as usize)
            .map(|k| a[k].wrapping_mul(b[k]).wrapping_mul(c[k]))
            .collect();
        assert_eq!(sink.items, want, "{}", s.name());
        let mut want_tags: Vec<Tag> = (0..u64::from(n))
            .step_by(10_000)
            .map(|k| Tag::new(k, sym("n"), Pmt::Uint64(k)))
            .collect();
        want_tags.push(tag.clone());
        want_tags.sort_by_key(|t| t.offset);
        let mut got = sink.tags.clone();
        got.sort_by_key(|t| t.offset);
        assert_eq!(got, want_tags, "{}", s.name());
    }
}

#[test]
#[should_panic(expected = "throttle: items_per_second must be >= 0.001, not 1e-300")]
fn throttle_rejects_a_rate_whose_sleep_cannot_be_represented() {
    let _ = Throttle::<f32>::new(1e-300);
}

#[test]
fn a_throttle_at_its_lowest_rate_passes_its_first_item_and_stops_when_asked() {
    // The lowest rate there is: one item per 1000 s. The first passes at once (the clock
    // starts with it), the second is a long sleep that a stop cuts short.
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![7u8; 3]));
        let throttle = fg.add(Throttle::<u8>::new(0.001));
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, throttle).unwrap();
        fg.connect(throttle, sink).unwrap();
        fg.start(s.as_ref()).unwrap();
        let t0 = Instant::now();
        while fg.live_stats(sink).map_or(0, |st| st.items_consumed) < 1 {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "{}: no first item",
                s.name()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        fg.stop();
        fg.wait_timeout(Duration::from_secs(60)).unwrap();
        assert_eq!(
            fg.block::<VectorSink<u8>>(sink).unwrap().data(),
            [7],
            "{}",
            s.name()
        );
    }
}
