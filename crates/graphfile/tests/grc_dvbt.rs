//! GNU Radio's own DVB-T and DVB-S transmitter examples (`dvbt_tx_2k.grc`, `dvbt_tx_8k.grc`:
//! 64QAM 2/3 through gr-dtv's eight DVB-T blocks and the cyclic prefixer; `dvbs_tx.grc`:
//! energy dispersal, RS(204, 188), the outer interleaver and the inner code at 7/8, then
//! DVB-S2's QPSK mapper and an RRC filter) made finite and file to file: a short transport
//! stream read once, the samples written to a file (the DVB-T examples, which have only radio
//! sinks, get a file sink after the cyclic prefixer). Radioflow writes GNU Radio's samples
//! (grcc's flowgraph of the same file) to 1e-5 of the peak (the DVB-T examples' inverse FFTs
//! and the DVB-S example's FFT filter: FFTW's rounding against rustfft's and a direct FIR's),
//! as many of them but for the DVB-S example's end (see its test).
//!
//! `grc/dvbt_bytes_loopback.grc`: the transmitter's bytes side (as `dvbt_tx_8k.grc` sets it)
//! and the receiver's (`dvbt_rx_8k.grc`'s Viterbi decoder, outer deinterleaver, RS decoder and
//! energy descrambler) there and back: radioflow writes GNU Radio's bytes (grcc's flowgraph
//! of the same file), the transport stream sent from its first packet.

mod support;

use radioflow_graphfile::parse_grc;

const LOOPBACK_GRC: &str = include_str!("grc/dvbt_bytes_loopback.grc");

/// Complex64 samples as (re, im) pairs.
fn samples(b: &[u8]) -> Vec<(f32, f32)> {
    b.chunks_exact(8)
        .map(|s| {
            let f = |x: &[u8]| f32::from_le_bytes(x.try_into().unwrap());
            (f(&s[..4]), f(&s[4..]))
        })
        .collect()
}

/// `text` with a (disabled) complex file sink after block `after`, as GRC would write it.
fn add_file_sink(text: &str, after: &str) -> String {
    let sink = "- name: blocks_file_sink_0
  id: blocks_file_sink
  parameters:
    affinity: ''
    alias: ''
    append: 'False'
    comment: ''
    file: out.cfile
    type: complex
    unbuffered: 'False'
    vlen: '1'
  states:
    bus_sink: false
    bus_source: false
    bus_structure: null
    coordinate: [0, 0]
    rotation: 0
    state: disabled

connections:
";
    text.replacen("\nconnections:\n", &format!("\n{sink}"), 1)
        .replacen(
            "\nconnections:\n",
            &format!("\nconnections:\n- [{after}, '0', blocks_file_sink_0, '0']\n"),
            1,
        )
}

/// Radioflow's samples are GNU Radio's to 1e-5 of GNU Radio's peak; radioflow may write up to
/// `tail` more at the end.
fn same_samples(name: &str, ours: &[(f32, f32)], theirs: &[(f32, f32)], tail: usize) {
    assert!(
        ours.len() >= theirs.len() && ours.len() - theirs.len() <= tail,
        "{name}: radioflow wrote {} samples, GNU Radio {}",
        ours.len(),
        theirs.len()
    );
    let peak = theirs
        .iter()
        .map(|&(re, im)| re.abs().max(im.abs()))
        .fold(0.0f32, f32::max);
    assert!(peak > 0.01, "{name}: GNU Radio wrote a signal");
    for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1e-5 * peak && (a.1 - b.1).abs() <= 1e-5 * peak,
            "{name}: sample {k}: radioflow {a:?}, GNU Radio {b:?}"
        );
    }
}

/// GNU Radio's example `name` (Python module `id`, its options' id) on `packets` transport
/// packets; `after`: the block a file sink is added after, where the example has none;
/// `tail`: the samples radioflow may write beyond GNU Radio's at the end.
fn example_writes_what_gnu_radio_writes(
    name: &str,
    id: &str,
    packets: usize,
    after: Option<&str>,
    tail: usize,
) {
    let path = format!("/usr/share/gnuradio/examples/dtv/{name}.grc");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({path})");
        return;
    };
    let text = match after {
        Some(block) => add_file_sink(&text, block),
        None => text,
    };
    let dir = std::env::temp_dir().join(format!("radioflow-grc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ts: Vec<u8> = (0..packets * 188)
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
    support::run_in_gnuradio(&dir, id, &theirs_text);
    let theirs = samples(&std::fs::read(&theirs_path).unwrap());
    same_samples(name, &ours, &theirs, tail);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gnu_radio_s_dvbt_2k_example_writes_what_gnu_radio_writes() {
    // 64QAM 2/3: 756 bytes an OFDM symbol of 2048 + 64 samples; 320 packets, some 80 symbols.
    example_writes_what_gnu_radio_writes(
        "dvbt_tx_2k",
        "dvbt_tx_demo",
        320,
        Some("digital_ofdm_cyclic_prefixer_0"),
        0,
    );
}

#[test]
fn gnu_radio_s_dvbt_8k_example_writes_what_gnu_radio_writes() {
    // 3024 bytes an OFDM symbol of 8192 + 256 samples: some 20 symbols.
    example_writes_what_gnu_radio_writes(
        "dvbt_tx_8k",
        "dvbt_tx_demo",
        320,
        Some("digital_ofdm_cyclic_prefixer_0"),
        0,
    );
}

#[test]
fn gnu_radio_s_dvbs_example_writes_what_gnu_radio_writes() {
    // QPSK 7/8 after RS(204, 188): 160 packets, some 278000 samples (2 a symbol). GNU Radio's
    // fft_filter_ccc writes whole FFT blocks of 256 - 101 + 1 = 156 samples (101 RRC taps),
    // so it leaves out the end of the stream that does not fill one; the GNU Radio table maps
    // it to radioflow's direct FIR, which writes every sample: up to 155 more.
    example_writes_what_gnu_radio_writes("dvbs_tx", "dvbs_tx", 160, None, 155);
}

/// `text` with the first `from` after `block`'s entry replaced by `to`.
fn edit_block(text: &str, block: &str, from: &str, to: &str) -> String {
    let at = text.find(&format!("- name: {block}\n")).unwrap();
    let (head, tail) = text.split_at(at);
    format!("{head}{}", tail.replacen(from, to, 1))
}

#[test]
fn dvb_t_settings_radioflow_does_not_run_are_refused_by_name() {
    let path = "/usr/share/gnuradio/examples/dtv/dvbt_tx_2k.grc";
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("SKIPPED: GNU Radio's examples are not installed ({path})");
        return;
    };
    // The radio sink disabled (built without SoapySDR, radioflow would name it first).
    let text = edit_block(
        &text,
        "soapy_custom_sink_0",
        "    state: true\n",
        "    state: disabled\n",
    );
    // (block, its line, the line refused, what the error names): gr-dtv's hierarchical bit
    // interleaver is undefined; its reference signals read complex cells whatever the type;
    // its mapper's gain is a float.
    let cases = [
        (
            "dtv_dvbt_bit_inner_interleaver_0",
            "    hierarchy: nh\n",
            "    hierarchy: alpha2\n",
            "dtv_dvbt_bit_inner_interleaver: hierarchy is not supported",
        ),
        (
            "dtv_dvbt_reference_signals_0",
            "    type: complex\n",
            "    type: float\n",
            "type float is not supported",
        ),
        (
            "dtv_dvbt_map_0",
            "    gain: '1'\n",
            "    gain: '1+1j'\n",
            "take a float gain",
        ),
    ];
    for (block, from, to, named) in cases {
        let edited = edit_block(&text, block, from, to);
        assert_ne!(edited, text, "{block}: the file changed");
        let Err(e) = parse_grc(&edited, "dvbt_tx_2k.grc") else {
            panic!("{block}: {to:?} was accepted");
        };
        assert!(e.to_string().contains(named), "{block}: {e}");
    }
}

#[test]
fn dvbt_bytes_side_there_and_back_writes_what_gnu_radio_writes() {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-dvbtbytes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 20 groups of eight packets and one packet more (dispersal's search looks 8 bytes on).
    let ts: Vec<u8> = (0..161 * 188)
        .map(|i: usize| {
            if i.is_multiple_of(188) {
                0x47
            } else {
                (i * 7 % 251) as u8
            }
        })
        .collect();
    std::fs::write(dir.join("in.ts"), &ts).unwrap();
    let ours_path = dir.join("ours.ts");
    let text = LOOPBACK_GRC
        .replace(
            "file: in.ts",
            &format!("file: {}", dir.join("in.ts").display()),
        )
        .replace("file: out.ts", &format!("file: {}", ours_path.display()));
    let mut graph = parse_grc(&text, "dvbt_bytes_loopback.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let ours = std::fs::read(&ours_path).unwrap();
    // The outer interleaver's delay (11 packets) and the 14 or 15 vectors the descrambler
    // keeps: 4 groups come out.
    assert_eq!(ours.len(), 4 * 1504);
    assert_eq!(ours, ts[..ours.len()], "the transport stream sent");
    if !support::gnuradio("dtv") {
        return;
    }
    support::run_in_gnuradio(&dir, "dvbt_bytes_loopback", LOOPBACK_GRC);
    let theirs = std::fs::read(dir.join("out.ts")).unwrap();
    assert_eq!(ours, theirs, "GNU Radio's bytes");
    std::fs::remove_dir_all(dir).ok();
}
