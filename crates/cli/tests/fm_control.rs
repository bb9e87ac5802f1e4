//! `radioflow fm --control`: the FM receiver's live view with a real HTTP client. The station's
//! offset (`channel.centre`) is retuned while the receiver runs: the station leaves the channel
//! (its probe's magnitude falls, the multiplex loses its 19 kHz pilot) and comes back, and the
//! audio keeps flowing to the WAV file throughout.

mod common;

use common::{counter, mean_magnitude, pilot_db, poll, request, Fm, DEADLINE};
use serde_json::json;

#[test]
fn the_station_offset_is_retuned_while_audio_flows() {
    let fm = Fm::start("fm-control", &[]);
    let base = fm.base.clone();

    // The receiver's graph, its probes and its settable offset.
    let (status, g) = request("GET", &format!("{base}/api/graph"), None);
    assert_eq!(status, 200, "{g}");
    let blocks = g["blocks"].as_array().unwrap();
    for name in [
        "source", "throttle", "channel", "fm_demod", "stereo", "rds", "wav",
    ] {
        assert!(blocks.iter().any(|b| b["name"] == name), "{name}: {g}");
    }
    let channel = blocks.iter().find(|b| b["name"] == "channel").unwrap();
    assert_eq!(channel["type"], "FreqXlatingFirFilter");
    assert_eq!(channel["message_inputs"], json!(["centre", "freq"]));
    let probes: Vec<&str> = g["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(probes, ["channel.out", "fm_demod.out"]);
    let centre = format!("{base}/api/blocks/channel/params/centre");
    let (status, v) = request("GET", &centre, None);
    assert_eq!((status, &v["value"]), (200, &json!(200e3)), "{v}");

    // Tuned to the station: a carrier in the channel and a pilot in the multiplex.
    let on = poll("the station in channel.out", DEADLINE, || {
        mean_magnitude(&base, "channel.out").filter(|&m| m > 0.1)
    });
    poll("the 19 kHz pilot in the multiplex", DEADLINE, || {
        pilot_db(&base).filter(|&db| db > 20.0)
    });

    // Off the station (nothing at -600 kHz): the channel empties and the pilot goes.
    let (status, v) = request("PUT", &centre, Some(r#"{"value": -600e3}"#));
    assert_eq!((status, &v["value"]), (200, &json!(-600e3)), "{v}");
    let audio = counter(&base, "wav", "items_in").unwrap();
    poll("the channel to empty", DEADLINE, || {
        mean_magnitude(&base, "channel.out").filter(|&m| m < 0.2 * on)
    });
    poll("the pilot to go", DEADLINE, || {
        pilot_db(&base).filter(|&db| db < 10.0)
    });
    poll(
        "the audio to keep flowing while off the station",
        DEADLINE,
        || counter(&base, "wav", "items_in").filter(|&n| n > audio),
    );

    // Back on the station.
    let (status, _) = request("PUT", &centre, Some(r#"{"value": 200000}"#));
    assert_eq!(status, 200);
    poll("the station back in the channel", DEADLINE, || {
        mean_magnitude(&base, "channel.out").filter(|&m| m > 0.8 * on)
    });
    poll("the pilot back", DEADLINE, || {
        pilot_db(&base).filter(|&db| db > 20.0)
    });
    let audio = counter(&base, "wav", "items_in").unwrap();
    poll("the audio to keep flowing after", DEADLINE, || {
        counter(&base, "wav", "items_in").filter(|&n| n > audio)
    });

    // A name where a number belongs reaches the filter, which ignores it: the receiver runs on.
    let (status, _) = request("PUT", &centre, Some(r#"{"value": "abc"}"#));
    assert_eq!(status, 200);
    let audio = counter(&base, "wav", "items_in").unwrap();
    poll(
        "the audio to keep flowing after a bad value",
        DEADLINE,
        || counter(&base, "wav", "items_in").filter(|&n| n > audio),
    );
    poll("the station still tuned", DEADLINE, || {
        mean_magnitude(&base, "channel.out").filter(|&m| m > 0.8 * on)
    });

    // A value that is no scalar is refused, naming the parameter; the receiver runs on.
    let (status, v) = request("PUT", &centre, Some(r#"{"value": [1, 2]}"#));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("centre"), "{v}");
    let (status, v) = request(
        "PUT",
        &format!("{base}/api/blocks/channel/params/offset"),
        Some(r#"{"value": 1}"#),
    );
    assert_eq!(status, 404, "{v}");
    assert!(v["error"].as_str().unwrap().contains("offset"), "{v}");

    // Stopped from the API: the receiver ends cleanly with its summary and a WAV file.
    let wav = fm.wav.clone();
    let (ok, out, err) = fm.stop();
    assert!(ok, "{err}");
    assert!(out.contains("x real time"), "{out}");
    assert!(out.contains(&format!("wrote {}", wav.display())), "{out}");
}

#[test]
fn a_probe_on_an_unknown_port_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args([
            "fm",
            "--demo",
            "--control",
            "127.0.0.1:0",
            "--probe",
            "channel.nope",
        ])
        .arg("--wav")
        .arg(dir.path().join("station.wav"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("channel.nope") && err.contains("nope"),
        "{err}"
    );
}
