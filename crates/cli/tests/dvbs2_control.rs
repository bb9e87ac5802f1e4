//! `radioflow dvbs2 rx --control`: the receiver's framed tasks in the live view, with a real
//! HTTP client. The recording is a long silence (a sparse file: 1.6 GB of zeros that take no
//! disk), so that the receiver is still running while the test looks at it; the test then
//! stops it from the API.

mod common;

use common::{counter, poll, request, Fm, DEADLINE};

#[test]
fn the_receivers_tasks_are_served_and_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let (iq, ts_out) = (dir.path().join("silence.cf32"), dir.path().join("out.ts"));
    // 200e6 samples of silence: the synchroniser searches all of it for frames.
    std::fs::File::create(&iq)
        .unwrap()
        .set_len(200_000_000 * 8)
        .unwrap();
    let args: Vec<String> = ["dvbs2", "rx", "--control", "127.0.0.1:0", "--input"]
        .map(String::from)
        .into_iter()
        .chain([
            iq.display().to_string(),
            "--out".into(),
            ts_out.display().to_string(),
        ])
        .collect();
    let rx = Fm::spawn(&args, "live view: ");

    let (status, g) = request("GET", &format!("{}/api/graph", rx.base), None);
    assert_eq!(status, 200, "{g}");
    let names: Vec<&str> = g["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "matched_filter",
            "timing",
            "frame_sync",
            "decode",
            "depacketize"
        ]
    );
    assert_eq!(g["blocks"][0]["type"], "task");
    assert_eq!(g["edges"][0]["src"], "matched_filter");
    assert_eq!(g["edges"][0]["dst"], "timing");
    assert_eq!(g["edges"][0]["item"], "samples");
    assert_eq!(g["running"], true);
    let first = poll("the matched filter to take samples", DEADLINE, || {
        counter(&rx.base, "matched_filter", "items_in").filter(|&n| n > 0)
    });
    poll("its count to grow", DEADLINE, || {
        counter(&rx.base, "matched_filter", "items_in").filter(|&n| n > first)
    });
    poll("the timing loop to give out symbols", DEADLINE, || {
        counter(&rx.base, "timing", "items_out").filter(|&n| n > 0)
    });

    let (status, v) = request("POST", &format!("{}/api/stop", rx.base), None);
    assert_eq!(status, 200, "{v}");
    let (ok, out, err) = rx.wait();
    assert!(ok, "{err}");
    assert!(out.contains("stopped from the live view after "), "{out}");
    assert!(out.contains("lock: never"), "{out}");
}
