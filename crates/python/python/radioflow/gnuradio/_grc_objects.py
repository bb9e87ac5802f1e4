"""The Python objects GRC variables make (``digital.constellation_qpsk()``,
``digital.header_format_default(...)``, ``fec.cc_encoder_make(...)``), from GNU Radio's Python.

They are not written here: each call is written as the GRC expression it is and evaluated by
radioflow's GRC evaluator (``_native.gnuradio_eval``), the one ``.grc`` files' variables go
through, so a function exists here exactly when ``radioflow grc run`` knows it, takes the same
arguments and refuses the same values. The object keeps its expression (for its methods:
``.points()``, ``.arity()``, ``.base()`` are the evaluator's too) and the value a block
parameter takes for it (a constellation's or coder's text form)."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np

from .. import _native
from ._constants import Constant


class GrcObject:
    """An object a GNU Radio function made (a constellation, a header format, an FEC coder):
    blocks take it as GNU Radio's take the object; its methods are GNU Radio's."""

    def __init__(self, expression: str, kind: str, value: Any) -> None:
        self._rf_expression = expression
        self._rf_kind = kind
        # What a block parameter takes for the object (its text form).
        self._rf_value = value

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)

        def method(*args: Any, **kwargs: Any) -> Any:
            return call(f"{self._rf_expression}.{name}", args, kwargs, made=False)

        method.__name__ = name
        return method

    def __repr__(self) -> str:
        kind = "constellation" if self._rf_kind == "constellation" else "object"
        return f"<radioflow.gnuradio {kind} {self._rf_expression}>"


def write(v: Any) -> str:
    """`v` written as a GRC expression."""
    if isinstance(v, GrcObject):
        return v._rf_expression
    if isinstance(v, Constant):
        return v.gr_name
    if isinstance(v, np.ndarray):
        return write(v.tolist())
    if isinstance(v, np.generic):
        return write(v.item())
    if v is None or isinstance(v, (bool, int, float, complex, str)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(write(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + "".join(write(x) + ", " for x in v) + ")"
    raise TypeError(f"{type(v).__name__} is not a value radioflow's GRC evaluator takes")


def call(name: str, args: Any, kwargs: Dict[str, Any], made: bool = True) -> Any:
    """`name(*args, **kwargs)` evaluated: a :class:`GrcObject` for what a function makes (or a
    method returns a constellation), else the plain value (``points()`` a list)."""
    parts = [write(a) for a in args] + [f"{k}={write(v)}" for k, v in kwargs.items()]
    expression = f"{name}({', '.join(parts)})"
    try:
        kind, value = _native.gnuradio_eval(expression)
    except ValueError as e:
        text = str(e)
        raise ValueError(text if text.startswith(name) else f"{name}: {text}") from None
    if made or kind == "constellation":
        return GrcObject(expression, kind, value)
    return value


def function(module: str, name: str) -> Optional[Any]:
    """GNU Radio's function `module.name` where the evaluator has it (``fec.cc_decoder.make``
    is reached as ``fec.cc_decoder``, a namespace with ``make``); else None."""
    path = f"{module}.{name}"
    if _is_function(path):
        return _maker(path)
    if _is_function(path + ".make"):
        ns = type(name, (), {"__doc__": f"GNU Radio's {path}, made by radioflow's GRC evaluator."})
        ns.make = staticmethod(_maker(path + ".make"))  # type: ignore[attr-defined]
        return ns
    return None


def _is_function(path: str) -> bool:
    try:
        kind, _ = _native.gnuradio_eval(path)
    except ValueError:
        return False
    return kind == "function"


def _maker(path: str) -> Callable[..., GrcObject]:
    def make(*args: Any, **kwargs: Any) -> GrcObject:
        return call(path, args, kwargs)

    make.__name__ = make.__qualname__ = path.rpartition(".")[2]
    make.__doc__ = f"GNU Radio's {path}, evaluated as radioflow's GRC files evaluate it."
    return make
