//! GNU Radio Companion's hierarchical blocks: a `.grc` whose options say `generate_options:
//! hb` used as a block by another flowgraph, found where GRC finds it, inlined with the
//! parameters the instance passes, its ports those of its pads in GRC's order; nesting,
//! cycles, unknown parameters and a hierarchical block run alone.

use radioflow_graphfile::{describe_grc_file, load_grc, GraphError};
use radioflow_runtime::{Pmt, PortName};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("radioflow-grc-hier-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A block entry: name, id, parameters as written.
type Block<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// A `.grc` (file_format 1) with these options, blocks and connections.
fn grc(options: &[(&str, &str)], blocks: &[Block], connections: &[[&str; 4]]) -> String {
    let q = |s: &str| format!("'{}'", s.replace('\'', "''"));
    let mut out = String::from("options:\n  parameters:\n");
    for (k, v) in options {
        out += &format!("    {k}: {}\n", q(v));
    }
    out += "  states:\n    state: enabled\nblocks:\n";
    for (name, id, params) in blocks {
        out += &format!("- name: {name}\n  id: {id}\n  parameters:\n");
        for (k, v) in *params {
            out += &format!("    {k}: {}\n", q(v));
        }
        if params.is_empty() {
            out += "    comment: ''\n";
        }
        out += "  states:\n    state: enabled\n";
    }
    out += "connections:\n";
    for [a, b, c, d] in connections {
        out += &format!("- [{a}, {}, {c}, {}]\n", q(b), q(d));
    }
    out + "metadata:\n  file_format: 1\n"
}

/// Hierarchical block `id`: its float input times `k` (an `eng_float` parameter, 2 unless
/// given) on output 0 (`pad_sink_a`), times 10 on output 1 (`pad_sink_b`), listed in the
/// file before `pad_sink_a` so GRC's order by name shows.
fn gain_block(id: &str, kind: &str) -> String {
    grc(
        &[
            ("id", id),
            ("generate_options", "hb"),
            ("category", "Tests"),
        ],
        &[
            ("k", "parameter", &[("type", kind), ("value", "2")]),
            ("scaled", "variable", &[("value", "k * 1")]),
            (
                "pad_source_0",
                "pad_source",
                &[("label", "in"), ("type", "float"), ("vlen", "1")],
            ),
            (
                "mul",
                "blocks_multiply_const_xx",
                &[("type", "float"), ("const", "scaled"), ("vlen", "1")],
            ),
            (
                "ten",
                "blocks_multiply_const_xx",
                &[("type", "float"), ("const", "10"), ("vlen", "1")],
            ),
            (
                "pad_sink_b",
                "pad_sink",
                &[("label", "tenfold"), ("type", "float"), ("vlen", "1")],
            ),
            (
                "pad_sink_a",
                "pad_sink",
                &[("label", "out"), ("type", "float"), ("vlen", "1")],
            ),
        ],
        &[
            ["pad_source_0", "0", "mul", "0"],
            ["pad_source_0", "0", "ten", "0"],
            ["mul", "0", "pad_sink_a", "0"],
            ["ten", "0", "pad_sink_b", "0"],
        ],
    )
}

/// A flowgraph: 1, 2, 3 into `block` (with parameters `params`), its outputs 0 and 1 to
/// files `a.f32` and `b.f32` of `dir`.
fn user(dir: &Path, block: &str, params: &[(&str, &str)], options: &[(&str, &str)]) -> String {
    let a = dir.join("a.f32").display().to_string();
    let b = dir.join("b.f32").display().to_string();
    let mut all = vec![("id", "user"), ("generate_options", "no_gui")];
    all.extend_from_slice(options);
    grc(
        &all,
        &[
            ("factor", "variable", &[("value", "3")]),
            (
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "float"),
                    ("vector", "[1, 2, 3]"),
                    ("repeat", "False"),
                    ("vlen", "1"),
                    ("tags", "[]"),
                ],
            ),
            ("h", block, params),
            (
                "sink_a",
                "blocks_file_sink",
                &[
                    ("type", "float"),
                    ("file", &a),
                    ("vlen", "1"),
                    ("append", "False"),
                ],
            ),
            (
                "sink_b",
                "blocks_file_sink",
                &[
                    ("type", "float"),
                    ("file", &b),
                    ("vlen", "1"),
                    ("append", "False"),
                ],
            ),
        ],
        &[
            ["src", "0", "h", "0"],
            ["h", "0", "sink_a", "0"],
            ["h", "1", "sink_b", "0"],
        ],
    )
}

fn floats(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::write(path, text).unwrap();
    path.to_owned()
}

/// Runs `file` and returns what its sinks `a.f32` and `b.f32` got.
fn run(dir: &Path, file: &Path) -> (Vec<f32>, Vec<f32>) {
    let mut graph = load_grc(file).unwrap();
    graph.flowgraph.run().unwrap();
    (floats(&dir.join("a.f32")), floats(&dir.join("b.f32")))
}

#[test]
fn a_hierarchical_block_in_the_same_directory_runs_with_the_parameter_given() {
    let dir = scratch("given");
    write(
        &dir.join("gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    let file = write(
        &dir.join("user.grc"),
        &user(
            &dir,
            "gain_hb",
            &[("k", "factor + 1"), ("comment", "")],
            &[],
        ),
    );
    // Output 0 is pad_sink_a (times k), output 1 pad_sink_b (times 10): GRC's order by name.
    assert_eq!(run(&dir, &file), (vec![4., 8., 12.], vec![10., 20., 30.]));
    let d = describe_grc_file(&file).unwrap();
    let names: Vec<&str> = d.blocks.iter().map(|b| b.name.as_str()).collect();
    assert!(
        names.contains(&"h/mul") && names.contains(&"h/ten"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"h"),
        "the instance itself is no block: {names:?}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_parameter_left_out_takes_its_default_and_types_are_checked() {
    let dir = scratch("default");
    write(
        &dir.join("gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    let file = write(&dir.join("user.grc"), &user(&dir, "gain_hb", &[], &[]));
    assert_eq!(run(&dir, &file).0, vec![2., 4., 6.]);
    // An `intx` parameter refuses 2.5, naming the instance, the file and the parameter.
    write(&dir.join("int_hb.grc"), &gain_block("int_hb", "intx"));
    let file = write(
        &dir.join("user.grc"),
        &user(&dir, "int_hb", &[("k", "2.5")], &[]),
    );
    let e = describe_grc_file(&file).unwrap_err().to_string();
    assert!(
        e.contains("block 'h'") && e.contains("int_hb.grc") && e.contains("parameter 'k'"),
        "{e}"
    );
    assert!(e.contains("not an integer"), "{e}");
    // A parameter the block does not have.
    let file = write(
        &dir.join("user.grc"),
        &user(&dir, "gain_hb", &[("gain", "2")], &[]),
    );
    let e = describe_grc_file(&file).unwrap_err().to_string();
    assert!(e.contains("no parameter 'gain'") && e.contains("k"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn hierarchical_blocks_nest_and_a_cycle_is_refused() {
    let dir = scratch("nest");
    write(
        &dir.join("gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    // outer_hb: gain_hb with k = 2 * m inside, both its outputs passed on.
    let outer = grc(
        &[("id", "outer_hb"), ("generate_options", "hb")],
        &[
            ("m", "parameter", &[("type", "intx"), ("value", "1")]),
            (
                "pad_source_0",
                "pad_source",
                &[("label", "in"), ("type", "float")],
            ),
            ("inner", "gain_hb", &[("k", "2 * m")]),
            (
                "pad_sink_0",
                "pad_sink",
                &[("label", "out"), ("type", "float")],
            ),
            (
                "pad_sink_1",
                "pad_sink",
                &[("label", "ten"), ("type", "float")],
            ),
        ],
        &[
            ["pad_source_0", "0", "inner", "0"],
            ["inner", "0", "pad_sink_0", "0"],
            ["inner", "1", "pad_sink_1", "0"],
        ],
    );
    write(&dir.join("outer_hb.grc"), &outer);
    let file = write(
        &dir.join("user.grc"),
        &user(&dir, "outer_hb", &[("m", "5")], &[]),
    );
    assert_eq!(run(&dir, &file), (vec![10., 20., 30.], vec![10., 20., 30.]));
    let d = describe_grc_file(&file).unwrap();
    assert!(d.blocks.iter().any(|b| b.name == "h/inner/mul"));
    // loop_hb uses itself through loop2_hb.
    for (id, uses) in [("loop_hb", "loop2_hb"), ("loop2_hb", "loop_hb")] {
        let text = grc(
            &[("id", id), ("generate_options", "hb")],
            &[
                (
                    "pad_source_0",
                    "pad_source",
                    &[("label", "in"), ("type", "float")],
                ),
                ("x", uses, &[]),
                (
                    "pad_sink_0",
                    "pad_sink",
                    &[("label", "out"), ("type", "float")],
                ),
                (
                    "pad_sink_1",
                    "pad_sink",
                    &[("label", "o2"), ("type", "float")],
                ),
            ],
            &[
                ["pad_source_0", "0", "x", "0"],
                ["x", "0", "pad_sink_0", "0"],
                ["x", "1", "pad_sink_1", "0"],
            ],
        );
        write(&dir.join(format!("{id}.grc")), &text);
    }
    let file = write(&dir.join("user.grc"), &user(&dir, "loop_hb", &[], &[]));
    let e = describe_grc_file(&file).unwrap_err().to_string();
    assert!(e.contains("use each other"), "{e}");
    assert!(
        e.contains("loop_hb.grc uses") && e.contains("loop2_hb.grc uses"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_flowgraphs_hier_block_src_path_is_searched_and_a_missing_block_is_named() {
    let dir = scratch("srcpath");
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    write(
        &dir.join("lib/gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    let text = user(&dir, "gain_hb", &[], &[]);
    let file = write(&dir.join("user.grc"), &text);
    match describe_grc_file(&file) {
        Err(GraphError::Unsupported { ids, .. }) => assert_eq!(ids, ["gain_hb"]),
        other => panic!("{other:?}"),
    }
    let text = user(&dir, "gain_hb", &[], &[("hier_block_src_path", "lib:")]);
    let file = write(&dir.join("user.grc"), &text);
    assert_eq!(run(&dir, &file).0, vec![2., 4., 6.]);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_hierarchical_block_alone_is_reported_as_one() {
    let dir = scratch("alone");
    let file = write(
        &dir.join("gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    match describe_grc_file(&file) {
        Err(e @ GraphError::HierBlock { .. }) => {
            let GraphError::HierBlock { id, .. } = &e else {
                unreachable!()
            };
            assert_eq!(id, "gain_hb");
            assert!(e.to_string().contains("does not run it alone"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // Its blocks are checked all the same: a missing one is named.
    let broken = gain_block("gain_hb", "eng_float")
        .replace("id: blocks_multiply_const_xx", "id: blocks_no_such_block");
    let file = write(&dir.join("gain_hb.grc"), &broken);
    match describe_grc_file(&file) {
        Err(GraphError::Unsupported { ids, .. }) => assert_eq!(ids, ["blocks_no_such_block"]),
        other => panic!("{other:?}"),
    }
    // A pad in a flowgraph that is not a hierarchical block.
    let text = gain_block("gain_hb", "eng_float")
        .replace("generate_options: 'hb'", "generate_options: 'no_gui'");
    let file = write(&dir.join("gain_hb.grc"), &text);
    let e = describe_grc_file(&file).unwrap_err().to_string();
    assert!(e.contains("pad_") && e.contains("not hb"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn ports_are_numbered_as_grc_numbers_them_and_message_pads_named_by_label() {
    let dir = scratch("ports");
    write(
        &dir.join("gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    // A port the block does not have.
    let text = user(&dir, "gain_hb", &[], &[]).replace("[h, '1', sink_b", "[h, '2', sink_b");
    let file = write(&dir.join("user.grc"), &text);
    let e = describe_grc_file(&file).unwrap_err().to_string();
    assert!(
        e.contains("no output 2") && e.contains("its outputs: 0, 1"),
        "{e}"
    );
    // Message pads: `in` and `out` by label, a stream pad sorted before them numbered 0.
    let hb = grc(
        &[("id", "msg_hb"), ("generate_options", "hb")],
        &[
            (
                "pad_source_1",
                "pad_source",
                &[("label", "pdus"), ("type", "message")],
            ),
            (
                "pad_source_0",
                "pad_source",
                &[("label", "x"), ("type", "float")],
            ),
            ("relay", "blocks_copy", &[("type", "float"), ("vlen", "1")]),
            ("dbg", "blocks_message_debug", &[("en_uvec", "True")]),
            (
                "pad_sink_0",
                "pad_sink",
                &[("label", "y"), ("type", "float")],
            ),
        ],
        &[
            ["pad_source_1", "out", "dbg", "print"],
            ["pad_source_0", "0", "relay", "0"],
            ["relay", "0", "pad_sink_0", "0"],
        ],
    );
    write(&dir.join("msg_hb.grc"), &hb);
    let text = grc(
        &[("id", "user"), ("generate_options", "no_gui")],
        &[
            (
                "strobe",
                "blocks_message_strobe",
                &[("msg", "pmt.intern(\"hi\")"), ("period", "1000")],
            ),
            (
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "float"),
                    ("vector", "[1]"),
                    ("repeat", "False"),
                    ("vlen", "1"),
                    ("tags", "[]"),
                ],
            ),
            ("h", "msg_hb", &[]),
            (
                "nsink",
                "blocks_null_sink",
                &[("type", "float"), ("vlen", "1")],
            ),
        ],
        &[
            ["strobe", "strobe", "h", "pdus"],
            ["src", "0", "h", "0"],
            ["h", "0", "nsink", "0"],
        ],
    );
    let file = write(&dir.join("user.grc"), &text);
    let d = describe_grc_file(&file).unwrap();
    let m = &d.messages[0];
    assert_eq!(
        (m.from.block.as_str(), &m.from.port),
        ("strobe", &PortName::Name("strobe".into()))
    );
    assert_eq!(
        (m.to.block.as_str(), &m.to.port),
        ("h/dbg", &PortName::Name("print".into()))
    );
    let into_relay = d.streams.iter().find(|c| c.to.block == "h/relay").unwrap();
    assert_eq!(into_relay.from.block, "src");
    let out = d.streams.iter().find(|c| c.to.block == "nsink").unwrap();
    assert_eq!(out.from.block, "h/relay");
    load_grc(&file).unwrap();
    std::fs::remove_dir_all(dir).ok();
}

/// GNU Radio's own packet examples: `packet_tx` used by `transmitter_sim_hier.grc`.
#[test]
fn gnu_radios_packet_tx_is_inlined_into_its_examples() {
    let dir = Path::new("/usr/share/gnuradio/examples/digital/packet");
    if !dir.join("packet_tx.grc").is_file() {
        eprintln!("SKIPPED: GNU Radio's examples are not installed");
        return;
    }
    let d = describe_grc_file(dir.join("transmitter_sim_hier.grc")).unwrap();
    assert!(
        d.blocks
            .iter()
            .any(|b| b.name == "packet_tx_0/digital_protocol_formatter_async_0"),
        "{:?}",
        d.blocks.iter().map(|b| &b.name).collect::<Vec<_>>()
    );
    load_grc(dir.join("transmitter_sim_hier.grc")).unwrap();
    match describe_grc_file(dir.join("packet_tx.grc")) {
        Err(GraphError::HierBlock { id, .. }) => assert_eq!(id, "packet_tx"),
        other => panic!("{other:?}"),
    }
}

/// `packet_rx` inlined into `packet_loopback_hier.grc`: its variables index a dict of lists
/// (`preamble_select[int(1.0/hdr_dec.rate())]`, a FEC decoder's rate) and a list by its real
/// parameter `sps`, which keeps the int the using flowgraph passes (`mark_delays[sps]`).
#[test]
fn gnu_radios_packet_rx_is_inlined_into_its_loopback() {
    let dir = Path::new("/usr/share/gnuradio/examples/digital/packet");
    if !dir.join("packet_rx.grc").is_file() {
        eprintln!("SKIPPED: GNU Radio's examples are not installed");
        return;
    }
    let d = describe_grc_file(dir.join("packet_loopback_hier.grc")).unwrap();
    let demux = d
        .blocks
        .iter()
        .find(|b| b.name == "packet_rx_0/digital_header_payload_demux_0")
        .expect("the receiver's demux");
    assert!(!demux.params.is_empty(), "{demux:?}");
    // mark_delays = [0, 0, 34, 56, 87, 119] at sps = 2.
    let corr = d
        .blocks
        .iter()
        .find(|b| b.name == "packet_rx_0/digital_corr_est_cc_0")
        .expect("the receiver's correlator");
    let param = |name: &str| {
        corr.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(param("mark_delay"), Some(Pmt::Int(34)), "{:?}", corr.params);
    assert_eq!(param("sps"), Some(Pmt::Int(2)));
    load_grc(dir.join("packet_loopback_hier.grc")).unwrap();
}

/// The directories of `GRC_BLOCKS_PATH`, and the blocks GRC compiled into
/// `~/.grc_gnuradio` (their `grc_source`), are searched: run in a child process of this test
/// binary, the environment set for it alone.
#[test]
fn grc_blocks_path_and_grcs_compiled_blocks_are_searched() {
    let dir = scratch("env");
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".grc_gnuradio")).unwrap();
    std::fs::create_dir_all(dir.join("blocks")).unwrap();
    std::fs::create_dir_all(dir.join("sources")).unwrap();
    // gain_hb.grc in a GRC_BLOCKS_PATH directory; comp_hb compiled by GRC from elsewhere.
    write(
        &dir.join("blocks/gain_hb.grc"),
        &gain_block("gain_hb", "eng_float"),
    );
    let source = write(
        &dir.join("sources/comp_hb.grc"),
        &gain_block("comp_hb", "eng_float"),
    );
    write(
        &home.join(".grc_gnuradio/comp_hb.block.yml"),
        &format!(
            "id: comp_hb\nlabel: Comp Hb\ngrc_source: {}\nfile_format: 1\n",
            source.display()
        ),
    );
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "searched_in_a_child_process", "--nocapture"])
        .env("RADIOFLOW_HIER_CHILD", &dir)
        .env(
            "GRC_BLOCKS_PATH",
            format!("/nonexistent:{}", dir.join("blocks").display()),
        )
        .env("HOME", &home)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::remove_dir_all(dir).ok();
}

/// The child of [`grc_blocks_path_and_grcs_compiled_blocks_are_searched`] (nothing to do
/// run on its own).
#[test]
fn searched_in_a_child_process() {
    let Some(dir) = std::env::var_os("RADIOFLOW_HIER_CHILD").map(PathBuf::from) else {
        return;
    };
    let file = write(
        &dir.join("user.grc"),
        &user(&dir, "gain_hb", &[("k", "5")], &[]),
    );
    assert_eq!(run(&dir, &file).0, vec![5., 10., 15.]);
    let file = write(&dir.join("user.grc"), &user(&dir, "comp_hb", &[], &[]));
    assert_eq!(run(&dir, &file).0, vec![2., 4., 6.]);
}

#[test]
fn a_header_format_s_length_methods_are_gnu_radio_s() {
    // packet_rx.grc's parameters call them. GNU Radio: the 64-bit default access code and the
    // length twice (2 x 16 bits).
    use radioflow_graphfile::grc::evaluate;
    use radioflow_graphfile::grc::Value;
    let vars = [(
        "h",
        "digital.header_format_default(digital.packet_utils.default_access_code, 0)",
    )];
    let eval = |e: &str| evaluate(e, &vars);
    assert_eq!(eval("h.header_nbits()").unwrap(), Value::Int(96));
    assert_eq!(eval("h.header_nbytes()").unwrap(), Value::Int(12));
    let e = eval("h.payload_nbits()").unwrap_err().to_string();
    assert!(
        e.contains("payload_nbits") && e.contains("header_nbits"),
        "{e}"
    );
    let e = eval("'abc'.header_nbits()").unwrap_err().to_string();
    assert!(e.contains("no method"), "{e}");
}
