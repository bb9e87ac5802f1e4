"""GNU Radio's ``pmt`` module on radioflow's PMT values, which are plain Python values (``None``,
bool, int, float, complex, str for symbols, :class:`radioflow.Pair`, dict, tuple, list for
vectors, numpy arrays for uniform vectors): the same values radioflow's message ports carry, so a
message made here goes to any block unchanged. Serialization is GNU Radio 3.10's, byte for byte.

Differences from GNU Radio: a PMT is its Python value, so ``from_long(5) == 5``; ``from_uint64``
and ``from_float`` give an ``int``/``float`` (serialized as GNU Radio's int64/double); dicts are
copied by ``dict_add`` (GNU Radio's are immutable too, so code that uses the returned dict
behaves the same)."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from .. import _native
from .._native import Pair

PMT_NIL: Any = None
PMT_T = True
PMT_F = False
PMT_EOF = ("__pmt_eof__",)


def get_PMT_NIL() -> Any:  # noqa: N802 - GNU Radio's name
    return None


def get_PMT_T() -> bool:  # noqa: N802
    return True


def get_PMT_F() -> bool:  # noqa: N802
    return False


# -- symbols, numbers, booleans --------------------------------------------------------------

def intern(s: str) -> str:
    return str(s)


string_to_symbol = intern


def symbol_to_string(p: Any) -> str:
    if not is_symbol(p):
        raise TypeError(f"pmt.symbol_to_string: {p!r} is not a symbol")
    return p


def is_symbol(p: Any) -> bool:
    return isinstance(p, str)


def from_long(x: int) -> int:
    return int(x)


def from_uint64(x: int) -> int:
    if int(x) < 0:
        raise ValueError(f"pmt.from_uint64: {x} is negative")
    return int(x)


def to_long(p: Any) -> int:
    if not is_integer(p):
        raise TypeError(f"pmt.to_long: {p!r} is not an integer")
    return int(p)


to_uint64 = to_long


def from_double(x: float) -> float:
    return float(x)


from_float = from_double


def to_double(p: Any) -> float:
    if not is_real(p):
        raise TypeError(f"pmt.to_double: {p!r} is not a number")
    return float(p)


to_float = to_double


def from_complex(re: Any, im: float = 0.0) -> complex:
    return complex(re, im) if not isinstance(re, complex) else re


def to_complex(p: Any) -> complex:
    if not is_number(p):
        raise TypeError(f"pmt.to_complex: {p!r} is not a number")
    return complex(p)


def from_bool(b: Any) -> bool:
    return bool(b)


def to_bool(p: Any) -> bool:
    if not is_bool(p):
        raise TypeError(f"pmt.to_bool: {p!r} is not a boolean")
    return p


def is_bool(p: Any) -> bool:
    return isinstance(p, (bool, np.bool_))


def is_true(p: Any) -> bool:
    return p is not False


def is_false(p: Any) -> bool:
    return p is False


def is_null(p: Any) -> bool:
    return p is None


def is_eof_object(p: Any) -> bool:
    return p is PMT_EOF


def is_integer(p: Any) -> bool:
    return isinstance(p, (int, np.integer)) and not isinstance(p, (bool, np.bool_))


is_uint64 = is_integer


def is_real(p: Any) -> bool:
    return is_integer(p) or isinstance(p, (float, np.floating))


def is_complex(p: Any) -> bool:
    return isinstance(p, (complex, np.complexfloating))


def is_number(p: Any) -> bool:
    return is_real(p) or is_complex(p)


# -- pairs, tuples, vectors, dicts -----------------------------------------------------------

def cons(car: Any, cdr: Any) -> Pair:
    return Pair(car, cdr)


def car(p: Any) -> Any:
    if not is_pair(p):
        raise TypeError(f"pmt.car: {p!r} is not a pair")
    return p.car


def cdr(p: Any) -> Any:
    if not is_pair(p):
        raise TypeError(f"pmt.cdr: {p!r} is not a pair")
    return p.cdr


def is_pair(p: Any) -> bool:
    return isinstance(p, Pair)


def make_tuple(*items: Any) -> tuple:
    return tuple(items)


def to_tuple(x: Any) -> tuple:
    return tuple(x)


def tuple_ref(t: Any, k: int) -> Any:
    return t[k]


def is_tuple(p: Any) -> bool:
    return isinstance(p, tuple)


def make_vector(k: int, fill: Any) -> list:
    return [fill] * int(k)


def vector_ref(v: Any, k: int) -> Any:
    return v[k]


def vector_set(v: Any, k: int, obj: Any) -> None:
    v[k] = obj


def vector_fill(v: Any, obj: Any) -> None:
    for i in range(len(v)):
        v[i] = obj


def is_vector(p: Any) -> bool:
    return isinstance(p, list)


def length(p: Any) -> int:
    if isinstance(p, (list, tuple, dict, np.ndarray)):
        return len(p)
    if isinstance(p, Pair):
        return len(list_to_python(p))
    raise TypeError(f"pmt.length: {p!r} has no length")


def make_dict() -> Dict[Any, Any]:
    return {}


def dict_add(d: Any, key: Any, value: Any) -> Dict[Any, Any]:
    out = dict(d) if d is not None else {}
    out[key] = value
    return out


def dict_delete(d: Any, key: Any) -> Dict[Any, Any]:
    out = dict(d)
    out.pop(key, None)
    return out


def dict_has_key(d: Any, key: Any) -> bool:
    return isinstance(d, dict) and key in d


def dict_ref(d: Any, key: Any, not_found: Any) -> Any:
    return d.get(key, not_found) if isinstance(d, dict) else not_found


def _chain(items: List[Any]) -> Any:
    """A PMT list as GNU Radio's dict functions give one: pairs ending in nil."""
    out: Any = None
    for x in reversed(items):
        out = Pair(x, out)
    return out


def dict_keys(d: Any) -> Any:
    return _chain(list(d.keys()))


def dict_values(d: Any) -> Any:
    return _chain(list(d.values()))


def dict_items(d: Any) -> Any:
    return _chain([Pair(k, v) for k, v in d.items()])


def list_to_python(p: Any) -> List[Any]:
    out = []
    while isinstance(p, Pair):
        out.append(p.car)
        p = p.cdr
    return out


def nth(n: int, p: Any) -> Any:
    return list_to_python(p)[n]


def dict_update(d1: Any, d2: Any) -> Dict[Any, Any]:
    out = dict(d1)
    out.update(d2)
    return out


def is_dict(p: Any) -> bool:
    return isinstance(p, dict)


# -- uniform vectors -------------------------------------------------------------------------

_UNIFORM = {
    "u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
    "s32": np.int32, "u64": np.uint64, "s64": np.int64, "f32": np.float32, "f64": np.float64,
    "c32": np.complex64, "c64": np.complex128,
}


def _uniform(kind: str, dtype: Any) -> None:
    g = globals()

    def make(k: int, fill: Any) -> np.ndarray:
        return np.full(int(k), fill, dtype=dtype)

    def init(k: int, data: Any) -> np.ndarray:
        return np.array(list(data)[: int(k)], dtype=dtype)

    def elements(v: Any) -> list:
        if not (isinstance(v, np.ndarray) and v.dtype == np.dtype(dtype)):
            raise TypeError(f"pmt.{kind}vector_elements: {v!r} is not a {kind}vector")
        return v.tolist()

    def ref(v: Any, k: int) -> Any:
        return v[k].item()

    def is_(v: Any) -> bool:
        return isinstance(v, np.ndarray) and v.dtype == np.dtype(dtype)

    for name, f in ((f"make_{kind}vector", make), (f"init_{kind}vector", init),
                    (f"{kind}vector_elements", elements), (f"{kind}vector_ref", ref),
                    (f"is_{kind}vector", is_)):
        f.__name__ = f.__qualname__ = name
        g[name] = f


for _kind, _dtype in _UNIFORM.items():
    _uniform(_kind, _dtype)


def is_uniform_vector(p: Any) -> bool:
    return isinstance(p, np.ndarray) and p.ndim == 1


def uniform_vector_itemsize(p: Any) -> int:
    return int(p.dtype.itemsize)


def blob_data(p: Any) -> bytes:
    return bytes(p)


# -- conversions, comparison, serialization ---------------------------------------------------

def to_pmt(x: Any) -> Any:
    """A Python value as a PMT: radioflow's PMTs are Python values (numpy scalars become
    Python numbers, lists stay vectors)."""
    return _native.pmt_roundtrip(x)


def to_python(p: Any) -> Any:
    return p


def eq(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is b
    return type(a) is type(b) and a == b


eqv = eq


def equal(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
            and a.dtype == b.dtype and np.array_equal(a, b)
        )
    if isinstance(a, Pair) and isinstance(b, Pair):
        return equal(a.car, b.car) and equal(a.cdr, b.cdr)
    return a == b


def serialize_str(p: Any) -> bytes:
    """`p` as GNU Radio's ``pmt.serialize_str`` writes it."""
    return _native.pmt_serialize(p)


def deserialize_str(data: bytes) -> Any:
    return _native.pmt_deserialize(bytes(data))


def write_string(p: Any) -> str:
    return repr(p)


__all__: List[str] = [n for n in globals() if not n.startswith("_") and n not in (
    "annotations", "Any", "Dict", "List", "np")]
