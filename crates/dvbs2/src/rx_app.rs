//! `radioflow dvbs2 rx`: a cf32 recording at 2 samples per symbol to a TS file. Two threads:
//! the synchroniser (sequential by nature) hands each PLFRAME's data symbols to the decoder
//! (demapping, LDPC, BCH, BBHEADER) and depacketizer on the other core, through a ring of
//! reused frame buffers (no allocation per frame).

use crate::rx::{BbHeader, Depacketizer, FrameDecoder};
use crate::sync::{SyncConfig, Synchronizer};
use crate::{FrameSize, Modcod};
use num_complex::Complex32;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to receive.
#[derive(Clone, Debug)]
pub struct RxFileOptions {
    /// The recording: little-endian complex float32 at 2 samples per symbol.
    pub input: PathBuf,
    /// The TS file to write.
    pub output: PathBuf,
    /// RRC roll-off of the matched filter: 0.35, 0.25 or 0.2.
    pub rolloff: f64,
    /// PL scrambling Gold code index.
    pub gold: u32,
    /// Decode only frames of this size (the PLS code of each frame says which it is);
    /// `None`: every frame.
    pub frame: Option<FrameSize>,
    /// Decode only frames with (true) or without (false) pilots; `None`: every frame.
    pub pilots: Option<bool>,
}

/// Why the receiver could not run.
#[derive(Debug, thiserror::Error)]
pub enum RxAppError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The recording is not whole complex float32 samples.
    #[error("{}: {len} bytes is not a whole number of cf32 samples (8 bytes each)", path.display())]
    Partial {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// A setting is refused.
    #[error("{0}")]
    Setting(String),
}

/// What a receiver run did.
#[derive(Clone, Debug, Default)]
pub struct RxReport {
    /// Input samples read (all of the recording unless stopped).
    pub samples: u64,
    /// PLFRAMEs synchronised.
    pub frames: u64,
    /// Of those, frames decoded (BCH and BBHEADER good).
    pub decoded: u64,
    /// Frames that failed to decode (their packets carry TEI).
    pub failed: u64,
    /// Frames synchronised but left undecoded: not of the `frame`/`pilots` asked for.
    pub skipped: u64,
    /// TS packets written.
    pub packets: u64,
    /// Information bits decoded.
    pub info_bits: u64,
    /// The last frame's MODCOD, frame size and pilots.
    pub last_modcod: Option<(Modcod, FrameSize, bool)>,
    /// The last Es/N0 estimate (dB, smoothed over frames).
    pub esn0_db: Option<f32>,
    /// Whether frame synchronisation held at the end.
    pub locked: bool,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// Counters of one of the receiver's two threads, updated with relaxed stores once per block
/// of input (synchroniser) or per frame (decoder), for a live view to read.
#[derive(Debug, Default)]
pub struct TaskCounters {
    /// Blocks of input (synchroniser) or frames (decoder) processed.
    pub calls: AtomicU64,
    /// Samples (synchroniser) or frames (decoder) taken in.
    pub items_in: AtomicU64,
    /// Frames synchronised (synchroniser) or TS packets written (decoder).
    pub items_out: AtomicU64,
    /// Nanoseconds spent processing (not waiting for input or for a free frame buffer).
    pub busy_ns: AtomicU64,
}

impl TaskCounters {
    fn add(&self, items_in: u64, items_out: u64, busy: Duration) {
        self.calls.fetch_add(1, Relaxed);
        self.items_in.fetch_add(items_in, Relaxed);
        self.items_out.fetch_add(items_out, Relaxed);
        self.busy_ns.fetch_add(busy.as_nanos() as u64, Relaxed);
    }
}

/// What a running receiver shows of itself ([`rx_file_live`]): its threads' counters, and a
/// flag that stops it after the block of input at hand (the frames already handed to the
/// decoder are decoded and written).
#[derive(Debug, Default)]
pub struct RxLive {
    /// The synchronising thread (the caller's).
    pub sync: TaskCounters,
    /// The decoding thread.
    pub decode: TaskCounters,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
}

/// One frame handed from the synchroniser to the decoder.
struct Job {
    symbols: Vec<Complex32>,
    len: usize,
    modcod: Modcod,
    frame: FrameSize,
    pilots: bool,
    esn0_db: f32,
}

/// Frames in flight between the two threads.
const RING: usize = 4;
/// Largest data field of a PLFRAME in symbols (QPSK normal: 64800 / 2).
const MAX_DATA: usize = 32_400;

fn file_error(path: &Path) -> impl Fn(std::io::Error) -> RxAppError + '_ {
    move |source| RxAppError::File {
        path: path.to_owned(),
        source,
    }
}

/// Receives `opts.input` into `opts.output`, calling `progress(samples read, total)` after
/// every block of input.
///
/// # Errors
/// An unreadable or partial input, an unwritable output, a bad roll-off or Gold code.
pub fn rx_file(
    opts: &RxFileOptions,
    progress: impl FnMut(u64, u64),
) -> Result<RxReport, RxAppError> {
    rx_file_live(opts, progress, Arc::new(RxLive::default()))
}

/// As [`rx_file`], keeping `live`'s counters and stopping early when its flag is set.
///
/// # Errors
/// As [`rx_file`].
pub fn rx_file_live(
    opts: &RxFileOptions,
    mut progress: impl FnMut(u64, u64),
    live: Arc<RxLive>,
) -> Result<RxReport, RxAppError> {
    let cfg = SyncConfig {
        roll_off: opts.rolloff,
        gold: opts.gold,
        ..SyncConfig::default()
    };
    let mut sync = Synchronizer::new(cfg).map_err(|e| RxAppError::Setting(e.to_string()))?;
    let meta = std::fs::metadata(&opts.input).map_err(file_error(&opts.input))?;
    if meta.len() % 8 != 0 {
        return Err(RxAppError::Partial {
            path: opts.input.clone(),
            len: meta.len(),
        });
    }
    let total = meta.len() / 8;
    let mut input = std::fs::File::open(&opts.input).map_err(file_error(&opts.input))?;
    let out = std::fs::File::create(&opts.output).map_err(file_error(&opts.output))?;
    let started = Instant::now();
    let (to_decoder, jobs) = sync_channel::<Job>(RING);
    let (to_sync, free) = sync_channel::<Vec<Complex32>>(RING + 1);
    for _ in 0..RING + 1 {
        to_sync
            .send(vec![Complex32::default(); MAX_DATA])
            .expect("the ring holds RING + 1");
    }
    let output = opts.output.clone();
    let decode_live = live.clone();
    let decoder = std::thread::Builder::new()
        .name("rf-dvbs2-decode".into())
        .spawn(move || decode_thread(jobs, to_sync, out, &output, &decode_live.decode))
        .map_err(file_error(&opts.input))?;
    let mut report = RxReport::default();
    let mut bytes = vec![0u8; 1 << 20];
    let mut samples = vec![Complex32::default(); bytes.len() / 8];
    let mut read = 0u64;
    let mut send_failed = false;
    while !live.stop.load(Relaxed) {
        let n = read_full(&mut input, &mut bytes).map_err(file_error(&opts.input))?;
        if n == 0 {
            break;
        }
        let (t0, frames_before, mut waited) = (Instant::now(), report.frames, Duration::ZERO);
        let count = n / 8;
        for (s, b) in samples.iter_mut().zip(bytes[..n].chunks_exact(8)) {
            let f = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
            *s = Complex32::new(f(0), f(4));
        }
        sync.process(&samples[..count], |f| {
            if send_failed {
                return;
            }
            report.frames += 1;
            report.last_modcod = Some((f.modcod, f.frame, f.pilots));
            report.esn0_db = Some(f.esn0_db);
            if opts.frame.is_some_and(|want| want != f.frame)
                || opts.pilots.is_some_and(|want| want != f.pilots)
            {
                report.skipped += 1;
                return;
            }
            let wait = Instant::now();
            let Ok(mut buf) = free.recv() else {
                send_failed = true;
                return;
            };
            waited += wait.elapsed();
            let len = f.data.len().min(buf.len());
            buf[..len].copy_from_slice(&f.data[..len]);
            let job = Job {
                symbols: buf,
                len,
                modcod: f.modcod,
                frame: f.frame,
                pilots: f.pilots,
                esn0_db: f.esn0_db,
            };
            let wait = Instant::now();
            send_failed = to_decoder.send(job).is_err();
            waited += wait.elapsed();
        });
        read += count as u64;
        let busy = t0.elapsed().saturating_sub(waited);
        live.sync
            .add(count as u64, report.frames - frames_before, busy);
        progress(read, total);
    }
    report.samples = read;
    report.locked = sync.stats().locked;
    drop(to_decoder);
    let decoded = decoder
        .join()
        .map_err(|_| RxAppError::Setting("the decoding thread panicked".into()))??;
    report.decoded = decoded.decoded;
    report.failed = decoded.failed;
    report.packets = decoded.packets;
    report.info_bits = decoded.info_bits;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Reads until `buf` is full (whole samples) or the file ends.
fn read_full(f: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// What the decoding thread counted.
#[derive(Default)]
struct Decoded {
    decoded: u64,
    failed: u64,
    packets: u64,
    info_bits: u64,
}

fn decode_thread(
    jobs: Receiver<Job>,
    free: SyncSender<Vec<Complex32>>,
    out: std::fs::File,
    path: &Path,
    live: &TaskCounters,
) -> Result<Decoded, RxAppError> {
    let mut w = BufWriter::new(out);
    let mut dec = FrameDecoder::new();
    let mut depack = Depacketizer::new();
    let mut counts = Decoded::default();
    let mut write_error = None;
    for job in jobs {
        let (t0, packets_before) = (Instant::now(), counts.packets);
        let n0 = 10f32.powf(-job.esn0_db / 10.0);
        let _ = job.pilots;
        match dec.decode(&job.symbols[..job.len], job.modcod, job.frame, n0) {
            Ok(status) => {
                let ok = status.ok();
                if ok {
                    counts.decoded += 1;
                    counts.info_bits += status.info_bits() as u64;
                } else {
                    counts.failed += 1;
                }
                let header: Option<BbHeader> = status.header.ok();
                depack.push(header.as_ref(), dec.bbframe(), ok, &mut |p: &[u8]| {
                    counts.packets += 1;
                    if write_error.is_none() {
                        write_error = w.write_all(p).err();
                    }
                });
            }
            Err(_) => counts.failed += 1,
        }
        live.add(1, counts.packets - packets_before, t0.elapsed());
        // The synchroniser may have stopped waiting (its end); then the buffer is dropped.
        let _ = free.send(job.symbols);
    }
    depack.flush(&mut |p: &[u8]| {
        counts.packets += 1;
        if write_error.is_none() {
            write_error = w.write_all(p).err();
        }
    });
    if let Some(e) = write_error {
        return Err(file_error(path)(e));
    }
    w.flush().map_err(file_error(path))?;
    Ok(counts)
}

#[cfg(all(test, feature = "framed"))]
mod tests {
    use super::*;
    use crate::app::{tx_file, TxFileOptions};

    /// `n` TS packets with a counter in their payload (PID 0x100).
    fn ts(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                let mut p = vec![0u8; 188];
                p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
                p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
                for (j, b) in p[8..].iter_mut().enumerate() {
                    *b = (i * 7 + j) as u8;
                }
                p
            })
            .collect()
    }

    #[test]
    fn what_the_transmitter_writes_the_receiver_reads_back_after_lock() {
        let dir = tempfile::tempdir().unwrap();
        let (ts_in, iq, ts_out) = (
            dir.path().join("in.ts"),
            dir.path().join("x.cf32"),
            dir.path().join("out.ts"),
        );
        let input = ts(400);
        std::fs::write(&ts_in, &input).unwrap();
        tx_file(&TxFileOptions {
            input: ts_in,
            output: iq.clone(),
            modcod: "qpsk-8/9".into(),
            frame: "short".into(),
            pilots: true,
            rolloff: 0.2,
            sps: 2,
            rrc: true,
            gold: 0,
            schedule: None,
            threads: 0,
        })
        .unwrap();
        let mut calls = 0;
        let mut opts = RxFileOptions {
            input: iq,
            output: ts_out.clone(),
            rolloff: 0.2,
            gold: 0,
            frame: Some(FrameSize::Short),
            pilots: Some(true),
        };
        let report = rx_file(&opts, |read, total| {
            assert!(read <= total);
            calls += 1;
        })
        .unwrap();
        assert!(calls > 0);
        let got = std::fs::read(&ts_out).unwrap();
        assert_eq!(got.len() % 188, 0);
        // After lock every packet is the transmitter's, in order, none lost: the output is
        // a contiguous run of the input (the first frames go to acquisition).
        let first = got
            .get(4..8)
            .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize);
        let first = first.expect("packets decoded");
        let n = got.len() / 188;
        assert_eq!(
            got[..],
            input[first * 188..(first + n) * 188],
            "packets {first}..{}",
            first + n
        );
        assert!(n >= 300, "only {n} of 400 packets after lock");
        assert_eq!(report.failed, 0);
        assert!(report.decoded >= 30);
        assert_eq!(report.skipped, 0);
        assert_eq!(
            report.last_modcod.map(|m| m.0.to_string()).as_deref(),
            Some("qpsk-8/9")
        );

        // Asked for normal frames only: every frame is synchronised, none decoded.
        opts.frame = Some(FrameSize::Normal);
        let only_normal = rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(only_normal.frames, report.frames);
        assert_eq!(only_normal.skipped, report.frames);
        assert_eq!((only_normal.decoded, only_normal.packets), (0, 0));
    }

    #[test]
    fn bad_inputs_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("odd.cf32");
        std::fs::write(&odd, [0u8; 12]).unwrap();
        let opts = |input: PathBuf| RxFileOptions {
            input,
            output: dir.path().join("o.ts"),
            rolloff: 0.2,
            gold: 0,
            frame: None,
            pilots: None,
        };
        let e = rx_file(&opts(odd), |_, _| {}).unwrap_err();
        assert!(
            e.to_string()
                .contains("12 bytes is not a whole number of cf32 samples"),
            "{e}"
        );
        let e = rx_file(&opts(dir.path().join("missing.cf32")), |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("missing.cf32"), "{e}");
        let mut bad = opts(dir.path().join("odd.cf32"));
        bad.rolloff = 2.0;
        assert!(rx_file(&bad, |_, _| {})
            .unwrap_err()
            .to_string()
            .contains("roll-off"));
    }
}
