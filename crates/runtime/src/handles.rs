//! Handles on a running flowgraph that any thread may use while it runs: [`StopHandle`],
//! [`StatsHandle`] (live counters), [`BufferFill`] (how full its buffers are) and
//! [`MessagePoster`] (messages into its blocks).

use crate::atomics::Arc;
use crate::block_id::BlockId;
use crate::stats::{BlockCounters, BlockStats};
use crate::task::RunControl;
use radioflow_pmt::Pmt;

/// Reads the live counters of a running flowgraph's blocks from any thread
/// ([`Flowgraph::stats_handle`](crate::Flowgraph::stats_handle)).
#[derive(Clone, Debug)]
pub struct StatsHandle(pub(crate) std::sync::Arc<[std::sync::Arc<BlockCounters>]>);

impl StatsHandle {
    /// A snapshot of block `id`'s counters now.
    pub fn get(&self, id: BlockId) -> Option<BlockStats> {
        self.0.get(id.0).map(|c| c.snapshot())
    }
}

/// Reads the fill of a running flowgraph's stream buffers from any thread
/// ([`Flowgraph::buffer_fill`](crate::Flowgraph::buffer_fill)).
#[derive(Clone, Debug)]
pub struct BufferFill(pub(crate) Arc<RunControl>);

impl BufferFill {
    /// `(items, capacity)` of the buffer behind stream output `output` of block `block`: the
    /// items written that its slowest reader has not read yet (two relaxed-cost loads of
    /// positions the endpoints publish anyway, possibly from neighbouring moments); `None` for
    /// an unknown or unconnected output.
    pub fn get(&self, block: BlockId, output: usize) -> Option<(u64, u64)> {
        self.0.buffer_fill(block.0, output)
    }
}

/// Stops a running flowgraph from any thread.
#[derive(Clone, Debug)]
pub struct StopHandle(pub(crate) Arc<RunControl>);

impl StopHandle {
    /// See [`Flowgraph::stop`](crate::Flowgraph::stop).
    pub fn stop(&self) {
        self.0.request_stop();
    }
}

/// Posts messages into the inboxes of a running graph's blocks from any thread (a control port,
/// a test, a user interface): the same lock-free push and wake-up as a [`MessageOutput`](crate::MessageOutput), so
/// the receiving block's side is unchanged. Get one with
/// [`Flowgraph::message_poster`](crate::Flowgraph::message_poster).
#[derive(Clone, Debug)]
pub struct MessagePoster {
    pub(crate) control: Arc<RunControl>,
}

impl MessagePoster {
    /// Posts `msg` to message input `port` (its index, as in
    /// [`Flowgraph::port_names`](crate::Flowgraph::port_names) with
    /// [`Direction::MessageInput`](crate::Direction::MessageInput)) of block `block`.
    /// Returns `false` when no such block or port runs (unknown index, finished block, run
    /// over), `true` once the message is queued; the block's handler runs on its own thread.
    pub fn post(&self, block: BlockId, port: usize, msg: Pmt) -> bool {
        self.control.post(block.index(), port, msg)
    }
}
