//! The receiver on vectors made by GNU Radio (`golden/make_vectors.py`, run here into a
//! temporary directory with Debian's GNU Radio), side by side with GNU Radio's own
//! `wfm_rcv` / `wfm_rcv_pll` on the same vectors. SKIPPED where GNU Radio is not installed.

use radioflow_blocks::SampleFormat;
use radioflow_fm::{Receiver, ReceiverConfig};
use radioflow_runtime::FlowScheduler;
use serde_json::Value;
use std::f64::consts::PI;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.analog"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Amplitude of the `freq` tone in `y` (least squares with DC) and the residual's power.
fn least_squares(y: &[f32], rate: f64, freq: f64) -> (f64, f64) {
    let basis = |n: usize| {
        let p = 2.0 * PI * freq * n as f64 / rate;
        [p.cos(), p.sin(), 1.0]
    };
    let (mut m, mut v) = ([[0.0f64; 3]; 3], [0.0f64; 3]);
    for (n, &s) in y.iter().enumerate() {
        let b = basis(n);
        for i in 0..3 {
            v[i] += b[i] * f64::from(s);
            for j in 0..3 {
                m[i][j] += b[i] * b[j];
            }
        }
    }
    let c = solve3(m, v);
    let residual = y
        .iter()
        .enumerate()
        .map(|(n, &s)| {
            let b = basis(n);
            (f64::from(s) - c[0] * b[0] - c[1] * b[1] - c[2]).powi(2)
        })
        .sum::<f64>()
        / y.len() as f64;
    (c[0].hypot(c[1]), residual)
}

/// Gaussian elimination with partial pivoting on a 3×3 system.
fn solve3(mut m: [[f64; 3]; 3], mut v: [f64; 3]) -> [f64; 3] {
    for c in 0..3 {
        let p = (c..3)
            .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
            .expect("rows");
        m.swap(c, p);
        v.swap(c, p);
        for r in c + 1..3 {
            let f = m[r][c] / m[c][c];
            let pivot = m[c];
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

/// The WAV file's channels, de-interleaved, as ±1 floats.
fn read_wav(path: &Path) -> (u32, Vec<Vec<f32>>) {
    let mut r = hound::WavReader::open(path).unwrap();
    let spec = r.spec();
    let ch = usize::from(spec.channels);
    let mut out = vec![Vec::new(); ch];
    for (k, s) in r.samples::<i16>().enumerate() {
        out[k % ch].push(f32::from(s.unwrap()) / 32767.0);
    }
    (spec.sample_rate, out)
}

#[test]
fn gnu_radio_made_stations_come_out_clean() {
    if !gnuradio_present() {
        eprintln!("SKIPPED: GNU Radio is not installed for {PYTHON}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/make_vectors.py");
    let out = Command::new(PYTHON)
        .arg(script)
        .arg(dir.path())
        .output()
        .expect("run make_vectors.py");
    assert!(
        out.status.success(),
        "make_vectors.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("vectors.json")).unwrap())
            .unwrap();
    let skip = (meta["skip_seconds"].as_f64().unwrap() * 48e3) as usize;
    for v in meta["vectors"].as_array().unwrap() {
        let file = v["file"].as_str().unwrap();
        let stereo = v["kind"] == "stereo";
        let mut config = ReceiverConfig::new(
            dir.path().join(file),
            v["format"]
                .as_str()
                .unwrap()
                .parse::<SampleFormat>()
                .unwrap(),
            v["rate"].as_f64().unwrap(),
            v["offset"].as_f64().unwrap(),
        );
        let wav = dir.path().join(format!("{file}.wav"));
        config.wav = Some(wav.clone());
        config.stereo = stereo;
        config.deemphasis = Some(v["tau"].as_f64().unwrap());
        let rx = Receiver::new(config).unwrap();
        let summary = rx
            .run(&FlowScheduler::new(), Duration::from_secs(3600), |_| {})
            .unwrap();
        assert_eq!(summary.samples, v["samples"].as_u64().unwrap(), "{file}");
        let (rate, audio) = read_wav(&wav);
        assert_eq!(rate, 48_000, "{file}");
        let noisy = !v["cnr_db"].is_null();
        if stereo {
            assert_eq!(summary.stereo, Some(true), "{file}: pilot found");
            let (l, r) = (&audio[0][skip..], &audio[1][skip..]);
            let (ll, _) = least_squares(l, 48e3, 1e3);
            let (lr, _) = least_squares(r, 48e3, 1e3);
            let (rr, _) = least_squares(r, 48e3, 2.5e3);
            let (rl, _) = least_squares(l, 48e3, 2.5e3);
            let ours = (20.0 * (ll / lr).log10()).min(20.0 * (rr / rl).log10());
            let theirs = v["gnuradio_wfm_rcv_pll_separation_db"].as_f64().unwrap();
            eprintln!(
                "{file}: stereo separation {ours:.1} dB here, {theirs:.1} dB with GNU Radio's \
                 wfm_rcv_pll"
            );
            assert!(ours >= 30.0, "{file}: separation {ours:.1} dB");
            // Each tone at 0.9 of its 0.5 (the multiplex's 0.45 (L+R) + 0.45 (L-R)).
            assert!(
                (ll - 0.45).abs() < 0.02 && (rr - 0.45).abs() < 0.02,
                "{file}: {ll} {rr}"
            );
        } else {
            let (amp, residual) = least_squares(&audio[0][skip..], 48e3, 1e3);
            let ours = 10.0 * (amp * amp / 2.0 / residual).log10();
            let theirs = v["gnuradio_wfm_rcv_snr_db"].as_f64().unwrap();
            eprintln!(
                "{file}: tone SNR {ours:.1} dB here, {theirs:.1} dB with GNU Radio's wfm_rcv"
            );
            if noisy {
                // Noise-limited: at least as good as GNU Radio's receiver.
                assert!(ours >= theirs - 0.5, "{file}: tone SNR {ours:.1} dB");
            } else {
                assert!(ours >= 30.0, "{file}: tone SNR {ours:.1} dB");
            }
            // wfm_tx's full scale is 1 at 75 kHz: the 0.5 tone comes back at 0.5.
            assert!((amp - 0.5).abs() < 0.02, "{file}: tone amplitude {amp}");
        }
    }
}
