//! What can be wrong with a graph file.

use radioflow_runtime::echo::{cut, cut_list, cut_message};
use std::path::PathBuf;

/// A graph file that cannot be read or built; the message names the file and what is at
/// fault in it (text from the file cut to a readable length).
#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Read {
        /// The graph file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not TOML, or not a graph (the message says where).
    #[error("{file}: {}", cut_message(message))]
    Syntax {
        /// The graph file.
        file: PathBuf,
        /// What and where.
        message: String,
    },
    /// A block could not be made (unknown id, bad parameter).
    #[error("{file}: block '{}': {}", cut(name), cut_message(message))]
    Block {
        /// The graph file.
        file: PathBuf,
        /// The instance name in the file.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// A GRC variable that cannot be set to a value while the graph runs, or whose widget's
    /// parameters do not evaluate.
    #[error("{file}: variable '{}': {}", cut(name), cut_message(message))]
    Variable {
        /// The graph file.
        file: PathBuf,
        /// The variable's name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// GNU Radio blocks radioflow does not implement (`radioflow grc list` shows those it
    /// does), all of them.
    #[error("{file}: GNU Radio blocks radioflow does not run: {} (`radioflow grc list` shows the supported ones)", cut_list(blocks))]
    Unsupported {
        /// The graph file.
        file: PathBuf,
        /// Each as `id (name)`.
        blocks: Vec<String>,
        /// The GNU Radio ids among them, each once, in the file's order.
        ids: Vec<String>,
    },
    /// A hierarchical block (GRC's `generate_options: hb`): a block of the flowgraphs that use
    /// it (under its options' `id`), which GNU Radio does not run alone either. Its blocks
    /// were checked with its parameters' defaults.
    #[error("{file}: a hierarchical block (generate_options: hb), the block '{}' of the flowgraphs that use it: GNU Radio does not run it alone either; run a flowgraph that uses it", cut(id))]
    HierBlock {
        /// The graph file.
        file: PathBuf,
        /// The block id it defines (its options' `id`).
        id: String,
    },
    /// A block would write a file another block reads or writes.
    #[error("{file}: {source}")]
    SameFile {
        /// The graph file.
        file: PathBuf,
        /// The blocks and the file.
        source: radioflow_library::SameFileError,
    },
    /// A connection the flowgraph refused, or that names no block.
    #[error("{file}: connection '{}': {}", cut(connection), cut_message(message))]
    Connection {
        /// The graph file.
        file: PathBuf,
        /// The connection as written.
        connection: String,
        /// Why it was refused.
        message: String,
    },
}
