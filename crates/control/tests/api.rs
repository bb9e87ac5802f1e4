//! The control port's API with a real HTTP client against a running graph.

mod common;

use common::{poll, request, start, DEADLINE};
use radioflow_blocks::MessageDebug;
use radioflow_runtime::Pmt;
use serde_json::Value;

fn items_out(base: &str, block: &str) -> Option<u64> {
    let (status, c) = request("GET", &format!("{base}/api/counters"), None, None);
    assert_eq!(status, 200);
    c["blocks"]
        .as_array()?
        .iter()
        .find(|b| b["name"] == block)?["items_out"]
        .as_u64()
}

#[test]
fn lists_blocks_counts_posts_sets_and_stops() {
    let mut r = start(None, "127.0.0.1:0");
    let base = r.base.clone();

    // The graph's shape.
    let (status, g) = request("GET", &format!("{base}/api/graph"), None, None);
    assert_eq!(status, 200, "{g}");
    let names: Vec<&str> = g["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["src", "throttle", "ticker", "debug", "probe:throttle.out"]
    );
    let src = &g["blocks"][0];
    assert_eq!(
        src["message_input_takes"],
        serde_json::json!([
            "a number",
            "a waveform (sine, cosine, constant, square, triangle, sawtooth)",
            "a number",
            "a number",
            "a number (complex or real)",
            "a number",
            null
        ])
    );
    assert_eq!(
        g["blocks"][3]["message_input_takes"],
        serde_json::json!([null, null, null])
    );
    assert_eq!(src["outputs"][0]["item"], "complex64");
    assert_eq!(
        src["message_inputs"],
        serde_json::json!([
            "sample_rate",
            "waveform",
            "frequency",
            "amplitude",
            "offset",
            "phase",
            "cmd"
        ])
    );
    assert!(g["edges"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["src"] == "src" && e["dst"] == "throttle" && e["item"] == "complex64"));
    assert_eq!(g["message_edges"][0]["dst_port"], "store");
    assert_eq!(g["probes"][0]["id"], "throttle.out");
    // The throttle waits to its rate by design; the others compute.
    let paced: Vec<bool> = g["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["paced"].as_bool().unwrap())
        .collect();
    assert_eq!(paced, [false, true, false, false, false]);

    // Counters move.
    let first = poll("the throttle to produce", DEADLINE, || {
        items_out(&base, "throttle").filter(|&n| n > 0)
    });
    poll("the throttle's counter to grow", DEADLINE, || {
        items_out(&base, "throttle").filter(|&n| n > first)
    });

    // Buffer fill per connected stream output.
    let (_, c) = request("GET", &format!("{base}/api/counters"), None, None);
    // The throttle spends nearly all the time in work, sleeping: never the bottleneck; the
    // graph runs at its pace.
    assert_ne!(c["bottleneck"], "throttle", "{c}");
    let (_, c) = poll("a report with the throttle's share", DEADLINE, || {
        let (s, c) = request("GET", &format!("{base}/api/counters"), None, None);
        (c["paced_by"] == "throttle").then_some((s, c))
    });
    assert_eq!(c["bottleneck"], Value::Null, "{c}");
    let b = c["buffers"].as_array().unwrap();
    let throttle = b
        .iter()
        .find(|b| b["block"] == "throttle" && b["port"] == "out")
        .expect("throttle.out's buffer");
    assert!(throttle["capacity"].as_u64().unwrap() > 0, "{throttle}");
    assert!(throttle["items"].as_u64().unwrap() <= throttle["capacity"].as_u64().unwrap());
    assert!(b.iter().any(|b| b["block"] == "src"), "{c}");

    // A message posted to debug.store is stored.
    let (status, v) = request(
        "POST",
        &format!("{base}/api/blocks/debug/messages/store"),
        Some(r#"{"pair": ["freq", 2.5]}"#),
        None,
    );
    assert_eq!(status, 200, "{v}");

    // A parameter: the tone's amplitude, seen through the probe's time view.
    let (status, v) = request(
        "GET",
        &format!("{base}/api/blocks/src/params/amplitude"),
        None,
        None,
    );
    assert_eq!((status, &v["value"]), (200, &serde_json::json!(1.0)), "{v}");
    let (status, v) = request(
        "PUT",
        &format!("{base}/api/blocks/src/params/amplitude"),
        Some(r#"{"value": 3}"#),
        None,
    );
    assert_eq!(status, 200, "{v}");
    let (_, v) = request("GET", &format!("{base}/api/blocks/src/params"), None, None);
    assert_eq!(
        v["params"][3],
        serde_json::json!({"name": "amplitude", "value": 3, "takes": "a number"})
    );
    poll("the probe to see amplitude 3", DEADLINE, || {
        let (status, d) = request(
            "GET",
            &format!("{base}/api/probes/throttle.out?view=time"),
            None,
            None,
        );
        assert_eq!(status, 200, "{d}");
        let (re, im) = (d["y"].as_array()?, d["y2"].as_array()?);
        let all_three = !re.is_empty()
            && re.iter().zip(im).all(|(a, b)| {
                let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
                ((a * a + b * b).sqrt() - 3.0).abs() < 1e-3
            });
        all_three.then_some(())
    });
    // A spectrum's x and y from the probe with `query`.
    let spectrum = |query: &str| {
        let (status, d) = request(
            "GET",
            &format!("{base}/api/probes/throttle.out?view=spectrum{query}"),
            None,
            None,
        );
        assert_eq!(status, 200, "{d}");
        let y: Vec<f64> = d["y"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        (d, y)
    };
    // The spectrum view has a peak at 1 kHz of 200 kS/s with 256 bins: bin 1.28 -> 1.
    let (d, y) = spectrum("");
    let peak = (0..y.len()).max_by(|&a, &b| y[a].total_cmp(&y[b])).unwrap();
    assert_eq!(d["x"][peak].as_f64().unwrap(), 1.0, "peak bin");
    // On GNU Radio's QT sinks' scale, 10·log10(|X|²/N): with the flat-top window (its peak
    // true wherever the tone falls between bins) a tone of amplitude 3 reads
    // 10·log10(9 (Σw)² / N), Σw = (N - 1)/4.63867 for GNU Radio's symmetric window; here over
    // the frame's latest 128 samples.
    let (_, y) = spectrum("&window=7&fft=128");
    assert_eq!(y.len(), 128);
    let peak = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum = 127.0 / 4.63867;
    let want = 10.0 * (9.0 * sum * sum / 128.0f64).log10();
    assert!((peak - want).abs() < 0.05, "peak {peak} dB, want {want}");

    // Stop from the API; the graph ends and the message is in the store.
    let (status, _) = request("POST", &format!("{base}/api/stop"), None, None);
    assert_eq!(status, 200);
    r.fg.wait().unwrap();
    r.control.detach();
    assert_eq!(
        r.fg.block::<MessageDebug>(r.debug).unwrap().messages(),
        [Pmt::pair(Pmt::symbol("freq"), Pmt::Double(2.5))]
    );
    let (status, v) = request(
        "POST",
        &format!("{base}/api/blocks/debug/messages/store"),
        Some("1"),
        None,
    );
    assert_eq!(status, 409, "{v}");
}

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

#[test]
fn bad_requests_are_4xx_naming_what_is_wrong() {
    let r = start(None, "127.0.0.1:0");
    let base = &r.base;
    let cases = [
        (
            "POST",
            "/api/blocks/nope/messages/store",
            Some("1"),
            404,
            "'nope'",
        ),
        (
            "POST",
            "/api/blocks/debug/messages/nowhere",
            Some("1"),
            404,
            "'nowhere'",
        ),
        (
            "POST",
            "/api/blocks/debug/messages/store",
            Some("{not json"),
            400,
            "bad JSON",
        ),
        (
            "POST",
            "/api/blocks/debug/messages/store",
            Some(r#"{"blob": 1}"#),
            400,
            "'blob'",
        ),
        (
            "PUT",
            "/api/blocks/src/params/gain",
            Some(r#"{"value": 1}"#),
            404,
            "'gain'",
        ),
        (
            "PUT",
            "/api/blocks/src/params/amplitude",
            Some(r#"{"v": 1}"#),
            400,
            "src.amplitude",
        ),
        (
            "PUT",
            "/api/blocks/src/params/amplitude",
            Some(r#"{"value": [1]}"#),
            400,
            "src.amplitude",
        ),
        // A value of the wrong type for a typed input: refused here, the graph runs on.
        (
            "PUT",
            "/api/blocks/src/params/amplitude",
            Some(r#"{"value": "loud"}"#),
            400,
            "'src.amplitude' takes a number",
        ),
        (
            "POST",
            "/api/blocks/src/messages/frequency",
            Some(r#""high""#),
            400,
            "'src.frequency' takes a number",
        ),
        ("GET", "/api/probes/src.out", None, 404, "'src.out'"),
        (
            "GET",
            "/api/probes/throttle.out?view=waterfall",
            None,
            400,
            "'waterfall'",
        ),
        (
            "GET",
            "/api/probes/throttle.out?view=spectrum&window=6",
            None,
            400,
            "window = '6' is not one of GNU Radio's QT sinks' windows",
        ),
        (
            "GET",
            "/api/probes/throttle.out?view=spectrum&fft=0",
            None,
            400,
            "fft = '0' is not 1 to 256",
        ),
        (
            "GET",
            "/api/probes/throttle.out?view=spectrum&fft=512",
            None,
            400,
            "fft = '512'",
        ),
        (
            "GET",
            "/api/probes/throttle.out?view=spectrum&norm=1",
            None,
            400,
            "norm = 1 needs a window",
        ),
        (
            "GET",
            "/api/probes/throttle.out?view=spectrum&window=5&norm=yes",
            None,
            400,
            "norm = 'yes' is not 0 or 1",
        ),
        ("GET", "/assets/../Cargo.toml", None, 404, ""),
        ("GET", "/assets/%2e%2e%2fCargo.toml", None, 404, ""),
        ("GET", "/etc/passwd", None, 404, "/etc/passwd"),
    ];
    for (method, path, body, want, names) in cases {
        let (status, v) = request(method, &format!("{base}{path}"), body, None);
        assert_eq!(status, want, "{method} {path}: {v}");
        assert!(error_of(&v).contains(names), "{method} {path}: {v}");
    }
    // What a typed parameter takes is listed; the graph was not stopped by the refused values.
    let (status, v) = request("GET", &format!("{base}/api/blocks/src/params"), None, None);
    assert_eq!(status, 200, "{v}");
    let amplitude = v["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "amplitude")
        .unwrap();
    assert_eq!(amplitude["takes"], "a number", "{v}");
    let first = poll("the throttle to produce", DEADLINE, || {
        items_out(base, "throttle").filter(|&n| n > 0)
    });
    poll("the throttle's counter to grow", DEADLINE, || {
        items_out(base, "throttle").filter(|&n| n > first)
    });
    let (status, v) = request(
        "PUT",
        &format!("{base}/api/blocks/src/params/amplitude"),
        Some(r#"{"value": 0.5}"#),
        None,
    );
    assert_eq!(status, 200, "{v}");
    // The page and its files are there.
    let (status, page) = request("GET", &format!("{base}/"), None, None);
    assert_eq!(status, 200);
    assert!(page.as_str().unwrap().contains("radioflow live view"));
    let (status, _) = request("GET", &format!("{base}/assets/chart.min.js"), None, None);
    assert_eq!(status, 200);
}

#[test]
fn a_token_is_required_on_every_request_when_one_is_set() {
    let r = start(Some("sesame"), "127.0.0.1:0");
    let base = &r.base;
    for path in ["/", "/api/graph", "/api/counters", "/assets/app.js"] {
        let (status, v) = request("GET", &format!("{base}{path}"), None, None);
        assert_eq!(status, 401, "{path}: {v}");
        let (status, _) = request("GET", &format!("{base}{path}"), None, Some("wrong"));
        assert_eq!(status, 401, "{path}");
        let (status, _) = request("GET", &format!("{base}{path}"), None, Some("sesame"));
        assert_eq!(status, 200, "{path}");
    }
    let (status, _) = request("GET", &format!("{base}/api/graph?token=sesame"), None, None);
    assert_eq!(status, 200);
    let (status, _) = request("POST", &format!("{base}/api/stop"), None, None);
    assert_eq!(status, 401, "stop without the token");
    // The WebSocket too.
    let ws = format!("ws://{}/api/stream?period_ms=100", r.control.addr());
    assert!(
        tungstenite::connect(&ws).is_err(),
        "WebSocket without a token"
    );
    let (mut socket, _) = tungstenite::connect(format!("{ws}&token=sesame")).unwrap();
    let msg = socket.read().unwrap();
    let report: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
    assert!(report["blocks"].is_array(), "{report}");
}

#[test]
fn a_non_loopback_address_gets_a_generated_token() {
    let r = start(None, "0.0.0.0:0");
    let token = r.control.token().expect("a token").to_owned();
    assert_eq!(token.len(), 32);
    let url = format!("http://127.0.0.1:{}/api/graph", r.control.addr().port());
    assert_eq!(request("GET", &url, None, None).0, 401);
    assert_eq!(request("GET", &url, None, Some(&token)).0, 200);
    assert!(r.control.url().contains(&token));
}

#[test]
fn the_stream_sends_reports_whose_counters_grow() {
    let r = start(None, "127.0.0.1:0");
    let ws = format!("ws://{}/api/stream?period_ms=100", r.control.addr());
    let (mut socket, _) = tungstenite::connect(ws).unwrap();
    let produced = |socket: &mut tungstenite::WebSocket<_>| -> u64 {
        let msg = socket.read().unwrap();
        let report: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
        report["blocks"][0]["items_out"].as_u64().unwrap_or(0)
    };
    let first = produced(&mut socket);
    poll("the streamed counter to grow", common::DEADLINE, || {
        (produced(&mut socket) > first).then_some(())
    });
    socket
        .send(tungstenite::Message::Text(r#"{"period_ms": 5}"#.into()))
        .unwrap();
    assert!(produced(&mut socket) > 0);
}

/// A probe on an endless source's output, upstream of the `head` that ends the graph: the
/// probe only watches, so when the head has read its items the source ends and the run
/// finishes by itself, as without the probe (every scheduler; no control port needed).
#[test]
fn a_probe_upstream_of_a_head_does_not_keep_the_source_running() {
    use radioflow_blocks::{Head, NullSink, SignalSource, Waveform};
    use radioflow_control::{add_probe, ProbeConfig};
    use radioflow_runtime::prelude::*;
    use radioflow_runtime::{Counters, Flowgraph, SchedulerSpec};
    for spec in ["flow", "tpb", "single"] {
        let mut fg = Flowgraph::new();
        let tone = fg.add_named(
            "tone",
            SignalSource::<Complex32>::new(Waveform::Sine, 1e3, 48e3, 1.0, Complex32::default()),
        );
        let head = fg.add_named("head", Head::<Complex32>::new(200_000));
        let sink = fg.add(NullSink::<Complex32>::new());
        fg.connect(tone, head).unwrap();
        fg.connect(head, sink).unwrap();
        add_probe(&mut fg, "tone.out", ProbeConfig::default()).unwrap();
        let spec: SchedulerSpec = spec.parse().unwrap();
        // A hang would show as this run never returning (the suite's own timeout).
        fg.set_counters(Counters::Counts);
        fg.run_with(spec.build().as_ref()).unwrap();
        let stats = fg.stats(head).unwrap();
        assert_eq!(stats.items_produced, 200_000, "{spec}");
    }
}

/// Probes on integer and vector outputs (GNU Radio's number, raster and vector sinks take
/// them): the frame holds the items' values, a vector output's frame whole vectors.
#[test]
fn probes_read_integer_and_vector_items() {
    use radioflow_blocks::{NullSink, StreamToVector, VectorSource};
    use radioflow_control::{add_probe, ProbeConfig};
    use radioflow_runtime::Flowgraph;
    let mut fg = Flowgraph::new();
    let shorts: Vec<i16> = (0..4096).map(|i| (i % 100) as i16 - 50).collect();
    let src = fg.add_named("shorts", VectorSource::new(shorts));
    let sink = fg.add(NullSink::<i16>::new());
    fg.connect(src, sink).unwrap();
    let floats: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    let fsrc = fg.add_named("floats", VectorSource::new(floats));
    let to_vec = fg.add_named("vec", StreamToVector::<f32>::new(10, 1).unwrap());
    let vsink = fg.add(NullSink::<f32>::new().with_vlen(10));
    fg.connect(fsrc, to_vec).unwrap();
    fg.connect(to_vec, vsink).unwrap();
    let config = ProbeConfig {
        size: 64,
        interval: std::time::Duration::ZERO,
        sample_rate: None,
    };
    let short_probe = add_probe(&mut fg, "shorts.out", config).unwrap();
    let vector_probe = add_probe(&mut fg, "vec.out", config).unwrap();
    assert_eq!(
        (short_probe.item.as_str(), vector_probe.item.as_str()),
        ("int16", "float32[10]")
    );
    // 64 samples rounded up to whole vectors of 10.
    assert_eq!(
        (short_probe.config.size, vector_probe.config.size),
        (64, 70)
    );
    fg.run().unwrap();
    let shorts = short_probe.frame.samples.lock().unwrap().clone();
    assert_eq!(shorts.len(), 64);
    // Consecutive values of the ramp, read as numbers (imaginary parts zero).
    let first = shorts[0].re;
    for (k, s) in shorts.iter().enumerate() {
        let expected = ((first as i32 + 50 + k as i32) % 100 - 50) as f32;
        assert_eq!((s.re, s.im), (expected, 0.0), "sample {k}");
    }
    let vectors = vector_probe.frame.samples.lock().unwrap().clone();
    assert_eq!(vectors.len(), 70);
    // Whole vectors: the frame starts at a multiple of 10.
    assert_eq!(vectors[0].re % 10.0, 0.0);
    assert!(vectors.windows(2).all(|w| w[1].re == w[0].re + 1.0));
}

#[test]
fn probes_keep_the_tags_on_their_frames() {
    use radioflow_blocks::{NullSink, StreamToVector, VectorSource};
    use radioflow_control::{add_probe, ProbeConfig};
    use radioflow_runtime::{Flowgraph, Tag};
    // A ramp whose every 25th item carries a tag holding the item's own value.
    let ramp: Vec<f32> = (0..4000).map(|i| i as f32).collect();
    let tags: Vec<Tag> = (0..4000)
        .step_by(25)
        .map(|i| Tag::new(i, Pmt::symbol("mark"), Pmt::Double(i as f64)))
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add_named("ramp", VectorSource::new(ramp).tags(tags));
    let to_vec = fg.add_named("vec", StreamToVector::<f32>::new(10, 1).unwrap());
    let sink = fg.add(NullSink::<f32>::new().with_vlen(10));
    fg.connect(src, to_vec).unwrap();
    fg.connect(to_vec, sink).unwrap();
    let config = ProbeConfig {
        size: 200,
        interval: std::time::Duration::ZERO,
        sample_rate: None,
    };
    let scalars = add_probe(&mut fg, "ramp.out", config).unwrap();
    let vectors = add_probe(&mut fg, "vec.out", config).unwrap();
    fg.run().unwrap();
    // Scalars: 8 tags in a frame of 200, each on the sample whose value it holds.
    let samples = scalars.frame.samples.lock().unwrap().clone();
    let frame_tags = scalars.frame.tags.lock().unwrap().clone();
    assert_eq!(frame_tags.len(), 8, "{frame_tags:?}");
    for t in &frame_tags {
        assert_eq!(t.key, Pmt::symbol("mark"));
        assert_eq!(t.value, Pmt::Double(f64::from(samples[t.at].re)), "{t:?}");
    }
    // Vectors of 10: a tag moved to its vector (GNU Radio's offset / 10, halves rounded up)
    // sits on that vector's first scalar.
    let samples = vectors.frame.samples.lock().unwrap().clone();
    let frame_tags = vectors.frame.tags.lock().unwrap().clone();
    assert_eq!(frame_tags.len(), 8, "{frame_tags:?}");
    for t in &frame_tags {
        assert_eq!(t.at % 10, 0, "{t:?}");
        let Pmt::Double(v) = t.value else {
            panic!("{t:?}")
        };
        assert_eq!(
            f64::from(samples[t.at].re),
            (v / 10.0 + 0.5).floor() * 10.0,
            "{t:?}"
        );
    }
}
