//! Signals for the round-trip tests and the threshold sweep: a stereo multiplex with RDS,
//! white noise at a given Eb/N0, and an FM channel at 2.4 Msps built from radioflow-dsp.

#![allow(dead_code, unreachable_pub)]

use radioflow_dsp::{firdes, Complex32, FreqXlatingFir, InterpolatingFir, Nco, QuadratureDemod};
use radioflow_rds::{Decoder, Encoder, Event, Station, StationInfo, BIT_RATE};
use std::f64::consts::PI;

pub const PS: &str = "RADIOFLW";
pub const RT: &str = "radioflow RDS round trip: PS and RadioText";

pub fn info() -> StationInfo {
    let mut info = StationInfo::new(0xC0DE, PS, RT).unwrap();
    info.pty = 10;
    info.tp = true;
    info
}

/// Standard normal samples (Box–Muller), fixed seed. Uniforms from SplitMix64 written here:
/// `rand` is built at opt-level 0 in test builds, where millions of its ChaCha draws take
/// seconds.
pub fn gaussian(seed: u64, n: usize) -> Vec<f32> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut uniform = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // 53 bits in (0, 1].
        ((z >> 11) + 1) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (u, v) = (uniform(), uniform());
            ((-2.0 * u.ln()).sqrt() * (2.0 * PI * v).cos()) as f32
        })
        .collect()
}

/// The multiplex without RDS: mono 1 kHz at 0.4, L−R 2 kHz at 0.3 on 38 kHz (DSB-SC), the
/// 19 kHz pilot at 0.09; full scale ±1 is the peak deviation.
pub fn programme(rate: f64, n: usize) -> Vec<f32> {
    let w = |f: f64| 2.0 * PI * f / rate;
    (0..n)
        .map(|k| {
            let t = k as f64;
            (0.4 * (w(1e3) * t).sin()
                + 0.3 * (w(2e3) * t).sin() * (w(38e3) * t).sin()
                + 0.09 * (w(19e3) * t).sin()) as f32
        })
        .collect()
}

/// The RDS signal alone from `encoder`, `n` samples.
pub fn rds(encoder: &mut Encoder, n: usize) -> Vec<f32> {
    let mut out = vec![0.0; n];
    encoder.add_to(&mut out);
    out
}

/// Mean square.
pub fn power(x: &[f32]) -> f64 {
    x.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>() / x.len() as f64
}

/// `mpx` plus white Gaussian noise such that the RDS signal of power `rds_power` has
/// `Eb/N0 = ebn0_db` (`Eb = P/1187.5`, one-sided `N0 = σ²/(fs/2)`).
pub fn add_noise(mpx: &mut [f32], rate: f64, rds_power: f64, ebn0_db: f64, seed: u64) {
    let n0 = rds_power / BIT_RATE / 10f64.powf(ebn0_db / 10.0);
    let sigma = (n0 * rate / 2.0).sqrt() as f32;
    let noise = gaussian(seed, mpx.len());
    for (x, g) in mpx.iter_mut().zip(noise) {
        *x += sigma * g;
    }
}

/// Runs `mpx` through the decoder in chunks of `chunk` samples.
pub fn decode(rate: f64, mpx: &[f32], chunk: usize) -> (Decoder, Vec<Event>) {
    let mut decoder = Decoder::new(rate).unwrap();
    let mut events = Vec::new();
    for c in mpx.chunks(chunk) {
        events.extend_from_slice(decoder.process(c));
    }
    (decoder, events)
}

/// Whether the station has the PI, PS and RadioText of [`info`] exactly.
pub fn exactly_right(st: &Station) -> bool {
    st.pi == Some(0xC0DE)
        && st.ps.is_some_and(|p| p.to_string() == PS)
        && st.radiotext.is_some_and(|r| r.to_string() == RT)
}

/// FM over the air: `mpx` (at 240 kHz, ±1 = 75 kHz deviation) interpolated to 2.4 Msps,
/// frequency modulated on a carrier 200 kHz off centre, complex white noise added for a
/// carrier-to-noise ratio of `cnr_db` in 200 kHz, then received: channel filter and
/// decimation to 240 kHz (frequency-translating FIR), quadrature demodulation.
pub fn fm_channel(mpx: &[f32], cnr_db: f64, seed: u64) -> Vec<f32> {
    let (rate, up, offset, dev) = (240e3, 10usize, 200e3, 75e3);
    let fast = rate * up as f64;
    // Images of the multiplex (up to 60 kHz) start at 180 kHz.
    let taps = firdes::low_pass(up as f64, fast, 120e3, 100e3, firdes::Window::Hamming).unwrap();
    let mut interp = InterpolatingFir::<f32>::new(&taps, up).unwrap();
    let mut baseband = vec![0.0f32; mpx.len() * up];
    interp.process(mpx, &mut baseband);
    let mut carrier = vec![Complex32::default(); baseband.len()];
    Nco::new(offset, fast).fill_exp(&mut carrier, 1.0, Complex32::default());
    let k = 2.0 * PI * dev / fast;
    let mut phase = 0.0f64;
    // Noise in 200 kHz = total noise power × 200 kHz / 2.4 MHz; carrier power 1.
    let sigma = ((fast / 200e3) / 10f64.powf(cnr_db / 10.0) / 2.0).sqrt() as f32;
    let (gi, gq) = (
        gaussian(seed, carrier.len()),
        gaussian(seed + 1, carrier.len()),
    );
    for (i, c) in carrier.iter_mut().enumerate() {
        phase = (phase + k * f64::from(baseband[i])) % (2.0 * PI);
        *c = *c * Complex32::from_polar(1.0, phase as f32)
            + Complex32::new(sigma * gi[i], sigma * gq[i]);
    }
    let chan = firdes::low_pass(1.0, fast, 110e3, 60e3, firdes::Window::Hamming).unwrap();
    let mut xlate = FreqXlatingFir::new(&chan, up, offset, fast).unwrap();
    let mut narrow = vec![Complex32::default(); mpx.len()];
    let (_, produced) = xlate.process(&carrier, &mut narrow);
    let mut out = vec![0.0f32; produced];
    QuadratureDemod::new((rate / (2.0 * PI * dev)) as f32).process(&narrow[..produced], &mut out);
    out
}
