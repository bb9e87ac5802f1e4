//! GNU Radio's own ATSC transmitter example (`file_atsc_tx.grc`: gr-dtv's six ATSC blocks,
//! the segments' symbols through the DVB-S2 modulator's 8-VSB levels, the pilot, a
//! root-raised-cosine FFT filter and a rotator to a file) made finite and file to file: a
//! short transport stream read once (340 packets: a field and its field sync, and the next
//! field's), its QT GUI sink disabled. Radioflow writes GNU Radio's samples (grcc's flowgraph
//! of the same file) to 1e-5 of the peak (GNU Radio's FFT filter against radioflow's direct
//! FIR), as many of them but for GNU Radio's last partial FFT block.

mod support;

use radioflow_graphfile::parse_grc;

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
fn gnu_radio_s_atsc_file_example_writes_what_gnu_radio_writes() {
    let name = "file_atsc_tx";
    let path = format!("/usr/share/gnuradio/examples/dtv/{name}.grc");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({path})");
        return;
    };
    let dir = std::env::temp_dir().join(format!("radioflow-grc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ts: Vec<u8> = (0..340 * 188)
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
    let ours_text = support::edit_example(&text, &ts_path, &ours_path, false);
    let mut graph = parse_grc(&ours_text, format!("{name}.grc")).unwrap();
    graph.flowgraph.run().unwrap();
    let ours = samples(&std::fs::read(&ours_path).unwrap());
    assert!(!ours.is_empty(), "{name}: radioflow wrote nothing");
    if !support::gnuradio("dtv") {
        return;
    }
    let theirs_path = dir.join("theirs.cfile");
    let theirs_text = support::edit_example(&text, &ts_path, &theirs_path, true);
    support::run_in_gnuradio(&dir, name, &theirs_text);
    let theirs = samples(&std::fs::read(&theirs_path).unwrap());
    // GNU Radio's fft_filter_ccc writes whole FFT blocks of 512 - 200 + 1 = 313 samples (200
    // RRC taps), leaving out the end of the stream that does not fill one; the GNU Radio table
    // maps it to radioflow's direct FIR, which writes every sample: up to 312 more.
    assert!(
        ours.len() >= theirs.len() && ours.len() - theirs.len() <= 312,
        "{name}: radioflow wrote {} samples, GNU Radio {}",
        ours.len(),
        theirs.len()
    );
    let peak = theirs
        .iter()
        .map(|&(re, im)| re.abs().max(im.abs()))
        .fold(0.0f32, f32::max);
    assert!(peak > 0.01, "{name}: GNU Radio wrote a signal");
    // GNU Radio's rotator multiplies by a float phasor each sample (renormalized every 512),
    // whose angle drifts away from n · phase_inc, ~0.012 rad over these samples; radioflow's
    // NCO does not drift. So each block of 128 samples is compared after turning ours by the
    // block's mean phase difference (which varies by less than 1e-5 rad across the block).
    let mut drift = 0.0f64;
    for (b, (ours, theirs)) in ours.chunks(128).zip(theirs.chunks(128)).enumerate() {
        let (mut re, mut im) = (0.0f64, 0.0f64);
        for (a, t) in ours.iter().zip(theirs) {
            // theirs · conj(ours)
            re += f64::from(t.0 * a.0 + t.1 * a.1);
            im += f64::from(t.1 * a.0 - t.0 * a.1);
        }
        let d = im.atan2(re);
        drift = drift.max(d.abs());
        let (c, s) = (d.cos() as f32, d.sin() as f32);
        for (k, (a, t)) in ours.iter().zip(theirs).enumerate() {
            let turned = (a.0 * c - a.1 * s, a.0 * s + a.1 * c);
            assert!(
                (turned.0 - t.0).abs() <= 1e-5 * peak && (turned.1 - t.1).abs() <= 1e-5 * peak,
                "{name}: sample {}: radioflow {a:?} (turned by {d} rad: {turned:?}), GNU Radio {t:?}",
                b * 128 + k
            );
        }
    }
    assert!(
        drift < 0.02,
        "{name}: GNU Radio's phase drifted {drift} rad from ours"
    );
    std::fs::remove_dir_all(dir).ok();
}
