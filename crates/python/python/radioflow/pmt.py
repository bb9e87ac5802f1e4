"""PMT values (GNU Radio's polymorphic types) as plain Python values.

=====================  =====================================================
PMT                    Python
=====================  =====================================================
nil                    ``None``
bool                   ``bool``
symbol                 ``str``
integer, uint64        ``int``
double, complex        ``float``, ``complex``
pair                   :class:`radioflow.Pair` (``car``, ``cdr``)
dict                   ``dict`` (keys in the order they were added)
vector, tuple          ``list``, ``tuple``
uniform vectors        1-D numpy arrays of the same type (``bytes`` -> u8vector)
=====================  =====================================================

``serialize`` / ``deserialize`` use GNU Radio 3.10's wire format, byte for byte.
"""

from __future__ import annotations

from typing import Any

from ._native import Pair, pmt_deserialize, pmt_roundtrip, pmt_serialize


def serialize(value: Any) -> bytes:
    """`value` as GNU Radio's ``pmt.serialize_str`` writes it."""
    return pmt_serialize(value)


def deserialize(data: bytes) -> Any:
    """The value of bytes written by GNU Radio's ``pmt.serialize_str``."""
    return pmt_deserialize(data)


def roundtrip(value: Any) -> Any:
    """`value` converted to a PMT and back (shows how a value travels in a message)."""
    return pmt_roundtrip(value)


__all__ = ["Pair", "deserialize", "roundtrip", "serialize"]
