//! Errors say what is wrong with which argument, readably: numbers as they were given
//! (`1e300`, not 301 digits), nothing printed as if the run had started, and `--schedule`
//! entries that are empty or given twice refused by name.

use std::process::Command;

fn radioflow(args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("r.cu8"), [127u8; 48_000]).unwrap();
    let packet: Vec<u8> = std::iter::once(0x47).chain([0u8; 187]).collect();
    std::fs::write(dir.path().join("g.ts"), packet.repeat(10)).unwrap();
    std::fs::write(dir.path().join("x.cf32"), [0u8; 8000]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .current_dir(dir.path())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The longest run of digits in `text`.
fn longest_number(text: &str) -> usize {
    text.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

#[test]
fn huge_numbers_are_echoed_short_and_nothing_runs() {
    let fm = ["fm", "--input", "r.cu8", "--format", "cu8"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            [&fm[..], &["--rate", "1e300", "--offset", "0"]].concat(),
            "invalid --rate: 1e300 samples/s is more than the receiver takes",
        ),
        (
            [&fm[..], &["--rate", "2.4e6", "--offset", "1e300"]].concat(),
            "invalid --offset: a station at 1e300 Hz",
        ),
        (
            [&fm[..], &["--rate", "2.4e6", "--offset=-1e300"]].concat(),
            "invalid --offset: a station at -1e300 Hz",
        ),
        (
            vec![
                "dvbs2", "rx", "--input", "x.cf32", "--out", "o.ts", "--sps", "1e300",
            ],
            "invalid value '1e300' for '--sps': 1e300 samples per symbol out of range",
        ),
        (
            vec!["profile", "--live", "1e300"],
            "1e300 s is more than a day",
        ),
    ];
    for (args, expected) in cases {
        let (code, err) = radioflow(&args);
        // 2: refused by the argument parser.
        assert!(matches!(code, Some(1 | 2)), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(longest_number(&err) < 20, "{args:?}: {err}");
        // Refused before the receiver describes a run.
        assert!(!err.contains("audio at"), "{args:?}: {err}");
    }
}

#[test]
fn a_schedule_with_empty_entries_or_an_index_twice_is_refused() {
    let tx = [
        "dvbs2",
        "tx",
        "--input",
        "g.ts",
        "--out",
        "o.cf32",
        "--schedule",
    ];
    for (schedule, expected) in [
        (",,,", "--schedule: bad schedule entry 1 of \",,,\" is empty"),
        ("1:qpsk-1/2,", "entry 2 of \"1:qpsk-1/2,\" is empty"),
        (
            "1:qpsk-1/2,1:8psk-3/5",
            "--schedule: bad schedule entry \"1:8psk-3/5\": frame 1 is already scheduled by \"1:qpsk-1/2\"",
        ),
    ] {
        let (code, err) = radioflow(&[&tx[..], &[schedule]].concat());
        assert_eq!(code, Some(1), "{schedule}: {err}");
        assert!(err.contains(expected), "{schedule}: {err}");
    }
}
