"""Python values as the GNU Radio table takes them: numpy to Python values, GNU Radio's
constants to their words, tags to ``[offset, key, value]``, the objects GRC variables make to
their text form."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._constants import Constant, words
from ._grc_objects import GrcObject
from ._tags import tag_t


def value(v: Any) -> Any:
    """`v` as the table takes it: numpy to Python values, constants to their words, tags to
    ``[offset, key, value]``."""
    if isinstance(v, Constant):
        return v.word
    if isinstance(v, GrcObject):
        return v._rf_value
    if isinstance(v, tag_t):
        return v.as_list()
    if isinstance(v, np.ndarray):
        return [value(x) for x in v.tolist()]
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [value(x) for x in v]
    return words(v)
