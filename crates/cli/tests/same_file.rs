//! An output that is the run's input (the same path, another spelling, a symlink) is refused
//! before any file is opened, by every command that reads and writes files: the input stays
//! whole and the error names both arguments.

use std::path::Path;
use std::process::Command;

/// Runs `radioflow ARGS` in `dir`: (exit code, stderr).
fn radioflow(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `args` fails, naming `written` and `read`, and leaves `file` as it was.
fn refused(dir: &Path, args: &[&str], written: &str, read: &str, file: &str) {
    let before = std::fs::read(dir.join(file)).unwrap();
    let (code, err) = radioflow(dir, args);
    assert_eq!(code, Some(1), "{args:?} was not refused: {err}");
    assert!(
        err.contains(&format!("{written} '"))
            && err.contains(&format!("is the same file as {read} '")),
        "{args:?}: {err}"
    );
    assert!(err.contains("would destroy the input"), "{args:?}: {err}");
    assert_eq!(
        std::fs::read(dir.join(file)).unwrap(),
        before,
        "{args:?} changed {file}"
    );
}

#[test]
fn no_command_writes_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let packet: Vec<u8> = std::iter::once(0x47).chain([0u8; 187]).collect();
    std::fs::write(d.join("g.ts"), packet.repeat(200)).unwrap();
    std::os::unix::fs::symlink(d.join("g.ts"), d.join("link.ts")).unwrap();
    std::fs::write(d.join("x.cf32"), [0u8; 8 * 1000]).unwrap();
    std::fs::write(d.join("r.cu8"), [127u8; 48_000]).unwrap();

    let tx = ["dvbs2", "tx", "--input", "g.ts", "--out"];
    refused(
        d,
        &[&tx[..], &["./g.ts"]].concat(),
        "--out",
        "--input",
        "g.ts",
    );
    refused(
        d,
        &[&tx[..], &["link.ts"]].concat(),
        "--out",
        "--input",
        "g.ts",
    );
    let rx = ["dvbs2", "rx", "--input", "x.cf32", "--out", "x.cf32"];
    refused(d, &rx, "--out", "--input", "x.cf32");
    let fm = [
        "fm", "--input", "r.cu8", "--format", "cu8", "--rate", "2.4e6", "--offset", "0",
    ];
    refused(
        d,
        &[&fm[..], &["--wav", "r.cu8"]].concat(),
        "--wav",
        "--input",
        "r.cu8",
    );

    // Graph files: any source and sink of one file, whatever the blocks.
    std::fs::write(
        d.join("same.toml"),
        "connections = [\"src -> sink\"]\n[blocks]\n\
         src = { block = \"file_source\", dtype = \"uint8\", path = \"g.ts\" }\n\
         sink = { block = \"file_sink\", dtype = \"uint8\", path = \"link.ts\" }\n",
    )
    .unwrap();
    let run = ["run", "same.toml"];
    refused(d, &run, "block 'sink' path", "block 'src' path", "g.ts");
    std::fs::write(
        d.join("same.grc"),
        "blocks:
- name: src
  id: blocks_file_source
  parameters: {file: g.ts, type: byte, repeat: 'False', vlen: '1'}
- name: sink
  id: blocks_file_sink
  parameters: {file: ./g.ts, type: byte, append: 'False', vlen: '1'}
connections:
- [src, '0', sink, '0']
metadata:
  file_format: 1
",
    )
    .unwrap();
    let run = ["run", "same.grc"];
    refused(d, &run, "block 'sink' path", "block 'src' path", "g.ts");

    // Another output is fine.
    let (code, err) = radioflow(d, &[&tx[..], &["out.cf32"]].concat());
    assert_eq!(code, Some(0), "{err}");
}
