//! [`UdpSource`]: items received over UDP, as GNU Radio's `network.udp_source`.

use super::datagram::{Layout, PacketError};
use super::header::UdpHeader;
use super::socket::{error, is_timeout, Dropped, WAIT_SLICE};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};

/// Room for the largest datagram (65507 bytes over IPv4, 65527 over IPv6), so none is cut.
const DATAGRAM_ROOM: usize = 1 << 16;

/// Receives items over UDP on a port of every interface, wire-compatible with GNU Radio's
/// `network.udp_source`: what GNU Radio's `network.udp_sink` (or
/// [`UdpSink`](crate::UdpSink)) sends, with the same header and payload size.
///
/// - Output `out`: the items of the datagrams, in the order they arrive.
/// - `header`: none, or GNU Radio's sequence-number headers ([`UdpHeader`]); a gap in the
///   sequence numbers counts the datagrams missed ([`missed_packets`](Self::missed_packets);
///   logged with `notify_missed`); nothing is put in their place, as in GNU Radio.
/// - `payload_size`: GNU Radio's `payloadsize`, the bytes of a whole datagram with its header.
/// - `src_zeros`: while no datagram is waiting, write zeros (as much as the output has room
///   for) instead of waiting, as GNU Radio does.
/// - `ipv6`: listen on IPv6 too (`[::]`, which takes IPv4 as well where the system maps it)
///   rather than IPv4 only.
///
/// Without a header the datagrams are one stream of bytes, as in GNU Radio: a datagram of any
/// length is taken and a partial item waits for the next datagram. GNU Radio's source holds
/// the bytes back until it has `payload_size` of them; this one writes whole items at once.
///
/// Anyone who can reach the port can send to it. A datagram that does not fit the header
/// (shorter than the header, longer than `payload_size`, or not whole items after the header)
/// is dropped, counted ([`dropped_datagrams`](Self::dropped_datagrams)) and logged (the first,
/// then the 10th, 100th...); it never stops the graph and never shifts the items that follow
/// (GNU Radio's source, which cuts its byte stream at every `payload_size` bytes, would read
/// the rest of the stream out of step). A datagram shorter than `payload_size` but otherwise
/// whole is taken. An empty datagram (GNU Radio's sink sends three with `send_eof`) is
/// skipped: GNU Radio 3.10's source has no end of stream either. Memory is one buffer of 64
/// KiB, made when the graph starts.
///
/// It never ends by itself: stop the graph, or end it downstream (a
/// [`Head`](radioflow_blocks::Head)). Blocking: yes (waits on the socket in slices of 50 ms,
/// so a stop is seen).
/// On the single-thread scheduler the whole graph waits with it, so what it receives must come
/// from another graph or program.
///
/// ```no_run
/// use radioflow_interop::{UdpHeader, UdpSource};
/// let source = UdpSource::<f32>::new(2000, UdpHeader::SeqNum, 1472)?.notify_missed(true);
/// # Ok::<(), radioflow_interop::PacketError>(())
/// ```
#[library_block(
    id = "udp_source",
    summary = "Items received over UDP, wire-compatible with GNU Radio's network.udp_source \
               (optionally with its sequence-number or ATA header).",
    dtypes = all,
    make = Self::new(super::socket::port(port)?, header, payload_size)?
        .notify_missed(notify_missed)
        .src_zeros(src_zeros)
        .ipv6(ipv6)
)]
#[param(port: u32, min = 1, example = 2000, doc = "the UDP port to listen on")]
#[param(
    header: UdpHeader = "none",
    words = ["none", "seqnum", "seqplussize", "ata"],
    doc = "the header before each datagram's items"
)]
#[param(
    payload_size: usize = 1472,
    doc = "bytes of a whole datagram, header included"
)]
#[param(notify_missed: bool = false, doc = "log the datagrams a sequence-number gap shows missing")]
#[param(src_zeros: bool = false, doc = "write zeros while no datagram is waiting")]
#[param(ipv6: bool = false, doc = "listen on IPv6 ([::]) rather than IPv4 only")]
#[derive(Debug)]
pub struct UdpSource<T: Item> {
    /// The items received.
    #[output(name = "out")]
    output: StreamOutput<T>,
    port: u16,
    layout: Layout,
    notify_missed: bool,
    src_zeros: bool,
    ipv6: bool,
    /// `udp_source (UDP port 2000)`, for errors and logs.
    who: String,
    socket: Option<UdpSocket>,
    /// The last datagram received; `start..end` of it is still to be written (`DATAGRAM_ROOM`
    /// plus one item, made at start: without a header, a partial item is kept before the next
    /// datagram).
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    /// The last sequence number seen.
    last_seq: Option<u64>,
    missed: u64,
    dropped: Dropped,
}

#[block(blocking)]
impl<T: Item> UdpSource<T> {
    /// A source on `port` for datagrams with `header`, `payload_size` bytes each (GNU Radio's
    /// `payloadsize`: 1472 fills an Ethernet frame), IPv4 only, neither logging missed datagrams
    /// nor writing zeros.
    ///
    /// # Errors
    /// `payload_size` is under GNU Radio's 8 bytes, over a UDP datagram's 65507, or does not
    /// leave a positive whole number of items after the header.
    pub fn new(port: u16, header: UdpHeader, payload_size: usize) -> Result<Self, PacketError> {
        Ok(Self {
            output: StreamOutput::new(),
            port,
            layout: Layout::new(header, payload_size, std::mem::size_of::<T>())?,
            notify_missed: false,
            src_zeros: false,
            ipv6: false,
            who: format!("udp_source (UDP port {port})"),
            socket: None,
            buffer: Vec::new(),
            start: 0,
            end: 0,
            last_seq: None,
            missed: 0,
            dropped: Dropped::default(),
        })
    }

    /// Log (a warning) each gap in the sequence numbers (GNU Radio's `notify_missed`).
    pub fn notify_missed(mut self, on: bool) -> Self {
        self.notify_missed = on;
        self
    }

    /// Write zeros while no datagram is waiting (GNU Radio's `src_zeros`).
    pub fn src_zeros(mut self, on: bool) -> Self {
        self.src_zeros = on;
        self
    }

    /// Listen on `[::]` (IPv6, and IPv4 where the system maps it) rather than `0.0.0.0`.
    pub fn ipv6(mut self, on: bool) -> Self {
        self.ipv6 = on;
        self
    }

    /// Datagrams missed, by the gaps in the sequence numbers (0 without a header).
    pub fn missed_packets(&self) -> u64 {
        self.missed
    }

    /// Datagrams dropped as malformed.
    pub fn dropped_datagrams(&self) -> u64 {
        self.dropped.count()
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let address = if self.ipv6 {
            SocketAddr::from((Ipv6Addr::UNSPECIFIED, self.port))
        } else {
            SocketAddr::from((Ipv4Addr::UNSPECIFIED, self.port))
        };
        let socket = UdpSocket::bind(address).map_err(|e| error(&self.who, "bind", e))?;
        if self.src_zeros {
            socket.set_nonblocking(true)
        } else {
            socket.set_read_timeout(Some(WAIT_SLICE))
        }
        .map_err(|e| error(&self.who, "socket option", e))?;
        tracing::debug!("{}: listening on {address}", self.who);
        self.socket = Some(socket);
        self.buffer = vec![0; DATAGRAM_ROOM + self.layout.item_size];
        (self.start, self.end, self.last_seq) = (0, 0, None);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.socket = None;
        if self.missed > 0 {
            tracing::info!("{}: {} datagrams missed in all", self.who, self.missed);
        }
        Ok(())
    }

    /// Writes what the last datagram holds; else waits (in slices) for the next one until the
    /// graph is stopped or every reader is gone: the runtime calls a source again only when its
    /// output changes, which a socket does not do.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let size = self.layout.item_size;
        if self.output.slice().is_empty() {
            return Ok(WorkStatus::Continue);
        }
        loop {
            if self.end - self.start >= size {
                self.write_pending();
                return Ok(WorkStatus::Continue);
            }
            if stop_requested() || self.output.readers_gone() {
                return Ok(WorkStatus::Continue);
            }
            if !self.receive()? && self.src_zeros && self.start == self.end {
                let n = self.output.slice().len();
                bytemuck::cast_slice_mut::<T, u8>(self.output.slice()).fill(0);
                self.output.produce(n);
                return Ok(WorkStatus::Continue);
            }
        }
    }

    /// Receives the next datagram after the partial item kept, if one comes within a wait
    /// slice (or, with `src_zeros`, is there now); `false` if none did.
    fn receive(&mut self) -> Result<bool, BlockError> {
        let Some(socket) = &self.socket else {
            return Err(BlockError::msg(format!("{}: work before start", self.who)));
        };
        // Without a header, a partial item (fewer bytes than an item) waits at the front.
        let kept = self.end - self.start;
        self.buffer.copy_within(self.start..self.end, 0);
        (self.start, self.end) = (0, kept);
        let (len, from) = match socket.recv_from(&mut self.buffer[kept..]) {
            Ok(got) => got,
            Err(e) if is_timeout(&e) => return Ok(false),
            Err(e) => return Err(error(&self.who, "receive", e)),
        };
        if len == 0 {
            return Ok(true);
        }
        match self.layout.items_start(len) {
            Ok(items) => {
                // A datagram with a header is whole items: nothing was kept before it.
                debug_assert!(kept == 0 || items == 0);
                if let Some(seq) = self.layout.header.sequence(&self.buffer[..len]) {
                    self.count_missed(seq);
                }
                (self.start, self.end) = (items, kept + len);
            }
            Err(why) => self.dropped.drop_one(&self.who, from, &why),
        }
        Ok(true)
    }

    /// Counts the datagrams a jump to `seq` skipped, as GNU Radio does: a number lower than the
    /// last (a restarted sender, a reordered datagram) counts none, and becomes the last.
    fn count_missed(&mut self, seq: u64) {
        if let Some(last) = self.last_seq {
            let skipped = seq.saturating_sub(last).saturating_sub(1);
            if skipped > 0 {
                self.missed += skipped;
                if self.notify_missed {
                    tracing::warn!("{}: missed {skipped} packets", self.who);
                }
            }
        }
        self.last_seq = Some(seq);
    }

    /// Writes as many whole items of `start..end` as there is room for.
    fn write_pending(&mut self) {
        let size = self.layout.item_size;
        let out = bytemuck::cast_slice_mut::<T, u8>(self.output.slice());
        let n = ((self.end - self.start) / size).min(out.len() / size);
        let bytes = n * size;
        out[..bytes].copy_from_slice(&self.buffer[self.start..self.start + bytes]);
        self.start += bytes;
        self.output.produce(n);
    }
}
