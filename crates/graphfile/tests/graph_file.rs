//! Graph files: built from the block library, run, and refused with errors that name the
//! file and what is wrong in it.

use radioflow_graphfile::{load, parse, parse_grc, GraphError};
use radioflow_runtime::registry::{self, DefaultValue, ParamKind};
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("radioflow-graphfile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_example_graph_runs_and_writes_the_mixed_tone() {
    let dir = scratch("example");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/graphs/tone.toml"
    );
    let text = std::fs::read_to_string(example)
        .unwrap()
        .replace("tone.cf32", dir.join("tone.cf32").to_str().unwrap());
    let mut graph = parse(&text, "tone.toml").unwrap();
    graph.flowgraph.run().unwrap();
    let bytes = std::fs::read(dir.join("tone.cf32")).unwrap();
    assert_eq!(bytes.len(), 48_000 * 8);
    let samples: Vec<[f32; 2]> = bytes
        .chunks_exact(8)
        .map(|c| {
            let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
            [f(&c[..4]), f(&c[4..])]
        })
        .collect();
    for (n, s) in samples.iter().enumerate().step_by(997) {
        let phase = 2.0 * std::f64::consts::PI * 1500.0 * n as f64 / 48e3;
        let (re, im) = (0.5 * phase.cos(), 0.5 * phase.sin());
        assert!(
            (s[0] as f64 - re).abs() < 1e-3 && (s[1] as f64 - im).abs() < 1e-3,
            "sample {n}: {s:?} vs ({re}, {im})"
        );
    }
    let debug = graph
        .blocks
        .iter()
        .find(|(n, _)| n == "debug")
        .map(|(_, id)| *id)
        .unwrap();
    let stored = graph
        .flowgraph
        .block::<radioflow_library::blocks::MessageDebug>(debug)
        .unwrap()
        .messages()
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>();
    assert_eq!(stored, ["start", "1", "2.5"]);
    std::fs::remove_dir_all(dir).ok();
}

/// A TOML value for a required parameter of `kind`.
fn example(kind: ParamKind, path: &str) -> String {
    match kind {
        ParamKind::Bool => "false".into(),
        ParamKind::Int { min } => min.max(1).to_string(),
        ParamKind::Float(_) => "1000.0".into(),
        ParamKind::Item => "1".into(),
        // Three, as tests/registry.rs in radioflow-library gives (a clock sync needs 3 taps).
        ParamKind::Floats | ParamKind::Items => "[1, 2, 3]".into(),
        ParamKind::Choice(words) => format!("{:?}", words[0]),
        ParamKind::Text => "\"x\"".into(),
        ParamKind::Path(_) => format!("{path:?}"),
        ParamKind::Messages => "[1]".into(),
        // An empty table: a PMT dict (nil), which every message parameter takes, extra_dict too.
        ParamKind::Message => "{}".into(),
    }
}

/// A description's example value as a TOML literal.
fn toml_literal(v: DefaultValue) -> String {
    match v {
        DefaultValue::Bool(b) => b.to_string(),
        DefaultValue::Int(i) => i.to_string(),
        DefaultValue::Float(x) => format!("{x:?}"),
        DefaultValue::Word(w) => format!("{w:?}"),
        DefaultValue::Empty => "[]".into(),
    }
}

#[test]
fn every_registered_block_can_be_written_in_a_graph_file() {
    let dir = scratch("every");
    let path = dir.join("data.bin");
    std::fs::write(&path, [0u8; 64]).unwrap();
    let mut text = String::from("[blocks]\n");
    let all = registry::descriptions();
    for d in &all {
        let params: Vec<String> = d
            .params
            .iter()
            .filter(|p| p.default.is_none())
            .map(|p| {
                // Each written file its own: a graph may not write a file it reads.
                let file = match p.kind {
                    ParamKind::Path(how) if how.writes() => dir.join(format!("{}.out", d.id)),
                    _ => path.clone(),
                };
                let value = match p.example {
                    Some(e) => toml_literal(e),
                    None => example(p.kind, file.to_str().unwrap()),
                };
                format!(", {} = {value}", p.name)
            })
            .collect();
        text += &format!("{} = {{ block = {:?}{} }}\n", d.id, d.id, params.concat());
    }
    let graph = parse(&text, "every.toml").unwrap();
    assert_eq!(graph.blocks.len(), all.len());
    for ((name, id), d) in graph.blocks.iter().zip(&all) {
        assert_eq!(name, d.id);
        assert_eq!(graph.flowgraph.name(*id), d.id);
    }
    std::fs::remove_dir_all(dir).ok();
}

fn error(text: &str) -> String {
    match parse(text, "bad.toml") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn mistakes_are_errors_naming_the_file_and_the_culprit() {
    assert!(error("[blocks\n").starts_with("bad.toml: TOML parse error at line 1"));
    assert_eq!(error("connections = []\n"), "bad.toml: no [blocks] table");
    assert_eq!(
        error("[blocks]\nsrc = { block = \"nope\" }\n"),
        "bad.toml: block 'src': no block 'nope' in the library (`radioflow blocks` lists them)"
    );
    assert_eq!(
        error("[blocks]\nh = { block = \"head\", n = -2 }\n"),
        "bad.toml: block 'h': head: n must be >= 0, not -2"
    );
    assert_eq!(
        error("[blocks]\nh = { block = \"head\", n = 2, dtype = \"float16\" }\n"),
        "bad.toml: block 'h': unknown dtype 'float16' (use one of float32, complex64, int16, \
         int8, uint8, float64, int32)"
    );
    assert_eq!(
        error("[blocks]\nh = { block = \"head\" }\n"),
        "bad.toml: block 'h': head: parameter 'n' (an integer >= 0) is required"
    );
    let two = "[blocks]\na = { block = \"null_source\" }\nb = { block = \"null_sink\" }\n";
    assert_eq!(
        error(&format!("connections = [\"a -> c\"]\n{two}")),
        "bad.toml: connection 'a -> c': no block named 'c' in [blocks]"
    );
    assert_eq!(
        error(&format!("connections = [\"a\"]\n{two}")),
        "bad.toml: connection 'a': write it as \"a -> b\" (or a chain \"a -> b -> c\")"
    );
    let wrong_port = error(&format!("connections = [\"a -> b.nope\"]\n{two}"));
    assert!(
        wrong_port.starts_with("bad.toml: connection 'a -> b.nope': ")
            && wrong_port.contains("nope"),
        "{wrong_port}"
    );
    let mixed = "[blocks]\na = { block = \"null_source\", dtype = \"int8\" }\nb = { block = \"null_sink\" }\n";
    let types = error(&format!("connections = [\"a -> b\"]\n{mixed}"));
    assert!(
        types.contains("produces int8 but b.in expects float32"),
        "{types}"
    );
    assert_eq!(
        error(&format!("messages = [\"a -> b\"]\n{two}")),
        "bad.toml: connection 'a -> b': message links name both ports: \"a.out -> b.in\""
    );
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let err = load("/nonexistent/graph.toml").unwrap_err();
    assert!(matches!(err, GraphError::Read { .. }));
    assert!(
        err.to_string().starts_with("/nonexistent/graph.toml: "),
        "{err}"
    );
}

#[test]
fn a_graph_that_writes_a_file_it_reads_is_refused_before_any_file_is_opened() {
    let dir = scratch("same-file");
    let data = dir.join("data.bin");
    std::fs::write(&data, [7u8; 64]).unwrap();
    std::os::unix::fs::symlink(&data, dir.join("link.bin")).unwrap();
    let d = dir.display();
    let refused = |text: &str, written: &str, read: &str| {
        let e = parse(text, "same.toml").unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("same.toml: block '{written}' path '")),
            "{e}"
        );
        assert!(
            e.contains(&format!("is the same file as block '{read}' path '")),
            "{e}"
        );
        // Nothing was opened for writing: the input is whole.
        assert_eq!(std::fs::read(&data).unwrap(), [7u8; 64]);
    };
    let graph = |source: &str, sink: &str| {
        format!(
            "connections = [\"src -> sink\"]\n[blocks]\n\
             src = {{ block = \"file_source\", dtype = \"uint8\", path = \"{source}\" }}\n\
             sink = {{ block = \"file_sink\", dtype = \"uint8\", path = \"{sink}\" }}\n"
        )
    };
    refused(
        &graph(&format!("{d}/data.bin"), &format!("{d}/./data.bin")),
        "sink",
        "src",
    );
    refused(
        &graph(&format!("{d}/data.bin"), &format!("{d}/link.bin")),
        "sink",
        "src",
    );
    // A SigMF recording's data file, by the recording's name.
    std::fs::write(dir.join("rec.sigmf-data"), [0u8; 8]).unwrap();
    let sigmf = format!(
        "connections = [\"src -> sink\"]\n[blocks]\n\
         src = {{ block = \"file_source\", dtype = \"complex64\", path = \"{d}/rec.sigmf-data\" }}\n\
         sink = {{ block = \"sigmf_sink\", path = \"{d}/rec\" }}\n"
    );
    refused(&sigmf, "sink", "src");
    // Another file is fine.
    parse(
        &graph(&format!("{d}/data.bin"), &format!("{d}/copy.bin")),
        "ok.toml",
    )
    .unwrap();

    // The same in a GNU Radio Companion flowgraph.
    let grc = format!(
        "blocks:
- name: src
  id: blocks_file_source
  parameters: {{file: '{d}/data.bin', type: byte, repeat: 'False', vlen: '1'}}
- name: sink
  id: blocks_file_sink
  parameters: {{file: '{d}/link.bin', type: byte, append: 'False', vlen: '1'}}
connections:
- [src, '0', sink, '0']
metadata:
  file_format: 1
"
    );
    let e = parse_grc(&grc, "same.grc").unwrap_err().to_string();
    assert!(e.starts_with("same.grc: block 'sink' path '"), "{e}");
    assert!(e.contains("is the same file as block 'src' path '"), "{e}");
    assert_eq!(std::fs::read(&data).unwrap(), [7u8; 64]);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn long_lines_names_and_values_are_not_echoed_whole() {
    let long = "x".repeat(1_000_000);
    let numbers = "1, ".repeat(30_000);
    let cases = [
        // A syntax error at the end of a 90 kB line.
        format!("[blocks]\nsrc = {{ block = \"head\", n = [{numbers} oops] }}\n"),
        format!("{long} = 1\n[blocks]\n"),
        format!("[blocks]\nsrc = {{ block = [{numbers}] }}\n"),
        format!("[blocks]\nsrc = {{ block = \"{long}\" }}\n"),
        format!("[blocks]\n{long} = {{ block = \"nope\" }}\n"),
        format!("[blocks]\nsrc = {{ block = \"head\", dtype = \"{long}\" }}\n"),
        format!("connections = [\"{long}\"]\n[blocks]\n"),
        format!("connections = [\"a -> {long}\"]\n[blocks]\na = {{ block = \"null_source\" }}\n"),
        format!("connections = [[{numbers}]]\n[blocks]\n"),
        // Nested deeper than the TOML parser goes.
        format!("x = {}\n", "[".repeat(100_000)),
    ];
    for text in &cases {
        let e = error(text);
        assert!(
            e.starts_with("bad.toml: ") && e.len() < 1100,
            "{} bytes: {}",
            e.len(),
            &e[..e.len().min(300)]
        );
    }
    assert!(
        error(&cases[0]).contains("line 2, column 90031"),
        "{}",
        error(&cases[0])
    );
}
