//! The Python entries of a `.grc` file (`epy_block`, `epy_module`, `snippet`, and the
//! `import` blocks they need) as the loader collects them for the Python package
//! (`embedded.rs`), with the variables' values.

use super::entries::Entry;
use super::value::Value;

/// The GRC ids whose code is Python that runs: such a file runs through the Python package.
pub const PYTHON_IDS: &[&str] = &["epy_block", "epy_module", "snippet"];

/// A Python entry of the file (or an `import` block, which the Python side needs too).
#[derive(Clone, Debug)]
pub struct PythonEntry {
    /// The block's name in the file (`epy_block_0`).
    pub name: String,
    /// Its GRC id (`epy_block`, `epy_module`, `snippet`, `import`).
    pub id: String,
    /// Its parameters as written (`_source_code`, `code`, `section`, an epy_block's
    /// constructor arguments as expressions).
    pub params: Vec<(String, String)>,
}

/// Collects, while `describe.rs` reads a file, what the Python side needs.
#[derive(Debug, Default)]
pub(crate) struct Collect {
    pub(crate) python: Vec<PythonEntry>,
    pub(crate) variables: Vec<(String, String, Result<Value, String>)>,
}

impl Collect {
    /// Keeps `e` when it is a Python or `import` entry.
    pub(crate) fn entry(&mut self, e: &Entry) {
        if e.state == "enabled" && (PYTHON_IDS.contains(&e.id.as_str()) || e.id == "import") {
            let mut params: Vec<(String, String)> = e
                .params
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            params.sort();
            self.python.push(PythonEntry {
                name: e.name.clone(),
                id: e.id.clone(),
                params,
            });
        }
    }
}
