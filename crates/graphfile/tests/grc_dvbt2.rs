//! gr-dtv's DVB-T2 blocks as a GRC file maps them (`grc/dvbt2_interleavers.grc`: cell and
//! time interleaver, frequency interleaver, MISO (its second output), P1 insertion, with GRC's enumerations and the
//! version's choice of fields): radioflow writes what GNU Radio writes for the file (grcc),
//! when GNU Radio is installed: bit for bit but for P1's samples, an inverse FFT (to 1e-5:
//! FFTW's rounding against rustfft's). The T2 frames have an even number of symbols, where
//! gr-dtv's frequency interleaver does not depend on its calls (crates/dvbt2's
//! `Dvbt2FreqInterleaver`).
//!
//! `grc/dvbt2_framemapper.grc`: the frame mapper between the cell interleaver and the
//! frequency interleaver, version 1.3.1's fields all set: bit for bit.
//!
//! GNU Radio's own example `vv009-4kfft.grc` (transport stream to samples: FEC, frame mapper,
//! pilot generator and IFFT, cyclic prefix, P1), finite and file to file: radioflow's samples
//! are GNU Radio's to 1e-5 of the peak (the inverse FFTs: FFTW's rounding against rustfft's).

mod support;

use radioflow_graphfile::parse_grc;

const GRC: &str = include_str!("grc/dvbt2_interleavers.grc");
const FRAME_MAPPER_GRC: &str = include_str!("grc/dvbt2_framemapper.grc");

/// Complex64 samples as (re, im) pairs.
fn samples(b: &[u8]) -> Vec<(f32, f32)> {
    b.chunks_exact(8)
        .map(|s| {
            let f = |x: &[u8]| f32::from_le_bytes(x.try_into().unwrap());
            (f(&s[..4]), f(&s[4..]))
        })
        .collect()
}

#[test]
fn dvb_t2_frame_mapper_in_a_grc_file_writes_what_gnu_radio_writes() {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-dvbt2fm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 4.5 interleaving frames of 5 x 2700 cells, all different: 4 T2 frames of 2 x 4472 +
    // 3 x 6788 + 6624 cells (8K extended, PP7, closing symbol), 72 a symbol fewer for tone
    // reservation.
    let cells: Vec<u8> = (0..60_750u32)
        .flat_map(|k| [k as f32, (k % 977) as f32 - 400.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    std::fs::write(dir.join("in.cfile"), &cells).unwrap();
    let ours_path = dir.join("ours.cfile");
    let text = FRAME_MAPPER_GRC
        .replace(
            "file: in.cfile",
            &format!("file: {}", dir.join("in.cfile").display()),
        )
        .replace("file: out.cfile", &format!("file: {}", ours_path.display()));
    let mut graph = parse_grc(&text, "dvbt2_framemapper.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let ours = std::fs::read(&ours_path).unwrap();
    assert_eq!(ours.len(), 4 * (2 * 4472 + 3 * (6788 - 72) + 6624 - 72) * 8);
    if !support::gnuradio("dtv") {
        return;
    }
    support::run_in_gnuradio(&dir, "dvbt2_framemapper", FRAME_MAPPER_GRC);
    let theirs = std::fs::read(dir.join("out.cfile")).unwrap();
    assert_eq!(ours.len(), theirs.len(), "bytes written");
    for (k, (a, b)) in samples(&ours).iter().zip(samples(&theirs)).enumerate() {
        assert_eq!(*a, b, "cell {k}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn dvb_t2_interleavers_in_a_grc_file_write_what_gnu_radio_writes() {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-dvbt2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 8.5 interleaving frames of 5 x 2700 cells, all different; 108 000 cells out of the
    // first, 3 T2 frames of 35 496 cells out of the second, taken as 2 frames of 6 x (8192 +
    // 512) samples by P1 insertion.
    let cells: Vec<u8> = (0..114_750u32)
        .flat_map(|k| [k as f32, (k % 977) as f32 - 400.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    std::fs::write(dir.join("in.cfile"), &cells).unwrap();
    let ours_path = dir.join("ours.cfile");
    let text = GRC
        .replace(
            "file: in.cfile",
            &format!("file: {}", dir.join("in.cfile").display()),
        )
        .replace("file: out.cfile", &format!("file: {}", ours_path.display()));
    let mut graph = parse_grc(&text, "dvbt2_interleavers.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let ours = std::fs::read(&ours_path).unwrap();
    let frame = 6 * (8192 + 512) + 2048;
    assert_eq!(ours.len(), 2 * frame * 8);
    if !support::gnuradio("dtv") {
        return;
    }
    support::run_in_gnuradio(&dir, "dvbt2_interleavers", GRC);
    let theirs = std::fs::read(dir.join("out.cfile")).unwrap();
    assert_eq!(ours.len(), theirs.len(), "bytes written");
    for (k, (a, b)) in samples(&ours).iter().zip(samples(&theirs)).enumerate() {
        if k % frame < 2048 {
            let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
            assert!(d <= 1e-5, "P1 sample {k}: {a:?} vs GNU Radio's {b:?}");
        } else {
            assert_eq!(*a, b, "sample {k}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gnu_radio_s_dvbt2_4k_example_writes_what_gnu_radio_writes() {
    const EXAMPLE: &str = "/usr/share/gnuradio/examples/dtv/vv009-4kfft.grc";
    let Ok(text) = std::fs::read_to_string(EXAMPLE) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({EXAMPLE})");
        return;
    };
    let dir =
        std::env::temp_dir().join(format!("radioflow-grc-dvbt2-vv009-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two T2 frames and a half: 31 BBFRAMEs each (64QAM 2/3, normal FEC frames: 5370 bytes of
    // transport stream each).
    let ts: Vec<u8> = (0..5 * 31 * 5370 / 2)
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
    // The gain before the (disabled) radio sinks has no other output: disabled too.
    let text = text
        .split("\n- name: ")
        .map(|b| {
            if b.starts_with("blocks_multiply_const_xx_0\n") {
                b.replace("state: enabled", "state: disabled")
            } else {
                b.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n- name: ");
    let ours_path = dir.join("ours.cfile");
    let ours_text = support::edit_example(&text, &ts_path, &ours_path, false);
    let mut graph = parse_grc(&ours_text, "vv009-4kfft.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let ours = samples(&std::fs::read(&ours_path).unwrap());
    // A T2 frame: P1, then 4 P2 and 100 data symbols of 4096 + 128 samples (guard 1/32).
    let frame = 2048 + 104 * (4096 + 128);
    assert_eq!(ours.len(), 2 * frame, "samples written");
    if !support::gnuradio("dtv") {
        return;
    }
    let theirs_path = dir.join("theirs.cfile");
    let theirs_text = support::edit_example(&text, &ts_path, &theirs_path, true);
    support::run_in_gnuradio(&dir, "vv009_4kfft", &theirs_text);
    let theirs = samples(&std::fs::read(&theirs_path).unwrap());
    assert_eq!(ours.len(), theirs.len(), "samples written");
    let peak = theirs
        .iter()
        .map(|&(re, im)| re.abs().max(im.abs()))
        .fold(0.0f32, f32::max);
    assert!(peak > 0.1, "GNU Radio wrote a signal");
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1e-5 * peak && (a.1 - b.1).abs() <= 1e-5 * peak,
            "sample {k}: radioflow {a:?}, GNU Radio {b:?}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn dvb_t2_settings_radioflow_does_not_run_are_refused_by_name() {
    for (from, to, says) in [
        (
            "showlevels: SHOWLEVELS_OFF",
            "showlevels: SHOWLEVELS_ON",
            "showlevels = SHOWLEVELS_ON is not supported",
        ),
        (
            "pilotpattern: PILOT_PP7",
            "pilotpattern: PILOT_PP6",
            "pilotpattern pp6 is not one of FFT size 8k_t2gi's",
        ),
    ] {
        let dir =
            std::env::temp_dir().join(format!("radioflow-grc-dvbt2-no-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("in.cfile"), []).unwrap();
        let text = GRC
            .replace(from, to)
            .replace(
                "file: in.cfile",
                &format!("file: {}", dir.join("in.cfile").display()),
            )
            .replace(
                "file: out.cfile",
                &format!("file: {}", dir.join("out.cfile").display()),
            );
        let Err(e) = parse_grc(&text, "dvbt2_interleavers.grc") else {
            panic!("{to}: made")
        };
        let e = e.to_string();
        assert!(e.contains(says), "{to}: {e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
