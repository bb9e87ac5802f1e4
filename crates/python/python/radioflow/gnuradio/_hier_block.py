"""GNU Radio's ``gr.hier_block2``: blocks connected inside a block, with its own stream and
message ports. radioflow flattens it when the top_block is made: a connection to the hier
block's input ``i`` goes to every block its input ``i`` is connected to inside, one from its
output ``o`` comes from the block connected to it inside (nested hier blocks too)."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

Endpoint = Tuple[Any, Any]


def endpoint(e: Any) -> Endpoint:
    if isinstance(e, tuple):
        if len(e) != 2:
            raise ValueError(f"an endpoint is a block or (block, port), not {e!r}")
        return e[0], e[1]
    return e, 0


class hier_block2:  # noqa: N801 - GNU Radio's name
    """``gr.hier_block2(name, input_signature, output_signature)``; ``self.connect`` with
    ``self`` (or ``(self, port)``) for its own ports, ``msg_connect``,
    ``message_port_register_hier_in/out``."""

    def __init__(self, name: str = "hier_block2", input_signature: Any = None,
                 output_signature: Any = None) -> None:
        self._rf_name = str(name)
        self._rf_edges: List[Tuple[Endpoint, Endpoint]] = []
        self._rf_msg_edges: List[Tuple[Endpoint, Endpoint]] = []
        self._rf_in_sig = input_signature
        self._rf_out_sig = output_signature

    def name(self) -> str:
        return self._rf_name

    def connect(self, *points: Any) -> None:
        if len(points) < 2:
            return  # connect(block) only adds a block: it joins when connected
        ends = [endpoint(p) for p in points]
        for src, dst in zip(ends, ends[1:]):
            self._rf_edges.append((src, dst))

    def disconnect(self, *points: Any) -> None:
        ends = [endpoint(p) for p in points]
        for src, dst in zip(ends, ends[1:]):
            for i, (s, d) in enumerate(self._rf_edges):
                if s[0] is src[0] and s[1] == src[1] and d[0] is dst[0] and d[1] == dst[1]:
                    del self._rf_edges[i]
                    break
            else:
                raise ValueError(f"disconnect: {src} -> {dst} is not connected")

    def msg_connect(self, *args: Any) -> None:
        if len(args) == 4:
            src, dst = (args[0], args[1]), (args[2], args[3])
        elif len(args) == 2:
            src, dst = args
        else:
            raise ValueError("msg_connect(src, src_port, dst, dst_port) or msg_connect((src, port), (dst, port))")
        self._rf_msg_edges.append((src, dst))

    def message_port_register_hier_in(self, port: Any) -> None:
        """Declares message input `port` (connect it inside with msg_connect(self, port, ...))."""

    def message_port_register_hier_out(self, port: Any) -> None:
        """Declares message output `port` (msg_connect(inner, port, self, port))."""

    def lock(self) -> None:
        pass

    def unlock(self) -> None:
        pass


def _hier_blocks(edges: List[Tuple[Endpoint, Endpoint]], blocks: List[Any]) -> List[hier_block2]:
    """Every hier block `edges` or `blocks` name, and those inside them, by stream or
    message."""
    found: Dict[int, hier_block2] = {}

    def collect(e: List[Tuple[Endpoint, Endpoint]]) -> None:
        for s, d in e:
            for b in (s[0], d[0]):
                if isinstance(b, hier_block2) and id(b) not in found:
                    found[id(b)] = b
                    collect(b._rf_edges + b._rf_msg_edges)

    collect(edges + [((b, None), (b, None)) for b in blocks])
    return list(found.values())


def flatten(
    edges: List[Tuple[Endpoint, Endpoint]],
    msg_edges: List[Tuple[Endpoint, Endpoint]],
    blocks: List[Any],
) -> Tuple[List[Tuple[Endpoint, Endpoint]], List[Tuple[Endpoint, Endpoint]]]:
    """The stream and message connections with every hier block's ports replaced by the
    blocks inside, and their inner connections added (`blocks`: blocks added alone, hier
    blocks among them)."""
    hiers = _hier_blocks(edges + msg_edges, blocks)

    def one(top: List[Tuple[Endpoint, Endpoint]], msg: bool) -> List[Tuple[Endpoint, Endpoint]]:
        def inner(b: hier_block2) -> List[Tuple[Endpoint, Endpoint]]:
            return b._rf_msg_edges if msg else b._rf_edges

        def sources(end: Endpoint) -> List[Endpoint]:
            b, port = end
            if not isinstance(b, hier_block2):
                return [end]
            found = [s for s, d in inner(b) if d[0] is b and d[1] == port]
            if not found:
                raise ValueError(
                    f"hier block '{b.name()}': nothing is connected to its output {port!r}"
                )
            return [x for s in found for x in sources(s)]

        def sinks(end: Endpoint) -> List[Endpoint]:
            b, port = end
            if not isinstance(b, hier_block2):
                return [end]
            return [x for s, d in inner(b) if s[0] is b and s[1] == port for x in sinks(d)]

        every = list(top)
        for hb in hiers:
            every += [(s, d) for s, d in inner(hb) if s[0] is not hb and d[0] is not hb]
        return [(src, dst) for s, d in every for src in sources(s) for dst in sinks(d)]

    return one(edges, False), one(msg_edges, True)
