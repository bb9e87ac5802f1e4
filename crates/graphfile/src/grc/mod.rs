//! GNU Radio Companion flowgraphs (`.grc`, YAML, file_format 1): variables and parameter
//! expressions evaluated by `expr.rs` (a safe subset of Python, nothing executed), the GNU
//! Radio blocks radioflow implements mapped to its own (`blocks.rs`), and the graph described
//! ([`describe_grc`]: what `radioflow run --hosts` cuts; a block's host is a `host=NAME` line
//! in its comment) and built, or one error listing every block that is not supported, before
//! anything runs.

mod adaptive_algorithm;
mod args;
mod blocks;
mod constants;
mod describe;
mod digital;
mod embedded;
mod entries;
mod expr;
mod expr_error;
mod fec;
mod filter_taps;
mod functions;
mod generic_mod;
mod gui_views;
mod header_format;
mod hier_inline;
mod hier_search;
mod live;
mod modulate;
mod numpy;
mod overrides;
mod python;
mod python_entry;
mod tags;
mod token;
mod value;
mod widgets;
mod window;
mod yaml;

use crate::{BuiltGraph, GraphDescription, GraphError};
pub use constants::gnuradio_constants;
pub use embedded::{describe_grc_embedded, python_entries, EmbeddedGrc, PythonEntry, PYTHON_IDS};
pub use expr::evaluate;
pub use expr_error::{ExprError, MAX_DEPTH, MAX_ITEMS, MAX_STEPS, MAX_TOTAL_ITEMS};
pub use generic_mod::GenericMod;
pub use live::{LiveChange, LiveGrc};
use radioflow_library::gnuradio;
use std::path::Path;
pub use value::{Lambda, Value};
pub use widgets::{Widget, WidgetKind, WidgetMessage};

/// The GNU Radio block ids radioflow runs, with the radioflow block each becomes (the rows
/// of [`radioflow_library::gnuradio`]).
pub fn supported() -> Vec<(&'static str, &'static str)> {
    gnuradio::rows().map(|r| (r.id, r.block)).collect()
}

/// Reads and builds the GRC flowgraph at `path`.
pub fn load_grc(path: impl AsRef<Path>) -> Result<BuiltGraph, GraphError> {
    describe_grc_file(path)?.build()
}

/// Reads the GRC flowgraph at `path` into a description (blocks checked, not made).
pub fn describe_grc_file(path: impl AsRef<Path>) -> Result<GraphDescription, GraphError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| GraphError::Read {
        file: path.to_owned(),
        source,
    })?;
    describe_grc(&text, path)
}

/// Builds the GRC flowgraph written in `text` (`file` names it in errors).
pub fn parse_grc(text: &str, file: impl AsRef<Path>) -> Result<BuiltGraph, GraphError> {
    describe_grc(text, file)?.build()
}

/// Describes the GRC flowgraph written in `text` (`file` names it in errors): every block
/// mapped and its parameters checked against the library, the connections resolved through
/// virtual sinks/sources and bypassed blocks.
pub fn describe_grc(text: &str, file: impl AsRef<Path>) -> Result<GraphDescription, GraphError> {
    describe::describe_grc_with(text, file.as_ref(), &overrides::Overrides::default(), false)
        .map(|(graph, _)| graph)
}
