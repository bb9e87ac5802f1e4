"""Flowgraphs from Python: building, running on every scheduler, errors, stopping, counters."""

import threading
import time

import numpy as np
import pytest

import radioflow as rf
from radioflow import blocks


def until(condition, limit=60.0):
    """Polls `condition` until it holds; the limit only keeps a broken build from hanging."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.001)


def test_chain_runs_on_every_scheduler(scheduler):
    fg = rf.Flowgraph()
    data = np.arange(50_000, dtype=np.float32)
    src = blocks.vector_source(data)
    add = blocks.add_const(1.5)
    mul = blocks.multiply_const(-2.0)
    sink = blocks.vector_sink(np.float32)
    fg.connect(src, add, mul, sink)
    fg.run(scheduler)
    np.testing.assert_array_equal(sink.data(), (data + 1.5) * -2.0)
    assert fg.block_names() == ["vector_source0", "add_const0", "multiply_const0", "vector_sink0"]


def test_signal_source_matches_the_formula():
    fg = rf.Flowgraph()
    fs, f = 48_000.0, 1_000.0
    src = blocks.signal_source(fs, "cosine", f, amplitude=0.5, dtype=np.complex64)
    head = blocks.head(4_800, np.complex64)
    sink = blocks.vector_sink(np.complex64)
    fg.connect(src, head, sink)
    fg.run()
    n = np.arange(4_800)
    want = 0.5 * np.exp(2j * np.pi * f / fs * n)
    np.testing.assert_allclose(sink.data(), want, atol=1e-5)


def test_ports_by_index_and_by_name():
    fg = rf.Flowgraph()
    src = blocks.vector_source(np.ones(10, np.int16))
    sink = blocks.vector_sink(np.int16)
    fg.connect((src, "out"), (sink, 0))
    fg.run("single")
    assert sink.data().tolist() == [1] * 10


def test_type_mismatch_names_both_ports():
    fg = rf.Flowgraph()
    src = blocks.null_source(np.float32, name="src")
    sink = blocks.null_sink(np.int16, name="sink")
    with pytest.raises(rf.ConnectError) as e:
        fg.connect(src, sink)
    assert "src.out" in str(e.value) and "sink.in" in str(e.value)


def test_unknown_port_is_named():
    fg = rf.Flowgraph()
    src = blocks.null_source(name="src")
    sink = blocks.null_sink(name="sink")
    with pytest.raises(rf.ConnectError, match="'sink' has no stream input 'nope'"):
        fg.connect(src, (sink, "nope"))


def test_unconnected_input_fails_at_start_naming_the_port():
    fg = rf.Flowgraph()
    head = blocks.head(10, name="h")
    sink = blocks.null_sink()
    fg.connect(head, sink)
    with pytest.raises(rf.RunError, match=r"stream input h\.in is not connected"):
        fg.run()


def test_block_belongs_to_one_flowgraph():
    a, b = rf.Flowgraph(), rf.Flowgraph()
    src, sink = blocks.null_source(name="shared"), blocks.null_sink()
    a.connect(src, sink)
    with pytest.raises(rf.ConnectError, match="'shared'.*another flowgraph"):
        b.connect(src, blocks.null_sink())


def test_bad_parameters_raise_before_running(tmp_path):
    with pytest.raises(ValueError, match="unsupported item type float16"):
        blocks.null_source(np.float16)
    with pytest.raises(ValueError, match="unknown waveform 'chirp'"):
        blocks.signal_source(1e3, "chirp", 10)
    with pytest.raises(ValueError, match="sample_rate must be >= 0.001, not 0"):
        blocks.throttle(0.0)
    with pytest.raises(ValueError, match="does not fit in i8"):
        blocks.add_const(300, np.int8)
    with pytest.raises(ValueError, match="unknown scheduler 'fast'"):
        rf.Scheduler("fast")
    with pytest.raises(ValueError, match="settings of the flow scheduler"):
        rf.Scheduler("tpb", workers=2)
    missing = tmp_path / "missing.bin"
    with pytest.raises(OSError, match="missing.bin"):
        blocks.file_source(missing)


def test_file_sink_and_source_roundtrip(tmp_path, scheduler):
    path = tmp_path / "x.bin"
    data = (np.arange(10_000) % 251).astype(np.uint8)
    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(data), blocks.file_sink(path, np.uint8))
    fg.run(scheduler)
    assert path.read_bytes() == data.tobytes()
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.uint8)
    fg.connect(blocks.file_source(path, np.uint8), sink)
    fg.run(scheduler)
    np.testing.assert_array_equal(sink.data(), data)


def test_start_stop_wait_on_an_endless_graph(scheduler):
    fg = rf.Flowgraph()
    src, sink = blocks.null_source(np.complex64), blocks.null_sink(np.complex64)
    fg.connect(src, sink)
    fg.start(scheduler)
    assert fg.is_running()
    until(lambda: fg.stats(sink)["work_calls"] > 0)
    fg.stop()
    fg.wait()
    assert not fg.is_running()
    assert fg.stats(sink)["work_calls"] > 0


def test_stop_from_another_thread_while_run_waits():
    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), blocks.null_sink())
    threading.Timer(0.1, fg.stop).start()
    t0 = time.monotonic()
    fg.run()
    assert time.monotonic() - t0 < 60  # a hang detector, not a speed test


def test_wait_without_start_is_an_error():
    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), blocks.head(1), blocks.null_sink())
    with pytest.raises(rf.RunError, match="not running"):
        fg.wait()


def test_reading_a_sink_while_running_is_refused():
    fg = rf.Flowgraph()
    sink = blocks.vector_sink()
    fg.connect(blocks.null_source(), sink)
    fg.start()
    try:
        with pytest.raises(rf.RunError, match="running"):
            sink.data()
        until(lambda: fg.stats(sink)["items_consumed"] > 0)
    finally:
        fg.stop()
        fg.wait()
    assert sink.data().size > 0


def test_counters_after_a_run(scheduler):
    fg = rf.Flowgraph()
    head = blocks.head(100_000)
    sink = blocks.null_sink()
    fg.connect(blocks.null_source(), head, sink)
    fg.set_max_items(head, 64)
    fg.run(scheduler)
    stats = fg.stats(head)
    assert stats["items_produced"] == 100_000
    assert stats["work_calls"] >= 100_000 // 64
    hist = stats["produced_log2"]
    assert sum(hist) == stats["work_calls"]
    assert sum(hist[7:]) == 0  # never more than 64 items per call
    threads = fg.thread_stats()
    assert threads and all(t["voluntary_switches"] >= 0 for t in threads)
    # The CPU time is there (its value is tested in Rust: `stats.rs`).
    assert all(0.0 <= t["cpu_seconds"] < 60.0 for t in threads)
    assert all(t["name"].startswith("rf-") for t in threads)


def test_scheduler_objects():
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.int32)
    fg.connect(blocks.vector_source(np.arange(1000, dtype=np.int32)), blocks.copy(np.int32), sink)
    fg.run(rf.Scheduler("flow", workers=2, chunk_bytes=256))
    assert sink.data().tolist() == list(range(1000))
    assert repr(rf.Scheduler("flow", workers=2)) == "Scheduler('flow', workers=2)"
    # Without regions (every connection in its own ring) the items are the same.
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.int32)
    fg.connect(blocks.vector_source(np.arange(1000, dtype=np.int32)), blocks.copy(np.int32), sink)
    fg.run(rf.Scheduler("flow", chunk_bytes=256, regions=False))
    assert sink.data().tolist() == list(range(1000))
    assert repr(rf.Scheduler("flow", regions=False)) == "Scheduler('flow', regions=False)"
    with pytest.raises(ValueError, match="regions"):
        rf.Scheduler("tpb", regions=False)


@pytest.mark.parametrize("streaming", [True, False])
def test_streaming_stores_switch_keeps_every_item(streaming):
    # A head read by pipes on both workers: its output is marked read elsewhere, and with the
    # switch on its copies into it use non-temporal stores (chunks well above 4 KiB).
    data = np.arange(300_000, dtype=np.int32)
    fg = rf.Flowgraph()
    head = blocks.head(len(data), np.int32)
    fg.connect(blocks.vector_source(data), head)
    sinks = []
    for _ in range(4):
        sink = blocks.vector_sink(np.int32)
        fg.connect(head, blocks.copy(np.int32), sink)
        sinks.append(sink)
    scheduler = rf.Scheduler("flow", workers=2, streaming_stores=streaming)
    fg.run(scheduler)
    for sink in sinks:
        np.testing.assert_array_equal(sink.data(), data)
    expected = "Scheduler('flow', workers=2)" if streaming else (
        "Scheduler('flow', workers=2, streaming_stores=False)")
    assert repr(scheduler) == expected
    with pytest.raises(ValueError, match="streaming_stores"):
        rf.Scheduler("single", streaming_stores=False)


def test_message_graph():
    fg = rf.Flowgraph()
    msgs = [1, "two", 3.0, {"k": [1, 2]}]
    src = blocks.message_burst_source(msgs)
    fwd = blocks.message_forwarder()
    dbg = blocks.message_debug()
    cnt = blocks.message_counter()
    fg.msg_connect(src, "out", fwd, "in")
    fg.msg_connect((fwd, "out"), (dbg, "store"))
    fg.msg_connect(fwd, "out", cnt, "in")
    fg.run()
    assert dbg.messages() == msgs
    assert cnt.count() == len(msgs)


def test_wrong_accessor_is_a_type_error():
    with pytest.raises(TypeError, match="only vector_sink"):
        blocks.head(1).data()


def test_live_counters_while_running():
    fg = rf.Flowgraph()
    sink = blocks.null_sink()
    fg.connect(blocks.null_source(), blocks.throttle(1e6), sink)
    fg.start()
    try:
        until(lambda: fg.stats(sink)["items_consumed"] > 0)
        first = fg.stats(sink)["items_consumed"]
        until(lambda: fg.stats(sink)["items_consumed"] > first)
        second = fg.stats(sink)["items_consumed"]
    finally:
        fg.stop()
        fg.wait()
    assert 0 < first < second


def test_timed_counters_and_counters_off():
    def run(setting):
        fg = rf.Flowgraph()
        fir = blocks.fir_filter(np.ones(16) / 16, np.float32)
        fg.connect(blocks.null_source(), blocks.head(100_000), fir, blocks.null_sink())
        fg.set_counters(setting)
        assert fg.counters() == setting
        fg.run()
        return fg.stats(fir)

    timed = run("timed")
    assert timed["items_produced"] == 100_000
    assert 0 < timed["work_ns_min"] <= timed["work_ns_avg"] <= timed["work_ns_max"]
    assert timed["work_ns"] >= timed["work_ns_max"]
    counts = run("counts")
    assert counts["items_produced"] == 100_000 and counts["work_ns"] == 0
    off = run("off")
    assert off["work_calls"] == 0 and off["items_produced"] == 0
    with pytest.raises(ValueError, match="unknown counters setting 'loud'"):
        rf.Flowgraph().set_counters("loud")


def test_trace_is_chrome_trace_json(tmp_path):
    import json

    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), blocks.head(50_000), blocks.copy(name="c"), blocks.null_sink())
    with pytest.raises(rf.RunError, match="no trace recorded"):
        fg.write_trace(tmp_path / "none.json")
    fg.set_trace(1000)
    fg.run("tpb")
    path = tmp_path / "trace.json"
    fg.write_trace(path)
    trace = json.loads(path.read_text())
    events = trace["traceEvents"]
    work = [e for e in events if e["ph"] == "X"]
    assert {e["name"] for e in work} >= {"c", "head0"}
    threads = {e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert any("c" in t for t in threads)
    assert all(e["dur"] >= 0 for e in work)


def test_fir_filter_matches_numpy(scheduler):
    rng = np.random.default_rng(3)
    taps = rng.standard_normal(37).astype(np.float32)
    x = (rng.standard_normal(30_000) + 1j * rng.standard_normal(30_000)).astype(np.complex64)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.complex64)
    fg.connect(blocks.vector_source(x), blocks.fir_filter(taps), sink)
    fg.run(scheduler)
    want = np.convolve(x, taps)[: x.size]
    np.testing.assert_allclose(sink.data(), want, rtol=1e-4, atol=1e-4)


def test_profile_marks_the_bottleneck():
    fg = rf.Flowgraph()
    heavy = blocks.fir_filter(np.ones(400, np.float32) / 400, np.float32, name="heavy")
    fg.connect(blocks.null_source(), blocks.head(300_000), blocks.copy(), heavy, blocks.null_sink())
    fg.set_counters("timed")
    fg.run()
    table = fg.profile()
    assert fg.bottleneck() == "heavy"
    lines = table.splitlines()
    assert lines[0].split()[0] == "block"
    assert any(line.startswith("heavy") for line in lines)
    assert len([line for line in lines if line.split() and line.split()[0] in fg.block_names()]) == 5


@pytest.mark.parametrize("size", [2**62, 2**63 - 1, 2**64 - 1, 2**46])
def test_an_impossible_buffer_size_is_an_error_not_a_crash(scheduler, size):
    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(10, np.float32)), blocks.null_sink())
    fg.set_default_buffer_size(size)
    with pytest.raises(rf.RunError, match="vector_source0.out.*machine's memory"):
        fg.run(scheduler)
    # The graph is intact: with a sane size it runs.
    fg.set_default_buffer_size(1 << 16)
    fg.run(scheduler)


def test_stop_interrupts_a_slow_throttle(scheduler):
    # One item per 1000 s: stop() must not wait for the next one.
    fg = rf.Flowgraph()
    sink = blocks.vector_sink()
    fg.connect(
        blocks.vector_source(np.ones(10, np.float32)), blocks.throttle(0.001), sink
    )
    fg.start(scheduler)
    fg.stop()
    fg.wait()
    assert sink.data().size <= 1


def test_scheduler_from_a_spec_string():
    s = rf.Scheduler("flow:workers=2,pin")
    assert s.name == "flow" and str(s) == "flow:workers=2,pin"
    assert repr(s) == "Scheduler('flow', workers=2, pin=True)"
    assert str(rf.Scheduler("tpb:realtime")) == "tpb:realtime"
    assert str(rf.Scheduler("flow:workers=2", chunk_bytes=4096)) == "flow:workers=2,chunk=4096"
    with pytest.raises(ValueError, match="unknown option 'wrokers' of the flow scheduler"):
        rf.Scheduler("flow:wrokers=2")
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.int32)
    fg.connect(blocks.vector_source(np.arange(1000, dtype=np.int32)), blocks.copy(np.int32), sink)
    fg.run(rf.Scheduler("flow:workers=2,chunk=256"))
    np.testing.assert_array_equal(sink.data(), np.arange(1000, dtype=np.int32))
