//! What the network blocks share: resolving an address, errors naming the block and address,
//! waits bounded so that a stop request is seen, and the count of dropped datagrams.

use radioflow_runtime::BlockError;
use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

/// How long one wait on a socket (a receive, a send, an accept) lasts before the stop flag is
/// looked at again.
pub(crate) const WAIT_SLICE: Duration = Duration::from_millis(50);

/// How long a TCP client tries to connect before the graph fails to start.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// An error of block `who` (`udp_sink (UDP 127.0.0.1:2000)`).
pub(crate) fn error(who: &str, what: &str, e: impl std::fmt::Display) -> BlockError {
    BlockError::msg(format!("{who}: {what}: {e}"))
}

/// The first address `host`:`port` resolves to (GNU Radio takes the resolver's first too).
pub(crate) fn resolve(who: &str, host: &str, port: u16) -> Result<SocketAddr, BlockError> {
    (host, port)
        .to_socket_addrs()
        .map_err(|e| error(who, "cannot resolve the address", e))?
        .next()
        .ok_or_else(|| error(who, "cannot resolve the address", "no address"))
}

/// A wait that ended without data (a socket's timeout, or nothing there without waiting).
pub(crate) fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// The peer went away (a reset, a closed pipe).
pub(crate) fn is_disconnect(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::NotConnected
    )
}

/// Waits up to `timeout` until `socket` is readable (a listener: a client waits to be
/// accepted). std has no accept with a timeout, so this polls the descriptor.
#[cfg(unix)]
pub(crate) fn wait_readable(
    socket: &impl std::os::fd::AsRawFd,
    timeout: Duration,
) -> io::Result<bool> {
    let mut fd = libc::pollfd {
        fd: socket.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: `fd` is one valid pollfd that outlives the call, and the count says one.
    let n = unsafe { libc::poll(&mut fd, 1, ms) };
    match n {
        n if n < 0 => {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                Ok(false)
            } else {
                Err(e)
            }
        }
        0 => Ok(false),
        _ => Ok(true),
    }
}

/// Datagrams a UDP source dropped as malformed: counted, and logged on the first and then at
/// 10, 100, 1000... so that a flood cannot flood the log.
#[derive(Debug, Default)]
pub(crate) struct Dropped {
    count: u64,
}

impl Dropped {
    /// Counts one datagram `who` dropped, from `from`, because of `why`.
    pub(crate) fn drop_one(&mut self, who: &str, from: SocketAddr, why: &dyn std::fmt::Display) {
        self.count += 1;
        let n = self.count;
        if n == 1 {
            tracing::warn!("{who}: dropped a malformed datagram from {from}: {why}");
        } else if n.ilog10() != (n - 1).ilog10() {
            tracing::warn!(
                "{who}: dropped {n} malformed datagrams so far (the last from {from}: {why})"
            );
        }
    }

    pub(crate) fn count(&self) -> u64 {
        self.count
    }
}

/// The registry's `port` (a `u32`, the registry having no `u16`) as a port number.
pub(crate) fn port(port: u32) -> Result<u16, radioflow_runtime::registry::Refused> {
    u16::try_from(port)
        .map_err(|_| radioflow_runtime::registry::Refused::param("port", "must be at most 65535"))
}
