//! GNU Radio Companion flowgraphs: a .grc built and run by radioflow writes what GNU Radio
//! writes for it (when GNU Radio is installed); unsupported blocks, bad expressions and
//! other formats are clear errors naming them; every example flowgraph Debian's GNU Radio
//! ships is read without a panic.

mod support;

use radioflow_graphfile::{parse_grc, GraphError};
use std::path::{Path, PathBuf};
use std::process::Command;

const TONE_GAIN: &str = include_str!("grc/tone_gain.grc");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn floats(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// Runs tone_gain.grc in radioflow, writing into `dir`.
fn run_ours(dir: &Path) -> Vec<f32> {
    let out = dir.join("ours.f32");
    let text = TONE_GAIN.replace("file: tone_gain.f32", &format!("file: {}", out.display()));
    let mut graph = parse_grc(&text, "tone_gain.grc").unwrap();
    graph.flowgraph.run().unwrap();
    floats(&out)
}

#[test]
fn a_grc_flowgraph_runs_with_variables_bypass_and_disabled_blocks() {
    let dir = scratch("ours");
    let got = run_ours(&dir);
    // samp_rate // 4 items of 0.25 + 0.5 cos(2 pi n / 32), times 10**(-6/20) * 2.
    assert_eq!(got.len(), 8000);
    let gain = 10f64.powf(-6.0 / 20.0) * 2.0;
    for (n, &y) in got.iter().enumerate() {
        let want = gain * (0.25 + 0.5 * (2.0 * std::f64::consts::PI * n as f64 / 32.0).cos());
        assert!(
            (f64::from(y) - want).abs() < 1e-5,
            "sample {n}: {y} vs {want}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gnu_radio_writes_the_same_samples_for_the_same_grc() {
    if !support::gnuradio("gr") {
        return;
    }
    let dir = scratch("gnuradio");
    let ours = run_ours(&dir);
    support::run_in_gnuradio(&dir, "tone_gain", TONE_GAIN);
    let theirs = floats(&dir.join("tone_gain.f32"));
    assert_eq!(theirs.len(), ours.len());
    for (n, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            (a - b).abs() < 1e-5,
            "sample {n}: radioflow {a}, GNU Radio {b}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

fn error(text: &str) -> String {
    match parse_grc(text, "bad.grc") {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unsupported_blocks_are_listed_together_before_anything_runs() {
    let text = TONE_GAIN
        .replace("id: blocks_file_sink", "id: vocoder_codec2_decode_ps")
        .replace("id: blocks_copy", "id: vocoder_cvsd_encode_fb")
        .replace("    state: bypassed", "    state: enabled");
    let e = error(&text);
    assert!(
        e.starts_with("bad.grc: GNU Radio blocks radioflow does not run: ")
            && e.contains("vocoder_cvsd_encode_fb (blocks_copy_0)")
            && e.contains("vocoder_codec2_decode_ps (blocks_file_sink_0)")
            && e.contains("radioflow grc list"),
        "{e}"
    );
    assert!(
        matches!(parse_grc(&text, "x.grc"), Err(GraphError::Unsupported { blocks, .. }) if blocks.len() == 2)
    );
}

#[test]
fn embedded_python_is_refused_by_the_loader_and_left_to_the_python_package() {
    // The plain loader (what the live page, `run --hosts` and `bench grc` use) runs no Python:
    // an epy_block is a block it lacks. Read for the Python package, the block is left to it,
    // its connections kept, the variables valued, one held at the value given.
    let text = TONE_GAIN
        .replace("id: blocks_copy", "id: epy_block")
        .replace("    state: bypassed", "    state: enabled");
    let e = error(&text);
    assert!(e.contains("epy_block (blocks_copy_0)"), "{e}");
    let dir = std::env::temp_dir().join(format!("rf-grc-epy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("epy.grc");
    std::fs::write(&path, &text).unwrap();
    assert_eq!(
        radioflow_graphfile::grc::python_entries(&text),
        vec![("blocks_copy_0".to_owned(), "epy_block".to_owned())]
    );
    let held = [(
        "gain".to_owned(),
        radioflow_graphfile::grc::Value::Float(0.25),
    )];
    let read =
        radioflow_graphfile::grc::describe_grc_embedded(&path, held.into_iter().collect()).unwrap();
    let graph = read.graph.unwrap();
    assert!(graph.blocks.iter().all(|b| b.name != "blocks_copy_0"));
    assert!(graph
        .streams
        .iter()
        .any(|c| c.from.block == "blocks_copy_0" && c.to.block == "blocks_head_0"));
    assert_eq!(read.python.len(), 1);
    assert_eq!(read.python[0].id, "epy_block");
    let gain = read.variables.iter().find(|v| v.0 == "gain").unwrap();
    assert!(matches!(gain.2, Ok(radioflow_graphfile::grc::Value::Float(g)) if g == 0.25));
    let multiply = graph.block("blocks_multiply_const_xx_0").unwrap();
    assert!(
        multiply
            .params
            .iter()
            .any(|(_, v)| v.to_string().contains("0.25")),
        "{multiply:?}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_expressions_and_values_name_the_block_and_parameter() {
    let e = error(&TONE_GAIN.replace("num_items: samp_rate // 4", "num_items: os.system('x')"));
    assert_eq!(
        e,
        "bad.grc: block 'blocks_head_0': blocks_head: num_items: \"os.system('x')\": unsupported function 'os.system'"
    );
    let e = error(&TONE_GAIN.replace("num_items: samp_rate // 4", "num_items: -samp_rate"));
    assert_eq!(e, "bad.grc: block 'blocks_head_0': blocks_head as radioflow's head: n must be >= 0, not -32000");
    let e = error(&TONE_GAIN.replace("value: '32000'", "value: samp_rate + 1"));
    assert!(
        e.contains("variable 'samp_rate' is defined in terms of itself"),
        "{e}"
    );
    // Vectors of 4 on multiply_const (vlen is passed) cannot take the source's scalars.
    let e = error(&TONE_GAIN.replace("vlen: '1'", "vlen: '4'"));
    assert!(
        e.contains("produces float32 but blocks_multiply_const_xx_0.in expects float32[4]"),
        "{e}"
    );
    let e = error(&TONE_GAIN.replace("append: 'False'", "append: 'True'"));
    assert!(
        e.contains("blocks_file_sink: append = True is not supported"),
        "{e}"
    );
    let e = error(&TONE_GAIN.replace(
        "[blocks_head_0, '0', blocks_file_sink_0, '0']",
        "[blocks_head_0, '3', blocks_file_sink_0, '0']",
    ));
    assert!(
        e.starts_with("bad.grc: connection 'blocks_head_0:3 -> blocks_file_sink_0:0': "),
        "{e}"
    );
    assert_eq!(
        error("<?xml version='1.0'?>\n<flow_graph/>"),
        "bad.grc: GNU Radio 3.7's XML format: open and save it in GNU Radio Companion 3.8 or later (YAML, file_format 1)"
    );
    assert!(error("blocks: [\n").starts_with("bad.grc: not YAML"));
    assert_eq!(
        error("blocks: []\n"),
        "bad.grc: no metadata.file_format (is this a GRC file?)"
    );
    assert!(
        error(&TONE_GAIN.replace("file_format: 1", "file_format: 2"))
            .contains("file_format 2 is not supported")
    );
}

#[test]
fn every_example_flowgraph_gnu_radio_ships_is_read_without_a_panic() {
    let root = Path::new("/usr/share/gnuradio/examples");
    if !root.exists() {
        eprintln!("SKIPPED: GNU Radio's examples are not installed (Debian's gnuradio package)");
        return;
    }
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "grc") {
                files.push(f.path());
            }
        }
    }
    assert!(files.len() > 100, "{} examples", files.len());
    // Building a flowgraph opens its files as GNU Radio's constructors do (a file sink creates
    // its file): relative paths of the examples (analog/fm_tx.grc writes `dummy.dat`) must
    // land in a scratch directory, not in the crate's. The working directory is the process's,
    // so the loading runs in a child: this test binary, running this one test there.
    const CHILD: &str = "RADIOFLOW_GRC_EXAMPLES_CHILD";
    if std::env::var_os(CHILD).is_none() {
        let dir = scratch("examples");
        let status = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "every_example_flowgraph_gnu_radio_ships_is_read_without_a_panic",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .current_dir(&dir)
            .status()
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            status.success(),
            "the examples' loading failed (its output is above)"
        );
        return;
    }
    let (mut built, mut unsupported, mut other) = (0, 0, 0);
    for f in &files {
        match radioflow_graphfile::load_grc(f) {
            Ok(_) => built += 1,
            Err(GraphError::Unsupported { .. }) => unsupported += 1,
            Err(e) => {
                assert!(e.to_string().starts_with(&f.display().to_string()), "{e}");
                other += 1;
            }
        }
    }
    eprintln!(
        "GNU Radio examples: {} files, {built} built, {unsupported} with blocks radioflow does not run, {other} other errors",
        files.len()
    );
}

/// A .grc block entry.
fn grc_block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: {v}\n"));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    rotation: 0\n    state: enabled\n");
    s
}

#[test]
fn gr_zeromq_blocks_in_a_grc_run_as_radioflow_zmq_blocks() {
    let dir = scratch("zmq");
    let out = dir.join("out.f32");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!("'tcp://127.0.0.1:{port}'");
    // GRC writes a string parameter unquoted; both forms are read.
    let unquoted = format!("tcp://127.0.0.1:{port}");
    let zmq = |pass_tags: &'static str| {
        vec![
            ("type", "float"),
            ("vlen", "'1'"),
            ("address", address.as_str()),
            ("timeout", "'100'"),
            ("pass_tags", pass_tags),
            ("hwm", "'-1'"),
        ]
    };
    // One flowgraph sending through PUSH and receiving through PULL over loopback.
    let mut text = String::from("options:\n  parameters:\n    id: zmq_loop\n    generate_options: no_gui\n  states:\n    state: enabled\n\nblocks:\n");
    text += &grc_block("samp_rate", "variable", &[("value", "'32000'")]);
    text += &grc_block(
        "src",
        "analog_sig_source_x",
        &[
            ("type", "float"),
            ("samp_rate", "samp_rate"),
            ("waveform", "analog.GR_COS_WAVE"),
            ("freq", "samp_rate / 32"),
            ("amp", "'1'"),
            ("offset", "'0'"),
            ("phase", "'0'"),
        ],
    );
    text += &grc_block(
        "head_tx",
        "blocks_head",
        &[("type", "float"), ("vlen", "'1'"), ("num_items", "'4000'")],
    );
    text += &grc_block("push", "zeromq_push_sink", &zmq("'True'"));
    text += &grc_block("pull", "zeromq_pull_source", &zmq("'True'"));
    text += &grc_block(
        "head_rx",
        "blocks_head",
        &[("type", "float"), ("vlen", "'1'"), ("num_items", "'4000'")],
    );
    let file = format!("'{}'", out.display());
    text += &grc_block(
        "sink",
        "blocks_file_sink",
        &[
            ("type", "float"),
            ("vlen", "'1'"),
            ("file", file.as_str()),
            ("append", "'False'"),
            ("unbuffered", "'False'"),
        ],
    );
    text += "\nconnections:\n- [src, '0', head_tx, '0']\n- [head_tx, '0', push, '0']\n- [pull, '0', head_rx, '0']\n- [head_rx, '0', sink, '0']\n\nmetadata:\n  file_format: 1\n";
    let mut graph = parse_grc(&text, "zmq_loop.grc").unwrap();
    graph
        .flowgraph
        .start(radioflow_runtime::default_scheduler().as_ref())
        .unwrap();
    graph
        .flowgraph
        .wait_timeout(std::time::Duration::from_secs(30))
        .unwrap();
    let got = floats(&out);
    assert_eq!(got.len(), 4000);
    for (n, &y) in got.iter().enumerate() {
        let want = (2.0 * std::f64::consts::PI * n as f64 / 32.0).cos();
        assert!(
            (f64::from(y) - want).abs() < 1e-5,
            "sample {n}: {y} vs {want}"
        );
    }
    // The message blocks map too (a source never ends by itself, so only built here).
    let mut text = String::from(
        "options:\n  parameters:\n    id: zmq_msgs\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block(
        "msgs",
        "zeromq_pull_msg_source",
        &[
            ("address", unquoted.as_str()),
            ("timeout", "'100'"),
            ("bind", "'False'"),
        ],
    );
    text += &grc_block("debug", "blocks_message_debug", &[("en_uvec", "'True'")]);
    text += "\nconnections:\n- [msgs, out, debug, store]\n\nmetadata:\n  file_format: 1\n";
    let graph = parse_grc(&text, "zmq_msgs.grc").unwrap();
    assert_eq!(graph.blocks.len(), 2);
    // A key on PUB/SUB is taken (`a_zeromq_key_in_a_grc_becomes_the_blocks_key` checks where
    // it goes); like every string parameter, text that is not a string expression is taken as
    // written, as GRC does.
    let keyed = |key: &'static str| {
        let block = grc_block(
            "sub",
            "zeromq_sub_source",
            &[zmq("'False'"), vec![("key", key)]].concat(),
        );
        parse_grc(
            &format!("options:\n  parameters:\n    id: k\n\nblocks:\n{block}\nconnections: []\n\nmetadata:\n  file_format: 1\n"),
            "k.grc",
        )
    };
    assert_eq!(keyed("'topic'").unwrap().blocks.len(), 1);
    assert_eq!(keyed("topic").unwrap().blocks.len(), 1);
    std::fs::remove_dir_all(dir).ok();
}

/// A block's host comes from a `host=NAME` (or `host: NAME`) line of its GRC comment; blocks
/// without one have none, and the connections are those of the file.
#[test]
fn a_grc_comment_assigns_a_block_to_a_host() {
    use radioflow_graphfile::describe_grc;
    let mut text = String::from(
        "options:\n  parameters:\n    id: hosts\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block(
        "src",
        "blocks_vector_source_x",
        &[
            ("type", "float"),
            ("vector", "(1, 2, 3)"),
            ("tags", "'[]'"),
            ("repeat", "'False'"),
            // As YAML writes a two-line comment.
            ("comment", "\"feeds the link\\nhost=a\""),
        ],
    );
    text += &grc_block(
        "copy",
        "blocks_copy",
        &[("type", "float"), ("comment", "'host: b'")],
    );
    text += &grc_block("sink", "blocks_null_sink", &[("type", "float")]);
    text += "\nconnections:\n- [src, '0', copy, '0']\n- [copy, '0', sink, '0']\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "hosts.grc").unwrap();
    let host = |n: &str| g.block(n).unwrap().host.clone();
    assert_eq!(host("src").as_deref(), Some("a"));
    assert_eq!(host("copy").as_deref(), Some("b"));
    assert_eq!(host("sink"), None);
    assert_eq!(g.streams.len(), 2);
    assert!(g.messages.is_empty());
    assert_eq!(g.streams[0].to_string(), "src.0 -> copy.0");
    // The same file still builds and runs in one process.
    let mut graph = g.build().unwrap();
    graph.flowgraph.run().unwrap();
}

/// gr-zeromq's PUB/SUB `key` (topic) reaches the radioflow blocks; the other patterns' empty
/// key is accepted as GRC writes it.
#[test]
fn a_zeromq_key_in_a_grc_becomes_the_blocks_key() {
    use radioflow_graphfile::describe_grc;
    use radioflow_runtime::Pmt;
    let zmq = |key: &'static str| {
        vec![
            ("type", "float"),
            ("vlen", "'1'"),
            ("address", "'tcp://127.0.0.1:5557'"),
            ("timeout", "'100'"),
            ("pass_tags", "'False'"),
            ("hwm", "'-1'"),
            ("key", key),
        ]
    };
    let mut text = String::from(
        "options:\n  parameters:\n    id: keys\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block("pub", "zeromq_pub_sink", &zmq("'spectrum'"));
    text += &grc_block("sub", "zeromq_sub_source", &zmq("spectrum"));
    text += &grc_block("pull", "zeromq_pull_source", &zmq("''"));
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "keys.grc").unwrap();
    let key = |n: &str| {
        g.block(n)
            .unwrap()
            .params
            .iter()
            .find(|(k, _)| k == "key")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(key("pub"), Some(Pmt::symbol("spectrum")));
    assert_eq!(key("sub"), Some(Pmt::symbol("spectrum")));
    assert_eq!(key("pull"), Some(Pmt::symbol("")));
    // Every block is made with its key (the registry takes the parameter).
    for b in &g.blocks {
        b.make().unwrap_or_else(|e| panic!("{}: {e}", b.name));
    }
}

/// radioflow's `drop_malformed` on a gr-zeromq source in a `.grc` file reaches the block.
#[test]
fn drop_malformed_on_a_zeromq_source_in_a_grc_reaches_the_block() {
    use radioflow_graphfile::describe_grc;
    use radioflow_runtime::Pmt;
    let mut text = String::from(
        "options:\n  parameters:\n    id: drops\n  states:\n    state: enabled\n\nblocks:\n",
    );
    let stream = [
        ("type", "float"),
        ("vlen", "'1'"),
        ("address", "'tcp://127.0.0.1:5558'"),
        ("timeout", "'100'"),
        ("pass_tags", "'True'"),
        ("hwm", "'-1'"),
        ("drop_malformed", "'True'"),
    ];
    let message = [
        ("address", "'tcp://127.0.0.1:5559'"),
        ("timeout", "'100'"),
        ("bind", "'False'"),
        ("drop_malformed", "'True'"),
    ];
    text += &grc_block("pull", "zeromq_pull_source", &stream);
    text += &grc_block("msgs", "zeromq_pull_msg_source", &message);
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "drops.grc").unwrap();
    for name in ["pull", "msgs"] {
        let b = g.block(name).unwrap();
        let drop = b.params.iter().find(|(k, _)| k == "drop_malformed");
        assert_eq!(drop.map(|(_, v)| v), Some(&Pmt::Bool(true)), "{name}");
        b.make().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// GNU Radio's FIR filter under its real GRC id, with and without decimation, and GNU Radio's
/// add/subtract: each becomes the radioflow block the table names, with its item type.
#[test]
fn gnu_radio_s_fir_add_and_sub_become_radioflow_s_blocks() {
    use radioflow_graphfile::describe_grc;
    use radioflow_runtime::Pmt;
    let mut text = String::from(
        "options:\n  parameters:\n    id: fir\n  states:\n    state: enabled\n\nblocks:\n",
    );
    let fir = |decim: &'static str| {
        vec![
            ("type", "fff"),
            ("decim", decim),
            ("taps", "'[0.25, 0.5, 0.25]'"),
            ("samp_delay", "'0'"),
            ("affinity", "''"),
            ("maxoutbuf", "'0'"),
        ]
    };
    text += &grc_block("plain", "fir_filter_xxx", &fir("'1'"));
    text += &grc_block("decimating", "fir_filter_xxx", &fir("'4'"));
    let arith = [("type", "short"), ("num_inputs", "'3'"), ("vlen", "'1'")];
    text += &grc_block("sum", "blocks_add_xx", &arith);
    text += &grc_block("difference", "blocks_sub_xx", &arith);
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "fir.grc").unwrap();
    let spec = |n: &str| g.block(n).unwrap();
    assert_eq!(spec("plain").block, "fir_filter");
    assert_eq!(spec("plain").dtype.as_deref(), Some("float32"));
    assert!(!spec("plain").params.iter().any(|(k, _)| k == "decimation"));
    assert_eq!(spec("decimating").block, "decimating_fir_filter");
    assert!(spec("decimating")
        .params
        .contains(&("decimation".to_owned(), Pmt::Int(4))));
    assert_eq!(spec("sum").block, "add");
    assert_eq!(spec("difference").block, "subtract");
    assert_eq!(spec("difference").dtype.as_deref(), Some("int16"));
    assert!(spec("difference")
        .params
        .contains(&("inputs".to_owned(), Pmt::Int(3))));
    for b in &g.blocks {
        b.make().unwrap_or_else(|e| panic!("{}: {e}", b.name));
    }
}

/// What radioflow's block would do differently is refused, naming the block and parameter: a
/// throttle that follows rx_rate tags, a FIR with complex taps on floats; a parameter GNU Radio's block
/// does not have is named in a note.
#[test]
fn gnu_radio_parameters_radioflow_does_not_honour_are_refused() {
    use radioflow_graphfile::describe_grc;
    let one = |id: &str, params: &[(&str, &str)]| {
        let mut text = String::from(
            "options:\n  parameters:\n    id: x\n  states:\n    state: enabled\n\nblocks:\n",
        );
        text += &grc_block("b", id, params);
        text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
        describe_grc(&text, "x.grc").unwrap_err().to_string()
    };
    let e = one(
        "blocks_throttle",
        &[
            ("type", "float"),
            ("samples_per_second", "'1000'"),
            ("ignoretag", "'False'"),
        ],
    );
    assert!(
        e.contains("blocks_throttle: ignoretag = False is not supported (radioflow's throttle does not follow rx_rate tags)"),
        "{e}"
    );
    let e = one(
        "fir_filter_xxx",
        &[("type", "fcc"), ("decim", "'1'"), ("taps", "'[1]'")],
    );
    // Complex taps on float samples (ccc runs: radioflow's complex-taps FIR).
    assert!(
        e.contains("fir_filter_xxx: type fcc is not supported"),
        "{e}"
    );
    // A parameter GNU Radio 3.10's block does not have (an older GNU Radio wrote it): GRC drops
    // it when it loads the file, and radioflow says so.
    let mut text = String::from(
        "options:\n  parameters:\n    id: x\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block(
        "b",
        "blocks_null_source",
        &[("type", "float"), ("gain", "'2'")],
    );
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "x.grc").unwrap();
    assert_eq!(
        g.notes,
        ["block 'b': blocks_null_source: parameter 'gain' is not one of GNU Radio 3.10's for this block; ignored, as GNU Radio Companion ignores it"]
    );
}

/// QT GUI blocks run headless: a display's stream inputs go to discarding sinks, messages to
/// and from GUI blocks are dropped, and the graph's notes name each GUI block.
#[test]
fn qt_gui_blocks_run_headless_and_are_named_in_the_notes() {
    use radioflow_graphfile::describe_grc;
    let mut text = String::from(
        "options:\n  parameters:\n    id: gui\n  states:\n    state: enabled\n\nblocks:\n",
    );
    let float = [("type", "float")];
    text += &grc_block("a", "blocks_null_source", &float);
    text += &grc_block("b", "blocks_null_source", &float);
    text += &grc_block(
        "scope",
        "qtgui_time_sink_x",
        &[
            ("type", "float"),
            ("nconnections", "'2'"),
            ("size", "'1024'"),
        ],
    );
    text += &grc_block("box", "qtgui_edit_box_msg", &[("type", "int")]);
    text += &grc_block("debug", "blocks_message_debug", &[]);
    text += "\nconnections:\n- [a, '0', scope, '0']\n- [b, '0', scope, '1']\n- [box, msg, debug, store]\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "gui.grc").unwrap();
    let sinks: Vec<(&str, &str, Option<&str>)> = g
        .blocks
        .iter()
        .filter(|b| b.name.starts_with("scope"))
        .map(|b| (b.name.as_str(), b.block.as_str(), b.dtype.as_deref()))
        .collect();
    assert_eq!(
        sinks,
        [
            ("scope/0", "null_sink", Some("float32")),
            ("scope/1", "null_sink", Some("float32"))
        ]
    );
    let to: Vec<String> = g.streams.iter().map(|c| c.to.to_string()).collect();
    assert_eq!(to.len(), 2);
    assert!(
        to[0].starts_with("scope/0") && to[1].starts_with("scope/1"),
        "{to:?}"
    );
    assert!(g.messages.is_empty());
    assert_eq!(g.notes.len(), 2);
    assert!(
        g.notes[0].starts_with("qtgui_time_sink_x 'scope' runs headless"),
        "{:?}",
        g.notes
    );
    assert!(
        g.notes[1].starts_with("qtgui_edit_box_msg 'box' runs headless"),
        "{:?}",
        g.notes
    );
    let built = g.build().unwrap();
    assert_eq!(built.notes.len(), 2);
    built.flowgraph.validate().unwrap();
    // A message-type display takes no stream: a stream into one is an error naming it.
    let msg = text.replace(
        "type: float\n    nconnections",
        "type: msg_float\n    nconnections",
    );
    assert_ne!(msg, text);
    let e = describe_grc(&msg, "gui.grc").unwrap_err().to_string();
    assert!(e.contains("the GUI block has 0 stream inputs"), "{e}");
}

/// A GUI variable that also sends messages (a dial) holds its initial value for the
/// expressions that use it, and sends nothing headless; an optional GUI stream input left
/// unconnected gets no sink.
#[test]
fn a_gui_variable_with_messages_is_its_value_and_sends_nothing() {
    use radioflow_graphfile::describe_grc;
    use radioflow_runtime::Pmt;
    let mut text = String::from(
        "options:\n  parameters:\n    id: dial\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block(
        "level",
        "variable_qtgui_dial_control",
        &[("type", "int"), ("value", "'40'")],
    );
    text += &grc_block("src", "blocks_null_source", &[("type", "float")]);
    text += &grc_block(
        "head",
        "blocks_head",
        &[("type", "float"), ("num_items", "level * 2")],
    );
    text += &grc_block("snk", "blocks_null_sink", &[("type", "float")]);
    text += &grc_block("compass", "qtgui_compass", &[]);
    text += "\nconnections:\n- [src, '0', head, '0']\n- [head, '0', snk, '0']\n- [level, value, compass, angle]\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "dial.grc").unwrap();
    assert!(g
        .block("head")
        .unwrap()
        .params
        .contains(&("n".to_owned(), Pmt::Int(80))));
    assert!(g.messages.is_empty());
    assert!(!g.blocks.iter().any(|b| b.name.starts_with("compass")));
    assert_eq!(g.notes.len(), 2, "{:?}", g.notes);
    g.build().unwrap().flowgraph.validate().unwrap();
}

/// GNU Radio's filter-taps variables are the `firdes` designs their GRC definitions call: the
/// taps a FIR gets from `variable_rrc_filter_taps` and `variable_low_pass_filter_taps` are
/// GNU Radio's own (`firdes` on /usr/bin/python3) where it is installed.
#[test]
fn filter_taps_variables_give_gnu_radio_s_taps() {
    use radioflow_graphfile::describe_grc;
    use radioflow_runtime::Pmt;
    let mut text = String::from(
        "options:\n  parameters:\n    id: taps\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block("samp_rate", "variable", &[("value", "'32000'")]);
    text += &grc_block("sps", "variable", &[("value", "'4'")]);
    text += &grc_block(
        "rrc",
        "variable_rrc_filter_taps",
        &[("sym_rate", "samp_rate/sps"), ("alpha", "'0.35'")],
    );
    text += &grc_block(
        "lp",
        "variable_low_pass_filter_taps",
        &[
            ("gain", "'2'"),
            ("cutoff_freq", "'3000'"),
            ("width", "'1000'"),
            ("win", "window.WIN_BLACKMAN"),
        ],
    );
    for (name, taps) in [("shaped", "rrc"), ("smoothed", "lp")] {
        text += &grc_block(
            name,
            "fir_filter_xxx",
            &[("type", "fff"), ("decim", "'1'"), ("taps", taps)],
        );
    }
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "taps.grc").unwrap();
    let taps = |name: &str| -> Vec<f64> {
        let spec = g.block(name).unwrap();
        let (_, value) = spec.params.iter().find(|(k, _)| k == "taps").unwrap();
        match value {
            Pmt::Vector(v) => v
                .iter()
                .map(|t| match t {
                    Pmt::Double(t) => *t,
                    other => panic!("{name}: tap {other:?}"),
                })
                .collect(),
            other => panic!("{name}: taps {other:?}"),
        }
    };
    let (rrc, lp) = (taps("shaped"), taps("smoothed"));
    assert_eq!(
        rrc.len(),
        45,
        "11*sps taps by GRC's default, made odd as GNU Radio does"
    );
    let gnuradio = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "from gnuradio.filter import firdes, window\n\
             print(list(firdes.root_raised_cosine(1.0, 32000, 8000, 0.35, 44)))\n\
             print(list(firdes.low_pass(2, 32000, 3000, 1000, window.WIN_BLACKMAN, 6.76)))",
        ])
        .output();
    let Some(out) = gnuradio.ok().filter(|o| o.status.success()) else {
        eprintln!("SKIPPED: GNU Radio's firdes (/usr/bin/python3 with gnuradio) is not installed");
        return;
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines().map(|l| -> Vec<f64> {
        l.trim_matches(['[', ']'])
            .split(',')
            .map(|v| v.trim().parse().unwrap())
            .collect()
    });
    for (name, ours, theirs) in [("rrc", rrc, lines.next()), ("low pass", lp, lines.next())] {
        let theirs = theirs.unwrap();
        assert_eq!(ours.len(), theirs.len(), "{name}");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!(
                (a - b).abs() < 1e-6,
                "{name} tap {i}: {a} vs GNU Radio's {b}"
            );
        }
    }
}

/// A string parameter written without quotes is its text, as GRC takes it (GNU Radio's
/// qtgui_message_inputs example writes `tag: packet_len`).
#[test]
fn an_unquoted_length_tag_name_is_its_text() {
    use radioflow_graphfile::describe_grc;
    let mut text = String::from(
        "options:\n  parameters:\n    id: tags\n  states:\n    state: enabled\n\nblocks:\n",
    );
    for (name, id) in [
        ("to_pdu", "pdu_tagged_stream_to_pdu"),
        ("to_stream", "pdu_pdu_to_tagged_stream"),
    ] {
        text += &grc_block(name, id, &[("type", "byte"), ("tag", "packet_len")]);
    }
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "tags.grc").unwrap();
    for name in ["to_pdu", "to_stream"] {
        let spec = g.block(name).unwrap();
        let (_, tag) = spec.params.iter().find(|(k, _)| k == "tag").unwrap();
        assert_eq!(tag.to_string(), "packet_len", "{name}");
    }
}

/// Vector items in a .grc: stream_to_vector -> head on vectors (num_items counts vectors) ->
/// vector_to_stream runs, a headless vector display takes vectors of its vlen; a scalar output
/// into a vector input is refused naming both shapes.
#[test]
fn a_grc_with_vector_items_runs_and_mismatched_vector_lengths_are_refused() {
    let dir = scratch("vectors");
    let out = dir.join("out.f32");
    let graph = |sink_vlen: &str| {
        let mut text = String::from(
            "options:\n  parameters:\n    id: vec\n  states:\n    state: enabled\n\nblocks:\n",
        );
        text += &grc_block(
            "src",
            "blocks_vector_source_x",
            &[
                ("type", "float"),
                ("vector", "'list(range(20))'"),
                ("repeat", "'False'"),
                ("vlen", "'1'"),
                ("tags", "'[]'"),
            ],
        );
        let v = [("type", "float"), ("num_items", "'4'"), ("vlen", "'1'")];
        text += &grc_block("s2v", "blocks_stream_to_vector", &v);
        text += &grc_block(
            "head",
            "blocks_head",
            &[("type", "float"), ("num_items", "'3'"), ("vlen", "'4'")],
        );
        text += &grc_block("v2s", "blocks_vector_to_stream", &v);
        text += &grc_block(
            "sink",
            "blocks_file_sink",
            &[
                ("type", "float"),
                ("file", &format!("'{}'", out.display())),
                ("append", "'False'"),
                ("unbuffered", "'False'"),
                ("vlen", sink_vlen),
            ],
        );
        // A vector display, headless: its discarding sink takes the vectors.
        text += &grc_block(
            "display",
            "qtgui_vector_sink_f",
            &[("vlen", "'4'"), ("nconnections", "'1'")],
        );
        text += "\nconnections:\n- [src, '0', s2v, '0']\n- [s2v, '0', head, '0']\n- [head, '0', v2s, '0']\n- [v2s, '0', sink, '0']\n- [head, '0', display, '0']\n\nmetadata:\n  file_format: 1\n";
        parse_grc(&text, "vec.grc")
    };
    graph("'1'").unwrap().flowgraph.run().unwrap();
    let want: Vec<f32> = (0..12).map(|k| k as f32).collect();
    assert_eq!(floats(&out), want, "three vectors of four");
    let Err(e) = graph("'2'") else {
        panic!("vlen 1 into vlen 2 is refused");
    };
    let e = e.to_string();
    assert!(
        e.contains("produces float32 but") && e.contains("expects float32[2]"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// multiply_const_vxx / add_const_vxx with vectors take one constant per position
/// (radioflow's multiply_const_v / add_const_v); a constant of another length is refused.
#[test]
fn vector_constants_become_per_position_blocks() {
    use radioflow_graphfile::describe_grc;
    let one = |id: &str, vlen: &str, k: &str| {
        let mut text = String::from(
            "options:\n  parameters:\n    id: x\n  states:\n    state: enabled\n\nblocks:\n",
        );
        text += &grc_block("b", id, &[("type", "float"), ("const", k), ("vlen", vlen)]);
        text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
        describe_grc(&text, "x.grc")
    };
    let g = one("blocks_multiply_const_vxx", "'3'", "'[1, 2, 3]'").unwrap();
    let b = g.block("b").unwrap();
    assert_eq!(b.block, "multiply_const_v");
    assert!(!b.params.iter().any(|(k, _)| k == "vlen"));
    b.make().unwrap();
    let g = one("blocks_add_const_vxx", "'1'", "'2.5'").unwrap();
    assert_eq!(g.block("b").unwrap().block, "add_const");
    let e = one("blocks_add_const_vxx", "'2'", "'[1, 2, 3]'")
        .unwrap_err()
        .to_string();
    assert!(e.contains("const has 3 values but vlen is 2"), "{e}");
}

/// GNU Radio's tagged FEC blocks: with a length tag name they become radioflow's tagged
/// encoder and decoder; with `None` or `''` (GNU Radio's Python then builds the untagged
/// ones) the extended encoder and decoder, without the MTU.
#[test]
fn fec_tagged_blocks_fall_back_to_the_untagged_ones_without_a_tag_name() {
    use radioflow_graphfile::describe_grc;
    let mut text = String::from(
        "options:\n  parameters:\n    id: tagged\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block("len_key", "variable", &[("value", "'\"packet_len\"'")]);
    // `pkt_len` unquoted names nothing: GRC takes a string parameter's text as written then.
    let tags = [
        ("tag", "len_key"),
        ("bare", "pkt_len"),
        ("none", "None"),
        ("empty", "''"),
    ];
    for (name, tag) in tags {
        let enc = [
            ("encoder_list", "'fec.repetition_encoder_make(64, 3)'"),
            ("mtu", "'100'"),
            ("puncpat", "'''11'''"),
            ("lentagname", tag),
        ];
        text += &grc_block(&format!("enc_{name}"), "fec_extended_tagged_encoder", &enc);
        let dec = [
            ("decoder_list", "'fec.repetition_decoder.make(64, 3, 0.5)'"),
            ("mtu", "'100'"),
            ("ann", "None"),
            ("puncpat", "'''11'''"),
            ("lentagname", tag),
            ("value", "fec_extended_decoder"),
        ];
        text += &grc_block(&format!("dec_{name}"), "fec_extended_tagged_decoder", &dec);
    }
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "tagged.grc").unwrap();
    let spec = |n: &str| g.block(n).unwrap();
    assert_eq!(spec("enc_tag").block, "fec_tagged_encoder");
    assert_eq!(spec("dec_tag").block, "fec_tagged_decoder");
    let key = |n: &str| {
        spec(n)
            .params
            .iter()
            .find(|(k, _)| k == "lentagname")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(
        key("enc_bare"),
        Some(radioflow_runtime::Pmt::symbol("pkt_len"))
    );
    assert_eq!(
        key("dec_tag"),
        Some(radioflow_runtime::Pmt::symbol("packet_len"))
    );
    for name in ["none", "empty"] {
        assert_eq!(spec(&format!("enc_{name}")).block, "fec_extended_encoder");
        assert_eq!(spec(&format!("dec_{name}")).block, "fec_extended_decoder");
        assert!(!spec(&format!("enc_{name}"))
            .params
            .iter()
            .any(|(k, _)| k == "mtu"));
    }
    for b in &g.blocks {
        b.make().unwrap_or_else(|e| panic!("{}: {e}", b.name));
    }
}

/// GNU Radio's LDPC variables name their matrix under `gr.prefix()`: with GNU Radio's files
/// installed, they become the encoder and decoder of the FEC blocks (SKIPPED without them).
#[test]
fn ldpc_variables_read_gnu_radio_s_matrices() {
    use radioflow_graphfile::describe_grc;
    let alist = "/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist";
    if std::env::var_os("GR_PREFIX").is_some() || !std::path::Path::new(alist).exists() {
        eprintln!("SKIPPED: GNU Radio's LDPC matrices are not installed under /usr");
        return;
    }
    let file = r#"gr.prefix() + "/share/gnuradio/fec/ldpc/" + "n_0100_k_0042_gap_02.alist""#;
    let mut text = String::from(
        "options:\n  parameters:\n    id: ldpc\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block(
        "enc",
        "variable_ldpc_encoder_def",
        &[("file", file), ("ndim", "'0'")],
    );
    let dec = [("file", file), ("sigma", "'0.5'"), ("max_iter", "'50'")];
    text += &grc_block("dec", "variable_ldpc_decoder_def", &dec);
    let enc = [
        ("encoder_list", "enc"),
        ("puncpat", "'''11'''"),
        ("threadtype", "'none'"),
    ];
    text += &grc_block("e", "fec_extended_encoder", &enc);
    text += &grc_block(
        "d",
        "fec_extended_decoder",
        &[
            ("decoder_list", "dec"),
            ("puncpat", "'''11'''"),
            ("threadtype", "'none'"),
            ("ann", "None"),
            ("value", "fec_extended_decoder"),
        ],
    );
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "ldpc.grc").unwrap();
    for b in &g.blocks {
        b.make().unwrap_or_else(|e| panic!("{}: {e}", b.name));
    }
    let enc = g
        .block("e")
        .unwrap()
        .params
        .iter()
        .find(|(k, _)| k == "encoder")
        .unwrap();
    assert_eq!(
        enc.1.as_symbol(),
        Some(format!("fec.ldpc_encoder_make({alist:?})").as_str())
    );
}

/// GNU Radio's tag objects (`variable_tag_object`, `gr.python_to_tag` with a dict, as
/// vector_source_with_tags.grc and burst_shaper.grc write them) reach a vector source's
/// `tags` as (offset, key, value, srcid), GRC's defaults for the parameters left out.
#[test]
fn tag_objects_reach_a_vector_source_with_their_source_ids() {
    use radioflow_graphfile::describe_grc;
    use radioflow_runtime::Pmt;
    let mut text = String::from(
        "options:\n  parameters:\n    id: tags\n  states:\n    state: enabled\n\nblocks:\n",
    );
    text += &grc_block(
        "tag1",
        "variable_tag_object",
        &[
            ("key", "pmt.intern(\"mark2\")"),
            ("offset", "'2'"),
            ("src", "pmt.intern(\"tag1\")"),
            ("value", "pmt.from_long(12345)"),
        ],
    );
    text += &grc_block("tag0", "variable_tag_object", &[]);
    text += &grc_block(
        "src",
        "blocks_vector_source_x",
        &[
            ("type", "float"),
            ("vector", "'[1.0] * 4'"),
            ("repeat", "'False'"),
            ("vlen", "'1'"),
            (
                "tags",
                "'[tag1, tag0, gr.python_to_tag({''offset'':3, ''key'':pmt.intern(''len''), \
                 ''value'':pmt.from_long(20)})]'",
            ),
        ],
    );
    text += "\nconnections: []\n\nmetadata:\n  file_format: 1\n";
    let g = describe_grc(&text, "tags.grc").unwrap();
    let spec = g.block("src").unwrap();
    let (_, tags) = spec.params.iter().find(|(k, _)| k == "tags").unwrap();
    let tag =
        |o: i64, k: &str, v: Pmt, s: Pmt| Pmt::Tuple([Pmt::Int(o), Pmt::symbol(k), v, s].into());
    assert_eq!(
        tags,
        &Pmt::Vector(
            [
                tag(2, "mark2", Pmt::Int(12345), Pmt::symbol("tag1")),
                tag(0, "key", Pmt::symbol("value"), Pmt::symbol("src")),
                tag(3, "len", Pmt::Int(20), Pmt::Bool(false)),
            ]
            .into()
        )
    );
}
