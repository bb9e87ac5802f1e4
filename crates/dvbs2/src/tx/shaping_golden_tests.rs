//! Pulse shaping against GNU Radio: gr-dtv's symbols through `interp_fir_filter_ccf` with
//! `firdes.root_raised_cosine`, golden data made by `golden/shaping.py`.

use num_complex::Complex32;

use crate::bbframe::RollOff;
use crate::modcod::FrameSize;
use crate::tx::golden_tests::ts_stream;
use crate::tx::shaping::{Shaper, Shaping};
use crate::tx::transmitter::{Transmitter, TxConfig};

const GOLDEN: &str = include_str!("../../golden/shaped.txt");
const FRAMES: usize = 2;
const EDGE: usize = 64;

fn roll_off(s: &str) -> RollOff {
    match s {
        "0.35" => RollOff::R035,
        "0.25" => RollOff::R025,
        "0.20" => RollOff::R020,
        _ => panic!("roll-off {s}"),
    }
}

/// Our transmitter and shaper on the generator's TS stream, `FRAMES` PLFRAMEs.
fn shaped(cfg: TxConfig, shaping: Shaping) -> (usize, Vec<Complex32>) {
    let mut tx = Transmitter::new(cfg).unwrap();
    let mut sh = Shaper::new(shaping).unwrap();
    let ts = ts_stream(FRAMES * 12 + 2);
    let (mut pos, mut out) = (0, Vec::new());
    let plen = tx.frame_len();
    for _ in 0..FRAMES {
        let mut frame = vec![Complex32::new(0.0, 0.0); plen];
        pos += tx.encode_frame(&ts[pos..], &mut frame).unwrap().consumed;
        let mut samples = vec![Complex32::new(0.0, 0.0); plen * shaping.sps()];
        sh.process(&frame, &mut samples);
        out.extend(samples);
    }
    (plen, out)
}

#[test]
fn rrc_shaped_frames_match_gnu_radio_interp_fir() {
    let mut cases = 0;
    for line in GOLDEN.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (frame, pilots) = (f[1].parse::<FrameSize>().unwrap(), f[2] == "on");
        let ro = roll_off(f[3]);
        let sps: usize = f[4].parse().unwrap();
        let mut cfg = TxConfig::new(f[0].parse().unwrap(), frame, pilots);
        cfg.roll_off = ro;
        let (plen, y) = shaped(cfg, Shaping::rrc(ro, sps));
        let name = format!("{} {} pilots {} ro {} sps {sps}", f[0], f[1], f[2], f[3]);
        assert_eq!(plen, f[5].parse::<usize>().unwrap(), "{name}");
        let nums: Vec<f64> = f[6..].iter().map(|x| x.parse().unwrap()).collect();
        let (mut wre, mut wim) = (0.0f64, 0.0f64);
        for (k, s) in y.iter().enumerate() {
            let w = (k % 89 + 1) as f64;
            wre += w * f64::from(s.re);
            wim += w * f64::from(s.im);
        }
        // One wrong sample moves a sum by ~0.1 or more; rounding of ~30 000 f32 samples
        // weighted up to 89 stays far below.
        assert!(
            (wre - nums[0]).abs() < 0.02 && (wim - nums[1]).abs() < 0.02,
            "{name}: weighted sums ({wre}, {wim}) vs gr ({}, {})",
            nums[0],
            nums[1]
        );
        let b = plen * sps;
        let picks = (0..EDGE).chain(b - EDGE / 2..b + EDGE / 2);
        for (j, k) in picks.enumerate() {
            let want = Complex32::new(nums[2 + 2 * j] as f32, nums[3 + 2 * j] as f32);
            assert!(
                (y[k] - want).norm() < 1e-5,
                "{name}: sample {k}: {} vs gr {want}",
                y[k]
            );
        }
        cases += 1;
    }
    assert_eq!(cases, 5);
}

/// Reruns `golden/shaping.py` with the installed GNU Radio and requires the committed file.
#[test]
fn committed_shaping_golden_equals_live_gnu_radio_output() {
    let python = "/usr/bin/python3";
    let have_gr = std::process::Command::new(python)
        .args(["-c", "from gnuradio import dtv, filter"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_gr {
        eprintln!("SKIPPED committed_shaping_golden_equals_live_gnu_radio_output: no GNU Radio for {python}");
        return;
    }
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new(python)
        .arg(here.join("shaping.py"))
        .arg(dir.path())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "shaping.py failed");
    let live = std::fs::read_to_string(dir.path().join("shaped.txt")).unwrap();
    assert!(
        live == GOLDEN,
        "golden/shaped.txt differs from live GNU Radio output"
    );
}
