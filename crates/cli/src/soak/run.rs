//! Soak runs (`radioflow soak`): a graph kept running for a long time while its memory,
//! threads and throughput are sampled; memory must stay flat. The graphs: `copy`, a chain of
//! copies carrying tags with a message loop beside it; `fm`, the FM receiver (stereo, RDS,
//! its station names as messages) on the built-in station read again and again; `dvbs2`, the
//! DVB-S2 transmitter feeding the receiver block, an endless TS stream through both.

use anyhow::Context;
use radioflow_blocks::{
    Copy, MessageCounter, MessageForwarder, NullSink, SampleFormat, VectorSource,
};
use radioflow_dvbs2::rx::sync::SyncConfig;
use radioflow_dvbs2::{Dvbs2Rx, Dvbs2Tx};
use radioflow_dvbs2::{FrameSize, RollOff, Shaping, TxConfig};
use radioflow_fm::synth::{write_station, Station};
use radioflow_fm::{Receiver, ReceiverConfig};
use radioflow_runtime::testing::Counter;
use radioflow_runtime::{
    block, BlockError, BlockId, Flowgraph, MessageOutput, Pmt, Ports, Scheduler, StreamInput,
    StreamOutput, WorkStatus,
};
use std::time::{Duration, Instant};

/// The graphs `radioflow soak` can run.
pub(crate) const SOAK_GRAPHS: &[&str] = &["copy", "fm", "dvbs2"];

/// One sample of a soak run.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct SoakSample {
    /// Seconds since the start.
    pub(crate) seconds: f64,
    /// Resident memory of the process, bytes.
    pub(crate) rss: u64,
    /// Threads of the process.
    pub(crate) threads: usize,
    /// Items through the graph's sink since the previous sample, per second.
    pub(crate) items_per_second: f64,
    /// Messages through the message loop so far.
    pub(crate) messages: u64,
}

/// What a soak run found.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct SoakReport {
    /// The graph.
    pub(crate) graph: String,
    /// Every sample.
    pub(crate) samples: Vec<SoakSample>,
    /// RSS growth from the end of the first quarter (after warm-up) to the highest value of
    /// the last quarter, bytes.
    pub(crate) rss_growth: i64,
    /// Whether RSS stayed flat (growth under 8 MiB or 5 %), the threads constant and items
    /// flowing in every sample.
    pub(crate) flat: bool,
}

/// Posts one message per work call of the stream beside it (a message source tied to the
/// stream's pace).
#[derive(Ports)]
struct Ticker {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    #[message_output]
    ticks: MessageOutput,
    n: i64,
}

#[block]
impl Ticker {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = radioflow_runtime::one_to_one_work(
            &mut self.input,
            &mut self.output,
            usize::MAX,
            |i, o| o.copy_from_slice(i),
        );
        if n > 0 {
            self.n += 1;
            self.ticks
                .post(Pmt::dict_from([("tick", Pmt::Int(self.n))]));
        }
        Ok(WorkStatus::Continue)
    }
}

/// The `copy` graph: an endless tagged counter -> ticker -> 4 copies -> sink, the ticker's
/// messages -> 4 forwarders -> counter. Returns the graph, its sink and its message counter.
fn copy_graph() -> (Flowgraph, BlockId, BlockId) {
    let mut fg = Flowgraph::new();
    let src = fg.add(Counter::new(u64::MAX).tag_every(4096));
    let ticker = fg.add(Ticker {
        input: StreamInput::new(),
        output: StreamOutput::new(),
        ticks: MessageOutput::new(),
        n: 0,
    });
    fg.connect(src, ticker).expect("fixed graph");
    let mut prev = ticker;
    for _ in 0..4 {
        let c = fg.add(Copy::<u32>::new());
        fg.connect(prev, c).expect("fixed graph");
        prev = c;
    }
    let sink = fg.add(NullSink::<u32>::new());
    fg.connect(prev, sink).expect("fixed graph");
    let mut prev_msg = (ticker, "ticks");
    for _ in 0..4 {
        let f = fg.add(MessageForwarder::new());
        fg.connect_message(prev_msg, (f, "in"))
            .expect("fixed graph");
        prev_msg = (f, "out");
    }
    let counter = fg.add(MessageCounter::new());
    fg.connect_message(prev_msg, (counter, "in"))
        .expect("fixed graph");
    (fg, sink, counter)
}

/// The `fm` graph: the FM receiver (stereo, RDS, audio dropped) on 1 s of the built-in
/// station (2.4 Msps cu8, written to a file in `dir`) read again from its start at its end; the
/// RDS decoder's station messages -> counter. Returns the graph, its channel filter (the items
/// it consumes are the input samples) and the message counter.
fn fm_graph(dir: &std::path::Path) -> anyhow::Result<(Flowgraph, BlockId, BlockId)> {
    let params = |e: radioflow_fm::FmError| anyhow::anyhow!("soak fm: {e}");
    let path = dir.join(format!("radioflow-soak-station-{}.cu8", std::process::id()));
    write_station(
        &path,
        SampleFormat::Cu8,
        2.4e6,
        200e3,
        1.0,
        &Station::default(),
    )
    .map_err(params)?;
    let mut config = ReceiverConfig::new(path, SampleFormat::Cu8, 2.4e6, 200e3);
    config.stereo = true;
    config.rds = true;
    config.repeat = true;
    let mut fg = Flowgraph::new();
    let rx = Receiver::new(config)
        .and_then(|r| r.build(&mut fg))
        .map_err(params)?;
    let counter = fg.add(MessageCounter::new());
    let rds = rx.rds.expect("RDS asked for");
    fg.connect_message((rds, "station"), (counter, "in"))
        .expect("fixed graph");
    Ok((fg, rx.channel, counter))
}

/// The `dvbs2` graph: an endless TS stream (47 packets repeated) -> DVB-S2 transmitter (QPSK
/// 8/9 short frames, pilots, RRC 0.20 at 2 samples per symbol) -> receiver block -> sink.
/// Returns the graph and its sink (the items it consumes are the TS bytes decoded); no
/// message loop (the message count stays 0).
fn dvbs2_graph() -> (Flowgraph, BlockId, Option<BlockId>) {
    let ts: Vec<u8> = (0..47 * 188)
        .map(|i| if i % 188 == 0 { 0x47 } else { (i % 251) as u8 })
        .collect();
    let cfg = TxConfig::new(
        "qpsk-8/9".parse().expect("a MODCOD"),
        FrameSize::Short,
        true,
    );
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ts).repeat(true));
    let tx =
        fg.add(Dvbs2Tx::new(cfg, Shaping::rrc(RollOff::R020, 2)).expect("a valid transmitter"));
    let rx = fg.add(Dvbs2Rx::new(SyncConfig::default()).expect("a valid receiver"));
    let sink = fg.add(NullSink::<u8>::new());
    fg.connect(src, tx).expect("fixed graph");
    fg.connect(tx, rx).expect("fixed graph");
    fg.connect(rx, sink).expect("fixed graph");
    (fg, sink, None)
}

/// This process's resident memory, bytes (Linux; 0 elsewhere).
pub(crate) fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// This process's threads (Linux; 0 elsewhere).
pub(crate) fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

/// Runs `graph` for `duration` on `scheduler`, sampling every `every`, calling `on_sample`
/// with each sample as it is taken.
pub(crate) fn run(
    graph: &str,
    duration: Duration,
    every: Duration,
    scheduler: &dyn Scheduler,
    on_sample: &mut dyn FnMut(&SoakSample),
) -> anyhow::Result<SoakReport> {
    let dir = std::env::temp_dir();
    let (mut fg, sink, counter) = match graph {
        "copy" => {
            let (fg, sink, counter) = copy_graph();
            (fg, sink, Some(counter))
        }
        "fm" => {
            let (fg, sink, counter) = fm_graph(&dir)?;
            (fg, sink, Some(counter))
        }
        "dvbs2" => dvbs2_graph(),
        other => anyhow::bail!(
            "unknown soak graph '{other}' (known: {})",
            SOAK_GRAPHS.join(", ")
        ),
    };
    fg.start(scheduler).context("soak")?;
    let stats = fg.stats_handle().expect("running");
    let start = Instant::now();
    let mut samples = Vec::new();
    let mut last_items = 0;
    let mut last_time = start;
    while start.elapsed() < duration {
        std::thread::sleep(every.min(duration.saturating_sub(start.elapsed())));
        let now = Instant::now();
        let items = stats.get(sink).map_or(0, |s| s.items_consumed);
        let messages = counter.and_then(|c| stats.get(c)).map_or(0, |s| s.messages);
        let s = SoakSample {
            seconds: (now - start).as_secs_f64(),
            rss: rss(),
            threads: threads(),
            items_per_second: (items - last_items) as f64 / (now - last_time).as_secs_f64(),
            messages,
        };
        on_sample(&s);
        samples.push(s);
        (last_items, last_time) = (items, now);
    }
    fg.stop();
    fg.wait().context("soak")?;
    Ok(judge(graph, samples))
}

/// Whether the samples show flat memory, constant threads and items flowing.
fn judge(graph: &str, samples: Vec<SoakSample>) -> SoakReport {
    let n = samples.len();
    let rss_growth = if n >= 4 {
        let base = samples[n / 4].rss as i64;
        let late = samples[3 * n / 4..]
            .iter()
            .map(|s| s.rss)
            .max()
            .unwrap_or(0) as i64;
        late - base
    } else {
        0
    };
    let base = samples.get(n / 4).map_or(0, |s| s.rss) as i64;
    let flat_rss = rss_growth < (8 << 20).max(base / 20);
    let same_threads = samples.windows(2).all(|w| w[0].threads == w[1].threads);
    let flowing = samples.iter().all(|s| s.items_per_second > 0.0);
    SoakReport {
        graph: graph.to_owned(),
        flat: n >= 4 && flat_rss && same_threads && flowing,
        rss_growth,
        samples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(rss: u64, threads: usize, ips: f64) -> SoakSample {
        SoakSample {
            seconds: 0.0,
            rss,
            threads,
            items_per_second: ips,
            messages: 0,
        }
    }

    #[test]
    fn growth_threads_and_stalls_are_caught() {
        let flat: Vec<_> = (0..8).map(|i| sample(100 << 20 | i, 3, 1.0)).collect();
        assert!(judge("g", flat).flat);
        let leak: Vec<_> = (0..8)
            .map(|i| sample((100 + 10 * i) << 20, 3, 1.0))
            .collect();
        let r = judge("g", leak);
        assert!(!r.flat && r.rss_growth >= 40 << 20);
        let mut threads: Vec<_> = (0..8).map(|_| sample(100 << 20, 3, 1.0)).collect();
        threads[5].threads = 4;
        assert!(!judge("g", threads).flat);
        let mut stalled: Vec<_> = (0..8).map(|_| sample(100 << 20, 3, 1.0)).collect();
        stalled[6].items_per_second = 0.0;
        assert!(!judge("g", stalled).flat);
        assert!(!judge("g", vec![sample(1, 1, 1.0)]).flat, "too few samples");
    }

    #[test]
    fn a_short_soak_of_the_copy_graph_runs_and_samples() {
        let s = radioflow_runtime::FlowScheduler::new().workers(1);
        let mut seen = 0;
        let r = run(
            "copy",
            Duration::from_millis(300),
            Duration::from_millis(50),
            &s,
            &mut |_| seen += 1,
        )
        .unwrap();
        assert_eq!(seen, r.samples.len());
        assert!(!r.samples.is_empty());
        assert!(r.samples.iter().all(|s| s.threads > 0 && s.rss > 0));
        assert!(run("nope", Duration::ZERO, Duration::ZERO, &s, &mut |_| ()).is_err());
    }

    #[test]
    fn the_copy_graph_carries_items_and_messages_until_stopped() {
        let (mut fg, sink, counter) = copy_graph();
        fg.start(&radioflow_runtime::FlowScheduler::new().workers(2))
            .unwrap();
        let stats = fg.stats_handle().unwrap();
        let t0 = Instant::now();
        // Polls until both flowed (the deadline only keeps a broken build from hanging).
        while radioflow_runtime::COUNTERS_COMPILED
            && (stats.get(sink).unwrap().items_consumed == 0
                || stats.get(counter).unwrap().messages == 0)
        {
            assert!(t0.elapsed() < Duration::from_secs(60), "nothing flowed");
            std::thread::sleep(Duration::from_millis(1));
        }
        fg.stop();
        fg.wait().unwrap();
        let counted = fg.block::<MessageCounter>(counter).unwrap().count();
        assert!(counted > 0 || !radioflow_runtime::COUNTERS_COMPILED);
    }
}
