//! `radioflow serve`: listens for coordinators and runs each one's part of a graph.

use crate::{session, HostsError};
use std::net::{SocketAddr, TcpListener};

/// Where and how a host serves.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The control address (data links bind on its IP, on ports the system picks). Loopback
    /// unless told otherwise: `127.0.0.1:7300` by default in the CLI.
    pub listen: SocketAddr,
    /// The token a coordinator must present.
    pub token: String,
    /// Serve one session, then return (else serve until killed).
    pub once: bool,
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
    /// [`HostsError::Listen`]: the address is taken or not this machine's.
    pub fn bind(config: ServeConfig) -> Result<Self, HostsError> {
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

    /// Accepts coordinators, each session on a thread of its own, until killed (or after one
    /// session with `once`). Sessions log to stderr: who connected, how it ended.
    ///
    /// # Errors
    /// Accepting failed.
    pub fn run(self) -> Result<(), HostsError> {
        let ip = self.local_addr().map_err(|source| HostsError::Listen {
            address: self.config.listen.to_string(),
            source,
        })?;
        let ip = ip.ip();
        for stream in self.listener.incoming() {
            let stream = stream.map_err(|source| HostsError::Listen {
                address: self.config.listen.to_string(),
                source,
            })?;
            let peer = stream
                .peer_addr()
                .map_or_else(|_| "?".into(), |a| a.to_string());
            let token = self.config.token.clone();
            let session = move || match session::run(stream, &token, ip) {
                Ok(end) => eprintln!("serve: {peer}: {end}"),
                Err(e) => eprintln!("serve: {peer}: {e}"),
            };
            if self.config.once {
                session();
                return Ok(());
            }
            std::thread::Builder::new()
                .name("serve-session".into())
                .spawn(session)
                .map_err(|source| HostsError::Listen {
                    address: self.config.listen.to_string(),
                    source,
                })?;
        }
        Ok(())
    }
}
