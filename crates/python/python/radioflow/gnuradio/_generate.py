"""Writes ``_names.py``: GNU Radio 3.10's Python constructors of the blocks radioflow runs,
from the GNU Radio table (``_native.gnuradio_table()``: the GRC ids radioflow maps) and, for
each id, GNU Radio's own GRC definition (its Python ``make`` template, rendered for every
choice of its enumerated parameters) and the signature of the class the template names.

Run from the worktree with GNU Radio installed (``/usr/bin/python3`` has its bindings)::

    python3 -m radioflow.gnuradio._generate > crates/python/python/radioflow/gnuradio/_names.py

``tests/test_gnuradio_api.py`` fails when the file is stale. What each constructor argument
becomes is the template's own mapping: argument ``i`` of ``blocks.multiply_const_ff(${const},
${vlen})`` is GRC parameter ``const``; ``${type.size}*${vlen}`` is an item size.
"""

from __future__ import annotations

import json
import os
import pprint
import re
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

from .. import _native

GNURADIO_PYTHON = os.environ.get("RADIOFLOW_GNURADIO_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
KEY = re.compile(r"^\u00ab(\w+)\u00bb$")
# A parameter the template converts the way a caller already gives it (`bool(${mute})`,
# `pmt.intern(${start_tag})`: GNU Radio's Python constructor takes the converted value).
WRAPPED = re.compile(r"^(?:bool|int|float|pmt\.intern)\(\u00ab(\w+)\u00bb\)$")
# A module's constant as GRC option attributes write it (`dtv.C3_5`).
CONSTANT = re.compile(r"^[a-z]\w*\.[A-Z][A-Z0-9_]*$")
PLUS = re.compile(r"^\u00ab(\w+)\u00bb\s*\+\s*\u00ab(\w+)\u00bb$")
SIZE = re.compile(r"^\u00ab(\w+)\.(\w+)\u00bb(?:\s*\*\s*\u00ab(\w+)\u00bb)?$")


def split_top(text: str) -> List[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def call_of(text: str) -> Optional[Tuple[str, str, Dict[str, List[str]]]]:
    """``(callee, argument text, {method: GRC key})`` of a template that is one call, then
    perhaps calls of the new block's methods with one parameter each
    (``self.${id}.declare_sample_delay(${samp_delay})``); else None."""
    m = re.match(r"^([A-Za-z_][\w.]*)\(", text)
    if not m:
        return None
    depth = 0
    for i in range(m.end() - 1, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            methods = {}
            for line in re.split(r"\s+(?=self\.)", text[i + 1:].strip()):
                if not line:
                    continue
                call = re.match(r"^self\.self_block\.(\w+)\((.*)\)$", line)
                keys = [KEY.match(a) for a in split_top(call.group(2))] if call else [None]
                if not call or not all(keys):
                    return None
                methods[call.group(1)] = [k.group(1) for k in keys]  # type: ignore[union-attr]
            return m.group(1), text[m.end():i], methods
    return None


def module_paths(imports: str) -> Dict[str, str]:
    out = {}
    for line in imports.splitlines():
        m = re.match(r"\s*from gnuradio(\.[\w.]+)? import (\w+)", line)
        if m:
            out[m.group(2)] = ((m.group(1) or "")[1:] + "." + m.group(2)).lstrip(".")
    return out


def target(arg: str, exprs: Dict[str, Dict[str, Dict[str, str]]]) -> Optional[Any]:
    """What one template argument is: a GRC key, an item size, an enum's expression
    (``gr.types.float_t``), a literal; None for an expression (the row is a GRC composite, not
    a constructor)."""
    m = KEY.match(arg) or WRAPPED.match(arg)
    if m:
        return m.group(1)
    m = SIZE.match(arg)
    if m:
        key, attr, vlen = m.group(1), m.group(2), m.group(3)
        values = exprs.get(key, {}).get(attr)
        if values is not None and vlen is None:
            return ["expr", key, {text: option for option, text in values.items()}]
        return ["size", key, vlen]
    m = PLUS.match(arg)
    if m:
        # `${input_size} + ${cp_len}`: the caller gives the sum (GNU Radio's output size).
        return ["plus", m.group(1), m.group(2)]
    if "\u00ab" in arg:
        return None
    return ["literal", arg]


def enum_target(
    where: Any,
    raws: List[List[Tuple[Any, str]]],
    choices: List[Dict[str, Any]],
    vals: Dict[str, Dict[str, Dict[str, str]]],
) -> Optional[List[Any]]:
    """``["enum", {text: {enum: option}}]`` for the literal argument at `where`: where it
    writes a module's constants (``dtv.C3_5``), every enum whose options stand for the
    constants it wrote (the template may choose among several by others: ``rate1``..``rate5``
    by standard and frame size); else the one enum whose option attribute it is in every
    render (each option its own text); else None."""
    texts = [dict(r).get(where) for r in raws]
    seen = set(texts)
    if all(t is not None and CONSTANT.match(t) for t in seen):
        by_text: Dict[str, Dict[str, str]] = {}
        for k, attrs in vals.items():
            for by_option in attrs.values():
                if all(CONSTANT.match(v) for v in by_option.values()) and seen & set(
                    by_option.values()
                ):
                    for option, text in by_option.items():
                        by_text.setdefault(text, {})[k] = option
        return ["enum", by_text] if by_text else None
    for k, attrs in vals.items():
        for by_option in attrs.values():
            if len(set(by_option.values())) != len(by_option) or len(by_option) < 2:
                continue
            if all(k in c and by_option.get(str(c[k])) == t for t, c in zip(texts, choices)):
                return ["enum", {text: {k: o} for o, text in by_option.items()}]
    return None


def specs(tpl: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    table = {r["id"]: r for r in _native.gnuradio_table()}
    out: Dict[str, Dict[str, Any]] = {}
    for grc_id in sorted(tpl["blocks"]):
        b = tpl["blocks"][grc_id]
        modules = module_paths(b["imports"])
        by_path: Dict[str, Dict[str, Any]] = {}
        plain: Dict[Tuple[str, int], str] = {}
        for choice, vlen, text in b["renders"]:
            call = call_of(text) if not text.startswith("!") else None
            if call is None:
                continue
            callee, argtext, methods = call
            head, _, rest = callee.partition(".")
            if not rest:
                continue
            path = modules.get(head, head) + "." + rest
            args: List[Any] = []
            keywords: Dict[str, Any] = {}
            raw: List[Tuple[Any, str]] = []
            ok = True
            for a in split_top(argtext):
                kw = re.match(r"^(\w+)\s*=(?!=)\s*(.*)$", a)
                t = target(kw.group(2) if kw else a, b.get("exprs", {}))
                if t is None:
                    ok = False
                    break
                if kw:
                    keywords[kw.group(1)] = t
                else:
                    args.append(t)
                raw.append((kw.group(1) if kw else len(args) - 1, kw.group(2) if kw else a))
            if not ok:
                continue
            key = tuple(sorted(choice.items()))
            if vlen == 1:
                plain[key] = path  # type: ignore[index]
            spec = by_path.setdefault(
                path,
                {
                    "id": grc_id,
                    "args": args,
                    "keywords": keywords,
                    "methods": methods,
                    "choices": [],
                    "raw": [],
                },
            )
            spec["choices"].append(choice)
            spec["raw"].append(raw)
            if vlen == 2 and plain.get(key) != path:  # type: ignore[arg-type]
                spec["vlen_from"] = 0  # the `v` form: vlen is the length of argument 0
        for path, spec in by_path.items():
            choices = spec.pop("choices")
            raws = spec.pop("raw")
            # A literal that is an option's text (True, False) is that enum parameter if it
            # follows the parameter in every render.
            for where, _ in raws[0]:
                for k in choices[0]:
                    texts = [dict(r).get(where) for r in raws]
                    if all(t == str(c[k]) for t, c in zip(texts, choices)):
                        if isinstance(where, int):
                            spec["args"][where] = k
                        else:
                            spec["keywords"][where] = k
                        break
            # A literal that is an enum's option attribute (`${threadtype.arg}`, `${rate.val}`
            # writes `dtv.C3_5`): the caller gives the value, which sets the enum.
            for where, _ in raws[0]:
                current = spec["args"][where] if isinstance(where, int) else spec["keywords"][where]
                if isinstance(current, list) and current[0] == "literal":
                    t = enum_target(where, raws, choices, b.get("vals", {}))
                    if t is None:
                        continue
                    if isinstance(where, int):
                        spec["args"][where] = t
                    else:
                        spec["keywords"][where] = t
            fixed = {
                k: v for k, v in choices[0].items() if all(c.get(k) == v for c in choices)
            }
            spec["fixed"] = fixed
            used = {
                a
                for a in list(spec["args"]) + list(spec["keywords"].values())
                if isinstance(a, str)
            } | {
                a[1]
                for a in list(spec["args"]) + list(spec["keywords"].values())
                if isinstance(a, list) and a[0] in ("size", "expr")
            } | {
                a[2]
                for a in list(spec["args"]) + list(spec["keywords"].values())
                if isinstance(a, list) and a[0] == "plus"
            } | {
                k
                for a in list(spec["args"]) + list(spec["keywords"].values())
                if isinstance(a, list) and a[0] == "enum"
                for options in a[1].values()
                for k in options
            }
            free = [k for k in choices[0] if k not in fixed and k not in used]
            spec["free"] = free
            spec["sizes"] = b["sizes"]
            spec["callbacks"] = b.get("callbacks", {})
            spec["types"] = [t[0] for t in table[grc_id]["types"] if t[1] is not None]
            # Where two rows give the same constructor, the one mapping it more directly
            # (fewer fixed literals, more arguments) is GNU Radio's.
            literals = sum(1 for a in spec["args"] if isinstance(a, list) and a[0] == "literal")
            rank = (literals, -len(spec["args"]) - len(spec["keywords"]))
            old = out.get(path)
            if old is None or old["_rank"] > rank:
                spec["_rank"] = rank
                out[path] = spec
    for path, spec in out.items():
        spec.pop("_rank", None)
        sig = tpl["signatures"].get(path, {})
        spec["signature"] = sig.get("params")
    return out


def main() -> None:
    ids = [r["id"] for r in _native.gnuradio_table()]
    tpl = json.loads(
        subprocess.run(
            [GNURADIO_PYTHON, os.path.join(HERE, "_grc_templates.py")],
            input=json.dumps(ids),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    names = specs(tpl)
    sys.stdout.write(
        '"""GNU Radio 3.10\'s Python constructors of the blocks radioflow runs. Generated by\n'
        "``python3 -m radioflow.gnuradio._generate`` from the GNU Radio table and GNU Radio's GRC\n"
        "definitions and bindings: do not edit.\n\n"
        "``{module.name: {id: GRC id, args: [GRC key | [size, enum, vlen key] | [literal, text] |\n"
        "[enum, {constant's name: {enum: option}}] | [plus, GRC key given, GRC key set to the\n"
        "argument minus the other]],\n"
        "keywords: {python name: the same}, fixed: {enum: option}, free: [enum chosen by item\n"
        "size or default], sizes: {enum: {option: bytes}}, types: [options radioflow runs],\n"
        "vlen_from: argument whose length is vlen, signature: [[python name, default repr]],\n"
        "callbacks: {GRC callback setter: [GRC key per argument]}}}``\n"
        '"""\n\n'
    )
    sys.stdout.write("NAMES = " + pprint.pformat(names, width=100, sort_dicts=True) + "\n")
    sys.stdout.write(
        "\n# GNU Radio's enumeration constants by module, as its bindings number them.\n"
        "ENUMS = " + pprint.pformat(tpl["enums"], width=100, sort_dicts=True) + "\n"
    )


if __name__ == "__main__":
    main()
