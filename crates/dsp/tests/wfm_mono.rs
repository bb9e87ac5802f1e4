//! The kernels as a mono WBFM receiver on a station made by GNU Radio's `analog.wfm_tx`
//! (`golden/wfm_mono.cf32`, made by `golden/firdes.py`): the 1 kHz tone comes back clean.

use radioflow_dsp::firdes::{self, Window};
use radioflow_dsp::{
    cf32_to_complex, Complex32, DecimatingFir, FreqXlatingFir, Iir, ParamError, QuadratureDemod,
};
use std::f64::consts::PI;

/// SNR in dB of a `freq` tone in `audio`: the least-squares sinusoid (with DC) against the
/// residual, as `golden/firdes.py` measures GNU Radio's receiver.
fn tone_snr_db(audio: &[f32], rate: f64, freq: f64) -> f64 {
    // Normal equations of y ≈ a·cos + b·sin + c.
    let basis = |n: usize| {
        let p = 2.0 * PI * freq * n as f64 / rate;
        [p.cos(), p.sin(), 1.0]
    };
    let (mut m, mut v) = ([[0.0f64; 3]; 3], [0.0f64; 3]);
    for (n, &y) in audio.iter().enumerate() {
        let b = basis(n);
        for i in 0..3 {
            v[i] += b[i] * f64::from(y);
            for j in 0..3 {
                m[i][j] += b[i] * b[j];
            }
        }
    }
    let coef = solve3(m, v);
    let (mut tone, mut residual) = (0.0, 0.0);
    for (n, &y) in audio.iter().enumerate() {
        let b = basis(n);
        let t = coef[0] * b[0] + coef[1] * b[1];
        tone += t * t;
        residual += (f64::from(y) - t - coef[2]).powi(2);
    }
    10.0 * (tone / residual).log10()
}

/// Gaussian elimination with partial pivoting on a 3×3 system.
fn solve3(mut m: [[f64; 3]; 3], mut v: [f64; 3]) -> [f64; 3] {
    for c in 0..3 {
        let p = (c..3)
            .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
            .expect("rows");
        m.swap(c, p);
        v.swap(c, p);
        let pivot = m[c];
        for r in c + 1..3 {
            let f = m[r][c] / pivot[c];
            for (x, p) in m[r].iter_mut().zip(pivot).skip(c) {
                *x -= f * p;
            }
            v[r] -= f * v[c];
        }
    }
    let mut x = [0.0; 3];
    for r in (0..3).rev() {
        x[r] = (v[r] - (r + 1..3).map(|k| m[r][k] * x[k]).sum::<f64>()) / m[r][r];
    }
    x
}

/// 480 kHz IQ, station at +100 kHz -> 240 kHz baseband -> FM -> de-emphasis -> 48 kHz.
fn receive(iq: &[Complex32]) -> Result<Vec<f32>, ParamError> {
    let (fs, offset, deviation) = (480e3, 100e3, 75e3);
    let channel = firdes::low_pass(1.0, fs, 100e3, 20e3, Window::Hamming)?;
    let mut xlate = FreqXlatingFir::new(&channel, 2, offset, fs)?;
    let mut baseband = vec![Complex32::default(); iq.len() / 2];
    let (_, n) = xlate.process(iq, &mut baseband);
    baseband.truncate(n);

    let mut fm = vec![0.0f32; n];
    QuadratureDemod::new((fs / 2.0 / (2.0 * PI * deviation)) as f32).process(&baseband, &mut fm);
    let mut deemphasized = vec![0.0f32; n];
    Iir::fm_deemphasis(fs / 2.0, 75e-6)?.process(&fm, &mut deemphasized);

    let audio_taps = firdes::low_pass(1.0, fs / 2.0, 16e3, 4e3, Window::Blackman)?;
    let mut audio = vec![0.0f32; n / 5];
    let (_, m) = DecimatingFir::new(&audio_taps, 5)?.process(&deemphasized, &mut audio);
    audio.truncate(m);
    Ok(audio)
}

#[test]
fn a_gnu_radio_wfm_station_demodulates_to_a_clean_tone() {
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/");
    let bytes = std::fs::read(format!("{golden}wfm_mono.cf32")).expect("wfm_mono.cf32");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{golden}wfm_mono.json")).unwrap())
            .unwrap();
    let mut iq = vec![Complex32::default(); bytes.len() / 8];
    cf32_to_complex(&bytes, &mut iq);
    assert_eq!(iq.len() as u64, meta["samples"].as_u64().unwrap());

    let audio = receive(&iq).unwrap();
    // Skip 20 ms of start-up (filters filling, de-emphasis settling), as for GNU Radio's.
    let snr = tone_snr_db(&audio[960..], 48e3, 1e3);
    let theirs = meta["gnuradio_wfm_rcv_snr_db"].as_f64().unwrap();
    eprintln!("tone SNR: {snr:.1} dB here, {theirs:.1} dB with GNU Radio's wfm_rcv");
    assert!(snr >= 30.0, "tone SNR {snr:.1} dB");
    // The tone's level: 0.5 at full scale 1 (75 kHz deviation), pre- and de-emphasis
    // cancelling.
    let peak = audio[960..].iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!((peak - 0.5).abs() < 0.02, "tone amplitude {peak}");
}
