//! The control port against a hostile web page and a hostile network: real requests over TCP
//! written by hand (forged `Origin` and `Host` headers, cross-site content types, WebSocket
//! handshakes from other origins), as a page the user visits or a DNS rebinding attack would
//! send them. Each case also checks that the graph was left alone and that legitimate use
//! still works.

mod common;

use common::{raw, request, start, Running};
use radioflow_blocks::MessageDebug;
use radioflow_runtime::Pmt;
use serde_json::Value;
use std::net::SocketAddr;
use tungstenite::client::IntoClientRequest;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or(Value::String(body.to_owned()))
}

/// The graph runs on, `src.amplitude` is still 1, and nothing reached `debug.store`.
fn untouched(r: &Running) {
    let (status, g) = request("GET", &format!("{}/api/graph", r.base), None, None);
    assert_eq!((status, &g["running"]), (200, &Value::Bool(true)), "{g}");
    let (_, v) = request(
        "GET",
        &format!("{}/api/blocks/src/params/amplitude", r.base),
        None,
        None,
    );
    assert_eq!(v["value"], 1.0, "{v}");
}

/// Stops the graph from a legitimate client and returns what `debug.store` received.
fn stop_and_stored(mut r: Running) -> Vec<Pmt> {
    let addr = r.control.addr();
    let stop = raw(
        addr,
        "POST",
        "/api/stop",
        &[("Content-Type", "application/json")],
        Some("{}"),
    );
    assert_eq!(stop.status, 200, "{stop:?}");
    r.fg.wait().unwrap();
    r.fg.block::<MessageDebug>(r.debug)
        .unwrap()
        .messages()
        .to_vec()
}

/// Waits until block `name` has handled `n` messages (its counter on `/api/counters`, sampled
/// by the control port's own thread); a minute without them is a failure, not a wait for load.
fn handled(r: &Running, name: &str, n: u64) {
    let guard = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (status, c) = request("GET", &format!("{}/api/counters", r.base), None, None);
        assert_eq!(status, 200, "{c}");
        let count = c["blocks"]
            .as_array()
            .and_then(|b| b.iter().find(|b| b["name"] == name))
            .and_then(|b| b["messages"].as_u64())
            .unwrap_or(0);
        if count >= n {
            return;
        }
        assert!(
            std::time::Instant::now() < guard,
            "{name} handled {count} of {n} messages: {c}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

const WRITES: [(&str, &str, &str); 3] = [
    ("POST", "/api/blocks/debug/messages/store", r#""forged""#),
    ("PUT", "/api/blocks/src/params/amplitude", r#"{"value": 9}"#),
    ("POST", "/api/stop", "{}"),
];

#[test]
fn writes_from_another_origin_are_refused() {
    let r = start(None, "127.0.0.1:0");
    let addr = r.control.addr();
    // A page of another site (a form or `fetch` without preflight sends text/plain; with
    // JSON the browser would ask first), a sandboxed frame (`null`), a page served by another
    // port of this machine.
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        for content_type in ["text/plain", "application/json"] {
            for (method, path, body) in WRITES {
                let resp = raw(
                    addr,
                    method,
                    path,
                    &[("Origin", origin), ("Content-Type", content_type)],
                    Some(body),
                );
                assert_eq!(
                    resp.status, 403,
                    "{method} {path} from {origin} ({content_type}): {resp:?}"
                );
                assert!(
                    json(&resp.body)["error"]
                        .as_str()
                        .is_some_and(|e| e.contains("origin")),
                    "{resp:?}"
                );
            }
        }
    }
    // A browser says where a request comes from even when Origin is left out.
    let resp = raw(
        addr,
        "POST",
        "/api/stop",
        &[
            ("Sec-Fetch-Site", "cross-site"),
            ("Content-Type", "application/json"),
        ],
        Some("{}"),
    );
    assert_eq!(resp.status, 403, "{resp:?}");
    untouched(&r);

    // Writes are JSON, whoever sends them: an HTML form (an old browser's, which sends no
    // Origin) cannot make one.
    let own = format!("http://{addr}");
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        for (method, path, body) in WRITES {
            for headers in [
                vec![("Content-Type", content_type)],
                vec![("Content-Type", content_type), ("Origin", own.as_str())],
            ] {
                let resp = raw(addr, method, path, &headers, Some(body));
                assert_eq!(resp.status, 415, "{method} {path} {headers:?}: {resp:?}");
                assert!(
                    json(&resp.body)["error"]
                        .as_str()
                        .is_some_and(|e| e.contains("application/json")),
                    "{resp:?}"
                );
            }
        }
    }
    let resp = raw(addr, "POST", "/api/stop", &[], None);
    assert_eq!(resp.status, 415, "a write without a body or type: {resp:?}");
    // GET never changes anything: the endpoints that do take POST alone.
    for path in [
        "/api/stop",
        "/api/start",
        "/api/blocks/debug/messages/store",
    ] {
        let resp = raw(addr, "GET", path, &[], None);
        assert_eq!(resp.status, 405, "GET {path}: {resp:?}");
    }
    untouched(&r);

    // The page itself (same origin) and a script (no Origin) may write.
    for headers in [
        vec![("Origin", own.as_str())],
        vec![("Origin", own.as_str()), ("Sec-Fetch-Site", "same-origin")],
        vec![],
    ] {
        let mut headers = headers;
        headers.push(("Content-Type", "application/json; charset=utf-8"));
        let resp = raw(
            addr,
            "POST",
            "/api/blocks/debug/messages/store",
            &headers,
            Some(r#""mine""#),
        );
        assert_eq!(resp.status, 200, "{headers:?}: {resp:?}");
    }
    // A stop does not drain inboxes (`Flowgraph::stop`): the three accepted messages are
    // stored once the block has handled them, which the counters say.
    handled(&r, "debug", 3);
    assert_eq!(stop_and_stored(r), vec![Pmt::symbol("mine"); 3]);
}

#[test]
fn another_host_name_is_refused_so_dns_rebinding_reaches_nothing() {
    let r = start(None, "127.0.0.1:0");
    let addr = r.control.addr();
    let port = addr.port();
    // The attacker's name, resolved to 127.0.0.1 after the page loaded: the browser sends it
    // as Host, and as Origin (the page's own, so a same-origin request to the browser).
    for host in [
        format!("evil.example:{port}"),
        "evil.example".to_owned(),
        format!("127.0.0.1.evil.example:{port}"),
    ] {
        let origin = format!("http://{host}");
        for (method, path, body) in [("GET", "/api/graph", None), ("GET", "/", None)]
            .into_iter()
            .chain(WRITES.map(|(m, p, b)| (m, p, Some(b))))
        {
            let resp = raw(
                addr,
                method,
                path,
                &[
                    ("Host", host.as_str()),
                    ("Origin", origin.as_str()),
                    ("Sec-Fetch-Site", "same-origin"),
                    ("Content-Type", "application/json"),
                ],
                body,
            );
            assert_eq!(resp.status, 403, "{method} {path} as {host}: {resp:?}");
            let error = json(&resp.body)["error"].as_str().unwrap_or("").to_owned();
            assert!(error.contains(&host), "{error}");
        }
        let mut ws = format!("ws://{addr}/api/stream")
            .into_client_request()
            .unwrap();
        ws.headers_mut().insert("host", host.parse().unwrap());
        match tungstenite::connect(ws) {
            Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 403),
            other => panic!("a WebSocket as {host}: {:?}", other.map(|_| ())),
        }
    }
    untouched(&r);
    // The names this port is reached by: its address, another IP literal, localhost.
    for host in [
        addr.to_string(),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let resp = raw(addr, "GET", "/api/graph", &[("Host", host.as_str())], None);
        assert_eq!(resp.status, 200, "as {host}: {resp:?}");
    }
    assert!(stop_and_stored(r).is_empty());
}

/// A WebSocket handshake to `addr` with `origin`; the HTTP status it was refused with, or
/// `None` when it opened (and sent a report).
fn websocket(addr: SocketAddr, origin: Option<&str>) -> Option<u16> {
    let mut req = format!("ws://{addr}/api/stream?period_ms=100")
        .into_client_request()
        .unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tungstenite::connect(req) {
        Ok((mut socket, _)) => {
            let msg = socket.read().unwrap();
            let report: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
            assert!(report["blocks"].is_array(), "{report}");
            None
        }
        Err(tungstenite::Error::Http(resp)) => Some(resp.status().as_u16()),
        Err(e) => panic!("WebSocket from {origin:?}: {e}"),
    }
}

#[test]
fn a_websocket_from_another_origin_is_refused() {
    let r = start(None, "127.0.0.1:0");
    let addr = r.control.addr();
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        assert_eq!(websocket(addr, Some(origin)), Some(403), "{origin}");
    }
    assert_eq!(websocket(addr, Some(&format!("http://{addr}"))), None);
    assert_eq!(websocket(addr, None), None, "a program, not a page");
}

#[test]
fn the_page_cannot_be_framed_and_leaks_no_token() {
    let r = start(Some("sesame"), "127.0.0.1:0");
    let resp = raw(r.control.addr(), "GET", "/?token=sesame", &[], None);
    assert_eq!(resp.status, 200, "{resp:?}");
    // Another site cannot put the page in a frame and have the user click Stop.
    assert_eq!(resp.header("x-frame-options"), Some("DENY"), "{resp:?}");
    assert!(
        resp.header("content-security-policy")
            .is_some_and(|c| c.contains("frame-ancestors 'none'")),
        "{resp:?}"
    );
    // The page's address holds the token: never sent on as a Referer.
    assert_eq!(resp.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(resp.header("x-content-type-options"), Some("nosniff"));
    // The page's scripts send the token as a header, not in the addresses they fetch.
    let (_, app) = request(
        "GET",
        &format!("{}/assets/app.js", r.base),
        None,
        Some("sesame"),
    );
    assert!(
        app.as_str().unwrap().contains("Authorization"),
        "app.js sends Authorization"
    );
    // A preflight from another site gets no permission.
    let resp = raw(
        r.control.addr(),
        "OPTIONS",
        "/api/stop",
        &[
            ("Origin", "http://evil.example"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type, authorization",
            ),
        ],
        None,
    );
    assert!(
        resp.header("access-control-allow-origin").is_none(),
        "{resp:?}"
    );
}

#[test]
fn an_empty_token_is_refused_by_name() {
    let mut fg = radioflow_runtime::Flowgraph::new();
    fg.add(radioflow_blocks::NullSource::<f32>::new());
    for addr in ["127.0.0.1:0", "0.0.0.0:0"] {
        let mut config = radioflow_control::ControlConfig::new(addr.parse().unwrap());
        config.token = Some(String::new());
        let e = radioflow_control::serve(&fg, config).expect_err("an empty token");
        assert!(e.to_string().contains("empty token"), "{e}");
    }
}

#[test]
fn an_allowed_origin_gets_cors_answers_and_its_name_is_a_host() {
    let mut config = radioflow_control::ControlConfig::new("127.0.0.1:0".parse().unwrap());
    config.token = Some("sesame".into());
    config.allowed_origins = vec!["http://Dash.Example:8080".into()];
    let r = common::start_with(config);
    let addr = r.control.addr();
    let dash = "http://dash.example:8080";
    // The browser asks first (JSON and a token header are not "simple"); it is told yes.
    let preflight = |origin: &str| {
        raw(
            addr,
            "OPTIONS",
            "/api/blocks/src/params/amplitude",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "PUT"),
                (
                    "Access-Control-Request-Headers",
                    "authorization, content-type",
                ),
            ],
            None,
        )
    };
    let yes = preflight(dash);
    assert!(yes.status < 300, "{yes:?}");
    assert_eq!(yes.header("access-control-allow-origin"), Some(dash));
    assert!(
        yes.header("access-control-allow-methods")
            .is_some_and(|m| m.contains("PUT")),
        "{yes:?}"
    );
    let no = preflight("http://evil.example");
    assert!(no.header("access-control-allow-origin").is_none(), "{no:?}");
    // Then sends the write, with the token.
    let put = raw(
        addr,
        "PUT",
        "/api/blocks/src/params/amplitude",
        &[
            ("Origin", dash),
            ("Sec-Fetch-Site", "cross-site"),
            ("Authorization", "Bearer sesame"),
            ("Content-Type", "application/json"),
        ],
        Some(r#"{"value": 2}"#),
    );
    assert_eq!(put.status, 200, "{put:?}");
    assert_eq!(put.header("access-control-allow-origin"), Some(dash));
    // Still not without the token.
    let put = raw(
        addr,
        "PUT",
        "/api/blocks/src/params/amplitude",
        &[("Origin", dash), ("Content-Type", "application/json")],
        Some(r#"{"value": 3}"#),
    );
    assert_eq!(put.status, 401, "{put:?}");
    // Its WebSocket and its name as Host.
    let mut ws = format!("ws://{addr}/api/stream?token=sesame")
        .into_client_request()
        .unwrap();
    ws.headers_mut().insert("origin", dash.parse().unwrap());
    assert!(tungstenite::connect(ws).is_ok());
    let get = raw(
        addr,
        "GET",
        "/api/graph",
        &[
            ("Host", "dash.example:8080"),
            ("Authorization", "Bearer sesame"),
        ],
        None,
    );
    assert_eq!(get.status, 200, "{get:?}");
    // Another origin is still refused.
    let put = raw(
        addr,
        "PUT",
        "/api/blocks/src/params/amplitude",
        &[
            ("Origin", "http://evil.example"),
            ("Authorization", "Bearer sesame"),
            ("Content-Type", "application/json"),
        ],
        Some(r#"{"value": 4}"#),
    );
    assert_eq!(put.status, 403, "{put:?}");
    let (_, v) = request(
        "GET",
        &format!("{}/api/blocks/src/params/amplitude", r.base),
        None,
        Some("sesame"),
    );
    assert_eq!(v["value"], 2, "{v}");
}

#[test]
fn an_allowed_origin_that_is_not_one_is_refused_by_name() {
    let mut fg = radioflow_runtime::Flowgraph::new();
    fg.add(radioflow_blocks::NullSource::<f32>::new());
    let mut config = radioflow_control::ControlConfig::new("127.0.0.1:0".parse().unwrap());
    config.allowed_origins = vec!["dash.example:8080".into()];
    let e = radioflow_control::serve(&fg, config).expect_err("not an origin");
    assert!(e.to_string().contains("'dash.example:8080'"), "{e}");
}
