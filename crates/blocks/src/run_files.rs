//! [`RunFiles`]: the files a run reads and writes, checked before any is opened, so that an
//! output never truncates an input (or another output).

use crate::sigmf::Location;
use radioflow_runtime::registry::PathUse;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The files a run will read and write, each named the way the user gave it (`--input`,
/// `block 'src' parameter 'path'`). [`check`](Self::check) refuses a run in which a file
/// written is also read or written elsewhere: same device and inode (a hard link, a symlink,
/// another spelling), or the same path once resolved (an output that does not exist yet).
/// Files that are not regular (FIFOs, devices such as `/dev/null`) are streams: never
/// refused.
///
/// ```
/// use radioflow_blocks::RunFiles;
/// use radioflow_blocks::runtime::registry::PathUse;
///
/// let dir = std::env::temp_dir().join(format!("radioflow-doc-runfiles-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("in.ts"), b"")?;
/// let mut files = RunFiles::new();
/// files.add("--input", dir.join("in.ts"), PathUse::Read);
/// files.add("--out", dir.join(".").join("in.ts"), PathUse::Write);
/// let e = files.check().unwrap_err();
/// assert!(e.to_string().starts_with("--out '"), "{e}");
/// assert!(e.to_string().contains("is the same file as --input"), "{e}");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct RunFiles {
    files: Vec<Used>,
}

/// One file of a run.
#[derive(Debug)]
struct Used {
    what: String,
    path: PathBuf,
    writes: bool,
}

/// A file written by a run is also read (or written) by it.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} '{}' is the same file as {} '{}': {}",
    .0.written,
    .0.written_path.display(),
    .0.other,
    .0.other_path.display(),
    if .0.other_writes {
        "both would write it; give each output its own file"
    } else {
        "writing it would destroy the input; write the output to another file"
    }
)]
pub struct SameFileError(Box<Clash>);

/// Both entries of a [`SameFileError`] (boxed: errors that hold one stay small).
#[derive(Debug)]
struct Clash {
    written: String,
    written_path: PathBuf,
    other: String,
    other_path: PathBuf,
    other_writes: bool,
}

impl RunFiles {
    /// No files yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the file(s) `path` names, used as `how` (a SigMF recording's pair of files, or
    /// its archive); `what` names it in errors.
    pub fn add(
        &mut self,
        what: impl Into<String>,
        path: impl AsRef<Path>,
        how: PathUse,
    ) -> &mut Self {
        let what = what.into();
        let path = path.as_ref();
        let paths = match how {
            PathUse::Read | PathUse::Write => vec![path.to_owned()],
            PathUse::ReadSigmf | PathUse::WriteSigmf => match Location::of(path) {
                Location::Pair { meta, data } => vec![meta, data],
                Location::Archive(archive) => vec![archive],
            },
        };
        self.files.extend(paths.into_iter().map(|path| Used {
            what: what.clone(),
            path,
            writes: how.writes(),
        }));
        self
    }

    /// Checks that no file written is read or written by another entry.
    ///
    /// # Errors
    /// [`SameFileError`] naming both entries and their paths.
    pub fn check(&self) -> Result<(), SameFileError> {
        let ids: Vec<Option<Identity>> = self.files.iter().map(|f| identity(&f.path)).collect();
        for (i, (a, id_a)) in self.files.iter().zip(&ids).enumerate() {
            for (b, id_b) in self.files.iter().zip(&ids).skip(i + 1) {
                if !(a.writes || b.writes) {
                    continue;
                }
                let (Some(x), Some(y)) = (id_a, id_b) else {
                    continue;
                };
                if x.same(y) {
                    let (written, other) = if a.writes { (a, b) } else { (b, a) };
                    return Err(SameFileError(Box::new(Clash {
                        written: written.what.clone(),
                        written_path: written.path.clone(),
                        other: other.what.clone(),
                        other_path: other.path.clone(),
                        other_writes: other.writes,
                    })));
                }
            }
        }
        Ok(())
    }
}

/// What makes two paths one file.
#[derive(Debug)]
struct Identity {
    /// The path with its directories (and the file, where it exists) resolved.
    resolved: PathBuf,
    /// Device and inode, where the file exists.
    inode: Option<(u64, u64)>,
}

impl Identity {
    fn same(&self, other: &Identity) -> bool {
        self.resolved == other.resolved || (self.inode.is_some() && self.inode == other.inode)
    }
}

/// The identity of the file at `path`; `None` for a file that is not regular (a FIFO or a
/// device is a stream, which writing does not destroy: `/dev/null` may be written twice).
fn identity(path: &Path) -> Option<Identity> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => None,
        Ok(m) => Some(Identity {
            resolved: std::fs::canonicalize(path).unwrap_or_else(|_| absolute(path)),
            inode: Some((m.dev(), m.ino())),
        }),
        // Not there yet: its directory resolved, and its name.
        Err(_) => {
            let resolved = match (path.parent(), path.file_name()) {
                (Some(dir), Some(name)) => {
                    let dir = if dir.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        dir
                    };
                    std::fs::canonicalize(dir).map_or_else(|_| absolute(path), |d| d.join(name))
                }
                _ => absolute(path),
            };
            Some(Identity {
                resolved,
                inode: None,
            })
        }
    }
}

/// `path` made absolute without touching the file system (for paths whose directory does not
/// exist either: the run fails on them later, with its own error).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(files: &[(&str, &Path, PathUse)]) -> Result<(), String> {
        let mut run = RunFiles::new();
        for (what, path, how) in files {
            run.add(*what, path, *how);
        }
        run.check().map_err(|e| e.to_string())
    }

    #[test]
    fn an_output_that_is_an_input_is_refused_however_it_is_spelled() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let input = d.join("in.ts");
        std::fs::write(&input, b"x").unwrap();
        std::os::unix::fs::symlink(&input, d.join("link.ts")).unwrap();
        std::fs::hard_link(&input, d.join("hard.ts")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        let (r, w) = (PathUse::Read, PathUse::Write);
        for out in [
            input.clone(),
            d.join("sub/../in.ts"),
            d.join("./in.ts"),
            d.join("link.ts"),
            d.join("hard.ts"),
        ] {
            let e = check(&[("--input", &input, r), ("--out", &out, w)]).unwrap_err();
            assert!(e.starts_with("--out '"), "{e}");
            assert!(e.contains("is the same file as --input '"), "{e}");
            assert!(e.contains("would destroy the input"), "{e}");
        }
        // Another file, a file not there yet, two readers of one file: all fine.
        check(&[("--input", &input, r), ("--out", &d.join("out.ts"), w)]).unwrap();
        check(&[("a", &input, r), ("b", &d.join("link.ts"), r)]).unwrap();
        // Two outputs into one file not there yet.
        let new = d.join("new.cf32");
        let e = check(&[("a", &new, w), ("b", &d.join("sub/../new.cf32"), w)]).unwrap_err();
        assert!(e.contains("both would write it"), "{e}");
    }

    #[test]
    fn a_sigmf_recording_is_its_pair_of_files_or_its_archive() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("rec.sigmf-meta"), b"{}").unwrap();
        std::fs::write(d.join("rec.sigmf-data"), b"").unwrap();
        let data = d.join("rec.sigmf-data");
        let e = check(&[
            ("src", &d.join("rec.sigmf-meta"), PathUse::ReadSigmf),
            ("sink", &data, PathUse::Write),
        ])
        .unwrap_err();
        assert!(e.contains("rec.sigmf-data' is the same file as src"), "{e}");
        check(&[
            ("src", &data, PathUse::Read),
            ("sink", &d.join("rec"), PathUse::WriteSigmf),
        ])
        .unwrap_err();
        // A raw file converted into a SigMF recording of the same base name: other files.
        std::fs::write(d.join("capture"), b"").unwrap();
        check(&[
            ("src", &d.join("capture"), PathUse::Read),
            ("sink", &d.join("capture"), PathUse::WriteSigmf),
        ])
        .unwrap();
    }

    #[test]
    fn streams_are_not_files_an_output_destroys() {
        let null = Path::new("/dev/null");
        check(&[("a", null, PathUse::Write), ("b", null, PathUse::Write)]).unwrap();
        check(&[("a", null, PathUse::Read), ("b", null, PathUse::Write)]).unwrap();
    }
}
