"""GNU Radio's ``gr.tag_t``: a stream tag (offset, key, value, srcid)."""

from __future__ import annotations

from typing import Any, Tuple


class tag_t:  # noqa: N801 - GNU Radio's name
    """A stream tag: ``offset`` (absolute item number), ``key``, ``value`` and ``srcid`` (PMT
    values, which are Python values in radioflow: see :mod:`radioflow.gnuradio.pmt`)."""

    __slots__ = ("offset", "key", "value", "srcid")

    def __init__(self, offset: int = 0, key: Any = None, value: Any = None, srcid: Any = False):
        self.offset = int(offset)
        self.key = key
        self.value = value
        # GNU Radio's default srcid is PMT_F.
        self.srcid = srcid

    @classmethod
    def from_tuple(cls, t: Tuple[Any, ...]) -> "tag_t":
        return cls(*t) if len(t) >= 4 else cls(t[0], t[1], t[2])

    def as_list(self) -> list:
        """``[offset, key, value]``, and ``srcid`` when it is set (GNU Radio's default is
        PMT_F, none)."""
        if self.srcid is None or self.srcid is False:
            return [self.offset, self.key, self.value]
        return [self.offset, self.key, self.value, self.srcid]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, tag_t):
            return NotImplemented
        return (self.offset, self.key, self.value) == (other.offset, other.key, other.value)

    def __repr__(self) -> str:
        return f"tag_t(offset={self.offset}, key={self.key!r}, value={self.value!r})"


def python_to_tag(t: Any) -> tag_t:
    """GNU Radio's ``gr.python_to_tag`` of a dict with offset/key/value (or a tag_t)."""
    if isinstance(t, tag_t):
        return t
    if isinstance(t, dict):
        return tag_t(t["offset"], t["key"], t["value"], t.get("srcid", False))
    return tag_t.from_tuple(tuple(t))
