//! Equiripple (optimal) FIR designs with GNU Radio's `optfir` conventions: the order is
//! estimated from the ripple and attenuation asked for (Herrmann's formula, `remezord`), two
//! taps are added, and [`pm_remez`] designs the filter. Taps are `f64`, as GNU Radio's
//! Python returns them.
//!
//! ```
//! use radioflow_dsp::optfir;
//! // GNU Radio's default taps of a 32-branch polyphase arbitrary resampler (rate >= 1).
//! let taps = optfir::low_pass(32.0, 32.0, 0.4, 0.6, 0.1, 100.0, 2)?;
//! assert_eq!(taps.len() % 2, 1);
//! assert!((taps.iter().sum::<f64>() - 32.0).abs() < 0.5); // gain 32 at DC
//! # Ok::<(), radioflow_dsp::ParamError>(())
//! ```

use crate::error::{check, positive, ParamError};
pub use crate::remez::{pm_remez, RemezType, MAX_REMEZ_TAPS};

/// GNU Radio's `optfir.low_pass`: gain `gain` to `freq1` Hz, stop from `freq2` Hz, at
/// sample rate `fs`, within `ripple_db` dB in the pass band and `atten_db` dB down in the
/// stop band; `extra_taps` taps more than the estimate (GNU Radio's default is 2).
///
/// # Errors
/// If the frequencies are not `0 < freq1 < freq2 < fs/2`, the ripple or attenuation not
/// positive, or the design fails (see [`pm_remez`]).
pub fn low_pass(
    gain: f64,
    fs: f64,
    freq1: f64,
    freq2: f64,
    ripple_db: f64,
    atten_db: f64,
    extra_taps: usize,
) -> Result<Vec<f64>, ParamError> {
    design(
        fs,
        &[freq1, freq2],
        &[gain, 0.0],
        &[ripple_dev(ripple_db)?, atten_dev(atten_db)?],
        extra_taps,
        false,
    )
}

/// GNU Radio's `optfir.high_pass`: stop to `freq1` Hz, pass from `freq2` Hz. GNU Radio's
/// design ignores its `gain` (the pass band is always 1); so does this one, which takes none.
///
/// # Errors
/// As for [`low_pass`].
pub fn high_pass(
    fs: f64,
    freq1: f64,
    freq2: f64,
    ripple_db: f64,
    atten_db: f64,
    extra_taps: usize,
) -> Result<Vec<f64>, ParamError> {
    design(
        fs,
        &[freq1, freq2],
        &[0.0, 1.0],
        &[atten_dev(atten_db)?, ripple_dev(ripple_db)?],
        extra_taps,
        true,
    )
}

/// GNU Radio's `optfir.band_pass`: stop to `edges[0]`, pass `edges[1]..edges[2]` with gain
/// `gain`, stop from `edges[3]` (Hz).
///
/// # Errors
/// As for [`low_pass`].
pub fn band_pass(
    gain: f64,
    fs: f64,
    edges: [f64; 4],
    ripple_db: f64,
    atten_db: f64,
    extra_taps: usize,
) -> Result<Vec<f64>, ParamError> {
    let (p, s) = (ripple_dev(ripple_db)?, atten_dev(atten_db)?);
    design(fs, &edges, &[0.0, gain, 0.0], &[s, p, s], extra_taps, false)
}

/// GNU Radio's `optfir.band_reject`: pass to `edges[0]`, stop `edges[1]..edges[2]`, pass
/// from `edges[3]` (Hz), with gain `gain`.
///
/// # Errors
/// As for [`low_pass`].
pub fn band_reject(
    gain: f64,
    fs: f64,
    edges: [f64; 4],
    ripple_db: f64,
    atten_db: f64,
    extra_taps: usize,
) -> Result<Vec<f64>, ParamError> {
    let (p, s) = (ripple_dev(ripple_db)?, atten_dev(atten_db)?);
    design(fs, &edges, &[gain, 0.0, gain], &[p, s, p], extra_taps, true)
}

/// The pass-band deviation of a ripple in dB.
fn ripple_dev(db: f64) -> Result<f64, ParamError> {
    positive("passband_ripple_db", db)?;
    let g = 10f64.powf(db / 20.0);
    Ok((g - 1.0) / (g + 1.0))
}

/// The stop-band deviation of an attenuation in dB.
fn atten_dev(db: f64) -> Result<f64, ParamError> {
    positive("stopband_atten_db", db)?;
    Ok(10f64.powf(-db / 20.0))
}

/// `remezord` and `pm_remez`, made even-ordered (an odd number of taps) where `odd_taps`
/// (a filter that passes half the sample rate needs one).
fn design(
    fs: f64,
    fcuts: &[f64],
    mags: &[f64],
    devs: &[f64],
    extra_taps: usize,
    odd_taps: bool,
) -> Result<Vec<f64>, ParamError> {
    positive("Fs", fs)?;
    check(
        fcuts.windows(2).all(|w| w[0] < w[1])
            && fcuts[0] > 0.0
            && fcuts[fcuts.len() - 1] < fs / 2.0,
        "freq",
        || {
            format!(
                "band edges {fcuts:?} must increase strictly within (0, {})",
                fs / 2.0
            )
        },
    )?;
    let (mut n, fo, ao, w) = remezord(fcuts, mags, devs, fs);
    if odd_taps && (n + extra_taps) % 2 == 1 {
        n += 1;
    }
    pm_remez(n + extra_taps, &fo, &ao, &w, RemezType::Bandpass, 16)
}

/// GNU Radio's `optfir.remezord`: the order, band edges (1 = Nyquist), amplitudes and
/// weights for [`pm_remez`].
fn remezord(
    fcuts: &[f64],
    mags: &[f64],
    devs: &[f64],
    fs: f64,
) -> (usize, Vec<f64>, Vec<f64>, Vec<f64>) {
    let fcuts: Vec<f64> = fcuts.iter().map(|f| f / fs).collect();
    let devs: Vec<f64> = devs
        .iter()
        .zip(mags)
        .map(|(&d, &m)| if m != 0.0 { d / m } else { d })
        .collect();
    let nbands = mags.len();
    let (f1, f2): (Vec<f64>, Vec<f64>) = fcuts.chunks(2).map(|c| (c[0], c[1])).unzip();
    let mut n = 0;
    let mut min_delta = 2.0;
    for i in 0..f1.len() {
        if f2[i] - f1[i] < min_delta {
            n = i;
            min_delta = f2[i] - f1[i];
        }
    }
    let l = if nbands == 2 {
        lporder(f1[n], f2[n], devs[0], devs[1])
    } else {
        let mut l: f64 = 0.0;
        for i in 1..nbands - 1 {
            let l1 = lporder(f1[i - 1], f2[i - 1], devs[i], devs[i - 1]);
            let l2 = lporder(f1[i], f2[i], devs[i], devs[i + 1]);
            l = l.max(l1).max(l2);
        }
        l
    };
    let order = (l.ceil() as i64 - 1).max(0) as usize;
    let mut ff = vec![0.0];
    ff.extend(fcuts.iter().map(|f| f * 2.0));
    ff.push(1.0);
    let aa: Vec<f64> = mags.iter().flat_map(|&a| [a, a]).collect();
    let max_dev = devs.iter().copied().fold(f64::MIN, f64::max);
    let wts = devs.iter().map(|d| max_dev / d).collect();
    (order, ff, aa, wts)
}

/// Herrmann, Rabiner and Chan's estimate of a low-pass filter's length (transition
/// `freq1..freq2` in cycles per sample, deviations `dp`, `ds`).
fn lporder(freq1: f64, freq2: f64, dp: f64, ds: f64) -> f64 {
    let df = (freq2 - freq1).abs();
    let ddp = dp.log10();
    let dds = ds.log10();
    let (a1, a2, a3, a4, a5, a6) = (
        5.309e-3, 7.114e-2, -4.761e-1, -2.66e-3, -5.941e-1, -4.278e-1,
    );
    let (b1, b2) = (11.01217, 0.5124401);
    let t1 = a1 * ddp * ddp;
    let t2 = a2 * ddp;
    let t3 = a4 * ddp * ddp;
    let t4 = a5 * ddp;
    let dinf = ((t1 + t2 + a3) * dds) + (t3 + t4 + a6);
    let ff = b1 + b2 * (ddp - dds);
    dinf / df - ff * df + 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn nums(v: &Value) -> Vec<f64> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_f64().expect("number"))
            .collect()
    }

    /// Taps equal GNU Radio's (`golden/firdes.json`) within 1e-6 of the largest: the same
    /// exchange in the same order, so the differences are the golden file's 9 digits and
    /// the rounding of `libm`'s functions.
    #[test]
    fn designs_equal_gnu_radios() {
        let golden: Value =
            serde_json::from_str(include_str!("../golden/firdes.json")).expect("golden JSON");
        let mut seen = 0;
        for c in golden["cases"].as_array().expect("cases") {
            let kind = c["kind"].as_str().expect("kind");
            let got = match kind {
                "pm_remez" => pm_remez(
                    c["order"].as_u64().expect("order") as usize,
                    &nums(&c["bands"]),
                    &nums(&c["ampl"]),
                    &nums(&c["weight"]),
                    RemezType::from_name(c["type"].as_str().expect("type")).expect("type"),
                    16,
                ),
                "optfir_low_pass" | "optfir_high_pass" | "optfir_band_pass"
                | "optfir_band_reject" => {
                    let a = nums(&c["args"]);
                    match kind {
                        "optfir_low_pass" => low_pass(a[0], a[1], a[2], a[3], a[4], a[5], 2),
                        "optfir_high_pass" => high_pass(a[1], a[2], a[3], a[4], a[5], 2),
                        "optfir_band_pass" => {
                            band_pass(a[0], a[1], [a[2], a[3], a[4], a[5]], a[6], a[7], 2)
                        }
                        _ => band_reject(a[0], a[1], [a[2], a[3], a[4], a[5]], a[6], a[7], 2),
                    }
                }
                _ => continue,
            }
            .unwrap_or_else(|e| panic!("{kind}: {e}"));
            let want = nums(&c["taps"]);
            assert_eq!(got.len(), want.len(), "{kind} {}", c["args"]);
            let peak = want.iter().fold(0f64, |m, t| m.max(t.abs()));
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() <= 1e-6 * peak,
                    "{kind} {}: tap {i}: {g} vs GNU Radio {w}",
                    c["args"]
                );
            }
            seen += 1;
        }
        assert_eq!(seen, 10);
    }

    #[test]
    fn antisymmetric_designs_have_their_response() {
        // GNU Radio's own pm_remez aborts on these (see golden/firdes.py): checked by shape.
        let h = pm_remez(30, &[0.1, 0.9], &[1.0, 1.0], &[], RemezType::Hilbert, 16).unwrap();
        assert_eq!(h.len(), 31);
        let gain = |f: f64| -> f64 {
            let m = 15.0;
            h.iter()
                .enumerate()
                .map(|(n, t)| 2.0 * t * (std::f64::consts::PI * f * (n as f64 - m)).sin())
                .sum::<f64>()
                .abs()
                / 2.0
        };
        for (n, t) in h.iter().enumerate() {
            assert!((t + h[30 - n]).abs() < 1e-12, "antisymmetric");
        }
        for f in [0.1, 0.3, 0.5, 0.7, 0.9] {
            assert!(
                (gain(f) - 1.0).abs() < 0.05,
                "Hilbert gain at {f}: {}",
                gain(f)
            );
        }
        let d = pm_remez(
            20,
            &[0.0, 0.8],
            &[0.0, 0.8],
            &[1.0],
            RemezType::Differentiator,
            16,
        );
        assert_eq!(d.unwrap().len(), 21);
    }

    #[test]
    fn refuses_bad_specifications() {
        let bp = RemezType::Bandpass;
        assert_eq!(
            pm_remez(2, &[0.0, 1.0], &[1.0, 1.0], &[], bp, 16)
                .unwrap_err()
                .name,
            "order"
        );
        let e = pm_remez(20, &[0.0, 0.5, 0.4, 1.0], &[1.0; 4], &[], bp, 16).unwrap_err();
        assert_eq!(e.name, "bands");
        let e = pm_remez(20, &[0.0, 1.0], &[1.0], &[], bp, 16).unwrap_err();
        assert_eq!(e.name, "response");
        let e = pm_remez(20, &[0.0, 1.0], &[1.0, 1.0], &[], bp, 8).unwrap_err();
        assert_eq!(e.name, "grid_density");
        let e = low_pass(1.0, 48e3, 7e3, 5e3, 0.1, 60.0, 2).unwrap_err();
        assert_eq!(e.name, "freq");
        let e = low_pass(1.0, 48e3, 5e3, 7e3, 0.0, 60.0, 2).unwrap_err();
        assert_eq!(e.name, "passband_ripple_db");
    }
}
