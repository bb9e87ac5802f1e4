//! radioflow's ZeroMQ blocks against a live GNU Radio 3.10 flowgraph (Debian's gnuradio, run
//! with /usr/bin/python3; tests/gnuradio/zmq_peer.py is the GNU Radio side), both ways: items
//! bit-exact, tags on the same items with equal values, messages equal, and a mismatch between
//! the two ends (tags expected but not sent, another item size) an error naming the block. Each
//! test prints SKIPPED and passes when GNU Radio's zeromq module cannot be imported.
//!
//! No test can hang: GNU Radio's zeromq sources never end by themselves, so the peer stops its
//! flowgraph after N items or its own deadline; every wait here is bounded, and the peer's
//! process is killed when a test ends, passing or not.

use radioflow_blocks::runtime::{BlockId, Complex32, Flowgraph, Pmt, RunError, Tag};
use radioflow_blocks::{Head, MessageBurstSource, MessageDebug, VectorSink, VectorSource};
use radioflow_interop::{ZmqMessageSink, ZmqMessageSource, ZmqPattern, ZmqSink, ZmqSource};
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const PYTHON: &str = "/usr/bin/python3";

/// How long the peer may run (it gives up by itself after this).
const PEER_SECONDS: u64 = 30;
/// How long starting Python and importing GNU Radio may take.
const STARTUP: Duration = Duration::from_secs(60);
/// How long a radioflow graph may run.
const RUN: Duration = Duration::from_secs(30);

fn gnu_radio_present(test: &str) -> bool {
    let ok = Command::new(PYTHON)
        .args([
            "-c",
            "from gnuradio import zeromq, blocks; import pmt, numpy",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!(
            "{test}: SKIPPED: GNU Radio's zeromq module cannot be imported by {PYTHON} \
             (apt-get install gnuradio)"
        );
    }
    ok
}

fn free_address() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("tcp://127.0.0.1:{}", l.local_addr().unwrap().port())
}

/// The GNU Radio side: a zmq_peer.py process, its output lines, killed on drop.
struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Peer {
    /// Starts zmq_peer.py in `mode` and waits (bounded) for its "ready" line.
    fn start(mode: &str, address: &str, n: usize) -> Self {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/zmq_peer.py");
        let mut child = Command::new(PYTHON)
            .arg(script)
            .args([mode, address, &n.to_string(), &PEER_SECONDS.to_string()])
            .stdin(Stdio::piped())
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
        let peer = Peer {
            stdin: child.stdin.take(),
            child,
            lines,
        };
        let first = peer.lines.recv_timeout(STARTUP);
        assert_eq!(
            first.as_deref().map(str::trim),
            Ok("ready"),
            "the GNU Radio side ({mode}) did not start"
        );
        peer
    }

    /// Tells a sending peer to stop (it runs until its stdin closes).
    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Every line the peer prints until it exits (bounded), and asserts it exited cleanly.
    fn output(mut self) -> Vec<String> {
        let end = Instant::now() + Duration::from_secs(PEER_SECONDS + 15);
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
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < end, "the GNU Radio side did not exit");
            std::thread::sleep(Duration::from_millis(10));
        };
        let timeout = lines.iter().find(|l| l.starts_with("timeout"));
        assert!(
            status.success(),
            "the GNU Radio side failed ({status}){}",
            timeout.map_or(String::new(), |t| format!(": {t}"))
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

/// Runs `fg` to its end, bounded: a graph still running after [`RUN`] is stopped and the test
/// fails naming its busy blocks. Returns how the run ended.
fn run_bounded(fg: &mut Flowgraph) -> Result<(), RunError> {
    fg.start(radioflow_blocks::runtime::default_scheduler().as_ref())?;
    match fg.wait_timeout(RUN) {
        Err(RunError::Unresponsive { blocks, .. }) => {
            fg.stop();
            let after = fg.wait_timeout(Duration::from_secs(10));
            panic!("the radioflow graph did not end in {RUN:?} (busy: {blocks:?}; after stop: {after:?})");
        }
        other => other,
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The items of zmq_peer.py: `i * 0.5 - i j`, computed in f32 as numpy does.
fn test_items(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| Complex32::new(i as f32 * 0.5, 0.0 - i as f32))
        .collect()
}

/// The tags of zmq_peer.py.
fn test_tags(n: usize) -> Vec<Tag> {
    vec![
        Tag::new(0, Pmt::symbol("rx_rate"), Pmt::Double(1e6)),
        Tag::new(1000, Pmt::symbol("rx_freq"), Pmt::Double(433.92e6)),
        Tag::new(
            n as u64 - 1,
            Pmt::symbol("rx_time"),
            Pmt::Tuple(vec![Pmt::Uint64(1_700_000_000), Pmt::Double(0.25)].into()),
        ),
    ]
}

/// The tags zmq_peer.py sends: [`test_tags`] with GNU Radio's source id `src` on the first two.
fn gnu_radio_tags(n: usize) -> Vec<Tag> {
    let mut tags = test_tags(n);
    for t in &mut tags[..2] {
        t.srcid = Pmt::symbol("src");
    }
    tags
}

/// The messages of zmq_peer.py.
fn test_messages() -> Vec<Pmt> {
    use std::sync::Arc;
    vec![
        Pmt::Int(1),
        Pmt::symbol("two"),
        Pmt::Pair(Arc::new((Pmt::Null, Pmt::F32Vector(vec![1.0, 2.5].into())))),
        Pmt::Pair(Arc::new((
            Pmt::symbol("meta"),
            Pmt::U8Vector(vec![1, 2, 3].into()),
        ))),
    ]
}

/// Parses zmq_peer.py's "items" and "tag" lines.
fn parse_stream(lines: &[String]) -> (Vec<Complex32>, Vec<Tag>) {
    let (mut items, mut tags) = (Vec::new(), Vec::new());
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        match f[0] {
            "items" => {
                items = unhex(f.get(1).unwrap_or(&""))
                    .chunks_exact(8)
                    .map(|c| {
                        let re = f32::from_le_bytes(c[..4].try_into().unwrap());
                        Complex32::new(re, f32::from_le_bytes(c[4..].try_into().unwrap()))
                    })
                    .collect()
            }
            "tag" => tags.push(
                Tag::new(
                    f[1].parse().unwrap(),
                    Pmt::from_bytes(&unhex(f[2])).unwrap(),
                    Pmt::from_bytes(&unhex(f[3])).unwrap(),
                )
                .with_srcid(Pmt::from_bytes(&unhex(f[4])).unwrap()),
            ),
            _ => panic!("unexpected line from GNU Radio: {line}"),
        }
    }
    (items, tags)
}

/// Asserts `got` equals `want` byte for byte, naming the first item that differs.
fn assert_items_equal(got: &[Complex32], want: &[Complex32]) {
    let first = got.iter().zip(want).position(|(a, b)| a != b);
    assert!(
        bytemuck::cast_slice::<Complex32, u8>(got) == bytemuck::cast_slice::<Complex32, u8>(want),
        "items differ: {} received, {} expected, first difference at {first:?}",
        got.len(),
        want.len()
    );
}

/// A radioflow graph receiving `n` items from the peer in `mode` with a PULL source.
fn receive_from_gnu_radio(
    mode: &str,
    n: usize,
    pass_tags: bool,
) -> (Result<(), RunError>, Flowgraph, BlockId) {
    let addr = free_address();
    let mut peer = Peer::start(mode, &addr, n);
    let mut fg = Flowgraph::new();
    let src =
        fg.add(ZmqSource::<Complex32>::new(&*addr, ZmqPattern::PushPull).pass_tags(pass_tags));
    let head = fg.add(Head::<Complex32>::new(n as u64));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    let result = run_bounded(&mut fg);
    peer.close_stdin();
    peer.output();
    (result, fg, sink)
}

#[test]
fn gnu_radio_push_sink_to_radioflow_items_and_tags() {
    if !gnu_radio_present("gnu_radio_push_sink_to_radioflow_items_and_tags") {
        return;
    }
    let n = 100_000;
    let (result, fg, sink) = receive_from_gnu_radio("send_stream", n, true);
    result.unwrap();
    let v = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    assert_items_equal(v.data(), &test_items(n));
    // The source ids too: the tag header carries them.
    assert_eq!(v.tags(), gnu_radio_tags(n));
}

#[test]
fn gnu_radio_sink_without_tags_to_radioflow_pass_tags_is_an_error() {
    if !gnu_radio_present("gnu_radio_sink_without_tags_to_radioflow_pass_tags_is_an_error") {
        return;
    }
    let (result, _, _) = receive_from_gnu_radio("send_untagged", 1000, true);
    let e = result.unwrap_err().to_string();
    assert!(e.contains("zmq_source (PULL tcp://127.0.0.1:"), "{e}");
    assert!(
        e.contains("expected GNU Radio's tag header (pass_tags)"),
        "{e}"
    );
    assert!(e.contains("does the sender pass tags?"), "{e}");
}

#[test]
fn gnu_radio_items_of_another_size_to_radioflow_is_an_error() {
    if !gnu_radio_present("gnu_radio_items_of_another_size_to_radioflow_is_an_error") {
        return;
    }
    // One item of 3 floats: 12 bytes, not a whole number of 8-byte complex items.
    let (result, _, _) = receive_from_gnu_radio("send_float3", 1, false);
    let e = result.unwrap_err().to_string();
    assert!(e.contains("zmq_source (PULL tcp://127.0.0.1:"), "{e}");
    assert!(
        e.contains("received 12 bytes of items, not a whole number of 8-byte items"),
        "{e}"
    );
}

fn radioflow_to_gnu_radio(mode: &str, pattern: ZmqPattern) {
    let n = 100_000;
    let addr = free_address();
    let peer = Peer::start(mode, &addr, n);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(test_items(n)).tags(gnu_radio_tags(n)));
    let sink = fg.add(ZmqSink::<Complex32>::new(&*addr, pattern).pass_tags(true));
    fg.connect(src, sink).unwrap();
    run_bounded(&mut fg).unwrap();
    let (items, tags) = parse_stream(&peer.output());
    assert_items_equal(&items, &test_items(n));
    assert_eq!(tags, gnu_radio_tags(n));
}

#[test]
fn radioflow_push_sink_to_gnu_radio_pull_source_items_and_tags() {
    if gnu_radio_present("radioflow_push_sink_to_gnu_radio_pull_source_items_and_tags") {
        radioflow_to_gnu_radio("recv_stream", ZmqPattern::PushPull);
    }
}

#[test]
fn radioflow_rep_sink_to_gnu_radio_req_source_items_and_tags() {
    if gnu_radio_present("radioflow_rep_sink_to_gnu_radio_req_source_items_and_tags") {
        radioflow_to_gnu_radio("recv_req", ZmqPattern::ReqRep);
    }
}

#[test]
fn gnu_radio_push_msg_sink_to_radioflow_messages() {
    if !gnu_radio_present("gnu_radio_push_msg_sink_to_radioflow_messages") {
        return;
    }
    let want = test_messages();
    let addr = free_address();
    let mut peer = Peer::start("send_msgs", &addr, want.len());
    let mut fg = Flowgraph::new();
    let src = fg.add(ZmqMessageSource::new(&*addr, ZmqPattern::PushPull));
    let dbg = fg.add(MessageDebug::new());
    fg.connect_message((src, "out"), (dbg, "store")).unwrap();
    fg.start(radioflow_blocks::runtime::default_scheduler().as_ref())
        .unwrap();
    let deadline = Instant::now() + RUN;
    while fg.live_stats(dbg).map_or(0, |s| s.messages) < want.len() as u64
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    fg.stop();
    fg.wait_timeout(Duration::from_secs(10)).unwrap();
    peer.close_stdin();
    peer.output();
    assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), want);
}

#[test]
fn radioflow_push_msg_sink_to_gnu_radio_messages() {
    if !gnu_radio_present("radioflow_push_msg_sink_to_gnu_radio_messages") {
        return;
    }
    let want = test_messages();
    let addr = free_address();
    let peer = Peer::start("recv_msgs", &addr, want.len());
    let mut fg = Flowgraph::new();
    let src = fg.add(MessageBurstSource::new(want.clone()));
    let sink = fg.add(ZmqMessageSink::new(&*addr, ZmqPattern::PushPull));
    fg.connect_message((src, "out"), (sink, "in")).unwrap();
    run_bounded(&mut fg).unwrap();
    let got: Vec<Pmt> = peer
        .output()
        .iter()
        .map(|l| Pmt::from_bytes(&unhex(l.strip_prefix("msg ").unwrap())).unwrap())
        .collect();
    assert_eq!(got, want);
}

#[test]
fn gnu_radio_stream_recorded_as_sigmf_keeps_its_tags_as_captures() {
    if !gnu_radio_present("gnu_radio_stream_recorded_as_sigmf_keeps_its_tags_as_captures") {
        return;
    }
    use radioflow_interop::sigmf::{Datatype, Recording};
    use radioflow_interop::{SigmfSink, SigmfSource};
    let n = 20_000;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("from_gnuradio.sigmf");
    let addr = free_address();
    let mut peer = Peer::start("send_stream", &addr, n);
    let mut fg = Flowgraph::new();
    let src = fg.add(ZmqSource::<Complex32>::new(&*addr, ZmqPattern::PushPull).pass_tags(true));
    let head = fg.add(Head::<Complex32>::new(n as u64));
    let rec = fg.add(SigmfSink::<Complex32>::new(&path, Datatype::CF32_LE));
    fg.connect(src, head).unwrap();
    fg.connect(head, rec).unwrap();
    run_bounded(&mut fg).unwrap();
    peer.close_stdin();
    peer.output();
    // GNU Radio's rx_rate, rx_freq and rx_time tags are the recording's metadata ...
    let meta = Recording::open(&path).unwrap().meta;
    assert_eq!(meta.global.sample_rate, Some(1e6));
    let captures: Vec<_> = meta
        .captures
        .iter()
        .map(|c| (c.sample_start, c.frequency, c.datetime.clone()))
        .collect();
    assert_eq!(
        captures,
        [
            (0, None, None),
            (1000, Some(433.92e6), None),
            (n as u64 - 1, None, Some("2023-11-14T22:13:20.25Z".into())),
        ]
    );
    // ... and come back as the same tags (with rx_rate at every capture, as UHD sends it).
    let mut fg = Flowgraph::new();
    let src = fg.add(SigmfSource::<Complex32>::new(&path).unwrap());
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, sink).unwrap();
    run_bounded(&mut fg).unwrap();
    let v = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    assert_items_equal(v.data(), &test_items(n));
    let without_rate: Vec<Tag> = v
        .tags()
        .iter()
        .filter(|t| t.key != Pmt::symbol("rx_rate"))
        .cloned()
        .collect();
    assert_eq!(without_rate, test_tags(n)[1..]);
}
