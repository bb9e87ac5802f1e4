//! SigMF recordings through radioflow's source and sink: every datatype round-trips with its
//! captures and annotations as tags, files and archives, malformed metadata is an error naming
//! the field, and the `sigmf` Python package (PyPI) accepts what the sink writes and writes
//! what the source reads. The cross-check installs the package with pip when no Python has it,
//! and prints SKIPPED when that fails.

use radioflow_blocks::runtime::{Complex32, Flowgraph, Pmt, Tag};
use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_interop::sigmf::{Datatype, ANNOTATION, RX_FREQ, RX_RATE, RX_TIME};
use radioflow_interop::{SigmfSink, SigmfSource};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn time_tag(offset: u64, secs: u64, frac: f64) -> Tag {
    Tag::new(
        offset,
        Pmt::symbol(RX_TIME),
        Pmt::Tuple(vec![Pmt::Uint64(secs), Pmt::Double(frac)].into()),
    )
}

fn annotation(offset: u64, count: u64, label: &str) -> Tag {
    let mut d = Pmt::dict_from(Vec::<(Pmt, Pmt)>::new());
    d.dict_add(Pmt::symbol("core:sample_count"), Pmt::Uint64(count));
    d.dict_add(Pmt::symbol("core:label"), Pmt::symbol(label));
    Tag::new(offset, Pmt::symbol(ANNOTATION), d)
}

/// The tags the sink is given: frequency and time at 0, a retune at 700, an annotation.
fn given_tags() -> Vec<Tag> {
    vec![
        Tag::new(0, Pmt::symbol(RX_RATE), Pmt::Double(2e6)),
        Tag::new(0, Pmt::symbol(RX_FREQ), Pmt::Double(433.92e6)),
        time_tag(0, 1_700_000_000, 0.25),
        annotation(100, 50, "burst"),
        Tag::new(700, Pmt::symbol(RX_FREQ), Pmt::Double(868e6)),
    ]
}

/// What the source gives back: `rx_rate` again at the second capture.
fn read_tags() -> Vec<Tag> {
    let mut t = given_tags();
    t.insert(4, Tag::new(700, Pmt::symbol(RX_RATE), Pmt::Double(2e6)));
    t
}

fn signal(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| {
            Complex32::new(
                ((i % 50) as f32 - 25.0) / 26.0,
                ((i % 7) as f32 - 3.0) / 4.0,
            )
        })
        .collect()
}

fn write<T: radioflow_interop::sigmf::SigmfItem>(
    path: &Path,
    dt: Datatype,
    data: Vec<T>,
    tags: Vec<Tag>,
) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data).tags(tags));
    let sink = fg.add(SigmfSink::<T>::new(path, dt));
    fg.connect(src, sink).unwrap();
    fg.run().unwrap();
}

fn read<T: radioflow_interop::sigmf::SigmfItem>(path: &Path) -> (Vec<T>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(SigmfSource::<T>::new(path).unwrap());
    let out = fg.add(VectorSink::<T>::new());
    fg.connect(src, out).unwrap();
    fg.run().unwrap();
    let v = fg.block::<VectorSink<T>>(out).unwrap();
    (v.data().to_vec(), v.tags().to_vec())
}

#[test]
fn every_complex_datatype_round_trips_with_captures_and_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let data = signal(1000);
    for name in [
        "cf32_le", "cf32_be", "cf64_le", "ci32_le", "ci16_le", "ci16_be", "ci8", "cu8", "cu16_le",
    ] {
        for file in [format!("{name}.sigmf-meta"), format!("{name}.sigmf")] {
            let path = dir.path().join(&file);
            let dt = Datatype::parse(name).unwrap();
            write(&path, dt, data.clone(), given_tags());
            let (got, tags) = read::<Complex32>(&path);
            let step = match dt.format.bytes() {
                1 => 1.0 / 127.0,
                2 => 1.0 / 32767.0,
                _ => 1e-7,
            };
            assert_eq!(got.len(), data.len(), "{file}");
            for (i, (a, b)) in got.iter().zip(&data).enumerate() {
                assert!((a - b).norm() <= step, "{file}: sample {i}: {a} for {b}");
            }
            if name.starts_with("cf32") {
                assert_eq!(got, data, "{file}: floats are exact");
            }
            assert_eq!(tags, read_tags(), "{file}");
        }
    }
    // An archive leaves no part file behind.
    assert!(!dir.path().join("cf32_le.sigmf.part").exists());
}

#[test]
fn real_datatypes_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let data: Vec<f32> = (0..300).map(|i| (i as f32 - 150.0) / 151.0).collect();
    for name in ["rf32_le", "rf64_be", "ri16_le", "ri8", "ru8"] {
        let path = dir.path().join(name);
        write(&path, Datatype::parse(name).unwrap(), data.clone(), vec![]);
        let (got, tags) = read::<f32>(&path);
        assert_eq!(got.len(), data.len());
        for (a, b) in got.iter().zip(&data) {
            assert!((a - b).abs() <= 1.0 / 127.0, "{name}: {a} for {b}");
        }
        assert!(
            tags.is_empty(),
            "{name}: no rate, no capture tags: {tags:?}"
        );
    }
}

#[test]
fn malformed_metadata_and_mismatches_are_errors_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let meta = dir.path().join("bad.sigmf-meta");
    std::fs::write(dir.path().join("bad.sigmf-data"), [0u8; 16]).unwrap();
    let cases = [
        (r#"{"global": {"core:datatype": "cf32_le", "core:version": "1.2.0", "core:sample_rate": "2 MHz"}}"#,
         "global.core:sample_rate: invalid type: string \"2 MHz\", expected f64"),
        (r#"{"global": {"core:version": "1.2.0"}}"#, "global: missing field `core:datatype`"),
        (r#"{"global": {"core:datatype": "cf32_le", "core:version": "1.2.0"}, "captures": [{"core:sample_start": 0, "core:datetime": "2023-11-14T22:13:20+01:00"}]}"#,
         "captures[0].core:datetime: '2023-11-14T22:13:20+01:00' is not an RFC 3339 UTC time (it must end in Z"),
        (r#"{"global": {"core:datatype": "ci16", "core:version": "1.2.0"}}"#,
         "global.core:datatype: 'ci16' is not a SigMF datatype"),
        (r#"{"global": {"core:datatype": "rf32_le", "core:version": "1.2.0"}}"#,
         "global.core:datatype: rf32_le is real: use a float32 block"),
        (r#"{"global": {"core:datatype": "ci16_le", "core:version": "1.2.0"}, "annotations": [{"core:sample_start": "10"}]}"#,
         "annotations[0].core:sample_start: invalid type: string \"10\", expected u64"),
    ];
    for (json, want) in cases {
        std::fs::write(&meta, json).unwrap();
        let e = SigmfSource::<Complex32>::new(&meta)
            .unwrap_err()
            .to_string();
        let want = format!("{}: {want}", meta.display());
        assert!(e.starts_with(&want), "{json}\n  gave: {e}\n  want: {want}");
    }
    std::fs::write(
        &meta,
        r#"{"global": {"core:datatype": "cf64_le", "core:version": "1.2.0"}}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("bad.sigmf-data"), [0u8; 20]).unwrap();
    let e = SigmfSource::<Complex32>::new(&meta)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "bad.sigmf-data: 20 bytes of data are not a whole number of 16-byte samples (cf64_le)"
        ),
        "{e}"
    );
    let e = SigmfSource::<Complex32>::new(dir.path().join("none.sigmf"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("cannot open '") && e.contains("none.sigmf'"),
        "{e}"
    );
}

/// A Python that imports `sigmf`: one on PATH, /usr/bin/python3, or either after
/// `pip install sigmf`; `None` if none can.
fn python_with_sigmf() -> Option<&'static str> {
    let has = |py: &str| {
        Command::new(py)
            .args(["-c", "import sigmf, numpy"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let pythons = ["python3", "/usr/bin/python3"];
    if let Some(py) = pythons.into_iter().find(|p| has(p)) {
        return Some(py);
    }
    for py in pythons {
        let _ = run_bounded(
            Command::new(py).args(["-m", "pip", "install", "--quiet", "sigmf"]),
            Duration::from_secs(180),
        );
        if has(py) {
            return Some(py);
        }
    }
    None
}

/// Runs `cmd` to its end or kills it after `limit`: (success, stdout).
fn run_bounded(cmd: &mut Command, limit: Duration) -> (bool, String) {
    let mut child = cmd.stdout(Stdio::piped()).spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let end = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap();
    (status.is_some_and(|s| s.success()), text)
}

fn peer(python: &str, args: &[&Path]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sigmf/sigmf_peer.py");
    let (ok, out) = run_bounded(
        Command::new(python).arg(script).args(args),
        Duration::from_secs(60),
    );
    assert!(ok, "the sigmf package failed on {args:?}: {out}");
    out
}

#[test]
fn the_sigmf_package_accepts_what_the_sink_writes_and_writes_what_the_source_reads() {
    let Some(python) = python_with_sigmf() else {
        eprintln!(
            "the_sigmf_package_...: SKIPPED: no Python imports sigmf and `pip install sigmf` failed"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // Ours, read and validated by the package: a pair in ci16_le and an archive in cf32_le.
    let data = signal(1000);
    for (file, name) in [("ours.sigmf-meta", "ci16_le"), ("ours.sigmf", "cf32_le")] {
        let path = dir.path().join(file);
        let dt = Datatype::parse(name).unwrap();
        write(&path, dt, data.clone(), given_tags());
        let text = peer(python, &[Path::new("read"), &path]);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["global"]["core:datatype"], name, "{file}");
        assert_eq!(v["global"]["core:sample_rate"], 2e6, "{file}");
        let captures = v["captures"].as_array().unwrap();
        assert_eq!(captures.len(), 2, "{file}: {captures:?}");
        assert_eq!(captures[0]["core:frequency"], 433.92e6);
        assert_eq!(captures[0]["core:datetime"], "2023-11-14T22:13:20.25Z");
        assert_eq!(captures[1]["core:sample_start"], 700);
        assert_eq!(captures[1]["core:frequency"], 868e6);
        let a = &v["annotations"][0];
        assert_eq!(
            (
                a["core:sample_start"].as_u64(),
                a["core:sample_count"].as_u64()
            ),
            (Some(100), Some(50))
        );
        assert_eq!(a["core:label"], "burst");
        let samples = v["samples"].as_array().unwrap();
        assert_eq!(samples.len(), data.len(), "{file}");
        for (s, want) in samples.iter().zip(&data) {
            let (re, im) = (s[0].as_f64().unwrap(), s[1].as_f64().unwrap());
            if name == "ci16_le" {
                let q = |v: f32| (f64::from(v) * 32768.0).round();
                assert_eq!((re, im), (q(want.re), q(want.im)), "{file}");
            } else {
                assert_eq!((re as f32, im as f32), (want.re, want.im), "{file}");
            }
        }
    }
    // The package's, read by the source.
    peer(python, &[Path::new("write"), dir.path()]);
    let (got, tags) = read::<Complex32>(&dir.path().join("py.sigmf-meta"));
    let want: Vec<Complex32> = (0..1000)
        .map(|i| Complex32::new(i as f32 / 32768.0, -2.0 * i as f32 / 32768.0))
        .collect();
    assert_eq!(got, want);
    let mut ann = Pmt::dict_from(Vec::<(Pmt, Pmt)>::new());
    ann.dict_add(Pmt::symbol("core:sample_count"), Pmt::Uint64(50));
    ann.dict_add(Pmt::symbol("core:freq_lower_edge"), Pmt::Double(914.9e6));
    ann.dict_add(Pmt::symbol("core:freq_upper_edge"), Pmt::Double(915.1e6));
    ann.dict_add(Pmt::symbol("core:label"), Pmt::symbol("burst"));
    assert_eq!(
        tags,
        vec![
            Tag::new(0, Pmt::symbol(RX_RATE), Pmt::Double(250e3)),
            Tag::new(0, Pmt::symbol(RX_FREQ), Pmt::Double(915e6)),
            time_tag(0, 1_700_000_000, 0.5),
            Tag::new(100, Pmt::symbol(ANNOTATION), ann),
            Tag::new(600, Pmt::symbol(RX_RATE), Pmt::Double(250e3)),
            Tag::new(600, Pmt::symbol(RX_FREQ), Pmt::Double(916e6)),
        ]
    );
    let (got, tags) = read::<Complex32>(&dir.path().join("pyarch.sigmf"));
    let want: Vec<Complex32> = (0..500)
        .map(|i| Complex32::new(i as f32 * 0.25, -(i as f32)))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        tags[1],
        Tag::new(0, Pmt::symbol(RX_FREQ), Pmt::Double(2.4e9))
    );
}

/// The sink writes `core:sha512` of its data file (equal to coreutils' `sha512sum` of it); the
/// source checks it as it reads, and a recording whose data was changed is an error naming
/// the field once the last sample is read.
#[test]
fn sha512_is_written_and_a_changed_data_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let meta = dir.path().join("x.sigmf-meta");
    let data_file = dir.path().join("x.sigmf-data");
    write(
        &meta,
        Datatype::parse("ci16_le").unwrap(),
        signal(5000),
        Vec::new(),
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&meta).unwrap()).unwrap();
    let written = json["global"]["core:sha512"].as_str().unwrap().to_owned();
    match Command::new("sha512sum").arg(&data_file).output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8(out.stdout).unwrap();
            assert_eq!(text.split_whitespace().next(), Some(written.as_str()));
        }
        _ => eprintln!("sha512sum not found: the hash is checked by the source only"),
    }
    assert_eq!(read::<Complex32>(&meta).0.len(), 5000);
    // One byte changed: every sample is still read, then the check fails, naming the field.
    let mut bytes = std::fs::read(&data_file).unwrap();
    bytes[1234] ^= 1;
    std::fs::write(&data_file, bytes).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(SigmfSource::<Complex32>::new(&meta).unwrap());
    let out = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, out).unwrap();
    let e = fg.run().unwrap_err().to_string();
    assert!(
        e.contains("core:sha512") && e.contains("x.sigmf-data") && e.contains("x.sigmf-meta"),
        "{e}"
    );
}

// Archives made by GNU tar (the `tar` on PATH): sparse members, links, FIFOs and devices named
// like a recording's files are refused by name; long names (GNU, pax, ustar) are read.

/// Runs GNU tar in `dir` with `args`; `false` (and a SKIPPED line) if there is none.
fn gnu_tar(dir: &Path, args: &[&str]) -> bool {
    match Command::new("tar").arg("--version").output() {
        Ok(o) if String::from_utf8_lossy(&o.stdout).contains("GNU tar") => {}
        _ => {
            eprintln!("SKIPPED: no GNU tar on PATH");
            return false;
        }
    }
    let out = Command::new("tar")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tar {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    true
}

const ARCHIVE_META: &str = r#"{"global": {"core:datatype": "cf32_le", "core:version": "1.2.0"}}"#;

/// `name.sigmf-meta` and `name.sigmf-data` in `dir` (the data: 512 complex samples, then a
/// 1 MiB hole, then 512 more, so GNU tar's -S finds a hole): the samples.
fn sparse_pair(dir: &Path, name: &str) -> Vec<Complex32> {
    use std::io::{Seek, SeekFrom, Write};
    let part = signal(512);
    let bytes: Vec<u8> = part
        .iter()
        .flat_map(|c| [c.re.to_le_bytes(), c.im.to_le_bytes()])
        .flatten()
        .collect();
    let mut f = std::fs::File::create(dir.join(format!("{name}.sigmf-data"))).unwrap();
    f.write_all(&bytes).unwrap();
    f.seek(SeekFrom::Current(1 << 20)).unwrap();
    f.write_all(&bytes).unwrap();
    std::fs::write(dir.join(format!("{name}.sigmf-meta")), ARCHIVE_META).unwrap();
    let mut all = part.clone();
    all.resize(512 + (1 << 20) / 8, Complex32::default());
    all.extend(part);
    all
}

fn open_error(path: &Path) -> String {
    SigmfSource::<Complex32>::new(path)
        .map(|_| "opened".to_owned())
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn a_sparse_member_of_an_archive_is_refused_by_name() {
    // GNU tar -S stores only the data around holes, with a map of them (GNU's old format in
    // the header and extension blocks; pax formats 0.0, 0.1 and 1.0 in pax records and the
    // member's data). Read in place, those bytes were taken for samples.
    let dir = tempfile::tempdir().unwrap();
    sparse_pair(dir.path(), "rec");
    std::fs::write(dir.path().join("after.txt"), "a member after the data").unwrap();
    let formats: [&[&str]; 4] = [
        &["--format=gnu"],
        &["--format=pax", "--sparse-version=0.0"],
        &["--format=pax", "--sparse-version=0.1"],
        &["--format=pax", "--sparse-version=1.0"],
    ];
    for format in formats {
        let mut args = format.to_vec();
        args.extend([
            "-S",
            "-cf",
            "rec.sigmf",
            "rec.sigmf-meta",
            "rec.sigmf-data",
            "after.txt",
        ]);
        if !gnu_tar(dir.path(), &args) {
            return;
        }
        let e = open_error(&dir.path().join("rec.sigmf"));
        assert!(
            e.contains("rec.sigmf: member 'rec.sigmf-data' is a sparse file (tar -S)"),
            "{format:?}: {e}"
        );
    }
}

#[test]
fn a_link_fifo_or_device_named_like_a_recording_file_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        &d.join("real.sigmf-meta"),
        Datatype::parse("cf32_le").unwrap(),
        signal(100),
        Vec::new(),
    );
    // A symbolic link to the data, a hard link (the second name of a file tar already
    // stored), a FIFO; each as the data of `rec`, the metadata a plain file.
    std::fs::write(d.join("rec.sigmf-meta"), ARCHIVE_META).unwrap();
    let cases: [(&str, &str); 3] = [
        ("symlink", "a symbolic link"),
        ("hardlink", "a hard link"),
        ("fifo", "a FIFO"),
    ];
    for (kind, words) in cases {
        let data = d.join("rec.sigmf-data");
        let _ = std::fs::remove_file(&data);
        let mut members = vec!["rec.sigmf-meta"];
        match kind {
            "symlink" => std::os::unix::fs::symlink("real.sigmf-data", &data).unwrap(),
            "hardlink" => {
                std::fs::hard_link(d.join("real.sigmf-data"), &data).unwrap();
                members.insert(0, "real.sigmf-data");
            }
            _ => {
                let ok = Command::new("mkfifo")
                    .arg(&data)
                    .status()
                    .unwrap()
                    .success();
                assert!(ok, "mkfifo");
            }
        }
        members.push("rec.sigmf-data");
        let mut args = vec!["--format=gnu", "-cf", "rec.sigmf"];
        args.extend(&members);
        if !gnu_tar(d, &args) {
            return;
        }
        let e = open_error(&d.join("rec.sigmf"));
        assert!(
            e.contains(&format!("rec.sigmf: member 'rec.sigmf-data' is {words}")),
            "{kind}: {e}"
        );
    }
    // The metadata as a symbolic link.
    let _ = std::fs::remove_file(d.join("rec.sigmf-data"));
    std::fs::copy(d.join("real.sigmf-data"), d.join("rec.sigmf-data")).unwrap();
    std::fs::remove_file(d.join("rec.sigmf-meta")).unwrap();
    std::os::unix::fs::symlink("real.sigmf-meta", d.join("rec.sigmf-meta")).unwrap();
    assert!(gnu_tar(
        d,
        &[
            "--format=gnu",
            "-cf",
            "rec.sigmf",
            "rec.sigmf-meta",
            "rec.sigmf-data"
        ]
    ));
    let e = open_error(&d.join("rec.sigmf"));
    assert!(
        e.contains("rec.sigmf: member 'rec.sigmf-meta' is a symbolic link"),
        "{e}"
    );
    // A character device (when this process may make one: root with CAP_MKNOD).
    let dev = d.join("dev");
    std::fs::create_dir(&dev).unwrap();
    std::fs::write(dev.join("rec.sigmf-meta"), ARCHIVE_META).unwrap();
    let made = Command::new("mknod")
        .arg(dev.join("rec.sigmf-data"))
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if made {
        assert!(gnu_tar(
            &dev,
            &[
                "--format=gnu",
                "-cf",
                "rec.sigmf",
                "rec.sigmf-meta",
                "rec.sigmf-data"
            ]
        ));
        let e = open_error(&dev.join("rec.sigmf"));
        assert!(
            e.contains("rec.sigmf: member 'rec.sigmf-data' is a character device"),
            "{e}"
        );
    } else {
        eprintln!("SKIPPED (the device case): mknod not permitted");
    }
}

#[test]
fn long_member_names_in_gnu_pax_and_ustar_archives_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let data = signal(300);
    // Directories making a path of 180 bytes: past ustar's 100-byte name (GNU: a long-name
    // member; pax: a path record; ustar: split into prefix and name).
    let deep = format!("{}/{}", "d".repeat(60), "e".repeat(60));
    let stem = format!("{deep}/{}", "r".repeat(40));
    std::fs::create_dir_all(dir.path().join(&deep)).unwrap();
    write(
        &dir.path().join(format!("{stem}.sigmf-meta")),
        Datatype::parse("cf32_le").unwrap(),
        data.clone(),
        Vec::new(),
    );
    for format in ["--format=gnu", "--format=pax", "--format=ustar"] {
        let meta = format!("{stem}.sigmf-meta");
        let data_name = format!("{stem}.sigmf-data");
        if !gnu_tar(
            dir.path(),
            &[format, "-cf", "long.sigmf", &meta, &data_name],
        ) {
            return;
        }
        let (got, _) = read::<Complex32>(&dir.path().join("long.sigmf"));
        assert_eq!(got, data, "{format}");
    }
}

#[test]
fn a_truncated_archive_is_refused_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sigmf");
    write(
        &path,
        Datatype::parse("cf32_le").unwrap(),
        signal(10_000),
        Vec::new(),
    );
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let e = open_error(&path);
    assert!(e.contains("t.sigmf: the archive ends inside member"), "{e}");
}
