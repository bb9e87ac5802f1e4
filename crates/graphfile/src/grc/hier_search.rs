//! Where a hierarchical block's `.grc` is found ([`HierSearch`]), as GNU Radio Companion
//! finds it, and the chain of files being inlined (a file that uses itself is refused).
//!
//! GRC compiles a flowgraph whose options say `generate_options: hb` into a block named by its
//! options' `id`. Opening a flowgraph that uses such a block, GRC looks for `<id>.grc` in the
//! directories of the flowgraph's own `hier_block_src_path` option (`.:` unless changed:
//! the flowgraph's directory), relative to the flowgraph's directory; then among the blocks
//! it has compiled before (`~/.grc_gnuradio/<id>.block.yml` and the directories of
//! `GRC_BLOCKS_PATH`), whose `grc_source` names the `.grc` they were made from. radioflow
//! looks in the same places, in that order, and also for `<id>.grc` itself in the directories
//! of `GRC_BLOCKS_PATH` (where a user keeps hierarchical flowgraphs without compiling them).

use std::path::{Path, PathBuf};

/// How many hierarchical blocks may be nested inside one another.
pub(super) const MAX_NESTING: usize = 16;

/// The files being inlined, outermost first: empty for the flowgraph being loaded itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct HierSearch {
    pub(super) chain: Vec<PathBuf>,
}

impl HierSearch {
    /// True when the file being described is a hierarchical block used by another.
    pub(super) fn inlining(&self) -> bool {
        !self.chain.is_empty()
    }

    /// The search one level down, into `file`; an error when `file` is already being inlined
    /// (a cycle) or the nesting is too deep.
    pub(super) fn enter(&self, file: &Path) -> Result<Self, String> {
        let canonical = file.canonicalize().unwrap_or_else(|_| file.to_owned());
        if let Some(at) = self.chain.iter().position(|f| *f == canonical) {
            let cycle: Vec<String> = self.chain[at..]
                .iter()
                .chain([&canonical])
                .map(|f| f.display().to_string())
                .collect();
            return Err(format!(
                "hierarchical blocks that use each other: {}",
                cycle.join(" uses ")
            ));
        }
        if self.chain.len() >= MAX_NESTING {
            return Err(format!(
                "hierarchical blocks nested more than {MAX_NESTING} deep"
            ));
        }
        let mut chain = self.chain.clone();
        chain.push(canonical);
        Ok(Self { chain })
    }

    /// The `.grc` defining block `id` for the flowgraph `file` whose `hier_block_src_path`
    /// option is `src_path`, or None.
    pub(super) fn find(&self, id: &str, file: &Path, src_path: &str) -> Option<PathBuf> {
        // An id is a Python identifier: nothing that leaves a directory.
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        let name = format!("{id}.grc");
        let dir = file.parent().unwrap_or(Path::new("."));
        for path in src_path.split(':').filter(|p| !p.is_empty()) {
            let path = expand_home(path);
            // `./x.grc` written without its `.`.
            let candidate: PathBuf = dir
                .join(path)
                .join(&name)
                .components()
                .filter(|c| *c != std::path::Component::CurDir)
                .collect();
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        let compiled = |dir: &Path| -> Option<PathBuf> {
            let direct = dir.join(&name);
            if direct.is_file() {
                return Some(direct);
            }
            grc_source(&dir.join(format!("{id}.block.yml")))
        };
        blocks_path().iter().find_map(|dir| compiled(dir))
    }
}

/// `~/x` as the user's home directory's `x`.
fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
}

/// The directories of `GRC_BLOCKS_PATH`, then GRC's own directory of compiled hierarchical
/// blocks (`~/.grc_gnuradio`).
fn blocks_path() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var("GRC_BLOCKS_PATH")
        .unwrap_or_default()
        .split(':')
        .filter(|p| !p.is_empty())
        .map(expand_home)
        .collect();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".grc_gnuradio"));
    }
    dirs
}

/// The `.grc` a GRC-compiled `<id>.block.yml` was made from (its `grc_source: PATH` line),
/// when that file is there.
fn grc_source(block_yml: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(block_yml).ok()?;
    let line = text.lines().find_map(|l| l.strip_prefix("grc_source:"))?;
    let path = PathBuf::from(line.trim().trim_matches(['\'', '"']));
    path.is_file().then_some(path)
}
