//! radioflow runtime: lock-free stream buffers, typed ports, blocks, flowgraphs and schedulers.
//!
//! - [`Block`]: the trait every block implements, usually declared with `#[derive(Ports)]` on
//!   the struct and [`macro@block`] on its impl; its ports are fields
//!   ([`StreamInput`], [`StreamOutput`], [`MessageOutput`]) listed to a [`Ports`](struct@Ports) visitor.
//! - [`Flowgraph`]: add blocks, [`connect`](Flowgraph::connect) ports, [`run`](Flowgraph::run).
//! - [`Scheduler`]s: [`ThreadPerBlock`] (`tpb`) and [`SingleThread`] (`single`).
//! - Stream buffers are mapped twice back to back so every window is one slice; positions are
//!   atomics, and a thread sleeps on a [`Parker`] only when nothing can move.
//!
//! ```
//! use radioflow_runtime::prelude::*;
//! use radioflow_runtime::testing::{Counter, Sink};
//!
//! let mut fg = Flowgraph::new();
//! let src = fg.add(Counter::new(10_000));
//! let sink = fg.add(Sink::new());
//! fg.connect(src, sink)?;
//! fg.run_with(&ThreadPerBlock::new())?;
//! let got = &fg.block::<Sink>(sink).unwrap().items;
//! assert!(got.iter().copied().eq(0..10_000u32));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// The declarative block macros name `::radioflow_runtime`; inside this crate that is itself.
extern crate self as radioflow_runtime;

mod activation;
mod atomics;
mod block;
mod block_id;
mod buffer;
mod clock;
mod copy;
mod current_run;
pub mod echo;
mod endpoint;
mod error;
mod events;
mod flowgraph;
mod from_message;
mod handles;
mod item;
mod item_type;
#[cfg(all(test, feature = "loom"))]
mod loom_tests;
mod message;
mod parker;
mod port;
mod port_table;
mod profile;
pub mod registry;
mod scheduler;
mod stats;
mod tag;
mod task;
pub mod testing;
mod topology;
mod trace;
mod valgrind;
mod wiring;

pub use block::{Block, WorkStatus};
pub use block_id::BlockId;
pub use buffer::DEFAULT_BUFFER_BYTES;
pub use copy::copy_work;
pub use current_run::{interruptible_sleep, stop_requested};
pub use error::{BlockError, ConnectError, Direction, RunError};
pub use events::EventCounter;
pub use flowgraph::{EdgeId, Flowgraph, PortName, PortRef};
pub use from_message::{FromMessage, MessageType};
pub use handles::{BufferFill, MessagePoster, StatsHandle, StopHandle};
pub use item::Item;
pub use item_type::ItemType;
pub use message::{MessageOutput, MessageSender};
pub use parker::Parker;
pub use port::{
    one_to_one_work, propagate_tags, propagate_tags_at_rate, BufferKeepAlive, PortFields, Ports,
    StreamInput, StreamOutput,
};
pub use profile::{Profile, ProfileRow};
pub use radioflow_macros::{block, Ports};
pub use radioflow_pmt::{self as pmt, Pmt};
pub use scheduler::{
    default_scheduler, l1d_bytes, l2_bytes, max_workers, pin_current_thread, scheduler_by_name,
    FlowGeometry, FlowScheduler, FlowSettings, RealtimePolicy, Scheduler, SchedulerSpec,
    SchedulerSpecError, SingleThread, ThreadPerBlock, SCHEDULER_NAMES,
};
pub use stats::{BlockStats, Counters, ThreadStats, COUNTERS_COMPILED};
pub use tag::Tag;
pub use task::{BlockTask, RunControl, Step};
pub use topology::Topology;
pub use trace::{Trace, TraceConfig};
pub use wiring::ReadyGraph;

/// Re-exported so blocks can name `Complex32` without another dependency.
pub use num_complex::Complex32;

/// For scheduler authors: what a [`Scheduler`] receives and drives. A scheduler gets a
/// [`ReadyGraph`] (its [`Topology`], buffer-size and placement hints), turns it into
/// [`BlockTask`]s with one [`Parker`] per thread, and steps them ([`BlockTask::step`] returns a
/// [`Step`]) on threads it starts; [`RunControl`] carries the stop flag and the first failure.
/// Schedulers depend on these, never on [`Flowgraph`].
pub mod scheduling {
    /// The scheduler author's imports.
    pub mod prelude {
        pub use crate::{
            pin_current_thread, BlockTask, Parker, ReadyGraph, RunControl, RunError, Scheduler,
            Step, Topology,
        };
    }
}

/// Everything needed to build and run graphs, and to write blocks.
pub mod prelude {
    pub use crate::{
        block, copy_work, interruptible_sleep, one_to_one_work, propagate_tags,
        propagate_tags_at_rate, stop_requested, Block, BlockError, BlockId, Complex32,
        EventCounter, Flowgraph, Item, MessageOutput, Pmt, Ports, RunError, Scheduler,
        SingleThread, StreamInput, StreamOutput, Tag, ThreadPerBlock, WorkStatus,
    };
}
