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
