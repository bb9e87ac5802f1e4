//! radioflow's network blocks against GNU Radio 3.10's gr-network (Debian's gnuradio, run with
//! /usr/bin/python3; tests/gnuradio/network_peer.py is the GNU Radio side), both ways, over
//! loopback: UDP with each header both sides share (none, seqnum, seqplussize; each with
//! another GNU Radio item type) and TCP (GNU Radio's client to radioflow's server, radioflow's
//! client to GNU Radio's server), items bit-exact. One GNU Radio process per direction. Each
//! test prints SKIPPED and passes where GNU Radio's network module cannot be imported.
//!
//! No test depends on timing: each UDP stream is 8 datagrams (far below a socket's receive
//! buffer, so loopback loses none), sent only once the receiver listens; both sides end by
//! themselves (a count of items, a closed connection). Every wait is bounded by a generous
//! hang guard, and the peer is killed when a test ends, passing or not.

use radioflow_blocks::runtime::{BlockId, Complex32, Flowgraph, Item, RunError, ThreadPerBlock};
use radioflow_blocks::{Head, VectorSink, VectorSource};
use radioflow_interop::{TcpSink, TcpSource, UdpHeader, UdpSink, UdpSource};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, UdpSocket};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const PYTHON: &str = "/usr/bin/python3";
/// How long the peer may run (it gives up by itself after this).
const PEER_SECONDS: u64 = 60;
/// A hang guard for starting Python and for a radioflow graph, not a measurement.
const GUARD: Duration = Duration::from_secs(90);
/// GNU Radio's default payload size, used on both sides.
const PAYLOAD: usize = 1472;
/// Datagrams per UDP stream.
const DATAGRAMS: usize = 8;
/// Floats over TCP.
const TCP_ITEMS: usize = 50_000;

fn gnu_radio_present(test: &str) -> bool {
    let ok = Command::new(PYTHON)
        .args(["-c", "import gnuradio.network, numpy"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("{test}: SKIPPED: GNU Radio not installed (gnuradio.network cannot be imported by {PYTHON})");
    }
    ok
}

fn free_udp_port() -> u16 {
    let s = UdpSocket::bind("127.0.0.1:0").unwrap();
    s.local_addr().unwrap().port()
}

fn free_tcp_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Items of a datagram with `header` carrying `T`s.
fn per_packet<T>(header: UdpHeader) -> usize {
    (PAYLOAD - header.size()) / std::mem::size_of::<T>()
}

/// The item counts of the three UDP streams (whole datagrams: GNU Radio's sink sends no
/// partial one).
fn counts() -> [usize; 3] {
    [
        per_packet::<Complex32>(UdpHeader::None) * DATAGRAMS,
        per_packet::<i32>(UdpHeader::SeqNum) * DATAGRAMS,
        per_packet::<i16>(UdpHeader::SeqPlusSize) * DATAGRAMS,
    ]
}

/// network_peer.py's items, computed as numpy does.
fn complexes(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| Complex32::new((i as f64 * 0.5) as f32, -(i as f32)))
        .collect()
}
fn ints(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| i * 7 - 1000).collect()
}
fn shorts(n: usize) -> Vec<i16> {
    (0..n).map(|i| (i * 3) as i16).collect()
}
fn floats(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i as f64 * 0.25) as f32).collect()
}

/// The GNU Radio side: a network_peer.py process and its output lines, killed on drop.
struct Peer {
    child: Child,
    lines: Receiver<String>,
}

impl Peer {
    fn start(args: &[String]) -> Self {
        let script =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/network_peer.py");
        let mut child = Command::new(PYTHON)
            .arg(script)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Peer { child, lines }
    }

    /// Waits (bounded) for the "ready" line; GNU Radio's log lines may come first.
    fn wait_ready(&self) {
        let end = Instant::now() + GUARD;
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(line) if line.trim() == "ready" => return,
                Ok(_) => {}
                Err(e) => panic!("the GNU Radio side did not start: {e}"),
            }
        }
    }

    /// Every line the peer prints until it exits (bounded); asserts it exited cleanly.
    fn output(mut self) -> Vec<String> {
        let end = Instant::now() + Duration::from_secs(PEER_SECONDS) + GUARD;
        let mut lines = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("the GNU Radio side did not end"),
            }
        }
        let status = self.child.wait().unwrap();
        assert!(
            status.success(),
            "the GNU Radio side failed ({status}): {lines:?}"
        );
        lines
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits (bounded) for a started graph to end.
fn finish(fg: &mut Flowgraph, what: &str) {
    match fg.wait_timeout(GUARD) {
        Err(RunError::Unresponsive { blocks, .. }) => {
            fg.stop();
            let _ = fg.wait_timeout(Duration::from_secs(10));
            panic!("{what}: the radioflow graph did not end (busy: {blocks:?})");
        }
        other => other.unwrap(),
    }
}

/// Adds `source -> head(n) -> vector sink` to `fg`; the sink's id.
fn receive_into<T: Item>(fg: &mut Flowgraph, source: BlockId, n: usize) -> BlockId {
    let head = fg.add(Head::<T>::new(n as u64));
    let out = fg.add(VectorSink::<T>::new());
    fg.connect(source, head).unwrap();
    fg.connect(head, out).unwrap();
    out
}

fn data<T: Item>(fg: &Flowgraph, sink: BlockId) -> Vec<T> {
    fg.block::<VectorSink<T>>(sink).unwrap().data().to_vec()
}

#[test]
fn gnu_radio_sends_over_udp_and_tcp_and_radioflow_receives_the_same_items() {
    if !gnu_radio_present("gnu_radio_sends") {
        return;
    }
    let udp = [free_udp_port(), free_udp_port(), free_udp_port()];
    let tcp = free_tcp_port();
    let n = counts();
    let mut fg = Flowgraph::new();
    let c = fg.add(UdpSource::<Complex32>::new(udp[0], UdpHeader::None, PAYLOAD).unwrap());
    let i = fg.add(UdpSource::<i32>::new(udp[1], UdpHeader::SeqNum, PAYLOAD).unwrap());
    let s = fg.add(UdpSource::<i16>::new(udp[2], UdpHeader::SeqPlusSize, PAYLOAD).unwrap());
    let f = fg.add(TcpSource::<f32>::new("127.0.0.1", tcp, true));
    let c_out = receive_into::<Complex32>(&mut fg, c, n[0]);
    let i_out = receive_into::<i32>(&mut fg, i, n[1]);
    let s_out = receive_into::<i16>(&mut fg, s, n[2]);
    let f_out = fg.add(VectorSink::<f32>::new());
    fg.connect(f, f_out).unwrap();
    // Listening (UDP bound, TCP listening) once started: GNU Radio's sinks may send.
    fg.start(&ThreadPerBlock::new()).unwrap();
    let mut args: Vec<String> = vec!["send".into()];
    args.extend(udp.iter().map(u16::to_string));
    args.push(tcp.to_string());
    args.extend(n.iter().map(usize::to_string));
    args.push(TCP_ITEMS.to_string());
    args.push(PEER_SECONDS.to_string());
    let peer = Peer::start(&args);
    peer.output();
    // The TCP source ends when GNU Radio's sink closes; the UDP ones after their counts.
    finish(&mut fg, "receiving from GNU Radio");
    assert_eq!(
        data::<Complex32>(&fg, c_out),
        complexes(n[0]),
        "UDP, no header"
    );
    assert_eq!(data::<i32>(&fg, i_out), ints(n[1]), "UDP, seqnum");
    assert_eq!(data::<i16>(&fg, s_out), shorts(n[2]), "UDP, seqplussize");
    assert_eq!(data::<f32>(&fg, f_out), floats(TCP_ITEMS), "TCP");
    // GNU Radio's headers read as such: no gap, nothing dropped.
    let seq = fg.block::<UdpSource<i32>>(i).unwrap();
    assert_eq!(
        (seq.missed_packets(), seq.dropped_datagrams()),
        (0, 0),
        "seqnum"
    );
    let both = fg.block::<UdpSource<i16>>(s).unwrap();
    assert_eq!(
        (both.missed_packets(), both.dropped_datagrams()),
        (0, 0),
        "seqplussize"
    );
}

#[test]
fn radioflow_sends_over_udp_and_tcp_and_gnu_radio_receives_the_same_items() {
    if !gnu_radio_present("radioflow_sends") {
        return;
    }
    let udp = [free_udp_port(), free_udp_port(), free_udp_port()];
    let tcp = free_tcp_port();
    let n = counts();
    let mut args: Vec<String> = vec!["receive".into()];
    args.extend(udp.iter().map(u16::to_string));
    args.push(tcp.to_string());
    args.extend(n.iter().map(usize::to_string));
    args.push(PEER_SECONDS.to_string());
    let peer = Peer::start(&args);
    peer.wait_ready();

    let mut fg = Flowgraph::new();
    let c = fg.add(VectorSource::new(complexes(n[0])));
    let c_tx =
        fg.add(UdpSink::<Complex32>::new("127.0.0.1", udp[0], UdpHeader::None, PAYLOAD).unwrap());
    fg.connect(c, c_tx).unwrap();
    let i = fg.add(VectorSource::new(ints(n[1])));
    let i_tx =
        fg.add(UdpSink::<i32>::new("127.0.0.1", udp[1], UdpHeader::SeqNum, PAYLOAD).unwrap());
    fg.connect(i, i_tx).unwrap();
    let s = fg.add(VectorSource::new(shorts(n[2])));
    let s_tx =
        fg.add(UdpSink::<i16>::new("127.0.0.1", udp[2], UdpHeader::SeqPlusSize, PAYLOAD).unwrap());
    fg.connect(s, s_tx).unwrap();
    fg.start(&ThreadPerBlock::new()).unwrap();
    finish(&mut fg, "sending over UDP");

    // GNU Radio's tcp_source listens only once its UDP flowgraph runs and Python reaches it:
    // connect until it does (each try fails at once on a refused connection; bounded).
    let end = Instant::now() + GUARD;
    let mut tcp_fg = loop {
        let mut g = Flowgraph::new();
        let src = g.add(VectorSource::new(floats(TCP_ITEMS)));
        let tx = g.add(TcpSink::<f32>::new("127.0.0.1", tcp, false));
        g.connect(src, tx).unwrap();
        match g.start(&ThreadPerBlock::new()) {
            Ok(()) => break g,
            Err(RunError::StartFailed { error, .. }) if error.contains("connect") => {
                assert!(
                    Instant::now() < end,
                    "GNU Radio's tcp_source never listened: {error}"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("{e}"),
        }
    };
    finish(&mut tcp_fg, "sending over TCP");

    let lines = peer.output();
    let stream = |name: &str| -> Vec<u8> {
        let line = lines
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} line in {lines:?}"));
        (0..line.len())
            .step_by(2)
            .map(|k| u8::from_str_radix(&line[k..k + 2], 16).unwrap())
            .collect()
    };
    let bytes = |v: &[u8]| v.to_vec();
    assert_eq!(
        stream("udp0"),
        bytes(bytemuck::cast_slice(&complexes(n[0]))),
        "UDP, no header"
    );
    assert_eq!(
        stream("udp1"),
        bytes(bytemuck::cast_slice(&ints(n[1]))),
        "UDP, seqnum"
    );
    assert_eq!(
        stream("udp2"),
        bytes(bytemuck::cast_slice(&shorts(n[2]))),
        "UDP, seqplussize"
    );
    assert_eq!(
        stream("tcp"),
        bytes(bytemuck::cast_slice(&floats(TCP_ITEMS))),
        "TCP"
    );
}
