//! gr-dtv's DVB-T2 interleavers as a GRC file maps them (`grc/dvbt2_interleavers.grc`: cell
//! and time interleaver, then frequency interleaver, with GRC's enumerations and the
//! version's choice of PAPR and preamble fields): radioflow writes what GNU Radio writes for
//! the file (grcc), bit for bit, when GNU Radio is installed. The T2 frames have an even
//! number of symbols, where gr-dtv's frequency interleaver does not depend on its calls
//! (crates/dvbt2's `Dvbt2FreqInterleaver`).

use radioflow_graphfile::parse_grc;
use std::path::Path;
use std::process::Command;

const GRC: &str = include_str!("grc/dvbt2_interleavers.grc");

#[test]
fn dvb_t2_interleavers_in_a_grc_file_write_what_gnu_radio_writes() {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-dvbt2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 8.5 interleaving frames of 5 x 2700 cells, all different; 108 000 cells out of the
    // first, 3 T2 frames of 35 496 cells out of the second.
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
    assert_eq!(ours.len(), 3 * 35_496 * 8);
    let gnuradio = Command::new("/usr/bin/python3")
        .args(["-c", "import gnuradio.dtv"])
        .status()
        .is_ok_and(|s| s.success())
        && Path::new("/usr/bin/grcc").exists();
    if !gnuradio {
        eprintln!(
            "SKIPPED: GNU Radio (grcc and its Python bindings on /usr/bin/python3) is not installed"
        );
        return;
    }
    std::fs::write(dir.join("dvbt2_interleavers.grc"), GRC).unwrap();
    let grcc = Command::new("/usr/bin/grcc")
        .args(["-o", ".", "dvbt2_interleavers.grc"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        grcc.status.success(),
        "grcc: {}",
        String::from_utf8_lossy(&grcc.stderr)
    );
    let run = Command::new("/usr/bin/python3")
        .arg("dvbt2_interleavers.py")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "GNU Radio: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let theirs = std::fs::read(dir.join("out.cfile")).unwrap();
    assert_eq!(ours.len(), theirs.len(), "bytes written");
    assert!(ours == theirs, "the cells differ from GNU Radio's");
    std::fs::remove_dir_all(dir).ok();
}
