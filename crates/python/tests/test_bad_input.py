"""Wrong arguments to the Python entry points are one clear error naming the argument, never a
bare OverflowError, a silent conversion or a Rust type name (issue 23's list)."""

import numpy as np
import pytest

import radioflow as rf
from radioflow import blocks


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: blocks.multiply(np.float32, -1), ValueError, "multiply: inputs must be >= 1, not -1"),
        (lambda: rf.Scheduler("flow", workers=-1), ValueError, "workers must be an integer between 1 and "),
        (lambda: rf.Scheduler("flow", chunk_bytes=0), ValueError, "chunk_bytes must be an integer between 1"),
        (lambda: rf.Scheduler("flow", buffer_bytes=2**70), ValueError, "buffer_bytes must be an integer"),
        (lambda: rf.Scheduler("flow", workers=1.5), ValueError, "workers must be an integer"),
        (lambda: blocks.vector_source(np.ones(3, np.float32), tags=[(-1, "x", 1)]), ValueError,
         "a tag offset must be >= 0, not -1"),
        (lambda: blocks.head(2**64), ValueError, "head: n: the integer 18446744073709551616"),
        (lambda: blocks.head(1.5), ValueError, "head: n needs an integer, not 1.5"),
        (lambda: blocks.head(True), ValueError, "head: n needs an integer"),
        (lambda: blocks.throttle(float("nan")), ValueError, "throttle: sample_rate must be finite"),
        (lambda: blocks.file_source("/"), OSError, "file_source: cannot open '/'"),
        (lambda: blocks.fir_filter([float("inf")]), ValueError, "fir_filter: taps: inf is not a finite number"),
        (lambda: blocks.add_const("x"), ValueError, "add_const: k: needs a number"),
        (lambda: rf.SyncBlock("b", in_sig=[None], out_sig=[]), ValueError, "None is not an item type"),
    ],
)
def test_bad_arguments_raise_one_clear_error(call, error, message):
    with pytest.raises(error) as info:
        call()
    if message is not None:
        assert message in str(info.value)


def test_flow_workers_are_capped_at_a_multiple_of_the_cpus():
    import re

    with pytest.raises(ValueError) as info:
        rf.Scheduler("flow", workers=-1)
    found = re.search(r"workers must be an integer between 1 and (\d+), not -1", str(info.value))
    assert found, str(info.value)
    limit = int(found.group(1))
    assert limit >= 16 and limit % 16 == 0, limit
    assert str(rf.Scheduler("flow", workers=limit)) == f"flow:workers={limit}"
    for huge in (limit + 1, 100_000):
        with pytest.raises(ValueError, match=f"workers must be an integer between 1 and {limit}, not {huge}"):
            rf.Scheduler("flow", workers=huge)
        # The spec string is refused alike, naming the option and the limit.
        with pytest.raises(ValueError, match=f"workers={huge} is more than this machine's limit of {limit} "):
            rf.Scheduler(f"flow:workers={huge}")


def test_a_big_endian_array_is_converted_as_documented():
    fg = rf.Flowgraph()
    data = np.arange(5, dtype=">f4")
    sink = blocks.vector_sink(np.float32)
    fg.connect(blocks.vector_source(data), sink)
    fg.run()
    np.testing.assert_array_equal(sink.data(), np.arange(5, dtype=np.float32))


def test_type_mismatches_name_the_numpy_types():
    fg = rf.Flowgraph()
    with pytest.raises(rf.ConnectError) as info:
        fg.connect(blocks.null_source(np.complex64), blocks.null_sink(np.float32))
    assert "produces complex64 but null_sink0.in expects float32" in str(info.value)


def test_wait_with_a_timeout_names_the_block_that_does_not_return():
    import threading

    release = threading.Event()

    class Stuck(rf.SyncBlock):
        def __init__(self):
            super().__init__("stuck", in_sig=[np.float32], out_sig=[])

        def work(self, input_items, output_items):
            release.wait(60)  # a call that does not return until the test says so
            return len(input_items[0])

    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), Stuck())
    fg.start()
    with pytest.raises(rf.RunError, match="blocks still running their code: stuck"):
        fg.wait(timeout=0.05)
    assert fg.is_running()
    fg.stop()
    release.set()
    fg.wait(timeout=60)
    assert not fg.is_running()
    with pytest.raises(ValueError, match="timeout must be a number of seconds >= 0"):
        fg.wait(timeout=-1)
