"""The native block library. Every block runs in Rust; the item type is a numpy dtype.

One function per block of the library, made from the block's own description (the same
one the command line's ``radioflow blocks`` and graph files read): its parameters in order
(required ones first), then ``dtype`` for blocks that have an item type (the block's default
type if omitted), then its optional parameters, then the keyword ``name``. ``help(f)`` shows
the parameters, defaults and ports; ``blocks.pyi`` types them.

Parameters are checked before anything runs: a bad value raises ValueError (OSError for
files) naming the block and parameter.
"""

from __future__ import annotations

import ast
import inspect
import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np

from . import _native
from ._dtypes import dtype_name
from ._native import Block

Tags = Optional[Iterable[Tuple[int, Any, Any]]]

#: Every block of the library: ``{id: description}`` (see ``_native.block_library``).
LIBRARY: Dict[str, Dict[str, Any]] = {d["id"]: d for d in _native.block_library()}


def _convert(param: Dict[str, Any], value: Any) -> Any:
    """`value` in the form the native side takes for `param`."""
    kind = param["type"]
    if kind == "Union[str, os.PathLike]":
        return os.fspath(value)
    if kind == "Sequence[float]":
        return [float(v) for v in value]
    if kind == "Sequence[Any]":
        return list(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def _docstring(d: Dict[str, Any]) -> str:
    lines = [d["summary"], ""]
    if d["params"] or d["dtypes"]:
        lines.append("Parameters:")
    required = [p for p in d["params"] if p["default"] is None]
    optional = [p for p in d["params"] if p["default"] is not None]
    for p in required:
        lines.append(f"    {p['name']}: {p['doc']} ({p['takes']}).")
    if d["dtypes"]:
        lines.append(
            f"    dtype: the item type, one of {', '.join(d['dtypes'])} "
            f"(default {d['dtypes'][0]})."
        )
    for p in optional:
        lines.append(f"    {p['name']}: {p['doc']} ({p['takes']}; default {p['default']}).")
    lines.append("    name: the instance name in the flowgraph (default: from the id).")
    if d["ports"]:
        lines += ["", "Ports:"]
        for port in d["ports"]:
            many = "0, 1, ..." if port["many"] else ""
            lines.append(f"    {port['name']}{many}: {port['direction']}")
    return "\n".join(lines)


def _signature(d: Dict[str, Any]) -> inspect.Signature:
    P = inspect.Parameter
    params = [P(p["name"], P.POSITIONAL_OR_KEYWORD) for p in d["params"] if p["default"] is None]
    if d["dtypes"]:
        params.append(P("dtype", P.POSITIONAL_OR_KEYWORD, default=np.dtype(d["dtypes"][0]).type))
    params += [
        P(p["name"], P.POSITIONAL_OR_KEYWORD, default=ast.literal_eval(p["default"]))
        for p in d["params"]
        if p["default"] is not None
    ]
    params.append(P("name", P.KEYWORD_ONLY, default=None))
    return inspect.Signature(params, return_annotation="Block")


def _factory(d: Dict[str, Any]) -> Callable[..., Block]:
    """The Python function of block `d`."""
    signature = _signature(d)
    by_name = {p["name"]: p for p in d["params"]}

    def make(*args: Any, **kwargs: Any) -> Block:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{d['id']}: {e}") from None
        bound.apply_defaults()
        values = dict(bound.arguments)
        name = values.pop("name")
        dtype = values.pop("dtype", None)
        params = {k: _convert(by_name[k], v) for k, v in values.items()}
        return _native.make_block(
            d["id"], None if dtype is None else dtype_name(dtype), params, name=name
        )

    make.__name__ = make.__qualname__ = d["id"]
    make.__doc__ = _docstring(d)
    make.__signature__ = signature  # type: ignore[attr-defined]
    make.__module__ = __name__
    return make


for _id, _description in LIBRARY.items():
    globals()[_id] = _factory(_description)


def _vector_source(data: Any, dtype: Any = None, repeat: bool = False, vlen: int = 1, *,
                   tags: Tags = None, name: Optional[str] = None) -> Block:
    array = np.ascontiguousarray(data if dtype is None else np.asarray(data, dtype=dtype))
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    if array.ndim != 1:
        raise ValueError(f"vector_source needs 1-D data, got shape {array.shape}")
    return _native.vector_source(
        dtype_name(array.dtype),
        array,
        repeat=repeat,
        vlen=vlen,
        tags=None if tags is None else list(tags),
        name=name,
    )


# A numpy array is streamed in place, which the generic factory (a list) cannot do.
_vector_source.__name__ = _vector_source.__qualname__ = "vector_source"
_vector_source.__doc__ = (
    _docstring(LIBRARY["vector_source"]).replace("dtype: the item type", "dtype: the item type "
    "(default: data's own type)", 1)
    + "\n\nA C-contiguous array of a stream dtype is streamed in place, without a copy: do not "
    "modify it while the graph runs. Anything else is converted first. ``tags`` are "
    "``(offset, key, value)`` tuples."
)
vector_source = _vector_source

__all__: List[str] = sorted(LIBRARY)
