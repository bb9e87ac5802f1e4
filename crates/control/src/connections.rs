//! The control port's connections, accepted here rather than by `axum::serve`, which has no
//! header-read timeout and no connection limit, so that clients that open connections and
//! send nothing could hold every descriptor of the process:
//! - each connection is served by hyper's HTTP/1 server with its header-read timeout, which
//!   also closes a keep-alive connection left idle that long;
//! - at most [`Limits::max_connections`] are open (WebSockets included); a new one beyond that
//!   closes the oldest connection that has not yet made an authenticated request (it had the
//!   longest to do so), or is answered 503 when every one has;
//! - an accept that fails for want of descriptors closes such a connection too and backs off
//!   briefly; no accept error ends the server.

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Notify};
use tower::ServiceExt;

/// How many connections the control port holds, how long it waits for a client, and how many
/// requests a client may make ([`ControlConfig::limits`](crate::ControlConfig::limits)).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Limits {
    /// Connections open at once, WebSockets included (64). A new one beyond this closes the
    /// oldest connection that has not made an authenticated request yet; when every one has,
    /// the new one is answered 503.
    pub max_connections: usize,
    /// How long a client may take to send a request's headers, from the connection's opening
    /// or the end of its previous request, so also how long a connection may stay idle (10 s).
    pub header_timeout: Duration,
    /// Requests per second of each client address, counted once its request is authenticated
    /// (400); more are answered 429.
    pub requests_per_second: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_connections: 64,
            header_timeout: Duration::from_secs(10),
            requests_per_second: 400,
        }
    }
}

/// After an accept error other than a peer that left: the pause before the next accept, so
/// that a lasting one (no descriptor left) does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// A connection that has not made an authenticated request.
const PENDING: u8 = 0;
/// One that has: it keeps its place.
const AUTHENTICATED: u8 = 1;
/// One chosen to make room: closing.
const CLOSING: u8 = 2;

/// One open connection's standing.
#[derive(Debug, Default)]
pub(crate) struct Connection {
    state: AtomicU8,
    close: Notify,
}

impl Connection {
    /// Its request passed the token: it is no longer taken to make room.
    pub(crate) fn authenticate(&self) {
        let _ = self.state.compare_exchange(
            PENDING,
            AUTHENTICATED,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Asks its task to close it, unless it authenticated; whether it will.
    fn close_if_pending(&self) -> bool {
        let closing = self
            .state
            .compare_exchange(PENDING, CLOSING, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok();
        if closing {
            self.close.notify_one();
        }
        closing
    }
}

/// Who sent a request: in every request's extensions.
#[derive(Clone, Debug)]
pub(crate) struct Client {
    /// The client's address (its request budget is per IP).
    pub(crate) peer: SocketAddr,
    /// Its connection, kept counted as long as this lives (a WebSocket's task holds it).
    pub(crate) connection: Arc<Connection>,
}

/// The open connections, oldest first (the tasks serving them hold the only strong
/// references, so a closed one is gone from here by itself).
#[derive(Debug)]
struct Open {
    max: usize,
    list: Mutex<VecDeque<Weak<Connection>>>,
}

impl Open {
    /// A place for a new connection, making room if needed; `None` when every open one is
    /// authenticated.
    fn admit(&self) -> Option<Arc<Connection>> {
        let mut list = self.list.lock().unwrap_or_else(|p| p.into_inner());
        list.retain(|c| c.strong_count() > 0);
        if list.len() >= self.max && !close_oldest_pending(&mut list) {
            return None;
        }
        let connection = Arc::new(Connection::default());
        list.push_back(Arc::downgrade(&connection));
        Some(connection)
    }

    /// Closes the oldest connection not authenticated; whether there was one.
    fn close_oldest_pending(&self) -> bool {
        close_oldest_pending(&mut self.list.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

fn close_oldest_pending(list: &mut VecDeque<Weak<Connection>>) -> bool {
    let found = list
        .iter()
        .position(|c| c.upgrade().is_some_and(|c| c.close_if_pending()));
    found.map(|i| list.remove(i)).is_some()
}

/// Accepts and serves connections with `app` until `stop` fires (or its sender is dropped).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    mut stop: oneshot::Receiver<()>,
) {
    let open = Open {
        max: limits.max_connections.max(1),
        list: Mutex::new(VecDeque::new()),
    };
    loop {
        let accepted = tokio::select! {
            _ = &mut stop => return,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, peer)) => match open.admit() {
                Some(connection) => {
                    let client = Client { peer, connection };
                    tokio::spawn(serve_one(
                        stream,
                        client,
                        app.clone(),
                        limits.header_timeout,
                    ));
                }
                None => refuse(&stream),
            },
            Err(e) => {
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
                ) {
                    open.close_oldest_pending();
                }
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::ConnectionReset
                        | std::io::ErrorKind::Interrupted
                ) {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            }
        }
    }
}

/// Serves one connection until it ends, its header timeout passes, or it is closed to make
/// room.
async fn serve_one(stream: TcpStream, client: Client, app: Router, header_timeout: Duration) {
    let connection = client.connection.clone();
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(client.clone());
        app.clone().oneshot(request)
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let served = http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::select! {
        _ = served => {}
        () = connection.close.notified() => {}
    }
}

/// Answers a connection there is no room for, without waiting on it.
fn refuse(stream: &TcpStream) {
    const BODY: &str = r#"{"error": "too many connections to the control port; try again"}"#;
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    );
    // A fresh socket's send buffer is empty: this small write goes at once or not at all.
    let _ = stream.try_write(response.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_made_by_closing_the_oldest_pending_connection() {
        let open = Open {
            max: 3,
            list: Mutex::new(VecDeque::new()),
        };
        let a = open.admit().unwrap();
        let b = open.admit().unwrap();
        let c = open.admit().unwrap();
        a.authenticate();
        // Full: b, the oldest not authenticated, makes room.
        let d = open.admit().unwrap();
        assert_eq!(b.state.load(Ordering::Relaxed), CLOSING);
        assert_eq!(a.state.load(Ordering::Relaxed), AUTHENTICATED);
        c.authenticate();
        d.authenticate();
        // Every open one authenticated: no room.
        assert!(open.admit().is_none());
        // A closed connection's place is free again.
        drop(a);
        assert!(open.admit().is_some());
        // A connection being closed does not authenticate.
        b.authenticate();
        assert_eq!(b.state.load(Ordering::Relaxed), CLOSING);
    }
}
