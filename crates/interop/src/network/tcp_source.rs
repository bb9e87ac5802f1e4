//! [`TcpSource`]: items read from a TCP connection, as GNU Radio's `network.tcp_source`.

use super::socket::{error, is_disconnect, is_timeout, resolve, wait_readable, WAIT_SLICE};
use super::tcp::{self, Direction};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::io::Read;
use std::net::{TcpListener, TcpStream};

/// Reads items from one TCP connection, as GNU Radio's `network.tcp_source`: the bytes of
/// the stream are the items in native byte order, as GNU Radio's `network.tcp_sink` (or
/// [`TcpSink`](crate::TcpSink)) writes them.
///
/// - Output `out`: the items read.
/// - `address`, `port`: in server mode (`server`, the default) the address to listen on
///   (`0.0.0.0` or `::` for every interface; `127.0.0.1` for this machine only): the first
///   client is taken and the listener closed. In client mode, the server to connect to.
///
/// The stream ends when the peer closes the connection (or resets it), as GNU Radio's does;
/// a last partial item is dropped. A server listens from the start of the graph (an address
/// in use fails the start) and waits for its client in slices of 50 ms, so a stop is seen; a
/// client connects when the graph starts and fails the start if it cannot within 10 s (GNU
/// Radio's Python block connects, or waits for its client, when it is made).
///
/// Blocking: yes (reads in slices of 50 ms, so a stop is seen).
/// On the single-thread scheduler the whole graph waits with it, so what it receives must come
/// from another graph or program.
///
/// ```no_run
/// use radioflow_interop::TcpSource;
/// let source = TcpSource::<i16>::new("0.0.0.0", 2000, true);
/// ```
#[library_block(
    id = "tcp_source",
    summary = "Items read from a TCP connection (as server or client), as GNU Radio's \
               network.tcp_source.",
    dtypes = all,
    make = Self::new(address, super::socket::port(port)?, server)
)]
#[param(
    address: String = "127.0.0.1",
    doc = "server: the address to listen on; client: the server's"
)]
#[param(port: u32, min = 1, example = 2000, doc = "the TCP port")]
#[param(server: bool = true, doc = "listen for one client (else connect to a server)")]
#[derive(Debug)]
pub struct TcpSource<T: Item> {
    /// The items read.
    #[output(name = "out")]
    output: StreamOutput<T>,
    address: String,
    port: u16,
    server: bool,
    /// `tcp_source (TCP server 127.0.0.1:2000)`, for errors.
    who: String,
    listener: Option<TcpListener>,
    stream: Option<TcpStream>,
    /// The bytes of an item read in part (its size, made at start), and how many.
    partial: Vec<u8>,
    partial_len: usize,
}

#[block(blocking)]
impl<T: Item> TcpSource<T> {
    /// A source on `address`:`port`, listening for a client if `server`, else connecting.
    pub fn new(address: impl Into<String>, port: u16, server: bool) -> Self {
        let address = address.into();
        let who = tcp::who("tcp_source", &address, port, server);
        Self {
            output: StreamOutput::new(),
            address,
            port,
            server,
            who,
            listener: None,
            stream: None,
            partial: Vec::new(),
            partial_len: 0,
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let address = resolve(&self.who, &self.address, self.port)?;
        self.partial = vec![0; std::mem::size_of::<T>()];
        self.partial_len = 0;
        if self.server {
            self.listener = Some(tcp::listen(&self.who, address)?);
        } else {
            let stream = tcp::connect(&self.who, address)?;
            self.stream = Some(tcp::in_slices(&self.who, stream, Direction::Read)?);
        }
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.listener = None;
        self.stream = None;
        Ok(())
    }

    /// Waits one slice for the client; takes it and closes the listener if it came.
    fn accept(&mut self) -> Result<(), BlockError> {
        let Some(listener) = &self.listener else {
            return Err(BlockError::msg(format!("{}: work before start", self.who)));
        };
        if !wait_readable(listener, WAIT_SLICE).map_err(|e| error(&self.who, "accept", e))? {
            return Ok(());
        }
        match listener.accept() {
            Ok((stream, peer)) => {
                tracing::info!("{}: client {peer} connected", self.who);
                self.listener = None;
                self.stream = Some(tcp::in_slices(&self.who, stream, Direction::Read)?);
                Ok(())
            }
            Err(e) if is_timeout(&e) => Ok(()),
            Err(e) => Err(error(&self.who, "accept", e)),
        }
    }

    /// Reads what the connection has (waiting in slices until the graph is stopped or every
    /// reader is gone: the runtime calls a source again only when its output changes); `Done`
    /// when the peer closed it.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let size = std::mem::size_of::<T>();
        if self.output.slice().is_empty() {
            return Ok(WorkStatus::Continue);
        }
        loop {
            if stop_requested() || self.output.readers_gone() {
                return Ok(WorkStatus::Continue);
            }
            let Some(stream) = &mut self.stream else {
                self.accept()?;
                continue;
            };
            let out = bytemuck::cast_slice_mut::<T, u8>(self.output.slice());
            let kept = self.partial_len;
            out[..kept].copy_from_slice(&self.partial[..kept]);
            let read = match stream.read(&mut out[kept..]) {
                Ok(0) => return Ok(WorkStatus::Done),
                Ok(n) => n,
                Err(e) if is_timeout(&e) => continue,
                Err(e) if is_disconnect(&e) => {
                    tracing::warn!("{}: the peer reset the connection: {e}", self.who);
                    return Ok(WorkStatus::Done);
                }
                Err(e) => return Err(error(&self.who, "read", e)),
            };
            let total = kept + read;
            let items = total / size;
            self.partial_len = total % size;
            self.partial[..self.partial_len].copy_from_slice(&out[items * size..total]);
            if items > 0 {
                self.output.produce(items);
                return Ok(WorkStatus::Continue);
            }
        }
    }
}
