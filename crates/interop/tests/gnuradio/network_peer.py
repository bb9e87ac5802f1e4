#!/usr/bin/python3
"""GNU Radio's side of tests/gnuradio_network.rs: gr-network's blocks sending to radioflow, or
receiving from it, on loopback.

  network_peer.py send    UDP0 UDP1 UDP2 TCP N0 N1 N2 NTCP SECONDS
  network_peer.py receive UDP0 UDP1 UDP2 TCP N0 N1 N2 SECONDS

UDPk carries the items of header k (0 none: complex, 1 seqnum: int, 2 seqplussize: short),
Nk of them, in datagrams of 1472 bytes; TCP carries floats (send: tcp_sink as a client, NTCP
items; receive: tcp_source as a server, until radioflow closes the connection). `send` exits
when everything is sent; `receive` prints "ready" once its UDP sources listen, then one line
per stream, "NAME HEX" (the items' bytes). Either gives up after SECONDS ("timeout", exit 1).
"""

import os
import sys
import threading
import time

import numpy as np
from gnuradio import blocks, gr, network

PAYLOAD = 1472


def items(n):
    """The test's items: complex, int, short, float (tests/gnuradio_network.rs makes the same)."""
    i = np.arange(n)
    return (
        (i * 0.5 - 1j * i).astype(np.complex64),
        (i * 7 - 1000).astype(np.int32),
        (i * 3).astype(np.int16),
        (i * 0.25).astype(np.float32),
    )


def deadline(seconds, progress=lambda: ""):
    def give_up():
        print(f"timeout {progress()}", flush=True)
        os._exit(1)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()


def send(ports, counts, seconds):
    deadline(seconds)
    tb = gr.top_block()
    c, _, _, _ = items(counts[0])
    _, i, _, _ = items(counts[1])
    _, _, s, _ = items(counts[2])
    _, _, _, f = items(counts[3])
    udp = [
        (blocks.vector_source_c(c.tolist()), gr.sizeof_gr_complex, 0, True),
        (blocks.vector_source_i(i.tolist()), gr.sizeof_int, 1, False),
        (blocks.vector_source_s(s.tolist()), gr.sizeof_short, 2, False),
    ]
    for k, (src, size, header, eof) in enumerate(udp):
        sink = network.udp_sink(size, 1, "127.0.0.1", ports[k], header, PAYLOAD, eof)
        tb.connect(src, sink)
    tb.connect(
        blocks.vector_source_f(f.tolist()),
        network.tcp_sink(gr.sizeof_float, 1, "127.0.0.1", ports[3], 1),
    )
    tb.run()


def receive(ports, counts, seconds):
    udp = gr.top_block()
    sinks = []
    tcp_done = []
    deadline(
        seconds,
        lambda: f"(items received: {[len(s.data()) for s in sinks]}, tcp done: {bool(tcp_done)})",
    )
    for k, (size, sink) in enumerate(
        [
            (gr.sizeof_gr_complex, blocks.vector_sink_c()),
            (gr.sizeof_int, blocks.vector_sink_i()),
            (gr.sizeof_short, blocks.vector_sink_s()),
        ]
    ):
        source = network.udp_source(size, 1, ports[k], k, PAYLOAD, False, False, False)
        udp.connect(source, blocks.head(size, counts[k]), sink)
        sinks.append(sink)
    udp.start()
    print("ready", flush=True)
    # Waits for radioflow's client (gr-network's Python tcp_source accepts when it is made).
    tcp = gr.top_block()
    floats = blocks.vector_sink_f()
    tcp.connect(
        network.tcp_source.tcp_source(
            itemsize=gr.sizeof_float, addr="127.0.0.1", port=ports[3], server=True
        ),
        floats,
    )
    tcp.run()
    tcp_done.append(True)
    # GNU Radio's udp_source does not end when the head after it does: stop the flowgraph once
    # every head has its items (the deadline bounds the wait).
    while any(len(sink.data()) < n for sink, n in zip(sinks, counts)):
        time.sleep(0.01)
    udp.stop()
    udp.wait()
    kinds = [np.complex64, np.int32, np.int16]
    for k, sink in enumerate(sinks):
        data = np.array(sink.data(), dtype=kinds[k])
        print(f"udp{k} {data.tobytes().hex()}", flush=True)
    print(f"tcp {np.array(floats.data(), dtype=np.float32).tobytes().hex()}", flush=True)


def main():
    mode, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
    if mode == "send":
        send(args[0:4], args[4:8], args[8])
    elif mode == "receive":
        receive(args[0:4], args[4:7], args[7])
    else:
        sys.exit(f"unknown mode {mode}")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
