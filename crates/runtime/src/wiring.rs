//! [`ReadyGraph`]: a validated graph on its way to a scheduler, and the wiring of its run: the
//! buffer of every stream output (size policy: the user's size, the scheduler's, the declared
//! windows), the regions of `flow`'s chains, the read-elsewhere marks, the ports attached to
//! their endpoints and the message outputs to their receivers' inboxes, and the tasks. It is
//! made from the graph as the flowgraph keeps it between runs: its [`Node`]s and
//! [`Connections`].

use crate::activation::{Activation, Wake};
use crate::atomics::Arc;
use crate::block::Block;
use crate::buffer::{Reader, Region, StreamBuffer, Writer, DEFAULT_BUFFER_BYTES};
use crate::endpoint::Endpoint;
use crate::error::{Direction, RunError};
use crate::message::{Inbox, Subscriber};
use crate::parker::Parker;
use crate::port::{Attachments, PortSpecs, Ports};
use crate::port_table::PortTable;
use crate::stats::BlockStats;
use crate::task::{BlockTask, Instrument, RunControl};
use crate::topology::Topology;
use std::collections::HashMap;
use std::fmt;

/// A block of a flowgraph, as the flowgraph keeps it between runs.
pub(crate) struct Node {
    pub(crate) name: std::sync::Arc<str>,
    /// `None` while the block runs on a scheduler thread.
    pub(crate) block: Option<Box<dyn Block>>,
    pub(crate) specs: PortSpecs,
    /// [`Block::type_name`], for tools that show the graph while it runs.
    pub(crate) type_name: &'static str,
    /// [`Block::is_paced`], for tools that show the graph while it runs.
    pub(crate) paced: bool,
    pub(crate) max_items: Option<u64>,
    /// Statistics of the last run.
    pub(crate) stats: BlockStats,
}

/// A connection between two ports: `(block, port)` at each end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub(crate) src: (usize, usize),
    pub(crate) dst: (usize, usize),
}

/// A flowgraph's connections, in the order they were made.
#[derive(Debug, Default)]
pub(crate) struct Connections {
    pub(crate) stream: Vec<Edge>,
    /// The buffer size asked for on each stream connection, by index in `stream`.
    pub(crate) stream_bytes: Vec<Option<usize>>,
    pub(crate) message: Vec<Edge>,
}

/// `block.port`: port `p` of direction `d` of block `b`, for errors.
pub(crate) fn port_label(nodes: &[Node], (b, p): (usize, usize), d: Direction) -> String {
    format!("{}.{}", nodes[b].name, nodes[b].specs.list(d)[p].name)
}

/// One plan per stream output: its readers, the sizes asked for, the windows declared.
pub(crate) fn output_plans(nodes: &[Node], connections: &Connections) -> Vec<OutputPlan> {
    let stream = &connections.stream;
    let mut outputs = Vec::new();
    for (b, node) in nodes.iter().enumerate() {
        for (p, spec) in node.specs.stream_out.iter().enumerate() {
            let edges: Vec<usize> = (0..stream.len())
                .filter(|&i| stream[i].src == (b, p))
                .collect();
            if edges.is_empty() {
                // An optional output left unconnected: no buffer, the port stays detached.
                continue;
            }
            let bytes = edges
                .iter()
                .filter_map(|&i| connections.stream_bytes[i])
                .max();
            // The reader that needs the largest window, by name for the errors.
            let reader_need = edges
                .iter()
                .map(|&i| {
                    let (rb, rp) = stream[i].dst;
                    (nodes[rb].specs.stream_in[rp].min_items, (rb, rp))
                })
                .max_by_key(|&(need, _)| need);
            outputs.push(OutputPlan {
                src: (b, p),
                label: port_label(nodes, (b, p), Direction::StreamOutput),
                item_size: spec.item.map_or(1, |t| t.size()),
                vlen: spec.item.map_or(1, |t| t.vlen()),
                writer_need: spec.min_items,
                reader_need: reader_need
                    .map(|(need, at)| (need, port_label(nodes, at, Direction::StreamInput))),
                bytes,
                scheduler_bytes: None,
                readers: edges.iter().map(|&i| stream[i].dst).collect(),
                region: None,
                read_elsewhere: false,
            });
        }
    }
    outputs
}

/// The buffer plan of one stream output.
pub(crate) struct OutputPlan {
    pub(crate) src: (usize, usize),
    /// `block.port`, for errors.
    pub(crate) label: String,
    pub(crate) item_size: usize,
    /// Scalars per item (the vector length of both ends).
    pub(crate) vlen: usize,
    /// The window the writer declared it needs.
    pub(crate) writer_need: usize,
    /// The largest window a reader declared it needs, and that reader's `block.port`.
    pub(crate) reader_need: Option<(usize, String)>,
    /// Largest size asked for on one of its connections.
    pub(crate) bytes: Option<usize>,
    /// Size the scheduler asked for this buffer (below the user's settings).
    pub(crate) scheduler_bytes: Option<usize>,
    pub(crate) readers: Vec<(usize, usize)>,
    /// The region set this buffer may borrow from (`ReadyGraph::share_regions`).
    pub(crate) region: Option<usize>,
    /// A reader runs on another core than the writer (`ReadyGraph::mark_read_elsewhere`).
    pub(crate) read_elsewhere: bool,
}

impl OutputPlan {
    /// The buffer size for this output: its own size if the user set one, else `default`,
    /// grown to the smallest size with which neither side can wait on the other forever: the
    /// writer's window plus the reader's window less one item (a writer that finds less than
    /// its window free then leaves at least the reader's window to read).
    ///
    /// # Errors
    /// [`RunError::Buffer`] naming the port when the windows overflow, or when the user's size
    /// is smaller than they need.
    pub(crate) fn buffer_bytes(&self, default: usize) -> Result<usize, RunError> {
        let reader_need = self.reader_need.as_ref().map_or(1, |r| r.0);
        let need = self
            .writer_need
            .checked_add(reader_need - 1)
            .and_then(|n| n.checked_mul(self.item_size));
        let explain = || {
            let mut s = format!("{} needs windows of {} items", self.label, self.writer_need);
            if let Some((n, reader)) = &self.reader_need {
                s += &format!(" and {reader} of {n}");
            }
            s
        };
        let Some(need) = need else {
            return Err(RunError::Buffer {
                port: self.label.clone(),
                error: format!("{}: no buffer can hold that many bytes", explain()),
            });
        };
        match self.bytes {
            Some(b) if b < need => Err(RunError::Buffer {
                port: self.label.clone(),
                error: format!(
                    "its buffer was set to {b} bytes, but {}: it needs at least {need} bytes",
                    explain()
                ),
            }),
            Some(b) => Ok(b),
            None => Ok(default.max(need)),
        }
    }
}

/// A validated graph handed to a [`Scheduler`](crate::Scheduler): its [`Topology`] and, once the scheduler has
/// chosen a parker per block, its [`BlockTask`]s.
pub struct ReadyGraph {
    pub(crate) topology: Topology,
    pub(crate) blocks: Vec<(Box<dyn Block>, PortSpecs, u64)>,
    pub(crate) outputs: Vec<OutputPlan>,
    pub(crate) message_edges: Vec<Edge>,
    pub(crate) senders: Vec<usize>,
    pub(crate) message_driven: Vec<bool>,
    pub(crate) instruments: Vec<Instrument>,
    pub(crate) control: Arc<RunControl>,
    /// `Flowgraph::set_default_buffer_size`, which wins over the scheduler's choice.
    pub(crate) user_buffer_bytes: Option<usize>,
    pub(crate) scheduler_buffer_bytes: usize,
    /// Bytes of each region (`share_regions`).
    pub(crate) region_bytes: usize,
}

impl fmt::Debug for ReadyGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadyGraph")
            .field("topology", &self.topology)
            .finish()
    }
}

impl ReadyGraph {
    /// The graph of `nodes` and `connections`, its blocks taken out of `nodes` for the run;
    /// `user_buffer_bytes` is the flowgraph's default buffer size, if the user set one.
    ///
    /// # Panics
    /// If a block is missing from `nodes` (the flowgraph checks before it starts a run).
    pub(crate) fn new(
        nodes: &mut [Node],
        connections: &Connections,
        user_buffer_bytes: Option<usize>,
        control: Arc<RunControl>,
        instruments: Vec<Instrument>,
    ) -> Self {
        let n = nodes.len();
        let mut senders = vec![0usize; n];
        let mut message_driven = vec![false; n];
        for e in &connections.message {
            senders[e.dst.0] += 1;
        }
        // A block fed from outside the graph has a sender that never finishes.
        for (b, node) in nodes.iter().enumerate() {
            if node
                .block
                .as_ref()
                .is_some_and(|b| b.takes_external_messages())
            {
                senders[b] += 1;
            }
        }
        for (b, node) in nodes.iter().enumerate() {
            let specs = &node.specs;
            message_driven[b] = !specs.message_in.is_empty()
                && specs.stream_in.is_empty()
                && specs.stream_out.is_empty()
                && !node.block.as_ref().is_some_and(|b| b.is_message_source());
        }
        let outputs = output_plans(nodes, connections);
        let topology = Topology {
            names: nodes.iter().map(|n| n.name.clone()).collect(),
            stream_edges: connections
                .stream
                .iter()
                .map(|e| (e.src.0, e.dst.0))
                .collect(),
            message_edges: connections
                .message
                .iter()
                .map(|e| (e.src.0, e.dst.0))
                .collect(),
            blocking: nodes
                .iter()
                .map(|n| n.block.as_ref().is_some_and(|b| b.is_blocking()))
                .collect(),
            observer: nodes
                .iter()
                .map(|n| n.block.as_ref().is_some_and(|b| b.is_observer()))
                .collect(),
        };
        let blocks = nodes
            .iter_mut()
            .map(|n| {
                (
                    n.block.take().expect("checked in start"),
                    n.specs.clone(),
                    n.max_items.unwrap_or(u64::MAX),
                )
            })
            .collect();
        ReadyGraph {
            topology,
            blocks,
            outputs,
            message_edges: connections.message.clone(),
            senders,
            message_driven,
            instruments,
            control,
            user_buffer_bytes,
            scheduler_buffer_bytes: DEFAULT_BUFFER_BYTES,
            region_bytes: 0,
        }
    }

    /// The graph's shape.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The run's shared control (stop flag, failure).
    pub fn control(&self) -> &Arc<RunControl> {
        &self.control
    }

    /// The buffer size for connections that have none of their own, unless the user set a
    /// default on the flowgraph.
    pub fn set_default_buffer_size(&mut self, bytes: usize) {
        self.scheduler_buffer_bytes = bytes;
    }

    /// The buffer size for the connections from a writer `w` to a reader `r` for which
    /// `selects(w, r)` holds and that have none of their own, unless the user set a default on
    /// the flowgraph (the largest asked for wins).
    pub fn set_buffer_size_where(
        &mut self,
        bytes: usize,
        mut selects: impl FnMut(usize, usize) -> bool,
    ) {
        for o in &mut self.outputs {
            if o.readers.iter().any(|&(b, _)| selects(o.src.0, b)) {
                o.scheduler_bytes = Some(o.scheduler_bytes.map_or(bytes, |s| s.max(bytes)));
            }
        }
    }

    /// Marks the outputs of a writer `w` with a reader `r` for which `selects(w, r)` as read on
    /// another core than the writer's: blocks that copy into them write with non-temporal
    /// stores ([`copy_work`](crate::copy_work)), which spares the writer waiting for the other
    /// core to give the lines up. A hint: a wrong mark costs time, never items.
    pub fn mark_read_elsewhere(&mut self, mut selects: impl FnMut(usize, usize) -> bool) {
        for o in &mut self.outputs {
            o.read_elsewhere |= o.readers.iter().any(|&(b, _)| selects(o.src.0, b));
        }
    }

    /// Lets each connection from a writer `w` to its single reader `r` for which `key(w, r)`
    /// names a region borrow that region, of `bytes`, while the connection is empty; the
    /// connections given the same key share it, one at a time (`buffer/region.rs`).
    ///
    /// The caller guarantees that the blocks at both ends of all connections of one key are
    /// only ever stepped by one thread at a time, with a hand-over that orders memory when
    /// they move between threads (`flow` keeps a chain on one worker and moves it whole).
    pub(crate) fn share_regions(
        &mut self,
        bytes: usize,
        mut key: impl FnMut(usize, usize) -> Option<usize>,
    ) {
        self.region_bytes = bytes;
        for o in &mut self.outputs {
            o.region = match o.readers.as_slice() {
                [(r, _)] => key(o.src.0, *r),
                _ => None,
            };
        }
    }

    /// Allocates the buffers and attaches every port. `parkers[b]` is the wake-up channel of
    /// block `b`; blocks stepped by the same thread should share one.
    ///
    /// # Errors
    /// [`RunError::Buffer`] if a buffer cannot be mapped. The blocks are then lost for this
    /// flowgraph.
    ///
    /// # Panics
    /// If `parkers` does not have one entry per block.
    pub fn into_tasks(self, parkers: Vec<Arc<Parker>>) -> Result<Vec<BlockTask>, RunError> {
        Ok(self.into_tasks_with_idle(parkers, &[])?.0)
    }

    /// As [`into_tasks`](Self::into_tasks), with thread slots also for `idle` threads that
    /// start without a block (workers that may be handed some later); returns their slots.
    pub(crate) fn into_tasks_with_idle(
        self,
        parkers: Vec<Arc<Parker>>,
        idle: &[Arc<Parker>],
    ) -> Result<(Vec<BlockTask>, Vec<usize>), RunError> {
        assert_eq!(parkers.len(), self.blocks.len(), "one parker per block");
        // One slot per distinct parker (thread); every activation names its thread's slot.
        let mut distinct: Vec<Arc<Parker>> = Vec::new();
        let mut slot_of = |p: &Arc<Parker>| {
            distinct
                .iter()
                .position(|d| Arc::ptr_eq(d, p))
                .unwrap_or_else(|| {
                    distinct.push(p.clone());
                    distinct.len() - 1
                })
        };
        let slots: Vec<usize> = parkers.iter().map(&mut slot_of).collect();
        let idle_slots: Vec<usize> = idle.iter().map(&mut slot_of).collect();
        let distinct: crate::activation::Parkers = distinct.into();
        let acts: Vec<Arc<Activation>> = slots
            .into_iter()
            .map(|s| Activation::new(distinct.clone(), s))
            .collect();
        let mut att: Vec<Attachments> = self
            .blocks
            .iter()
            .map(|(_, s, _)| Attachments {
                stream_in: (0..s.stream_in.len()).map(|_| None).collect(),
                stream_out: (0..s.stream_out.len()).map(|_| None).collect(),
                message_out: vec![Vec::new(); s.message_out.len()],
            })
            .collect();
        let mut regions: HashMap<usize, std::sync::Arc<Region>> = HashMap::new();
        let mut buffers = Vec::with_capacity(self.outputs.len());
        for o in &self.outputs {
            let region = o.region.map(|k| {
                regions
                    .entry(k)
                    .or_insert_with(|| std::sync::Arc::new(Region::new(self.region_bytes)))
                    .clone()
            });
            let readers: Vec<Arc<Activation>> =
                o.readers.iter().map(|&(b, _)| acts[b].clone()).collect();
            let bytes = o.buffer_bytes(
                self.user_buffer_bytes
                    .or(o.scheduler_bytes)
                    .unwrap_or(self.scheduler_buffer_bytes),
            )?;
            // A region holds one chunk: a window larger than half of it would keep the writer
            // (or the reader) waiting for room the region never has.
            let largest = o.writer_need.max(o.reader_need.as_ref().map_or(1, |r| r.0));
            let region = region.filter(|_| {
                largest
                    .checked_mul(2 * o.item_size)
                    .is_some_and(|b| b <= self.region_bytes)
            });
            let observers: Vec<bool> = o
                .readers
                .iter()
                .map(|&(b, _)| self.topology.observer[b])
                .collect();
            let buf = StreamBuffer::with_region(
                (o.item_size, o.vlen),
                bytes,
                &acts[o.src.0],
                &readers,
                &observers,
                region,
            )
            .map_err(|e| RunError::Buffer {
                port: o.label.clone(),
                error: e.to_string(),
            })?;
            buffers.push((o.src, buf.clone()));
            let mut writer = Writer::new(buf.clone());
            writer.set_read_elsewhere(o.read_elsewhere);
            att[o.src.0].stream_out[o.src.1] = Some(Endpoint::new(writer));
            for (slot, &(b, p)) in o.readers.iter().enumerate() {
                att[b].stream_in[p] = Some(Endpoint::new(Reader::new(buf.clone(), slot)));
            }
        }
        let inboxes: Vec<Arc<Inbox>> = self
            .senders
            .iter()
            .zip(&self.blocks)
            .map(|(&s, (_, specs, _))| {
                Arc::new(Inbox::with_inputs(s, !specs.message_in.is_empty()))
            })
            .collect();
        for e in &self.message_edges {
            att[e.src.0].message_out[e.src.1].push(Subscriber {
                inbox: inboxes[e.dst.0].clone(),
                port: e.dst.1,
                wake: Wake::new(&acts[e.dst.0], &acts[e.src.0]),
            });
        }
        self.control.set_activations(acts.clone());
        self.control.set_buffers(buffers);
        self.control.set_inboxes(
            inboxes
                .iter()
                .zip(&self.blocks)
                .map(|(i, (_, specs, _))| (i.clone(), specs.message_in.len()))
                .collect(),
        );
        let mut tasks = Vec::with_capacity(self.blocks.len());
        for (i, (((mut block, specs, max_items), mut a), instrument)) in self
            .blocks
            .into_iter()
            .zip(att)
            .zip(self.instruments)
            .enumerate()
        {
            let table = PortTable::for_attachments(&a, &specs);
            block.ports(&mut Ports::attach(&mut a));
            tasks.push(BlockTask::new(
                i,
                self.topology.names[i].clone(),
                block,
                table,
                acts[i].clone(),
                inboxes[i].clone(),
                self.control.clone(),
                self.message_driven[i],
                max_items,
                instrument,
            ));
        }
        Ok((tasks, idle_slots))
    }
}
