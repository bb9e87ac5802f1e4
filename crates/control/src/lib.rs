//! The live view of a running radioflow graph: a control port (HTTP with JSON, and a WebSocket
//! of counters) and a web page served by the binary itself.
//!
//! Off by default: a program turns it on with [`serve`] (or [`FlowgraphControl::serve`]) after
//! starting its graph, `radioflow run|fm|bench|profile --control ADDR` on the command line (and
//! `Flowgraph.serve()` in Python). A program that is not a flowgraph shows its own tasks and
//! counters with [`serve_tasks`] (`radioflow dvbs2 rx --control ADDR`). It runs on a
//! thread of its own (`rf-control`, a single-threaded tokio runtime), never on a scheduler
//! thread, and touches the running graph only through handles that already exist for other
//! threads: relaxed loads of the per-block counters (sampled every 100 ms however many
//! clients watch), the stop flag, and [`MessagePoster`](radioflow_runtime::MessagePoster),
//! the same lock-free inbox push as a message output.
//!
//! **API** (JSON; errors are 4xx with `{"error": "..."}` naming the block, port, parameter or
//! probe at fault):
//! - `GET /api/graph`: blocks (name, type, ports with item types), stream and message edges,
//!   probes, whether it runs.
//! - `GET /api/counters`: per block work calls, items in/out and their rates, share of the time
//!   in work (with timed counters), starved/full steps, messages, the bottleneck; per stream
//!   output the fill of its buffer (items not yet read by the slowest reader); per thread
//!   CPU time and share and context switches (from `/proc`).
//! - `GET /api/stream?period_ms=N` (WebSocket): the same, every `N` ms (100 to 10 000).
//! - `POST /api/blocks/{block}/messages/{port}`, body a PMT as JSON ([`pmt_json`]): posts it.
//! - `GET /api/blocks/{block}/params`, `GET|PUT /api/blocks/{block}/params/{param}` with body
//!   `{"value": v}`: **a settable parameter is a message input** of the block (a block makes a
//!   parameter settable by declaring a `#[message_input]` of that name, as `signal_source` does
//!   for `frequency` and `amplitude`); setting one posts the scalar value to that input and
//!   remembers it, so the page can show the last value set.
//! - `GET /api/probes`, `GET /api/probes/{block.port}?view=spectrum|time|constellation`.
//! - `GET /api/variables`, `PUT /api/variables/{name}` with body `{"value": v}`: a front
//!   end's [`Variables`] (a GRC file's QT GUI widgets): setting one sets every settable
//!   parameter it changes on the running blocks, and names those it cannot change.
//!   `GET /api/graph` lists the front end's views ([`ViewConfig`]: a GRC file's QT GUI sinks
//!   as plots of probes).
//! - `POST /api/stop`.
//!
//! **Security** (docs/liveview.md): listens on the address given (the command line's default
//! is 127.0.0.1); any non-loopback address requires a token (generated when not given, see
//! [`ControlHandle::url`]; an empty one is refused) on every request (`Authorization: Bearer`
//! or `?token=`), the WebSocket and the page included. Requests must name the port by an IP
//! address, `localhost` or an allowed origin's host (DNS rebinding); writes are refused from
//! other origins (CSRF) and must be `application/json`; WebSockets are refused from other
//! origins; [`ControlConfig::allowed_origins`] lets named origins in (with CORS answers).
//! Connections have a header-read and idle timeout and a limit that makes room by closing
//! those that never authenticated ([`Limits`]); requests are budgeted per client address
//! after the token (429 beyond). Only the bundled files are served, and probe views are
//! computed at most once per probe frame.

mod api;
mod assets;
mod auth;
mod connections;
mod counters;
mod error;
mod follow;
mod graph_info;
mod message_tap;
mod message_view;
mod origin;
pub mod pmt_json;
mod probe;
mod probe_view;
mod server;
mod state;
mod stream;
mod tasks;
mod threads;
mod variables;

pub use auth::generate_token;
pub use connections::Limits;
pub use counters::{BlockSample, BufferSample, Report};
pub use error::{ApiError, ServeError};
pub use graph_info::{BlockInfo, EdgeInfo, GraphInfo, PortInfo};
pub use message_tap::{add_message_tap, MessageTap, MessageTapSink, TapState};
pub use probe::{
    add_probe, FrameTag, Probe, ProbeConfig, ProbeError, ProbeFrame, ProbeItem, ProbeSink,
    TAGS_PER_FRAME,
};
pub use probe_view::{ProbeData, SpectrumOptions, TagData, View};
pub use server::{serve, serve_tasks, ControlConfig, ControlHandle};
pub use tasks::{ReadCounters, Tasks};
pub use threads::ThreadSample;
pub use variables::{SharedVariables, VariableChange, Variables, ViewConfig};

use radioflow_runtime::Flowgraph;
use std::net::SocketAddr;

/// `fg.serve(addr, token)`: [`serve`] as a method of a running [`Flowgraph`].
pub trait FlowgraphControl {
    /// Starts the control port on `addr` for this graph (see [`serve`]).
    ///
    /// # Errors
    /// As [`serve`].
    fn serve(&self, addr: SocketAddr, token: Option<String>) -> Result<ControlHandle, ServeError>;
}

impl FlowgraphControl for Flowgraph {
    fn serve(&self, addr: SocketAddr, token: Option<String>) -> Result<ControlHandle, ServeError> {
        let mut config = ControlConfig::new(addr);
        config.token = token;
        serve(self, config)
    }
}
