"""GNU Radio's Python constructors, made from ``_names.NAMES`` (generated from the GNU Radio
table and GNU Radio's GRC definitions): one function per constructor, with GNU Radio's argument
names, order and defaults, that maps its arguments to the GRC parameters the GRC template passes
them as and makes a :class:`GrBlock`. Nothing here is written block by block."""

from __future__ import annotations

import ast
import functools
import inspect
import re
import types
from typing import Any, Callable, Dict, List, Optional

from ._block import GrBlock
from ._constants import CONSTANTS, Constant
from ._names import NAMES
from ._values import value as _value


class _NoDefault:
    """A GNU Radio default radioflow cannot write as a Python value: the argument is required."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _default(text: Optional[str]) -> Any:
    if text is None:
        return inspect.Parameter.empty
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    m = re.match(r"^<[\w.]*?\.?(\w+): -?\d+>$", text)
    if m:
        for consts in CONSTANTS.values():
            if m.group(1) in consts:
                return consts[m.group(1)]
    if text.startswith("<") and "pmt" in text.lower():
        return None  # pmt defaults (PMT_NIL, an empty dict) print as objects
    return _NoDefault(text)


@functools.lru_cache(maxsize=None)
def _scope() -> Dict[str, Any]:
    """What a template's literal may name: the modules' constants, ``gr``."""
    from . import gr

    scope: Dict[str, Any] = {m: types.SimpleNamespace(**c) for m, c in CONSTANTS.items()}
    scope.update({"__builtins__": {}, "gr": gr, "True": True, "False": False})
    return scope


def _literal(text: str) -> Any:
    try:
        return eval(text, dict(_scope()))  # noqa: S307
    except Exception:  # noqa: BLE001 - a literal radioflow cannot evaluate accepts only the default
        return _NoDefault(text)


def _enum_text(by_text: Dict[str, Dict[str, str]], value: Any) -> Optional[str]:
    """The text among `by_text`'s (``dtv.C3_5``, ``'capillary'``, ``None``) that `value` is:
    a constant by its name, else what the text evaluates to (GNU Radio's number for a
    constant: ``4`` for ``dtv.C3_5``)."""
    if isinstance(value, Constant):
        return value.gr_name if value.gr_name in by_text else None
    found = []
    for text in by_text:
        literal = _literal(text)
        if isinstance(literal, _NoDefault) or isinstance(literal, bool) != isinstance(value, bool):
            continue
        if type(literal) is not type(value) and not isinstance(literal, Constant):
            if not (isinstance(literal, (int, float)) and isinstance(value, (int, float))):
                continue
        if literal == value:
            found.append(text)
    return found[0] if len(found) == 1 else None


def _candidates(spec: Dict[str, Any], size: Any, itemsize: int) -> List[Dict[str, Any]]:
    """The item-type choices item size `itemsize` leaves open (vector length 1 first)."""
    enum, vlen_key = size[1], size[2]
    sizes = spec["sizes"].get(enum, {})
    out = []
    for option in spec["types"] or list(sizes):
        bytes_ = sizes.get(option)
        if not bytes_ or itemsize % bytes_:
            continue
        vlen = itemsize // bytes_
        if vlen_key is None and vlen != 1:
            continue
        c: Dict[str, Any] = {enum: option}
        if vlen_key is not None:
            c[vlen_key] = vlen
        out.append(c)
    out.sort(key=lambda c: c.get(vlen_key, 1) if vlen_key else 1)
    return out


def constructor(path: str, spec: Dict[str, Any]) -> Callable[..., GrBlock]:
    """The function GNU Radio's Python calls `path` (``blocks.head``)."""
    P = inspect.Parameter
    signature = spec["signature"]
    if signature is None:  # GNU Radio lacks the class: the template's own names
        signature = [[a if isinstance(a, str) else f"arg{i}", None] for i, a in enumerate(spec["args"])]
        signature += [[k, None] for k in spec["keywords"]]
    targets: List[Any] = []
    params: List[inspect.Parameter] = []
    for i, (name, default) in enumerate(signature):
        target = spec["args"][i] if i < len(spec["args"]) else spec["keywords"].get(name)
        targets.append(target)
        params.append(P(name, P.POSITIONAL_OR_KEYWORD, default=_default(default)))
    # A parameter without default after one with: GNU Radio's binding allows it by keyword.
    seen_default = False
    fixed_params = []
    for p in params:
        if p.default is not P.empty:
            seen_default = True
        elif seen_default:
            p = p.replace(kind=P.KEYWORD_ONLY)
        fixed_params.append(p)
    sig = inspect.Signature(fixed_params)
    label = path

    def make(*args: Any, **kwargs: Any) -> GrBlock:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{label}: {e}") from None
        grc: Dict[str, Any] = dict(spec["fixed"])
        size = None
        itemsize = 0
        for p, target in zip(fixed_params, targets):
            given = p.name in bound.arguments
            value = bound.arguments[p.name] if given else p.default
            if isinstance(value, _NoDefault):
                raise TypeError(
                    f"{label}: give {p.name} (GNU Radio's default {value.text} has no radioflow "
                    "value)"
                )
            if isinstance(target, str):
                grc[target] = _value(value)
            elif isinstance(target, list) and target[0] == "size":
                size, itemsize = target, int(value)
            elif isinstance(target, list) and target[0] == "expr":
                option = next(
                    (o for text, o in target[2].items() if _literal(text) == value), None
                )
                if option is None:
                    raise ValueError(
                        f"{label}: {p.name}={value!r} is not one of {', '.join(target[2])}"
                    )
                grc[target[1]] = option
            elif isinstance(target, list) and target[0] == "plus":
                # The template writes `${a} + ${b}`: the argument is the sum (a list is
                # taken as it is: GNU Radio's other form, `cp_lengths`).
                if isinstance(value, (list, tuple)) or target[1] not in grc:
                    grc[target[2]] = _value(value)
                else:
                    grc[target[2]] = _value(value) - grc[target[1]]
            elif isinstance(target, list) and target[0] == "enum":
                text = _enum_text(target[1], value)
                if text is None:
                    raise ValueError(
                        f"{label}: {p.name}={value!r} is not one of "
                        f"{', '.join(sorted(target[1]))}"
                    )
                grc.update(target[1][text])
            elif isinstance(target, list) and target[0] == "literal":
                want = _literal(target[1])
                if given and (isinstance(want, _NoDefault) or _value(value) != _value(want)):
                    raise ValueError(
                        f"{label}: {p.name}={value!r}: radioflow runs this block only with "
                        f"{target[1]} (GNU Radio's GRC template)"
                    )
            elif given and value is not p.default and _value(value) != _value(p.default):
                raise ValueError(
                    f"{label}: {p.name}={value!r}: radioflow runs this block only with "
                    f"{p.name}={p.default!r} (its GRC definition has no parameter for it)"
                )
        if "vlen_from" in spec:
            grc["vlen"] = len(bound.arguments[fixed_params[spec["vlen_from"]].name])
        candidates: List[Dict[str, Any]] = [{}]
        if size is not None:
            candidates = _candidates(spec, size, itemsize)
            if not candidates:
                raise ValueError(
                    f"{label}: no item type of {itemsize} bytes that radioflow runs this block "
                    f"with ({', '.join(spec['types'])})"
                )
        return GrBlock(
            path, spec["id"], grc, candidates, dict(spec["methods"]), spec.get("callbacks", {})
        )

    name = path.rpartition(".")[2]
    make.__name__ = make.__qualname__ = name
    make.__signature__ = sig  # type: ignore[attr-defined]
    make.__doc__ = (
        f"GNU Radio's {path} (GRC block {spec['id']}), run by radioflow's native block."
    )
    return make


def namespace(module: str) -> Dict[str, Any]:
    """The constructors and constants of GNU Radio module `module` (``blocks``, ``filter.pfb``)."""
    out: Dict[str, Any] = dict(CONSTANTS.get(module, {}))
    for path, spec in NAMES.items():
        mod, _, attr = path.rpartition(".")
        if mod == module:
            out[attr] = constructor(path, spec)
    return out


def modules() -> List[str]:
    """Every module the table gives constructors in."""
    return sorted({p.rpartition(".")[0] for p in NAMES})
