//! GNU Radio's own DVB-S2 transmitter example, `dtv/dvbs2_tx.grc` (gr-dtv's BB header,
//! scrambler, BCH, LDPC, interleaver, 16APSK 9/10 mapper and PL framer with pilots, then an
//! RRC FFT filter): radioflow runs it and writes what GNU Radio writes for it (when GNU Radio
//! and its examples are installed: grcc and its Python bindings).
//!
//! And the DVB-T2 bit-interleaved coding and modulation chain of `dtv/vv003-cr23.grc` (high
//! efficiency mode, DVB-T2's own normal 2/3 LDPC code, 256QAM rotated with cyclic Q delay,
//! `grc/dvbt2_fec_vv003.grc`): the cells equal GNU Radio's bit for bit.
//!
//! The example reads `/run/shm/adv16apsk910.ts` forever and sends to a radio; both runs read
//! a transport stream the test writes, once, into the example's (disabled) file sink. The
//! device sink and the GUI are disabled for GNU Radio (no display, no radio); radioflow runs
//! its GUI sink headless. The FFT filters differ in their FFT's rounding (FFTW against
//! rustfft), so the samples are compared to a tolerance; the blocks before it are bit-exact
//! (crates/dvbs2/tests/gnuradio_dtv.rs). GNU Radio's filter also keeps back the samples of
//! its last, partial FFT block at the end of the stream, which radioflow's writes.

mod support;

use radioflow_graphfile::parse_grc;

const DVBT2_FEC: &str = include_str!("grc/dvbt2_fec_vv003.grc");
use std::path::{Path, PathBuf};

const EXAMPLE: &str = "/usr/share/gnuradio/examples/dtv/dvbs2_tx.grc";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn complex(path: &Path) -> Vec<(f32, f32)> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(8)
        .map(|b| {
            let f = |x: &[u8]| f32::from_le_bytes(x.try_into().unwrap());
            (f(&b[..4]), f(&b[4..]))
        })
        .collect()
}

/// The example with its input `ts`, read once, and its file sink writing `out`; for GNU
/// Radio also without GUI and radio (`headless`).
fn edit(text: &str, ts: &Path, out: &Path, headless: bool) -> String {
    support::edit_example(text, ts, out, headless)
}

#[test]
fn gnu_radio_s_dvbs2_tx_example_writes_what_gnu_radio_writes() {
    let Ok(text) = std::fs::read_to_string(EXAMPLE) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({EXAMPLE})");
        return;
    };
    let dir = scratch("dvbs2_tx");
    // Five BBFRAMEs of 16APSK 9/10 (7264 bytes each) and a part of a sixth.
    let ts: Vec<u8> = (0..5 * 7264 + 1000)
        .map(|i: usize| {
            if i.is_multiple_of(188) {
                0x47
            } else {
                (i * 7 % 251) as u8
            }
        })
        .collect();
    let ts_path = dir.join("in.ts");
    std::fs::write(&ts_path, &ts).unwrap();
    let ours_path = dir.join("ours.cfile");
    let mut graph = parse_grc(&edit(&text, &ts_path, &ours_path, false), "dvbs2_tx.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let ours = complex(&ours_path);
    // 5 PLFRAMEs: header, 180 slots, 11 pilot blocks; two samples per symbol.
    assert_eq!(ours.len(), 5 * 2 * (90 + 16_200 + 11 * 36));
    if !support::gnuradio("dtv") {
        return;
    }
    let theirs_path = dir.join("theirs.cfile");
    support::run_in_gnuradio(&dir, "dvbs2_tx", &edit(&text, &ts_path, &theirs_path, true));
    let theirs = complex(&theirs_path);
    // GNU Radio's fft_filter_ccc writes whole FFT blocks of 256 - 101 + 1 = 156 samples and
    // keeps the last part of one at the end; radioflow's filter (the row maps
    // fft_filter_xxx onto `fir_filter`) writes every sample.
    assert_eq!(theirs.len(), ours.len() / 156 * 156, "samples written");
    let peak = theirs
        .iter()
        .map(|&(re, im)| re.abs().max(im.abs()))
        .fold(0.0f32, f32::max);
    assert!(peak > 0.1, "GNU Radio wrote a signal");
    for (n, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1e-5 * peak && (a.1 - b.1).abs() <= 1e-5 * peak,
            "sample {n}: radioflow {a:?}, GNU Radio {b:?}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// DVB-S2X's rates, constellations and medium frames in the example are refused, naming the
/// block, the GRC parameter and the reason.
#[test]
fn dvb_s2x_settings_are_refused_by_name() {
    let Ok(text) = std::fs::read_to_string(EXAMPLE) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({EXAMPLE})");
        return;
    };
    let cases = [
        (
            "rate1: C9_10",
            "rate1: C13_45",
            "rate1 = C13_45",
            "DVB-S2X code rate",
        ),
        (
            "constellation: MOD_16APSK",
            "constellation: MOD_64APSK",
            "constellation = MOD_64APSK",
            "DVB-S2X constellation",
        ),
        (
            "framesize: FECFRAME_NORMAL",
            "framesize: FECFRAME_MEDIUM",
            "framesize = FECFRAME_MEDIUM",
            "medium FECFRAME",
        ),
        (
            "rate3: C9_10",
            "rate3: C7_9",
            "rate3 = C7_9",
            "DVB-S2X code rate",
        ),
    ];
    let text = edit(&text, Path::new("in.ts"), Path::new("out.cfile"), false);
    for (from, to, param, why) in cases {
        assert!(text.contains(from), "the example has {from}");
        let err = match parse_grc(&text.replace(from, to), "dvbs2_tx.grc") {
            Ok(_) => panic!("{to} accepted"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("dtv_") && err.contains(param) && err.contains(why),
            "{to}: {err}"
        );
    }
}

#[test]
fn a_dvb_t2_example_s_coding_and_modulation_write_what_gnu_radio_writes() {
    let dir = scratch("dvbt2_fec");
    // Four BBFRAMEs of 43 040 bits in high efficiency mode (5380 bytes and the sync bytes
    // dropped among them each), and part of a fifth.
    let ts: Vec<u8> = (0..4 * 5410 + 3000)
        .map(|i: usize| {
            if i.is_multiple_of(188) {
                0x47
            } else {
                (i * 13 % 256) as u8
            }
        })
        .collect();
    std::fs::write(dir.join("in.ts"), &ts).unwrap();
    let ours_path = dir.join("ours.cfile");
    let text = DVBT2_FEC
        .replace(
            "file: in.ts",
            &format!("file: {}", dir.join("in.ts").display()),
        )
        .replace("file: out.cfile", &format!("file: {}", ours_path.display()));
    let mut graph = parse_grc(&text, "dvbt2_fec_vv003.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let ours = std::fs::read(&ours_path).unwrap();
    // Four FEC blocks of 64 800 / 8 cells.
    assert_eq!(ours.len(), 4 * 8100 * 8);
    if !support::gnuradio("dtv") {
        return;
    }
    support::run_in_gnuradio(&dir, "dvbt2_fec_vv003", DVBT2_FEC);
    let theirs = std::fs::read(dir.join("out.cfile")).unwrap();
    assert_eq!(ours.len(), theirs.len(), "bytes written");
    assert!(ours == theirs, "the cells differ from GNU Radio's");
    std::fs::remove_dir_all(dir).ok();
}
