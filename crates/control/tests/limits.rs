//! The control port's limits against clients that hold connections or send many requests:
//! request budgets per client address counted only after the token, header and idle
//! timeouts, and a connection limit that makes room by closing connections that never
//! authenticated. Timeouts are set short here (the port's are configurable); every wait is a
//! hang guard, nothing asserts how long anything took.

mod common;

use common::{parse_response, raw, raw_on, request, start_with, Raw, DEADLINE};
use radioflow_control::{ControlConfig, Limits};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

fn config(token: Option<&str>, limits: impl FnOnce(&mut Limits)) -> ControlConfig {
    let mut config = ControlConfig::new("127.0.0.1:0".parse().unwrap());
    config.token = token.map(str::to_owned);
    limits(&mut config.limits);
    config
}

#[test]
fn requests_without_the_token_do_not_spend_the_token_holders_budget() {
    let r = start_with(config(Some("sesame"), |l| l.requests_per_second = 20));
    let addr = r.control.addr();
    // Four clients without the token send ten times the budget.
    let strangers: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                (0..50)
                    .map(|_| raw(addr, "GET", "/api/graph", &[], None).status)
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    for s in strangers {
        let statuses = s.join().unwrap();
        assert!(statuses.iter().all(|&s| s == 401), "{statuses:?}");
    }
    // The token holder gets its whole budget.
    for i in 0..20 {
        let (status, v) = request(
            "GET",
            &format!("{}/api/graph", r.base),
            None,
            Some("sesame"),
        );
        assert_eq!(status, 200, "request {i}: {v}");
    }
}

/// A connection to `addr` from the source address `from`.
fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket
        .bind(&format!("{from}:0").parse::<SocketAddr>().unwrap().into())
        .unwrap();
    socket.connect(&addr.into()).unwrap();
    socket.into()
}

#[test]
fn each_client_address_has_its_own_budget() {
    let r = start_with(config(None, |l| l.requests_per_second = 20));
    let addr = r.control.addr();
    // One client (127.0.0.1) spends its budget...
    let spent = (0..10_000).any(|_| raw(addr, "GET", "/api/counters", &[], None).status == 429);
    assert!(spent, "a client past its budget is refused");
    // ...another (127.0.0.2, loopback too) is served.
    let other = raw_on(
        connect_from("127.0.0.2", addr),
        "GET",
        "/api/counters",
        &[],
        None,
    );
    assert_eq!(other.status, 200, "{other:?}");
}

/// Whether the server closed `stream` (end of stream or reset) before the hang guard; any
/// bytes it sent first (an error answer) are allowed.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return true,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return false
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// Sends one keep-alive request on `stream` and reads its answer (by its content-length),
/// leaving the connection open.
fn exchange(stream: &mut TcpStream, path: &str, token: Option<&str>) -> Raw {
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let addr = stream.peer_addr().unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}\r\n").unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut text = Vec::new();
    let mut byte = [0u8; 1];
    while !text.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "answer cut short");
        text.push(byte[0]);
    }
    let head = parse_response(&String::from_utf8_lossy(&text)).unwrap();
    let length: usize = head.header("content-length").unwrap().parse().unwrap();
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).unwrap();
    Raw {
        body: String::from_utf8_lossy(&body).into_owned(),
        ..head
    }
}

#[test]
fn half_open_and_idle_connections_are_closed() {
    let r = start_with(config(None, |l| {
        l.header_timeout = Duration::from_millis(500)
    }));
    let addr = r.control.addr();
    // Headers begun and never finished.
    let mut half = TcpStream::connect(addr).unwrap();
    half.write_all(b"GET /api/graph HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    assert!(closed_by_server(&mut half), "a half-sent request is held");
    // Nothing sent at all.
    let mut silent = TcpStream::connect(addr).unwrap();
    assert!(closed_by_server(&mut silent), "a silent connection is held");
    // Kept alive after an answer, then left idle.
    let mut idle = TcpStream::connect(addr).unwrap();
    assert_eq!(exchange(&mut idle, "/api/graph", None).status, 200);
    assert!(closed_by_server(&mut idle), "an idle connection is held");
}

#[test]
fn a_new_connection_takes_the_place_of_the_oldest_that_never_authenticated() {
    let r = start_with(config(Some("sesame"), |l| {
        l.max_connections = 8;
        // Longer than the test: only making room closes these connections.
        l.header_timeout = Duration::from_secs(3600);
    }));
    let addr = r.control.addr();
    // The port full of connections that send nothing, or only requests without the token.
    let mut strangers: Vec<TcpStream> = (0..8)
        .map(|i| {
            let mut s = TcpStream::connect(addr).unwrap();
            if i % 2 == 1 {
                assert_eq!(exchange(&mut s, "/api/graph", None).status, 401);
            }
            s
        })
        .collect();
    // The token holder gets in; the oldest stranger made room.
    let (status, v) = request(
        "GET",
        &format!("{}/api/graph", r.base),
        None,
        Some("sesame"),
    );
    assert_eq!(status, 200, "{v}");
    assert!(closed_by_server(&mut strangers[0]));
    // Connections that authenticated keep their places: eight of them fill the port...
    let mut holders: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            assert_eq!(exchange(&mut s, "/api/graph", Some("sesame")).status, 200);
            s
        })
        .collect();
    for s in &mut strangers[1..] {
        assert!(closed_by_server(s), "a stranger kept its place");
    }
    // ...so the next connection is told there is no room.
    let full = raw(
        addr,
        "GET",
        "/api/graph",
        &[("Authorization", "Bearer sesame")],
        None,
    );
    assert_eq!(full.status, 503, "{full:?}");
    assert!(full.body.contains("too many connections"), "{full:?}");
    // One leaves: its place is free again (once the port has seen it go).
    drop(holders.pop());
    common::poll("a place freed by a closed connection", DEADLINE, || {
        let resp = raw(
            addr,
            "GET",
            "/api/graph",
            &[("Authorization", "Bearer sesame")],
            None,
        );
        (resp.status == 200).then_some(())
    });
    // The holders still work.
    assert_eq!(
        exchange(&mut holders[0], "/api/counters", Some("sesame")).status,
        200
    );
}
