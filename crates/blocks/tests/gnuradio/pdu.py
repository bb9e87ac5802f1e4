"""Runs GNU Radio's PDU blocks on the same input as radioflow's tests/gnuradio_pdu.rs, in one
process.

Reads a JSON job on stdin: {"to_pdu": [{"name", "type" (byte, float, complex), "items" (the
stream's bytes, hex), "tags": [[offset, key, value as serialized PMT hex]]}], "to_stream":
[{"name", "type", "pdus": [serialized PMT hex], "items": items to take}], "meta": [{"name",
"block" (set, remove, filter), "k", "v" (serialized PMT hex), "invert", "pdus": [serialized PMT
hex, the last one's data a marker that passes]}], "random": [{"name", "min", "max", "mask",
"modulo", "n"}]}. Writes on stdout {name: [serialized PMT hex of each PDU]} for
tagged_stream_to_pdu, pdu_set/remove/filter and random_pdu, and {"stream_" + name: {"items": hex,
"tags": [[offset, key, serialized value hex]]}} for pdu_to_tagged_stream. Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).

GNU Radio's message-only flowgraphs, and pdu_to_tagged_stream behind a head, do not end by
themselves (tb.wait() hangs; messages _post-ed before tb.start() are lost): each such case
starts, posts, polls until the last output it waits for is there (bounded: a hang guard), then
stops.
"""

import json
import sys
import time

import numpy
import pmt
from gnuradio import blocks, gr, pdu

TYPES = {
    "byte": (gr.types.byte_t, numpy.uint8, blocks.vector_source_b, blocks.vector_sink_b),
    "float": (gr.types.float_t, numpy.float32, blocks.vector_source_f, blocks.vector_sink_f),
    "complex": (gr.types.complex_t, numpy.complex64, blocks.vector_source_c, blocks.vector_sink_c),
}


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


def run_messages(block, port, msgs, done):
    """Posts msgs to block's input port in a started flowgraph; the messages on its pdus
    output once done(debug) holds."""
    tb = gr.top_block()
    dbg = blocks.message_debug()
    tb.msg_connect(block, "pdus", dbg, "store")
    tb.start()
    for m in msgs:
        block.to_basic_block()._post(pmt.intern(port), m)
    wait_until(lambda: done(dbg))
    tb.stop()
    tb.wait()
    return [tohex(dbg.get_message(i)) for i in range(dbg.num_messages())]


def main():
    job = json.load(sys.stdin)
    result = {}
    for case in job["to_pdu"]:
        tv, np_type, source, _ = TYPES[case["type"]]
        items = numpy.frombuffer(bytes.fromhex(case["items"]), dtype=np_type).tolist()
        tags = [
            gr.tag_utils.python_to_tag((o, pmt.intern(k), unhex(v), pmt.intern("src")))
            for o, k, v in case["tags"]
        ]
        tb = gr.top_block()
        src = source(items, False, 1, tags)
        block = pdu.tagged_stream_to_pdu(tv, "packet_len")
        dbg = blocks.message_debug()
        tb.connect(src, block)
        tb.msg_connect(block, "pdus", dbg, "store")
        tb.run()
        result[case["name"]] = [tohex(dbg.get_message(i)) for i in range(dbg.num_messages())]
    for case in job["to_stream"]:
        tv, np_type, _, sink_type = TYPES[case["type"]]
        tb = gr.top_block()
        block = pdu.pdu_to_tagged_stream(tv, "packet_len")
        head = blocks.head(numpy.dtype(np_type).itemsize, case["items"])
        sink = sink_type()
        tb.connect(block, head, sink)
        tb.start()
        for h in case["pdus"]:
            block.to_basic_block()._post(pmt.intern("pdus"), unhex(h))
        wait_until(lambda: len(sink.data()) >= case["items"])
        tb.stop()
        tb.wait()
        data = numpy.array(sink.data(), dtype=np_type).tobytes().hex()
        tags = [[t.offset, pmt.symbol_to_string(t.key), tohex(t.value)] for t in sink.tags()]
        result["stream_" + case["name"]] = {"items": data, "tags": tags}
    for case in job["meta"]:
        k, v = unhex(case["k"]), unhex(case["v"])
        if case["block"] == "set":
            block = pdu.pdu_set(k, v)
        elif case["block"] == "remove":
            block = pdu.pdu_remove(k)
        else:
            block = pdu.pdu_filter(k, v, case["invert"])
        msgs = [unhex(h) for h in case["pdus"]]
        marker = pmt.serialize_str(pmt.cdr(msgs[-1]))

        def marker_arrived(dbg):
            n = dbg.num_messages()
            return n > 0 and pmt.serialize_str(pmt.cdr(dbg.get_message(n - 1))) == marker

        result[case["name"]] = run_messages(block, "pdus", msgs, marker_arrived)
    for case in job["random"]:
        block = pdu.random_pdu(case["min"], case["max"], case["mask"], case["modulo"])
        n = case["n"]
        # One PDU at the start, one per message on generate.
        ticks = [pmt.PMT_T] * (n - 1)
        result[case["name"]] = run_messages(
            block, "generate", ticks, lambda dbg: dbg.num_messages() >= n
        )
    json.dump(result, sys.stdout)


main()
