"""Decimating and interpolating blocks written in Python (GNU Radio's decim_block and
interp_block): items in and out at the declared rate, tags moved by the rate, frames whole."""

import numpy as np
import pytest

import radioflow as rf
from radioflow import blocks


class Average(rf.DecimBlock):
    def __init__(self, n):
        super().__init__("average", [np.float32], [np.float32], decim=n)
        self.calls = []

    def work(self, input_items, output_items):
        out = output_items[0]
        assert len(input_items[0]) == self.decimation() * len(out)
        self.calls.append(len(out))
        out[:] = input_items[0].reshape(len(out), -1).mean(axis=1)
        return len(out)


class Repeat(rf.InterpBlock):
    def __init__(self, n):
        super().__init__("repeat", [np.float32], [np.float32], interp=n)

    def work(self, input_items, output_items):
        assert len(output_items[0]) == self.interpolation() * len(input_items[0])
        output_items[0][:] = np.repeat(input_items[0], self.interpolation())
        return len(output_items[0])


@pytest.mark.parametrize("scheduler", ["flow", "tpb", "single"])
def test_a_decimating_block_makes_one_output_per_group_of_inputs(scheduler):
    n = 3
    data = np.arange(30_000, dtype=np.float32)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.float32)
    avg = Average(n)
    fg.connect(blocks.vector_source(data), avg, sink)
    fg.run(scheduler)
    np.testing.assert_allclose(sink.data(), data.reshape(-1, n).mean(axis=1))
    assert len(avg.calls) > 0


@pytest.mark.parametrize("scheduler", ["flow", "tpb", "single"])
def test_an_interpolating_block_makes_several_outputs_per_input(scheduler):
    data = np.arange(10_001, dtype=np.float32)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.float32)
    fg.connect(blocks.vector_source(data), Repeat(4), sink)
    fg.run(scheduler)
    np.testing.assert_array_equal(sink.data(), np.repeat(data, 4))


def test_decimation_then_interpolation_round_trips_and_moves_tags():
    data = np.arange(1200, dtype=np.float32)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.float32)
    src = blocks.vector_source(data, tags=[(10, "a", 1), (599, "b", 2)])
    fg.connect(src, Average(4), Repeat(4), sink)
    fg.run()
    np.testing.assert_allclose(sink.data(), np.repeat(data.reshape(-1, 4).mean(axis=1), 4))
    # GNU Radio's rounding: input item 10 is 2.5 items out of the decimator, rounded up to 3,
    # which becomes item 12 after x4; 599 is 149.75, so 150, then 600.
    assert [(o, k) for o, k, _ in sink.tags()] == [(12, "a"), (600, "b")]


def test_a_partial_group_at_the_end_is_not_offered():
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.float32)
    fg.connect(blocks.vector_source(np.ones(10, np.float32)), Average(4), sink)
    fg.run()
    assert len(sink.data()) == 2  # 8 of the 10 items make whole groups


def test_bad_rates_and_returns_are_clear_errors():
    with pytest.raises(ValueError, match="decim must be at least 1, not 0"):
        rf.DecimBlock("d", [np.float32], [np.float32], decim=0)
    with pytest.raises(ValueError, match="interp must be at least 1"):
        rf.InterpBlock("i", [np.float32], [np.float32], interp=-2)

    class Half(rf.InterpBlock):
        def __init__(self):
            super().__init__("half", [np.float32], [np.float32], interp=2)

        def work(self, input_items, output_items):
            return 3  # not a multiple of 2

    fg = rf.Flowgraph()
    fg.connect(blocks.vector_source(np.ones(8, np.float32)), Half(), blocks.null_sink())
    with pytest.raises(rf.RunError, match="produces a multiple of 2 items"):
        fg.run()
