"""Runs GNU Radio's PDU blocks on the same input as radioflow's tests/gnuradio_pdu.rs, in one
process.

Reads a JSON job on stdin: {"to_pdu": [{"name", "type" (byte, float, complex), "items" (the
stream's bytes, hex), "tags": [[offset, key, value as serialized PMT hex]]}], "to_stream":
[{"name", "type", "pdus": [serialized PMT hex], "items": items to take}], "meta": [{"name",
"block" (set, remove, filter), "k", "v" (serialized PMT hex), "invert", "pdus": [serialized PMT
hex, the last one's data a marker that passes]}], "random": [{"name", "min", "max", "mask",
"modulo", "n"}], "bursts": {...} (see run_bursts), "gates": {...} (see run_gates)}. Writes on stdout {name: [serialized PMT hex of each PDU]} for
tagged_stream_to_pdu, pdu_set/remove/filter and random_pdu, and {"stream_" + name: {"items": hex,
"tags": [[offset, key, serialized value hex]]}} for pdu_to_tagged_stream. Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).

GNU Radio's message-only flowgraphs, and pdu_to_tagged_stream behind a head, do not end by
themselves (tb.wait() hangs; messages _post-ed before tb.start() are lost): each such case
starts, posts, polls until the last output it waits for is there (bounded: a hang guard), then
stops.
"""

import json
import os
import sys
import time

import numpy
import pmt
from gnuradio import blocks, gr, pdu

TYPES = {
    "byte": (gr.types.byte_t, numpy.uint8, blocks.vector_source_b, blocks.vector_sink_b),
    "short": (gr.types.short_t, numpy.int16, blocks.vector_source_s, blocks.vector_sink_s),
    "int": (gr.types.int_t, numpy.int32, blocks.vector_source_i, blocks.vector_sink_i),
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


# The templated gr-pdu blocks' suffix per type.
SUFFIX = {"byte": "b", "short": "s", "int": "i", "float": "f", "complex": "c"}


def tags_of(sink):
    return [[t.offset, pmt.symbol_to_string(t.key), tohex(t.value)] for t in sink.tags()]


def run_bursts(job):
    """The burst blocks, for each type of job["types"] (name -> items hex):
    - "take_skip_" + type: take_skip_to_pdu(take, skip)'s PDUs over the items (not for int,
      which GNU Radio lacks);
    - "tags_to_pdu_" + type: tags_to_pdu's PDUs and detections over the items with
      job["tags_to_pdu"]["tags"] ([offset, key, value hex]);
    - "to_stream_" + type: pdu_to_stream's stream and tags for job["to_stream"][type] (PDUs
      hex, each timed: one burst each), "items" items taken;
    - "burst_tagger_" + type: burst_tagger's stream and tags over the items, with the
      trigger job["burst_tagger"]["trigger"] and a tag on each input."""
    result = {}
    ts, tp, bt = job["take_skip"], job["tags_to_pdu"], job["burst_tagger"]
    for name, items_hex in job["types"].items():
        _, np_type, source, sink_type = TYPES[name]
        items = numpy.frombuffer(bytes.fromhex(items_hex), dtype=np_type).tolist()
        suffix = SUFFIX[name]

        # GNU Radio 3.10.5 has no take_skip_to_pdu_i (though GRC offers int).
        if hasattr(pdu, "take_skip_to_pdu_" + suffix):
            tb = gr.top_block()
            src = source(items, False, 1, [])
            block = getattr(pdu, "take_skip_to_pdu_" + suffix)(ts["take"], ts["skip"])
            dbg = blocks.message_debug()
            tb.connect(src, block)
            tb.msg_connect(block, "pdus", dbg, "store")
            tb.run()
            result["take_skip_" + name] = [
                tohex(dbg.get_message(i)) for i in range(dbg.num_messages())]

        tags = [
            gr.tag_utils.python_to_tag((o, pmt.intern(k), unhex(v), pmt.intern("src")))
            for o, k, v in tp["tags"]
        ]
        tb = gr.top_block()
        src = source(items, False, 1, tags)
        prepend = [items[0]] * tp["prepend"]
        block = getattr(pdu, "tags_to_pdu_" + suffix)(
            pmt.intern("SOB"), pmt.intern("EOB"), tp["max"], tp["rate"], prepend,
            True, tp["tail"], tp["start_time"])
        block.set_eob_parameters(tp["alignment"], tp["offset"])
        dbg = blocks.message_debug()
        det = blocks.message_debug()
        tb.connect(src, block)
        tb.msg_connect(block, "pdus", dbg, "store")
        tb.msg_connect(block, "detects", det, "store")
        tb.run()
        result["tags_to_pdu_" + name] = {
            "pdus": [tohex(dbg.get_message(i)) for i in range(dbg.num_messages())],
            "detects": [tohex(det.get_message(i)) for i in range(det.num_messages())],
        }

        case = job["to_stream"][name]
        tb = gr.top_block()
        block = getattr(pdu, "pdu_to_stream_" + suffix)(pdu.EARLY_BURST_APPEND, 64)
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
        result["to_stream_" + name] = {"items": data, "tags": tags_of(sink)}

        tb = gr.top_block()
        src = source(items, False, 1, [gr.tag_utils.python_to_tag(
            (1, pmt.intern("data"), pmt.from_long(5), pmt.intern("src")))])
        trigger = blocks.vector_source_s(bt["trigger"], False, 1, [gr.tag_utils.python_to_tag(
            (2, pmt.intern("trig"), pmt.from_long(6), pmt.intern("src")))])
        block = blocks.burst_tagger(numpy.dtype(np_type).itemsize)
        block.set_true_tag(bt["true_key"], True)
        block.set_false_tag(bt["false_key"], False)
        sink = sink_type()
        tb.connect(src, (block, 0))
        tb.connect(trigger, (block, 1))
        tb.connect(block, sink)
        tb.run()
        data = numpy.array(sink.data(), dtype=np_type).tobytes().hex()
        result["burst_tagger_" + name] = {"items": data, "tags": tags_of(sink)}
    return result


def run_gates(job):
    """blocks.tag_gate over job["floats"] (hex) with job["tags"] ([offset, key, value hex]),
    for each case of job["gates"] ([name, vlen, propagate, single_key]), and
    blocks.rotator_cc(job["phase_inc"], True) over job["complex"] (hex) with the same tags:
    {name: {"items", "tags"}} and {"rotator": {"items", "tags"}}."""
    result = {}
    floats = numpy.frombuffer(bytes.fromhex(job["floats"]), dtype=numpy.float32).tolist()

    def tags(vlen):
        return [
            gr.tag_utils.python_to_tag((o // vlen, pmt.intern(k), unhex(v), pmt.intern("src")))
            for o, k, v in job["tags"]
        ]

    for name, vlen, propagate, key in job["gates"]:
        tb = gr.top_block()
        src = blocks.vector_source_f(floats, False, vlen, tags(vlen))
        gate = blocks.tag_gate(4 * vlen, propagate)
        gate.set_single_key(key)
        sink = blocks.vector_sink_f(vlen)
        tb.connect(src, gate, sink)
        tb.run()
        data = numpy.array(sink.data(), dtype=numpy.float32).tobytes().hex()
        result[name] = {"items": data, "tags": tags_of(sink)}
    samples = numpy.frombuffer(bytes.fromhex(job["complex"]), dtype=numpy.complex64).tolist()
    tb = gr.top_block()
    src = blocks.vector_source_c(samples, False, 1, tags(1))
    rot = blocks.rotator_cc(job["phase_inc"], True)
    sink = blocks.vector_sink_c()
    tb.connect(src, rot, sink)
    tb.run()
    data = numpy.array(sink.data(), dtype=numpy.complex64).tobytes().hex()
    result["rotator"] = {"items": data, "tags": tags_of(sink)}
    return result


def run_split(case):
    """pdu_split's dict and vec outputs for the case's messages; the last is a marker PDU
    whose two parts end both outputs."""
    block = pdu.pdu_split(case["pass_empty"])
    tb = gr.top_block()
    dicts, vecs = blocks.message_debug(), blocks.message_debug()
    tb.msg_connect(block, "dict", dicts, "store")
    tb.msg_connect(block, "vec", vecs, "store")
    tb.start()
    msgs = [unhex(h) for h in case["pdus"]]
    for m in msgs:
        block.to_basic_block()._post(pmt.intern("pdu"), m)
    last = msgs[-1]

    def ends_with(dbg, part):
        n = dbg.num_messages()
        return n > 0 and pmt.serialize_str(dbg.get_message(n - 1)) == pmt.serialize_str(part)

    wait_until(lambda: ends_with(dicts, pmt.car(last)) and ends_with(vecs, pmt.cdr(last)))
    tb.stop()
    tb.wait()
    return {
        "dict": [tohex(dicts.get_message(i)) for i in range(dicts.num_messages())],
        "vec": [tohex(vecs.get_message(i)) for i in range(vecs.num_messages())],
    }


def main():
    # GNU Radio's loggers (take_skip_to_pdu's, tags_to_pdu's) write to stdout: the JSON goes
    # to the real stdout, everything else to stderr.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
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
    for case in job.get("split", []):
        result[case["name"]] = run_split(case)
    if "bursts" in job:
        result.update(run_bursts(job["bursts"]))
    if "gates" in job:
        result.update(run_gates(job["gates"]))
    json.dump(result, out)
    out.flush()


main()
