"""Runs GNU Radio's PDU blocks on the same input as radioflow's tests/gnuradio_pdu.rs, in one
process.

Reads a JSON job on stdin: {"to_pdu": [{"name", "type" (byte, float, complex), "items" (the
stream's bytes, hex), "tags": [[offset, key, value as serialized PMT hex]]}], "to_stream":
[{"name", "type", "pdus": [serialized PMT hex], "items": items to take}]}. Writes on stdout
{name: [serialized PMT hex of each PDU]} for tagged_stream_to_pdu and {"stream_" + name: {"items": hex,
"tags": [[offset, key, serialized value hex]]}} for pdu_to_tagged_stream. Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).
"""

import json
import sys

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
        for h in case["pdus"]:
            block.to_basic_block()._post(pmt.intern("pdus"), unhex(h))
        tb.run()
        data = numpy.array(sink.data(), dtype=np_type).tobytes().hex()
        tags = [[t.offset, pmt.symbol_to_string(t.key), tohex(t.value)] for t in sink.tags()]
        result["stream_" + case["name"]] = {"items": data, "tags": tags}
    json.dump(result, sys.stdout)


main()
