"""GNU Radio Companion files with embedded Python on radioflow: ``load(path)`` gives the
flowgraph of a ``.grc`` file as a ``gr.top_block``, ``run(path)`` runs it as GRC's generated
script does (``python3 -m radioflow.gnuradio FILE.grc`` calls it).

Running such a file runs the Python written in it, as GNU Radio Companion's generated script
does: load only files you trust.

What runs where:

- The Rust GRC loader (the one ``radioflow grc run`` uses) reads the file: variables, GNU Radio
  blocks mapped to radioflow's and checked, connections through virtual sinks/sources and
  bypassed blocks, GUI blocks headless. It leaves the Python entries to this module.
- ``epy_module``: its ``source_code`` becomes a module of the block's name (importable as
  ``import NAME`` while the flowgraph lives), named in the expressions of variables, in
  embedded blocks' arguments and in snippets. A variable whose expression names a module is
  evaluated here, in Python, and given to the loader as a value.
- ``epy_block``: its ``_source_code`` runs as a module; the first class it defines that is a
  GNU Radio block class (``gr.sync_block``, ``gr.decim_block``, ``gr.interp_block``,
  ``gr.basic_block``) is made with the arguments of its ``__init__`` the file gives, each an
  expression evaluated in Python with the file's imports, variables and modules, as GRC's
  generated script does.
- ``snippet``: its code runs as the body of a function of ``self`` (the top block) at its
  section (``init_before_blocks``, ``main_after_init``, ``main_after_start``,
  ``main_after_stop``), the higher ``priority`` first, as GRC orders them.

Errors in the embedded code name the file, the block and the line.
"""

from __future__ import annotations

import inspect
import keyword
import re
import signal
import sys
import threading
import traceback
import types
from typing import Any, Dict, List, Optional, Tuple

from .. import _native
from .._sync_block import SyncBlock

SECTIONS = ("init_before_blocks", "main_after_init", "main_after_start", "main_after_stop")

# What GRC's generated script imports whatever the flowgraph holds, and the modules of the
# blocks a flowgraph names (each block's `templates.imports`).
_PREAMBLE = """\
from gnuradio import gr, blocks, analog, filter, fft, digital, channels, pdu, pmt
from gnuradio.filter import firdes
from gnuradio.fft import window
from gnuradio import eng_notation
import math
import numpy
import numpy as np
"""


class GrcError(Exception):
    """A ``.grc`` file's embedded Python failed or was refused: the message names the file, the
    block and (for code) the line."""


def _where(path: str, name: str) -> str:
    return f"{path}: block '{name}'"


def _line_in(exc: BaseException, filename: str) -> Optional[int]:
    """The line of `filename` (an embedded block's code) deepest in `exc`'s traceback."""
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return exc.lineno
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    return line


def _fail(path: str, name: str, filename: str, what: str, exc: BaseException) -> GrcError:
    line = _line_in(exc, filename)
    at = f", line {line}" if line is not None else ""
    return GrcError(f"{_where(path, name)} ({what}){at}: {type(exc).__name__}: {exc}")


def _run_code(code: str, filename: str, namespace: Dict[str, Any]) -> None:
    # `compile` with the block's name as the file name: tracebacks and errors name the block.
    exec(compile(code, filename, "exec"), namespace)  # noqa: S102 - the file's own code (GRC runs it too)


class GrcBlock:
    """A library block of a loaded file, as GRC's generated class holds it (``self.vsink``):
    ``data()`` a list and ``tags()`` ``gr.tag_t``s, as GNU Radio's sinks give them; the native
    block is ``native`` (its other methods are reached through this one). GNU Radio's setters
    (``set_frequency``) are not here: a running block's parameters change through its message
    inputs (``radioflow grc list ID`` names the settable ones)."""

    def __init__(self, name: str, native: Any) -> None:
        self.native = native
        self._rf_name = name

    def data(self) -> List[Any]:
        return self.native.data().tolist()

    def tags(self) -> List[Any]:
        from .gr import tag_t

        return [tag_t.from_tuple(t) for t in self.native.tags()]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_rf_") or name == "native":
            raise AttributeError(name)
        return getattr(self.native, name)

    def __repr__(self) -> str:
        return f"<GRC block {self._rf_name}: {self.native!r}>"


def _native_of(point: Any) -> Any:
    if isinstance(point, tuple) and len(point) == 2:
        return (_native_of(point[0]), point[1])
    return point.native if isinstance(point, GrcBlock) else point


def _top_block_class() -> type:
    from . import gr

    class GrcTopBlock(gr.top_block):  # type: ignore[misc, valid-type]
        """``gr.top_block`` that connects a file's blocks as GRC's class holds them."""

        def connect(self, *points: Any) -> None:
            super().connect(*[_native_of(p) for p in points])

        def msg_connect(self, *args: Any) -> None:
            super().msg_connect(*[_native_of(a) for a in args])

    return GrcTopBlock


class _Snippet:
    def __init__(self, name: str, section: str, priority: int, code: str, filename: str) -> None:
        self.name = name
        self.section = section
        self.priority = priority
        self.code = code
        self.filename = filename


class GrcFlowgraph:
    """A loaded ``.grc`` file: ``tb`` (the ``gr.top_block``, with the file's variables and
    blocks as attributes, as GRC's generated class has them), ``run()``, and the snippets
    run at their sections (``snippets(section)``)."""

    def __init__(self, path: str) -> None:
        from . import install

        install()  # `from gnuradio import gr` in the embedded code is radioflow's
        self.path = str(path)
        self.namespace: Dict[str, Any] = {"__name__": "__grc__", "__builtins__": __builtins__}
        _run_code(_PREAMBLE, "<radioflow.gnuradio.grc preamble>", self.namespace)
        self.modules: Dict[str, types.ModuleType] = {}
        self.snips: List[_Snippet] = []
        self.stopped = False
        try:
            # First what the file holds (its blocks checked, not made: a variable may name an
            # epy_module, valued here), then the graph made with those values.
            read = _native.grc_embedded(self.path, {}, False)
            self._imports(read["python"])
            self._make_modules(read["python"])
            values = self._python_variables(read)
            read = _native.grc_embedded(self.path, values)
        except OSError as e:
            raise GrcError(str(e)) from e
        if "error" in read:
            raise GrcError(str(read["error"]))
        for name, _text, value, _err in read["variables"]:
            if value is not None or name in values:
                self.namespace[name] = values.get(name, value)
        self.tb = _top_block_class()(self._title(read))
        for name, value in self._variables(read, values).items():
            setattr(self.tb, name, value)
        self._collect_snippets(read["python"])
        self.snippets("init_before_blocks")
        handles: Dict[str, Any] = {}
        for name, handle in read["blocks"]:
            handles[name] = GrcBlock(name, handle)
        for name, id_, params in read["python"]:
            if id_ == "epy_block":
                handles[name] = self._make_block(name, params)
        for name, b in handles.items():
            if name.isidentifier() and not keyword.iskeyword(name):
                setattr(self.tb, name, b)
        self.notes: List[str] = list(read["notes"])
        for name, b in handles.items():
            self.tb.connect(b)
        for src, sp, dst, dp in read["streams"]:
            self.tb.connect((handles[src], sp), (handles[dst], dp))
        for src, sp, dst, dp in read["messages"]:
            self.tb.msg_connect((handles[src], sp), (handles[dst], dp))
        # By name: the Python blocks, and the library blocks as GrcBlock.
        self.blocks = handles

    # -- reading --------------------------------------------------------------------------

    def _title(self, read: Dict[str, Any]) -> str:
        return self.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]

    def _imports(self, entries: List[Tuple[str, str, Dict[str, str]]]) -> None:
        for name, id_, params in entries:
            if id_ == "import":
                filename = f"{self.path}:{name}"
                try:
                    _run_code(params.get("imports", ""), filename, self.namespace)
                except Exception as e:  # noqa: BLE001 - reported with the block's name
                    raise _fail(self.path, name, filename, "import", e) from e

    def _make_modules(self, entries: List[Tuple[str, str, Dict[str, str]]]) -> None:
        for name, id_, params in entries:
            if id_ != "epy_module":
                continue
            filename = f"{self.path}:{name}"
            module = types.ModuleType(name)
            module.__file__ = filename
            sys.modules[name] = module
            try:
                _run_code(params.get("source_code", ""), filename, module.__dict__)
            except Exception as e:  # noqa: BLE001
                del sys.modules[name]
                raise _fail(self.path, name, filename, "epy_module", e) from e
            self.modules[name] = module
            self.namespace[name] = module

    def _python_variables(self, read: Dict[str, Any]) -> Dict[str, Any]:
        """The variables whose expression names an epy_module, evaluated here (the others
        the loader values), repeated while one more gets a value."""
        if not self.modules:
            return {}
        names = "|".join(re.escape(m) for m in self.modules)
        uses = re.compile(rf"\b({names})\b")
        known = {n: v for n, _t, v, _e in read["variables"] if v is not None}
        pending = {n: t for n, t, _v, _e in read["variables"] if uses.search(t)}
        values: Dict[str, Any] = {}
        while pending:
            done = []
            last: Dict[str, BaseException] = {}
            for name, text in pending.items():
                scope = dict(self.namespace)
                scope.update(known)
                scope.update(values)
                try:
                    values[name] = eval(text, scope)  # noqa: S307 - the file's own expression
                    done.append(name)
                except NameError as e:
                    last[name] = e
                except Exception as e:  # noqa: BLE001
                    raise _fail(self.path, name, "<expression>", "variable", e) from e
            if not done:
                name, e = next(iter(last.items()))
                raise GrcError(f"{_where(self.path, name)} (variable): {e}")
            for name in done:
                del pending[name]
        return values

    def _variables(self, read: Dict[str, Any], values: Dict[str, Any]) -> Dict[str, Any]:
        out = {n: v for n, _t, v, _e in read["variables"] if v is not None}
        out.update(values)
        return out

    def _collect_snippets(self, entries: List[Tuple[str, str, Dict[str, str]]]) -> None:
        for name, id_, params in entries:
            if id_ != "snippet":
                continue
            section = params.get("section", "main_after_init")
            if section not in SECTIONS:
                raise GrcError(
                    f"{_where(self.path, name)} (snippet): section {section!r} is not one of "
                    f"GRC's ({', '.join(SECTIONS)})"
                )
            try:
                priority = int(params.get("priority", "0") or "0")
            except ValueError:
                raise GrcError(
                    f"{_where(self.path, name)} (snippet): priority "
                    f"{params.get('priority')!r} is not a whole number"
                ) from None
            self.snips.append(
                _Snippet(name, section, priority, params.get("code", ""), f"{self.path}:{name}")
            )
        # GRC's order: the higher priority first, the file's order between equals.
        self.snips.sort(key=lambda s: -s.priority)

    def _make_block(self, name: str, params: Dict[str, str]) -> Any:
        filename = f"{self.path}:{name}"
        module = types.ModuleType(name)
        module.__file__ = filename
        try:
            _run_code(params.get("_source_code", ""), filename, module.__dict__)
        except Exception as e:  # noqa: BLE001
            raise _fail(self.path, name, filename, "epy_block", e) from e
        cls = _block_class(module)
        if cls is None:
            raise GrcError(
                f"{_where(self.path, name)} (epy_block): its code defines no block class (a "
                "subclass of gr.sync_block, gr.decim_block, gr.interp_block or gr.basic_block)"
            )
        kwargs: Dict[str, Any] = {}
        scope = dict(self.namespace)
        scope["self"] = self.tb
        for arg in list(inspect.signature(cls.__init__).parameters)[1:]:
            if arg not in params:
                continue
            text = params[arg]
            try:
                kwargs[arg] = eval(text, scope)  # noqa: S307 - the file's own expression
            except Exception as e:  # noqa: BLE001
                raise GrcError(
                    f"{_where(self.path, name)} (epy_block): parameter {arg} = {text!r}: "
                    f"{type(e).__name__}: {e}"
                ) from e
        try:
            return cls(**kwargs)
        except Exception as e:  # noqa: BLE001
            raise _fail(self.path, name, filename, f"epy_block {cls.__name__}", e) from e

    # -- running --------------------------------------------------------------------------

    def snippets(self, section: str) -> None:
        """Runs the snippets of `section` (one of :data:`SECTIONS`)."""
        for s in self.snips:
            if s.section != section:
                continue
            # The code runs with `self` the top block, as in GRC's function of `self`; compiled
            # as it is written, so that its line numbers are the snippet's own.
            scope = dict(self.namespace)
            scope["self"] = self.tb
            try:
                _run_code(s.code, s.filename, scope)
            except Exception as e:  # noqa: BLE001
                raise _fail(self.path, s.name, s.filename, f"snippet {section}", e) from e

    def run(self, seconds: Optional[float] = None) -> None:
        """Runs as GRC's generated ``main`` does: snippets after init, start, snippets after
        start, wait (or `seconds`, or Ctrl-C: then ``stopped`` is true), stop, snippets after
        stop."""
        self.snippets("main_after_init")
        self.tb.start()
        self.snippets("main_after_start")
        done = threading.Event()
        waiter = threading.Thread(target=lambda: (self.tb.wait(), done.set()), daemon=True)
        previous = signal.getsignal(signal.SIGINT)

        def interrupt(_sig: int, _frame: Any) -> None:
            self.stopped = True
            self.tb.stop()

        in_main = threading.current_thread() is threading.main_thread()
        if in_main:
            signal.signal(signal.SIGINT, interrupt)
        try:
            waiter.start()
            done.wait(seconds)
            if not done.is_set():
                self.stopped = True
                self.tb.stop()
            waiter.join()
        finally:
            if in_main:
                signal.signal(signal.SIGINT, previous)
        self.snippets("main_after_stop")


def _block_class(module: types.ModuleType) -> Optional[type]:
    """The first class `module` defines that is a block, as GRC picks it."""
    for value in vars(module).values():
        if (
            inspect.isclass(value)
            and value.__module__ == module.__name__
            and issubclass(value, SyncBlock)
        ):
            return value
    return None


def load(path: str) -> GrcFlowgraph:
    """Loads the ``.grc`` file at `path` (running its embedded Python: trusted files only)."""
    return GrcFlowgraph(path)


def run(path: str, seconds: Optional[float] = None) -> GrcFlowgraph:
    """Loads and runs the ``.grc`` file at `path` until it ends (or for `seconds`)."""
    fg = load(path)
    for note in fg.notes:
        print(f"{path}: {note}", file=sys.stderr)
    fg.run(seconds)
    return fg
