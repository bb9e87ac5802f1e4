//! The end of the input, on both sides (issue 32, item 4).
//!
//! The transmitter (`run_tx` as a sequence and as a pipeline, and to a file) writes the RRC
//! filter's ringing after the last PLFRAME: its output is the full convolution of the
//! symbols with the filter, `2·span·sps` samples longer than the frames.
//!
//! The framed receiver (`framed::run_rx` from a file, one sequence and the planned pipeline, at 2
//! samples per symbol and through the resampler) decodes the last PLFRAME of a recording:
//! for inputs that end mid-frame (the last BBFRAME padded) and exactly at a frame's end,
//! every packet from lock to the last one sent comes out, none failed; the same for a
//! recording without the filter's tail (as GNU Radio's filter writes it) and with zeros
//! appended, and a recording cut inside its last frame loses that frame without counting
//! it failed. (The streaming block: `radioflow-blocks`' `tests/dvbs2_end.rs`; GNU Radio's
//! recordings: `tests/gnuradio_rx.rs`.)

use num_complex::Complex32;
use radioflow_dvbs2::framed::{calibrate, run_rx, run_tx, RxLive, RxRun, TxRun};
use radioflow_dvbs2::rx::sync::SyncConfig;
use radioflow_dvbs2::{FrameSize, RollOff, Schedule, Shaping, Transmitter, TxConfig};
use rand::{Rng, SeedableRng};
use std::f64::consts::TAU;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// `n` TS packets, the packet's index in bytes 4..8.
fn ts(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let mut p = vec![0u8; 188];
            p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
            p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
            for (j, b) in p[8..].iter_mut().enumerate() {
                *b = (i * 13 + j * 7) as u8;
            }
            p
        })
        .collect()
}

/// A writer the test reads back after the run.
#[derive(Clone, Default)]
struct Memory(Arc<Mutex<Vec<u8>>>);

impl Write for Memory {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The PL symbols of every frame `input` makes, one after the other.
fn symbols(cfg: TxConfig, input: &[u8]) -> (Vec<Complex32>, usize) {
    let mut tx = Transmitter::new(cfg).unwrap();
    let (mut pos, mut out, mut frames) = (0, Vec::new(), 0);
    while pos < input.len() {
        let mut f = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        pos += tx.encode_frame(&input[pos..], &mut f).unwrap().consumed;
        out.extend(f);
        frames += 1;
    }
    (out, frames)
}

/// The full convolution of `x` zero-stuffed to `sps` with `taps`, in f64: every output
/// sample a nonzero input reaches.
fn full_convolution(x: &[Complex32], taps: &[f32], sps: usize) -> Vec<Complex32> {
    let mut y = vec![(0.0f64, 0.0f64); x.len() * sps + taps.len() - 1];
    for (k, s) in x.iter().enumerate() {
        for (j, &t) in taps.iter().enumerate() {
            let o = &mut y[k * sps + j];
            o.0 += f64::from(t) * f64::from(s.re);
            o.1 += f64::from(t) * f64::from(s.im);
        }
    }
    y.into_iter()
        .map(|(re, im)| Complex32::new(re as f32, im as f32))
        .collect()
}

#[test]
fn the_transmitter_ends_with_the_rrc_filter_tail() {
    // 19 packets: 2 whole QPSK 8/9 short frames and a padded one; 296 packets of 8PSK 3/5
    // short: exactly 47 frames (296·188 = 47·1184 bytes), no padding.
    for (modcod, packets, roll_off, sps) in [
        ("qpsk-8/9", 19, RollOff::R020, 2),
        ("8psk-3/5", 296, RollOff::R035, 3),
    ] {
        let mut cfg = TxConfig::new(modcod.parse().unwrap(), FrameSize::Short, true);
        cfg.roll_off = roll_off;
        let input = ts(packets);
        let shaping = Shaping::rrc(roll_off, sps);
        let Shaping::Rrc { span, .. } = shaping else {
            unreachable!()
        };
        let taps = shaping.taps().unwrap().unwrap();
        assert_eq!(taps.len() - 1, 2 * span * sps);
        let (syms, frames) = symbols(cfg, &input);
        let want = full_convolution(&syms, &taps, sps);
        for encoders in [0, 1, 3] {
            let run = TxRun {
                tx: cfg,
                shaping,
                schedule: Schedule::default(),
                encoders,
            };
            let out = Memory::default();
            let stats = run_tx(&run, std::io::Cursor::new(input.clone()), out.clone()).unwrap();
            let bytes = out.0.lock().unwrap().clone();
            let got: &[Complex32] = bytemuck::cast_slice(&bytes);
            let label = format!("{modcod}, {packets} packets, sps {sps}, encoders {encoders}");
            assert_eq!(stats.frames as usize, frames, "{label}");
            // The frames, then the filter's ringing: 2·span symbols' worth.
            assert_eq!(got.len(), syms.len() * sps + 2 * span * sps, "{label}");
            assert_eq!(stats.samples as usize, got.len(), "{label}");
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!((g - w).norm() < 1e-4, "{label}, sample {k}: {g} vs {w}");
            }
            // The tail is not silence: the last symbols' pulses end in it.
            let tail = &got[syms.len() * sps..];
            assert!(tail[..span * sps].iter().any(|s| s.norm() > 0.1), "{label}");
        }
    }
}

/// Writes `packets` TS packets as 8PSK 3/5 short frames with pilots, RRC 0.2 at `sps`, through
/// `radioflow dvbs2 tx`'s pipeline (two encoders) into a file; returns the TS and the samples.
fn transmit(dir: &Path, packets: usize, sps: usize) -> (Vec<u8>, Vec<Complex32>) {
    let (ts_in, iq) = (dir.join("in.ts"), dir.join("tx.cf32"));
    let sent = ts(packets);
    std::fs::write(&ts_in, &sent).unwrap();
    let run = TxRun {
        tx: TxConfig::new("8psk-3/5".parse().unwrap(), FrameSize::Short, true),
        shaping: Shaping::rrc(RollOff::R020, sps),
        schedule: Schedule::default(),
        encoders: 2,
    };
    let (input, output) = (
        std::fs::File::open(&ts_in).unwrap(),
        std::fs::File::create(&iq).unwrap(),
    );
    let stats = run_tx(&run, input, output).unwrap();
    let bytes = std::fs::read(&iq).unwrap();
    let samples: Vec<Complex32> = bytes
        .chunks_exact(8)
        .map(|b| {
            let f = |i: usize| f32::from_le_bytes(b[i..i + 4].try_into().unwrap());
            Complex32::new(f(0), f(4))
        })
        .collect();
    // 5598 symbols per frame, then the filter's tail (±10 symbols).
    assert_eq!(samples.len(), (stats.frames as usize * 5598 + 20) * sps);
    (sent, samples)
}

/// A carrier offset of 0.3 % of the symbol rate and white noise at `esn0_db` (deterministic).
fn channel(x: &[Complex32], sps: f64, esn0_db: f64, seed: u64) -> Vec<Complex32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut gauss = || {
        let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
        let v: f64 = rng.r#gen();
        (-2.0 * u.ln()).sqrt() * (TAU * v).cos()
    };
    // Unit-energy symbols through taps summing to sps: Es = 1 per symbol.
    let sigma = (sps * 10f64.powf(-esn0_db / 10.0) / 2.0).sqrt();
    x.iter()
        .enumerate()
        .map(|(n, s)| {
            let w = Complex32::from_polar(1.0, (TAU * 0.003 * n as f64 / sps) as f32);
            s * w + Complex32::new((sigma * gauss()) as f32, (sigma * gauss()) as f32)
        })
        .collect()
}

/// Receives `samples` (at `sps`) from a file as `radioflow dvbs2 rx` does, on `cores` (0: one
/// sequence; else the pipeline planned from a profile of the file's start).
fn receive(dir: &Path, samples: &[Complex32], sps: f64, cores: usize) -> (Vec<u8>, u64, u64) {
    let (iq, out) = (dir.join("rx.cf32"), dir.join("out.ts"));
    std::fs::write(&iq, bytemuck::cast_slice::<Complex32, u8>(samples)).unwrap();
    let run = RxRun {
        sync: SyncConfig {
            samples_per_symbol: sps,
            ..SyncConfig::default()
        },
        filter: Default::default(),
        cores,
        pin: false,
    };
    let open = || std::fs::File::open(&iq).unwrap();
    let calibration = (cores > 0).then(|| calibrate(&run, open(), cores).unwrap());
    let output = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    let live = Arc::new(RxLive::default());
    let r = run_rx(&run, open(), output, calibration.as_ref(), live, |_| {}).unwrap();
    (std::fs::read(&out).unwrap(), r.decoded, r.failed)
}

/// `got` is `sent`'s packets from some packet of the first `lock` on to packet `last`
/// (inclusive), in order, none changed.
fn assert_packets(got: &[u8], sent: &[u8], lock: usize, last: usize, label: &str) {
    assert_eq!(got.len() % 188, 0, "{label}");
    let first = got
        .get(4..8)
        .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize)
        .unwrap_or_else(|| panic!("{label}: no packet"));
    assert!(first < lock, "{label}: the first packet out is {first}");
    let n = got.len() / 188;
    assert_eq!(
        first + n - 1,
        last,
        "{label}: packets {first}..={} out, the last sent {}",
        first + n - 1,
        sent.len() / 188 - 1
    );
    assert!(
        got == &sent[first * 188..(last + 1) * 188],
        "{label}: packets changed"
    );
}

#[test]
fn the_framed_receiver_decodes_the_last_frame() {
    let dir = tempfile::tempdir().unwrap();
    // 1184 bytes per frame: 296 packets end exactly at the 47th frame's end, 295 a packet
    // before it (padded), 297 a packet into the 48th; 150 and 151 halfway through a frame.
    // Lock comes by the third frame (the first goes to the timing loop's warm-up).
    let lock = 3 * 1184 / 188;
    for (k, packets) in [296, 295, 297, 150, 151].into_iter().enumerate() {
        let (sent, x) = transmit(dir.path(), packets, 2);
        let y = channel(&x, 2.0, 12.0, k as u64);
        for cores in [0, 2] {
            let label = format!("{packets} packets, {cores} cores");
            let (got, _, failed) = receive(dir.path(), &y, 2.0, cores);
            assert_packets(&got, &sent, lock, packets - 1, &label);
            assert_eq!(failed, 0, "{label}");
        }
    }
}

#[test]
fn the_framed_receiver_decodes_the_last_frame_through_the_resampler() {
    let dir = tempfile::tempdir().unwrap();
    let lock = 3 * 1184 / 188;
    for packets in [296, 150] {
        // Every other sample at 5 samples per symbol: 2.5.
        let (sent, x) = transmit(dir.path(), packets, 5);
        let x: Vec<Complex32> = x.into_iter().step_by(2).collect();
        let y = channel(&x, 2.5, 12.0, 7);
        for cores in [0, 2] {
            let label = format!("{packets} packets at 2.5 samples/symbol, {cores} cores");
            let (got, _, failed) = receive(dir.path(), &y, 2.5, cores);
            assert_packets(&got, &sent, lock, packets - 1, &label);
            assert_eq!(failed, 0, "{label}");
        }
    }
}

#[test]
fn a_recording_without_the_tail_with_zeros_or_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let lock = 3 * 1184 / 188;
    let (sent, x) = transmit(dir.path(), 296, 2);
    let y = channel(&x, 2.0, 12.0, 3);
    let frames_end = y.len() - 40;
    // Without the filter's tail (GNU Radio's filters do not write it): the last 10 symbols
    // only half there.
    let (got, _, failed) = receive(dir.path(), &y[..frames_end], 2.0, 0);
    assert_packets(&got, &sent, lock, 295, "without the tail");
    assert_eq!(failed, 0, "without the tail");
    // Zeros after the signal (a transmitter gone silent): they must not stand in for the next
    // frame's header (the last frame was counted failed).
    let mut z = y.clone();
    z.extend(std::iter::repeat_n(Complex32::new(0.0, 0.0), 20_000));
    for cores in [0, 2] {
        let (got, _, failed) = receive(dir.path(), &z, 2.0, cores);
        assert_packets(&got, &sent, lock, 295, "zeros appended");
        assert_eq!(failed, 0, "zeros appended, {cores} cores");
    }
    // Cut 1000 symbols before the last frame's end: that frame is lost, not failed; the
    // packets up to the one the 46th frame completes come out (46·1184/188 = 289.7).
    for cores in [0, 2] {
        let (got, decoded, failed) = receive(dir.path(), &y[..frames_end - 2000], 2.0, cores);
        assert_packets(&got, &sent, lock, 288, "cut short");
        assert_eq!(failed, 0, "cut short, {cores} cores");
        assert!(decoded >= 44, "cut short: {decoded} frames decoded");
    }
}
