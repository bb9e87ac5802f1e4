//! Test channel: RRC pulse shaping at any rate (2 samples/symbol by default) evaluated at
//! arbitrary instants (fractional timing offset, sample clock offset), carrier frequency
//! offset, Wiener phase noise and AWGN at a given Es/N0.

use std::f64::consts::TAU;

use num_complex::Complex32;
use radioflow_dsp::firdes;
use rand::{Rng, SeedableRng};

/// Impairments of [`channel`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Impairments {
    /// Es/N0 in dB at the matched filter's output; `None` for no noise.
    pub(crate) esn0_db: Option<f64>,
    /// Carrier frequency offset, cycles/symbol.
    pub(crate) cfo: f64,
    /// Initial carrier phase, radians.
    pub(crate) phase: f64,
    /// Wiener phase noise: standard deviation of the phase step per symbol, radians.
    pub(crate) phase_noise: f64,
    /// Timing offset, symbols (the first sample is taken this late).
    pub(crate) timing: f64,
    /// Sample clock offset, parts per million (positive: samples further apart).
    pub(crate) clock_ppm: f64,
    /// RRC roll-off of the pulse.
    pub(crate) roll_off: f64,
    /// Amplitude of the signal (the receiver has an AGC).
    pub(crate) gain: f64,
    /// Samples per symbol.
    pub(crate) sps: f64,
    pub(crate) seed: u64,
}

impl Default for Impairments {
    fn default() -> Self {
        Impairments {
            esn0_db: None,
            cfo: 0.0,
            phase: 0.0,
            phase_noise: 0.0,
            timing: 0.0,
            clock_ppm: 0.0,
            roll_off: 0.2,
            gain: 1.0,
            sps: 2.0,
            seed: 1,
        }
    }
}

/// Table oversampling of the pulse and its half span in symbols.
const OS: usize = 64;
const HALF: usize = 16;

/// Standard normal samples (Box–Muller).
fn gauss(rng: &mut impl Rng) -> f64 {
    let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
    let v: f64 = rng.r#gen();
    (-2.0 * u.ln()).sqrt() * (TAU * v).cos()
}

/// A standard normal sample.
pub(crate) fn gauss_pub(rng: &mut impl Rng) -> f32 {
    gauss(rng) as f32
}

/// The received samples (`imp.sps` per symbol) for `symbols` sent through `imp`.
pub(crate) fn channel(symbols: &[Complex32], imp: &Impairments) -> Vec<Complex32> {
    let taps = firdes::root_raised_cosine(1.0, OS as f64, 1.0, imp.roll_off, 2 * HALF * OS + 1)
        .expect("valid RRC");
    // Unit energy: ∫p² dt = 1 with t in symbols.
    let e: f64 = taps.iter().map(|&h| f64::from(h).powi(2)).sum::<f64>() / OS as f64;
    let p: Vec<f64> = taps.iter().map(|&h| f64::from(h) / e.sqrt()).collect();
    let pulse = |t: f64| -> f64 {
        // t in symbols from the pulse's centre.
        let x = (t + HALF as f64) * OS as f64;
        if x < 0.0 || x >= (p.len() - 1) as f64 {
            return 0.0;
        }
        let i = x as usize;
        let f = x - i as f64;
        p[i] * (1.0 - f) + p[i + 1] * f
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(imp.seed);
    let period = (1.0 + imp.clock_ppm * 1e-6) / imp.sps;
    let n = ((symbols.len() as f64 - imp.timing) / period) as usize;
    // Complex noise of variance sps·N0 per sample at sps samples/symbol, Es = 1.
    let sigma = imp
        .esn0_db
        .map_or(0.0, |db| (imp.sps / 10f64.powf(db / 10.0) / 2.0).sqrt());
    let mut phase = imp.phase;
    let pn_step = imp.phase_noise * period.sqrt();
    (0..n)
        .map(|k| {
            let t = imp.timing + k as f64 * period;
            let lo = (t - HALF as f64).ceil().max(0.0) as usize;
            let hi = ((t + HALF as f64).floor() as usize).min(symbols.len() - 1);
            let (mut re, mut im) = (0.0, 0.0);
            for (j, s) in symbols.iter().enumerate().take(hi + 1).skip(lo) {
                let w = pulse(t - j as f64);
                re += w * f64::from(s.re);
                im += w * f64::from(s.im);
            }
            let ph = phase + TAU * imp.cfo * t;
            phase += pn_step * gauss(&mut rng);
            let (sn, cs) = ph.sin_cos();
            let (re, im) = (re * cs - im * sn, re * sn + im * cs);
            Complex32::new(
                (imp.gain * (re + sigma * gauss(&mut rng))) as f32,
                (imp.gain * (im + sigma * gauss(&mut rng))) as f32,
            )
        })
        .collect()
}
