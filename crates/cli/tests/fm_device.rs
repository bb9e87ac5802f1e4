//! `radioflow fm --device`: a station received from a radio through SoapySDR, here SoapySDR's
//! `redpitaya` module talking to a Red Pitaya emulated on loopback (radioflow-blocks'
//! tests/soapy) that streams an FM station at 1.25 Msps. The WAV file has the station's tone,
//! a run without `--seconds` ends at Ctrl-C with a finished WAV file, and a device that is
//! not there is one line naming it; GNU Radio's `soapy_custom_source` from a .grc file runs
//! on the same device. Without the module the device runs say SKIPPED; CI
//! installs it (scripts/system-deps.sh).
#![cfg(feature = "soapysdr")]

#[path = "../../interop/tests/soapy/red_pitaya.rs"]
mod red_pitaya;

use red_pitaya::{rate_command, skip_without_module, RedPitaya};
use std::f64::consts::PI;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const RATE: f64 = 1.25e6; // the Red Pitaya's rate code 5
const OFFSET: f64 = 200e3;

/// Sample `k` of a station at `OFFSET` frequency modulated by a 1 kHz tone at 37.5 kHz
/// deviation (0.5 of broadcast FM's 75 kHz), in closed form.
fn station(k: u64) -> [f32; 2] {
    let t = k as f64 / RATE;
    let phase = 2.0 * PI * OFFSET * t - 37.5e3 / 1e3 * (2.0 * PI * 1e3 * t).cos();
    [(0.5 * phase.cos()) as f32, (0.5 * phase.sin()) as f32]
}

/// `radioflow fm` with `args` as a child process (output captured).
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .arg("fm")
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` to end (killing it after a minute: a stalled stream fails the test
/// instead of hanging it).
fn finish(mut child: Child) -> (bool, String, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().ok();
            let out = child.wait_with_output().unwrap();
            panic!(
                "radioflow fm did not end within a minute; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    (
        status.success(),
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
    )
}

/// The WAV file's samples (16-bit mono), full scale 1.
fn mono_samples(path: &Path) -> Vec<f64> {
    let mut r = hound::WavReader::open(path).unwrap();
    let spec = r.spec();
    assert_eq!((spec.channels, spec.sample_rate), (1, 48_000));
    r.samples::<i16>()
        .map(|s| f64::from(s.unwrap()) / 32767.0)
        .collect()
}

/// The 1 kHz tone's amplitude in `y` (48 kHz, a whole number of periods) and its SNR in dB
/// (the tone's power over what is left once it and the mean are taken out).
fn tone(y: &[f64]) -> (f64, f64) {
    let y = &y[..y.len() / 48 * 48];
    let n = y.len() as f64;
    let mean = y.iter().sum::<f64>() / n;
    let (mut c, mut s) = (0.0, 0.0);
    for (k, &v) in y.iter().enumerate() {
        let p = 2.0 * PI * k as f64 / 48.0;
        c += (v - mean) * p.cos();
        s += (v - mean) * p.sin();
    }
    let (c, s) = (2.0 * c / n, 2.0 * s / n);
    let residual = y
        .iter()
        .enumerate()
        .map(|(k, &v)| {
            let p = 2.0 * PI * k as f64 / 48.0;
            (v - mean - c * p.cos() - s * p.sin()).powi(2)
        })
        .sum::<f64>()
        / n;
    let amplitude = c.hypot(s);
    (
        amplitude,
        10.0 * (amplitude * amplitude / 2.0 / residual).log10(),
    )
}

#[test]
fn a_station_from_a_device_becomes_a_wav_file() {
    if skip_without_module("a_station_from_a_device_becomes_a_wav_file") {
        return;
    }
    let device = RedPitaya::start(RATE, station);
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("station.wav");
    let args = device.args();
    let t0 = Instant::now();
    let (ok, out, err) = finish(spawn(&[
        "--device",
        &args,
        "--rate",
        "1.25e6",
        "--freq",
        "10e6",
        "--offset",
        "200e3",
        "--seconds",
        "0.5",
        "--mono",
        "--deemphasis",
        "0",
        "--wav",
        wav.to_str().unwrap(),
    ]));
    assert!(ok, "{err}");
    eprintln!("0.5 s from the device in {:?}", t0.elapsed());
    assert!(
        err.starts_with(&format!(
            "device '{args}': 1250000 samples/s at 10000000 Hz, station at 10200000 Hz \
             (+200000 Hz), for 0.5 s;"
        )),
        "{err}"
    );
    // Exactly the samples asked for, none lost.
    assert!(
        out.starts_with("625000 samples, 0.50 s of signal in "),
        "{out}"
    );
    assert!(!out.contains("overflows"), "{out}");
    // The module set the device up: 10 MHz, then rate code 5.
    let log = device.wait_for(Duration::from_secs(5), |l| l.rx_commands.len() >= 2);
    assert_eq!(log.rx_commands, [10_000_000, rate_command(5)]);
    // 0.5 s of audio; the tone clean, at its 0.5 of full deviation (no de-emphasis).
    let audio = mono_samples(&wav);
    assert!((23_900..=24_000).contains(&audio.len()), "{}", audio.len());
    let (amplitude, snr) = tone(&audio[4800..]); // the filters settled
    eprintln!("tone from the device: amplitude {amplitude:.3}, SNR {snr:.1} dB");
    assert!((amplitude - 0.5).abs() < 0.02, "tone amplitude {amplitude}");
    assert!(snr >= 30.0, "tone SNR {snr:.1} dB");
}

#[test]
fn ctrl_c_ends_a_device_run_with_a_finished_wav_file() {
    if skip_without_module("ctrl_c_ends_a_device_run_with_a_finished_wav_file") {
        return;
    }
    let device = RedPitaya::start(RATE, station);
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("station.wav");
    let child = spawn(&[
        "--device",
        &device.args(),
        "--rate",
        "1.25e6",
        "--freq",
        "10e6",
        "--offset",
        "200e3",
        "--mono",
        "--wav",
        wav.to_str().unwrap(),
    ]);
    // Until some of the station has been received.
    let log = device.wait_for(Duration::from_secs(30), |l| l.rx_streams == 1);
    assert_eq!(log.rx_streams, 1, "the module never opened the stream");
    std::thread::sleep(Duration::from_millis(700));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let (ok, out, err) = finish(child);
    assert!(ok, "{err}");
    assert!(out.contains(" s of signal in "), "{out}");
    // A WAV file whose header says how long it is: hound reads it to its end.
    let audio = mono_samples(&wav);
    assert!(!audio.is_empty(), "{out}");
    assert!(
        out.contains(&format!("({} frames at 48000 Hz)", audio.len())),
        "{out}"
    );
}

#[test]
fn a_device_that_is_not_there_is_one_line_naming_it() {
    let (ok, out, err) = finish(spawn(&[
        "--device",
        "driver=radioflow_no_such_driver",
        "--rate",
        "2.4e6",
        "--freq",
        "100e6",
        "--offset",
        "0",
    ]));
    assert!(!ok && out.is_empty(), "{out}");
    let last = err.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "error: soapy_source (device 'driver=radioflow_no_such_driver'): no SoapySDR device \
         matches (is it plugged in, and its driver's module installed? SoapySDRUtil --find \
         lists the devices found)"
    );
    assert_eq!(err.lines().count(), 2, "the banner and the error: {err}");
    // A device or a recording, not both.
    let (ok, _, err) = finish(spawn(&[
        "--device",
        "driver=rtlsdr",
        "--input",
        "x.cu8",
        "--rate",
        "2.4e6",
        "--freq",
        "100e6",
        "--offset",
        "0",
    ]));
    assert!(!ok);
    assert!(
        err.starts_with("error: the argument '--device <DEVICE>' cannot be used with"),
        "{err}"
    );
}

/// GNU Radio's `soapy_custom_source` from a .grc file on the emulated Red Pitaya, checked as
/// `radioflow grc check` runs it: the device arguments joined as gr-soapy joins them, the
/// rate and frequency reach the device, and GRC's default automatic DC removal on a device
/// without it fails the start as it does in GNU Radio, saying so.
#[test]
fn a_grc_soapy_custom_source_runs_on_the_emulated_radio() {
    if skip_without_module("a_grc_soapy_custom_source_runs_on_the_emulated_radio") {
        return;
    }
    let device = RedPitaya::start(500e3, |k| [k as f32, 0.0]);
    let dev_args = device.args();
    let dev_args = dev_args.strip_prefix("driver=redpitaya,").unwrap();
    let grc = |dc_removal: &str| {
        format!(
            "options:\n  parameters:\n    id: radio\n  states:\n    state: enabled\nblocks:\n\
             - name: src\n  id: soapy_custom_source\n  parameters:\n    type: fc32\n    \
             driver: redpitaya\n    nchan: '1'\n    dev_args: '\"{dev_args}\"'\n    \
             stream_args: ''\n    samp_rate: 500e3\n    tune_args0: ''\n    settings0: ''\n    \
             bandwidth0: '0'\n    antenna0: ''\n    center_freq0: 7.1e6\n    \
             freq_correction0: '0'\n    agc0: 'False'\n    gain0: '20'\n    \
             dc_removal0: '{dc_removal}'\n    dc_offset0: '0'\n    iq_balance0: '0'\n  \
             states:\n    state: enabled\n\
             - name: head\n  id: blocks_head\n  parameters:\n    type: complex\n    \
             num_items: '5000'\n  states:\n    state: enabled\n\
             - name: snk\n  id: blocks_null_sink\n  parameters:\n    type: complex\n  \
             states:\n    state: enabled\n\
             connections:\n- [src, '0', head, '0']\n- [head, '0', snk, '0']\n\
             metadata:\n  file_format: 1\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let check = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
            .args(["grc", "check"])
            .arg(&path)
            .args(["--run", "120"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        (path, String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (_, ran) = check("ran.grc", grc("False"));
    assert!(ran.contains("1 flowgraphs: 1 runs"), "{ran}");
    let log = device.wait_for(Duration::from_secs(20), |l| l.rx_commands.len() >= 2);
    assert_eq!(log.rx_commands[..2], [7_100_000, rate_command(4)]);
    let (refused, table) = check("refused.grc", grc("True"));
    assert!(table.contains("1 flowgraphs: 1 error"), "{table}");
    // The whole error, as `radioflow run` prints it (the table cuts it short).
    let run = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .arg("run")
        .arg(&refused)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success()
            && stderr.contains(
                "block 'src' failed to start: soapy_source (device 'driver=redpitaya,addr="
            )
            && stderr.contains("the device has no automatic DC offset removal"),
        "{stderr}"
    );
}

/// `radioflow devices ARGS`: the emulated Red Pitaya found through SoapySDR's module, with what
/// its channels offer; arguments that find nothing say so.
#[test]
fn radioflow_devices_lists_what_soapysdr_finds() {
    if skip_without_module("radioflow_devices_lists_what_soapysdr_finds") {
        return;
    }
    let device = RedPitaya::start(500e3, |_| [0.0, 0.0]);
    let devices = |args: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
            .args(["devices", args])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let listed = devices(&device.args());
    // The module's ranges: its LO and its six rate codes (tests/soapy/red_pitaya.rs).
    let channel = "frequency   50000-60000000 Hz\n    sample rate 20000 S/s, 50000 S/s, \
                   100000 S/s, 250000 S/s, 500000 S/s, 1250000 S/s\n    bandwidth   -\n    \
                   gain        0-0 dB\n    antennas    -\n    automatic DC removal no\n";
    let want = format!(
        "{}\n  driver redpitaya, hardware redpitaya\n  receive channel 0:\n    {channel}  \
         transmit channel 0:\n    {channel}",
        listed.lines().next().unwrap()
    );
    assert_eq!(listed, want);
    assert!(
        listed.starts_with("addr=127.0.0.1,driver=redpitaya,port="),
        "{listed}"
    );
    let none = devices("driver=nonesuch");
    assert!(
        none.starts_with("SoapySDR found no device for 'driver=nonesuch'"),
        "{none}"
    );
}
