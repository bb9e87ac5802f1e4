//! `radioflow bench resched|items --quick --compare gnuradio`: GNU Radio's rows appear next to
//! radioflow's, and their numbers add up (every copy call in the histogram, every item counted,
//! context switches of every block thread and of each copy thread). Skipped only where GNU
//! Radio's development files are not installed; if they are, the peer must build and run.

use serde_json::Value;
use std::process::Command;

const PIPES: u64 = 3;
const STAGES: u64 = 2;
const SAMPLES: u64 = 100_000; // what --quick uses

fn gnuradio_installed() -> bool {
    let found = Command::new("pkg-config")
        .args(["--exists", "gnuradio-runtime", "gnuradio-blocks"])
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("GNU Radio development files not installed (pkg-config): test skipped");
    }
    found
}

fn bench(experiment: &str, json: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_radioflow"));
    cmd.args(["bench", experiment, "--quick", "--compare", "gnuradio"])
        .args([
            "--pipes",
            &PIPES.to_string(),
            "--stages",
            &STAGES.to_string(),
        ]);
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().expect("radioflow runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{experiment} failed: {stderr}");
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// The --json lines of one experiment, checked for what every row must have.
fn runs(experiment: &str) -> Vec<Value> {
    let runs: Vec<Value> = bench(experiment, true)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    let rows: Vec<(&str, &str)> = runs
        .iter()
        .map(|r| {
            (
                r["runtime"].as_str().unwrap(),
                r["scheduler"].as_str().unwrap(),
            )
        })
        .collect();
    for want in [
        ("radioflow", "tpb"),
        ("radioflow", "tpb-rt"),
        ("radioflow", "flow"),
        ("radioflow", "single"),
        ("gnuradio", "tpb"),
        ("gnuradio", "tpb-rt"),
    ] {
        assert!(rows.contains(&want), "no {want:?} row in {rows:?}");
    }
    for r in &runs {
        assert_eq!(r["experiment"], experiment);
        assert_eq!(r["verified"], true, "{r}");
        assert!(r["seconds"].as_f64().is_some_and(|s| s > 0.0), "{r}");
        let e = &r["extra"];
        // Every item counted once by each copy block, every call in one histogram bin.
        assert_eq!(e["items_produced"], SAMPLES * PIPES * STAGES, "{r}");
        let hist: Vec<u64> = e["produced_log2"]
            .as_array()
            .expect("histogram")
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(hist.len(), 32);
        let calls = e["work_calls"].as_u64().unwrap();
        assert_eq!(hist.iter().sum::<u64>(), calls, "{r}");
        // No call moves more than a whole buffer, and each copy needs several at this size.
        assert!(calls >= PIPES * STAGES * 2, "{r}");
        assert!(hist[17..].iter().all(|&c| c == 0), "{r}");
    }
    runs
}

fn gnuradio(runs: &[Value]) -> impl Iterator<Item = &Value> {
    runs.iter().filter(|r| r["runtime"] == "gnuradio")
}

#[test]
fn items_has_gnuradio_rows_whose_histogram_adds_up() {
    if !gnuradio_installed() {
        return;
    }
    let runs = runs("items");
    for r in gnuradio(&runs) {
        let e = &r["extra"];
        // GNU Radio never calls work for zero items, so the histogram's mean is what it
        // moved per call; 1e5 items per copy take at least 100000 / 8192 calls.
        let calls = e["work_calls"].as_u64().unwrap();
        assert!(calls >= PIPES * STAGES * SAMPLES.div_ceil(8192), "{r}");
        assert_eq!(e["sink_items_min"], SAMPLES);
        assert_eq!(e["sink_items_max"], SAMPLES);
    }
    let text = bench("items", false);
    assert!(
        text.lines()
            .any(|l| l.starts_with("gnuradio") && l.contains("2^")),
        "{text}"
    );
}

#[test]
fn resched_has_gnuradio_context_switches_per_thread() {
    if !gnuradio_installed() {
        return;
    }
    let runs = runs("resched");
    let blocks = 2 + PIPES * (STAGES + 1);
    for r in gnuradio(&runs) {
        let e = &r["extra"];
        assert_eq!(e["threads"], blocks, "one thread per block: {r}");
        assert_eq!(
            e["threads_seen_running"], blocks,
            "no other thread appeared: {r}"
        );
        assert_eq!(e["stop_on_block_thread"], true, "{r}");
        let total = |k: &str| e[k].as_u64().unwrap();
        // Every block thread blocks on its neighbours at least once over a run.
        assert!(total("voluntary") >= blocks, "{r}");
        let threads = e["copy_threads"].as_array().expect("per-thread counts");
        assert_eq!(threads.len() as u64, PIPES * STAGES, "{r}");
        let (mut vol, mut inv) = (0, 0);
        for t in threads {
            vol += t["voluntary"].as_u64().expect("voluntary per thread");
            inv += t["involuntary"].as_u64().expect("involuntary per thread");
        }
        // The copy threads are part of all block threads; the rest is source, head, sinks.
        assert_eq!(vol + total("other_voluntary"), total("voluntary"), "{r}");
        assert_eq!(
            inv + total("other_involuntary"),
            total("involuntary"),
            "{r}"
        );
        assert!(vol > 0, "{r}");
        if r["scheduler"] == "tpb-rt" {
            if e["rt_granted"] == true {
                assert_eq!(e["block_thread_policy"], "SCHED_FIFO", "{r}");
                assert_eq!(e["block_thread_priority"], 50, "{r}");
            } else {
                assert_ne!(e["rt_status"], "ok", "{r}");
            }
        } else {
            assert_eq!(e["block_thread_policy"], "SCHED_OTHER", "{r}");
        }
    }
    let text = bench("resched", false);
    for s in ["tpb", "tpb-rt"] {
        assert!(
            text.lines().any(|l| {
                let mut w = l.split_whitespace();
                w.next() == Some("gnuradio") && w.next() == Some(s)
            }),
            "no gnuradio {s} line in\n{text}"
        );
    }
}
