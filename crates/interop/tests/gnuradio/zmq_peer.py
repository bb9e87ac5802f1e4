"""GNU Radio 3.10 side of radioflow's gr-zeromq interop tests (crates/interop/tests/zmq_gnuradio.rs).

usage: zmq_peer.py MODE ADDRESS N [SECONDS]
  send_stream     push_sink (pass_tags, binds) of N complex items i*0.5 - i*1j with tags
  send_untagged   the same items from a push_sink without pass_tags
  send_float3     push_sink of N items of 3 floats (12 bytes), pass_tags off
  recv_stream     pull_source (pass_tags, connects) -> head(N) -> vector_sink; prints items and tags
  recv_req        req_source (pass_tags, connects) -> head(N) -> vector_sink; prints items and tags
  send_msgs       push_msg_sink (binds) posting the test messages
  recv_msgs       pull_msg_source (connects) -> message_debug; prints N messages
  bench_send      push_sink (binds) of complex items from a repeating vector, forever
Senders run until stdin closes; receivers until N items (messages) arrived. GNU Radio's zeromq
sources never end by themselves (a head downstream does not stop them), so the flowgraph is
started, watched, and stopped here. Every mode gives up after SECONDS (default 20): it prints
"timeout ..." and exits with status 2; a watchdog ends the process if even stopping hangs.
Output lines: "ready", "items HEX" (the raw bytes), "tag OFFSET KEYHEX VALUEHEX",
"msg HEX" (pmt::serialize).
"""
import os, select, sys, threading, time
import numpy as np
import pmt
from gnuradio import gr, blocks, zeromq

mode, address, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 20.0
deadline = time.monotonic() + seconds
watchdog = threading.Timer(seconds + 10, lambda: os._exit(3))
watchdog.daemon = True
watchdog.start()


def test_items(n):
    i = np.arange(n, dtype=np.float32)
    return (i * np.float32(0.5) - 1j * i).astype(np.complex64)


def test_tags():
    t = gr.tag_utils.python_to_tag
    return [
        t((0, pmt.intern("rx_rate"), pmt.from_double(1e6), pmt.intern("src"))),
        t((1000, pmt.intern("rx_freq"), pmt.from_double(433.92e6), pmt.intern("src"))),
        t((n - 1, pmt.intern("rx_time"), pmt.make_tuple(pmt.from_uint64(1700000000), pmt.from_double(0.25)), pmt.PMT_F)),
    ]


def test_msgs():
    return [
        pmt.from_long(1),
        pmt.intern("two"),
        pmt.cons(pmt.make_dict(), pmt.init_f32vector(2, [1.0, 2.5])),
        pmt.cons(pmt.intern("meta"), pmt.init_u8vector(3, [1, 2, 3])),
    ]


def left():
    return max(0.0, deadline - time.monotonic())


def ready():
    print("ready", flush=True)


def until_stdin_closes():
    """Runs until the test closes our stdin, or the deadline."""
    while left() > 0:
        r, _, _ = select.select([sys.stdin], [], [], min(left(), 0.5))
        if r and not os.read(sys.stdin.fileno(), 4096):
            return True
    return False


def finish(tb, ok, what):
    tb.stop()
    tb.wait()
    if not ok:
        print("timeout", what, flush=True)
        sys.stdout.flush()
        os._exit(2)


tb = gr.top_block()
if mode in ("send_stream", "send_untagged", "send_float3", "bench_send"):
    if mode == "send_float3":
        data = np.arange(3 * n, dtype=np.float32).tolist()
        src = blocks.vector_source_f(data, False, 3, [])
        size = 3 * gr.sizeof_float
    elif mode == "bench_send":
        src = blocks.vector_source_c(test_items(8192).tolist(), True, 1, [])
        size = gr.sizeof_gr_complex
    else:
        tags = test_tags() if mode == "send_stream" else []
        src = blocks.vector_source_c(test_items(n).tolist(), False, 1, tags)
        size = gr.sizeof_gr_complex
    snk = zeromq.push_sink(size, 1, address, 100, mode == "send_stream", -1)
    tb.connect(src, snk)
    tb.start()
    ready()
    finish(tb, until_stdin_closes(), "waiting for stdin to close")
elif mode in ("recv_stream", "recv_req"):
    make = zeromq.pull_source if mode == "recv_stream" else zeromq.req_source
    src = make(gr.sizeof_gr_complex, 1, address, 100, True, -1)
    head = blocks.head(gr.sizeof_gr_complex, n)
    snk = blocks.vector_sink_c()
    tb.connect(src, head, snk)
    tb.start()
    ready()
    while head.nitems_written(0) < n and left() > 0:
        time.sleep(0.02)
    got = head.nitems_written(0)
    finish(tb, got >= n, f"received {got} of {n} items")
    print("items", np.asarray(snk.data(), dtype=np.complex64).tobytes().hex())
    for t in snk.tags():
        print("tag", t.offset, pmt.serialize_str(t.key).hex(), pmt.serialize_str(t.value).hex(),
              pmt.serialize_str(t.srcid).hex())
elif mode == "send_msgs":
    snk = zeromq.push_msg_sink(address, 100, True)
    # A block with no connection is not part of the flowgraph: a strobe that never fires.
    tb.msg_connect(blocks.message_strobe(pmt.PMT_NIL, 1000000000), "strobe", snk, "in")
    tb.start()
    for m in test_msgs():
        snk.to_basic_block()._post(pmt.intern("in"), m)
    ready()
    ok = until_stdin_closes()
    # The strobe sleeps its whole period in one uninterruptible call, so tb.stop() would
    # wait for it: leave without stopping (the test has received everything by now).
    if not ok:
        print("timeout waiting for stdin to close", flush=True)
    os._exit(0 if ok else 2)
elif mode == "recv_msgs":
    src = zeromq.pull_msg_source(address, 100, False)
    dbg = blocks.message_debug()
    tb.msg_connect(src, "out", dbg, "store")
    tb.start()
    ready()
    while dbg.num_messages() < n and left() > 0:
        time.sleep(0.01)
    got = dbg.num_messages()
    finish(tb, got >= n, f"received {got} of {n} messages")
    for k in range(got):
        print("msg", pmt.serialize_str(dbg.get_message(k)).hex())
else:
    sys.exit("unknown mode " + mode)
sys.stdout.flush()
