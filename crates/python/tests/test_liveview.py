"""The live view from Python: ``fg.serve()`` and its JSON API over real HTTP (urllib)."""

import json
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

import radioflow as rf
from radioflow import blocks


def request(method, url, body=None):
    """Status and decoded JSON body of one HTTP request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if method != "GET":
        # Writes are JSON, with or without a body (the port refuses what a form could send).
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        with e:
            return e.code, json.loads(e.read())


def poll(what, condition, limit=60.0):
    """Polls `condition` until it returns a true value; the limit keeps a broken build from
    hanging, it is no timing assertion."""
    deadline = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def counter(base, block, field):
    status, c = request("GET", base + "/api/counters")
    assert status == 200, c
    return next((b[field] for b in c["blocks"] if b["name"] == block), None)


def test_serve_shows_the_graph_counts_sets_a_parameter_and_stops():
    fg = rf.Flowgraph()
    src = blocks.signal_source(100e3, "cosine", 1e3, np.complex64, name="src")
    throttle = blocks.throttle(100e3, np.complex64, name="throttle")
    sink = blocks.null_sink(np.complex64, name="sink")
    fg.connect(src, throttle, sink)
    url = fg.serve("127.0.0.1:0", probes=["throttle.out"])
    base = url.rstrip("/")
    assert url.startswith("http://127.0.0.1:")
    # The page itself is served before the graph runs.
    with urllib.request.urlopen(url, timeout=30) as r:
        assert b"radioflow live view" in r.read()
    fg.start()
    try:
        status, g = request("GET", base + "/api/graph")
        assert status == 200, g
        assert [b["name"] for b in g["blocks"]] == ["src", "throttle", "sink", "probe:throttle.out"]
        assert g["running"] is True
        assert g["probes"][0]["id"] == "throttle.out"

        first = poll("the throttle to pass items", lambda: counter(base, "throttle", "items_out"))
        poll("the counters to grow", lambda: counter(base, "throttle", "items_out") > first)

        # A settable parameter: the tone's amplitude, seen in the probe's time view.
        status, v = request("PUT", base + "/api/blocks/src/params/amplitude", {"value": 2.5})
        assert (status, v["value"]) == (200, 2.5), v

        def amplitude_seen():
            status, d = request("GET", base + "/api/probes/throttle.out?view=time")
            assert status == 200, d
            mags = np.hypot(d["y"], d["y2"])
            return len(mags) > 0 and bool(np.all(np.abs(mags - 2.5) < 1e-3))

        poll("the probe to show amplitude 2.5", amplitude_seen)

        # Errors name what is wrong.
        status, v = request("PUT", base + "/api/blocks/nope/params/amplitude", {"value": 1})
        assert status == 404 and "nope" in v["error"], v

        status, v = request("POST", base + "/api/stop")
        assert status == 200, v
        fg.wait(timeout=60)
    finally:
        fg.stop()
    status, g = request("GET", base + "/api/graph")
    assert (status, g["running"]) == (200, False), g


def test_serve_refuses_bad_arguments():
    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(np.float32), blocks.null_sink(np.float32))
    with pytest.raises(ValueError, match="not an address"):
        fg.serve("localhost")
    with pytest.raises(ValueError, match="empty token"):
        fg.serve("127.0.0.1:0", token="")
    with pytest.raises(ValueError, match="'dash.example'"):
        fg.serve("127.0.0.1:0", allowed_origins=["dash.example"])
    with pytest.raises(ValueError, match="nope"):
        fg.serve("127.0.0.1:0", probes=["nope.out"])
    url = fg.serve("127.0.0.1:0")
    with pytest.raises(rf.RunError, match="served already"):
        fg.serve("127.0.0.1:0")
    assert url.startswith("http://127.0.0.1:")


def test_only_the_page_and_allowed_origins_may_write():
    fg = rf.Flowgraph()
    src = blocks.signal_source(100e3, "cosine", 1e3, np.complex64, name="src")
    fg.connect(src, blocks.throttle(100e3, np.complex64), blocks.null_sink(np.complex64))
    base = fg.serve("127.0.0.1:0", allowed_origins=["http://dash.example:8080"]).rstrip("/")
    fg.start()
    try:

        def put(origin, content_type="application/json"):
            req = urllib.request.Request(
                base + "/api/blocks/src/params/amplitude",
                data=b'{"value": 2}',
                method="PUT",
                headers={"content-type": content_type, "origin": origin},
            )
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    return r.status
            except urllib.error.HTTPError as e:
                with e:
                    return e.code

        assert put("http://evil.example") == 403
        assert put(base, "text/plain") == 415
        assert put(base) == 200
        assert put("http://dash.example:8080") == 200
    finally:
        fg.stop()
        fg.wait(timeout=60)
