//! Observability on real graphs: per-block counters on every scheduler, counters switched off,
//! live reading while a graph runs, Chrome trace export, and the FIR block's output and tags
//! whatever the chunking.

use radioflow_blocks::{FirFilter, Head, NullSink, NullSource, VectorSink, VectorSource};
use radioflow_runtime::{
    scheduler_by_name, BlockId, BlockStats, Complex32, Counters, Flowgraph, Pmt, Tag, TraceConfig,
    COUNTERS_COMPILED, SCHEDULER_NAMES,
};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// null source -> head(n) -> FIR -> FIR -> null sink.
fn fir_graph(n: u64) -> (Flowgraph, [BlockId; 5]) {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<Complex32>::new());
    let head = fg.add(Head::<Complex32>::new(n));
    let a = fg.add(FirFilter::<Complex32>::new(&[0.5; 20]));
    let b = fg.add(FirFilter::<Complex32>::new(&[0.25; 7]));
    let sink = fg.add(NullSink::<Complex32>::new());
    for (x, y) in [(src, head), (head, a), (a, b), (b, sink)] {
        fg.connect(x, y).unwrap();
    }
    (fg, [src, head, a, b, sink])
}

fn check_consistent(s: &BlockStats) {
    assert_eq!(s.produced_log2.iter().sum::<u64>(), s.work_calls, "{s:?}");
    if s.work_calls > 0 && s.work_ns > 0 {
        assert!(s.work_ns_min as f64 <= s.work_ns_avg() + 1.0, "{s:?}");
        assert!(s.work_ns_avg() <= s.work_ns_max as f64 + 1.0, "{s:?}");
    }
}

#[test]
fn counters_count_every_item_on_every_scheduler() {
    let n = 200_000;
    for name in SCHEDULER_NAMES {
        let (mut fg, [src, head, a, b, sink]) = fir_graph(n);
        fg.set_counters(Counters::Timed);
        fg.run_with(scheduler_by_name(name).unwrap().as_ref())
            .unwrap();
        assert_eq!(fg.block::<NullSink<Complex32>>(sink).unwrap().items(), n);
        let st = |id| fg.stats(id).unwrap().clone();
        if !COUNTERS_COMPILED {
            for id in [src, head, a, b, sink] {
                assert_eq!(st(id), BlockStats::default());
            }
            continue;
        }
        assert_eq!(st(head).items_produced, n, "{name}");
        assert!(st(src).items_produced >= n, "{name}");
        for id in [a, b] {
            assert_eq!(st(id).items_consumed, n, "{name}");
            assert_eq!(st(id).items_produced, n, "{name}");
            assert!(st(id).work_calls > 0 && st(id).work_ns > 0, "{name}");
        }
        assert_eq!(st(sink).items_consumed, n, "{name}");
        assert_eq!(st(sink).items_produced, 0, "{name}");
        for id in [src, head, a, b, sink] {
            check_consistent(&st(id));
            assert_eq!(st(id).messages, 0);
        }
        assert!(!fg.thread_stats().is_empty());
    }
}

#[test]
fn counts_level_reads_no_clock() {
    let (mut fg, ids) = fir_graph(50_000);
    assert_eq!(fg.counters(), Counters::Counts, "the default");
    fg.run().unwrap();
    for id in ids {
        let s = fg.stats(id).unwrap();
        assert_eq!(s.work_ns, 0);
        assert_eq!(s.work_calls > 0, COUNTERS_COMPILED);
    }
}

#[test]
fn counters_off_record_nothing() {
    let (mut fg, ids) = fir_graph(50_000);
    fg.set_counters(Counters::Off);
    fg.run().unwrap();
    for id in ids {
        assert_eq!(fg.stats(id).unwrap(), &BlockStats::default());
    }
}

#[test]
fn live_counters_are_readable_while_the_graph_runs() {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let fir = fg.add(FirFilter::<f32>::new(&[1.0; 16]));
    let sink = fg.add(NullSink::<f32>::new());
    fg.connect(src, fir).unwrap();
    fg.connect(fir, sink).unwrap();
    fg.set_counters(Counters::Timed);
    fg.start(scheduler_by_name("tpb").unwrap().as_ref())
        .unwrap();
    let handle = fg.stats_handle().expect("running");
    let mut seen = 0;
    // The graph never ends by itself: poll until the sink has consumed something (the
    // deadline only keeps a broken build from hanging the suite).
    let deadline = Instant::now() + Duration::from_secs(30);
    while COUNTERS_COMPILED && seen < 100_000 && Instant::now() < deadline {
        seen = handle.get(sink).unwrap().items_consumed;
        assert!(fg.live_stats(sink).is_some());
        std::thread::sleep(Duration::from_millis(1));
    }
    fg.stop();
    fg.wait().unwrap();
    let end = fg.stats(sink).unwrap();
    assert!(end.items_consumed >= seen);
    if COUNTERS_COMPILED {
        assert!(seen >= 100_000, "live counters never moved");
        assert!(fg.stats(fir).unwrap().work_calls > 0);
    }
    assert_eq!(fg.live_stats(sink).as_ref(), Some(end));
    assert!(fg.stats_handle().is_none());
}

#[test]
fn trace_is_chrome_trace_event_json_with_every_thread_and_block() {
    let n = 100_000;
    for name in ["tpb", "flow", "single"] {
        let (mut fg, ids) = fir_graph(n);
        fg.set_trace(Some(TraceConfig {
            events_per_block: 1 << 12,
        }));
        fg.run_with(scheduler_by_name(name).unwrap().as_ref())
            .unwrap();
        let trace = fg.trace().expect("asked for a trace");
        let mut json = Vec::new();
        trace.write_chrome_json(&mut json).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json).expect("valid JSON");
        let events = v["traceEvents"].as_array().expect("traceEvents array");
        if !COUNTERS_COMPILED {
            assert!(trace.is_empty());
            continue;
        }
        let mut thread_names = HashMap::new();
        let mut work_tids = HashSet::new();
        let mut blocks = HashSet::new();
        for e in events {
            match e["ph"].as_str().unwrap() {
                "M" if e["name"] == "thread_name" => {
                    thread_names.insert(
                        e["tid"].as_u64().unwrap(),
                        e["args"]["name"].as_str().unwrap().to_owned(),
                    );
                }
                "M" => assert_eq!(e["name"], "process_name"),
                "X" => {
                    assert_eq!(e["cat"], "work");
                    assert!(e["ts"].as_f64().unwrap() >= 0.0);
                    assert!(e["dur"].as_f64().unwrap() >= 0.0);
                    assert!(e["args"]["items"].is_u64());
                    work_tids.insert(e["tid"].as_u64().unwrap());
                    blocks.insert(e["name"].as_str().unwrap().to_owned());
                }
                other => panic!("unexpected phase {other}"),
            }
        }
        // Every block worked, on a thread that has a name.
        for id in ids {
            assert!(blocks.contains(fg.name(id)), "{name}: {}", fg.name(id));
        }
        for tid in &work_tids {
            assert!(
                thread_names.contains_key(tid),
                "{name}: thread {tid} unnamed"
            );
        }
        let names: HashSet<&str> = work_tids.iter().map(|t| thread_names[t].as_str()).collect();
        match name {
            "tpb" => {
                for id in ids {
                    assert!(
                        names.contains(format!("rf-{}", fg.name(id)).as_str()),
                        "{names:?}"
                    );
                }
            }
            "single" => assert_eq!(names.len(), 1, "{names:?}"),
            _ => assert!(names.iter().all(|n| n.starts_with("rf-flow")), "{names:?}"),
        }
        // Items in the trace match the counters when nothing was dropped.
        assert_eq!(trace.dropped(), 0);
        let fir = fg.name(ids[2]);
        let items: u64 = events
            .iter()
            .filter(|e| e["name"] == fir)
            .map(|e| e["args"]["items"].as_u64().unwrap())
            .sum();
        assert_eq!(items, n);
    }
}

#[test]
fn no_trace_unless_asked() {
    let (mut fg, _) = fir_graph(10_000);
    fg.run().unwrap();
    assert!(fg.trace().is_none());
}

/// `y[n] = Σ taps[k] x[n-k]` with zeros before the start, in f64.
fn reference(taps: &[f32], x: &[f32]) -> Vec<f64> {
    (0..x.len())
        .map(|n| {
            taps.iter()
                .enumerate()
                .filter(|(k, _)| *k <= n)
                .map(|(k, &t)| t as f64 * x[n - k] as f64)
                .sum()
        })
        .collect()
}

#[test]
fn fir_block_output_and_tags_do_not_depend_on_chunking() {
    let x: Vec<f32> = (0..5000)
        .map(|i| ((i * 7919) % 101) as f32 / 50.0 - 1.0)
        .collect();
    let taps: Vec<f32> = (0..37)
        .map(|k| ((k * 31) % 17) as f32 / 8.0 - 1.0)
        .collect();
    let want = reference(&taps, &x);
    let tags: Vec<Tag> = [0u64, 1, 36, 37, 999, 4999]
        .iter()
        .map(|&o| Tag::new(o, "k", Pmt::from(o as i64)))
        .collect();
    for (chunk, scheduler) in [
        (1, "single"),
        (5, "tpb"),
        (36, "flow"),
        (37, "single"),
        (4096, "tpb"),
    ] {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(x.clone()).tags(tags.clone()));
        let fir = fg.add(FirFilter::<f32>::new(&taps));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, fir).unwrap();
        fg.connect(fir, sink).unwrap();
        fg.set_max_items(src, chunk);
        fg.run_with(scheduler_by_name(scheduler).unwrap().as_ref())
            .unwrap();
        let k = fg.block::<VectorSink<f32>>(sink).unwrap();
        assert_eq!(k.data().len(), x.len(), "chunk {chunk}");
        for (i, (&g, &w)) in k.data().iter().zip(&want).enumerate() {
            // f32 sums of 37 terms of magnitude <= 1: well within 1e-4.
            assert!(
                (g as f64 - w).abs() < 1e-4,
                "chunk {chunk} item {i}: {g} vs {w}"
            );
        }
        let offsets: Vec<u64> = k.tags().iter().map(|t| t.offset).collect();
        assert_eq!(offsets, [0, 1, 36, 37, 999, 4999], "chunk {chunk}");
    }
}

#[test]
fn complex_fir_block_filters_real_and_imaginary_parts_alike() {
    let x: Vec<Complex32> = (0..3000)
        .map(|i| Complex32::new((i % 13) as f32 - 6.0, (i % 7) as f32 - 3.0))
        .collect();
    let taps: Vec<f32> = (0..100).map(|k| 1.0 / (k as f32 + 1.0)).collect();
    let re = reference(&taps, &x.iter().map(|c| c.re).collect::<Vec<_>>());
    let im = reference(&taps, &x.iter().map(|c| c.im).collect::<Vec<_>>());
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(x.clone()));
    let fir = fg.add(FirFilter::<Complex32>::new(&taps));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, fir).unwrap();
    fg.connect(fir, sink).unwrap();
    fg.set_max_items(src, 333);
    fg.run().unwrap();
    let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
    assert_eq!(y.len(), x.len());
    for i in 0..y.len() {
        // Terms up to 6, 100 of them: sums up to ~31; f32 rounding stays below 1e-3.
        assert!((y[i].re as f64 - re[i]).abs() < 1e-3, "{i}");
        assert!((y[i].im as f64 - im[i]).abs() < 1e-3, "{i}");
    }
}

#[test]
fn decimating_fir_keeps_every_dth_output_whatever_the_chunking() {
    let x: Vec<f32> = (0..3001)
        .map(|i| ((i * 7919) % 97) as f32 / 48.0 - 1.0)
        .collect();
    let tags: Vec<Tag> = [0u64, 5, 36, 1000, 2999]
        .iter()
        .map(|&o| Tag::new(o, "k", Pmt::from(o as i64)))
        .collect();
    for taps_len in [1, 4, 37] {
        let taps: Vec<f32> = (0..taps_len)
            .map(|k| ((k * 31) % 17) as f32 / 8.0 - 1.0)
            .collect();
        let full = reference(&taps, &x);
        for d in [2, 3, 10] {
            for (chunk, out_chunk, scheduler) in [
                (1, 1, "single"),
                (7, 3, "tpb"),
                (36, 1000, "flow"),
                (4096, 2, "single"),
            ] {
                let mut fg = Flowgraph::new();
                let src = fg.add(VectorSource::new(x.clone()).tags(tags.clone()));
                let fir = fg.add(FirFilter::<f32>::decimating(&taps, d));
                let sink = fg.add(VectorSink::<f32>::new());
                fg.connect(src, fir).unwrap();
                fg.connect(fir, sink).unwrap();
                fg.set_max_items(src, chunk);
                fg.set_max_items(fir, out_chunk);
                fg.run_with(scheduler_by_name(scheduler).unwrap().as_ref())
                    .unwrap();
                let k = fg.block::<VectorSink<f32>>(sink).unwrap();
                let want: Vec<f64> = full.iter().step_by(d).copied().collect();
                let label = format!("taps {taps_len} d {d} chunk {chunk}/{out_chunk}");
                assert_eq!(k.data().len(), want.len(), "{label}");
                for (i, (&g, &w)) in k.data().iter().zip(&want).enumerate() {
                    assert!((g as f64 - w).abs() < 1e-4, "{label} item {i}: {g} vs {w}");
                }
                let offsets: Vec<u64> = k.tags().iter().map(|t| t.offset).collect();
                let expected: Vec<u64> = [0u64, 5, 36, 1000, 2999]
                    .iter()
                    .map(|o| o.div_ceil(d as u64))
                    .collect();
                assert_eq!(offsets, expected, "{label}");
            }
        }
    }
}
