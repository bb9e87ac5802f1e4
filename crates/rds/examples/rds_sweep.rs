//! Measures the decoder's noise threshold (a measurement, not a test): block error rate and
//! whether PI, PS and RadioText come out exactly right, against Eb/N0 of white noise added to
//! the multiplex, and against the RF carrier-to-noise ratio of an FM channel.
//!
//! ```text
//! cargo run --release -p radioflow-rds --example rds_sweep
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use common::*;
use radioflow_rds::Encoder;

const SECONDS: f64 = 6.0;
const SEEDS: u64 = 4;

fn main() {
    let rate = 240e3;
    let n = (SECONDS * rate) as usize;
    println!("MPX + white noise, {SECONDS} s per run, {SEEDS} seeds, {rate} Hz");
    println!("Eb/N0 dB  block errors  exactly right");
    for ebn0 in [2.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 12.0] {
        let (mut good, mut bad, mut right) = (0, 0, 0);
        for seed in 0..SEEDS {
            let mut encoder = Encoder::new(rate, &info()).unwrap();
            let signal = rds(&mut encoder, n);
            let p = power(&signal);
            let mut mpx = programme(rate, n);
            mpx.iter_mut().zip(&signal).for_each(|(m, s)| *m += s);
            add_noise(&mut mpx, rate, p, ebn0, 1000 + seed);
            let (decoder, _) = decode(rate, &mpx, 4096);
            let st = decoder.station();
            good += st.good_blocks;
            bad += st.bad_blocks;
            right += u32::from(exactly_right(st));
        }
        let ber = bad as f64 / (good + bad).max(1) as f64;
        println!("{ebn0:8.1}  {ber:12.4}  {right}/{SEEDS}");
    }
    println!("\nFM at 2.4 Msps (RDS at 0.05 of ±75 kHz), CNR in 200 kHz, {SECONDS} s per run");
    println!("CNR dB  block errors  exactly right");
    for cnr in [6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 20.0] {
        let (mut good, mut bad, mut right) = (0, 0, 0);
        for seed in 0..SEEDS {
            let mut encoder = Encoder::new(rate, &info()).unwrap();
            let mut mpx = programme(rate, n);
            encoder.add_to(&mut mpx);
            let received = fm_channel(&mpx, cnr, 2000 + 2 * seed);
            let (decoder, _) = decode(rate, &received, 4096);
            let st = decoder.station();
            good += st.good_blocks;
            bad += st.bad_blocks;
            right += u32::from(exactly_right(st));
        }
        let ber = bad as f64 / (good + bad).max(1) as f64;
        println!("{cnr:6.1}  {ber:12.4}  {right}/{SEEDS}");
    }
}
