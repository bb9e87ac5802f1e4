"""GNU Radio's ``gnuradio.gr`` on radioflow: ``top_block``, Python blocks (``sync_block``,
``decim_block``, ``interp_block``), ``tag_t``, ``io_signature``, the ``sizeof_*`` item sizes.
``hier_block2``. What is not here yet (``basic_block`` with ``general_work``) raises an error
saying so; docs/python.md lists every difference."""

from __future__ import annotations

from typing import Any, List

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
    """GNU Radio's ``gr.basic_block(name, in_sig, out_sig)`` for message-only blocks (no
    stream ports: handlers, ``message_port_pub``). A basic_block with stream ports needs
    ``general_work``, which radioflow.gnuradio does not have yet: it raises saying so."""

    def __init__(self, name: str = "basic_block", in_sig: Any = None, out_sig: Any = None) -> None:
        if in_sig or out_sig:
            raise NotImplementedError(
                f"radioflow.gnuradio: gr.basic_block '{name}' with stream ports needs "
                "general_work, forecast, consume and produce, not implemented yet: write it as "
                "a sync_block, decim_block or interp_block (see 'Coming from GNU Radio' in "
                "docs/python.md)"
            )
        sync_block.__init__(self, name, None, None)

    def work(self, input_items: Any, output_items: Any) -> int:
        # Message-only: everything happens in handlers; called again only when woken.
        return 0


class block(basic_block):  # noqa: N801
    """GNU Radio's ``gr.block``: as :class:`basic_block`."""


def version() -> str:
    """The GNU Radio version whose API this follows."""
    return "3.10 (radioflow)"


__all__ = [
    "basic_block", "block", "decim_block", "hier_block2", "interp_block", "io_signature",
    "io_signaturev", "python_to_tag", "sizeof_char", "sizeof_double", "sizeof_float",
    "sizeof_gr_complex", "sizeof_int", "sizeof_short", "sync_block", "tag_t", "top_block", "types",
    "version",
]
