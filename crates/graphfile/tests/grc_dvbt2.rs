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
//! GNU Radio's own examples `vv009-4kfft.grc` (4K), `vv005-8kfft.grc` (8K extended, PP8),
//! `germany-g1.grc` (16K extended, PP2), `vv001-cr35.grc` (32K extended, PP7),
//! `vv018-miso.grc` (32K extended, MISO: both transmitters' samples) and `vv017-paprtr.grc`
//! (32K extended, PP4, tone reservation: the PAPR reduction after the pilot generator): transport
//! stream to samples (FEC, frame mapper, pilot generator and IFFT, cyclic prefix, P1), finite
//! and file to file: radioflow's samples are GNU Radio's to 1e-5 of the peak (the inverse
//! FFTs: FFTW's rounding against rustfft's).

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

/// One of GNU Radio's DVB-T2 examples (`/usr/share/gnuradio/examples/dtv/NAME.grc`, Python
/// module `id`) on `frames` T2 frames of transport stream and a half: BBFRAMEs of `bbframe`
/// bytes, `fec` a T2 frame; a T2 frame is P1 and `symbols` OFDM symbols of `fft` samples and
/// a guard interval of `gi` (numerator, denominator).
struct Example {
    name: &'static str,
    id: &'static str,
    bbframe: usize,
    fec: usize,
    frames: usize,
    fft: usize,
    symbols: usize,
    gi: (usize, usize),
    /// A second file sink (MISO's second transmitter), enabled and compared too.
    second_sink: Option<&'static str>,
}

/// `text` with the gains before the (disabled) radio sinks disabled (they have no other
/// output) and file sink `sink` writing `out`.
fn second_sink(text: &str, sink: Option<&str>, out: &std::path::Path) -> String {
    text.split("\n- name: ")
        .map(|b| {
            let name = b.lines().next().unwrap_or_default();
            if name.starts_with("blocks_multiply_const_xx_0") {
                b.replace("state: enabled", "state: disabled")
            } else if Some(name) == sink {
                b.lines()
                    .map(|l| {
                        if l.starts_with("    file: ") {
                            format!("    file: {}", out.display())
                        } else {
                            l.replace("state: disabled", "state: enabled")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
                    + "\n"
            } else {
                b.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n- name: ")
}

/// Radioflow's samples are GNU Radio's to 1e-5 of GNU Radio's peak.
fn same_samples(name: &str, ours: &[(f32, f32)], theirs: &[(f32, f32)]) {
    assert_eq!(ours.len(), theirs.len(), "{name}: samples written");
    let peak = theirs
        .iter()
        .map(|&(re, im)| re.abs().max(im.abs()))
        .fold(0.0f32, f32::max);
    assert!(peak > 0.1, "{name}: GNU Radio wrote a signal");
    for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1e-5 * peak && (a.1 - b.1).abs() <= 1e-5 * peak,
            "{name}: sample {k}: radioflow {a:?}, GNU Radio {b:?}"
        );
    }
}

fn example_writes_what_gnu_radio_writes(e: &Example) {
    let path = format!("/usr/share/gnuradio/examples/dtv/{}.grc", e.name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({path})");
        return;
    };
    let dir = std::env::temp_dir().join(format!("radioflow-grc-{}-{}", e.id, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ts: Vec<u8> = (0..(2 * e.frames + 1) * e.fec * e.bbframe / 2)
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
    let ours2_path = dir.join("ours2.cfile");
    let ours_text = support::edit_example(
        &second_sink(&text, e.second_sink, &ours2_path),
        &ts_path,
        &ours_path,
        false,
    );
    let mut graph = parse_grc(&ours_text, format!("{}.grc", e.name)).unwrap();
    graph.flowgraph.run().unwrap();
    let ours = samples(&std::fs::read(&ours_path).unwrap());
    let frame = 2048 + e.symbols * (e.fft + e.fft * e.gi.0 / e.gi.1);
    assert_eq!(ours.len(), e.frames * frame, "{}: samples written", e.name);
    if !support::gnuradio("dtv") {
        return;
    }
    let theirs_path = dir.join("theirs.cfile");
    let theirs2_path = dir.join("theirs2.cfile");
    let theirs_text = support::edit_example(
        &second_sink(&text, e.second_sink, &theirs2_path),
        &ts_path,
        &theirs_path,
        true,
    );
    support::run_in_gnuradio(&dir, e.id, &theirs_text);
    let theirs = samples(&std::fs::read(&theirs_path).unwrap());
    same_samples(e.name, &ours, &theirs);
    if e.second_sink.is_some() {
        let ours = samples(&std::fs::read(&ours2_path).unwrap());
        let theirs = samples(&std::fs::read(&theirs2_path).unwrap());
        assert_eq!(
            ours.len(),
            e.frames * frame,
            "{}: second sink's samples",
            e.name
        );
        same_samples(e.name, &ours, &theirs);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gnu_radio_s_dvbt2_4k_example_writes_what_gnu_radio_writes() {
    // 64QAM 2/3: BBFRAMEs of 5370 bytes; 4 P2 symbols and 100 data symbols, guard 1/32.
    example_writes_what_gnu_radio_writes(&Example {
        name: "vv009-4kfft",
        id: "vv009_4kfft",
        bbframe: 5370,
        fec: 31,
        frames: 2,
        fft: 4096,
        symbols: 104,
        gi: (1, 32),
        second_sink: None,
    });
}

#[test]
fn gnu_radio_s_dvbt2_8k_extended_example_writes_what_gnu_radio_writes() {
    // 256QAM 3/5: BBFRAMEs of 4826 bytes; 2 P2 symbols and 59 data symbols, guard 1/16,
    // extended carriers, PP8.
    example_writes_what_gnu_radio_writes(&Example {
        name: "vv005-8kfft",
        id: "vv005_8kfft",
        bbframe: 4826,
        fec: 50,
        frames: 1,
        fft: 8192,
        symbols: 61,
        gi: (1, 16),
        second_sink: None,
    });
}

#[test]
fn gnu_radio_s_dvbt2_16k_extended_example_writes_what_gnu_radio_writes() {
    // 64QAM 1/2: BBFRAMEs of 4016 bytes; 1 P2 symbol and 118 data symbols, guard 19/128,
    // extended carriers, PP2.
    example_writes_what_gnu_radio_writes(&Example {
        name: "germany-g1",
        id: "germany_g1",
        bbframe: 4016,
        fec: 139,
        frames: 1,
        fft: 16384,
        symbols: 119,
        gi: (19, 128),
        second_sink: None,
    });
}

#[test]
fn gnu_radio_s_dvbt2_32k_extended_example_writes_what_gnu_radio_writes() {
    // 256QAM 3/5: BBFRAMEs of 4826 bytes; 1 P2 symbol and 59 data symbols, guard 1/128,
    // extended carriers, PP7.
    example_writes_what_gnu_radio_writes(&Example {
        name: "vv001-cr35",
        id: "vv001_cr35",
        bbframe: 4826,
        fec: 202,
        frames: 1,
        fft: 32768,
        symbols: 60,
        gi: (1, 128),
        second_sink: None,
    });
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

#[test]
fn gnu_radio_s_dvbt2_miso_example_writes_what_gnu_radio_writes() {
    // 256QAM 5/6, high efficiency mode: BBFRAMEs of 6740 bytes of packets without their sync
    // bytes (6740 x 188 / 187 of the stream); 1 P2 symbol and 19 data symbols, guard 1/16,
    // extended carriers, PP2; both transmitters' samples.
    example_writes_what_gnu_radio_writes(&Example {
        name: "vv018-miso",
        id: "vv018_miso",
        bbframe: 6740 * 188 / 187 + 1,
        fec: 61,
        frames: 1,
        fft: 32768,
        symbols: 20,
        gi: (1, 16),
        second_sink: Some("blocks_file_sink_0_0"),
    });
}

#[test]
fn gnu_radio_s_dvbt2_tone_reservation_example_writes_what_gnu_radio_writes() {
    // 256QAM 4/5: BBFRAMEs of 6446 bytes; 1 P2 symbol and 19 data symbols, guard 1/32,
    // extended carriers, PP4, tone reservation at V_clip 3.05, 9 iterations.
    example_writes_what_gnu_radio_writes(&Example {
        name: "vv017-paprtr",
        id: "vv017_paprtr",
        bbframe: 6446,
        fec: 64,
        frames: 1,
        fft: 32768,
        symbols: 20,
        gi: (1, 32),
        second_sink: None,
    });
}
