//! [`TcpSink`]: writes items to a TCP connection, as GNU Radio's `network.tcp_sink`.

use super::socket::{error, is_disconnect, is_timeout, resolve};
use super::tcp::{self, Direction};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::io::Write;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};

/// Writes its input to a TCP connection, as GNU Radio's `network.tcp_sink`: the items in
/// native byte order, nothing else, as GNU Radio's `network.tcp_source` (or
/// [`TcpSource`](crate::TcpSource)) reads them.
///
/// - Input `in`: the items to write.
/// - Client mode (the default): connects to `address`:`port` when the graph starts (failing
///   the start if it cannot within 10 s) and ends (stops taking items) when the server closes
///   the connection, as GNU Radio's does.
/// - Server mode (`server`): listens on `port` of every interface (IPv4, or IPv6 too where
///   `address` is an IPv6 one such as `::`) and writes to one client at a time. As in GNU
///   Radio, items that come while no client is connected are dropped, and when the client
///   goes, the sink drops items until the next one connects.
///
/// A slow reader holds the graph back (TCP's flow control); the sink waits for it in slices
/// of 50 ms, so a stop is seen. Blocking: yes.
///
/// ```no_run
/// use radioflow_interop::TcpSink;
/// let sink = TcpSink::<f32>::new("127.0.0.1", 2000, false);
/// ```
#[library_block(
    id = "tcp_sink",
    summary = "Writes items to a TCP connection (as client or server), as GNU Radio's \
               network.tcp_sink.",
    dtypes = all,
    make = Self::new(address, super::socket::port(port)?, server)
)]
#[param(
    address: String = "127.0.0.1",
    doc = "client: the server's address; server: `::` listens on IPv6 too"
)]
#[param(port: u32, min = 1, example = 2000, doc = "the TCP port")]
#[param(
    server: bool = false,
    doc = "listen for clients, dropping items while none is connected (else connect to a server)"
)]
#[derive(Debug)]
pub struct TcpSink<T: Item> {
    /// The items to write.
    #[input(name = "in")]
    input: StreamInput<T>,
    address: String,
    port: u16,
    server: bool,
    /// `tcp_sink (TCP client 127.0.0.1:2000)`, for errors.
    who: String,
    listener: Option<TcpListener>,
    stream: Option<TcpStream>,
    /// Bytes of the first readable item already written (an item written in part).
    written: usize,
}

#[block(blocking)]
impl<T: Item> TcpSink<T> {
    /// A sink connecting to `address`:`port`, or listening on `port` if `server`.
    pub fn new(address: impl Into<String>, port: u16, server: bool) -> Self {
        let address = address.into();
        let who = tcp::who("tcp_sink", &address, port, server);
        Self {
            input: StreamInput::new(),
            address,
            port,
            server,
            who,
            listener: None,
            stream: None,
            written: 0,
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.written = 0;
        if self.server {
            let any = if self.address.contains(':') {
                SocketAddr::from((Ipv6Addr::UNSPECIFIED, self.port))
            } else {
                SocketAddr::from((Ipv4Addr::UNSPECIFIED, self.port))
            };
            self.listener = Some(tcp::listen(&self.who, any)?);
        } else {
            let address = resolve(&self.who, &self.address, self.port)?;
            let stream = tcp::connect(&self.who, address)?;
            self.stream = Some(tcp::in_slices(&self.who, stream, Direction::Write)?);
        }
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.stream = None;
        self.listener = None;
        Ok(())
    }

    /// Server mode: takes a waiting client, if there is one (without waiting).
    fn accept(&mut self) -> Result<(), BlockError> {
        let Some(listener) = &self.listener else {
            return Err(BlockError::msg(format!("{}: work before start", self.who)));
        };
        match listener.accept() {
            Ok((stream, peer)) => {
                tracing::info!("{}: client {peer} connected", self.who);
                self.written = 0;
                self.stream = Some(tcp::in_slices(&self.who, stream, Direction::Write)?);
                Ok(())
            }
            Err(e) if is_timeout(&e) => Ok(()),
            Err(e) => Err(error(&self.who, "accept", e)),
        }
    }

    /// Writes the input to the connection (waiting in slices on a full connection until the
    /// graph is stopped); without one, drops it (server) or ends (client).
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.stream.is_none() && self.server {
            self.accept()?;
        }
        let size = std::mem::size_of::<T>();
        let Some(stream) = &mut self.stream else {
            if !self.server {
                return Ok(WorkStatus::Done);
            }
            let n = self.input.slice().len();
            self.input.consume(n);
            return Ok(WorkStatus::Continue);
        };
        let bytes: &[u8] = bytemuck::cast_slice(self.input.slice());
        let mut disconnected = None;
        while self.written < bytes.len() {
            match stream.write(&bytes[self.written..]) {
                Ok(0) => disconnected = Some("wrote nothing".to_owned()),
                Ok(n) => self.written += n,
                Err(e) if is_timeout(&e) => {
                    if stop_requested() {
                        break;
                    }
                }
                Err(e) if is_disconnect(&e) => disconnected = Some(e.to_string()),
                Err(e) => return Err(error(&self.who, "write", e)),
            }
            if disconnected.is_some() {
                break;
            }
        }
        let items = self.written / size;
        self.written %= size;
        self.input.consume(items);
        let Some(why) = disconnected else {
            return Ok(WorkStatus::Continue);
        };
        self.stream = None;
        self.written = 0;
        if self.server {
            tracing::info!(
                "{}: the client disconnected ({why}); waiting for a new one",
                self.who
            );
            let n = self.input.slice().len();
            self.input.consume(n);
            Ok(WorkStatus::Continue)
        } else {
            tracing::warn!(
                "{}: the server closed the connection ({why}); stopping",
                self.who
            );
            Ok(WorkStatus::Done)
        }
    }
}
