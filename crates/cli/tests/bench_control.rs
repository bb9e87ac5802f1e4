//! `radioflow bench --control`: the live view of an experiment's run, with a real HTTP client.

mod common;

use common::{counter, poll, request, Fm, DEADLINE};

#[test]
fn a_benchmark_run_is_served_while_it_runs() {
    // Long enough to be watched (it is killed once seen).
    let args: Vec<String> = [
        "bench",
        "buf",
        "--pipes",
        "1",
        "--stages",
        "2",
        "--samples",
        "1e12",
        "--runs",
        "1",
        "--scheduler",
        "flow",
        "--control",
        "127.0.0.1:0",
    ]
    .map(String::from)
    .to_vec();
    let live = Fm::spawn(&args, "live view of each run: ");
    let (status, g) = request("GET", &format!("{}/api/graph", live.base), None);
    assert_eq!(status, 200, "{g}");
    let names: Vec<&str> = g["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(names.len() >= 4, "{names:?}");
    let sink = *names.last().unwrap();
    let first = poll("the last block to receive", DEADLINE, || {
        counter(&live.base, sink, "items_in").filter(|&n| n > 0)
    });
    poll("its counter to grow", DEADLINE, || {
        counter(&live.base, sink, "items_in").filter(|&n| n > first)
    });
}
