//! The receiver as a framed task graph (crates/framed): a cf32 reader to a TS writer. One
//! frame of the graph is one chunk of input, [`CHUNK`] samples at 2 samples per symbol (as
//! many as resample to at most [`CHUNK`] at another rate); the synchronisation stages are
//! stateful and sequential, decoding is cloneable and duplicated:
//!
//! | task | what | module |
//! |---|---|---|
//! | `resample` | read a chunk, resample it to 2 samples per symbol (only for input at another rate) | sequential |
//! | `matched_filter` | read a chunk (at 2 samples per symbol), matched RRC, block AGC | sequential |
//! | `timing` | Gardner timing recovery: the chunk's samples to symbols | sequential |
//! | `frame_sync` | SOF/PLS, carrier, PL descrambling: at most one PLFRAME out per chunk | sequential |
//! | `decode` | demap, deinterleave, LDPC, BCH, BB descrambling, BBHEADER | cloneable |
//! | `depacketize` | TS packets, TEI on failed frames, write | sequential |
//!
//! Which tasks share a stage (a thread), and how many replicas decode, is `plan`'s choice.
//!
//! A chunk (about [`CHUNK`]` / 2` symbols) is shorter than the shortest PLFRAME (a dummy
//! frame, 3 330 symbols), so a chunk completes at most one frame in steady state; the frames
//! that acquisition releases together wait in a small queue of stage 2 and leave one per
//! chunk (execs of the graph without a frame are aborted after stage 2). At the end of the
//! input stage 1 runs [`FLUSH`] more chunks: the first pushes zeros through the filters and
//! the timing loop (their delay holds the last symbols back) and frame synchronisation
//! delivers the last frame without waiting for a next header
//! ([`Synchronizer::finish_symbols`]); the others are empty, so the queue drains.
//!
//! [`calibrate`] profiles the graph as one sequence on the first [`CALIBRATION`] samples of
//! the input (at 2 samples per symbol; as many symbols' worth at another rate) and asks
//! [`plan`] for the stages on the cores given; [`run_rx`] then builds that pipeline for the
//! whole input. [`RxProfile`] keeps the profile and the plan (Table 3 of Cassagne et al. 2023).
//!
//! The tasks after synchronisation are the steps of [`Receiver`](crate::Receiver):
//! `frame_sync` ends with [`FrameSelect`], `decode` is [`Decode`], `depacketize` is
//! [`Deliver`].

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use num_complex::Complex32;
use radioflow_framed::{
    plan, BuildError, ExecError, Io, PipelineBuilder, Plan, Sequence, SequenceProfile, Status,
    TaskGraph,
};
use thiserror::Error;

use crate::modcod::{FrameSize, Modcod};
use crate::rx::sync::{
    MatchedFilter, Resampler, SyncConfig, SyncError, SyncFrame, Synchronizer, TimingRecovery,
};
use crate::rx::{
    BbHeader, Decode, Decoded, Deliver, FrameFilter, FrameSelect, RxStats, StageProfile,
};
use crate::tx::MAX_BBFRAME_BYTES;

/// Input samples per frame of the graph at 2 samples per symbol (at another rate: the samples
/// that resample to at most this many).
pub const CHUNK: usize = 4096;
/// Room for the symbols of one chunk (the timing loop makes `CHUNK / 2`, ± a few).
const CHUNK_SYMBOLS: usize = CHUNK / 2 + 64;
/// Largest data field of a PLFRAME in symbols (QPSK normal: 64 800 / 2).
const MAX_DATA: usize = 32_400;
/// Chunks run after the end of the input: the filters' flush, then empty ones to drain
/// stage 2's queue.
pub const FLUSH: usize = 64;
/// The second word of the `count` sockets: what the chunk is. Samples of the input.
const DATA: u32 = 0;
/// The run's last chunk (empty).
const LAST: u32 = 1;
/// The first chunk after the end of the input: the zeros that flush the filters.
const END: u32 = 2;
/// Samples profiled to choose the stages at 2 samples per symbol (about 0.5 s of a 2 Msym/s
/// signal); at another rate, as many symbols' worth.
pub const CALIBRATION: usize = 1 << 21;
/// Frames stage 2 holds ready before they allocate (acquisition releases a few at once).
const QUEUE: usize = 16;

/// What to run.
#[derive(Debug, Clone)]
pub struct RxRun {
    /// Synchroniser settings (roll-off, Gold code).
    pub sync: SyncConfig,
    /// The frames to decode (frame size, pilots); the others are counted as skipped.
    pub filter: FrameFilter,
    /// Cores for [`plan`]; 0 runs everything as one sequence on the calling thread.
    pub cores: usize,
    /// Pin the plan's stages to CPUs 0..cores, the longest stages first, each on the CPU with
    /// the least predicted load (better on a machine of its own, worse on a shared one).
    pub pin: bool,
}

/// Counters of one task, updated with relaxed atomic adds once per execution (a chunk or a
/// frame), for a live view to read while the receiver runs.
#[derive(Debug, Default)]
pub struct TaskCounters {
    /// Executions of the task.
    pub calls: AtomicU64,
    /// Items taken in: samples (`resample`, `matched_filter`, `timing`), symbols
    /// (`frame_sync`), frames (`decode`, `depacketize`).
    pub items_in: AtomicU64,
    /// Items given out: samples, samples, symbols, frames, frames, TS packets.
    pub items_out: AtomicU64,
    /// Nanoseconds inside the task.
    pub busy_ns: AtomicU64,
}

/// What a running receiver shows of itself: one [`TaskCounters`] per task (in the order of
/// [`RxLive::TASKS`]), and a flag that ends the run as if the input ended there (the frames
/// under way are decoded and written).
#[derive(Debug, Default)]
pub struct RxLive {
    /// Per task, in the order of [`RxLive::TASKS`]. The first, `resample`, only runs for
    /// input at another rate than 2 samples per symbol ([`SyncConfig::resamples`]).
    pub tasks: [TaskCounters; 6],
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
}

impl RxLive {
    /// The tasks' names, in the order of [`RxLive::tasks`]; each hands its output to the next.
    pub const TASKS: [&'static str; 6] = [
        "resample",
        "matched_filter",
        "timing",
        "frame_sync",
        "decode",
        "depacketize",
    ];
    /// What each task hands to the next.
    pub const EDGES: [&'static str; 5] = ["samples", "samples", "symbols", "frames", "bbframes"];

    /// The index in [`TASKS`](Self::TASKS) of the first task that runs for `sync`: 0 when the
    /// input is resampled, else 1 (`matched_filter` reads the input).
    pub fn first_task(sync: &SyncConfig) -> usize {
        usize::from(!sync.resamples())
    }
}

/// Wraps a task's codelet: times it and counts its items into `live.tasks[task]`.
fn counted<S>(
    live: &Arc<RxLive>,
    task: usize,
    mut body: impl FnMut(&mut S, &Io<'_>) -> (Status, u64, u64) + Clone + Send + 'static,
) -> impl FnMut(&mut S, &Io<'_>) -> Status + Clone + Send + 'static {
    let live = live.clone();
    move |s, io| {
        let t0 = Instant::now();
        let (status, items_in, items_out) = body(s, io);
        let c = &live.tasks[task];
        c.calls.fetch_add(1, Ordering::Relaxed);
        c.items_in.fetch_add(items_in, Ordering::Relaxed);
        c.items_out.fetch_add(items_out, Ordering::Relaxed);
        c.busy_ns
            .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
        status
    }
}

/// The calibration: per-task profile of the first samples, the plan made from it, and the
/// decoder's own stages over the same frames.
#[derive(Debug, Clone)]
pub struct RxProfile {
    /// Input samples profiled (at most [`calibration_samples`]).
    pub samples: u64,
    /// Per task, as the sequence ran them.
    pub profile: SequenceProfile,
    /// The stages and replicas chosen for `cores`.
    pub plan: Plan,
    /// Cores planned for.
    pub cores: usize,
    /// Information bits decoded during calibration, per frame of the graph (per chunk).
    pub info_bits_per_chunk: f64,
    /// Inside the `decode` task: demapping, LDPC, BCH, BBHEADER.
    pub decoder: StageProfile,
}

impl RxProfile {
    /// Table 3 of Cassagne et al. 2023 for this receiver: per task throughput normalised to
    /// information bits, latency and share of time; the plan's stages; the decode task's parts.
    pub fn table(&self) -> String {
        let mut s = String::new();
        s.push_str(&self.profile.table(self.info_bits_per_chunk));
        s.push('\n');
        s.push_str(&format!("plan for {} cores:\n", self.cores));
        s.push_str(&self.plan.table(&self.profile, self.info_bits_per_chunk));
        s.push_str("\ninside decode (per PLFRAME):\n");
        s.push_str(&format!(
            "{:<28} {:>12} {:>12} {:>8}\n",
            "part", "Mb/s", "latency µs", "time %"
        ));
        for (stage, mbps, us, share) in self.decoder.rows() {
            s.push_str(&format!(
                "{:<28} {:>12.2} {:>12.2} {:>8.2}\n",
                format!("{stage:?}"),
                mbps,
                us,
                share
            ));
        }
        s
    }
}

/// Why a run failed.
#[derive(Debug, Error)]
pub enum RxRunError {
    /// Bad synchroniser settings.
    #[error(transparent)]
    Sync(#[from] SyncError),
    /// Reading the input or writing the output failed.
    #[error("{what}: {source}")]
    Io {
        /// `reading the input` or `writing the output`.
        what: &'static str,
        /// The error.
        source: std::io::Error,
    },
    /// The input ended inside a sample.
    #[error("the input ends with {0} bytes that are not a whole cf32 sample (8 bytes)")]
    Partial(usize),
    /// The task graph could not be built.
    #[error("building the DVB-S2 receiver graph: {0}")]
    Build(#[from] BuildError),
    /// A stage failed.
    #[error("running the DVB-S2 receiver: {0}")]
    Exec(#[from] ExecError),
    /// The run stopped before its last chunk reached the last stage (a framework fault).
    #[error("the DVB-S2 receiver stopped before the end of its input")]
    Unfinished,
}

/// State shared by the tasks and the caller (atomics: the tasks run on several threads).
struct Shared {
    done: AtomicBool,
    error: Mutex<Option<RxRunError>>,
    samples: AtomicU64,
    /// The counts, stored at the end: stage 2's by its last chunk ([`FrameSelect::report`],
    /// `locked`), stage 4's by its last frame ([`Deliver::report`]).
    end: Mutex<RxStats>,
    /// Stage 4 has stored its counts.
    delivered: AtomicBool,
    /// The live counters and the stop flag.
    live: Arc<RxLive>,
}

impl Shared {
    fn fail(&self, e: RxRunError) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        self.done.store(true, Ordering::SeqCst);
    }
}

/// Stage 1: the reader, and the matched filter or the resampler.
struct Source<R> {
    reader: R,
    /// The chunk read (its length is the chunk's); bytes of a partial sample wait in `carry`.
    samples: Vec<Complex32>,
    carry: usize,
    eof: bool,
    flush: usize,
    limit: u64,
    read: u64,
    first: First,
    shared: Arc<Shared>,
}

/// What the reading task does with a chunk.
enum First {
    /// At 2 samples per symbol: matched filter and AGC.
    Filter(MatchedFilter),
    /// At another rate: resampling, the matched filter a task of its own.
    Resample(Resampler),
}

/// The timing loop and its output.
struct Timing {
    timing: TimingRecovery,
    out: Vec<Complex32>,
}

impl<R: Read> Source<R> {
    /// Reads up to one chunk into `samples`; returns the samples read (0 at the end).
    fn fill(&mut self) -> Result<usize, RxRunError> {
        let want = (self.samples.len() as u64).min(self.limit - self.read) as usize * 8;
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut self.samples[..]);
        let mut n = self.carry;
        while n < want && !self.eof {
            match self.reader.read(&mut bytes[n..want]) {
                Ok(0) => self.eof = true,
                Ok(k) => n += k,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(RxRunError::Io {
                        what: "reading the input",
                        source,
                    })
                }
            }
        }
        let whole = n / 8;
        self.carry = n % 8;
        if self.carry > 0 {
            if self.eof {
                return Err(RxRunError::Partial(self.carry));
            }
            bytes.copy_within(whole * 8..n, 0);
        }
        if whole * 8 == want && self.read + whole as u64 == self.limit {
            self.eof = true;
        }
        #[cfg(target_endian = "big")]
        for s in &mut self.samples[..whole] {
            s.re = f32::from_bits(s.re.to_bits().swap_bytes());
            s.im = f32::from_bits(s.im.to_bits().swap_bytes());
        }
        Ok(whole)
    }
}

/// A PLFRAME waiting in stage 2.
struct Ready {
    data: Vec<Complex32>,
    /// The last data symbols not in the input ([`crate::rx::sync::SyncFrame::erased`]).
    erased: usize,
    modcod: Modcod,
    frame: FrameSize,
    pilots: bool,
    esn0_db: f32,
}

/// Stage 2: frame synchronisation and its queue.
struct FrameSync {
    sync: Synchronizer,
    ready: VecDeque<Ready>,
    /// Frame buffers not in `ready`.
    spare: Vec<Vec<Complex32>>,
    select: FrameSelect,
    shared: Arc<Shared>,
}

/// The `spec` socket between stages 2 and 3: PLS MODCOD (1..=28, 0: no frame), frame
/// (0 normal, 1 short), pilots, data symbols, Es/N0 (f32 bits), data symbols erased, last
/// frame of the run.
const SPEC: usize = 7;

fn spec_words(r: &Ready, len: usize, last: bool) -> [u32; SPEC] {
    [
        u32::from(r.modcod.pls_modcod()),
        u32::from(r.frame == FrameSize::Short),
        u32::from(r.pilots),
        len as u32,
        r.esn0_db.to_bits(),
        r.erased as u32,
        u32::from(last),
    ]
}

fn modcod_of(pls: u32) -> Option<Modcod> {
    Modcod::all().find(|m| u32::from(m.pls_modcod()) == pls)
}

/// The `status` socket between stages 3 and 4: the [`Decoded`] (0 failed, 1 good, 2
/// refused), header good, info bits, PLS MODCOD (0: no frame), frame (0 normal, 1 short),
/// last frame of the run.
const STATUS: usize = 6;

/// Stage 4: depacketizing and writing.
struct Sink<W> {
    writer: W,
    deliver: Deliver,
    shared: Arc<Shared>,
    write_error: Option<std::io::Error>,
}

/// The graph's tasks.
struct RxTasks {
    resample: Option<radioflow_framed::TaskId>,
    matched_filter: radioflow_framed::TaskId,
    timing: radioflow_framed::TaskId,
    frame_sync: radioflow_framed::TaskId,
    decode: radioflow_framed::CloneableTaskId,
    depacketize: radioflow_framed::TaskId,
}

/// Builds the graph from `input` (at most `limit` samples) to `output`. With `profiled`, the
/// decode task also times its parts into `decoder`.
fn graph<R, W>(
    run: &RxRun,
    input: R,
    output: W,
    limit: u64,
    decoder: Option<Arc<Mutex<StageProfile>>>,
    live: Arc<RxLive>,
) -> Result<(TaskGraph, RxTasks, Arc<Shared>), RxRunError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let shared = Arc::new(Shared {
        done: AtomicBool::new(false),
        error: Mutex::new(None),
        samples: AtomicU64::new(0),
        end: Mutex::new(RxStats::default()),
        delivered: AtomicBool::new(false),
        live: live.clone(),
    });
    let mf = MatchedFilter::new(run.sync)?;
    let resampler = Resampler::new(run.sync)?;
    let timing = TimingRecovery::new(run.sync)?;
    let sync = Synchronizer::new(run.sync)?;
    let mut g = TaskGraph::new();

    let first_task = RxLive::first_task(&run.sync);
    let first_name = RxLive::TASKS[first_task];
    let (chunk, first, mf) = match resampler {
        Some(rs) => (rs.input_block(), First::Resample(rs), Some(mf)),
        None => (CHUNK, First::Filter(mf), None),
    };
    let m1 = g.sequential_module(
        first_name,
        Source {
            reader: input,
            samples: vec![Complex32::default(); chunk],
            carry: 0,
            eof: false,
            flush: FLUSH,
            limit,
            read: 0,
            first,
            shared: shared.clone(),
        },
    );
    let t1 = g.task(m1, first_name);
    // Filtered samples, or resampled ones for the matched filter's task.
    let samples_out = match first_task {
        0 => g.output::<Complex32>(t1, "resampled", CHUNK),
        _ => g.output::<Complex32>(t1, "filtered", CHUNK),
    };
    // Samples in the chunk, and what it is (`DATA`, `END`, `LAST`).
    let n_out = g.output::<u32>(t1, "count", 2);
    let c1 = counted(&live, first_task, move |s: &mut Source<R>, io: &Io<'_>| {
        if s.shared.live.stop.load(Ordering::Relaxed) {
            s.eof = true;
        }
        let n = if s.eof || s.flush < FLUSH {
            0
        } else {
            match s.fill() {
                Ok(n) => n,
                Err(e) => {
                    s.shared.fail(e);
                    return (Status::Abort, 0, 0);
                }
            }
        };
        let mut kind = DATA;
        if n == 0 {
            if s.flush == FLUSH {
                kind = END;
            }
            s.flush = s.flush.saturating_sub(1);
            if s.flush == 0 {
                s.shared.done.store(true, Ordering::SeqCst);
                kind = LAST;
            }
        }
        s.read += n as u64;
        s.shared.samples.store(s.read, Ordering::Relaxed);
        let out = io.output(samples_out);
        let made = match &mut s.first {
            First::Filter(mf) if kind == END => {
                let zeros = &mut s.samples[..MatchedFilter::FLUSH];
                zeros.fill(Complex32::default());
                mf.finish(zeros, &mut out[..MatchedFilter::FLUSH]);
                MatchedFilter::FLUSH
            }
            First::Filter(mf) => {
                mf.process(&s.samples[..n], &mut out[..n]);
                n
            }
            First::Resample(rs) if kind == END => rs.finish(out),
            First::Resample(rs) => rs.process(&s.samples[..n], out),
        };
        io.output(n_out).copy_from_slice(&[made as u32, kind]);
        (Status::Continue, n as u64, made as u64)
    });
    g.codelet(t1, c1);

    // At another rate than 2 samples per symbol: the matched filter after the resampler.
    let mut resample = None;
    let (filtered_out, n_out, matched_filter) = match mf {
        None => (samples_out, n_out, t1.into()),
        Some(mf) => {
            let m = g.sequential_module("matched_filter", mf);
            let t = g.task(m, "matched_filter");
            let (resampled_in, count_in) = (
                g.input::<Complex32>(t, "resampled", CHUNK),
                g.input::<u32>(t, "count", 2),
            );
            let filtered_out = g.output::<Complex32>(t, "filtered", CHUNK);
            let count_out = g.output::<u32>(t, "count", 2);
            let c = counted(&live, 1, move |mf: &mut MatchedFilter, io: &Io<'_>| {
                let count = io.input(count_in);
                let n = count[0] as usize;
                let (x, y) = (
                    &io.input(resampled_in)[..n],
                    &mut io.output(filtered_out)[..n],
                );
                if count[1] == END {
                    mf.finish(x, y);
                } else {
                    mf.process(x, y);
                }
                io.output(count_out).copy_from_slice(count);
                (Status::Continue, n as u64, n as u64)
            });
            g.codelet(t, c);
            g.bind(resampled_in, samples_out)?;
            g.bind(count_in, n_out)?;
            resample = Some(t1.into());
            (filtered_out, count_out, t.into())
        }
    };

    let m5 = g.sequential_module(
        "timing",
        Timing {
            timing,
            out: Vec::with_capacity(CHUNK_SYMBOLS + 64),
        },
    );
    let t5 = g.task(m5, "timing");
    let (filtered_in, n_in) = (
        g.input::<Complex32>(t5, "filtered", CHUNK),
        g.input::<u32>(t5, "count", 2),
    );
    let sym_out = g.output::<Complex32>(t5, "symbols", CHUNK_SYMBOLS);
    // Symbols in the chunk, and what the chunk is.
    let count_out = g.output::<u32>(t5, "count", 2);
    let c5 = counted(&live, 2, move |t: &mut Timing, io: &Io<'_>| {
        let (n, kind) = (io.input(n_in)[0] as usize, io.input(n_in)[1]);
        t.out.clear();
        t.timing.process(&io.input(filtered_in)[..n], &mut t.out);
        let len = t.out.len().min(CHUNK_SYMBOLS);
        debug_assert_eq!(
            len,
            t.out.len(),
            "a chunk made more symbols than its socket holds"
        );
        io.output(sym_out)[..len].copy_from_slice(&t.out[..len]);
        io.output(count_out).copy_from_slice(&[len as u32, kind]);
        (Status::Continue, n as u64, len as u64)
    });
    g.codelet(t5, c5);
    g.bind(filtered_in, filtered_out)?;
    g.bind(n_in, n_out)?;

    let m2 = g.sequential_module(
        "frame_sync",
        FrameSync {
            sync,
            ready: VecDeque::with_capacity(QUEUE),
            spare: (0..QUEUE).map(|_| Vec::with_capacity(MAX_DATA)).collect(),
            select: FrameSelect::new(run.filter),
            shared: shared.clone(),
        },
    );
    let t2 = g.task(m2, "frame_sync");
    let (sym_in, count_in) = (
        g.input::<Complex32>(t2, "symbols", CHUNK_SYMBOLS),
        g.input::<u32>(t2, "count", 2),
    );
    let data_out = g.output::<Complex32>(t2, "data", MAX_DATA);
    let spec_out = g.output::<u32>(t2, "spec", SPEC);
    let c2 = counted(&live, 3, move |f: &mut FrameSync, io: &Io<'_>| {
        let (n, kind) = (io.input(count_in)[0] as usize, io.input(count_in)[1]);
        let last = kind == LAST;
        let FrameSync {
            sync,
            ready,
            spare,
            select,
            shared,
        } = f;
        let deliver = |sf: &SyncFrame<'_>| {
            if !select.admit(sf) {
                return;
            }
            let mut data = spare.pop().unwrap_or_default();
            data.clear();
            data.extend_from_slice(&sf.data[..sf.data.len().min(MAX_DATA)]);
            ready.push_back(Ready {
                data,
                erased: sf.erased,
                modcod: sf.modcod,
                frame: sf.frame,
                pilots: sf.pilots,
                esn0_db: sf.esn0_db,
            });
        };
        let symbols = &io.input(sym_in)[..n];
        if kind == END {
            sync.finish_symbols(symbols, deliver);
        } else {
            sync.process_symbols(symbols, deliver);
        }
        if last {
            let mut end = shared.end.lock().unwrap_or_else(|p| p.into_inner());
            select.report(&mut end);
            end.locked = sync.stats().locked;
        }
        let Some(r) = ready.pop_front() else {
            if last {
                // No frame, but stage 4 must see the end (spec[0] = 0: nothing to decode).
                io.output(spec_out).copy_from_slice(&[0, 0, 0, 0, 0, 0, 1]);
                return (Status::Continue, n as u64, 0);
            }
            return (Status::Abort, n as u64, 0);
        };
        let len = r.data.len();
        io.output(data_out)[..len].copy_from_slice(&r.data);
        io.output(spec_out)
            .copy_from_slice(&spec_words(&r, len, last && ready.is_empty()));
        spare.push(r.data);
        (Status::Continue, n as u64, 1)
    });
    g.codelet(t2, c2);
    g.bind(sym_in, sym_out)?;
    g.bind(count_in, count_out)?;

    let m3 = g.module(
        "decode",
        DecodeTask {
            decode: Decode::new(),
            profile: decoder,
        },
    );
    let t3 = g.task(m3, "decode");
    let (data_in, spec_in) = (
        g.input::<Complex32>(t3, "data", MAX_DATA),
        g.input::<u32>(t3, "spec", SPEC),
    );
    let bb_out = g.output::<u8>(t3, "bbframe", MAX_BBFRAME_BYTES);
    let status_out = g.output::<u32>(t3, "status", STATUS);
    let c3 = counted(&live, 4, move |d: &mut DecodeTask, io: &Io<'_>| {
        let spec = io.input(spec_in);
        let Some(modcod) = modcod_of(spec[0]) else {
            io.output(status_out)
                .copy_from_slice(&[0, 0, 0, 0, 0, spec[SPEC - 1]]);
            return (Status::Continue, 0, 0);
        };
        let frame = if spec[1] == 1 {
            FrameSize::Short
        } else {
            FrameSize::Normal
        };
        let len = (spec[3] as usize).min(MAX_DATA);
        let esn0_db = f32::from_bits(spec[4]);
        let erased = spec[5] as usize;
        let symbols = &io.input(data_in)[..len];
        let decoded = match &d.profile {
            Some(p) => {
                let mut p = p.lock().unwrap_or_else(|e| e.into_inner());
                d.decode
                    .frame(symbols, erased, modcod, frame, esn0_db, Some(&mut p))
            }
            None => d
                .decode
                .frame(symbols, erased, modcod, frame, esn0_db, None),
        };
        let (kind, header_ok, info_bits) = match decoded {
            Decoded::Refused => (2, false, 0),
            Decoded::Frame {
                ok,
                header,
                info_bits,
            } => (u32::from(ok), header.is_some(), info_bits as u32),
        };
        let status = [
            kind,
            u32::from(header_ok),
            info_bits,
            spec[0],
            spec[1],
            spec[SPEC - 1],
        ];
        let bb = d.decode.bbframe();
        io.output(bb_out)[..bb.len()].copy_from_slice(bb);
        io.output(status_out).copy_from_slice(&status);
        (Status::Continue, 1, 1)
    });
    g.codelet(t3, c3);
    g.bind(data_in, data_out)?;
    g.bind(spec_in, spec_out)?;

    let m4 = g.sequential_module(
        "depacketize",
        Sink {
            writer: output,
            deliver: Deliver::new(),
            shared: shared.clone(),
            write_error: None,
        },
    );
    let t4 = g.task(m4, "depacketize");
    let (bb_in, status_in) = (
        g.input::<u8>(t4, "bbframe", MAX_BBFRAME_BYTES),
        g.input::<u32>(t4, "status", STATUS),
    );
    let c4 = counted(&live, 5, move |k: &mut Sink<W>, io: &Io<'_>| {
        let st = io.input(status_in);
        let (kind, header_ok, info_bits, last) =
            (st[0], st[1] == 1, u64::from(st[2]), st[STATUS - 1] == 1);
        let frame = if st[4] == 1 {
            FrameSize::Short
        } else {
            FrameSize::Normal
        };
        let Sink {
            writer,
            deliver,
            shared,
            write_error,
        } = k;
        let mut made = 0;
        let mut emit = |p: &[u8]| {
            made += 1;
            if write_error.is_none() {
                *write_error = writer.write_all(p).err();
            }
        };
        if let Some(fec) = modcod_of(st[3]).and_then(|m| m.fec(frame).ok()) {
            let bb = &io.input(bb_in)[..fec.kbch / 8];
            let decoded = match kind {
                2 => Decoded::Refused,
                _ => Decoded::Frame {
                    ok: kind == 1,
                    // Parsed again here: the header's fields do not travel in the socket.
                    header: header_ok
                        .then(|| BbHeader::parse(bb, fec.kbch).ok())
                        .flatten(),
                    info_bits,
                },
            };
            deliver.push(&decoded, bb, &mut emit);
        }
        if last {
            deliver.flush(&mut emit);
            if write_error.is_none() {
                *write_error = writer.flush().err();
            }
            deliver.report(&mut shared.end.lock().unwrap_or_else(|p| p.into_inner()));
            shared.delivered.store(true, Ordering::SeqCst);
        }
        let frames_in = u64::from(st[3] != 0);
        if let Some(source) = write_error.take() {
            shared.fail(RxRunError::Io {
                what: "writing the output",
                source,
            });
            return (Status::Abort, frames_in, made);
        }
        (Status::Continue, frames_in, made)
    });
    g.codelet(t4, c4);
    g.bind(bb_in, bb_out)?;
    g.bind(status_in, status_out)?;

    Ok((
        g,
        RxTasks {
            resample,
            matched_filter,
            timing: t5.into(),
            frame_sync: t2.into(),
            decode: t3.into(),
            depacketize: t4.into(),
        },
        shared,
    ))
}

/// Stage 3 state: a decoder per replica.
#[derive(Clone)]
struct DecodeTask {
    decode: Decode,
    profile: Option<Arc<Mutex<StageProfile>>>,
}

/// Ends a run: the error of a task, or the counters.
fn finish(shared: &Shared) -> Result<RxStats, RxRunError> {
    if let Some(e) = shared
        .error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
    {
        return Err(e);
    }
    if !shared.delivered.load(Ordering::SeqCst) {
        return Err(RxRunError::Unfinished);
    }
    let mut stats = shared.end.lock().unwrap_or_else(|p| p.into_inner()).clone();
    stats.samples = shared.samples.load(Ordering::SeqCst);
    Ok(stats)
}

/// The input samples [`calibrate`] profiles: [`CALIBRATION`] at 2 samples per symbol, as many
/// symbols' worth at another rate.
pub fn calibration_samples(sync: &SyncConfig) -> u64 {
    if sync.resamples() {
        (CALIBRATION as f64 * sync.samples_per_symbol / 2.0).ceil() as u64
    } else {
        CALIBRATION as u64
    }
}

/// Profiles the graph as one sequence over the first [`calibration_samples`] of `input`
/// (its output discarded) and plans the stages for `cores`.
///
/// # Errors
/// As [`run_rx`].
pub fn calibrate<R>(run: &RxRun, input: R, cores: usize) -> Result<RxProfile, RxRunError>
where
    R: Read + Send + 'static,
{
    let decoder = Arc::new(Mutex::new(StageProfile::default()));
    let (g, _, shared) = graph(
        run,
        input,
        std::io::sink(),
        calibration_samples(&run.sync),
        Some(decoder.clone()),
        Arc::new(RxLive::default()),
    )?;
    let mut seq = Sequence::new(g)?;
    seq.set_profiling(true);
    let done = shared.clone();
    let report = seq.exec(move || done.done.load(Ordering::SeqCst))?;
    let stats = finish(&shared)?;
    let profile = seq.profile();
    let plan = plan(&profile, cores.max(1));
    let decoder = decoder.lock().unwrap_or_else(|p| p.into_inner()).clone();
    Ok(RxProfile {
        samples: stats.samples,
        profile,
        plan,
        cores: cores.max(1),
        info_bits_per_chunk: stats.info_bits as f64 / report.frames.max(1) as f64,
        decoder,
    })
}

/// CPUs for each stage's replicas: the longest stages first, each replica on the CPU with the
/// least predicted time so far (per frame, from the plan).
fn pinning(plan: &Plan, cores: usize) -> Vec<Vec<usize>> {
    let mut load = vec![0.0f64; cores.max(1)];
    let mut order: Vec<usize> = (0..plan.stages.len()).collect();
    order.sort_by(|&a, &b| {
        let t = |k: usize| plan.stages[k].ns_per_frame / plan.stages[k].replicas as f64;
        t(b).total_cmp(&t(a))
    });
    let mut cpus = vec![Vec::new(); plan.stages.len()];
    for k in order {
        let st = &plan.stages[k];
        for _ in 0..st.replicas {
            let (cpu, _) = load
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1))
                .expect("at least one CPU");
            load[cpu] += st.ns_per_frame / st.replicas as f64;
            cpus[k].push(cpu);
        }
    }
    cpus
}

/// Receives everything `input` holds (little-endian cf32 at `run.sync.samples_per_symbol`) into
/// `output` (TS packets). With `run.cores` ≥ 1 the stages are those `plan` chose from
/// `calibration` (made by [`calibrate`] on the same input); with 0, or without a calibration,
/// one sequence on the calling thread (`cores` 0) or the fixed four stages (decoding on
/// `cores - 1` replicas). `progress(samples read)` is called before each chunk; `live` counts
/// each task's work as it runs, and its flag ends the run early.
///
/// # Errors
/// Bad settings, an input that ends inside a sample, I/O errors, and framework errors.
pub fn run_rx<R, W>(
    run: &RxRun,
    input: R,
    output: W,
    calibration: Option<&RxProfile>,
    live: Arc<RxLive>,
    mut progress: impl FnMut(u64) + Send,
) -> Result<RxStats, RxRunError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let start = Instant::now();
    let (g, t, shared) = graph(run, input, output, u64::MAX, None, live)?;
    let done = shared.clone();
    let stop = move || {
        progress(done.samples.load(Ordering::Relaxed));
        done.done.load(Ordering::SeqCst)
    };
    if run.cores == 0 {
        Sequence::new(g)?.exec(stop)?;
    } else {
        let builder = match calibration {
            Some(c) if run.pin => {
                let mut b = PipelineBuilder::from_plan(g, &c.plan);
                let cpus = std::thread::available_parallelism().map_or(1, usize::from);
                for (stage, cpus) in pinning(&c.plan, run.cores.min(cpus))
                    .into_iter()
                    .enumerate()
                {
                    b = b.pin(stage, cpus);
                }
                b
            }
            Some(c) => PipelineBuilder::from_plan(g, &c.plan),
            None => PipelineBuilder::new(g)
                .stage(t.resample.into_iter().chain([t.matched_filter]))
                .stage([t.timing])
                .stage([t.frame_sync])
                .replicated_stage(run.cores.saturating_sub(1).max(1), [t.decode])
                .stage([t.depacketize]),
        };
        builder.buffer(4).build()?.exec(stop)?;
    }
    let mut st = finish(&shared)?;
    st.seconds = start.elapsed().as_secs_f64();
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_framed::PlannedStage;

    #[test]
    fn pinning_puts_the_longest_stage_alone_and_spreads_replicas() {
        let stage = |ns: f64, replicas: usize| PlannedStage {
            tasks: Vec::new(),
            replicas,
            ns_per_frame: ns,
        };
        let plan = Plan {
            stages: vec![stage(31.0, 1), stage(44.0, 1), stage(25.0, 1)],
            frames_per_second: 0.0,
        };
        assert_eq!(pinning(&plan, 2), vec![vec![1], vec![0], vec![1]]);
        let plan = Plan {
            stages: vec![stage(10.0, 1), stage(60.0, 2), stage(5.0, 1)],
            frames_per_second: 0.0,
        };
        // The replicas (30 each) first on CPUs 0 and 1, then 10 and 5 on the lighter.
        assert_eq!(pinning(&plan, 2), vec![vec![0], vec![0, 1], vec![1]]);
    }
}
