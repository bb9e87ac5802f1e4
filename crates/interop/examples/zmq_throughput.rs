//! Throughput of a ZeroMQ stream link over loopback TCP (PUSH/PULL, complex items, no tags).
//!
//! usage: `cargo run --release -p radioflow-blocks --example zmq_throughput -- [radioflow|gnuradio] [ITEMS] [RUNS]`
//! - `radioflow`: one graph, null source -> head -> zmq_sink ... zmq_source -> head -> null sink.
//! - `gnuradio`: GNU Radio 3.10 (tests/gnuradio/zmq_peer.py `bench_send`: a repeating vector
//!   source -> push_sink) -> radioflow zmq_source -> head -> null sink.
//!
//! The receiving head ends the run only after ITEMS items arrived (a ZeroMQ source never ends by
//! itself), so a time is printed only for a complete transfer. Not asserted anywhere.

use radioflow_blocks::runtime::{Complex32, Flowgraph};
use radioflow_blocks::{Head, NullSink, NullSource};
use radioflow_interop::{ZmqPattern, ZmqSink, ZmqSource};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_address() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("tcp://127.0.0.1:{}", l.local_addr().unwrap().port())
}

/// Adds zmq_source (PULL) -> head(n) -> null sink to `fg`.
fn receiver(fg: &mut Flowgraph, address: &str, n: u64) {
    let src = fg.add(ZmqSource::<Complex32>::new(address, ZmqPattern::PushPull));
    let head = fg.add(Head::<Complex32>::new(n));
    let sink = fg.add(NullSink::<Complex32>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
}

fn radioflow_link(n: u64) -> Duration {
    let address = free_address();
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<Complex32>::new());
    let head = fg.add(Head::<Complex32>::new(n));
    let sink = fg.add(ZmqSink::<Complex32>::new(&*address, ZmqPattern::PushPull));
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    receiver(&mut fg, &address, n);
    let t = Instant::now();
    fg.run().unwrap();
    t.elapsed()
}

fn gnu_radio_link(n: u64) -> Duration {
    let address = free_address();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/zmq_peer.py");
    let mut child = Command::new("/usr/bin/python3")
        .args([script, "bench_send", &address, "0", "600"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("/usr/bin/python3 with GNU Radio");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready", "GNU Radio did not start");
    let mut fg = Flowgraph::new();
    receiver(&mut fg, &address, n);
    let t = Instant::now();
    fg.run().unwrap();
    let took = t.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    took
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("radioflow", String::as_str);
    let n = args.get(1).map_or(1e8, |s| s.parse::<f64>().unwrap()) as u64;
    let runs: usize = args.get(2).map_or(3, |s| s.parse().unwrap());
    let mut rates = Vec::new();
    for run in 0..runs {
        let took = match which {
            "radioflow" => radioflow_link(n),
            "gnuradio" => gnu_radio_link(n),
            other => panic!("unknown link {other}: radioflow or gnuradio"),
        };
        let rate = n as f64 / took.as_secs_f64();
        println!(
            "{which} -> radioflow run {run}: {n} items in {:.3} s: {:.1} M items/s, {:.0} MB/s",
            took.as_secs_f64(),
            rate / 1e6,
            rate * 8.0 / 1e6
        );
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "{which} -> radioflow median of {runs}: {:.1} M items/s ({:.0} MB/s)",
        median / 1e6,
        median * 8.0 / 1e6
    );
}
