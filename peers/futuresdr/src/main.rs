//! FutureSDR peer for radioflow's `buf` and `msg` benchmarks.
//!
//! One flowgraph run per invocation; prints exactly one JSON line on stdout,
//! diagnostics go to stderr. Only the `Runtime::run()` call is timed (graph
//! construction, scheduler start-up and verification are not).
//!
//! buf: NullSource<f32> -> Head(N) -> P x [S x Copy<f32> -> NullSink]
//!      (one shared source + head, fanned out to P chains: paper Fig. 1/3)
//! msg: MessageBurst(B x 500-byte Pmt::Blob) -> MessageCopy (shared forwarder)
//!      -> P x [S x MessageCopy -> MessageSink]   (paper Fig. 2)
//!      MessageBurst sets `finished` after posting its burst; the runtime then
//!      sends Pmt::Finished downstream, which terminates every MessageCopy and
//!      MessageSink in turn, so the flowgraph ends by itself.

use futuresdr::blocks::{Copy, Head, MessageBurst, MessageCopy, MessageSink, NullSink, NullSource};
use futuresdr::prelude::*;
use futuresdr::runtime::scheduler::{FlowScheduler, SmolScheduler};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const FUTURESDR_VERSION: &str = "0.0.40";
/// Size of each message payload in the msg experiment (paper: 500 bytes).
const MSG_BYTES: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Experiment {
    Buf,
    Msg,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Sched {
    /// FlowScheduler, one worker per core; each pipe pinned to a worker.
    Flow,
    /// SmolScheduler::default(): one unpinned worker per core.
    Smol,
    /// SmolScheduler::new(1, false): a single worker thread.
    Smol1,
}

impl Sched {
    fn name(&self) -> &'static str {
        match self {
            Sched::Flow => "flow",
            Sched::Smol => "smol",
            Sched::Smol1 => "smol1",
        }
    }
}

struct Args {
    exp: Experiment,
    pipes: usize,
    stages: usize,
    /// buf: samples (N); msg: burst (B)
    count: u64,
    sched: Sched,
    buffer_bytes: usize,
}

const USAGE: &str = "usage:
  fsdr_bench buf --pipes P --stages S --samples N --scheduler flow|smol [--buffer-bytes BYTES]
  fsdr_bench msg --pipes P --stages S --burst B   --scheduler flow|smol
numbers accept scientific notation (1e8); scheduler smol1 (one worker) is also accepted;
--buffer-bytes sets FutureSDR's stream buffer size (default 32768, FutureSDR's default).";

fn parse_count(s: &str) -> Result<u64, String> {
    if let Ok(v) = s.parse::<u64>() {
        return Ok(v);
    }
    let f: f64 = s.parse().map_err(|_| format!("not a number: {s}"))?;
    if !(f.is_finite() && f >= 0.0 && f.fract() == 0.0 && f <= u64::MAX as f64) {
        return Err(format!("not a non-negative integer: {s}"));
    }
    Ok(f as u64)
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let exp = match it.next().as_deref() {
        Some("buf") => Experiment::Buf,
        Some("msg") => Experiment::Msg,
        Some("-h") | Some("--help") | None => return Err(String::new()),
        Some(o) => return Err(format!("unknown experiment '{o}'")),
    };
    let (mut pipes, mut stages, mut count, mut sched) = (None, None, None, None);
    let mut buffer_bytes = 32768usize;
    while let Some(flag) = it.next() {
        let (key, val) = match flag.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => {
                let v = it.next().ok_or_else(|| format!("missing value for {flag}"))?;
                (flag, v)
            }
        };
        match key.as_str() {
            "--pipes" => pipes = Some(parse_count(&val)? as usize),
            "--stages" => stages = Some(parse_count(&val)? as usize),
            "--samples" if exp == Experiment::Buf => count = Some(parse_count(&val)?),
            "--burst" if exp == Experiment::Msg => count = Some(parse_count(&val)?),
            "--buffer-bytes" => buffer_bytes = parse_count(&val)? as usize,
            "--scheduler" => {
                sched = Some(match val.as_str() {
                    "flow" => Sched::Flow,
                    "smol" => Sched::Smol,
                    "smol1" => Sched::Smol1,
                    o => return Err(format!("unknown scheduler '{o}'")),
                })
            }
            o => return Err(format!("unknown option '{o}'")),
        }
    }
    let what = if exp == Experiment::Buf { "--samples" } else { "--burst" };
    let args = Args {
        exp,
        pipes: pipes.ok_or("missing --pipes")?,
        stages: stages.ok_or("missing --stages")?,
        count: count.ok_or(format!("missing {what}"))?,
        sched: sched.ok_or("missing --scheduler")?,
        buffer_bytes,
    };
    if args.pipes == 0 || args.stages == 0 {
        return Err("--pipes and --stages must be >= 1".into());
    }
    Ok(args)
}

/// Build the FlowScheduler mapping: the shared head blocks go first on worker
/// 0, pipe `p` goes on worker `p % cores`, in data-flow order.
/// (FutureSDR's own perf benchmarks pass one inner Vec per pipe, but 0.0.40
/// ignores executor indices >= the number of workers, so we fold pipes onto
/// the available workers ourselves.)
fn flow_mapping(shared: &[BlockId], pipes: &[Vec<BlockId>], cores: usize) -> Vec<Vec<BlockId>> {
    let cores = cores.max(1);
    let mut map: Vec<Vec<BlockId>> = vec![Vec::new(); cores];
    map[0].extend_from_slice(shared);
    for (p, blocks) in pipes.iter().enumerate() {
        map[p % cores].extend_from_slice(blocks);
    }
    map
}

/// Run the flowgraph on the chosen scheduler; returns it back plus the run time.
fn run(
    sched: &Sched,
    fg: Flowgraph,
    shared: &[BlockId],
    pipes: &[Vec<BlockId>],
) -> Result<(Flowgraph, Duration), Error> {
    match sched {
        Sched::Flow => {
            let cores = core_ids_len();
            let rt = Runtime::with_scheduler(FlowScheduler::with_pinned_blocks(flow_mapping(
                shared, pipes, cores,
            )));
            let t = Instant::now();
            let fg = rt.run(fg)?;
            Ok((fg, t.elapsed()))
        }
        Sched::Smol => {
            let rt = Runtime::with_scheduler(SmolScheduler::default());
            let t = Instant::now();
            let fg = rt.run(fg)?;
            Ok((fg, t.elapsed()))
        }
        Sched::Smol1 => {
            let rt = Runtime::with_scheduler(SmolScheduler::new(1, false));
            let t = Instant::now();
            let fg = rt.run(fg)?;
            Ok((fg, t.elapsed()))
        }
    }
}

/// Number of workers FutureSDR's FlowScheduler starts: one per core id, as
/// reported by the same `core_affinity` call it uses.
fn core_ids_len() -> usize {
    core_affinity::get_core_ids().map(|c| c.len()).unwrap_or(1).max(1)
}

fn bench_buf(a: &Args) -> Result<(Duration, bool), Error> {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(a.count));
    fg.stream_dyn(src, "output", head, "input")?;
    let shared = vec![src.id(), head.id()];

    let mut snks = Vec::with_capacity(a.pipes);
    let mut pipes = Vec::with_capacity(a.pipes);
    for _ in 0..a.pipes {
        let mut ids = Vec::with_capacity(a.stages + 1);
        let mut prev: BlockId = head.id();
        for _ in 0..a.stages {
            let c = fg.add(Copy::<f32>::new());
            fg.stream_dyn(prev, "output", c, "input")?;
            prev = c.id();
            ids.push(prev);
        }
        let snk = fg.add(NullSink::<f32>::new());
        fg.stream_dyn(prev, "output", snk, "input")?;
        ids.push(snk.id());
        snks.push(snk);
        pipes.push(ids);
    }

    let (fg, elapsed) = run(&a.sched, fg, &shared, &pipes)?;

    let mut ok = true;
    for (i, s) in snks.iter().enumerate() {
        let n = fg.block(s)?.n_received() as u64;
        if n != a.count {
            eprintln!("fsdr_bench: sink {i} received {n} items, expected {}", a.count);
            ok = false;
        }
    }
    Ok((elapsed, ok))
}

fn bench_msg(a: &Args) -> Result<(Duration, bool), Error> {
    let mut fg = Flowgraph::new();
    let payload = Pmt::Blob((0..MSG_BYTES).map(|i| i as u8).collect());
    let src = fg.add(MessageBurst::new(payload, a.count));
    let fwd = fg.add(MessageCopy::new());
    fg.message(src, "out", fwd, "in")?;
    let shared = vec![src.id(), fwd.id()];

    let mut snks = Vec::with_capacity(a.pipes);
    let mut pipes = Vec::with_capacity(a.pipes);
    for _ in 0..a.pipes {
        let mut ids = Vec::with_capacity(a.stages + 1);
        let mut prev: BlockId = fwd.id();
        for _ in 0..a.stages {
            let c = fg.add(MessageCopy::new());
            fg.message(prev, "out", c, "in")?;
            prev = c.id();
            ids.push(prev);
        }
        let snk = fg.add(MessageSink::new());
        fg.message(prev, "out", snk, "in")?;
        ids.push(snk.id());
        snks.push(snk);
        pipes.push(ids);
    }

    let (fg, elapsed) = run(&a.sched, fg, &shared, &pipes)?;

    let mut ok = true;
    for (i, s) in snks.iter().enumerate() {
        let n = fg.block(s)?.received();
        if n != a.count {
            eprintln!("fsdr_bench: chain {i} received {n} messages, expected {}", a.count);
            ok = false;
        }
    }
    Ok((elapsed, ok))
}

fn main() -> ExitCode {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("fsdr_bench: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };

    // FutureSDR's own logger writes to stdout; install ours (stderr) first so
    // stdout carries only the JSON line. FUTURESDR_LOG / RUST_LOG-style filters
    // still work through FUTURESDR_LOG.
    let filter = tracing_subscriber::EnvFilter::builder()
        .with_default_directive(tracing_subscriber::filter::LevelFilter::WARN.into())
        .with_env_var("FUTURESDR_LOG")
        .from_env_lossy();
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .try_init();

    // No control-port web server (it would bind 127.0.0.1:1337), fixed buffer
    // size regardless of any config.toml / FUTURESDR_* environment.
    futuresdr::runtime::config::set("ctrlport_enable", false);
    futuresdr::runtime::config::set("buffer_size", a.buffer_bytes as i64);

    let res = match a.exp {
        Experiment::Buf => bench_buf(&a),
        Experiment::Msg => bench_msg(&a),
    };
    let (elapsed, verified) = match res {
        Ok(r) => r,
        Err(e) => {
            eprintln!("fsdr_bench: flowgraph error: {e:?}");
            return ExitCode::from(1);
        }
    };

    let (exp, count_key) = match a.exp {
        Experiment::Buf => ("buf", "samples"),
        Experiment::Msg => ("msg", "burst"),
    };
    let extra = match a.exp {
        Experiment::Buf => format!(", \"buffer_bytes\": {}", a.buffer_bytes),
        Experiment::Msg => format!(", \"message_bytes\": {MSG_BYTES}"),
    };
    println!(
        "{{\"experiment\": \"{exp}\", \"runtime\": \"futuresdr\", \"scheduler\": \"{}\", \
         \"params\": {{\"pipes\": {}, \"stages\": {}, \"{count_key}\": {}}}, \
         \"seconds\": {:.9}, \"verified\": {verified}, \"futuresdr_version\": \"{FUTURESDR_VERSION}\"{extra}}}",
        a.sched.name(),
        a.pipes,
        a.stages,
        a.count,
        elapsed.as_secs_f64(),
    );
    if verified { ExitCode::SUCCESS } else { ExitCode::from(3) }
}
