//! A `serve` endpoint against connections that do not say hello: each is told why it is
//! closed, those waiting at once are capped, and a refused one does not end a `once` server.
//! The protocol is spoken by hand here (a `u32` big-endian length, then JSON), as a stranger
//! would. Timeouts are set short; every wait is a hang guard, nothing asserts on time.

use radioflow_hosts::{ServeConfig, Server};
use serde_json::{json, Value};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Longer than anything here takes unless it hangs.
const HANG: Duration = Duration::from_secs(60);
const TOKEN: &str = "serve-test-token";

/// Starts a server with `config` changed by `f`, serving on a thread of its own.
fn serve(f: impl FnOnce(&mut ServeConfig)) -> (SocketAddr, std::thread::JoinHandle<()>) {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), TOKEN);
    f(&mut config);
    let server = Server::bind(config).unwrap();
    let addr = server.local_addr().unwrap();
    (addr, std::thread::spawn(move || server.run().unwrap()))
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(HANG)).unwrap();
    s
}

fn send(s: &mut TcpStream, msg: &Value) {
    let body = msg.to_string();
    s.write_all(&(body.len() as u32).to_be_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
}

/// The next message from the host; `None` when it closed the connection.
fn recv(s: &mut TcpStream) -> Option<Value> {
    let mut len = [0u8; 4];
    match s.read_exact(&mut len) {
        Ok(()) => {}
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset
            ) =>
        {
            return None
        }
        Err(e) => panic!("waiting for the host: {e}"),
    }
    let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut body).unwrap();
    Some(serde_json::from_slice(&body).unwrap())
}

fn hello(token: &str) -> Value {
    json!({"type": "hello", "version": radioflow_hosts::VERSION, "token": token})
}

/// The reason of a `refused` message, after which the host closes the connection.
fn refusal(s: &mut TcpStream) -> String {
    let msg = recv(s).expect("a refusal before the connection closes");
    assert_eq!(msg["type"], "refused", "{msg}");
    assert!(recv(s).is_none(), "closed after refusing");
    msg["reason"].as_str().unwrap().to_owned()
}

#[test]
fn a_connection_that_does_not_say_hello_in_time_is_told_so() {
    let (addr, _server) = serve(|c| c.hello_timeout = Duration::from_millis(300));
    // Nothing sent.
    let mut silent = connect(addr);
    let reason = refusal(&mut silent);
    assert!(reason.contains("no hello within 0.3 s"), "{reason}");
    // A hello begun and never finished: the time is for the whole of it.
    let mut slow = connect(addr);
    slow.write_all(&100u32.to_be_bytes()).unwrap();
    slow.write_all(b"{\"type\"").unwrap();
    let reason = refusal(&mut slow);
    assert!(reason.contains("no hello within"), "{reason}");
    // A coordinator is still welcome.
    let mut good = connect(addr);
    send(&mut good, &hello(TOKEN));
    assert_eq!(recv(&mut good).unwrap()["type"], "welcome");
    send(&mut good, &json!({"type": "close"}));
    assert!(recv(&mut good).is_none());
}

#[test]
fn connections_waiting_to_say_hello_are_capped_oldest_first() {
    let (addr, _server) = serve(|c| {
        c.max_pending = 4;
        // Longer than the test: only making room closes these.
        c.hello_timeout = Duration::from_secs(3600);
    });
    let mut waiting: Vec<TcpStream> = (0..4).map(|_| connect(addr)).collect();
    // A fifth: the first makes room, and is told why.
    let mut fifth = connect(addr);
    let reason = refusal(&mut waiting[0]);
    assert!(reason.contains("too many connections waiting"), "{reason}");
    // Many more: every older one goes, the newest ones wait.
    let more: Vec<TcpStream> = (0..20).map(|_| connect(addr)).collect();
    for s in waiting[1..].iter_mut().chain([&mut fifth]) {
        assert!(refusal(s).contains("too many connections waiting"));
    }
    drop(more);
    // A coordinator that says hello at once gets in.
    let mut good = connect(addr);
    send(&mut good, &hello(TOKEN));
    assert_eq!(recv(&mut good).unwrap()["type"], "welcome");
}

#[test]
fn refused_connections_do_not_end_a_once_server() {
    let (addr, server) = serve(|c| {
        c.once = true;
        c.hello_timeout = Duration::from_millis(300);
    });
    let mut wrong = connect(addr);
    send(&mut wrong, &hello("not-the-token"));
    assert!(refusal(&mut wrong).contains("wrong token"));
    let mut silent = connect(addr);
    assert!(refusal(&mut silent).contains("no hello"));
    let mut garbage = connect(addr);
    garbage.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    assert!(refusal(&mut garbage).contains("not a radioflow peer"));
    // The one session it serves, then it returns.
    let mut good = connect(addr);
    send(&mut good, &hello(TOKEN));
    assert_eq!(recv(&mut good).unwrap()["type"], "welcome");
    send(&mut good, &json!({"type": "close"}));
    assert!(recv(&mut good).is_none());
    let start = std::time::Instant::now();
    while !server.is_finished() {
        assert!(
            start.elapsed() < HANG,
            "a once server went on after its session"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    server.join().unwrap();
}
