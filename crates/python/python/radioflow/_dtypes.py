"""Item types: whatever numpy accepts as a dtype, narrowed to the ones streams carry."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._native import DTYPES


def dtype_name(dtype: Any) -> str:
    """numpy's name of `dtype` (``np.float32``, ``"complex64"``, ``np.dtype("i2")``, ...),
    refused with a ValueError if streams cannot carry it."""
    if dtype is None:
        raise ValueError("None is not an item type: name one, e.g. np.float32")
    try:
        name = np.dtype(dtype).name
    except TypeError as e:
        raise ValueError(f"{dtype!r} is not a numpy dtype") from e
    if name not in DTYPES:
        raise ValueError(
            f"unsupported item type {name}: streams carry {', '.join(DTYPES)}"
        )
    return name
