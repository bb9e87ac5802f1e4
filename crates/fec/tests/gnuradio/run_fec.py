"""GNU Radio 3.10's FEC blocks for each case radioflow's tests/gnuradio.rs sends on stdin.

A stream case is one line `stream|encoder|decoder|puncpat|bits|noise` (the objects as GNU
Radio's Python calls, bits and noise comma-separated): the bits go through fec.extended_encoder,
become -1/+1 floats plus the noise (in float32, as radioflow adds them), and go through
fec.extended_decoder; prints `enc:<bits>` and `dec:<bits>`.

A PDU case is `async|encoder|decoder|packed|rev_unpack|rev_pack|pdus|noise` (PDUs
`;`-separated): each PDU goes through fec.async_encoder, its code bits (unpacked least
significant bit first where packed) become -1/+1 floats plus the noise and go through
fec.async_decoder; prints, per PDU, `enc:<values>`, `dec:<values>` and `meta:<iterations>`.

A polar configuration `polarcfg|N|K|snr` prints `cfg:<positions>`, the frozen positions of
GNU Radio's channel construction for a binary erasure channel.

A BER case `ber|test_mode|berminerrors|berlimit|a|b` runs fec.ber_bf on byte streams a
and b; prints `ber:<values>`.

A tagged case is `tagged|encoder|decoder|bits|lengths|marks|noise`: the bits, with a length
tag `len` at the start of each packet (`lengths`) and a tag `x` (its offset as value) on each
of `marks`, go through fec.extended_tagged_encoder; the code bits become -1/+1 floats plus the
noise, with the encoder's output tags, and go through fec.extended_tagged_decoder; prints
`enc:<values>`, `enctags:<tags>`, `dec:<values>`, `dectags:<tags>` (tags `offset:key:value`,
`;`-separated, in the sink's order).

A generic case is `generic|encoder|decoder|bytes|bits|marks|noise`: the bits, with a tag `x`
on each of `marks`, go through fec.encoder (bytes in and out); the code bits become -1/+1
floats plus the noise (made bytes `rint(48 x + 128)` where `bytes` is 1, for a decoder that
reads bytes), with the encoder's output tags, and go through fec.decoder; prints
`enc:<values>`, `enctags:<tags>`, `dec:<values>`, `dectags:<tags>` (tags
`offset:key:value`, the key without the number GNU Radio gives a decoder object (a polar
decoder's is that number alone, whatever its memory held), the value `T` for `#t`).
"""
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, fec, gr
from gnuradio.fec import polar


def run(chain, data, source, sink):
    tb = gr.top_block()
    src = source(data)
    out = sink()
    tb.connect(src, chain, out)
    tb.run()
    return list(out.data())


def through(block, msg):
    tb = gr.top_block()
    sink = blocks.message_debug()
    tb.msg_connect((block, "out"), (sink, "store"))
    tb.start()
    block.to_basic_block()._post(pmt.intern("in"), msg)
    for _ in range(2000):  # a hang guard only
        if sink.num_messages() > 0:
            break
        time.sleep(0.005)
    tb.stop()
    tb.wait()
    return sink.get_message(0)


def pdu_case(fields):
    enc_text, dec_text, packed, rev_unpack, rev_pack, pdus, noise_text = fields
    packed, rev_unpack, rev_pack = (x == "1" for x in (packed, rev_unpack, rev_pack))
    noise = np.array([float(x) for x in noise_text.split(",")], dtype=np.float32)
    encoder = fec.async_encoder(eval(enc_text, {"fec": fec}), packed, rev_unpack, rev_pack, 1500)
    decoder = fec.async_decoder(eval(dec_text, {"fec": fec}), packed, rev_pack, 1500)
    for data in pdus.split(";"):
        data = [int(x) for x in data.split(",")]
        out = through(encoder, pmt.cons(pmt.make_dict(), pmt.init_u8vector(len(data), data)))
        code = list(pmt.u8vector_elements(pmt.cdr(out)))
        print("enc:" + ",".join(map(str, code)))
        bits = code
        if packed:
            bits = [(b >> j) & 1 for b in code for j in range(8)]
        soft = np.array(bits, dtype=np.float32) * np.float32(2) - np.float32(1)
        soft = soft + noise[: len(soft)]
        msg = pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(soft), [float(x) for x in soft]))
        out = through(decoder, msg)
        print("dec:" + ",".join(map(str, pmt.u8vector_elements(pmt.cdr(out)))))
        iters = pmt.dict_ref(pmt.car(out), pmt.intern("iterations"), pmt.PMT_NIL)
        print("meta:" + str(iters))
        sys.stdout.flush()


def tag(offset, key, value):
    t = gr.tag_t()
    t.offset = offset
    t.key = pmt.intern(key)
    t.value = pmt.from_long(value)
    return t


def show_tags(tags):
    return ";".join(
        f"{t.offset}:{pmt.symbol_to_string(t.key)}:{pmt.to_long(t.value)}" for t in tags
    )


def show_generic_tags(tags):
    def value(v):
        return "T" if pmt.eq(v, pmt.PMT_T) else str(pmt.to_long(v))

    return ";".join(
        f"{t.offset}:{pmt.symbol_to_string(t.key).rstrip('-0123456789')}:{value(t.value)}"
        for t in tags
    )


def generic_case(fields):
    enc_text, dec_text, as_bytes, bits_text, marks_text, noise_text = fields
    bits = [int(b) for b in bits_text.split(",")]
    noise = np.array([float(x) for x in noise_text.split(",")], dtype=np.float32)
    tags = [tag(int(m), "x", int(m)) for m in marks_text.split(",") if m]
    tb = gr.top_block()
    src = blocks.vector_source_b(bits, False, 1, tags)
    enc = fec.encoder(eval(enc_text, {"fec": fec}), 1, 1)
    sink = blocks.vector_sink_b()
    tb.connect(src, enc, sink)
    tb.run()
    code = list(sink.data())
    code_tags = list(sink.tags())
    print("enc:" + ",".join(map(str, code)))
    print("enctags:" + show_generic_tags(code_tags))
    soft = np.array(code, dtype=np.float32) * np.float32(2) - np.float32(1)
    soft = soft + noise[: len(soft)]
    tb = gr.top_block()
    if as_bytes == "1":
        q = np.clip(np.rint(soft * np.float32(48) + np.float32(128)), 0, 255)
        src = blocks.vector_source_b([int(x) for x in q], False, 1, code_tags)
        size = 1
    else:
        src = blocks.vector_source_f([float(x) for x in soft], False, 1, code_tags)
        size = 4
    dec = fec.decoder(eval(dec_text, {"fec": fec}), size, 1)
    sink = blocks.vector_sink_b()
    tb.connect(src, dec, sink)
    tb.run()
    print("dec:" + ",".join(map(str, sink.data())))
    print("dectags:" + show_generic_tags(sink.tags()))
    sys.stdout.flush()


def tagged_case(fields):
    enc_text, dec_text, bits_text, lengths_text, marks_text, noise_text = fields
    bits = [int(b) for b in bits_text.split(",")]
    noise = np.array([float(x) for x in noise_text.split(",")], dtype=np.float32)
    tags, at = [], 0
    for n in lengths_text.split(","):
        tags.append(tag(at, "len", int(n)))
        at += int(n)
    tags += [tag(int(m), "x", int(m)) for m in marks_text.split(",") if m]
    tb = gr.top_block()
    src = blocks.vector_source_b(bits, False, 1, tags)
    enc = fec.extended_tagged_encoder(eval(enc_text, {"fec": fec}), puncpat="11",
                                      lentagname="len", mtu=1512)
    sink = blocks.vector_sink_b()
    tb.connect(src, enc, sink)
    tb.run()
    code = list(sink.data())
    code_tags = list(sink.tags())
    print("enc:" + ",".join(map(str, code)))
    print("enctags:" + show_tags(code_tags))
    soft = np.array(code, dtype=np.float32) * np.float32(2) - np.float32(1)
    soft = soft + noise[: len(soft)]
    tb = gr.top_block()
    src = blocks.vector_source_f([float(x) for x in soft], False, 1, code_tags)
    dec = fec.extended_tagged_decoder(eval(dec_text, {"fec": fec}), ann=None, puncpat="11",
                                      integration_period=10000, lentagname="len", mtu=1512)
    sink = blocks.vector_sink_b()
    tb.connect(src, dec, sink)
    tb.run()
    print("dec:" + ",".join(map(str, sink.data())))
    print("dectags:" + show_tags(sink.tags()))
    sys.stdout.flush()


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    kind, *fields = line.split("|")
    if kind == "ber":
        test_mode, min_errors, limit = fields[0] == "1", int(fields[1]), float(fields[2])
        a, b = ([int(x) for x in f.split(",")] for f in fields[3:5])
        tb = gr.top_block()
        sa, sb = blocks.vector_source_b(a), blocks.vector_source_b(b)
        ber = fec.ber_bf(test_mode, min_errors, limit)
        sink = blocks.vector_sink_f()
        tb.connect(sa, (ber, 0))
        tb.connect(sb, (ber, 1))
        tb.connect(ber, sink)
        tb.run()
        print("ber:" + ",".join(repr(float(x)) for x in sink.data()))
        sys.stdout.flush()
        continue
    if kind == "polarcfg":
        # Quietly: the construction prints its parameters.
        n, k, snr = int(fields[0]), int(fields[1]), float(fields[2])
        with open("/dev/null", "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            cfg = polar.load_frozen_bits_info(False, polar.CHANNEL_TYPE_BEC, n, k, snr, 32)
            sys.stdout = stdout
        print("cfg:" + ",".join(str(int(p)) for p in cfg["positions"]))
        continue
    if kind == "async":
        pdu_case(fields)
        continue
    if kind == "tagged":
        tagged_case(fields)
        continue
    if kind == "generic":
        generic_case(fields)
        continue
    enc_text, dec_text, puncpat, bits_text, noise_text = fields
    bits = [int(b) for b in bits_text.split(",")]
    noise = np.array([float(x) for x in noise_text.split(",")], dtype=np.float32)
    encoder = eval(enc_text, {"fec": fec})
    decoder = eval(dec_text, {"fec": fec})
    code = run(fec.extended_encoder(encoder, threading=None, puncpat=puncpat), bits,
               blocks.vector_source_b, blocks.vector_sink_b)
    soft = np.array(code, dtype=np.float32) * np.float32(2) - np.float32(1)
    soft = soft + noise[: len(soft)]
    decoded = run(fec.extended_decoder(decoder, threading=None, ann=None, puncpat=puncpat),
                  [float(x) for x in soft], blocks.vector_source_f, blocks.vector_sink_b)
    print("enc:" + "".join(str(b) for b in code))
    print("dec:" + "".join(str(b) for b in decoded))
    sys.stdout.flush()
