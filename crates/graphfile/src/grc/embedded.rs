//! `.grc` files with embedded Python: GRC's `epy_block` (a block class written in the file),
//! `epy_module` (a module the file's expressions and snippets import) and `snippet` (code run
//! at a point of the flowgraph's life). radioflow's Rust side runs no Python: such a file runs
//! through the Python package (`python3 -m radioflow.gnuradio FILE.grc`), which asks for the
//! file described here ([`describe_grc_embedded`]): every other block mapped and checked as
//! [`describe_grc`](super::describe_grc) does, the Python entries handed back as written, the
//! variables' values, and the variables the package evaluated itself (those naming an
//! `epy_module`) held at the values it gives.

use super::describe;
use super::entries::entries;
use super::overrides::Overrides;
use super::python_entry::Collect;
pub use super::python_entry::{PythonEntry, PYTHON_IDS};
use super::value::Value;
use super::yaml;
use crate::{GraphDescription, GraphError};
use std::collections::HashMap;
use std::path::Path;

/// What the Python package needs of a file with embedded Python.
#[derive(Debug)]
pub struct EmbeddedGrc {
    /// The graph without its `epy_block`s (its connections name them), or the error that
    /// stopped describing it.
    pub graph: Result<GraphDescription, GraphError>,
    /// The enabled Python and `import` entries, in the file's order.
    pub python: Vec<PythonEntry>,
    /// Every variable: its name, its expression as written, and its value or the evaluator's
    /// error (a variable naming an `epy_module` fails here until the Python side values it).
    pub variables: Vec<(String, String, Result<Value, String>)>,
}

/// The names and ids of the enabled Python entries of the `.grc` file `text` (empty for a
/// file without any, or one that is not a GRC file: the loader reports that).
pub fn python_entries(text: &str) -> Vec<(String, String)> {
    let Ok(doc) = yaml::load(text) else {
        return Vec::new();
    };
    let Ok(all) = entries(&doc) else {
        return Vec::new();
    };
    all.iter()
        .filter(|e| e.state == "enabled" && PYTHON_IDS.contains(&e.id.as_str()))
        .map(|e| (e.name.clone(), e.id.clone()))
        .collect()
}

/// Reads the `.grc` file at `path` for the Python package, the variables in `values` held
/// at the values given.
///
/// # Errors
/// The file cannot be read. A graph that cannot be described (not a GRC file, a block
/// radioflow lacks) is [`EmbeddedGrc::graph`]'s error, with what was read before it.
pub fn describe_grc_embedded(
    path: &Path,
    values: HashMap<String, Value>,
) -> Result<EmbeddedGrc, GraphError> {
    let text = std::fs::read_to_string(path).map_err(|source| GraphError::Read {
        file: path.to_owned(),
        source,
    })?;
    let overrides = Overrides {
        values,
        expressions: HashMap::new(),
    };
    let mut collect = Collect::default();
    let graph = describe::describe_grc_python(&text, path, &overrides, &mut collect);
    Ok(EmbeddedGrc {
        graph,
        python: collect.python,
        variables: collect.variables,
    })
}
