"""GNU Radio's ``gr.sync_block``, ``gr.decim_block`` and ``gr.interp_block`` on radioflow's
Python blocks: GNU Radio's constructors (``name=``, ``in_sig=``, ``out_sig=``, then ``decim``/
``interp``), ``work(self, input_items, output_items)`` and the tag API with ``gr.tag_t``."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from .._sync_block import DecimBlock, InterpBlock, SyncBlock
from ._tags import tag_t


class _GrTags:
    """GNU Radio's tag calls on a radioflow Python block."""

    def get_tags_in_window(  # type: ignore[override]
        self, which_input: int, rel_start: int, rel_end: int, key: Any = None
    ) -> List[tag_t]:
        """Tags on items ``rel_start..rel_end`` of this call's ``input_items[which_input]``
        (with `key` only, if given)."""
        tags = [tag_t.from_tuple(t) for t in SyncBlock.get_tags_in_window(
            self, which_input, rel_start, rel_end)]  # type: ignore[arg-type]
        return [t for t in tags if key is None or t.key == key]

    def get_tags_in_range(
        self, which_input: int, abs_start: int, abs_end: int, key: Any = None
    ) -> List[tag_t]:
        """Tags on absolute items ``abs_start..abs_end`` of input `which_input` (of those
        this call sees)."""
        base = self.nitems_read(which_input)  # type: ignore[attr-defined]
        return self.get_tags_in_window(which_input, abs_start - base, abs_end - base, key)

    def add_item_tag(self, which_output: int, *tag: Any) -> None:  # type: ignore[override]
        """``add_item_tag(output, offset, key, value[, srcid])`` or ``add_item_tag(output,
        tag_t)``."""
        if len(tag) == 1 and isinstance(tag[0], tag_t):
            t = tag[0]
            offset, key, value = t.offset, t.key, t.value
        elif len(tag) in (3, 4):
            offset, key, value = tag[0], tag[1], tag[2]
        else:
            raise TypeError("add_item_tag(which_output, offset, key, value[, srcid]) or (which_output, tag)")
        SyncBlock.add_item_tag(self, which_output, offset, key, value)  # type: ignore[arg-type]


class sync_block(_GrTags, SyncBlock):  # noqa: N801 - GNU Radio's name
    """GNU Radio's ``gr.sync_block(name, in_sig, out_sig)``."""

    def __init__(
        self,
        name: str = "sync_block",
        in_sig: Optional[Sequence[Any]] = None,
        out_sig: Optional[Sequence[Any]] = None,
    ) -> None:
        SyncBlock.__init__(self, name, in_sig, out_sig)


class decim_block(_GrTags, DecimBlock):  # noqa: N801
    """GNU Radio's ``gr.decim_block(name, in_sig, out_sig, decim)``."""

    def __init__(
        self,
        name: str = "decim_block",
        in_sig: Optional[Sequence[Any]] = None,
        out_sig: Optional[Sequence[Any]] = None,
        decim: int = 1,
    ) -> None:
        DecimBlock.__init__(self, name, in_sig, out_sig, decim)


class interp_block(_GrTags, InterpBlock):  # noqa: N801
    """GNU Radio's ``gr.interp_block(name, in_sig, out_sig, interp)``."""

    def __init__(
        self,
        name: str = "interp_block",
        in_sig: Optional[Sequence[Any]] = None,
        out_sig: Optional[Sequence[Any]] = None,
        interp: int = 1,
    ) -> None:
        InterpBlock.__init__(self, name, in_sig, out_sig, interp)
