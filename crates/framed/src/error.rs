//! Errors of building ([`BuildError`]) and running ([`ExecError`]) sequences and pipelines.

/// Why a graph, sequence or pipeline could not be built. Sockets are named `task::socket`.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BuildError {
    /// An input socket is not bound to any output.
    #[error("input {0} is not bound")]
    Unbound(String),
    /// A task has no codelet.
    #[error("task '{0}' has no codelet")]
    NoCodelet(String),
    /// Binding sockets of different element types.
    #[error("cannot bind {input} ({input_type}) to {output} ({output_type}): types differ")]
    TypeMismatch {
        /// The input socket.
        input: String,
        /// Its element type.
        input_type: &'static str,
        /// The output socket.
        output: String,
        /// Its element type.
        output_type: &'static str,
    },
    /// Binding sockets of different lengths.
    #[error("cannot bind {input} ({input_len} elements) to {output} ({output_len} elements)")]
    LengthMismatch {
        /// The input socket.
        input: String,
        /// Its length.
        input_len: usize,
        /// The output socket.
        output: String,
        /// Its length.
        output_len: usize,
    },
    /// An input can read only one output.
    #[error("input {input} is already bound to {output}")]
    AlreadyBound {
        /// The input socket.
        input: String,
        /// The output it reads already.
        output: String,
    },
    /// No socket has this `task::socket` name.
    #[error("no socket named {0}")]
    UnknownSocket(String),
    /// Several sockets have this `task::socket` name.
    #[error("several sockets are named {0}")]
    Ambiguous(String),
    /// A task would read its own output through a switcher (its input and output would be the
    /// same buffer).
    #[error("{input} may read {output}, an output of the same task (through a switcher)")]
    ReadsOwnOutput {
        /// The input socket.
        input: String,
        /// The output of the same task it may alias.
        output: String,
    },
    /// A task reads a task that is not in the sequence, or in a later pipeline stage.
    #[error("{input} reads {output}, which is not in the sequence or runs in a later stage")]
    OutsideSequence {
        /// The input socket.
        input: String,
        /// The output it reads.
        output: String,
    },
    /// A task can never run: one of its inputs is never visited (a cycle not closed by a
    /// switcher's select, or a select whose last input is unbound in this stage).
    #[error("task '{0}' is never reached (a cycle without a switcher, or an input from nowhere)")]
    Unreachable(String),
    /// A switcher's paths do not form a loop or a switch (a path reaches two switchers).
    #[error("switcher '{0}': a path reaches two different switchers")]
    Unstructured(String),
    /// A replicated stage holds a module or codelet that cannot be cloned.
    #[error("stage {stage} is replicated but task '{task}' cannot be cloned")]
    NotCloneable {
        /// Stage index.
        stage: usize,
        /// The task.
        task: String,
    },
    /// A task is listed in no stage, in two stages, or a module's tasks are split over stages.
    #[error("task '{0}' must be in exactly one stage, with every task of its module")]
    StageMembership(String),
    /// A switcher's select and commute or its paths are in different stages.
    #[error("switcher '{0}' spans several stages")]
    SwitcherSplit(String),
    /// A pipeline parameter is out of range.
    #[error("{0}")]
    Params(String),
}

/// Why executing a sequence or pipeline stopped.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExecError {
    /// A commute got a path it does not have.
    #[error("switcher '{switcher}': path {path} of {paths}")]
    PathOutOfRange {
        /// The switcher.
        switcher: String,
        /// The path it got.
        path: u32,
        /// How many it has.
        paths: u32,
    },
    /// A task panicked (in a pipeline thread).
    #[error("stage {stage}: task '{task}' panicked: {message}")]
    Panicked {
        /// Stage index.
        stage: usize,
        /// The task that panicked.
        task: String,
        /// The panic message.
        message: String,
    },
}
