//! A running graph with a control port, and a small HTTP client, for the tests.
#![allow(dead_code, unreachable_pub)]

pub mod chromium;

use radioflow_blocks::{MessageDebug, SignalSource, Throttle, Waveform};
use radioflow_control::{add_probe, serve, ControlConfig, ControlHandle, ProbeConfig};
use radioflow_runtime::prelude::*;
use radioflow_runtime::{BlockId, Counters, Flowgraph};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A sink with a message output that never posts: it keeps `debug` (a pure message block)
/// alive until the graph stops.
#[derive(Ports)]
pub struct Ticker {
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    #[message_output(name = "out")]
    out: MessageOutput,
}

#[block]
impl Ticker {
    pub fn new() -> Self {
        Self {
            input: StreamInput::new(),
            out: MessageOutput::new(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

/// `src` (a complex tone, amplitude 1) -> `throttle` (200 kS/s) -> `ticker`, `ticker.out` ->
/// `debug.store`, a probe on `throttle.out`; running, with its control port on loopback.
pub struct Running {
    pub fg: Flowgraph,
    pub control: ControlHandle,
    pub debug: BlockId,
    pub base: String,
}

pub fn start(token: Option<&str>, addr: &str) -> Running {
    let mut config = ControlConfig::new(addr.parse().unwrap());
    config.token = token.map(str::to_owned);
    start_with(config)
}

/// [`start`] with the control port's `config` (its probes and parameters are added here).
pub fn start_with(mut config: ControlConfig) -> Running {
    let mut fg = Flowgraph::new();
    let src = fg.add_named(
        "src",
        SignalSource::<Complex32>::new(
            Waveform::Sine,
            1_000.0,
            200_000.0,
            1.0,
            Complex32::default(),
        ),
    );
    let throttle = fg.add_named("throttle", Throttle::<Complex32>::new(200_000.0));
    let ticker = fg.add_named("ticker", Ticker::new());
    let debug = fg.add_named("debug", MessageDebug::new());
    fg.connect(src, throttle).unwrap();
    fg.connect(throttle, ticker).unwrap();
    fg.connect_message((ticker, "out"), (debug, "store"))
        .unwrap();
    let probe = add_probe(
        &mut fg,
        "throttle.out",
        ProbeConfig {
            size: 256,
            interval: Duration::from_millis(20),
            sample_rate: None,
        },
    )
    .unwrap();
    fg.set_counters(Counters::Timed);
    fg.start(&ThreadPerBlock::new()).unwrap();
    config.probes = vec![probe];
    config
        .params
        .push(("src".into(), "amplitude".into(), serde_json::json!(1.0)));
    let control = serve(&fg, config).unwrap();
    let base = format!("http://{}", control.addr());
    Running {
        fg,
        control,
        debug,
        base,
    }
}

/// Status and JSON body of a request (`body` for POST/PUT; a write is sent as JSON, even
/// without a body), with an optional token header.
pub fn request(method: &str, url: &str, body: Option<&str>, token: Option<&str>) -> (u16, Value) {
    let mut r = ureq::request(method, url).timeout(Duration::from_secs(30));
    if let Some(t) = token {
        r = r.set("Authorization", &format!("Bearer {t}"));
    }
    // Writes are JSON (the control port refuses any other type, as an HTML form would send).
    let result = match body {
        Some(b) => r.set("content-type", "application/json").send_string(b),
        None if method != "GET" => r.set("content-type", "application/json").call(),
        None => r.call(),
    };
    let resp = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap_or_default();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Polls `f` until it returns `Some`, or panics after `deadline` naming `what`.
pub fn poll<T>(what: &str, deadline: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            start.elapsed() < deadline,
            "gave up waiting for {what} after {deadline:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Generous: the machine may be busy with other builds.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// A response read off the wire.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Raw {
    /// The first header named `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One request written by hand on a fresh connection to `addr` (`Connection: close`), so
/// that its headers are exactly what a browser or an attacker would send: `Host` is `addr`
/// unless `headers` give one.
pub fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Raw {
    raw_on(
        TcpStream::connect(addr).unwrap(),
        method,
        path,
        headers,
        body,
    )
}

/// [`raw`] on a connection made by the caller (from another source address, say).
pub fn raw_on(
    mut stream: TcpStream,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Raw {
    let addr = stream.peer_addr().unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        text += &format!("Host: {addr}\r\n");
    }
    for (n, v) in headers {
        text += &format!("{n}: {v}\r\n");
    }
    let body = body.unwrap_or("");
    text += &format!("Content-Length: {}\r\n\r\n{body}", body.len());
    // A hang guard, not a timing assertion.
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    let mut answer = String::new();
    match stream.read_to_string(&mut answer) {
        Ok(_) => {}
        // A server refusing a connection may close it with the request unread (a reset),
        // after its answer.
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && !answer.is_empty() => {}
        Err(e) => panic!("{method} {path}: {e} (after {answer:?})"),
    }
    parse_response(&answer).unwrap_or_else(|| panic!("{method} {path}: not HTTP: {answer:?}"))
}

/// Status, headers and body of one HTTP/1.1 response (the whole text).
pub fn parse_response(text: &str) -> Option<Raw> {
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.lines();
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Some(Raw {
        status,
        headers,
        body: body.to_owned(),
    })
}
