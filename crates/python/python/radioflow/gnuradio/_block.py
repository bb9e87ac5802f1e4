"""A block of the native library made by GNU Radio's constructor (``blocks.head(gr.sizeof_float,
10)``): the GRC parameters the constructor's arguments are, mapped through the GNU Radio table
when its flowgraph starts (a block made from an item size alone takes the item type of the block
it is connected to then)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from .. import _native
from .._native import Block
from ._tags import tag_t
from ._values import value as _value


class GrBlock:
    """A native block as GNU Radio's Python makes it. ``sink.data()``, ``sink.tags()`` and the
    other calls of :class:`radioflow.Block` work once its flowgraph has run."""

    def __init__(
        self,
        path: str,
        grc_id: str,
        params: Dict[str, Any],
        candidates: List[Dict[str, Any]],
        methods: Dict[str, List[str]],
        callbacks: Optional[Dict[str, List[str]]] = None,
    ) -> None:
        self._rf_path = path
        self._rf_id = grc_id
        self._rf_params = params
        # The choices of item type (GRC parameters such as {"type": "float", "vlen": 1}) an
        # item size leaves open; one entry when the constructor names the type.
        self._rf_candidates = candidates
        self._rf_methods = methods
        # GRC's callbacks (`set_k`: the GRC keys it sets): setters, also while the graph runs.
        self._rf_callbacks = callbacks or {}
        # The native parameters the block was made with, and the flowgraph it joined.
        self._rf_mapped: Dict[str, Any] = {}
        self._rf_graph: Any = None
        self._rf_handle: Optional[Block] = None
        self._rf_choice: Optional[Dict[str, Any]] = None
        self._rf_alias: Optional[str] = None
        # Set when its flowgraph has made the native graph: the block is then fixed.
        self._rf_joined = False
        # Made now, so that what radioflow does not run is refused here, as GNU Radio's
        # constructor refuses a bad argument.
        self._rf_make(candidates[0])

    def _rf_map(self, choice: Dict[str, Any]) -> Tuple[str, Optional[str], Dict[str, Any]]:
        params = dict(self._rf_params)
        params.update(choice)
        try:
            return _native.gnuradio_map(self._rf_id, params)
        except ValueError as e:
            raise ValueError(f"{self._rf_path}: {e}") from None

    def _rf_make(self, choice: Dict[str, Any]) -> Block:
        """The native block, made with item-type choice `choice` (again if the choice or a
        parameter changed before it joined its flowgraph)."""
        if self._rf_handle is None or (not self._rf_joined and self._rf_choice != choice):
            block, dtype, params = self._rf_map(choice)
            self._rf_mapped = params
            try:
                self._rf_handle = _native.make_block(block, dtype, params, name=self._rf_alias)
            except (ValueError, TypeError) as e:
                raise type(e)(f"{self._rf_path}: {e}") from None
            self._rf_choice = dict(choice)
        return self._rf_handle

    def _rf_changed(self, what: str) -> None:
        if self._rf_joined:
            raise _native.Error(f"{self._rf_path}: {what} must be called before the flowgraph starts")
        choice = self._rf_choice or self._rf_candidates[0]
        self._rf_handle = None
        self._rf_make(choice)

    def _rf_sizes(self) -> List[Tuple[Dict[str, Any], Tuple[Optional[str], int]]]:
        """Each candidate with the (dtype, vlen) of the items it makes."""
        out = []
        for c in self._rf_candidates:
            _, dtype, params = self._rf_map(c)
            out.append((c, (dtype, int(c.get("vlen", params.get("vlen", 1)) or 1))))
        return out

    # -- GNU Radio's block calls ------------------------------------------------------------

    def set_block_alias(self, alias: str) -> None:
        """Names the block in the flowgraph (its counters, errors, the live page)."""
        self._rf_alias = str(alias)
        self._rf_changed("set_block_alias")

    def alias(self) -> str:
        return self._rf_alias or self.name()

    def name(self) -> str:
        return self._rf_path.rpartition(".")[2]

    def data(self) -> List[Any]:
        """What a vector sink received, as GNU Radio gives it: a list of Python numbers
        (``self.flowgraph()``'s blocks give radioflow's numpy array, without a copy)."""
        return self._rf_native("data").data().tolist()

    def tags(self) -> List[tag_t]:
        """The tags a sink received, as ``gr.tag_t``."""
        return [tag_t.from_tuple(t) for t in self._rf_native("tags").tags()]

    def _rf_native(self, what: str) -> Block:
        if self._rf_handle is None or not self._rf_joined:
            raise _native.Error(
                f"{self._rf_path}: {what}() reads the block after its flowgraph has started"
            )
        return self._rf_handle

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_rf_"):
            raise AttributeError(name)
        keys = self._rf_callbacks.get(name)
        if keys is not None:
            def setter(*values: Any) -> None:
                self._rf_set(name, keys, values)

            setter.__name__ = name
            return setter
        keys = self._rf_methods.get(name)
        if keys is not None:
            def set_before_start(*values: Any) -> None:
                if len(values) != len(keys):
                    raise TypeError(f"{self._rf_path}.{name} takes {len(keys)} arguments")
                old = dict(self._rf_params)
                for key, value in zip(keys, values):
                    self._rf_params[key] = _value(value)
                try:
                    self._rf_changed(name)
                except Exception:
                    self._rf_params = old
                    raise

            return set_before_start
        if name in ("reset", "messages", "count", "stats", "type_name"):
            return getattr(self._rf_native(name), name)
        if name.startswith("set_"):
            raise AttributeError(
                f"{self._rf_path}: {name} is not one of GNU Radio's GRC callbacks of "
                f"{self._rf_id} ({', '.join(sorted(self._rf_callbacks)) or 'it has none'})"
            )
        raise AttributeError(f"{self._rf_path} has no attribute {name!r} in radioflow.gnuradio")

    def _rf_set(self, name: str, keys: List[str], values: Tuple[Any, ...]) -> None:
        """GRC callback `name` (GRC keys `keys`) called with `values`: before the start the
        block is made again; while the graph runs, each native parameter the new values
        change is posted to the message input of its name (the block's settable parameters,
        applied between two calls of its work); a change to one that is not settable raises
        ValueError naming it, and nothing is changed."""
        if len(values) != len(keys):
            raise TypeError(f"{self._rf_path}.{name} takes {len(keys)} arguments")
        old = dict(self._rf_params)
        for key, value in zip(keys, values):
            self._rf_params[key] = _value(value)
        try:
            if not self._rf_joined:
                self._rf_changed(name)
                return
            block, _, params = self._rf_map(self._rf_choice or self._rf_candidates[0])
            changed = {k: v for k, v in params.items() if self._rf_mapped.get(k) != v}
            fixed = sorted(set(changed) - _settable(block))
            if fixed:
                raise ValueError(
                    f"{self._rf_path}.{name}: radioflow's {block} cannot change "
                    f"{', '.join(fixed)} while the flowgraph runs (settable: "
                    f"{', '.join(sorted(_settable(block))) or 'none'})"
                )
        except Exception:
            self._rf_params = old
            raise
        graph = self._rf_graph
        if graph is not None and graph.is_running():
            for k, v in changed.items():
                graph._native.post(self._rf_handle, k, v)
        self._rf_mapped = params

    def __repr__(self) -> str:
        return f"<radioflow.gnuradio {self._rf_path} ({self._rf_id})>"


_SETTABLE: Dict[str, Set[str]] = {}


def _settable(block: str) -> Set[str]:
    """The parameters of native block `block` a message to the input of their name sets."""
    if not _SETTABLE:
        for d in _native.block_library():
            _SETTABLE[d["id"]] = {p["name"] for p in d["params"] if p["settable"]}
    return _SETTABLE.get(block, set())
