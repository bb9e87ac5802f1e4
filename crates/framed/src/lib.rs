//! Framed execution, the DSEL model of Cassagne et al.: static sequences of tasks over
//! fixed-size frames, a switcher for loops and switches, early exit, and pipelines whose
//! stages (duplicated when their modules can be cloned) pass frames by pointer.
//!
//! - [`TaskGraph`]: [`module`](TaskGraph::module)s hold state shared by their [`Task`]s; tasks have
//!   typed fixed-size sockets ([`In`], [`Out`]) bound output-to-inputs, and a codelet run on
//!   each frame through [`Io`]. [`TaskGraph::switcher`] makes loops and n-way switches.
//! - [`Sequence`]: the graph compiled once into a flat program, run on the calling thread with
//!   [`exec`](Sequence::exec); its per-task [`SequenceProfile`].
//! - [`Pipeline`]: stages on threads, bounded order-preserving adaptors, copy-less or copying,
//!   replicated stages, pinning; [`plan`] chooses stages and replicas from a profile. A
//!   sequence duplicated on n threads (the paper's section 3.3) is a pipeline of one
//!   replicated stage.
//! - [`FramedBlock`]: a sequence as one block of a streaming flowgraph; the other way round,
//!   [`TaskGraph::stream_block`] makes a fixed-rate streaming block a task.
//!
//! Only [`Cloneable`] modules can be duplicated, and the compiler checks it: a replicated
//! stage lists [`CloneableTaskId`]s, which tasks of a [`Sequential`] module do not convert to.
//!
//! ```
//! use radioflow_framed::{TaskGraph, Sequence, Status};
//!
//! // A while loop: x = 2x + 1 until x >= 100 (a loop body of two tasks).
//! let mut g = TaskGraph::new();
//! let src = g.stateless("src");
//! let s_out = g.output::<u32>(src, "out", 1);
//! g.codelet(src, move |_, io| { io.output(s_out)[0] = 3; Status::Continue });
//! let sw = g.switcher::<u32>("sw", 2, 1);
//! g.bind(sw.select_in(1), s_out)?; // the loop starts on path 1: the source's value
//! let test = g.stateless("test");
//! let t_in = g.input::<u32>(test, "in", 1);
//! let t_out = g.output::<u32>(test, "path", 1);
//! g.codelet(test, move |_, io| {
//!     io.output(t_out)[0] = u32::from(io.input(t_in)[0] >= 100); // 0: loop, 1: exit
//!     Status::Continue
//! });
//! g.bind(t_in, sw.select_out())?;
//! g.bind(sw.commute_in(), sw.select_out())?;
//! g.bind(sw.commute_path(), t_out)?;
//! let mut stage = |g: &mut TaskGraph, name: &str, f: fn(u32) -> u32| {
//!     let t = g.stateless(name);
//!     let (i, o) = (g.input::<u32>(t, "in", 1), g.output::<u32>(t, "out", 1));
//!     g.codelet(t, move |_, io| { io.output(o)[0] = f(io.input(i)[0]); Status::Continue });
//!     (i, o)
//! };
//! let (d_in, d_out) = stage(&mut g, "double", |x| 2 * x);
//! let (a_in, a_out) = stage(&mut g, "add1", |x| x + 1);
//! let (k_in, k_out) = stage(&mut g, "sink", |x| x);
//! g.bind(d_in, sw.commute_out(0))?;
//! g.bind(a_in, d_out)?;
//! g.bind(sw.select_in(0), a_out)?; // back to the select
//! g.bind(k_in, sw.commute_out(1))?;
//!
//! let mut seq = Sequence::new(g)?;
//! assert_eq!(seq.order(), ["src", "sw::select", "test", "sw::commute", "double", "add1", "sink"]);
//! seq.exec_once()?;
//! assert_eq!(seq.read(k_out), &[127]); // 3, 7, 15, 31, 63, 127
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod adaptor;
mod block;
mod error;
mod frame;
mod io;
mod pipeline;
mod plan;
mod profile;
mod program;
mod sequence;
mod stream_task;
mod task_graph;

pub use adaptor::Wait;
pub use block::FramedBlock;
pub use error::{BuildError, ExecError};
pub use io::{In, Io, Out, Status};
pub use pipeline::{Pipeline, PipelineBuilder, PipelineReport, StageReport};
pub use plan::{plan, Plan, PlannedStage};
pub use profile::{SequenceProfile, TaskProfile, TaskStats};
pub use sequence::{Report, Sequence};
pub use stream_task::{StreamBlock, StreamTask};
pub use task_graph::{
    Admits, Cloneable, CloneableTaskId, Iterate, Module, Sequential, Switcher, Task, TaskGraph,
    TaskId,
};
