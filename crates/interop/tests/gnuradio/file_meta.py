"""GNU Radio 3.10's side of tests/gnuradio_file_meta.rs.

Reads a job (JSON on stdin): {"dir": path, "cases": [{"name", "type" (complex, float, int,
short, byte), "n" (items, vectors of "vlen" scalars: scalar i is i, in each part of a
complex), "max_seg", "samp_rate",
"rel_rate", "extras": [[key, int]], "tags": [[offset, key, kind ("double", "long" or "time":
(secs, frac)), value]], "detached"}]}. For each case GNU Radio's file_meta_sink writes
<dir>/<name>.gr (and .gr.hdr when detached) from a vector source of those items and tags;
then GNU Radio's file_meta_source reads it back. Writes on stdout {name: {"items": hex of the
items read, "tags": [[offset, key, serialized value hex]]}}. Run with Debian's
/usr/bin/python3.
"""

import json
import sys

import numpy
import pmt
from gnuradio import blocks, gr

TYPES = {
    "complex": (numpy.complex64, blocks.GR_FILE_FLOAT, True, "c"),
    "float": (numpy.float32, blocks.GR_FILE_FLOAT, False, "f"),
    "int": (numpy.int32, blocks.GR_FILE_INT, False, "i"),
    "short": (numpy.int16, blocks.GR_FILE_SHORT, False, "s"),
    "byte": (numpy.uint8, blocks.GR_FILE_BYTE, False, "b"),
}


def value(kind, v):
    if kind == "double":
        return pmt.from_double(v)
    if kind == "long":
        return pmt.from_long(v)
    return pmt.make_tuple(pmt.from_uint64(v[0]), pmt.from_double(v[1]))


def main():
    job = json.load(sys.stdin)
    out = {}
    for case in job["cases"]:
        dtype, ftype, cplx, fcn = TYPES[case["type"]]
        vlen = case["vlen"]
        n = case["n"] * vlen
        items = numpy.arange(n).astype(dtype)
        if cplx:
            items = (numpy.arange(n) + 1j * numpy.arange(n)).astype(dtype)
        tags = [
            gr.tag_utils.python_to_tag(
                (off, pmt.intern(key), value(kind, v), pmt.PMT_F)
            )
            for off, key, kind, v in case["tags"]
        ]
        extra = pmt.make_dict()
        for key, v in case["extras"]:
            extra = pmt.dict_add(extra, pmt.intern(key), pmt.from_long(v))
        path = "%s/%s.gr" % (job["dir"], case["name"])
        itemsize = numpy.dtype(dtype).itemsize * vlen
        tb = gr.top_block()
        src = getattr(blocks, "vector_source_" + fcn)(list(items), False, vlen, tags)
        sink = blocks.file_meta_sink(
            itemsize, path, case["samp_rate"], case["rel_rate"], ftype, cplx,
            case["max_seg"], extra, case["detached"])
        tb.connect(src, sink)
        tb.run()
        sink.close()
        del tb, sink, src

        tb = gr.top_block()
        msrc = blocks.file_meta_source(path, False, case["detached"], "")
        vsink = getattr(blocks, "vector_sink_" + fcn)(vlen)
        tb.connect(msrc, vsink)
        tb.run()
        got = numpy.array(vsink.data(), dtype=dtype)
        out[case["name"]] = {
            "items": got.tobytes().hex(),
            "tags": [
                [t.offset, pmt.symbol_to_string(t.key), pmt.serialize_str(t.value).hex()]
                for t in vsink.tags()
            ],
        }
    json.dump(out, sys.stdout)


main()
