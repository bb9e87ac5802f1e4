"""Run by GNU Radio's Python (``/usr/bin/python3``) for ``_generate.py``: renders the Python
``make`` template of GRC blocks for every choice of their enumerated parameters, and reads the
signatures of the GNU Radio Python classes they name. Reads JSON ``[grc id, ...]`` on stdin,
writes JSON on stdout. Uses only what a GNU Radio 3.10 install has (PyYAML, Mako, gnuradio)."""

import glob
import importlib
import inspect
import itertools
import json
import os
import re
import sys

# This file's folder holds radioflow's gr.py and pmt.py: GNU Radio's must be found instead.
_HERE = os.path.realpath(os.path.dirname(__file__))
sys.path = [p for p in sys.path if os.path.realpath(p or ".") != _HERE]

import yaml  # noqa: E402
from gnuradio import gr  # noqa: E402 - the item sizes name gr.sizeof_*
from mako.template import Template  # noqa: E402

BLOCKS = "/usr/share/gnuradio/grc/blocks"
# GNU Radio's modules whose enumeration constants radioflow.gnuradio defines.
ENUM_MODULES = [
    "analog", "blocks", "channels", "digital", "dtv", "fec", "fft", "filter", "gr", "pdu"
]


class Arg(str):
    """A parameter in a rendered template: prints as «key»; called, gives its default value
    (templates ask ``context.get('vlen')()``); ``.attr`` of an enum gives the attribute of the
    option chosen."""

    def __new__(cls, key, value, attrs=None, option=None):
        text = option if option is not None else "\u00ab" + key + "\u00bb"
        s = str.__new__(cls, text)
        s.key, s.value, s.attrs, s.option = key, value, attrs or {}, option
        return s

    def __call__(self):
        return self.value

    def __getattr__(self, name):
        if name in ("key", "value", "attrs", "option"):
            raise AttributeError(name)
        if name in self.attrs:
            return self.attrs[name]
        if self.option is not None:
            return "\u00ab" + self.key + "." + name + "\u00bb"
        raise AttributeError(name)


def literal(text):
    try:
        return eval(str(text), {"__builtins__": {}}, {})  # noqa: S307 - GRC defaults
    except Exception:  # noqa: BLE001 - a default that is an expression stays text
        return str(text)


def size_attr(attrs):
    # An item size (`type.size`, `type.itemsize`: gr.sizeof_float...) stays a marker, «type.size».
    return {k: v for k, v in attrs.items() if not is_size(v)}


def is_size(value):
    """An attribute that is a GNU Radio expression (gr.sizeof_float, gr.types.float_t): the
    template gets a marker, «type.attr», and the output its values."""
    return str(value).startswith("gr.")


def render(template, data, choice, vlen):
    ns = {}
    for p in data.get("parameters", []):
        key = p["id"]
        default = literal(p.get("default", ""))
        if key == "vlen":
            default = vlen
        if key in choice:
            opts = p["options"]
            i = opts.index(choice[key])
            attrs = {a: vals[i] for a, vals in (p.get("option_attributes") or {}).items()}
            ns[key] = Arg(key, choice[key], size_attr(attrs), option=str(choice[key]))
        else:
            ns[key] = Arg(key, default)
    ns["id"] = "self_block"
    text = template.render(**ns)
    return " ".join(text.split())


def enum_params(data, make):
    out = []
    for p in data.get("parameters", []):
        if p.get("dtype") == "enum" and p.get("options") and re.search(
            r"\b%s\b" % re.escape(p["id"]), make
        ):
            out.append(p)
    return out


def signature(path):
    module, _, attr = path.rpartition(".")
    try:
        obj = importlib.import_module("gnuradio." + module.replace(".", "."))
        for part in attr.split("."):
            obj = getattr(obj, part)
    except Exception as e:  # noqa: BLE001
        return {"error": str(e)}
    try:
        sig = inspect.signature(obj)
        params = [
            [n, None if p.default is p.empty else repr(p.default)]
            for n, p in sig.parameters.items()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
        return {"params": params}
    except (TypeError, ValueError):
        pass
    doc = (getattr(obj, "__init__", None) and obj.__init__.__doc__) or ""
    lines = doc.strip().splitlines()
    # An overloaded constructor: the first form.
    first = next((ln[3:] for ln in lines if ln.startswith("1. __init__(")), None)
    if first is None:
        first = lines[0] if lines else ""
    m = re.match(r"__init__\(self: [^,)]*(?:, )?(.*)\) -> None", first)
    if not m:
        return {"error": "no signature in " + repr(first[:80])}
    params = []
    for part in split_top(m.group(1)):
        name, _, rest = part.partition(":")
        default = None
        if " = " in rest:
            default = rest.split(" = ", 1)[1].strip()
        params.append([name.strip(), default])
    return {"params": params}


def callback_key(arg):
    """The GRC key a callback's argument is: `${x}`, or `int(${x})` (converted as the caller
    gives it); else None."""
    m = re.match(r"^\$\{\s*(\w+)\s*\}$", arg) or re.match(
        r"^(?:int|float|bool)\(\$\{\s*(\w+)\s*\}\)$", arg
    )
    return m.group(1) if m else None


def enums():
    """``{module: {NAME: number}}``: the enumeration constants (pybind11 enum values) that
    GNU Radio's Python modules export, as ``dtv.C3_5`` or ``digital.TED_GARDNER``."""
    out = {}
    for module in ENUM_MODULES:
        mod = importlib.import_module("gnuradio." + module)
        found = {}
        for name in dir(mod):
            value = getattr(mod, name)
            if (
                name.isupper()
                and not inspect.isclass(value)
                and hasattr(type(value), "__members__")
                and getattr(value, "name", None) == name
            ):
                found[name] = int(value)
        out[module] = found
    return out


def module_paths(imports):
    """``{name used in the template: module path under gnuradio}`` of a block's imports
    (``from gnuradio.filter import pfb`` -> ``{"pfb": "filter.pfb"}``)."""
    out = {}
    for line in imports.splitlines():
        m = re.match(r"\s*from gnuradio(\.[\w.]+)? import (\w+)", line)
        if m:
            out[m.group(2)] = ((m.group(1) or "")[1:] + "." + m.group(2)).lstrip(".")
    return out


def split_top(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def main():
    ids = set(json.load(sys.stdin))
    result = {"blocks": {}, "signatures": {}}
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in sorted(glob.glob(BLOCKS + "/*.block.yml")):
        with open(path) as f:
            text = f.read()
        m = re.search(r"^id:\s*(\S+)", text, re.M)
        if not m or m.group(1) not in ids:
            continue
        data = yaml.load(text, Loader=loader)
        if not isinstance(data, dict) or data.get("id") not in ids:
            continue
        make = (data.get("templates") or {}).get("make") or ""
        if not make:
            continue
        params = enum_params(data, make)
        try:
            template = Template(make)
        except Exception as e:  # noqa: BLE001 - a template that needs what is not installed
            result["blocks"][data["id"]] = {"renders": [[{}, 1, "!" + str(e)]], "imports": "",
                                            "defaults": {}, "sizes": {}, "exprs": {}}
            continue
        # Every combination of the enums' options when there are at most 64; otherwise (a block
        # with many enums, as DVB-T2's frame mapper, has millions) each enum's options with
        # the others at their first, so each one's effect on the template is seen.
        count = 1
        for p in params:
            count *= len(p["options"])
        if count <= 64:
            choices = list(itertools.product(*[p["options"] for p in params]))
        else:
            first = [p["options"][0] for p in params]
            choices = [tuple(first)]
            for i, p in enumerate(params):
                for o in p["options"][1:]:
                    choices.append(tuple(first[:i] + [o] + first[i + 1:]))
        renders = []
        for combo in choices:
            choice = {p["id"]: o for p, o in zip(params, combo)}
            for vlen in (1, 2):
                try:
                    renders.append([choice, vlen, render(template, data, choice, vlen)])
                except Exception as e:  # noqa: BLE001
                    renders.append([choice, vlen, "!" + str(e)])
        imports = (data.get("templates") or {}).get("imports") or ""
        sizes = {}
        exprs = {}
        for p in data.get("parameters", []):
            attrs = p.get("option_attributes") or {}
            for attr, values in attrs.items():
                if all(str(v).startswith("gr.sizeof_") for v in values):
                    sizes[p["id"]] = {
                        str(o): eval(str(v), {"gr": gr}) for o, v in zip(p["options"], values)
                    }
                elif all(is_size(v) for v in values):
                    exprs.setdefault(p["id"], {})[attr] = {
                        str(o): str(v) for o, v in zip(p["options"], values)
                    }
        defaults = {p["id"]: str(p.get("default", "")) for p in data.get("parameters", [])}
        # The enums' option attributes the template may write in place of an argument
        # (`val: [dtv.C1_2, ...]`, `arg: [None, "'capillary'"]`): {enum: {attr: {option: text}}}.
        vals = {}
        for p in data.get("parameters", []):
            for attr, values in (p.get("option_attributes") or {}).items():
                if not any(is_size(v) for v in values):
                    # As the rendered template writes them (blanks collapsed).
                    vals.setdefault(p["id"], {})[attr] = {
                        str(o): " ".join(str(v).split()) for o, v in zip(p["options"], values)
                    }
        # GRC's callbacks that are one setter of the block's parameters (`set_k(${const})`):
        # {setter: [GRC key per argument]}.
        callbacks = {}
        for cb in (data.get("templates") or {}).get("callbacks") or []:
            m = re.match(r"^\s*(set_\w+)\((.*)\)\s*$", str(cb), re.S)
            if not m:
                continue
            keys = [callback_key(a) for a in split_top(m.group(2))]
            if keys and all(keys):
                callbacks[m.group(1)] = keys
        result["blocks"][data["id"]] = {
            "callbacks": callbacks,
            "renders": renders,
            "imports": imports,
            "defaults": defaults,
            "sizes": sizes,
            "exprs": exprs,
            "vals": vals,
        }
    names = set()
    for b in result["blocks"].values():
        modules = module_paths(b["imports"])
        for _, _, text in b["renders"]:
            m = re.match(r"([A-Za-z_][\w.]*)\(", text)
            if m:
                head, _, rest = m.group(1).partition(".")
                names.add(modules.get(head, head) + "." + rest)
    for n in sorted(names):
        result["signatures"][n] = signature(n)
    result["enums"] = enums()
    json.dump(result, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
