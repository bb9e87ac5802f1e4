//! Errors of building and running a flowgraph. Every message names the block and port at fault.

use std::fmt;

/// Which way a port faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// A stream input.
    StreamInput,
    /// A stream output.
    StreamOutput,
    /// A message input.
    MessageInput,
    /// A message output.
    MessageOutput,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::StreamInput => "stream input",
            Direction::StreamOutput => "stream output",
            Direction::MessageInput => "message input",
            Direction::MessageOutput => "message output",
        })
    }
}

/// A connection the flowgraph refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConnectError {
    /// The block id does not belong to this flowgraph.
    #[error("no block with id {0} in this flowgraph")]
    UnknownBlock(usize),
    /// The block has no such port.
    #[error("block '{block}' has no {direction} '{port}' (it has: {available})")]
    UnknownPort {
        /// Block name.
        block: String,
        /// The port asked for.
        port: String,
        /// Which kind of port was asked for.
        direction: Direction,
        /// The ports of that kind the block has, comma separated.
        available: String,
    },
    /// The two stream ports carry different item types.
    #[error("item type mismatch: {src} produces {src_type} but {dst} expects {dst_type}")]
    TypeMismatch {
        /// `block.port` of the output.
        src: String,
        /// Its item type.
        src_type: String,
        /// `block.port` of the input.
        dst: String,
        /// Its item type.
        dst_type: String,
    },
    /// A stream input can have only one writer.
    #[error("stream input {dst} is already connected (to {existing})")]
    InputAlreadyConnected {
        /// `block.port` of the input.
        dst: String,
        /// `block.port` of the output already connected to it.
        existing: String,
    },
    /// Connecting is not possible while the graph runs.
    #[error("cannot change a running flowgraph")]
    Running,
}

/// Why a flowgraph could not run, or how its run ended badly.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// A required stream input has no writer.
    #[error("stream input {0} is not connected")]
    UnconnectedInput(String),
    /// A stream output has no reader.
    #[error("stream output {0} is not connected")]
    UnconnectedOutput(String),
    /// The stream connections form a cycle.
    #[error("the stream graph has a cycle through blocks: {}", .0.join(" -> "))]
    Cycle(Vec<String>),
    /// The graph is empty.
    #[error("the flowgraph has no blocks")]
    Empty,
    /// A block's `start` hook failed.
    #[error("block '{block}' failed to start: {error}")]
    StartFailed {
        /// Block name.
        block: String,
        /// What it reported.
        error: String,
    },
    /// A block returned an error from `work`, a message handler or `stop`.
    #[error("block '{block}' failed: {error}")]
    BlockFailed {
        /// Block name.
        block: String,
        /// What it reported.
        error: String,
    },
    /// A block panicked.
    #[error("block '{block}' panicked: {message}")]
    BlockPanicked {
        /// Block name.
        block: String,
        /// The panic message.
        message: String,
    },
    /// A block can never make progress again: it holds a full input and does not consume it
    /// (it needs a larger window than it declared).
    #[error("block '{block}' is stuck: {error}")]
    Stalled {
        /// Block name.
        block: String,
        /// The stream input it cannot empty.
        port: String,
        /// What the runtime saw.
        error: String,
    },
    /// [`Flowgraph::wait`](crate::Flowgraph::wait) was called from one of the graph's own
    /// blocks, which would wait for itself forever.
    #[error("wait() called from a block of the same flowgraph (it would wait for itself)")]
    WaitFromBlock,
    /// [`Flowgraph::wait_timeout`](crate::Flowgraph::wait_timeout) gave up: the run had not
    /// ended. `blocks` had not returned from block code (a work call, a message handler, a
    /// stop hook); `waiting` had not finished either, but were idle, waiting for a neighbour
    /// (input, output space, a message, or the end of their readers or senders). The run goes
    /// on; wait again, or stop it and wait.
    #[error(
        "after {waited:?}, blocks still running their code: {}; blocks not finished, waiting \
         for a neighbour: {}",
        names(blocks),
        names(waiting)
    )]
    Unresponsive {
        /// The blocks inside a step when the time ran out.
        blocks: Vec<String>,
        /// The other blocks that had not finished when the time ran out.
        waiting: Vec<String>,
        /// How long the call waited.
        waited: std::time::Duration,
    },
    /// A stream buffer could not be set up: an impossible size, or no memory for it.
    #[error("cannot set up the buffer of {port}: {error}")]
    Buffer {
        /// `block.port` of the output.
        port: String,
        /// The system error.
        error: String,
    },
    /// A scheduler thread could not be started or died.
    #[error("scheduler '{scheduler}': {error}")]
    Scheduler {
        /// Scheduler name.
        scheduler: String,
        /// What went wrong.
        error: String,
    },
    /// `start` while already running.
    #[error("the flowgraph is already running")]
    AlreadyRunning,
    /// `wait` without `start`.
    #[error("the flowgraph is not running")]
    NotRunning,
}

/// Block names for a message: comma separated, `none` for none.
fn names(blocks: &[String]) -> String {
    if blocks.is_empty() {
        "none".into()
    } else {
        blocks.join(", ")
    }
}

impl RunError {
    /// The block at fault, if the error is about one block.
    pub fn block(&self) -> Option<&str> {
        match self {
            RunError::StartFailed { block, .. }
            | RunError::BlockFailed { block, .. }
            | RunError::BlockPanicked { block, .. }
            | RunError::Stalled { block, .. } => Some(block),
            _ => None,
        }
    }
}

/// An error reported by a block's code.
#[derive(Debug)]
pub struct BlockError(Box<dyn std::error::Error + Send + Sync>);

impl BlockError {
    /// An error with a message.
    pub fn msg(message: impl Into<String>) -> Self {
        Self(message.into().into())
    }
}

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for BlockError {
    fn from(e: E) -> Self {
        Self(Box::new(e))
    }
}
