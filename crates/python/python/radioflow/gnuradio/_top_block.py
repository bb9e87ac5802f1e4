"""GNU Radio's ``gr.top_block`` over a radioflow :class:`~radioflow.Flowgraph`.

Connections are recorded as GNU Radio's calls give them and the native graph is made when the
flowgraph starts: a block made from an item size alone (``blocks.head(gr.sizeof_float, n)``)
then takes the item type of the block it is connected to, as GNU Radio's untyped streams do."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

from .. import _native
from .._flowgraph import Flowgraph
from .._sync_block import SyncBlock
from ._block import GrBlock
from ._hier_block import flatten, hier_block2

Endpoint = Tuple[Any, Any]


def _endpoint(e: Any) -> Endpoint:
    if isinstance(e, tuple):
        if len(e) != 2:
            raise ValueError(f"an endpoint is a block or (block, port), not {e!r}")
        return e[0], e[1]
    return e, 0


def _check_block(b: Any) -> None:
    if not isinstance(b, (GrBlock, SyncBlock, _native.Block, hier_block2)):
        raise TypeError(
            f"{b!r} is not a block radioflow.gnuradio runs (its modules' blocks, gr.sync_block, "
            "gr.decim_block, gr.interp_block)"
        )


class top_block:  # noqa: N801 - GNU Radio's name
    """GNU Radio's ``gr.top_block``: ``connect``, ``msg_connect``, ``start``/``stop``/``wait``/
    ``run``, ``lock``/``unlock`` (no changes while running: radioflow does not reconfigure a
    running graph yet)."""

    def __init__(self, name: str = "top_block", catch_exceptions: bool = True) -> None:
        self._rf_name = str(name)
        self._rf_fg = Flowgraph()
        self._rf_blocks: List[Any] = []
        self._rf_edges: List[Tuple[Endpoint, Endpoint]] = []
        self._rf_msg_edges: List[Tuple[Endpoint, Endpoint]] = []
        self._rf_handles: Dict[int, Any] = {}
        self._rf_built = False
        self._rf_locked = 0
        self._rf_max_noutput: Optional[int] = None

    def name(self) -> str:
        return self._rf_name

    # -- building ---------------------------------------------------------------------------

    def _rf_add(self, b: Any) -> None:
        _check_block(b)
        if not any(b is x for x in self._rf_blocks):
            self._rf_blocks.append(b)

    def _rf_changing(self, what: str) -> None:
        if self._rf_built:
            raise _native.ConnectError(
                f"top_block '{self._rf_name}': {what} after the flowgraph started: radioflow "
                "does not reconfigure a started graph yet (build a new top_block)"
            )

    def connect(self, *points: Any) -> None:
        """``connect(a, b)``, ``connect((a, 1), (b, 0))``, a chain ``connect(a, b, c)``, or
        ``connect(a)`` to add a block alone."""
        if not points:
            raise ValueError("connect needs at least one block")
        self._rf_changing("connect")
        ends = [_endpoint(p) for p in points]
        for b, _ in ends:
            self._rf_add(b)
        for src, dst in zip(ends, ends[1:]):
            self._rf_edges.append((src, dst))

    def disconnect(self, *points: Any) -> None:
        """Removes connections made with the same arguments (before the flowgraph starts)."""
        self._rf_changing("disconnect")
        ends = [_endpoint(p) for p in points]
        for src, dst in zip(ends, ends[1:]):
            for i, (s, d) in enumerate(self._rf_edges):
                if s[0] is src[0] and s[1] == src[1] and d[0] is dst[0] and d[1] == dst[1]:
                    del self._rf_edges[i]
                    break
            else:
                raise ValueError(f"disconnect: {src} -> {dst} is not connected")

    def disconnect_all(self) -> None:
        self._rf_changing("disconnect_all")
        self._rf_edges.clear()
        self._rf_msg_edges.clear()
        self._rf_blocks.clear()

    def msg_connect(self, *args: Any) -> None:
        """``msg_connect(src, "out", dst, "in")`` or ``msg_connect((src, "out"), (dst, "in"))``."""
        self._rf_changing("msg_connect")
        if len(args) == 4:
            src, dst = (args[0], args[1]), (args[2], args[3])
        elif len(args) == 2 and all(isinstance(a, tuple) and len(a) == 2 for a in args):
            src, dst = args
        else:
            raise ValueError(
                "msg_connect(src, src_port, dst, dst_port) or msg_connect((src, port), (dst, port))"
            )
        self._rf_add(src[0])
        self._rf_add(dst[0])
        self._rf_msg_edges.append((src, dst))

    def msg_disconnect(self, *args: Any) -> None:
        self._rf_changing("msg_disconnect")
        raise NotImplementedError("radioflow.gnuradio: msg_disconnect is not implemented yet")

    def _rf_handle(self, b: Any) -> Any:
        return self._rf_handles[id(b)]

    def _rf_types(self, handle: Any, outputs: bool, port: Any) -> Optional[Tuple[str, int]]:
        if not isinstance(port, int):
            return None
        types = self._rf_fg._native.stream_types(self._rf_fg._handle(handle), outputs)
        if port >= len(types) or types[port][0] is None:
            return None
        return types[port][0], types[port][1]

    def _rf_build(self) -> None:
        """Makes the native graph: every block, the item types sizes left open, the edges."""
        if self._rf_built:
            return
        # Hier blocks flattened: their inner blocks and connections in place of them.
        self._rf_edges, self._rf_msg_edges = flatten(
            self._rf_edges, self._rf_msg_edges, self._rf_blocks
        )
        self._rf_blocks = [b for b in self._rf_blocks if not isinstance(b, hier_block2)]
        for (sb, _), (db, _) in self._rf_edges + self._rf_msg_edges:
            for b in (sb, db):
                if not any(b is x for x in self._rf_blocks):
                    self._rf_blocks.append(b)
        open_blocks: List[GrBlock] = []
        for b in self._rf_blocks:
            if isinstance(b, GrBlock):
                if b._rf_joined:
                    raise _native.ConnectError(f"{b!r} already belongs to another flowgraph")
                if len(b._rf_candidates) == 1:
                    self._rf_handles[id(b)] = b._rf_make(b._rf_candidates[0])
                else:
                    open_blocks.append(b)
            else:
                self._rf_handles[id(b)] = b
        while open_blocks:
            progress = False
            for b in list(open_blocks):
                choice = self._rf_neighbour_choice(b)
                if choice is not None:
                    self._rf_handles[id(b)] = b._rf_make(choice)
                    open_blocks.remove(b)
                    progress = True
            if not progress:
                # Only blocks of open type around: the first choice (vector length 1, GNU
                # Radio's order of the types: complex, float, int, short, byte).
                b = open_blocks.pop(0)
                self._rf_handles[id(b)] = b._rf_make(b._rf_candidates[0])
        for b in self._rf_blocks:
            self._rf_fg.add(self._rf_handle(b))
            if isinstance(b, GrBlock):
                b._rf_joined = True
                b._rf_graph = self._rf_fg
        for (sb, sp), (db, dp) in self._rf_edges:
            self._rf_fg.connect((self._rf_handle(sb), sp), (self._rf_handle(db), dp))
        for (sb, sp), (db, dp) in self._rf_msg_edges:
            self._rf_fg.msg_connect(self._rf_handle(sb), sp, self._rf_handle(db), dp)
        if self._rf_max_noutput is not None:
            for b in self._rf_blocks:
                self._rf_fg.set_max_items(self._rf_handle(b), self._rf_max_noutput)
        self._rf_built = True

    def _rf_neighbour_choice(self, b: GrBlock) -> Optional[Dict[str, Any]]:
        """The choice of `b` whose items are those of a neighbour already made."""
        for (sb, sp), (db, dp) in self._rf_edges:
            if db is b and id(sb) in self._rf_handles:
                want = self._rf_types(self._rf_handle(sb), True, sp)
            elif sb is b and id(db) in self._rf_handles:
                want = self._rf_types(self._rf_handle(db), False, dp)
            else:
                continue
            if want is None:
                continue
            for choice, made in b._rf_sizes():
                if made == want:
                    return choice
            # A byte stream feeds signed and unsigned bytes alike.
            for choice, made in b._rf_sizes():
                if made[1] == want[1] and {made[0], want[0]} <= {"int8", "uint8"}:
                    return choice
        return None

    # -- running ----------------------------------------------------------------------------

    def start(self, max_noutput_items: Optional[int] = None) -> None:
        """Builds the native graph (first time) and starts it, on the scheduler the environment
        variable ``RADIOFLOW_SCHEDULER`` names (a spec such as ``tpb`` or ``flow:workers=2``;
        radioflow's default when unset)."""
        if max_noutput_items is not None:
            self.set_max_noutput_items(max_noutput_items)
        self._rf_build()
        self._rf_fg.start(os.environ.get("RADIOFLOW_SCHEDULER") or None)

    def wait(self) -> None:
        self._rf_fg.wait()

    def stop(self) -> None:
        self._rf_fg.stop()

    def run(self, max_noutput_items: Optional[int] = None) -> None:
        self.start(max_noutput_items)
        self.wait()

    def lock(self) -> None:
        """GNU Radio's lock before reconfiguring: allowed, but connect/disconnect after the
        start raise (radioflow does not reconfigure a started graph yet)."""
        self._rf_locked += 1

    def unlock(self) -> None:
        if self._rf_locked == 0:
            raise RuntimeError(f"top_block '{self._rf_name}': unlock without lock")
        self._rf_locked -= 1

    def set_max_noutput_items(self, n: int) -> None:
        self._rf_changing("set_max_noutput_items")
        self._rf_max_noutput = int(n)

    def max_noutput_items(self) -> int:
        return self._rf_max_noutput or 0

    def flowgraph(self) -> Flowgraph:
        """The radioflow flowgraph behind (counters, profile, live page)."""
        self._rf_build()
        return self._rf_fg
