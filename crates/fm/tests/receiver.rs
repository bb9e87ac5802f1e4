//! The receiver on a station synthesized here (no GNU Radio needed): stereo separation, the
//! mono sum, the WAV file, and the errors that name the file or option at fault.

use radioflow_blocks::SampleFormat;
use radioflow_fm::{FmError, Receiver, ReceiverConfig};
use radioflow_runtime::FlowScheduler;
use std::f64::consts::PI;
use std::path::Path;
use std::time::Duration;

const RATE: f64 = 960e3;
const OFFSET: f64 = -250e3;

/// A BS.450 stereo station (left 1 kHz, right 2.5 kHz, both 0.5; 9% pilot; 75 kHz
/// deviation, no pre-emphasis) at `OFFSET`, `seconds` long, as cs8 bytes.
fn station_cs8(seconds: f64) -> Vec<u8> {
    let n = (RATE * seconds) as usize;
    let mut phase = 0.0f64;
    let mut bytes = Vec::with_capacity(2 * n);
    for k in 0..n {
        let t = k as f64 / RATE;
        let (l, r) = (
            0.5 * (2.0 * PI * 1e3 * t).sin(),
            0.5 * (2.0 * PI * 2.5e3 * t).sin(),
        );
        let th = 2.0 * PI * 19e3 * t;
        let mpx = 0.45 * (l + r) + 0.45 * (l - r) * (2.0 * th).sin() + 0.09 * th.sin();
        phase += 2.0 * PI * (OFFSET + 75e3 * mpx) / RATE;
        for v in [phase.cos(), phase.sin()] {
            bytes.push((0.8 * v * 128.0).round().clamp(-128.0, 127.0) as i8 as u8);
        }
    }
    bytes
}

/// Amplitude of the `freq` tone in `y` at 48 kHz (correlation over whole periods).
fn amplitude(y: &[f32], freq: f64) -> f64 {
    let (mut c, mut s) = (0.0, 0.0);
    for (k, &v) in y.iter().enumerate() {
        let p = 2.0 * PI * freq * k as f64 / 48e3;
        c += f64::from(v) * p.cos();
        s += f64::from(v) * p.sin();
    }
    2.0 * c.hypot(s) / y.len() as f64
}

fn channels(path: &Path) -> Vec<Vec<f32>> {
    let mut r = hound::WavReader::open(path).unwrap();
    let spec = r.spec();
    assert_eq!((spec.sample_rate, spec.bits_per_sample), (48_000, 16));
    let ch = usize::from(spec.channels);
    let mut out = vec![Vec::new(); ch];
    for (k, s) in r.samples::<i16>().enumerate() {
        out[k % ch].push(f32::from(s.unwrap()) / 32767.0);
    }
    out
}

fn run(config: ReceiverConfig) -> radioflow_fm::Summary {
    let rx = Receiver::new(config).unwrap();
    rx.run(&FlowScheduler::new(), Duration::from_millis(1), |p| {
        assert!(p.samples <= p.total)
    })
    .unwrap()
}

#[test]
fn a_synthetic_stereo_station_separates_and_sums_to_mono() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("station.cs8");
    std::fs::write(&input, station_cs8(0.3)).unwrap();

    let mut config = ReceiverConfig::new(&input, SampleFormat::Cs8, RATE, OFFSET);
    config.stereo = true;
    config.deemphasis = None;
    config.wav = Some(dir.path().join("stereo.wav"));
    let summary = run(config.clone());
    assert_eq!(summary.samples, 288_000);
    assert!((summary.signal_seconds - 0.3).abs() < 1e-9);
    assert_eq!(summary.stereo, Some(true));
    let audio = channels(&dir.path().join("stereo.wav"));
    assert_eq!(audio.len(), 2);
    assert_eq!(audio[0].len() as u64, summary.audio_frames);
    // 14 400 frames; skip 0.1 s of start-up, then 0.2 s (whole periods of both tones).
    let (l, r) = (&audio[0][4_800..14_400], &audio[1][4_800..14_400]);
    let db = |a: f64, b: f64| 20.0 * (a / b).log10();
    let left = db(amplitude(l, 1e3), amplitude(r, 1e3));
    let right = db(amplitude(r, 2.5e3), amplitude(l, 2.5e3));
    eprintln!("separation: {left:.1} dB left, {right:.1} dB right");
    assert!(left > 40.0 && right > 40.0, "{left:.1} / {right:.1} dB");
    assert!((amplitude(l, 1e3) - 0.45).abs() < 0.01);

    // Mono: (L+R) scaled 0.45, both tones in the one channel.
    config.stereo = false;
    config.wav = Some(dir.path().join("mono.wav"));
    let summary = run(config);
    assert_eq!(summary.stereo, None);
    let audio = channels(&dir.path().join("mono.wav"));
    assert_eq!(audio.len(), 1);
    let m = &audio[0][4_800..14_400];
    assert!(
        (amplitude(m, 1e3) - 0.225).abs() < 0.01,
        "{}",
        amplitude(m, 1e3)
    );
    assert!((amplitude(m, 2.5e3) - 0.225).abs() < 0.01);
}

#[test]
fn bad_input_is_an_error_naming_the_file_or_option() {
    let dir = tempfile::tempdir().unwrap();
    let config = |path: &Path, format| ReceiverConfig::new(path, format, 2.4e6, 200e3);
    let missing = dir.path().join("missing.cu8");
    let e = Receiver::new(config(&missing, SampleFormat::Cu8)).unwrap_err();
    assert!(matches!(e, FmError::Input { .. }));
    assert!(e.to_string().contains("missing.cu8"), "{e}");

    let odd = dir.path().join("odd.cs16");
    std::fs::write(&odd, [0u8; 10]).unwrap();
    let e = Receiver::new(config(&odd, SampleFormat::Cs16)).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "the input '{}' is 10 bytes, not a whole number of cs16 samples (4 bytes each): \
             wrong --format?",
            odd.display()
        )
    );
    let empty = dir.path().join("empty.cf32");
    std::fs::write(&empty, []).unwrap();
    let e = Receiver::new(config(&empty, SampleFormat::Cf32)).unwrap_err();
    assert!(
        e.to_string().contains("empty.cf32") && e.to_string().contains("empty"),
        "{e}"
    );

    let fine = dir.path().join("fine.cu8");
    std::fs::write(&fine, [127u8; 64]).unwrap();
    let mut c = config(&fine, SampleFormat::Cu8);
    c.offset = 1.15e6;
    let e = Receiver::new(c.clone()).unwrap_err();
    assert!(e.to_string().starts_with("invalid --offset"), "{e}");
    c.offset = 0.0;
    c.sample_rate = 150e3;
    let e = Receiver::new(c.clone()).unwrap_err();
    assert!(e.to_string().starts_with("invalid --rate"), "{e}");
    c.sample_rate = 2.4e6;
    c.deemphasis = Some(-50e-6);
    let e = Receiver::new(c.clone()).unwrap_err();
    assert!(e.to_string().starts_with("invalid --deemphasis"), "{e}");
    c.deemphasis = Some(50e-6);
    c.wav = Some(dir.path().join("no/such/dir/out.wav"));
    let e = Receiver::new(c)
        .unwrap()
        .run(&FlowScheduler::new(), Duration::from_secs(1), |_| {});
    let e = e.unwrap_err().to_string();
    assert!(e.contains("out.wav"), "{e}");
}

#[cfg(feature = "soapysdr")]
#[test]
fn a_device_input_is_checked_and_a_missing_device_named() {
    let device = |samples| radioflow_fm::DeviceInput {
        args: "driver=radioflow_no_such_driver".into(),
        frequency: 100e6,
        gain: None,
        samples,
    };
    let mut config = ReceiverConfig::device(device(None), 2.4e6, 200e3);
    config.repeat = true;
    let e = Receiver::new(config).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid --repeat: a device is not a recording to read again"
    );
    let e = Receiver::new(ReceiverConfig::device(device(Some(0)), 2.4e6, 200e3)).unwrap_err();
    assert!(e.to_string().starts_with("invalid --seconds"), "{e}");
    // Checked, then opened when the graph is built: not there, named.
    let rx = Receiver::new(ReceiverConfig::device(device(Some(10)), 2.4e6, 200e3)).unwrap();
    assert_eq!(rx.samples(), 10);
    let e = rx
        .run(&FlowScheduler::new(), Duration::from_secs(1), |_| {})
        .unwrap_err();
    assert!(matches!(&e, FmError::Device(d) if d.is_not_found()), "{e}");
    assert!(
        e.to_string().starts_with(
            "soapy_source (device 'driver=radioflow_no_such_driver'): no SoapySDR device matches"
        ),
        "{e}"
    );
}
