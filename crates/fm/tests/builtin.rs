//! The built-in station (no GNU Radio, no recording needed): stereo tones, pilot and RDS,
//! frequency modulated off centre, received back: the right tone on each channel, the RDS
//! station name and text exactly, reported as they are decoded.

use radioflow_blocks::SampleFormat;
use radioflow_fm::synth::{write_station, Station};
use radioflow_fm::{Receiver, ReceiverConfig};
use radioflow_runtime::{FlowScheduler, Pmt};
use std::time::Duration;

/// Power of `x` at `hz` (a single-bin DFT), normalized.
fn tone_power(x: &[f32], rate: f64, hz: f64) -> f64 {
    let (mut re, mut im) = (0.0, 0.0);
    for (n, &v) in x.iter().enumerate() {
        let ph = 2.0 * std::f64::consts::PI * hz * n as f64 / rate;
        re += f64::from(v) * ph.cos();
        im += f64::from(v) * ph.sin();
    }
    (re * re + im * im) / (x.len() as f64).powi(2)
}

#[test]
fn the_built_in_station_is_received_in_stereo_with_its_rds() {
    let dir = tempfile::tempdir().unwrap();
    let iq = dir.path().join("station.cu8");
    let wav = dir.path().join("station.wav");
    let station = Station {
        radiotext: "radioflow test".into(),
        ..Station::default()
    };
    write_station(&iq, SampleFormat::Cu8, 960e3, 200e3, 2.5, &station).unwrap();
    let mut config = ReceiverConfig::new(&iq, SampleFormat::Cu8, 960e3, 200e3);
    config.stereo = true;
    config.rds = true;
    config.wav = Some(wav.clone());
    let rx = Receiver::new(config).unwrap();
    let mut messages = Vec::new();
    let summary = rx
        .run_with_rds(
            &FlowScheduler::new(),
            Duration::from_secs(1),
            |_| {},
            |m| messages.push(m.clone()),
        )
        .unwrap();
    let st = summary.rds.expect("RDS decoded");
    assert_eq!(st.pi, Some(0xC0DE));
    assert_eq!(st.ps.map(|p| p.to_string()).as_deref(), Some("RADIOFLW"));
    assert_eq!(
        st.radiotext
            .map(|r| r.to_string().trim_end().to_owned())
            .as_deref(),
        Some("radioflow test")
    );
    assert!(
        messages.contains(&Pmt::dict_from([("ps", Pmt::symbol("RADIOFLW"))])),
        "{messages:?}"
    );
    assert_eq!(summary.stereo, Some(true));
    // Left carries 1 kHz, right 1.5 kHz: each channel's own tone at least 30 dB above the other's.
    let mut reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!(spec.channels, 2);
    let samples: Vec<f32> = reader
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect();
    let rate = f64::from(spec.sample_rate);
    let skip = (0.5 * rate) as usize * 2; // the filters and the pilot loop settle
    let (left, right): (Vec<f32>, Vec<f32>) = samples[skip..]
        .chunks_exact(2)
        .map(|f| (f[0], f[1]))
        .unzip();
    let db = |a: f64, b: f64| 10.0 * (a / b).log10();
    let sep_left = db(
        tone_power(&left, rate, 1000.0),
        tone_power(&left, rate, 1500.0),
    );
    let sep_right = db(
        tone_power(&right, rate, 1500.0),
        tone_power(&right, rate, 1000.0),
    );
    assert!(
        sep_left > 30.0 && sep_right > 30.0,
        "separation {sep_left:.1} / {sep_right:.1} dB"
    );
}

#[test]
fn the_built_in_station_refuses_rates_it_cannot_make() {
    let dir = tempfile::tempdir().unwrap();
    let iq = dir.path().join("x.cf32");
    let e = write_station(&iq, SampleFormat::Cf32, 1e6, 0.0, 0.1, &Station::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("invalid --rate: the built-in station needs a multiple of 240 kHz"),
        "{e}"
    );
    let e = write_station(
        &iq,
        SampleFormat::Cf32,
        480e3,
        200e3,
        0.1,
        &Station::default(),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("invalid --offset"), "{e}");
}
