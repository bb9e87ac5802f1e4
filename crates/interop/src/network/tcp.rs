//! What the TCP blocks share: their name in errors, a listener that waits for clients without
//! blocking the graph, a client's bounded connect, and a connection's waits in slices.

use super::socket::{error, CONNECT_TIMEOUT, WAIT_SLICE};
use radioflow_runtime::BlockError;
use std::net::{SocketAddr, TcpListener, TcpStream};

/// Which way a block's connection carries items: what its waits are set on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Direction {
    Read,
    Write,
}

/// `tcp_source (TCP server 127.0.0.1:2000)`, `tcp_sink (TCP client [::1]:2000)`: how a TCP
/// block names itself in errors and logs.
pub(crate) fn who(block: &str, address: &str, port: u16, server: bool) -> String {
    let role = if server { "server" } else { "client" };
    if address.contains(':') {
        format!("{block} (TCP {role} [{address}]:{port})")
    } else {
        format!("{block} (TCP {role} {address}:{port})")
    }
}

/// A listener on `address` that never blocks: the block polls it for a client between slices.
pub(crate) fn listen(who: &str, address: SocketAddr) -> Result<TcpListener, BlockError> {
    let listener = TcpListener::bind(address).map_err(|e| error(who, "bind", e))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| error(who, "socket option", e))?;
    Ok(listener)
}

/// A client's connection to `address`, refused if not made within [`CONNECT_TIMEOUT`].
pub(crate) fn connect(who: &str, address: SocketAddr) -> Result<TcpStream, BlockError> {
    TcpStream::connect_timeout(&address, CONNECT_TIMEOUT).map_err(|e| error(who, "connect", e))
}

/// `stream` (connected or accepted) made blocking with waits of [`WAIT_SLICE`] in
/// `direction`, so that the block sees a stop request between waits.
pub(crate) fn in_slices(
    who: &str,
    stream: TcpStream,
    direction: Direction,
) -> Result<TcpStream, BlockError> {
    stream
        .set_nonblocking(false)
        .and_then(|()| match direction {
            Direction::Read => stream.set_read_timeout(Some(WAIT_SLICE)),
            Direction::Write => stream.set_write_timeout(Some(WAIT_SLICE)),
        })
        .map_err(|e| error(who, "socket option", e))?;
    Ok(stream)
}
