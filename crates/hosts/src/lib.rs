//! Graphs across hosts: one graph description whose blocks name their host; `radioflow serve`
//! on each host; a coordinator that cuts the graph, sends each host its part over an
//! authenticated control connection, and turns every connection between two hosts into a
//! ZeroMQ link carrying gr-zeromq's frames (items with GNU Radio's tag header, serialized
//! PMT messages) plus an end-of-stream marker. Start, stop, end of stream and failures behave
//! as in one process: a block failing on any host, or a host lost (its process killed, the
//! network down), stops the whole graph with an error naming the host and block.
//!
//! - [`run`] (and [`run_until`], stoppable): the coordinator ([`HostAddress`], [`RunOptions`], [`Report`]).
//! - [`Server`]: a host's endpoint ([`ServeConfig`]).
//! - [`EOS_MARKER`]: the end-of-stream frame; [`wire`](crate#control-protocol) the protocol.
//!
//! ```no_run
//! use radioflow_graphfile::GraphDescription;
//! use radioflow_hosts::{run, HostAddress, RunOptions};
//!
//! let mut g = GraphDescription::new("split");
//! g.add("src", "null_source").dtype("float32").host("a");
//! g.add("head", "head").dtype("float32").param("n", 1_000_000i64).host("a");
//! g.add("sink", "null_sink").dtype("float32").host("b");
//! g.connect("src", "head")?;
//! g.connect("head", "sink")?;
//! let hosts = HostAddress::parse_list("a=10.0.0.1:7300,b=10.0.0.2:7300")?;
//! let options = RunOptions {
//!     token: "secret".into(),
//!     scheduler: "flow".into(),
//!     drop_malformed: false,
//! };
//! let report = run(&g, &hosts, &options)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Control protocol
//! TCP, each message a `u32` big-endian length and JSON. The coordinator says hello with the
//! token (compared in constant time; a wrong one, or no hello within
//! [`ServeConfig::hello_timeout`], is refused in words and the connection closed),
//! sends the part, receives each link end's item type and bound port, sends the sending
//! ends their peers' addresses and starts; both sides send a heartbeat every 500 ms and
//! take 10 s of silence, or the connection closing, as the peer lost.

mod coordinator;
mod cut;
mod error;
#[doc(hidden)]
pub mod fuzz;
mod link;
mod serve;
mod session;
mod token;
mod wire;

pub use coordinator::{run, run_until, HostAddress, Report, RunOptions};
pub use error::HostsError;
pub use link::EOS_MARKER;
pub use serve::{ServeConfig, Server};
pub use token::generate_token;
pub use wire::{BlockReport, VERSION};
