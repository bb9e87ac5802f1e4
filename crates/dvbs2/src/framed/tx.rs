//! The transmitter as a framed task graph (crates/framed): a byte reader to a cf32 writer,
//! run as a [`Sequence`] on the calling thread or as a [`Pipeline`] whose encoding stage is
//! duplicated (the sequence duplication of Cassagne et al. 2023):
//!
//! | stage | tasks | threads |
//! |---|---|---|
//! | 1 | `bbframe` (read, mode adaptation, BB scrambling; sequential) | 1 |
//! | 2 | `fec` (BCH, LDPC) → `plframe` (interleave, map, PL framing) → `shape` (RRC of one frame) | `encoders` replicas |
//! | 3 | `sink` (overlap-add of the frames' ringing, write; after the last frame its ringing, the filter's tail; sequential) | 1 |

use std::io::{ErrorKind, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use num_complex::Complex32;
use radioflow_framed::{
    BuildError, CloneableTaskId, ExecError, PipelineBuilder, Sequence, Status, TaskGraph, TaskId,
};
use thiserror::Error;

use crate::tx::Schedule;
use crate::tx::{
    BbFramer, FecEncoder, FrameSpec, PlFramer, MAX_BBFRAME_BYTES, MAX_FECFRAME_BITS, MAX_PLFRAME,
};
use crate::tx::{FrameShaper, OverlapAdd};
use crate::tx::{Shaping, ShapingError};
use crate::tx::{TxConfig, TxError};

/// What to run: the transmitter, the shaping, an optional VCM schedule, and the threads.
#[derive(Debug, Clone)]
pub struct TxRun {
    /// Transmitter settings (first MODCOD, frame, pilots, roll-off, Gold code, stream).
    pub tx: TxConfig,
    /// Pulse shaping (its roll-off should be `tx.roll_off`).
    pub shaping: Shaping,
    /// MODCOD changes by frame index (VCM); empty for CCM.
    pub schedule: Schedule,
    /// Replicas of the encoding stage; 0 runs everything as one sequence on the calling
    /// thread.
    pub encoders: usize,
}

/// What a run did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TxStats {
    /// PLFRAMEs written.
    pub frames: u64,
    /// Input bytes consumed (the information carried).
    pub input_bytes: u64,
    /// Complex samples written.
    pub samples: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

/// Why a run failed.
#[derive(Debug, Error)]
pub enum TxRunError {
    /// Bad transmitter settings, or a TS sync error in the input (offset from the start of
    /// the input).
    #[error(transparent)]
    Tx(#[from] TxError),
    /// Bad shaping settings.
    #[error(transparent)]
    Shaping(#[from] ShapingError),
    /// Reading the input or writing the output failed.
    #[error("{what}: {source}")]
    Io {
        /// `reading the input` or `writing the output`.
        what: &'static str,
        /// The error.
        source: std::io::Error,
    },
    /// The task graph could not be built.
    #[error("building the DVB-S2 transmitter graph: {0}")]
    Build(#[from] BuildError),
    /// A stage failed.
    #[error("running the DVB-S2 transmitter: {0}")]
    Exec(#[from] ExecError),
}

/// State shared by the end tasks and the caller.
#[derive(Default)]
struct Shared {
    done: AtomicBool,
    error: Mutex<Option<TxRunError>>,
    input_bytes: AtomicU64,
    frames: AtomicU64,
    samples: AtomicU64,
}

impl Shared {
    fn fail(&self, e: TxRunError) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        self.done.store(true, Ordering::SeqCst);
    }
}

/// Stage 1 state: the reader, its buffer and the BB framer.
struct Source<R> {
    reader: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// Input offset of `buf[start]`.
    offset: u64,
    framer: BbFramer,
    shared: Arc<Shared>,
}

impl<R: Read> Source<R> {
    /// Reads until `need` bytes are buffered or the input ends.
    fn fill(&mut self, need: usize) -> std::io::Result<()> {
        if self.buf.len() - self.start < need {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        while self.end - self.start < need && !self.eof {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Stage 3 state.
struct Sink<W> {
    writer: W,
    ola: OverlapAdd,
    shared: Arc<Shared>,
}

/// Writes `samples` as little-endian float32 pairs: the memory as it is on little-endian
/// machines, converted on big-endian ones.
fn write_le<W: Write>(w: &mut W, samples: &[Complex32]) -> std::io::Result<()> {
    if cfg!(target_endian = "little") {
        return w.write_all(bytemuck::cast_slice(samples));
    }
    let mut buf = [0u8; 4096];
    for chunk in samples.chunks(buf.len() / 8) {
        for (b, s) in buf.chunks_exact_mut(8).zip(chunk) {
            b[..4].copy_from_slice(&s.re.to_le_bytes());
            b[4..].copy_from_slice(&s.im.to_le_bytes());
        }
        w.write_all(&buf[..chunk.len() * 8])?;
    }
    Ok(())
}

/// The tasks of the graph, for building pipelines from it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TxTasks {
    /// Stage 1 (sequential).
    bbframe: TaskId,
    /// BCH + LDPC (cloneable).
    fec: CloneableTaskId,
    /// Interleave, map, PL framing (cloneable).
    plframe: CloneableTaskId,
    /// RRC of one frame (cloneable).
    shape: CloneableTaskId,
    /// Overlap-add and write (sequential).
    sink: TaskId,
}

/// Builds the task graph from `input` to `output` (little-endian cf32, one `write_all` per
/// frame: give an unbuffered file, write errors are then all reported).
fn graph<R, W>(
    run: &TxRun,
    input: R,
    output: W,
) -> Result<(TaskGraph, TxTasks, Arc<Shared>), TxRunError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let shared = Arc::new(Shared::default());
    let mut framer = BbFramer::new(&run.tx)?;
    framer.set_schedule(run.schedule.clone());
    let pl = PlFramer::new(run.tx.gold)?;
    let shaper = FrameShaper::new(run.shaping)?;
    let (sps, tail) = (shaper.sps(), shaper.tail());
    let max_shaped = MAX_PLFRAME * sps + tail;
    let mut g = TaskGraph::new();

    let src = g.sequential_module(
        "bbframe",
        Source {
            reader: input,
            buf: vec![0; 4 * MAX_BBFRAME_BYTES],
            start: 0,
            end: 0,
            eof: false,
            offset: 0,
            framer,
            shared: shared.clone(),
        },
    );
    let t1 = g.task(src, "bbframe");
    let bb_out = g.output::<u8>(t1, "bbframe", MAX_BBFRAME_BYTES);
    let spec_out = g.output::<u32>(t1, "spec", 3);
    // 1 for the input's last frame (the sink then writes the filter's tail).
    let last_out = g.output::<u32>(t1, "last", 1);
    g.codelet(t1, move |s: &mut Source<R>, io| {
        // A byte more than a frame takes: the input has ended when a frame leaves none.
        let need = s.framer.max_input() + 1;
        if let Err(e) = s.fill(need) {
            s.shared.fail(TxRunError::Io {
                what: "reading the input",
                source: e,
            });
            return Status::Abort;
        }
        if s.start == s.end {
            s.shared.done.store(true, Ordering::SeqCst);
            return Status::Abort;
        }
        match s.framer.frame(&s.buf[s.start..s.end], io.output(bb_out)) {
            Ok((spec, used)) => {
                s.start += used;
                s.offset += used as u64;
                s.shared
                    .input_bytes
                    .fetch_add(used as u64, Ordering::Relaxed);
                io.output(spec_out).copy_from_slice(&spec.to_words());
                let last = s.eof && s.start == s.end;
                io.output(last_out)[0] = u32::from(last);
                if last {
                    s.shared.done.store(true, Ordering::SeqCst);
                }
                Status::Continue
            }
            Err(TxError::TsSync(mut e)) => {
                e.offset += s.offset as usize;
                s.shared.fail(TxError::TsSync(e).into());
                Status::Abort
            }
            Err(e) => {
                s.shared.fail(e.into());
                Status::Abort
            }
        }
    });

    let spec_of = |w: &[u32]| FrameSpec::from_words([w[0], w[1], w[2]]);

    let fec = g.module("fec", FecEncoder::new());
    let t2 = g.task(fec, "fec");
    let (bb_in, spec2) = (
        g.input::<u8>(t2, "bbframe", MAX_BBFRAME_BYTES),
        g.input::<u32>(t2, "spec", 3),
    );
    let bits_out = g.output::<u8>(t2, "fecframe", MAX_FECFRAME_BITS);
    g.codelet(t2, move |f: &mut FecEncoder, io| {
        match spec_of(io.input(spec2)) {
            Some(spec)
                if f.encode(&spec, io.input(bb_in), io.output(bits_out))
                    .is_ok() =>
            {
                Status::Continue
            }
            _ => Status::Abort,
        }
    });
    g.bind(bb_in, bb_out)?;
    g.bind(spec2, spec_out)?;

    let plm = g.module("plframe", pl);
    let t3 = g.task(plm, "plframe");
    let (bits_in, spec3) = (
        g.input::<u8>(t3, "fecframe", MAX_FECFRAME_BITS),
        g.input::<u32>(t3, "spec", 3),
    );
    let sym_out = g.output::<Complex32>(t3, "plframe", MAX_PLFRAME);
    let len_out = g.output::<u32>(t3, "len", 1);
    g.codelet(t3, move |p: &mut PlFramer, io| {
        let Some(spec) = spec_of(io.input(spec3)) else {
            return Status::Abort;
        };
        match p.frame(&spec, io.input(bits_in), io.output(sym_out)) {
            Ok(n) => {
                io.output(len_out)[0] = n as u32;
                Status::Continue
            }
            Err(_) => Status::Abort,
        }
    });
    g.bind(bits_in, bits_out)?;
    g.bind(spec3, spec_out)?;

    let shm = g.module("shape", shaper);
    let t4 = g.task(shm, "shape");
    let (sym_in, len_in) = (
        g.input::<Complex32>(t4, "plframe", MAX_PLFRAME),
        g.input::<u32>(t4, "len", 1),
    );
    let shaped_out = g.output::<Complex32>(t4, "samples", max_shaped);
    let slen_out = g.output::<u32>(t4, "len", 1);
    g.codelet(t4, move |sh: &mut FrameShaper, io| {
        let n = io.input(len_in)[0] as usize;
        let made = sh.shape(&io.input(sym_in)[..n], io.output(shaped_out));
        io.output(slen_out)[0] = made as u32;
        Status::Continue
    });
    g.bind(sym_in, sym_out)?;
    g.bind(len_in, len_out)?;

    let snk = g.sequential_module(
        "sink",
        Sink {
            writer: output,
            ola: OverlapAdd::new(tail),
            shared: shared.clone(),
        },
    );
    let t5 = g.task(snk, "sink");
    let (s_in, slen_in, last_in) = (
        g.input::<Complex32>(t5, "samples", max_shaped),
        g.input::<u32>(t5, "len", 1),
        g.input::<u32>(t5, "last", 1),
    );
    g.codelet(t5, move |k: &mut Sink<W>, io| {
        let n = io.input(slen_in)[0] as usize;
        let (head, rest) = k.ola.join(&io.input(s_in)[..n]);
        let mut len = head.len() + rest.len();
        let mut res = write_le(&mut k.writer, head).and_then(|()| write_le(&mut k.writer, rest));
        if res.is_ok() && io.input(last_in)[0] == 1 {
            let tail = k.ola.finish();
            len += tail.len();
            res = write_le(&mut k.writer, tail);
        }
        if let Err(e) = res {
            k.shared.fail(TxRunError::Io {
                what: "writing the output",
                source: e,
            });
            return Status::Abort;
        }
        k.shared.frames.fetch_add(1, Ordering::Relaxed);
        k.shared.samples.fetch_add(len as u64, Ordering::Relaxed);
        Status::Continue
    });
    g.bind(s_in, shaped_out)?;
    g.bind(slen_in, slen_out)?;
    g.bind(last_in, last_out)?;

    Ok((
        g,
        TxTasks {
            bbframe: t1.into(),
            fec: t2.into(),
            plframe: t3.into(),
            shape: t4.into(),
            sink: t5.into(),
        },
        shared,
    ))
}

/// Encodes everything `input` holds into `output` (little-endian cf32 samples), the last
/// BBFRAME padded, and after the last frame the shaping filter's ringing
/// ([`Shaper::tail`](crate::Shaper::tail) samples) so that its last symbols are whole. With `run.encoders` ≥ 1 the encoding stage runs on that many threads
/// between a reading and a writing thread; with 0 everything runs on the calling thread.
///
/// # Errors
/// Bad settings, a TS sync error (offset from the input's start), I/O errors, and
/// framework errors; see [`TxRunError`].
pub fn run_tx<R, W>(run: &TxRun, input: R, output: W) -> Result<TxStats, TxRunError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (g, t, shared) = graph(run, input, output)?;
    let done = shared.clone();
    let stop = move || done.done.load(Ordering::SeqCst);
    let start = Instant::now();
    if run.encoders == 0 {
        Sequence::new(g)?.exec(stop)?;
    } else {
        PipelineBuilder::new(g)
            .stage([t.bbframe])
            .replicated_stage(run.encoders, [t.fec, t.plframe, t.shape])
            .stage([t.sink])
            // Four frames per replica in flight: with one, the four threads on two CPUs put
            // one to sleep and wake it for nearly every frame.
            .buffer(4)
            .build()?
            .exec(stop)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(e) = shared
        .error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
    {
        return Err(e);
    }
    Ok(TxStats {
        frames: shared.frames.load(Ordering::SeqCst),
        input_bytes: shared.input_bytes.load(Ordering::SeqCst),
        samples: shared.samples.load(Ordering::SeqCst),
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bbframe::RollOff;
    use crate::modcod::FrameSize;
    use crate::tx::Shaper;
    use crate::tx::Transmitter;

    /// A writer the test can read back after the run.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn ts(npackets: usize) -> Vec<u8> {
        (0..npackets * 188)
            .map(|i| {
                if i % 188 == 0 {
                    0x47
                } else {
                    (i * 17 + i / 188) as u8
                }
            })
            .collect()
    }

    fn spec(m: &str, frame: FrameSize, pilots: bool) -> FrameSpec {
        FrameSpec {
            modcod: m.parse().unwrap(),
            frame,
            pilots,
        }
    }

    /// The transmitter, a schedule applied by hand, and the streaming shaper, its tail after
    /// the last frame.
    fn reference(run: &TxRun, input: &[u8]) -> Vec<Complex32> {
        let mut tx = Transmitter::new(run.tx).unwrap();
        let mut sh = Shaper::new(run.shaping).unwrap();
        let (mut pos, mut out, mut k) = (0, Vec::new(), 0);
        while pos < input.len() {
            if let Some(s) = run.schedule.at(k) {
                tx.set_modcod(s.modcod, s.frame).unwrap();
                tx.set_pilots(s.pilots);
            }
            let mut f = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            pos += tx.encode_frame(&input[pos..], &mut f).unwrap().consumed;
            let mut y = vec![Complex32::new(0.0, 0.0); f.len() * sh.sps()];
            sh.process(&f, &mut y);
            out.extend(y);
            k += 1;
        }
        let mut tail = vec![Complex32::new(0.0, 0.0); sh.tail()];
        sh.finish(&mut tail);
        out.extend(tail);
        out
    }

    #[test]
    fn sequence_and_duplicated_pipeline_equal_the_transmitter_with_vcm() {
        let mut cfg = TxConfig::new("qpsk-8/9".parse().unwrap(), FrameSize::Short, true);
        cfg.ccm = false;
        cfg.roll_off = RollOff::R025;
        let schedule = Schedule::new([
            (2, spec("8psk-3/5", FrameSize::Normal, false)),
            (3, spec("16apsk-3/4", FrameSize::Short, true)),
            (6, spec("qpsk-8/9", FrameSize::Short, true)),
        ])
        .unwrap();
        let input = ts(170); // not a whole number of BBFRAMEs: the last one is padded
        for encoders in [0, 1, 3] {
            let run = TxRun {
                tx: cfg,
                shaping: Shaping::rrc(RollOff::R025, 2),
                schedule: schedule.clone(),
                encoders,
            };
            let want = reference(&run, &input);
            let out = Shared::default();
            let stats = run_tx(&run, std::io::Cursor::new(input.clone()), out.clone()).unwrap();
            let bytes = out.0.lock().unwrap().clone();
            let got: &[Complex32] = bytemuck::cast_slice(&bytes);
            assert_eq!(got.len(), want.len(), "encoders {encoders}");
            assert_eq!(stats.samples as usize, want.len());
            assert_eq!(stats.input_bytes as usize, input.len());
            assert!(stats.frames >= 7, "{stats:?}");
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).norm() < 1e-4,
                    "encoders {encoders} sample {k}: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn sync_error_names_the_offset_in_the_whole_input() {
        let mut input = ts(40);
        input[30 * 188] = 0x46;
        let run = TxRun {
            tx: TxConfig::new("qpsk-1/2".parse().unwrap(), FrameSize::Short, false),
            shaping: Shaping::None { sps: 1 },
            schedule: Schedule::default(),
            encoders: 2,
        };
        let err = run_tx(&run, std::io::Cursor::new(input), std::io::sink()).unwrap_err();
        assert!(
            matches!(err, TxRunError::Tx(TxError::TsSync(e)) if e.offset == 30 * 188 && e.found == 0x46),
            "{err}"
        );
    }
}
