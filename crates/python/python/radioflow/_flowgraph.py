"""The flowgraph: GNU Radio's ``top_block`` API over the native runtime."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._native import Block, ConnectError, Scheduler
from ._sync_block import SyncBlock

AnyBlock = Union[Block, SyncBlock]
Port = Union[int, str]
Endpoint = Union[AnyBlock, Tuple[AnyBlock, Port]]
SchedulerLike = Union[None, str, Scheduler]


class Flowgraph:
    """A graph of blocks (GNU Radio's ``gr.top_block``).

    Blocks join the flowgraph when first connected. ``run()`` starts the graph and waits for it
    with the interpreter released; Ctrl-C stops it cleanly (the threads are joined) and raises
    KeyboardInterrupt. ``start()``, ``stop()`` and ``wait()`` do the same in steps.
    """

    def __init__(self) -> None:
        self._native = _native.Flowgraph()
        # Python blocks in this graph: id(block) -> (block, native handle). The graph keeps
        # its Python blocks alive; they do not refer back to it, so no reference cycle forms.
        self._python_blocks: Dict[int, Tuple[SyncBlock, Block]] = {}

    # -- blocks and connections -------------------------------------------------------------

    def _handle(self, block: Any) -> Block:
        if isinstance(block, Block):
            return block
        if isinstance(block, SyncBlock):
            known = self._python_blocks.get(id(block))
            if known is not None:
                return known[1]
            handle = block._rf_make_native()
            self._python_blocks[id(block)] = (block, handle)
            return handle
        raise TypeError(
            f"{block!r} is not a block: use radioflow.blocks.* or a radioflow.SyncBlock subclass"
        )

    @staticmethod
    def _endpoint(e: Any) -> Tuple[Any, Port]:
        if isinstance(e, tuple):
            if len(e) != 2:
                raise ValueError(f"an endpoint is a block or (block, port), not {e!r}")
            return e[0], e[1]
        return e, 0

    def add(self, block: AnyBlock) -> None:
        """Adds `block` without connecting it (blocks join when first connected anyway)."""
        self._native.add(self._handle(block))

    def connect(self, *endpoints: Endpoint) -> None:
        """Connects stream ports: ``connect(a, b)``, ``connect((a, 1), (b, "in"))``, or a
        chain ``connect(a, b, c)`` (port 0 of each)."""
        if len(endpoints) < 2:
            raise ValueError("connect needs at least two endpoints")
        for src, dst in zip(endpoints, endpoints[1:]):
            (sb, sp), (db, dp) = self._endpoint(src), self._endpoint(dst)
            self._native.connect(self._handle(sb), sp, self._handle(db), dp)

    def msg_connect(self, *args: Any) -> None:
        """Connects a message output to a message input: ``msg_connect(src, "out", dst,
        "in")`` or ``msg_connect((src, "out"), (dst, "in"))``."""
        if len(args) == 4:
            src, sp, dst, dp = args
        elif len(args) == 2 and all(isinstance(a, tuple) and len(a) == 2 for a in args):
            (src, sp), (dst, dp) = args
        else:
            raise ValueError(
                "msg_connect(src, src_port, dst, dst_port) or msg_connect((src, port), (dst, port))"
            )
        self._native.msg_connect(self._handle(src), sp, self._handle(dst), dp)

    # -- running ----------------------------------------------------------------------------

    @staticmethod
    def _scheduler(scheduler: SchedulerLike) -> Optional[Scheduler]:
        if scheduler is None or isinstance(scheduler, Scheduler):
            return scheduler
        if isinstance(scheduler, str):
            return Scheduler(scheduler)
        raise TypeError(f"scheduler is a name or a radioflow.Scheduler, not {scheduler!r}")

    def run(self, scheduler: SchedulerLike = None) -> None:
        """Runs the graph to the end on `scheduler` (``"flow"`` by default, ``"tpb"``,
        ``"single"`` or a :class:`Scheduler`)."""
        self._native.run(self._scheduler(scheduler))

    def start(self, scheduler: SchedulerLike = None) -> None:
        """Starts the graph and returns at once."""
        self._native.start(self._scheduler(scheduler))

    def wait(self, timeout: Optional[float] = None) -> None:
        """Waits for the graph to finish; raises RunError if a block failed. With `timeout`
        (seconds), raises RunError naming the blocks still inside their code and the others
        not finished if the graph has not finished by then (the run goes on: wait again, or
        stop and wait)."""
        self._native.wait(timeout)

    def stop(self) -> None:
        """Asks a running graph to stop (any thread); ``wait()`` then returns."""
        self._native.stop()

    def serve(
        self,
        address: str = "127.0.0.1:0",
        token: Optional[str] = None,
        probes: Sequence[str] = (),
        allowed_origins: Sequence[str] = (),
    ) -> str:
        """Serves the live view of this graph (a web page and a JSON API: the graph, live
        counters, settable parameters, probes' plots, stop) on `address` until the flowgraph
        is dropped, across its runs; returns the page's URL. ``"127.0.0.1:0"`` picks a free
        port. Any address but loopback requires `token` (generated when not given; it is in
        the URL; an empty one raises ValueError). `probes` (``"block.port"``) are added before
        :meth:`start` only. Only the page itself may write (writes are JSON) and open the
        counters' WebSocket; `allowed_origins` (``"http://dash.example:8080"``) lets pages of
        other origins do so too."""
        return self._native.serve(address, token, list(probes), list(allowed_origins))

    def is_running(self) -> bool:
        """Whether the graph was started and ``wait()`` has not returned."""
        return self._native.is_running()

    # -- settings and counters --------------------------------------------------------------

    def set_max_items(self, block: AnyBlock, items: int) -> None:
        """At most `items` items per work call of `block` (``set_max_noutput_items``)."""
        self._native.set_max_items(self._handle(block), items)

    def set_default_buffer_size(self, nbytes: int) -> None:
        """Buffer size of every connection, in bytes (rounded up to whole pages)."""
        self._native.set_default_buffer_size(nbytes)

    def set_counters(self, counters: str) -> None:
        """What the next runs record per block: ``"off"``, ``"counts"`` (default) or
        ``"timed"`` (adds the time spent in work)."""
        self._native.set_counters(counters)

    def counters(self) -> str:
        """What runs record per block."""
        return self._native.counters()

    def set_trace(self, events_per_block: Optional[int] = 65536) -> None:
        """Records a trace of the next runs (the last `events_per_block` work calls of each
        block); ``None`` turns it off. Write it with :meth:`write_trace`."""
        self._native.set_trace(events_per_block)

    def write_trace(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the last run's trace as Chrome trace-event JSON (opens in Perfetto)."""
        self._native.write_trace(os.fspath(path))

    def stats(self, block: AnyBlock) -> Dict[str, Any]:
        """Counters of `block`: live while the graph runs, else from the last run (work calls,
        items in and out, items per call, time in work, starved/full steps, messages)."""
        return self._handle(block).stats()

    def thread_stats(self) -> List[Dict[str, Any]]:
        """Context switches and CPU time (`cpu_seconds`) of each scheduler thread during the
        last run."""
        return self._native.thread_stats()

    def profile(self) -> str:
        """The last run as a table (share of time, throughput, latency per block; the
        bottleneck marked). Run with ``set_counters("timed")`` for the time columns."""
        return self._native.profile()

    def bottleneck(self) -> Optional[str]:
        """Name of the block with the largest share of time in the last timed run."""
        return self._native.bottleneck()

    def block_names(self) -> List[str]:
        """Instance names of the blocks, in the order they joined."""
        return self._native.block_names()

    # -- across hosts -----------------------------------------------------------------------

    def set_host(self, block: AnyBlock, host: str) -> None:
        """Runs `block` on host `host` when the graph runs across hosts
        (:meth:`run_on_hosts`). Only blocks of :mod:`radioflow.blocks` can go to another
        host (they are made again there from their parameters)."""
        self._native.set_host(self._handle(block), host)

    def run_on_hosts(
        self, hosts: Mapping[str, str], token: str, scheduler: str = "flow"
    ) -> Dict[str, Dict[str, Dict[str, int]]]:
        """Runs the graph across hosts: every block on the host :meth:`set_host` gave it,
        `hosts` mapping each host name to its ``radioflow serve`` (or :class:`HostServer`)
        address (``"10.0.0.2:7300"``), `token` the one they were started with, `scheduler`
        a scheduler spec every host uses (``"flow"``, ``"tpb"``, ``"flow:workers=2"``).
        Connections between hosts become ZeroMQ links. Waits until the graph ended on every
        host (a failure on one stops the others and raises RunError naming the host and
        block; Ctrl-C stops them all) and returns each host's block counters:
        ``{host: {block: {"consumed": n, "produced": n, "messages": n}}}``."""
        if not isinstance(scheduler, str):
            raise TypeError(
                f"run_on_hosts: scheduler is a spec string such as 'flow', not {scheduler!r}"
            )
        return self._native.run_on_hosts(dict(hosts), token, scheduler)


__all__ = ["Flowgraph", "ConnectError"]
