"""Runs GNU Radio's packet blocks on the same input as radioflow's tests/gnuradio_packets.rs,
in one process.

Reads a JSON job on stdin: {"pdu": [{"name", "make" (a GNU Radio constructor, Python),
"ports": [output ports], "pdus": [serialized PMT hex; the last ones markers (metadata with key
"marker"), one coming out on each port]}], "stream": [{"name", "make", "items": bytes hex, "tags": [[offset, key,
serialized value hex]]}], "parse": [{"name", "make", "bits": bytes hex}]}. Writes on stdout {name: {port: [serialized PMT hex]}} for the PDU
cases and {name: {"items": hex, "tags": [[offset, key, serialized value hex]]}} for the
stream cases, {name: [serialized PMT hex of each message on info]} for the parse
cases, as the last line (GNU Radio logs on stdout before it). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).

Message-only flowgraphs do not end by themselves in GNU Radio: each PDU case starts, posts,
polls until the marker is out (bounded: a hang guard), then stops.
"""

import json
import sys
import time

import numpy
import pmt
from gnuradio import blocks, digital, gr  # noqa: F401  (make strings name them)


def unhex(h):
    return pmt.deserialize_str(bytes.fromhex(h))


def tohex(p):
    return pmt.serialize_str(p).hex()


def wait_until(done):
    """Polls done() until it holds; a hang guard, not a timing: GNU Radio gives no event."""
    start = time.monotonic()
    while not done():
        if time.monotonic() - start > 60:
            raise SystemExit("GNU Radio did not produce the expected output within 60 s")
        time.sleep(0.001)


def verdict(header, at, length_key):
    """The verdict on a header, from its scalars at `at` (the first after the padding): a
    code, a length, an offset (see tests/gnuradio_packets.rs, demux_verdict)."""
    code, length, off = (int(round(complex(header[at + i]).real)) for i in range(3))
    key = pmt.intern(length_key)
    if code == 1:
        return pmt.from_long(length)
    if code == 2:
        d = pmt.dict_add(pmt.make_dict(), key, pmt.from_long(length))
        return pmt.dict_add(d, pmt.intern("extra"), pmt.from_long(7))
    if code == 3:
        d = pmt.dict_add(pmt.make_dict(), pmt.intern("payload_offset"), pmt.from_long(off - 8))
        return pmt.dict_add(d, key, pmt.from_long(length))
    if code == 4:
        return pmt.PMT_NIL
    if code == 5:
        return pmt.dict_add(pmt.make_dict(), pmt.intern("other"), pmt.from_long(length))
    if code == 6:
        return pmt.from_long(-2)
    return pmt.PMT_F


class Verdicts(gr.sync_block):
    """Reads whole headers and posts each one's verdict to the demux (GNU Radio's own
    qa_header_payload_demux does the same with a block of its own)."""

    def __init__(self, dtype, vlen, scalars, at, length_key):
        gr.sync_block.__init__(self, "verdicts", [(dtype, vlen)] if vlen > 1 else [dtype], [])
        self.message_port_register_out(pmt.intern("out"))
        self.scalars, self.at, self.key, self.held = scalars, at, length_key, []

    def work(self, input_items, output_items):
        self.held.extend(numpy.asarray(input_items[0]).reshape(-1).tolist())
        while len(self.held) >= self.scalars:
            header, self.held = self.held[: self.scalars], self.held[self.scalars :]
            self.message_port_pub(pmt.intern("out"), verdict(header, self.at, self.key))
        return len(input_items[0])


def run_demux(case):
    """One header/payload demux run: items (and trigger bytes) in, both outputs' items and
    tags out; each header's verdict from a Verdicts block."""
    complex_items = case["complex"]
    dtype = numpy.complex64 if complex_items else numpy.uint8
    raw = case["items"]
    items = [complex(a, b) for a, b in raw] if complex_items else raw
    tags = [
        gr.tag_utils.python_to_tag((o, pmt.intern(k), unhex(v), pmt.intern("src")))
        for o, k, v in case["tags"]
    ]
    tb = gr.top_block()
    make = blocks.vector_source_c if complex_items else blocks.vector_source_b
    src = make(items, False, 1, tags)
    demux = eval(case["make"])  # noqa: S307
    vlen = case["vlen"]
    sinks = []
    for port in range(2):
        sink = (blocks.vector_sink_c if complex_items else blocks.vector_sink_b)(vlen)
        tb.connect((demux, port), sink)
        sinks.append(sink)
    v = Verdicts(dtype, vlen, case["header_scalars"], case["at"], case["length_key"])
    tb.connect((demux, 0), v)
    tb.msg_connect(v, "out", demux, "header_data")
    tb.connect(src, (demux, 0))
    if case["trigger"]:
        tb.connect(blocks.vector_source_b(case["trigger"], False), (demux, 1))
    tb.run()
    out = {}
    for name, sink in zip(["hdr", "payload"], sinks):
        data = list(sink.data())
        out[name] = {
            "items": [[d.real, d.imag] for d in data] if complex_items else data,
            "tags": [[t.offset, pmt.symbol_to_string(t.key), tohex(t.value)] for t in sink.tags()],
        }
    return out


def main():
    job = json.load(sys.stdin)
    result = {}
    for case in job["pdu"]:
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        tb = gr.top_block()
        dbgs = {}
        for port in case["ports"]:
            dbgs[port] = blocks.message_debug()
            tb.msg_connect(block, port, dbgs[port], "store")
        pdus = [unhex(h) for h in case["pdus"]]
        key = pmt.intern("marker")

        def markers_out():
            # Each port's last PDUs in are markers that come out on it: once every port shows
            # one, everything before it is out too (a block's queue keeps its order).
            return all(
                any(
                    pmt.is_dict(pmt.car(d.get_message(i)))
                    and pmt.dict_has_key(pmt.car(d.get_message(i)), key)
                    for i in range(d.num_messages())
                )
                for d in dbgs.values()
            )

        tb.start()
        for p in pdus:
            block.to_basic_block()._post(pmt.intern("in"), p)
        wait_until(markers_out)
        tb.stop()
        tb.wait()
        result[case["name"]] = {
            port: [tohex(d.get_message(i)) for i in range(d.num_messages())]
            for port, d in dbgs.items()
        }
    for case in job["stream"]:
        items = list(bytes.fromhex(case["items"]))
        tags = [
            gr.tag_utils.python_to_tag((o, pmt.intern(k), unhex(v), pmt.intern("src")))
            for o, k, v in case["tags"]
        ]
        tb = gr.top_block()
        src = blocks.vector_source_b(items, False, 1, tags)
        block = eval(case["make"])  # noqa: S307
        sink = blocks.vector_sink_b()
        tb.connect(src, block, sink)
        tb.run()
        result[case["name"]] = {
            "items": bytes(sink.data()).hex(),
            "tags": [[t.offset, pmt.symbol_to_string(t.key), tohex(t.value)] for t in sink.tags()],
        }
    for case in job["parse"]:
        tb = gr.top_block()
        src = blocks.vector_source_b(list(bytes.fromhex(case["bits"])), False)
        block = eval(case["make"])  # noqa: S307
        dbg = blocks.message_debug()
        tb.connect(src, block)
        tb.msg_connect(block, "info", dbg, "store")
        tb.run()
        result[case["name"]] = [tohex(dbg.get_message(i)) for i in range(dbg.num_messages())]
    for case in job.get("demux", []):
        result[case["name"]] = run_demux(case)
    # GNU Radio's loggers ("CRC OK") write on stdout too: the result is the last line.
    sys.stdout.write("\n" + json.dumps(result) + "\n")


main()
