//! Frame error rate of the decoding chain (ideal synchronisation, AWGN) against Es/N0, beside
//! the quasi-error-free threshold of EN 302 307-1 Table 13 (normal frames).
//!
//! `cargo run --release -p radioflow-dvbs2 --example rx_fer -- [frames per point]`

use num_complex::Complex32;
use radioflow_dvbs2::rx::{FrameDecoder, IdealSync};
use radioflow_dvbs2::{FrameSize, Modcod, Transmitter, TxConfig};

/// Table 13 (ideal Es/N0 for QEF, normal FECFRAMEs, AWGN), by PLS MODCOD number − 1.
const TABLE13: [f32; 28] = [
    -2.35, -1.24, -0.30, 1.00, 2.23, 3.10, 4.03, 4.68, 5.18, 6.20, 6.42, 5.50, 6.62, 7.91, 9.35,
    10.69, 10.98, 8.97, 10.21, 11.03, 11.61, 12.89, 13.13, 12.73, 13.64, 14.28, 15.69, 16.05,
];

struct Rng(u64);
impl Rng {
    fn uniform(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 40) as f32 + 0.5) / (1u64 << 24) as f32
    }
    fn gaussian(&mut self) -> f32 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f32::consts::PI * v).cos()
    }
}

fn fer(modcod: &str, frame: FrameSize, offsets: &[f32], frames: usize) {
    let m: Modcod = modcod.parse().unwrap();
    let threshold = TABLE13[usize::from(m.pls_modcod()) - 1];
    let cfg = TxConfig::new(m, frame, false);
    let mut tx = Transmitter::new(cfg).unwrap();
    let sync = IdealSync::new(0);
    let mut dec = FrameDecoder::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let ts: Vec<u8> = (0..(offsets.len() * frames + 1) * 8100)
        .map(|i| if i % 188 == 0 { 0x47 } else { (i / 3) as u8 })
        .collect();
    let mut pos = 0;
    let mut line = format!("{modcod:>12} {frame:?} (Table 13: {threshold:5.2} dB):");
    for &off in offsets {
        let es_n0 = threshold + off;
        let n0 = 10f32.powf(-es_n0 / 10.0);
        let sigma = (n0 / 2.0).sqrt();
        let mut failed = 0;
        let mut iterations = 0;
        for _ in 0..frames {
            let mut pl = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            pos += tx.encode_frame(&ts[pos..], &mut pl).unwrap().consumed;
            let mut sym = vec![Complex32::new(0.0, 0.0); pl.len()];
            let n = sync.data_symbols(&pl, false, &mut sym);
            for s in &mut sym[..n] {
                *s += Complex32::new(sigma * rng.gaussian(), sigma * rng.gaussian());
            }
            let st = dec.decode(&sym[..n], m, frame, n0).unwrap();
            failed += usize::from(!st.ok());
            iterations += st.ldpc.iterations;
        }
        line += &format!(
            "  {off:+.1} dB: FER {:.3} ({:.1} it)",
            failed as f64 / frames as f64,
            f64::from(iterations) / frames as f64
        );
    }
    println!("{line}");
}

fn main() {
    let frames: usize = std::env::args()
        .nth(1)
        .map_or(40, |a| a.parse().expect("frames per point: a number"));
    let offsets = [0.0, 0.2, 0.4, 0.6, 1.0];
    for frame in [FrameSize::Normal, FrameSize::Short] {
        for m in [
            "qpsk-1/4",
            "qpsk-1/2",
            "qpsk-8/9",
            "8psk-3/5",
            "16apsk-3/4",
            "32apsk-9/10",
        ] {
            let Ok(_) = m.parse::<Modcod>().unwrap().fec(frame) else {
                continue;
            };
            fer(m, frame, &offsets, frames);
        }
    }
}
