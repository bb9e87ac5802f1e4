//! [`Flowgraph`]: blocks, their connections, and the run lifecycle.

use crate::atomics::Arc;
use crate::block::Block;
use crate::block_id::BlockId;
use crate::buffer::DEFAULT_BUFFER_BYTES;
use crate::error::{ConnectError, Direction, RunError};
use crate::from_message::MessageType;
use crate::handles::{BufferFill, MessagePoster, StatsHandle, StopHandle};
use crate::item_type::ItemType;
use crate::port::{PortSpecs, Ports};
use crate::scheduler::{default_scheduler, Scheduler};
use crate::stats::{BlockCounters, BlockStats, Counters, ThreadStats};
use crate::task::{BlockTask, Instrument, RunControl};
use crate::topology::find_cycle;
use crate::trace::{BlockTrace, Trace, TraceConfig};
use crate::wiring::{output_plans, port_label, Connections, Edge, Node, ReadyGraph};
use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::thread::JoinHandle;

/// A port named by index or by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortName {
    /// The n-th port of that direction, in declaration order.
    Index(usize),
    /// The port declared with this name.
    Name(String),
}

/// One end of a connection: a block and one of its ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortRef {
    /// The block.
    pub block: BlockId,
    /// The port.
    pub port: PortName,
}

impl From<BlockId> for PortRef {
    /// Port 0.
    fn from(block: BlockId) -> Self {
        Self {
            block,
            port: PortName::Index(0),
        }
    }
}

impl From<(BlockId, usize)> for PortRef {
    fn from((block, i): (BlockId, usize)) -> Self {
        Self {
            block,
            port: PortName::Index(i),
        }
    }
}

impl From<(BlockId, &str)> for PortRef {
    fn from((block, name): (BlockId, &str)) -> Self {
        Self {
            block,
            port: PortName::Name(name.to_owned()),
        }
    }
}

/// Handle of a stream connection, to configure its buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeId(usize);

struct Active {
    control: Arc<RunControl>,
    /// Every block's live counters, for readers while the graph runs.
    counters: StatsHandle,
    /// Clock ticks at start (the origin of the trace).
    origin: u64,
    threads: Vec<JoinHandle<Vec<BlockTask>>>,
    scheduler: String,
}

/// A graph of blocks: build it, then [`run`](Flowgraph::run) it (or
/// [`start`](Flowgraph::start), [`stop`](Flowgraph::stop), [`wait`](Flowgraph::wait)).
///
/// ```
/// use radioflow_runtime::prelude::*;
/// # use radioflow_runtime::testing::{Counter, Sink};
/// let mut fg = Flowgraph::new();
/// let src = fg.add(Counter::new(1000));
/// let sink = fg.add(Sink::new());
/// fg.connect(src, sink).unwrap();
/// fg.run_with(&SingleThread::new()).unwrap();
/// assert_eq!(fg.block::<Sink>(sink).unwrap().items.len(), 1000);
/// ```
pub struct Flowgraph {
    nodes: Vec<Node>,
    connections: Connections,
    default_buffer_bytes: Option<usize>,
    type_counts: HashMap<&'static str, usize>,
    active: Option<Active>,
    thread_stats: Vec<ThreadStats>,
    counters: Counters,
    trace_config: Option<TraceConfig>,
    trace: Option<Trace>,
}

impl Default for Flowgraph {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Flowgraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flowgraph")
            .field(
                "blocks",
                &self.nodes.iter().map(|n| &n.name).collect::<Vec<_>>(),
            )
            .field("stream_edges", &self.connections.stream.len())
            .field("message_edges", &self.connections.message.len())
            .finish()
    }
}

fn snake_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

impl Flowgraph {
    /// An empty flowgraph.
    pub fn new() -> Self {
        Self {
            nodes: Vec::new(),
            connections: Connections::default(),
            default_buffer_bytes: None,
            type_counts: HashMap::new(),
            active: None,
            thread_stats: Vec::new(),
            counters: Counters::default(),
            trace_config: None,
            trace: None,
        }
    }

    /// Adds a block named after its type (`copy0`, `copy1`, ...).
    pub fn add<B: Block>(&mut self, block: B) -> BlockId {
        self.add_boxed(None, Box::new(block))
    }

    /// Adds a block with an instance name (made unique with a `#n` suffix if already taken).
    pub fn add_named<B: Block>(&mut self, name: &str, block: B) -> BlockId {
        self.add_boxed(Some(name), Box::new(block))
    }

    /// Adds a block made at run time (e.g. by [`registry::make`](crate::registry::make)),
    /// named `name` or, without one, after its type. [`block`](Self::block) finds it by its
    /// concrete type as for any other block.
    pub fn add_boxed(&mut self, name: Option<&str>, mut block: Box<dyn Block>) -> BlockId {
        let Some(name) = name else {
            let ty = block.type_name();
            let k = self.type_counts.entry(ty).or_insert(0);
            let name = format!("{}{}", snake_case(ty), *k);
            *k += 1;
            return self.add_boxed(Some(&name), block);
        };
        let mut specs = PortSpecs::default();
        block.ports(&mut Ports::describe(&mut specs));
        let mut unique = name.to_owned();
        let mut n = 2;
        while self.nodes.iter().any(|x| *x.name == *unique) {
            unique = format!("{name}#{n}");
            n += 1;
        }
        let type_name = block.type_name();
        let paced = block.is_paced();
        self.nodes.push(Node {
            name: unique.into(),
            block: Some(block),
            specs,
            type_name,
            paced,
            max_items: None,
            stats: BlockStats::default(),
        });
        BlockId(self.nodes.len() - 1)
    }

    /// The instance name of a block.
    ///
    /// # Panics
    /// If `id` is not from this flowgraph.
    pub fn name(&self, id: BlockId) -> &str {
        &self.nodes[id.0].name
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the flowgraph has no blocks.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// What block `id` did during the last run (work calls, items, items per call, time in
    /// work, ...; what was recorded depends on [`set_counters`](Self::set_counters)).
    pub fn stats(&self, id: BlockId) -> Option<&BlockStats> {
        self.nodes.get(id.0).map(|n| &n.stats)
    }

    /// What block `id` has done so far: a snapshot of its live counters while the graph runs,
    /// else the last run's [`stats`](Self::stats). Never stops or slows the run.
    pub fn live_stats(&self, id: BlockId) -> Option<BlockStats> {
        match &self.active {
            Some(a) => a.counters.get(id),
            None => self.stats(id).cloned(),
        }
    }

    /// A handle that reads every block's live counters from any thread while the graph runs
    /// (`None` when it is not running).
    pub fn stats_handle(&self) -> Option<StatsHandle> {
        self.active.as_ref().map(|a| a.counters.clone())
    }

    /// Chooses what the next runs record per block (default [`Counters::Counts`]: counts, no
    /// clock reads). [`Counters::Timed`] adds the time in work (the first time in a process,
    /// this calibrates the clock: about 2 ms, here rather than inside a run).
    pub fn set_counters(&mut self, counters: Counters) {
        if counters == Counters::Timed {
            crate::clock::init();
        }
        self.counters = counters;
    }

    /// What runs record per block.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Records a trace of the next runs (`None`: no trace, the default). See [`Trace`].
    pub fn set_trace(&mut self, config: Option<TraceConfig>) {
        if config.is_some() {
            crate::clock::init();
        }
        self.trace_config = config;
    }

    /// The trace of the last run, if [`set_trace`](Self::set_trace) asked for one.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    /// Context switches of every scheduler thread of the last run.
    pub fn thread_stats(&self) -> &[ThreadStats] {
        &self.thread_stats
    }

    /// The names of block `id`'s ports of direction `d`, in index order.
    ///
    /// # Panics
    /// If `id` is not from this flowgraph.
    pub fn port_names(&self, id: BlockId, d: Direction) -> Vec<&str> {
        self.nodes[id.0]
            .specs
            .list(d)
            .iter()
            .map(|p| p.name.as_str())
            .collect()
    }

    /// The item type of block `id`'s port `index` of direction `d` (its `Display` is the
    /// front ends' name, `complex64`, `float32`, ...); `None` for message ports or an unknown
    /// port.
    ///
    /// # Panics
    /// If `id` is not from this flowgraph.
    pub fn port_item_type(&self, id: BlockId, d: Direction, index: usize) -> Option<ItemType> {
        self.nodes[id.0].specs.list(d).get(index)?.item
    }

    /// What block `id`'s message input `index` accepts, if its handler takes a typed value
    /// ([`Ports::typed_message_input`](crate::Ports::typed_message_input)); `None` for an input
    /// taking any message, or an unknown port.
    ///
    /// # Panics
    /// If `id` is not from this flowgraph.
    pub fn message_input_type(&self, id: BlockId, index: usize) -> Option<MessageType> {
        self.nodes[id.0].specs.message_in.get(index)?.message_type
    }

    /// The Rust type name of block `id` (as [`Block::type_name`]), kept while it runs.
    ///
    /// # Panics
    /// If `id` is not from this flowgraph.
    pub fn type_name(&self, id: BlockId) -> &'static str {
        self.nodes[id.0].type_name
    }

    /// Whether block `id` waits on a clock or a device by design (as [`Block::is_paced`]),
    /// kept while it runs.
    ///
    /// # Panics
    /// If `id` is not from this flowgraph.
    pub fn is_paced(&self, id: BlockId) -> bool {
        self.nodes[id.0].paced
    }

    /// The stream connections, in the order they were made: `((writer, output index),
    /// (reader, input index))`. Read-only, for tools that draw or inspect the graph.
    pub fn stream_connections(&self) -> Vec<((BlockId, usize), (BlockId, usize))> {
        Self::pairs(&self.connections.stream)
    }

    /// The message connections, as [`stream_connections`](Self::stream_connections).
    pub fn message_connections(&self) -> Vec<((BlockId, usize), (BlockId, usize))> {
        Self::pairs(&self.connections.message)
    }

    fn pairs(edges: &[Edge]) -> Vec<((BlockId, usize), (BlockId, usize))> {
        edges
            .iter()
            .map(|e| ((BlockId(e.src.0), e.src.1), (BlockId(e.dst.0), e.dst.1)))
            .collect()
    }

    /// The block `id` as its concrete type (not available while running).
    pub fn block<B: Block>(&self, id: BlockId) -> Option<&B> {
        let b: &dyn Any = self.nodes.get(id.0)?.block.as_deref()?;
        b.downcast_ref()
    }

    /// The block `id` as its concrete type, mutably (not available while running).
    pub fn block_mut<B: Block>(&mut self, id: BlockId) -> Option<&mut B> {
        let b: &mut dyn Any = self.nodes.get_mut(id.0)?.block.as_deref_mut()?;
        b.downcast_mut()
    }

    fn resolve(&self, r: &PortRef, d: Direction) -> Result<usize, ConnectError> {
        let node = self
            .nodes
            .get(r.block.0)
            .ok_or(ConnectError::UnknownBlock(r.block.0))?;
        let list = node.specs.list(d);
        let found = match &r.port {
            PortName::Index(i) => (*i < list.len()).then_some(*i),
            PortName::Name(n) => list.iter().position(|p| p.name == *n),
        };
        found.ok_or_else(|| ConnectError::UnknownPort {
            block: node.name.to_string(),
            port: match &r.port {
                PortName::Index(i) => i.to_string(),
                PortName::Name(n) => n.clone(),
            },
            direction: d,
            available: if list.is_empty() {
                "none".into()
            } else {
                list.iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })
    }

    fn port_label(&self, at: (usize, usize), d: Direction) -> String {
        port_label(&self.nodes, at, d)
    }

    /// Connects a stream output to a stream input.
    ///
    /// # Errors
    /// Unknown block or port, different item types, or an input that already has a writer.
    pub fn connect(
        &mut self,
        src: impl Into<PortRef>,
        dst: impl Into<PortRef>,
    ) -> Result<EdgeId, ConnectError> {
        if self.active.is_some() {
            return Err(ConnectError::Running);
        }
        let (src, dst) = (src.into(), dst.into());
        let sp = (src.block.0, self.resolve(&src, Direction::StreamOutput)?);
        let dp = (dst.block.0, self.resolve(&dst, Direction::StreamInput)?);
        let st = self.nodes[sp.0].specs.stream_out[sp.1].item;
        let dt = self.nodes[dp.0].specs.stream_in[dp.1].item;
        let connects = match (st, dt) {
            (Some(s), Some(d)) => s.connects_to(&d),
            (s, d) => s == d,
        };
        if !connects {
            let show = |t: Option<ItemType>| t.map(|t| t.to_string()).unwrap_or_default();
            return Err(ConnectError::TypeMismatch {
                src: self.port_label(sp, Direction::StreamOutput),
                src_type: show(st),
                dst: self.port_label(dp, Direction::StreamInput),
                dst_type: show(dt),
            });
        }
        if let Some(e) = self.connections.stream.iter().find(|e| e.dst == dp) {
            return Err(ConnectError::InputAlreadyConnected {
                dst: self.port_label(dp, Direction::StreamInput),
                existing: self.port_label(e.src, Direction::StreamOutput),
            });
        }
        self.connections.stream.push(Edge { src: sp, dst: dp });
        self.connections.stream_bytes.push(None);
        Ok(EdgeId(self.connections.stream.len() - 1))
    }

    /// Connects a message output to a message input (many-to-many is allowed).
    ///
    /// # Errors
    /// Unknown block or port.
    pub fn connect_message(
        &mut self,
        src: impl Into<PortRef>,
        dst: impl Into<PortRef>,
    ) -> Result<(), ConnectError> {
        if self.active.is_some() {
            return Err(ConnectError::Running);
        }
        let (src, dst) = (src.into(), dst.into());
        let sp = (src.block.0, self.resolve(&src, Direction::MessageOutput)?);
        let dp = (dst.block.0, self.resolve(&dst, Direction::MessageInput)?);
        if !self
            .connections
            .message
            .iter()
            .any(|e| e.src == sp && e.dst == dp)
        {
            self.connections.message.push(Edge { src: sp, dst: dp });
        }
        Ok(())
    }

    /// Sets the buffer size (bytes) of a connection. Connections from the same output share
    /// one buffer, which gets the largest size asked for. Rounded up to whole pages and items.
    /// A size smaller than the windows its writer and readers declared, or larger than the
    /// machine's memory, makes [`start`](Self::start) fail with [`RunError::Buffer`] naming the
    /// port. Without a size of its own a connection gets the scheduler's default, grown to fit
    /// the declared windows.
    pub fn set_buffer_size(&mut self, edge: EdgeId, bytes: usize) {
        self.connections.stream_bytes[edge.0] = Some(bytes);
    }

    /// Sets the buffer size (bytes) of connections without their own size (otherwise the
    /// scheduler chooses; [`DEFAULT_BUFFER_BYTES`] for `tpb` and `single`).
    pub fn set_default_buffer_size(&mut self, bytes: usize) {
        self.default_buffer_bytes = Some(bytes);
    }

    /// Limits the items a block may produce per work call on each output (like GNU Radio's
    /// `set_max_noutput_items`), but never below the window an output declared it needs
    /// ([`StreamOutput::with_min_items`](crate::StreamOutput::with_min_items)).
    pub fn set_max_items(&mut self, block: BlockId, items: usize) {
        self.nodes[block.0].max_items = Some(items.max(1) as u64);
    }

    /// Checks that the graph can run: every required input and output connected, no
    /// cycle through stream connections.
    ///
    /// # Errors
    /// The first problem found, naming the block and port.
    pub fn validate(&self) -> Result<(), RunError> {
        if self.nodes.is_empty() {
            return Err(RunError::Empty);
        }
        for (b, n) in self.nodes.iter().enumerate() {
            for (p, spec) in n.specs.stream_in.iter().enumerate() {
                if !spec.optional && !self.connections.stream.iter().any(|e| e.dst == (b, p)) {
                    return Err(RunError::UnconnectedInput(
                        self.port_label((b, p), Direction::StreamInput),
                    ));
                }
            }
            for (p, spec) in n.specs.stream_out.iter().enumerate() {
                if !spec.optional && !self.connections.stream.iter().any(|e| e.src == (b, p)) {
                    return Err(RunError::UnconnectedOutput(
                        self.port_label((b, p), Direction::StreamOutput),
                    ));
                }
            }
        }
        // Sizes the user set that no run could use, before any block starts.
        let default = self.default_buffer_bytes.unwrap_or(DEFAULT_BUFFER_BYTES);
        for o in output_plans(&self.nodes, &self.connections) {
            let bytes = o.buffer_bytes(default)?;
            if bytes > crate::buffer::max_buffer_bytes() {
                return Err(RunError::Buffer {
                    port: o.label,
                    error: crate::buffer::too_large(bytes),
                });
            }
        }
        let stream = self.connections.stream.iter().map(|e| (e.src.0, e.dst.0));
        if let Some(cycle) = find_cycle(self.nodes.len(), stream) {
            return Err(RunError::Cycle(
                cycle
                    .iter()
                    .map(|&b| self.nodes[b].name.to_string())
                    .collect(),
            ));
        }
        Ok(())
    }

    /// Runs the graph to completion on the default scheduler.
    ///
    /// # Errors
    /// See [`start`](Self::start) and [`wait`](Self::wait).
    pub fn run(&mut self) -> Result<(), RunError> {
        self.run_with(default_scheduler().as_ref())
    }

    /// Runs the graph to completion on `scheduler`.
    ///
    /// # Errors
    /// See [`start`](Self::start) and [`wait`](Self::wait).
    pub fn run_with(&mut self, scheduler: &dyn Scheduler) -> Result<(), RunError> {
        self.start(scheduler)?;
        self.wait()
    }

    /// Validates the graph, calls every block's `start` hook and hands the blocks to
    /// `scheduler`. Returns once they run.
    ///
    /// # Errors
    /// A validation error, a scheduler setting refused ([`Scheduler::check`]), a failing
    /// `start` hook, a buffer that cannot be allocated, or a scheduler that cannot start its
    /// threads (every block is then stopped and stays in the graph).
    pub fn start(&mut self, scheduler: &dyn Scheduler) -> Result<(), RunError> {
        if self.active.is_some() {
            return Err(RunError::AlreadyRunning);
        }
        self.validate()?;
        scheduler.check()?;
        if let Some(i) = self.nodes.iter().position(|n| n.block.is_none()) {
            return Err(RunError::Scheduler {
                scheduler: scheduler.name().to_owned(),
                error: format!(
                    "block '{}' was lost by an earlier failed run",
                    self.nodes[i].name
                ),
            });
        }
        let events = self.start_blocks()?;
        let control = Arc::new(RunControl::default());
        let counters: Vec<std::sync::Arc<BlockCounters>> = events
            .into_iter()
            .map(|e| std::sync::Arc::new(BlockCounters::with_events(e)))
            .collect();
        let instruments = counters
            .iter()
            .map(|c| Instrument {
                counters: c.clone(),
                level: self.counters,
                trace: self.trace_config,
            })
            .collect();
        let ready = ReadyGraph::new(
            &mut self.nodes,
            &self.connections,
            self.default_buffer_bytes,
            control.clone(),
            instruments,
        );
        // Only traces need the origin (and the clock, which calibrates on first use).
        let origin = if self.trace_config.is_some() {
            crate::clock::now()
        } else {
            0
        };
        match scheduler.launch(ready) {
            Ok(threads) => {
                self.active = Some(Active {
                    counters: StatsHandle(counters.into()),
                    origin,
                    control,
                    threads,
                    scheduler: scheduler.name().to_owned(),
                });
                Ok(())
            }
            Err(e) => {
                // A launch that failed after making the tasks (a thread it could not spawn)
                // stopped them and gave them back: the blocks stay in the graph.
                for task in control.take_given_back() {
                    self.nodes[task.index].block = Some(task.block);
                }
                Err(e)
            }
        }
    }

    /// Calls every block's `start` hook in order, its message outputs' senders opened first
    /// (what they post goes out when the run begins). If one fails or panics, the blocks
    /// already started get their `stop` hook (in reverse order; what those report is dropped
    /// in favour of the first failure), every opened output is closed again, and the failure
    /// is returned naming the block. Returns the event counters each block's hook made, by
    /// block.
    fn start_blocks(&mut self) -> Result<Vec<Vec<crate::EventCounter>>, RunError> {
        let mut events = Vec::with_capacity(self.nodes.len());
        for i in 0..self.nodes.len() {
            let node = &mut self.nodes[i];
            let Some(block) = node.block.as_mut() else {
                events.push(Vec::new());
                continue;
            };
            block.ports(&mut Ports::open());
            let (started, made) =
                crate::events::collect(|| crate::task::guard(&node.name, || block.start()));
            events.push(made);
            if let Err(e) = started {
                for (k, n) in self.nodes[..=i].iter_mut().enumerate().rev() {
                    if let Some(b) = n.block.as_mut() {
                        if k < i {
                            let _ = crate::task::guard(&n.name, || b.stop());
                        }
                        b.ports(&mut Ports::detach());
                    }
                }
                let error = match e {
                    RunError::BlockFailed { error, .. } => error,
                    RunError::BlockPanicked { message, .. } => format!("panicked: {message}"),
                    other => other.to_string(),
                };
                return Err(RunError::StartFailed {
                    block: self.nodes[i].name.to_string(),
                    error,
                });
            }
        }
        Ok(events)
    }

    /// Asks a running graph to stop: every block finishes after its current call, without
    /// draining its inputs. [`wait`](Self::wait) then returns.
    pub fn stop(&self) {
        if let Some(a) = &self.active {
            a.control.request_stop();
        }
    }

    /// A handle that can stop the running graph from another thread.
    pub fn stop_handle(&self) -> Option<StopHandle> {
        self.active.as_ref().map(|a| StopHandle(a.control.clone()))
    }

    /// A handle that posts messages into the running graph's blocks from another thread
    /// (see [`MessagePoster`]); `None` when not running.
    pub fn message_poster(&self) -> Option<MessagePoster> {
        self.active.as_ref().map(|a| MessagePoster {
            control: a.control.clone(),
        })
    }

    /// A handle that reads how full the running graph's stream buffers are, from another
    /// thread; `None` when not running.
    pub fn buffer_fill(&self) -> Option<BufferFill> {
        self.active.as_ref().map(|a| BufferFill(a.control.clone()))
    }

    /// Whether the calling thread is one of this running graph's own scheduler threads (a
    /// block's `work` or message handler), where [`wait`](Self::wait) is refused.
    pub fn called_from_own_block(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| crate::current_run::is(&a.control))
    }

    /// Whether [`start`](Self::start) was called and [`wait`](Self::wait) has not returned.
    pub fn is_running(&self) -> bool {
        self.active.is_some()
    }

    /// Whether every scheduler thread has ended (so [`wait`](Self::wait) will not block).
    pub fn is_finished(&self) -> bool {
        self.active
            .as_ref()
            .is_none_or(|a| a.threads.iter().all(JoinHandle::is_finished))
    }

    /// The blocks of the running graph whose threads are inside their code now (a work call,
    /// a message handler, a stop hook); empty when not running.
    pub fn busy_blocks(&self) -> Vec<&str> {
        let Some(active) = &self.active else {
            return Vec::new();
        };
        active
            .counters
            .0
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_busy())
            .map(|(i, _)| &*self.nodes[i].name)
            .collect()
    }

    /// The blocks of the running graph that have not finished and whose threads are not
    /// inside their code: they wait for a neighbour (input, output space, a message, or the
    /// end of their readers or senders); empty when not running.
    pub fn waiting_blocks(&self) -> Vec<&str> {
        let Some(active) = &self.active else {
            return Vec::new();
        };
        active
            .counters
            .0
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.is_finished() && !c.is_busy())
            .map(|(i, _)| &*self.nodes[i].name)
            .collect()
    }

    /// As [`wait`](Self::wait), but gives up after `timeout` if the run has not ended:
    /// [`RunError::Unresponsive`] names the blocks whose threads are inside block code (a
    /// work call or handler that does not return) and the other blocks that have not
    /// finished, and the run goes on. After
    /// [`stop`](Self::stop), a graph whose blocks return ends promptly; one that does not
    /// is named here instead of hanging the caller.
    ///
    /// # Errors
    /// As [`wait`](Self::wait), and [`RunError::Unresponsive`].
    pub fn wait_timeout(&mut self, timeout: std::time::Duration) -> Result<(), RunError> {
        if self.called_from_own_block() {
            return Err(RunError::WaitFromBlock);
        }
        if self.active.is_none() {
            return Err(RunError::NotRunning);
        }
        let start = std::time::Instant::now();
        let mut nap = std::time::Duration::from_micros(100);
        while !self.is_finished() {
            let waited = start.elapsed();
            if waited >= timeout {
                let names = |b: Vec<&str>| b.into_iter().map(str::to_owned).collect();
                return Err(RunError::Unresponsive {
                    blocks: names(self.busy_blocks()),
                    waiting: names(self.waiting_blocks()),
                    waited,
                });
            }
            std::thread::sleep(nap.min(timeout - waited));
            nap = (nap * 2).min(std::time::Duration::from_millis(10));
        }
        self.wait()
    }

    /// Waits until every block finished, takes the blocks back, and reports how the run ended.
    ///
    /// # Errors
    /// The first block error or panic (naming the block), [`RunError::NotRunning`], or
    /// [`RunError::WaitFromBlock`] when called from one of the graph's own blocks (the run
    /// goes on).
    pub fn wait(&mut self) -> Result<(), RunError> {
        if self.called_from_own_block() {
            return Err(RunError::WaitFromBlock);
        }
        let active = self.active.take().ok_or(RunError::NotRunning)?;
        self.thread_stats.clear();
        let mut lost = None;
        let mut traces = Vec::new();
        for t in active.threads {
            match t.join() {
                Ok(tasks) => {
                    for mut task in tasks {
                        self.thread_stats.extend(task.thread.take());
                        if let Some(ring) = task.trace.take() {
                            traces.push((task.index, *ring));
                        }
                        let node = &mut self.nodes[task.index];
                        node.block = Some(task.block);
                        node.stats = task.counters.snapshot();
                    }
                }
                Err(_) => lost = Some(active.scheduler.clone()),
            }
        }
        traces.sort_by_key(|(i, _)| *i);
        self.trace = self.trace_config.map(|_| Trace {
            origin: active.origin,
            blocks: traces
                .into_iter()
                .map(|(i, ring)| BlockTrace {
                    name: self.nodes[i].name.clone(),
                    ring,
                })
                .collect(),
        });
        if let Some(e) = active.control.take_failure() {
            return Err(e);
        }
        if let Some(scheduler) = lost {
            return Err(RunError::Scheduler {
                scheduler,
                error: "a scheduler thread panicked".into(),
            });
        }
        Ok(())
    }
}

impl Drop for Flowgraph {
    fn drop(&mut self) {
        if self.active.is_some() {
            self.stop();
            let _ = self.wait();
        }
    }
}
