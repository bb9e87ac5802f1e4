//! The command line shows every block of the library and runs graph files.

use radioflow_runtime::registry;
use std::process::Command;

// Links the block library so that the registry here is the binary's.
use radioflow_graphfile as _;

fn radioflow(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn blocks_lists_every_registered_block_and_shows_each() {
    let (ok, list, _) = radioflow(&["blocks"]);
    assert!(ok);
    let all = registry::descriptions();
    assert!(all.len() >= 20);
    for d in &all {
        assert!(
            list.lines().any(|l| l.starts_with(&format!("{} ", d.id))),
            "{} missing from `radioflow blocks`:\n{list}",
            d.id
        );
        let (ok, one, _) = radioflow(&["blocks", d.id]);
        assert!(ok, "{}", d.id);
        assert!(one.starts_with(&format!("{}: {}", d.id, d.summary)));
        for p in d.params {
            assert!(
                one.contains(p.name) && one.contains(p.doc),
                "{}.{}",
                d.id,
                p.name
            );
            // What it takes, with a float's range (`a number >= 0.001`).
            assert!(one.contains(&p.kind.describe()), "{}.{}", d.id, p.name);
        }
        for port in (d.ports)() {
            assert!(one.contains(&port.to_string()), "{} port {port}", d.id);
        }
    }
    let (ok, _, err) = radioflow(&["blocks", "nope"]);
    assert!(
        !ok && err.contains("no block 'nope' in the library"),
        "{err}"
    );
}

#[test]
fn run_runs_a_graph_file_and_reports_bad_ones() {
    let dir = std::env::temp_dir().join(format!("radioflow-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let graph = dir.join("g.toml");
    let out = dir.join("ramp.bin");
    std::fs::write(
        &graph,
        format!(
            "connections = [\"src -> gain -> sink\"]\n[blocks]\n\
             src = {{ block = \"vector_source\", dtype = \"int16\", data = [1, 2, 3] }}\n\
             gain = {{ block = \"multiply_const\", dtype = \"int16\", k = 3 }}\n\
             sink = {{ block = \"file_sink\", dtype = \"int16\", path = {:?} }}\n",
            out.to_str().unwrap()
        ),
    )
    .unwrap();
    let (ok, stdout, err) = radioflow(&["run", graph.to_str().unwrap(), "--scheduler", "tpb"]);
    assert!(ok, "{err}");
    assert!(stdout.contains("gain"), "{stdout}");
    assert_eq!(std::fs::read(&out).unwrap(), [3, 0, 6, 0, 9, 0]);
    std::fs::write(&graph, "[blocks]\nx = { block = \"head\" }\n").unwrap();
    let (ok, _, err) = radioflow(&["run", graph.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("g.toml: block 'x': head: parameter 'n' (an integer >= 0) is required"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}
