//! The control connection between the coordinator and a host's `radioflow serve`: TCP, each
//! message a `u32` big-endian length and that many bytes of JSON ([`ToHost`], [`FromHost`]).
//!
//! ```text
//! coordinator                          host (radioflow serve)
//!   Hello{version, token}       ->
//!                               <-     Welcome | Refused{reason}   (token compared in constant time)
//!   Part{part}                  ->     builds its blocks, binds a PULL socket per incoming link
//!                               <-     Ready{links: item type, port} | Failed
//!   Start{addresses}            ->     connects a PUSH socket per outgoing link, starts the graph
//!                               <-     Started | Failed
//!   Heartbeat (every 500 ms)    <->    Heartbeat (every 500 ms)
//!   LinkClosed{link}            <->    LinkClosed{link}   (a receiving end's readers finished)
//!   Stop                        ->     (another host failed or was lost)
//!                               <-     Finished{blocks} | Failed{error}
//!   Close                       ->     (every host finished: sockets released, session over)
//! ```

use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::time::Duration;

/// The protocol's version; a host refuses a coordinator of another.
pub const VERSION: u32 = 1;

/// The largest message either side accepts (a part with big parameter vectors fits).
const MAX_MESSAGE: u32 = 64 << 20;

/// Before the token: the largest hello a host reads from an unknown peer.
pub(crate) const MAX_HELLO: u32 = 4096;

/// How often each side of a control connection says it is alive.
pub(crate) const HEARTBEAT_EVERY: Duration = Duration::from_millis(500);

/// Silence after which a peer is taken as lost.
pub(crate) const PEER_TIMEOUT: Duration = Duration::from_secs(10);

/// What the coordinator sends a host.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ToHost {
    /// The first message: the protocol version and the shared token.
    Hello { version: u32, token: String },
    /// The host's part of the graph.
    Part { part: Part },
    /// The addresses of the receiving ends of the host's outgoing links, by link id.
    Start { addresses: Vec<(u32, String)> },
    /// The receiving end of this outgoing link stopped reading: end the sending end.
    LinkClosed { link: u32 },
    /// Stop the graph (another host failed, or the coordinator was stopped).
    Stop,
    /// Every host finished: release the sockets and end the session.
    Close,
    /// The coordinator is alive.
    Heartbeat,
}

/// What a host sends the coordinator.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum FromHost {
    /// The token was right.
    Welcome,
    /// The hello was refused (the connection closes after this).
    Refused { reason: String },
    /// The part is built; each link end's item type and, for receiving ends, its port.
    Ready { links: Vec<LinkReady> },
    /// The graph runs.
    Started,
    /// The receiving end of this incoming link stopped reading.
    LinkClosed { link: u32 },
    /// The host's graph ended without error.
    Finished { blocks: Vec<BlockReport> },
    /// Building, starting or running failed (the text names the block).
    Failed { error: String },
    /// The host is alive.
    Heartbeat,
}

/// One host's part of the graph.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Part {
    /// The host's name in the graph (for errors).
    pub(crate) host: String,
    /// The scheduler (`flow`, `tpb:realtime`, ...).
    pub(crate) scheduler: String,
    pub(crate) blocks: Vec<PartBlock>,
    /// Stream connections inside the part, `a.out -> b.in` ends as text.
    pub(crate) streams: Vec<(String, String)>,
    /// Message connections inside the part.
    pub(crate) messages: Vec<(String, String)>,
    /// The ends of cut connections on this host.
    pub(crate) links: Vec<PartLink>,
    /// Receiving link ends drop malformed frames instead of failing.
    #[serde(default)]
    pub(crate) drop_malformed: bool,
}

/// A block of a part.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct PartBlock {
    pub(crate) name: String,
    pub(crate) block: String,
    pub(crate) dtype: Option<String>,
    /// Parameters by name, each `pmt::serialize`d (every PMT a parameter can be survives).
    pub(crate) params: Vec<(String, Vec<u8>)>,
}

/// One end of a cut connection.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct PartLink {
    /// The link's number in the graph.
    pub(crate) id: u32,
    /// A message connection (else a stream).
    pub(crate) message: bool,
    /// This host sends (the local end is an output), else receives.
    pub(crate) send: bool,
    /// The local port, `block.port`.
    pub(crate) port: String,
    /// The whole connection, `a:src.0 -> b:copy.0`, for errors.
    pub(crate) text: String,
}

/// A link end once built.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct LinkReady {
    pub(crate) id: u32,
    /// The item type of a stream end (`float32`, ...); `None` for messages.
    pub(crate) item: Option<String>,
    /// A receiving end's bound port.
    pub(crate) port: Option<u16>,
}

/// A block's counters when its host finished.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BlockReport {
    /// The block's name.
    pub name: String,
    /// Items it consumed (all inputs).
    pub consumed: u64,
    /// Items it produced (all outputs).
    pub produced: u64,
    /// Messages it handled.
    pub messages: u64,
    /// Malformed frames it dropped (a link's receiving end, `RunOptions::drop_malformed`).
    #[serde(default)]
    pub dropped: u64,
}

/// Writes one message.
pub(crate) fn send<T: Serialize>(w: &mut impl Write, msg: &T) -> std::io::Result<()> {
    let body = serde_json::to_vec(msg).map_err(std::io::Error::other)?;
    let len = u32::try_from(body.len())
        .ok()
        .filter(|&n| n <= MAX_MESSAGE)
        .ok_or_else(|| std::io::Error::other("control message too large"))?;
    let mut out = Vec::with_capacity(4 + body.len());
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&body);
    w.write_all(&out)?;
    w.flush()
}

/// Reads one message of at most `max` bytes (`None`: [`MAX_MESSAGE`]).
pub(crate) fn recv<T: for<'de> Deserialize<'de>>(
    r: &mut impl Read,
    max: Option<u32>,
) -> std::io::Result<T> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len);
    let max = max.unwrap_or(MAX_MESSAGE);
    if len > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a control message of {len} bytes (at most {max} here): not a radioflow peer?"),
        ));
    }
    // Read what arrives rather than allocate what the length claims: a peer announcing
    // 64 MiB and sending nothing holds no memory.
    let mut body = Vec::new();
    r.take(u64::from(len)).read_to_end(&mut body)?;
    if body.len() != len as usize {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    serde_json::from_slice(&body).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not a radioflow control message: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_oversized_ones_are_refused() {
        let mut buf = Vec::new();
        send(
            &mut buf,
            &ToHost::Hello {
                version: VERSION,
                token: "t".into(),
            },
        )
        .unwrap();
        let back: ToHost = recv(&mut buf.as_slice(), Some(MAX_HELLO)).unwrap();
        assert!(matches!(back, ToHost::Hello { version: VERSION, token } if token == "t"));
        let mut big = (MAX_HELLO + 1).to_be_bytes().to_vec();
        big.extend(std::iter::repeat_n(b' ', 16));
        let e = recv::<ToHost>(&mut big.as_slice(), Some(MAX_HELLO)).unwrap_err();
        assert!(e.to_string().contains("not a radioflow peer"), "{e}");
        let garbage = [0u8, 0, 0, 2, b'{', b'x'];
        assert!(recv::<ToHost>(&mut garbage.as_slice(), None).is_err());
    }
}
