//! Graph files: a flowgraph written as TOML, its blocks made from the block library's
//! descriptions ([`radioflow_runtime::registry`]), so every registered block is usable here
//! without more code. `radioflow run FILE.toml` runs one; `radioflow blocks` lists what a
//! file can name.
//!
//! ```toml
//! # A tone, 48,000 samples of it, written to a file.
//! connections = ["src -> head -> sink"]
//!
//! [blocks]
//! src = { block = "signal_source", dtype = "complex64", sample_rate = 48e3, waveform = "cosine", frequency = 1e3 }
//! head = { block = "head", dtype = "complex64", n = 48000 }
//! sink = { block = "file_sink", dtype = "complex64", path = "tone.cf32" }
//! ```
//!
//! - `[blocks]`: one entry per block instance, keyed by its name: `block` (the library id),
//!   `dtype` (optional: the block's default item type), and the block's parameters by name
//!   (numbers, booleans, strings, arrays); `host` (optional) names the host it runs on when
//!   the graph is spread over machines (`radioflow run --hosts`, crate `radioflow-hosts`).
//! - `connections`: stream chains `"a -> b -> c"`; a port is named `block.port` (by name or
//!   index: `mixer.in1`, `mixer.1`); without one, port 0.
//! - `messages`: message links `"a.out -> b.in"` (message ports are always named).
//!
//! Every mistake is a [`GraphError`] naming the file and the block, parameter, port or line.
//! A graph in which a block writes a file that another block reads or writes (any spelling of
//! its path, a link to it) is refused before any block is made, naming both blocks.
//!
//! GNU Radio Companion flowgraphs (`.grc`) are read too: see [`grc`].

mod description;
mod error;
mod file;
pub mod grc;

pub use description::{BlockSpec, BuiltGraph, Connection, End, GraphDescription, GuiView};
pub use error::GraphError;
pub use file::{describe, describe_file, load, parse};
pub use grc::{describe_grc, describe_grc_file, load_grc, parse_grc};

/// Reads the graph file at `path`: GNU Radio Companion's `.grc`, else radioflow's TOML.
pub fn load_any(path: impl AsRef<std::path::Path>) -> Result<BuiltGraph, GraphError> {
    let path = path.as_ref();
    if path.extension().is_some_and(|e| e == "grc") {
        load_grc(path)
    } else {
        load(path)
    }
}

/// Reads the graph file at `path` into a description: GNU Radio Companion's `.grc` (a block's
/// host from a `host=NAME` line in its comment), else radioflow's TOML (`host = "..."`).
pub fn describe_any(path: impl AsRef<std::path::Path>) -> Result<GraphDescription, GraphError> {
    let path = path.as_ref();
    if path.extension().is_some_and(|e| e == "grc") {
        describe_grc_file(path)
    } else {
        describe_file(path)
    }
}
