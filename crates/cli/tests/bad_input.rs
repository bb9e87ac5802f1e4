//! The whole command-line surface given wrong arguments: every case exits non-zero before
//! running anything long, with a message naming the argument, and no panic or backtrace.

use std::process::Command;

fn radioflow(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn wrong_arguments_are_one_clear_error_naming_them() {
    let dir = std::env::temp_dir().join(format!("radioflow-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let d = dir.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["bench", "buf", "--pipes", "0"], "--pipes"),
        (vec!["bench", "buf", "--stages", "-1"], "--stages"),
        (vec!["bench", "buf", "--stages", "x"], "--stages"),
        (vec!["bench", "buf", "--pipes", "1e9"], "--pipes"),
        (vec!["bench", "buf", "--samples", "0"], "--samples"),
        (vec!["bench", "buf", "--samples", "1e300"], "--samples"),
        (vec!["bench", "buf", "--runs", "0"], "--runs"),
        (vec!["bench", "buf", "--workers", "0"], "--workers"),
        (vec!["bench", "buf", "--chunk-bytes", "0"], "--chunk-bytes"),
        (
            vec!["bench", "buf", "--buffer-bytes", "0"],
            "--buffer-bytes",
        ),
        (vec!["bench", "buf", "--scheduler", "fast"], "fast"),
        (vec!["bench", "buf", "--compare", "nope"], "nope"),
        (
            vec![
                "bench", "msg", "--pipes", "1", "--stages", "1", "--burst", "1e9",
            ],
            "--burst",
        ),
        (vec!["bench", "opti", "--samples", ""], "--samples"),
        (vec!["bench", "counters", "--taps", "0"], "--taps"),
        (vec!["bench", "counters", "--chain", "0"], "--chain"),
        (vec!["bench", "workload", "--rate", "0"], "--rate"),
        (vec!["bench", "workload", "--rate", "nan"], "--rate"),
        (vec!["bench", "workload", "--seconds", "-1"], "--seconds"),
        (vec!["bench", "workload", "--parallel", "0"], "--parallel"),
        (vec!["bench", "tasks", "--tasks", "0"], "--tasks"),
        (vec!["bench", "pipeline", "--frames", "0"], "--frames"),
        (vec!["bench", "pipeline", "--frame", "0"], "--frame"),
        (
            vec!["bench", "pipeline", "--max-replicas", "0"],
            "--max-replicas",
        ),
        (
            vec![
                "bench",
                "buf",
                "--quick",
                "--out",
                "/proc/radioflow-cannot-write",
            ],
            "--out",
        ),
        (vec!["profile", "--live", "1e300"], "--live"),
        (vec!["profile", "--live", "nan"], "--live"),
        (vec!["profile", "--live=-1"], "--live"),
        (vec!["profile", "--samples", "0"], "--samples"),
        (vec!["profile", "--trace-events", "0"], "--trace-events"),
        (
            vec!["profile", "--trace", "/proc/radioflow-cannot-write/t.json"],
            "--trace",
        ),
        (vec!["profile", "--trace", d], "--trace"),
        (
            vec!["profile", "nosuchgraph", "--samples", "10"],
            "nosuchgraph",
        ),
        (vec!["profile", "--scheduler", "flow:workers=0"], "workers"),
        (
            vec!["run", "/nonexistent/graph.toml"],
            "/nonexistent/graph.toml",
        ),
        (vec!["run", d], d),
        (vec!["run", empty.to_str().unwrap()], "empty.toml"),
        (vec!["blocks", "nope"], "nope"),
        (
            vec!["run", "/nonexistent/flowgraph.grc"],
            "/nonexistent/flowgraph.grc",
        ),
        (vec!["grc", "nope"], "nope"),
        (vec!["soak", "--seconds", "0"], "--seconds"),
        (vec!["soak", "--every", "nan"], "--every"),
        (vec!["soak", "--graph", "nope", "--seconds", "1"], "nope"),
        (vec!["bench", "dvbs2-tx", "--packets", "0"], "--packets"),
        (vec!["bench", "dvbs2-tx", "--taps", "40"], "--taps"),
        (vec!["bench", "dvbs2-tx", "--threads", "x"], "--threads"),
        (
            vec!["bench", "dvbs2-tx", "--cases", "qpsk-8/9:tiny:on"],
            "--cases",
        ),
        (
            vec!["bench", "dvbs2-tx", "--compare", "futuresdr"],
            "futuresdr",
        ),
        (
            vec![
                "dvbs2",
                "tx",
                "--input",
                "/nonexistent/in.ts",
                "--out",
                "/dev/null",
            ],
            "/nonexistent/in.ts",
        ),
        (
            vec!["dvbs2", "tx", "--input", "x.ts", "--out", "y", "--sps", "0"],
            "--sps",
        ),
        (
            vec![
                "dvbs2",
                "tx",
                "--input",
                "x.ts",
                "--out",
                "y",
                "--rolloff",
                "0.3",
            ],
            "--rolloff",
        ),
        (
            vec![
                "dvbs2", "tx", "--input", "x.ts", "--out", "y", "--gold", "262142",
            ],
            "--gold",
        ),
        (
            vec![
                "dvbs2",
                "tx",
                "--input",
                "x.ts",
                "--out",
                "y",
                "--threads",
                "300",
            ],
            "--threads",
        ),
        (
            vec![
                "dvbs2", "tx", "--input", "x.ts", "--out", "y", "--modcod", "qpsk-7/8",
            ],
            "qpsk-7/8",
        ),
        (
            vec![
                "dvbs2", "tx", "--input", "x.ts", "--out", "y", "--frame", "tiny",
            ],
            "--frame",
        ),
        (
            vec![
                "dvbs2", "rx", "--input", "x.cf32", "--out", "y", "--sps", "1.0",
            ],
            "--sps",
        ),
        (
            vec!["dvbs2", "rx", "--input", "/no/such.cf32", "--out", "y"],
            "/no/such.cf32",
        ),
        (vec!["nosuchcommand"], "nosuchcommand"),
    ];
    for (args, names) in cases {
        let (code, stdout, stderr) = radioflow(&args);
        assert!(
            code.is_some_and(|c| c != 0),
            "{args:?} exited {code:?}\nstdout: {stdout}\nstderr: {stderr}"
        );
        assert!(
            !stderr.contains("panicked") && !stderr.contains("stack backtrace"),
            "{args:?}: {stderr}"
        );
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains(names),
            "{args:?}: the first line does not name {names}: {stderr}"
        );
        assert!(
            stdout.is_empty(),
            "{args:?} printed before failing: {stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_command_has_help() {
    for args in [
        vec!["--help"],
        vec!["bench", "--help"],
        vec!["bench", "buf", "--help"],
        vec!["bench", "workload", "--help"],
        vec!["profile", "--help"],
        vec!["run", "--help"],
        vec!["blocks", "--help"],
        vec!["soak", "--help"],
        vec!["grc", "list", "--help"],
        vec!["dvbs2", "--help"],
        vec!["dvbs2", "tx", "--help"],
        vec!["dvbs2", "rx", "--help"],
        vec!["bench", "dvbs2-tx", "--help"],
    ] {
        let (code, stdout, _) = radioflow(&args);
        assert_eq!(code, Some(0), "{args:?}");
        assert!(stdout.contains("Usage"), "{args:?}");
    }
}
