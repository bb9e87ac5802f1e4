//! The network blocks talking to each other and to the test's own sockets over loopback:
//! every UDP header and GNU Radio item type under every scheduler, malformed and short
//! datagrams dropped and counted, sequence gaps counted, TCP client and server both ways, the
//! end of a TCP stream ending the graph, and a stop ending a block that waits.
//!
//! No test depends on timing: each datagram burst stays far below a socket's receive buffer
//! (so loopback loses nothing), the graphs end by themselves (a `Head`, a closed connection),
//! and every wait is bounded by a generous hang guard.

use radioflow_blocks::runtime::{
    Complex32, FlowScheduler, Flowgraph, Item, RunError, Scheduler, SingleThread, ThreadPerBlock,
};
use radioflow_blocks::{Head, NullSink, VectorSink, VectorSource};
use radioflow_interop::{TcpSink, TcpSource, UdpHeader, UdpSink, UdpSource};
use std::fmt::Debug;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, UdpSocket};
use std::time::Duration;

/// A hang guard, not a measurement.
const GUARD: Duration = Duration::from_secs(60);

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

/// A UDP port free on this machine now.
fn free_udp_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A TCP port free on this machine now.
fn free_tcp_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits (bounded) for a started graph to end; fails the test naming the busy blocks if it
/// does not.
fn finish(fg: &mut Flowgraph, what: &str) -> Result<(), RunError> {
    match fg.wait_timeout(GUARD) {
        Err(RunError::Unresponsive { blocks, .. }) => {
            fg.stop();
            let _ = fg.wait_timeout(Duration::from_secs(10));
            panic!("{what}: the graph did not end (busy: {blocks:?})");
        }
        other => other,
    }
}

/// Sends `data` through a UDP sink and receives it with a UDP source, each in a graph of its
/// own on a scheduler `s` makes (on the single-thread scheduler a source waiting for the
/// network waits with its whole graph, so the sender must be elsewhere).
fn udp_through<T: Item + PartialEq + Debug>(
    data: Vec<T>,
    header: UdpHeader,
    payload: usize,
    s: &dyn Scheduler,
) -> Vec<T> {
    let port = free_udp_port();
    let mut receiver = Flowgraph::new();
    let rx = receiver.add(UdpSource::<T>::new(port, header, payload).unwrap());
    let head = receiver.add(Head::<T>::new(data.len() as u64));
    let out = receiver.add(VectorSink::<T>::new());
    receiver.connect(rx, head).unwrap();
    receiver.connect(head, out).unwrap();
    // Bound once started: nothing sent after this is lost for want of a listener.
    receiver.start(s).unwrap();
    let n = data.len();
    let mut sender = Flowgraph::new();
    let src = sender.add(VectorSource::new(data));
    let tx = sender.add(
        UdpSink::<T>::new("127.0.0.1", port, header, payload)
            .unwrap()
            .send_eof(true),
    );
    sender.connect(src, tx).unwrap();
    sender.start(s).unwrap();
    finish(&mut sender, &format!("udp sender {header} on {}", s.name())).unwrap();
    finish(
        &mut receiver,
        &format!("udp receiver {header} on {}", s.name()),
    )
    .unwrap();
    let got = receiver
        .block::<VectorSink<T>>(out)
        .unwrap()
        .data()
        .to_vec();
    assert_eq!(got.len(), n);
    got
}

/// Items per datagram of `payload` bytes with `header`.
fn per_packet<T>(header: UdpHeader, payload: usize) -> usize {
    (payload - header.size()) / std::mem::size_of::<T>()
}

fn check_type<T: Item + PartialEq + Debug>(make: impl Fn(usize) -> T) {
    for s in schedulers() {
        for header in [UdpHeader::None, UdpHeader::SeqNum, UdpHeader::SeqPlusSize] {
            // A small payload: many datagrams, few bytes (loopback loses none).
            let payload = 8 * 16 + header.size();
            let n = per_packet::<T>(header, payload) * 24;
            let data: Vec<T> = (0..n).map(&make).collect();
            assert_eq!(
                udp_through(data.clone(), header, payload, s.as_ref()),
                data,
                "{header} on {}",
                s.name()
            );
        }
    }
}

#[test]
fn udp_carries_every_gnu_radio_type_with_every_header_on_every_scheduler() {
    check_type(|i| Complex32::new(i as f32 * 0.5, -(i as f32)));
    check_type(|i| i as f32 * 0.25);
    check_type(|i| i as i32 * 7 - 1000);
    check_type(|i| (i as i16).wrapping_mul(3));
    check_type(|i| i as i8);
}

#[test]
fn udp_at_gnu_radio_default_payload() {
    let n = per_packet::<Complex32>(UdpHeader::SeqPlusSize, 1472) * 10;
    let data: Vec<Complex32> = (0..n).map(|i| Complex32::new(i as f32, 1.0)).collect();
    let got = udp_through(
        data.clone(),
        UdpHeader::SeqPlusSize,
        1472,
        &FlowScheduler::new(),
    );
    assert_eq!(got, data);
}

/// A source on a fresh port receiving `n` `i32` items; the test's own socket sends to it.
struct Receiver {
    fg: Flowgraph,
    source: radioflow_blocks::runtime::BlockId,
    out: radioflow_blocks::runtime::BlockId,
    sender: UdpSocket,
}

impl Receiver {
    fn start(source: UdpSource<i32>, port: u16, n: u64) -> Self {
        let mut fg = Flowgraph::new();
        let source = fg.add(source);
        let head = fg.add(Head::<i32>::new(n));
        let out = fg.add(VectorSink::<i32>::new());
        fg.connect(source, head).unwrap();
        fg.connect(head, out).unwrap();
        fg.start(&ThreadPerBlock::new()).unwrap();
        let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
        sender.connect(("127.0.0.1", port)).unwrap();
        Receiver {
            fg,
            source,
            out,
            sender,
        }
    }

    fn send(&self, datagram: &[u8]) {
        assert_eq!(self.sender.send(datagram).unwrap(), datagram.len());
    }

    /// Waits for the graph's end; the items and the source (for its counters).
    fn finish(mut self) -> (Vec<i32>, u64, u64) {
        finish(&mut self.fg, "receiver").unwrap();
        let source = self.fg.block::<UdpSource<i32>>(self.source).unwrap();
        let data = self.fg.block::<VectorSink<i32>>(self.out).unwrap().data();
        (
            data.to_vec(),
            source.missed_packets(),
            source.dropped_datagrams(),
        )
    }
}

fn items(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

fn with_seq(seq: u64, values: &[i32]) -> Vec<u8> {
    let mut d = seq.to_ne_bytes().to_vec();
    d.extend(items(values));
    d
}

#[test]
fn malformed_and_empty_datagrams_are_dropped_and_counted_not_fatal() {
    let port = free_udp_port();
    let source = UdpSource::<i32>::new(port, UdpHeader::SeqNum, 8 + 4 * 4).unwrap();
    let rx = Receiver::start(source, port, 6);
    rx.send(&with_seq(1, &[1, 2, 3]));
    rx.send(&[]); // GNU Radio's end-of-stream mark: skipped, not counted
    rx.send(&[0xFF; 5]); // shorter than the header
    rx.send(&with_seq(2, &[9, 9, 9, 9, 9])); // longer than payload_size
    let mut ragged = with_seq(3, &[9]);
    ragged.push(0); // not a whole number of items
    rx.send(&ragged);
    rx.send(&with_seq(4, &[4, 5, 6]));
    let (data, missed, dropped) = rx.finish();
    assert_eq!(data, [1, 2, 3, 4, 5, 6], "no malformed bytes got through");
    assert_eq!(dropped, 3);
    // 1 -> 4: the three dropped datagrams' numbers are missing from what was taken.
    assert_eq!(missed, 2);
}

#[test]
fn sequence_gaps_are_counted_as_gnu_radio_counts_them() {
    let port = free_udp_port();
    let source = UdpSource::<i32>::new(port, UdpHeader::SeqNum, 8 + 4)
        .unwrap()
        .notify_missed(true);
    let rx = Receiver::start(source, port, 5);
    // 1 -> 2: none; 2 -> 5: two; 5 -> 3: none (lower, becomes the last); 3 -> 4: none.
    for (seq, v) in [(1, 10), (2, 20), (5, 50), (3, 30), (4, 40)] {
        rx.send(&with_seq(seq, &[v]));
    }
    let (data, missed, dropped) = rx.finish();
    assert_eq!(data, [10, 20, 50, 30, 40]);
    assert_eq!((missed, dropped), (2, 0));
}

#[test]
fn the_ata_header_is_skipped_and_its_sequence_read() {
    let port = free_udp_port();
    let source = UdpSource::<i32>::new(port, UdpHeader::Ata, 64 + 4 * 2).unwrap();
    let rx = Receiver::start(source, port, 4);
    for (seq, v) in [(7u32, [1, 2]), (9, [3, 4])] {
        let mut d = vec![0xA5u8; 64];
        d[20..24].copy_from_slice(&seq.to_ne_bytes());
        d.extend(items(&v));
        rx.send(&d);
    }
    let (data, missed, dropped) = rx.finish();
    assert_eq!(data, [1, 2, 3, 4]);
    assert_eq!((missed, dropped), (1, 0));
}

#[test]
fn without_a_header_datagrams_of_any_size_join_one_stream() {
    let port = free_udp_port();
    let source = UdpSource::<i32>::new(port, UdpHeader::None, 1472).unwrap();
    let values: Vec<i32> = (0..100).map(|i| i * 1_000_003).collect();
    let rx = Receiver::start(source, port, 100);
    let bytes = items(&values);
    // Cuts through items: a partial item waits for the next datagram.
    let mut at = 0;
    for len in [3, 5, 7, 1, 64, 13].iter().cycle() {
        let end = (at + len).min(bytes.len());
        rx.send(&bytes[at..end]);
        at = end;
        if at == bytes.len() {
            break;
        }
    }
    let (data, _, dropped) = rx.finish();
    assert_eq!(data, values);
    assert_eq!(dropped, 0);
}

#[test]
fn src_zeros_writes_zeros_while_nothing_comes() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let source = fg.add(
            UdpSource::<f32>::new(free_udp_port(), UdpHeader::None, 1472)
                .unwrap()
                .src_zeros(true),
        );
        let head = fg.add(Head::<f32>::new(10_000));
        let out = fg.add(VectorSink::<f32>::new());
        fg.connect(source, head).unwrap();
        fg.connect(head, out).unwrap();
        fg.start(s.as_ref()).unwrap();
        finish(&mut fg, "src_zeros").unwrap();
        let data = fg.block::<VectorSink<f32>>(out).unwrap().data();
        assert_eq!(data.len(), 10_000);
        assert!(data.iter().all(|&x| x == 0.0));
    }
}

#[test]
fn ipv6_sources_and_sinks_talk_over_ipv6_loopback() {
    if UdpSocket::bind("[::1]:0").is_err() {
        eprintln!("SKIPPED: no IPv6 loopback here");
        return;
    }
    let port = free_udp_port();
    let n = per_packet::<i32>(UdpHeader::SeqNum, 1472) * 3;
    let data: Vec<i32> = (0..n as i32).collect();
    let mut fg = Flowgraph::new();
    let rx = fg.add(
        UdpSource::<i32>::new(port, UdpHeader::SeqNum, 1472)
            .unwrap()
            .ipv6(true),
    );
    let head = fg.add(Head::<i32>::new(n as u64));
    let out = fg.add(VectorSink::<i32>::new());
    fg.connect(rx, head).unwrap();
    fg.connect(head, out).unwrap();
    let src = fg.add(VectorSource::new(data.clone()));
    let tx = fg.add(UdpSink::<i32>::new("::1", port, UdpHeader::SeqNum, 1472).unwrap());
    fg.connect(src, tx).unwrap();
    fg.start(&FlowScheduler::new()).unwrap();
    finish(&mut fg, "ipv6").unwrap();
    assert_eq!(fg.block::<VectorSink<i32>>(out).unwrap().data(), data);
}

#[test]
fn a_sink_sends_whole_datagrams_and_drops_a_last_partial_one() {
    let receiver = UdpSocket::bind("127.0.0.1:0").unwrap();
    receiver
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let port = receiver.local_addr().unwrap().port();
    let payload = 16 + 4 * 3;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((1..=7).collect::<Vec<i32>>()));
    let tx = fg.add(
        UdpSink::<i32>::new("127.0.0.1", port, UdpHeader::SeqPlusSize, payload)
            .unwrap()
            .send_eof(true),
    );
    fg.connect(src, tx).unwrap();
    fg.run_with(&ThreadPerBlock::new()).unwrap();
    let mut buf = [0u8; 2048];
    let mut datagrams = Vec::new();
    loop {
        let n = receiver.recv(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        datagrams.push(buf[..n].to_vec());
    }
    assert_eq!(
        datagrams.len(),
        2,
        "7 items: two datagrams of 3, the last item unsent"
    );
    for (k, d) in datagrams.iter().enumerate() {
        assert_eq!(d.len(), payload);
        assert_eq!(d[..8], (k as u64 + 1).to_ne_bytes(), "numbered from 1");
        assert_eq!(d[8..10], (payload as i16).to_ne_bytes());
        assert_eq!(d[10..16], [0; 6]);
        let first = 3 * k as i32 + 1;
        assert_eq!(d[16..], items(&[first, first + 1, first + 2]));
    }
    // The other two end marks.
    assert_eq!(receiver.recv(&mut buf).unwrap(), 0);
    assert_eq!(receiver.recv(&mut buf).unwrap(), 0);
}

#[test]
fn payload_sizes_and_headers_gnu_radio_refuses_or_garbles_are_errors() {
    assert!(UdpSink::<f32>::new("127.0.0.1", 9, UdpHeader::Ata, 1472).is_err());
    let e = UdpSource::<Complex32>::new(9, UdpHeader::SeqNum, 1470)
        .unwrap_err()
        .to_string();
    assert!(e.contains("payload_size 1470"), "{e}");
    assert!(UdpSink::<f32>::new("127.0.0.1", 9, UdpHeader::None, 4).is_err());
    assert!(UdpSink::<f32>::new("127.0.0.1", 9, UdpHeader::None, 65_508).is_err());
}

#[test]
fn tcp_client_sink_to_server_source_carries_every_item_on_every_scheduler() {
    for s in schedulers() {
        let port = free_tcp_port();
        let data: Vec<Complex32> = (0..100_000)
            .map(|i| Complex32::new(i as f32, -0.5))
            .collect();
        let mut receiver = Flowgraph::new();
        let rx = receiver.add(TcpSource::<Complex32>::new("127.0.0.1", port, true));
        let out = receiver.add(VectorSink::<Complex32>::new());
        receiver.connect(rx, out).unwrap();
        // Listening once started: the sender's start hook connects.
        receiver.start(s.as_ref()).unwrap();
        let mut sender = Flowgraph::new();
        let src = sender.add(VectorSource::new(data.clone()));
        let tx = sender.add(TcpSink::<Complex32>::new("127.0.0.1", port, false));
        sender.connect(src, tx).unwrap();
        sender.start(s.as_ref()).unwrap();
        finish(&mut sender, &format!("tcp sender on {}", s.name())).unwrap();
        // Ends by itself: the sink closed the connection at the end of its input.
        finish(&mut receiver, &format!("tcp receiver on {}", s.name())).unwrap();
        assert_eq!(
            receiver.block::<VectorSink<Complex32>>(out).unwrap().data(),
            data,
            "{}",
            s.name()
        );
    }
}

#[test]
fn tcp_client_source_reads_until_the_server_closes_and_drops_a_partial_item() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut fg = Flowgraph::new();
    let rx = fg.add(TcpSource::<i32>::new("127.0.0.1", port, false));
    let out = fg.add(VectorSink::<i32>::new());
    fg.connect(rx, out).unwrap();
    fg.start(&SingleThread::new()).unwrap();
    let (mut peer, _) = listener.accept().unwrap();
    let mut bytes = items(&[1, -2, 3]);
    bytes.extend([7, 7]); // half an item, then the end
    for b in bytes.chunks(5) {
        peer.write_all(b).unwrap();
    }
    drop(peer);
    finish(&mut fg, "tcp client source").unwrap();
    assert_eq!(fg.block::<VectorSink<i32>>(out).unwrap().data(), [1, -2, 3]);
}

/// Reads `n` `i32` items from `stream`.
fn read_items(stream: &mut TcpStream, n: usize) -> Vec<i32> {
    let mut bytes = vec![0u8; 4 * n];
    stream.read_exact(&mut bytes).unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn tcp_server_sink_serves_one_client_after_another_from_an_item_boundary() {
    const PERIOD: i32 = 1 << 20;
    let port = free_tcp_port();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..PERIOD).collect::<Vec<i32>>()).repeat(true));
    let tx = fg.add(TcpSink::<i32>::new("0.0.0.0", port, true));
    fg.connect(src, tx).unwrap();
    fg.start(&FlowScheduler::new()).unwrap();
    for _client in 0..2 {
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        c.set_read_timeout(Some(GUARD)).unwrap();
        // What came before the client connected was dropped: the items start anywhere in
        // the counter, but whole and in order.
        let got = read_items(&mut c, 50_000);
        for w in got.windows(2) {
            assert_eq!(w[1], (w[0] + 1) % PERIOD, "items in order, none cut");
        }
    }
    fg.stop();
    finish(&mut fg, "tcp server sink").unwrap();
}

#[test]
fn tcp_client_sink_ends_when_the_server_goes() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new((0..1000).collect::<Vec<i32>>()).repeat(true));
    let tx = fg.add(TcpSink::<i32>::new("127.0.0.1", port, false));
    fg.connect(src, tx).unwrap();
    fg.start(&ThreadPerBlock::new()).unwrap();
    let (mut peer, _) = listener.accept().unwrap();
    let got = read_items(&mut peer, 10);
    assert_eq!(got, (0..10).collect::<Vec<_>>());
    drop(peer);
    // The sink sees the closed connection, ends, and its endless source ends with it.
    finish(&mut fg, "tcp client sink").unwrap();
}

#[test]
fn a_tcp_client_with_no_server_fails_to_start_naming_block_address_and_port() {
    let port = free_tcp_port();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1.0f32]));
    let tx = fg.add(TcpSink::<f32>::new("127.0.0.1", port, false));
    fg.connect(src, tx).unwrap();
    let e = fg.run_with(&ThreadPerBlock::new()).unwrap_err().to_string();
    assert!(
        e.contains("tcp_sink") && e.contains(&format!("127.0.0.1:{port}")) && e.contains("connect"),
        "{e}"
    );
}

#[test]
fn a_udp_port_in_use_fails_to_start_naming_block_and_port() {
    let taken = UdpSocket::bind("0.0.0.0:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let mut fg = Flowgraph::new();
    let rx = fg.add(UdpSource::<f32>::new(port, UdpHeader::None, 1472).unwrap());
    let out = fg.add(NullSink::<f32>::new());
    fg.connect(rx, out).unwrap();
    let e = fg.run_with(&ThreadPerBlock::new()).unwrap_err().to_string();
    assert!(
        e.contains("udp_source") && e.contains(&format!("port {port}")),
        "{e}"
    );
}

#[test]
fn a_stop_ends_every_block_that_waits_on_the_network() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        // A UDP source with nothing coming.
        let udp = fg.add(UdpSource::<f32>::new(free_udp_port(), UdpHeader::SeqNum, 1472).unwrap());
        let a = fg.add(NullSink::<f32>::new());
        fg.connect(udp, a).unwrap();
        // A TCP server source with no client.
        let tcp = fg.add(TcpSource::<f32>::new("127.0.0.1", free_tcp_port(), true));
        let b = fg.add(NullSink::<f32>::new());
        fg.connect(tcp, b).unwrap();
        // A TCP client sink whose server never reads (its buffers fill, the sink waits).
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let src = fg.add(VectorSource::new(vec![0.5f32; 4096]).repeat(true));
        let tx = fg.add(TcpSink::<f32>::new("127.0.0.1", port, false));
        fg.connect(src, tx).unwrap();
        fg.start(s.as_ref()).unwrap();
        let (_peer, _) = listener.accept().unwrap();
        fg.stop();
        finish(&mut fg, &format!("stop on {}", s.name())).unwrap();
    }
}
