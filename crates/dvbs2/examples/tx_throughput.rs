//! Encoding throughput of the DVB-S2 transmitter, in Mb/s of TS input.
//!
//! `cargo run --release -p radioflow-dvbs2 --example tx_throughput [seconds]`

use std::time::{Duration, Instant};

use num_complex::Complex32;
use radioflow_dvbs2::{FrameSize, Transmitter, TxConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let secs: f64 = std::env::args().nth(1).map_or(Ok(2.0), |s| s.parse())?;
    let ts: Vec<u8> = (0..1000 * 188)
        .map(|i| {
            if i % 188 == 0 {
                0x47
            } else {
                (i * 31 + 7) as u8
            }
        })
        .collect();
    for (modcod, frame, pilots) in [
        ("qpsk-8/9", FrameSize::Short, true),
        ("8psk-3/5", FrameSize::Normal, true),
        ("32apsk-9/10", FrameSize::Normal, false),
    ] {
        let mut tx = Transmitter::new(TxConfig::new(modcod.parse()?, frame, pilots))?;
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        let (mut bytes, mut frames, mut pos) = (0usize, 0usize, 0usize);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs_f64(secs) {
            if ts.len() - pos < tx.max_input() {
                // Restart on a packet boundary so the TS stays continuous.
                pos %= 188;
            }
            let info = tx.encode_frame(&ts[pos..pos + tx.max_input()], &mut out)?;
            pos += info.consumed;
            bytes += info.consumed;
            frames += 1;
        }
        let t = start.elapsed().as_secs_f64();
        println!(
            "{modcod:>12} {frame:?}: {frames} frames, {:.1} Mb/s of input, {:.2} Msym/s",
            bytes as f64 * 8.0 / t / 1e6,
            (frames * out.len()) as f64 / t / 1e6
        );
    }
    Ok(())
}
