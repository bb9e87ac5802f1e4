"""GNU Radio's ``gnuradio.gr`` on radioflow: ``top_block``, Python blocks (``sync_block``,
``decim_block``, ``interp_block``), ``tag_t``, ``io_signature``, the ``sizeof_*`` item sizes.
``hier_block2``, ``basic_block`` (``general_work``, ``forecast``, ``consume``, ``produce``, or
message-only); docs/python.md lists every difference."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, List, Optional, Tuple

from ._constants import CONSTANTS
from ._hier_block import hier_block2
from ._python_blocks import decim_block, interp_block, sync_block
from ._tags import python_to_tag, tag_t
from ._top_block import top_block

sizeof_gr_complex = 8
sizeof_float = 4
sizeof_int = 4
sizeof_short = 2
sizeof_char = 1
sizeof_double = 8

# GNU Radio's enumerations of gr (GR_MSB_FIRST, WORK_DONE, WORK_CALLED_PRODUCE...).
globals().update(CONSTANTS.get("gr", {}))


class types:  # noqa: N801 - GNU Radio's gr.types enumeration
    """GNU Radio's item types as the PDU blocks take them (``gr.types.float_t``)."""

    byte_t = "byte_t"
    short_t = "short_t"
    int_t = "int_t"
    float_t = "float_t"
    complex_t = "complex_t"


class io_signature:  # noqa: N801 - GNU Radio's name
    """GNU Radio's ``gr.io_signature(min_streams, max_streams, sizeof_stream_item)`` (and
    ``makev`` with a list of sizes): kept for scripts that build one; radioflow's Python
    blocks take numpy types (``in_sig=[numpy.float32]``)."""

    def __init__(self, min_streams: int, max_streams: int, sizeof_stream_item: Any = 0) -> None:
        self._min, self._max = int(min_streams), int(max_streams)
        items = sizeof_stream_item if isinstance(sizeof_stream_item, (list, tuple)) else [sizeof_stream_item]
        self._sizes = [int(s) for s in items]

    @staticmethod
    def makev(min_streams: int, max_streams: int, sizes: List[int]) -> "io_signature":
        return io_signature(min_streams, max_streams, list(sizes))

    def min_streams(self) -> int:
        return self._min

    def max_streams(self) -> int:
        return self._max

    def sizeof_stream_item(self, index: int) -> int:
        return self._sizes[min(index, len(self._sizes) - 1)]

    def sizeof_stream_items(self) -> List[int]:
        return list(self._sizes)


def io_signaturev(min_streams: int, max_streams: int, sizes: List[int]) -> io_signature:
    return io_signature(min_streams, max_streams, list(sizes))


class basic_block(sync_block):  # noqa: N801
    """GNU Radio's ``gr.basic_block(name, in_sig, out_sig)``: with stream ports, a block that
    says what it consumes and produces (``general_work(input_items, output_items)``, where
    ``input_items[i]`` holds every item input ``i`` has; ``consume(i, n)`` or
    ``consume_each(n)``; return the items produced on every output, or call ``produce(o, n)``
    and return ``WORK_CALLED_PRODUCE``), asked first by ``forecast(noutput_items, ninputs)``
    how many input items ``noutput_items`` outputs need (GNU Radio's default: as many). Offered
    output room is halved until the inputs hold what ``forecast`` asks, as GNU Radio's
    scheduler does. Tags on consumed items go to the outputs at their item number times the
    relative rate (``set_relative_rate``, 1 unless set), by the tag propagation policy.
    Without stream ports: a message-only block (handlers, ``message_port_pub``)."""

    def __init__(self, name: str = "basic_block", in_sig: Any = None, out_sig: Any = None) -> None:
        sync_block.__init__(self, name, in_sig, out_sig)
        self._rf_streams = bool(in_sig or out_sig)
        self._rf_relative_rate = Fraction(1)

    def set_relative_rate(self, *rate: Any) -> None:
        """GNU Radio's ``set_relative_rate(rate)`` or ``(interpolation, decimation)``: output
        items per input item, which moves the tags (offset times the rate, halves up)."""
        if len(rate) == 1:
            r = Fraction(rate[0])
        elif len(rate) == 2:
            r = Fraction(int(rate[0]), int(rate[1]))
        else:
            raise TypeError("set_relative_rate(rate) or set_relative_rate(interp, decim)")
        if r <= 0 or r.numerator >= 2**64 or r.denominator >= 2**64:
            raise ValueError(f"block '{self.name()}': relative rate {rate!r} must be above 0")
        self._check_not_running("setting the relative rate")
        self._rf_relative_rate = r

    def relative_rate(self) -> float:
        return float(self._rf_relative_rate)

    def relative_rate_i(self) -> int:
        return self._rf_relative_rate.numerator

    def relative_rate_d(self) -> int:
        return self._rf_relative_rate.denominator

    def _rf_rate(self) -> Tuple[int, int]:
        r = self._rf_relative_rate
        return (r.numerator, r.denominator)

    def _rf_general(self) -> Optional[bool]:
        if not self._rf_streams:
            return None
        return type(self).forecast is not basic_block.forecast

    def forecast(self, noutput_items: int, ninputs: int) -> List[int]:
        """Input items needed on each input to make `noutput_items` outputs (GNU Radio's
        default: as many; ``history()`` is 1)."""
        return [noutput_items] * ninputs

    def general_work(self, input_items: Any, output_items: Any) -> int:
        raise NotImplementedError(f"block '{self.name()}' does not define general_work()")

    def consume(self, which_input: int, how_many_items: int) -> None:
        """Marks `how_many_items` more items of input `which_input` used by this call."""
        self._ctx().consume(which_input, how_many_items)

    def consume_each(self, how_many_items: int) -> None:
        """Marks `how_many_items` more items of every input used by this call."""
        ctx = self._ctx()
        for i in range(len(self._rf_in_sig)):
            ctx.consume(i, how_many_items)

    def produce(self, which_output: int, how_many_items: int) -> None:
        """Marks `how_many_items` more items of output `which_output` written (then return
        ``WORK_CALLED_PRODUCE``)."""
        self._ctx().produce(which_output, how_many_items)

    def history(self) -> int:
        return 1

    def work(self, input_items: Any, output_items: Any) -> int:
        # Message-only: everything happens in handlers; called again only when woken.
        return 0


class block(basic_block):  # noqa: N801
    """GNU Radio's ``gr.block``: as :class:`basic_block`."""


def version() -> str:
    """The GNU Radio version whose API this follows."""
    return "3.10 (radioflow)"


__all__ = [
    "WORK_CALLED_PRODUCE", "WORK_DONE", "basic_block", "block", "decim_block", "hier_block2", "interp_block", "io_signature",
    "io_signaturev", "python_to_tag", "sizeof_char", "sizeof_double", "sizeof_float",
    "sizeof_gr_complex", "sizeof_int", "sizeof_short", "sync_block", "tag_t", "top_block", "types",
    "version",
]
