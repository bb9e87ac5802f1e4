//! `radioflow serve`: listens for coordinators and runs each one's part of a graph.
//!
//! Whoever can reach the port can open connections, so those that have not said hello yet
//! (with the token) are bounded: each gets [`ServeConfig::hello_timeout`] in all, at most
//! [`ServeConfig::max_pending`] wait at once (one more closes the oldest waiting, which had
//! the longest to say it), and each is told in words why it is closed. No accept error ends
//! the server: out of descriptors, it closes the oldest waiting connection and backs off
//! briefly.

use crate::session::{self, HelloError};
use crate::HostsError;
use std::collections::VecDeque;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// After an accept error other than a peer that left: the pause before the next accept, so
/// that a lasting one (no descriptor left) does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Where and how a host serves ([`ServeConfig::new`], then change what differs).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServeConfig {
    /// The control address (data links bind on its IP, on ports the system picks). Loopback
    /// unless told otherwise: `127.0.0.1:7300` by default in the CLI.
    pub listen: SocketAddr,
    /// The token a coordinator must present (not empty).
    pub token: String,
    /// Serve one coordinator's session, then return (else serve until killed). Connections
    /// refused before it (a wrong token, no hello) do not count.
    pub once: bool,
    /// How long a new connection has to send its hello, in all (10 s); then it is told so
    /// and closed.
    pub hello_timeout: Duration,
    /// Connections waiting to send their hello at once (16); one more closes the oldest of
    /// them.
    pub max_pending: usize,
}

impl ServeConfig {
    /// Serving on `listen` with `token`, until killed, with the default limits.
    pub fn new(listen: SocketAddr, token: impl Into<String>) -> Self {
        Self {
            listen,
            token: token.into(),
            once: false,
            hello_timeout: crate::wire::PEER_TIMEOUT,
            max_pending: 16,
        }
    }
}

/// A bound `serve` endpoint, not yet accepting.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    config: ServeConfig,
}

impl Server {
    /// Binds the control address.
    ///
    /// # Errors
    /// [`HostsError::EmptyToken`]: the token is empty (it would let anyone in);
    /// [`HostsError::Listen`]: the address is taken or not this machine's.
    pub fn bind(config: ServeConfig) -> Result<Self, HostsError> {
        if config.token.trim().is_empty() {
            return Err(HostsError::EmptyToken {
                address: config.listen.to_string(),
            });
        }
        let listener = TcpListener::bind(config.listen).map_err(|source| HostsError::Listen {
            address: config.listen.to_string(),
            source,
        })?;
        Ok(Self { listener, config })
    }

    /// The address bound (with the port the system chose for port 0).
    ///
    /// # Errors
    /// The socket's address cannot be read.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts coordinators, each on a thread of its own, until killed (or after one session
    /// with `once`). Logs to stderr: who connected and how it ended, accept errors.
    ///
    /// # Errors
    /// The bound socket's address cannot be read; accept errors are logged, not returned.
    pub fn run(self) -> Result<(), HostsError> {
        let ip = self
            .local_addr()
            .map_err(|source| HostsError::Listen {
                address: self.config.listen.to_string(),
                source,
            })?
            .ip();
        let pending = Arc::new(Pending {
            max: self.config.max_pending.max(1),
            list: Mutex::new(VecDeque::new()),
        });
        // Whether the last accept failed (its error logged once, not at every retry).
        let mut failing = false;
        let mut next_id = 0u64;
        loop {
            let (mut stream, peer) = match self.listener.accept() {
                Ok(accepted) => {
                    failing = false;
                    accepted
                }
                Err(e) => {
                    if !failing {
                        eprintln!("serve: accepting a connection: {e} (serving on)");
                        failing = true;
                    }
                    if out_of_descriptors(&e) {
                        pending.close_oldest();
                    }
                    if !matches!(
                        e.kind(),
                        std::io::ErrorKind::ConnectionAborted
                            | std::io::ErrorKind::ConnectionReset
                            | std::io::ErrorKind::Interrupted
                    ) {
                        std::thread::sleep(ACCEPT_BACKOFF);
                    }
                    continue;
                }
            };
            let token = self.config.token.clone();
            let timeout = self.config.hello_timeout;
            if self.config.once {
                // One session, on this thread: a connection that does not say hello only
                // delays it, by its timeout at most.
                match session::check_hello(&mut stream, &token, timeout) {
                    Ok(()) => {
                        log(&peer, session::run(stream, ip));
                        return Ok(());
                    }
                    Err(e) => log(&peer, Err(refused(&mut stream, e))),
                }
                continue;
            }
            next_id += 1;
            let id = next_id;
            if let Err(e) = pending.admit(id, &stream) {
                log(&peer, Err(format!("closed: {e}")));
                continue;
            }
            let waiting = pending.clone();
            let spawned = std::thread::Builder::new()
                .name("serve-session".into())
                .spawn(move || {
                    let hello = session::check_hello(&mut stream, &token, timeout);
                    if !waiting.finish(id) {
                        log(&peer, Err(format!("closed: {NO_ROOM}")));
                        return;
                    }
                    match hello {
                        Ok(()) => log(&peer, session::run(stream, ip)),
                        Err(e) => log(&peer, Err(refused(&mut stream, e))),
                    }
                });
            if let Err(e) = spawned {
                pending.finish(id);
                log(&peer, Err(format!("closed: no thread for it: {e}")));
            }
        }
    }
}

/// Why a connection waiting to say hello was closed by a newer one.
const NO_ROOM: &str =
    "too many connections waiting to say hello; the oldest makes room for a new one";

/// Logs the end of `peer`'s connection.
fn log(peer: &SocketAddr, end: Result<String, String>) {
    match end {
        Ok(end) => eprintln!("serve: {peer}: {end}"),
        Err(e) => eprintln!("serve: {peer}: {e}"),
    }
}

/// Tells a refused peer why and closes its connection; returns what to log.
fn refused(stream: &mut TcpStream, e: HelloError) -> String {
    match e {
        HelloError::Refuse(reason) => {
            session::refuse(stream, reason.clone());
            format!("refused: {reason}")
        }
        HelloError::Lost(reason) => reason,
    }
}

fn out_of_descriptors(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
    )
}

/// The connections waiting to say hello, oldest first, each with a handle (a clone of its
/// stream) to close it from the accepting thread.
#[derive(Debug)]
struct Pending {
    max: usize,
    list: Mutex<VecDeque<(u64, TcpStream)>>,
}

impl Pending {
    /// Registers connection `id`, closing the oldest waiting one when `max` already wait.
    fn admit(&self, id: u64, stream: &TcpStream) -> std::io::Result<()> {
        let handle = match stream.try_clone() {
            Ok(h) => h,
            // Out of descriptors: the oldest waiting connection's handle frees one.
            Err(_) if self.close_oldest() => stream.try_clone()?,
            Err(e) => return Err(e),
        };
        let oldest = {
            let mut list = self.lock();
            list.push_back((id, handle));
            (list.len() > self.max).then(|| list.pop_front()).flatten()
        };
        if let Some((_, stream)) = oldest {
            close(stream);
        }
        Ok(())
    }

    /// Connection `id` said hello or gave up: it is its thread's again. `false` when it was
    /// closed to make room.
    fn finish(&self, id: u64) -> bool {
        let mut list = self.lock();
        let found = list.iter().position(|(i, _)| *i == id);
        found.and_then(|i| list.remove(i)).is_some()
    }

    /// Closes the oldest waiting connection; whether there was one.
    fn close_oldest(&self) -> bool {
        let oldest = self.lock().pop_front();
        oldest.map(|(_, stream)| close(stream)).is_some()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(u64, TcpStream)>> {
        self.list.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Closes a waiting connection from outside its thread, telling the peer why; its thread's
/// read then ends.
fn close(mut stream: TcpStream) {
    session::refuse(&mut stream, NO_ROOM.into());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_token_is_refused_by_name() {
        for token in ["", "  "] {
            let e =
                Server::bind(ServeConfig::new("127.0.0.1:0".parse().unwrap(), token)).unwrap_err();
            assert!(matches!(e, HostsError::EmptyToken { .. }), "{e}");
            assert!(e.to_string().contains("empty token"), "{e}");
        }
    }
}
