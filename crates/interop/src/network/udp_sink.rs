//! [`UdpSink`]: sends items over UDP, as GNU Radio's `network.udp_sink`.

use super::datagram::{Layout, PacketError};
use super::header::UdpHeader;
use super::socket::{error, is_timeout, resolve, WAIT_SLICE};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};

/// Empty datagrams sent at the end with `send_eof` (GNU Radio sends three).
const EOF_DATAGRAMS: usize = 3;

/// Sends its input over UDP to one address, wire-compatible with GNU Radio's
/// `network.udp_sink`: every datagram is `payload_size` bytes, the header (if any) then whole
/// items in native byte order. GNU Radio's `network.udp_source` (or
/// [`UdpSource`](crate::UdpSource)) with the same header and payload size receives it.
///
/// - Input `in`: the items to send.
/// - `address`, `port`: where to (a name or an IPv4 / IPv6 address; empty: `localhost`). The
///   socket is IPv6 when the address is.
/// - `header`: none, or a sequence number counting datagrams from 1 (`seqnum`), or a sequence
///   number and the payload size (`seqplussize`) ([`UdpHeader`]).
/// - `payload_size`: bytes of a whole datagram, header included (GNU Radio's `payloadsize`;
///   1472 fills an Ethernet frame).
/// - `send_eof`: when the graph ends, send three empty datagrams (GNU Radio's end-of-stream
///   mark).
///
/// Items go out in whole datagrams only: at the end of the stream, items too few to fill one
/// are not sent, as in GNU Radio. UDP does not wait for a receiver: datagrams sent while
/// nobody listens are lost.
///
/// Blocking: yes (a full socket buffer is waited on in slices of 50 ms, so a stop is seen).
///
/// ```no_run
/// use radioflow_interop::{UdpHeader, UdpSink};
/// let sink = UdpSink::<f32>::new("127.0.0.1", 2000, UdpHeader::SeqNum, 1472)?.send_eof(true);
/// # Ok::<(), radioflow_interop::PacketError>(())
/// ```
#[library_block(
    id = "udp_sink",
    summary = "Sends items over UDP, wire-compatible with GNU Radio's network.udp_sink \
               (optionally with its sequence-number header).",
    dtypes = all,
    make = Self::new(address, super::socket::port(port)?, header, payload_size)?.send_eof(send_eof)
)]
#[param(address: String = "127.0.0.1", doc = "the host to send to (empty: localhost)")]
#[param(port: u32, min = 1, example = 2000, doc = "the UDP port to send to")]
#[param(
    header: UdpHeader = "none",
    words = ["none", "seqnum", "seqplussize"],
    doc = "the header before each datagram's items"
)]
#[param(
    payload_size: usize = 1472,
    doc = "bytes of a whole datagram, header included"
)]
#[param(send_eof: bool = false, doc = "send three empty datagrams when the graph ends")]
#[derive(Debug)]
pub struct UdpSink<T: Item> {
    /// The items to send.
    #[input(name = "in")]
    input: StreamInput<T>,
    address: String,
    port: u16,
    layout: Layout,
    send_eof: bool,
    /// `udp_sink (UDP 127.0.0.1:2000)`, for errors.
    who: String,
    socket: Option<(UdpSocket, SocketAddr)>,
    /// The datagram being built (`payload_size` bytes, made at start).
    datagram: Vec<u8>,
    /// The last sequence number sent.
    seq: u64,
}

#[block(blocking)]
impl<T: Item> UdpSink<T> {
    /// A sink sending to `address`:`port` datagrams of `payload_size` bytes with `header`,
    /// without the end-of-stream datagrams.
    ///
    /// # Errors
    /// `header` is [`UdpHeader::Ata`] (received only), or `payload_size` is under GNU Radio's 8
    /// bytes, over a UDP datagram's 65507, or does not leave a positive whole number of items
    /// after the header.
    pub fn new(
        address: impl Into<String>,
        port: u16,
        header: UdpHeader,
        payload_size: usize,
    ) -> Result<Self, PacketError> {
        if header == UdpHeader::Ata {
            return Err(PacketError::NotSent(header));
        }
        let layout = Layout::new(header, payload_size, std::mem::size_of::<T>())?;
        let address = address.into();
        let host = if address.is_empty() {
            "localhost"
        } else {
            &address
        };
        let who = if host.contains(':') {
            format!("udp_sink (UDP [{host}]:{port})")
        } else {
            format!("udp_sink (UDP {host}:{port})")
        };
        Ok(Self {
            // GNU Radio's output multiple: work sees whole datagrams, and a last partial one
            // is left unsent.
            input: StreamInput::new().with_min_items(layout.items_per_packet()),
            address,
            port,
            layout,
            send_eof: false,
            who,
            socket: None,
            datagram: Vec::new(),
            seq: 0,
        })
    }

    /// Send three empty datagrams when the graph ends (GNU Radio's `send_eof`).
    pub fn send_eof(mut self, on: bool) -> Self {
        self.send_eof = on;
        self
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let host = if self.address.is_empty() {
            "localhost"
        } else {
            &self.address
        };
        let to = resolve(&self.who, host, self.port)?;
        let local = if to.is_ipv6() {
            SocketAddr::from((Ipv6Addr::UNSPECIFIED, 0))
        } else {
            SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))
        };
        let socket = UdpSocket::bind(local).map_err(|e| error(&self.who, "socket", e))?;
        socket
            .set_write_timeout(Some(WAIT_SLICE))
            .map_err(|e| error(&self.who, "socket option", e))?;
        self.socket = Some((socket, to));
        self.datagram = vec![0; self.layout.payload_size];
        self.seq = 0;
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some((socket, to)) = self.socket.take()
            && self.send_eof
        {
            for _ in 0..EOF_DATAGRAMS {
                // The graph ends either way; a lost end mark is what UDP allows.
                let _ = socket.send_to(&[], to);
            }
        }
        Ok(())
    }

    /// Sends every whole datagram's worth of the input, waiting (in slices) on a full socket
    /// buffer until the graph is stopped.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let Some((socket, to)) = &self.socket else {
            return Err(BlockError::msg(format!("{}: work before start", self.who)));
        };
        let per = self.layout.items_per_packet();
        let header = self.layout.header;
        let h = header.size();
        let mut sent = 0;
        'packets: for items in self.input.slice().chunks_exact(per) {
            header.write(
                &mut self.datagram[..h],
                self.seq + 1,
                self.layout.payload_size,
            );
            self.datagram[h..].copy_from_slice(bytemuck::cast_slice(items));
            loop {
                match socket.send_to(&self.datagram, *to) {
                    Ok(_) => break,
                    Err(e) if is_timeout(&e) => {
                        if stop_requested() {
                            break 'packets;
                        }
                    }
                    Err(e) => return Err(error(&self.who, "send", e)),
                }
            }
            self.seq += 1;
            sent += per;
        }
        self.input.consume(sent);
        Ok(WorkStatus::Continue)
    }
}
