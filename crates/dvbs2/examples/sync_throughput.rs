//! Throughput of the receiver synchronisation (AGC, matched filter, timing, frame and carrier
//! recovery) on one core, in Msymbol/s and in Mb/s of information (Kbch per frame).
//!
//! `cargo run --release -p radioflow-dvbs2 --example sync_throughput [seconds]`
//!
//! The input: PLFRAMEs from the crate's transmitter, RRC-shaped at 2 samples/symbol
//! (roll-off 0.20), shifted by 1 % of the symbol rate, with light noise; the same buffer is
//! processed again and again (continuous, since it holds whole frames).

use std::time::{Duration, Instant};

use num_complex::Complex32;
use radioflow_dsp::{firdes, InterpolatingFir};
use radioflow_dvbs2::rx::sync::{SyncConfig, Synchronizer};
use radioflow_dvbs2::{FrameSize, Transmitter, TxConfig};

/// Seconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), so that other
/// processes on a loaded machine do not count; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let secs: f64 = std::env::args().nth(1).map_or(Ok(3.0), |s| s.parse())?;
    for (modcod, frame, pilots) in [
        ("qpsk-8/9", FrameSize::Short, true),
        ("8psk-3/5", FrameSize::Normal, true),
        ("32apsk-9/10", FrameSize::Normal, false),
    ] {
        let m = modcod.parse()?;
        let kbch = radioflow_dvbs2::Modcod::fec(m, frame)?.kbch;
        let mut tx = Transmitter::new(TxConfig::new(m, frame, pilots))?;
        let nframes = 2_000_000 / tx.frame_len();
        let mut ts = vec![0u8; tx.max_input() / 188 * 188];
        for (i, b) in ts.iter_mut().enumerate() {
            *b = if i % 188 == 0 {
                0x47
            } else {
                (i * 31 + 7) as u8
            };
        }
        let mut symbols = vec![Complex32::new(0.0, 0.0); nframes * tx.frame_len()];
        for f in symbols.chunks_mut(tx.frame_len()) {
            tx.encode_frame(&ts, f)?;
        }
        // Shaping: RRC at 2 samples/symbol (gain 2 keeps the level), a carrier offset of
        // 0.01 cycles/symbol, and deterministic noise at about 20 dB.
        let taps = firdes::root_raised_cosine(2.0, 2.0, 1.0, 0.2, 49)?;
        let mut shaper = InterpolatingFir::<Complex32>::new(&taps, 2)?;
        let mut samples = vec![Complex32::new(0.0, 0.0); 2 * symbols.len()];
        shaper.process(&symbols, &mut samples);
        let mut state = 0x1234_5678u32;
        for (n, s) in samples.iter_mut().enumerate() {
            let ph = 2.0 * std::f64::consts::PI * 0.005 * n as f64;
            let mut noise = || {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state as f32 / u32::MAX as f32 - 0.5) * 0.35
            };
            *s = *s * Complex32::from_polar(1.0, ph as f32) + Complex32::new(noise(), noise());
        }
        let mut rx = Synchronizer::new(SyncConfig::default())?;
        // Warm-up (acquisition), then timed passes.
        let mut frames = 0u64;
        rx.process(&samples, |_| frames += 1);
        let before = rx.stats();
        let start = Instant::now();
        let cpu0 = cpu_seconds();
        let mut passes = 0;
        while start.elapsed() < Duration::from_secs_f64(secs) {
            rx.process(&samples, |_| frames += 1);
            passes += 1;
        }
        let wall = start.elapsed().as_secs_f64();
        let t = cpu0.zip(cpu_seconds()).map_or(wall, |(a, b)| b - a);
        let after = rx.stats();
        let syms = (after.symbols - before.symbols) as f64;
        let got = (after.frames - before.frames) as f64;
        println!(
            "{modcod:>12} {frame:?} pilots {pilots}: {passes} passes, {:.1} Msym/s, {:.1} Mb/s of \
             information per CPU second ({got} frames, {} dummies, {} lock losses, {:.0} % of \
             the wall time on CPU)",
            syms / t / 1e6,
            got * kbch as f64 / t / 1e6,
            after.dummy_frames,
            after.lock_losses,
            100.0 * t / wall,
        );
        let mut last = None;
        rx.process(&samples[..samples.len() / 4], |f| last = Some(f.esn0_db));
        if let Some(db) = last {
            println!("{:>12} Es/N0 estimate {db:.1} dB", "");
        }
    }
    Ok(())
}
