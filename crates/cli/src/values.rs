//! The command line's values: the numbers (parsed as the experiments' arguments parse them,
//! `radioflow_bench::values`) and the paths a command writes, checked before it runs.

pub(crate) use radioflow_bench::values::{bytes, count, positive, seconds, token};
use radioflow_blocks::runtime::registry::PathUse;

/// How a command reads its `--input`: a SigMF recording by any of its names (both of its
/// files, or its archive), else the file itself (for [`radioflow_blocks::RunFiles`]).
pub(crate) fn reads(input: &std::path::Path) -> PathUse {
    if radioflow_blocks::sigmf::is_sigmf(input) {
        PathUse::ReadSigmf
    } else {
        PathUse::Read
    }
}

/// Checks before a run that `path` can be written (creating it), so that a long run does not
/// fail at its end; the error names the option.
pub(crate) fn writable_file(path: &std::path::Path, option: &str) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("{option} {}: is a directory, not a file", path.display());
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| anyhow::anyhow!("{option} {}: cannot write: {e}", path.display()))
}

/// Checks before a run that files can be written in directory `dir` (creating it).
pub(crate) fn writable_dir(dir: &std::path::Path, option: &str) -> anyhow::Result<()> {
    let fail = |e: std::io::Error| anyhow::anyhow!("{option} {}: cannot write: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(".radioflow-write-test");
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(probe).map_err(fail)
}
