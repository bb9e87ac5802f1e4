//! The whole receiver (`framed::run_rx` from a file, as `radioflow dvbs2 rx --cores 0`:
//! synchronisation and decoding) on signals
//! made by GNU Radio's gr-dtv transmitter with a carrier offset (2 % of the symbol rate), a
//! 40 ppm clock offset, Wiener phase noise and white noise 3 dB (normal frames) or 4 dB
//! (short) above each MODCOD's threshold in EN 302 307-1 Table 13 (`golden/rx_vectors.py`,
//! run with Debian's GNU Radio; the test is SKIPPED with a message where it cannot run).
//! 20 frames each. After lock, the TS out must equal the TS in, bit for bit, no packet lost or
//! marked, to the last packet the 20th frame completes (the recording ends with that frame,
//! cut where GNU Radio's filter had written it: without the filter's tail, and less the
//! channel model's delay), and at least half the frames decoded (the others: acquisition and
//! carrier convergence; printed per signal).
//!
//! The default run takes one MODCOD per constellation and frame size, pilots on (8 signals);
//! every MODCOD gr-dtv supports, normal and short, pilots on and off (104 signals):
//! `RADIOFLOW_GR_VECTORS=all cargo test --release -p radioflow-dvbs2 --test gnuradio_rx --
//! --nocapture`; every one is asserted, pilots on and off.
//!
//! A second test takes four such signals (short frames, pilots on) to other rates with GNU
//! Radio's resamplers (`rx_vectors.py --rates`: 2.5 and 4 samples per symbol by its rational
//! resampler, 3.37 and 1.7 by its arbitrary-ratio polyphase one) and receives them at those
//! rates, under the same conditions.

use radioflow_dvbs2::framed::{run_rx, RxLive, RxRun};
use radioflow_dvbs2::rx::sync::SyncConfig;
use radioflow_dvbs2::{FrameSize, Modcod};
use std::path::Path;
use std::process::Command;

#[test]
fn gnu_radio_signals_decode_bit_exact_after_lock() {
    let all = std::env::var("RADIOFLOW_GR_VECTORS").is_ok_and(|v| v == "all");
    let flag = if all { "--all" } else { "" };
    decode_bit_exact(
        "gnu_radio_signals_decode_bit_exact_after_lock",
        flag,
        if all { 104 } else { 8 },
    );
}

#[test]
fn gnu_radio_signals_at_other_rates_decode_bit_exact_after_lock() {
    decode_bit_exact(
        "gnu_radio_signals_at_other_rates_decode_bit_exact_after_lock",
        "--rates",
        4,
    );
}

/// Makes the signals `rx_vectors.py flag` describes (at least `least` of them) and asserts
/// each decodes bit-exact after lock; SKIPPED with a message where GNU Radio is missing.
fn decode_bit_exact(test: &str, flag: &str, least: usize) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/rx_vectors.py");
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("/usr/bin/python3");
    cmd.arg(&script).arg(dir.path());
    if !flag.is_empty() {
        cmd.arg(flag);
    }
    match cmd.output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            eprintln!(
                "SKIPPED {test}: {} failed (GNU Radio 3.10 with gr-dtv and numpy needed): {}",
                script.display(),
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            );
            return;
        }
        Err(e) => {
            eprintln!("SKIPPED {test}: no /usr/bin/python3 ({e})");
            return;
        }
    }
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("index.json")).unwrap()).unwrap();
    let frames = index["frames"].as_u64().unwrap();
    let configs = index["configs"].as_array().unwrap();
    assert!(configs.len() >= least);
    let mut failures = Vec::new();
    for c in configs {
        let name = c["name"].as_str().unwrap();
        let sent = std::fs::read(dir.path().join(format!("{name}.ts"))).unwrap();
        let out = dir.path().join(format!("{name}.out.ts"));
        let sps = c["sps"].as_f64().unwrap();
        let run = RxRun {
            sync: SyncConfig {
                samples_per_symbol: sps,
                ..SyncConfig::default()
            },
            filter: Default::default(),
            cores: 0,
            pin: false,
        };
        let input = std::fs::File::open(dir.path().join(format!("{name}.cf32"))).unwrap();
        let output = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
        let live = std::sync::Arc::new(RxLive::default());
        let r = run_rx(&run, input, output, None, live, |_| {}).unwrap();
        let got = std::fs::read(&out).unwrap();
        let n = got.len() / 188;
        let first = got
            .get(4..8)
            .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize);
        let exact = first.is_some_and(|f| sent.get(f * 188..(f + n) * 188) == Some(&got[..]));
        let modcod = r.last_modcod.map(|m| m.0.to_string());
        // The frame that carried the first packet out: the frames before it went to the
        // timing loop's warm-up, acquisition and the carrier loop.
        let frame = if c["frame"] == "short" {
            FrameSize::Short
        } else {
            FrameSize::Normal
        };
        let sent_modcod: Modcod = c["modcod"].as_str().unwrap().parse().unwrap();
        let kbch = sent_modcod.fec(frame).unwrap().kbch;
        let lock_frame = first.unwrap_or(0) as f64 * 8.0 * 188.0 / (kbch - 80) as f64;
        // The last packet whole in the frames recorded.
        let last_sent = frames as usize * (kbch - 80) / 8 / 188 - 1;
        let last = first.map(|f| f + n - 1);
        println!(
            "{name} at {sps} samples/symbol: Es/N0 {:.2} dB (estimated {:.1}), {} frames \
             decoded of {frames}, {} failed, {n} packets from packet {} (frame {lock_frame:.1}) \
             to {last:?} of {last_sent}, bit-exact {exact}",
            c["esn0_db"].as_f64().unwrap(),
            r.esn0_db.unwrap_or(f32::NAN),
            r.decoded,
            r.failed,
            first.unwrap_or(0),
        );
        if !exact
            || 2 * r.decoded < frames
            || modcod.as_deref() != c["modcod"].as_str()
            || last != Some(last_sent)
        {
            failures.push(format!(
                "{name}: exact {exact}, decoded {}, failed {}, MODCOD {modcod:?}, last packet \
                 {last:?} of {last_sent}",
                r.decoded, r.failed
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
