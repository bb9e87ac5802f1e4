"""Blocks written in Python inside native graphs: zero-copy views, every scheduler, errors,
tags and messages."""

import numpy as np
import pytest

import radioflow as rf
from radioflow import blocks


class Scale(rf.SyncBlock):
    def __init__(self, k, dtype=np.float32):
        super().__init__("scale", in_sig=[dtype], out_sig=[dtype])
        self.k = k

    def work(self, input_items, output_items):
        np.multiply(input_items[0], self.k, out=output_items[0])
        return len(output_items[0])


def test_python_block_in_a_native_graph(scheduler):
    data = np.arange(200_000, dtype=np.float32)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink()
    scale = Scale(0.5)
    fg.connect(blocks.vector_source(data), blocks.copy(), scale, blocks.copy(), sink)
    fg.run(scheduler)
    np.testing.assert_array_equal(sink.data(), data * 0.5)
    assert fg.stats(scale)["items_produced"] == data.size


def test_complex_python_block(scheduler):
    data = (np.arange(5000) * (1 + 1j)).astype(np.complex64)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.complex64)
    fg.connect(blocks.vector_source(data), Scale(1j, np.complex64), sink)
    fg.run(scheduler)
    np.testing.assert_allclose(sink.data(), data * 1j)


class Recorder(rf.SyncBlock):
    """A source or sink that records where its arrays live."""

    def __init__(self, role, n):
        sig = [np.int32]
        super().__init__(role, in_sig=sig if role == "sink" else None,
                         out_sig=sig if role == "source" else None)
        self.role, self.n, self.addresses, self.flags = role, n, {}, []

    def work(self, input_items, output_items):
        if self.role == "source":
            out = output_items[0]
            start = self.nitems_written(0)
            if start >= self.n:
                return rf.WORK_DONE
            k = min(len(out), self.n - start)
            out[:k] = np.arange(start, start + k, dtype=np.int32)
            self.addresses[start] = out.__array_interface__["data"][0]
            self.flags.append((out.flags.writeable, out.flags.owndata))
            return k
        arr = input_items[0]
        start = self.nitems_read(0)
        np.testing.assert_array_equal(arr, np.arange(start, start + len(arr), dtype=np.int32))
        self.addresses[start] = arr.__array_interface__["data"][0]
        self.flags.append((arr.flags.writeable, arr.flags.owndata))
        return len(arr)


def test_work_arrays_are_the_stream_buffer(scheduler):
    """The writer's output array and the reader's input array for the same item are the same
    memory: the items are not copied between them."""
    src, sink = Recorder("source", 300_000), Recorder("sink", 0)
    fg = rf.Flowgraph()
    fg.connect(src, sink)
    fg.run(scheduler)
    assert fg.stats(sink)["work_calls"] > 0
    common = set(src.addresses) & set(sink.addresses)
    assert common, "some calls should start at the same item"
    for offset in common:
        assert src.addresses[offset] == sink.addresses[offset]
    assert all(w and not own for w, own in src.flags)  # outputs: writable views
    assert all(not w and not own for w, own in sink.flags)  # inputs: read-only views


def test_keeping_a_view_fails_the_graph():
    class Hoarder(rf.SyncBlock):
        def __init__(self):
            super().__init__("hoarder", in_sig=[np.float32])
            self.kept = []

        def work(self, input_items, output_items):
            self.kept.append(input_items[0][:4])
            return len(input_items[0])

    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(100, np.float32)), Hoarder())
    with pytest.raises(rf.RunError, match="hoarder.*kept a reference"):
        fg.run()


def test_exception_in_work_is_raised_with_its_cause(scheduler):
    class Broken(rf.SyncBlock):
        def __init__(self):
            super().__init__("broken", in_sig=[np.float32], out_sig=[np.float32])

        def work(self, input_items, output_items):
            raise ValueError("bad sample")

    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), Broken(), blocks.null_sink())
    with pytest.raises(rf.RunError, match="block 'broken' failed: work\\(\\) raised ValueError: bad sample") as e:
        fg.run(scheduler)
    assert isinstance(e.value.__cause__, ValueError)


def test_bad_return_values_are_errors():
    class TooMany(rf.SyncBlock):
        def __init__(self):
            super().__init__("toomany", in_sig=[np.float32])

        def work(self, input_items, output_items):
            return len(input_items[0]) + 1

    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(10, np.float32)), TooMany())
    with pytest.raises(rf.RunError, match="returned 11, but it was offered 10"):
        fg.run()


def test_missing_super_init_is_explained():
    class NoInit(rf.SyncBlock):
        def __init__(self):
            pass

    with pytest.raises(TypeError, match="must call SyncBlock.__init__"):
        rf.Flowgraph().connect(NoInit(), blocks.null_sink())


def test_two_inputs_tags_and_added_tags():
    class AddTagged(rf.SyncBlock):
        def __init__(self):
            super().__init__("add", in_sig=[np.float32, np.float32], out_sig=[np.float32])
            self.seen = []

        def work(self, input_items, output_items):
            a, b = input_items
            np.add(a, b, out=output_items[0])
            n = len(output_items[0])
            self.seen += self.get_tags_in_window(0, 0, n)
            base = self.nitems_written(0)
            for i in range(n):
                if (base + i) % 25 == 0:
                    self.add_item_tag(0, base + i, "mark", base + i)
            return n

    a = np.arange(100, dtype=np.float32)
    b = np.full(100, 10, np.float32)
    block = AddTagged()
    sink = blocks.vector_sink()
    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(a, tags=[(7, "in", "a")]), (block, 0))
    fg.connect(blocks.vector_source(b, tags=[(30, "in", "b")]), (block, 1))
    fg.connect(block, sink)
    fg.set_max_items(block, 16)
    fg.run()
    np.testing.assert_array_equal(sink.data(), a + b)
    assert block.seen == [(7, "in", "a")]
    got = sink.tags()
    assert [t[0] for t in got] == sorted(t[0] for t in got)  # delivered in offset order
    assert sorted(got) == sorted(
        [(7, "in", "a"), (30, "in", "b")] + [(k, "mark", k) for k in (0, 25, 50, 75)]
    )


def test_message_handler_and_publisher(scheduler):
    class Doubler(rf.SyncBlock):
        def __init__(self):
            super().__init__("doubler")
            self.message_port_register_in("in")
            self.message_port_register_out("out")
            self.set_msg_handler("in", self.handle)

        def handle(self, msg):
            self.message_port_pub("out", {"value": msg["value"] * 2, "tag": msg["tag"]})

    msgs = [{"value": i, "tag": f"m{i}"} for i in range(50)]
    src = blocks.message_burst_source(msgs)
    dbg = blocks.message_debug()
    d = Doubler()
    fg = rf.Flowgraph()
    fg.msg_connect(src, "out", d, "in")
    fg.msg_connect(d, "out", dbg, "store")
    fg.run(scheduler)
    assert dbg.messages() == [{"value": 2 * i, "tag": f"m{i}"} for i in range(50)]


def test_python_message_source():
    class Source(rf.SyncBlock):
        def __init__(self):
            super().__init__("pysrc")
            self.message_port_register_out("pdus")

        def work(self, input_items, output_items):
            for i in range(3):
                meta = {"seq": i}
                self.message_port_pub("pdus", rf.Pair(meta, np.arange(i + 1, dtype=np.uint8)))
            return rf.WORK_DONE

    dbg = blocks.message_debug()
    fg = rf.Flowgraph()
    fg.msg_connect(Source(), "pdus", dbg, "store")
    fg.run()
    got = dbg.messages()
    assert [m.car for m in got] == [{"seq": 0}, {"seq": 1}, {"seq": 2}]
    assert [m.cdr.tolist() for m in got] == [[0], [0, 1], [0, 1, 2]]


def test_publishing_on_an_unknown_port_fails():
    class Wrong(rf.SyncBlock):
        def __init__(self):
            super().__init__("wrong", in_sig=[np.float32])
            self.message_port_register_out("out")

        def work(self, input_items, output_items):
            self.message_port_pub("nope", 1)
            return len(input_items[0])

    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(4, np.float32)), Wrong())
    with pytest.raises(rf.RunError, match="no message output 'nope' \\(it has: out\\)"):
        fg.run()


def test_start_and_stop_hooks():
    class Hooked(Scale):
        def __init__(self, ok):
            super().__init__(1.0)
            self.ok, self.calls = ok, []

        def start(self):
            self.calls.append("start")
            return self.ok

        def stop(self):
            self.calls.append("stop")
            return True

    good = Hooked(True)
    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(10, np.float32)), good, blocks.null_sink())
    fg.run()
    assert good.calls == ["start", "stop"]
    bad = Hooked(False)
    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(10, np.float32)), bad, blocks.null_sink())
    with pytest.raises(rf.RunError, match="start\\(\\) of block 'scale' returned False"):
        fg.run()


def test_python_block_joins_one_flowgraph_only():
    s = Scale(1.0)
    rf.Flowgraph().connect(blocks.null_source(), s)
    with pytest.raises(rf.ConnectError, match="already belongs to another flowgraph"):
        rf.Flowgraph().connect(blocks.null_source(), s)


def test_wait_inside_work_is_refused_not_a_deadlock(scheduler):
    class WaitsForItself(Scale):
        def __init__(self):
            super().__init__(1.0)
            self.fg, self.error = None, None

        def work(self, input_items, output_items):
            if self.error is None:
                try:
                    self.fg.wait()
                except rf.RunError as e:
                    self.error = str(e)
            return super().work(input_items, output_items)

    block = WaitsForItself()
    fg = rf.Flowgraph()
    block.fg = fg
    sink = blocks.vector_sink()
    fg.connect(blocks.vector_source(np.ones(1000, np.float32)), block, sink)
    fg.run(scheduler)
    assert block.error is not None and "would wait for itself" in block.error
    assert sink.data().size == 1000


def test_a_failed_start_stops_the_blocks_already_started():
    class Hooked(Scale):
        def __init__(self, ok, calls):
            super().__init__(1.0)
            self.ok, self.calls = ok, calls

        def start(self):
            self.calls.append(("start", self.ok))
            if self.ok == "raise":
                raise RuntimeError("no device")
            return self.ok

        def stop(self):
            self.calls.append(("stop", self.ok))
            return True

    for later in (False, "raise"):
        calls = []
        fg = rf.Flowgraph()
        fg.connect(
            blocks.vector_source(np.ones(10, np.float32)),
            Hooked(True, calls),
            Hooked(later, calls),
            blocks.null_sink(),
        )
        with pytest.raises(rf.RunError, match="failed to start"):
            fg.run()
        assert calls == [("start", True), ("start", later), ("stop", True)]


def test_output_multiple_gives_whole_frames_larger_than_any_buffer(scheduler):
    # Frames of 100,000 float32 (400 KB): more than any buffer a scheduler picks by itself;
    # every call sees whole frames, nothing is lost, the partial frame at the end is dropped.
    frame = 100_000

    class FrameSum(rf.SyncBlock):
        def __init__(self):
            super().__init__("frame_sum", in_sig=[np.float32], out_sig=[np.float32])
            self.set_output_multiple(frame)
            self.sizes = set()

        def work(self, input_items, output_items):
            n = len(output_items[0])
            self.sizes.add(n % frame)
            for k in range(0, n, frame):
                output_items[0][k : k + frame] = input_items[0][k : k + frame].sum()
            return n

    data = np.repeat(np.arange(3, dtype=np.float32), frame)
    data = np.concatenate([data, np.ones(7, np.float32)])
    block = FrameSum()
    assert block.output_multiple() == frame
    sink = blocks.vector_sink()
    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(data), block, sink)
    fg.run(scheduler)
    assert block.sizes == {0}
    want = np.repeat(np.array([0.0, frame, 2.0 * frame], np.float32), frame)
    np.testing.assert_array_equal(sink.data(), want)
    with pytest.raises(ValueError, match="at least 1"):
        FrameSum().set_output_multiple(0)


# -- message_port_pub from outside work (issue 32, item 17) ----------------------------------

# A hang guard only: every wait below ends as soon as what it waits for happened.
HANG_GUARD_S = 60


class Collector(rf.SyncBlock):
    """A message sink that signals its first message and its `n`-th."""

    def __init__(self, n):
        import threading

        super().__init__("collector")
        self.message_port_register_in("in")
        self.set_msg_handler("in", self.handle)
        self.got, self.n = [], n
        self.first, self.full = threading.Event(), threading.Event()

    def handle(self, msg):
        self.got.append(msg)
        self.first.set()
        if len(self.got) >= self.n:
            self.full.set()


class Once(rf.SyncBlock):
    """Posts one message in its first call, then idles without ending (GNU Radio's
    message_strobe is as endless)."""

    def __init__(self, msg, name="once"):
        super().__init__(name)
        self.message_port_register_out("out")
        self.msg, self.sent = msg, False

    def work(self, input_items, output_items):
        if not self.sent:
            self.sent = True
            self.message_port_pub("out", self.msg)
        return 0


@pytest.mark.parametrize("started_by", ["start", "timer", "handler"])
def test_message_port_pub_from_a_thread_of_the_block_is_delivered(scheduler, started_by):
    """GNU Radio's message source: a thread (started in start(), a timer, or by a message
    handler) publishes; stop() joins it. The thread publishes once the collector has the
    block's first message, so after the block's own calls (a message kept for the block's
    next call would never go out)."""
    import threading

    n = 20
    collector = Collector(n + 1)

    class Source(rf.SyncBlock):
        def __init__(self):
            super().__init__("source")
            self.message_port_register_out("out")
            if started_by == "handler":
                self.message_port_register_in("go")
                self.set_msg_handler("go", self.go)
            self.thread, self.calls = None, 0

        def publish_all(self):
            collector.first.wait(HANG_GUARD_S)
            for i in range(n):
                self.message_port_pub("out", i)

        def go(self, _msg):
            self.message_port_pub("out", "hello")
            self.thread = threading.Thread(target=self.publish_all)
            self.thread.start()

        def start(self):
            if started_by == "start":
                self.thread = threading.Thread(target=self.publish_all)
            elif started_by == "timer":
                self.thread = threading.Timer(0.0, self.publish_all)
            if self.thread is not None:
                self.thread.start()
            return True

        def stop(self):
            if self.thread is not None:
                self.thread.join()
            return True

        def work(self, input_items, output_items):
            if self.calls == 0:
                self.message_port_pub("out", "hello")
            self.calls += 1
            return 0

    src = Source()
    fg = rf.Flowgraph()
    fg.msg_connect(src, "out", collector, "in")
    if started_by == "handler":
        # A sender that stays: a block with only message inputs ends with its senders.
        fg.msg_connect(Once("go"), "out", src, "go")
    fg.start(scheduler)
    try:
        assert collector.full.wait(HANG_GUARD_S), f"got {collector.got}"
    finally:
        fg.stop()
        fg.wait(timeout=HANG_GUARD_S)
    assert collector.got == ["hello"] + list(range(n))


def test_message_port_pub_outside_a_run_raises_and_start_publishes_on_time(scheduler):
    class Source(rf.SyncBlock):
        def __init__(self):
            super().__init__("source")
            self.message_port_register_out("out")

        def start(self):
            self.message_port_pub("out", "from start")  # delivered when the run begins
            return True

        def work(self, input_items, output_items):
            self.message_port_pub("out", "from work")
            return rf.WORK_DONE

    src = Source()
    with pytest.raises(rf.RunError, match="'source' is not in a flowgraph yet"):
        src.message_port_pub("out", 0)
    dbg = blocks.message_debug()
    fg = rf.Flowgraph()
    fg.msg_connect(src, "out", dbg, "store")
    not_running = "block 'source': message_port_pub\\('out', ...\\) while the block is not running"
    with pytest.raises(rf.RunError, match=not_running):
        src.message_port_pub("out", 1)
    fg.run(scheduler)
    assert dbg.messages() == ["from start", "from work"]
    with pytest.raises(rf.RunError, match=not_running):
        src.message_port_pub("out", 2)
    with pytest.raises(ValueError, match="no message output 'nope' \\(it has: out\\)"):
        src.message_port_pub("nope", 2)
    # A second run delivers again.
    fg.run(scheduler)
    assert dbg.messages() == ["from start", "from work"] * 2


def test_a_message_only_block_returning_a_count_is_told_what_to_return():
    class Source(rf.SyncBlock):
        def __init__(self):
            super().__init__("source")
            self.message_port_register_out("out")

        def work(self, input_items, output_items):
            return 1

    fg = rf.Flowgraph()
    fg.msg_connect(Source(), "out", blocks.message_debug(), "store")
    with pytest.raises(rf.RunError, match="a block without stream ports has no items to count"):
        fg.run()


def test_a_stream_block_publishing_above_a_head_ends_with_the_head(scheduler):
    """Issue 32, item 16: an endless source -> a Python block with a message output (to a
    message sink) -> head -> sink ends with the head's count, as in GNU Radio."""

    class Tap(rf.SyncBlock):
        def __init__(self):
            super().__init__("tap", in_sig=[np.float32], out_sig=[np.float32])
            self.message_port_register_out("out")
            self.calls = 0

        def work(self, input_items, output_items):
            output_items[0][:] = input_items[0]
            self.calls += 1
            self.message_port_pub("out", self.calls)
            return len(output_items[0])

    tap, dbg, sink = Tap(), blocks.message_debug(), blocks.vector_sink()
    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), tap, blocks.head(100_000), sink)
    fg.msg_connect(tap, "out", dbg, "store")
    fg.start(scheduler)
    fg.wait(timeout=HANG_GUARD_S)
    assert len(sink.data()) == 100_000
    assert dbg.messages() == list(range(1, tap.calls + 1))


def test_a_timed_out_wait_names_the_idle_blocks(scheduler):
    fg = rf.Flowgraph()
    fg.msg_connect(Once("x", "idle_source"), "out", blocks.message_debug(), "store")
    fg.start(scheduler)
    with pytest.raises(rf.RunError) as info:
        fg.wait(timeout=0.05)
    fg.stop()
    fg.wait(timeout=HANG_GUARD_S)
    text = str(info.value)
    assert "blocks not finished, waiting for a neighbour" in text, text
    assert "idle_source" in text and "message_debug0" in text, text
