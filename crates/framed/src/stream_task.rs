//! Streaming blocks with fixed rates as tasks: [`TaskGraph::stream_block`].

use crate::error::BuildError;
use crate::io::{In, Out, Status};
use crate::task_graph::{Sequential, Task, TaskGraph};
use radioflow_runtime::{
    block, Block, BlockError, BlockTask, Flowgraph, Item, Parker, Ports, ReadyGraph, RunError,
    Scheduler, Step, StreamInput, StreamOutput, WorkStatus,
};
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Hands the flowgraph's tasks to the task state, which steps them on its own thread; the
/// launched thread only waits to give them back when the state is dropped.
struct Inline {
    tasks: Mutex<Option<mpsc::Sender<Vec<BlockTask>>>>,
    back: Mutex<Option<mpsc::Receiver<Vec<BlockTask>>>>,
}

impl Scheduler for Inline {
    fn name(&self) -> &str {
        "framed-inline"
    }

    fn launch(&self, graph: ReadyGraph) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError> {
        let order = graph.topology().execution_order();
        let n = graph.topology().len();
        let parker = Arc::new(Parker::new());
        let mut slots: Vec<Option<BlockTask>> = graph
            .into_tasks(vec![parker; n])?
            .into_iter()
            .map(Some)
            .collect();
        let ordered: Vec<BlockTask> = order.iter().filter_map(|&i| slots[i].take()).collect();
        let err = |e: &str| RunError::Scheduler {
            scheduler: "framed-inline".into(),
            error: e.into(),
        };
        let back = self
            .back
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| err("launched twice"))?;
        self.tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| err("launched twice"))?
            .send(ordered)
            .map_err(|_| err("no receiver"))?;
        Ok(vec![std::thread::spawn(move || {
            back.recv().unwrap_or_default()
        })])
    }
}

/// Feeds a frame's items into the stream.
#[derive(Ports)]
struct Feeder<T: Item> {
    #[output]
    out: StreamOutput<T>,
    pending: Arc<Mutex<VecDeque<T>>>,
}

#[block]
impl<T: Item> Feeder<T> {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let mut q = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let o = self.out.slice();
        let n = o.len().min(q.len());
        for (o, x) in o.iter_mut().zip(q.drain(..n)) {
            *o = x;
        }
        self.out.produce(n);
        Ok(WorkStatus::Continue)
    }
}

/// Collects what the block produced.
#[derive(Ports)]
struct Collector<U: Item> {
    #[input(name = "in")]
    input: StreamInput<U>,
    got: Arc<Mutex<Vec<U>>>,
}

#[block]
impl<U: Item> Collector<U> {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        let n = i.len();
        self.got
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(i);
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

/// The state of a task made by [`TaskGraph::stream_block`]: a private flowgraph
/// (feeder -> block -> collector) stepped on the task's thread.
pub struct StreamBlock<T: Item, U: Item> {
    name: String,
    fg: Flowgraph,
    tasks: Vec<BlockTask>,
    back: Option<mpsc::Sender<Vec<BlockTask>>>,
    pending: Arc<Mutex<VecDeque<T>>>,
    got: Arc<Mutex<Vec<U>>>,
}

impl<T: Item, U: Item> std::fmt::Debug for StreamBlock<T, U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamBlock")
            .field("name", &self.name)
            .finish()
    }
}

impl<T: Item, U: Item> StreamBlock<T, U> {
    /// Puts `input` in and steps the blocks until `output` is full.
    fn run(&mut self, input: &[T], output: &mut [U]) -> Result<(), String> {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(input.iter().copied());
        loop {
            let mut progress = false;
            for t in &mut self.tasks {
                match t.step() {
                    Step::Progress => progress = true,
                    Step::Idle => {}
                    Step::Done => return Err(format!("block '{}' stopped", t.name())),
                }
            }
            let mut got = self.got.lock().unwrap_or_else(|e| e.into_inner());
            if got.len() >= output.len() {
                output.copy_from_slice(&got[..output.len()]);
                got.drain(..output.len());
                return Ok(());
            }
            if !progress {
                return Err(format!(
                    "'{}' produced {} of the {} items of a frame",
                    self.name,
                    got.len(),
                    output.len()
                ));
            }
        }
    }
}

impl<T: Item, U: Item> Drop for StreamBlock<T, U> {
    fn drop(&mut self) {
        self.fg.stop();
        if let Some(b) = self.back.take() {
            let _ = b.send(std::mem::take(&mut self.tasks));
        }
        let _ = self.fg.wait();
    }
}

/// What [`TaskGraph::stream_block`] makes: the task and its input and output sockets.
pub type StreamTask<T, U> = (Task<StreamBlock<T, U>, Sequential>, In<T>, Out<U>);

impl TaskGraph {
    /// A streaming block with one stream input and one stream output as a task (of a
    /// [`Sequential`] module): each frame, the `in_len` items of its input socket go into the
    /// block and the next `out_len` items it produces fill its output socket. The block must
    /// produce them from that input (a fixed rate `out_len / in_len`, as for
    /// `MultiplyConst` or a decimator).
    ///
    /// # Errors
    /// [`BuildError::Params`] if the block's flowgraph cannot start (ports, start hook).
    ///
    /// # Panics
    /// The task panics (an error of the sequence or pipeline) if the block does not produce a
    /// frame's items.
    pub fn stream_block<T: Item, U: Item, B: Block>(
        &mut self,
        name: &str,
        block: B,
        in_len: usize,
        out_len: usize,
    ) -> Result<StreamTask<T, U>, BuildError> {
        let pending = Arc::new(Mutex::new(VecDeque::new()));
        let got = Arc::new(Mutex::new(Vec::new()));
        let mut fg = Flowgraph::new();
        let f = fg.add(Feeder {
            out: StreamOutput::new(),
            pending: pending.clone(),
        });
        let b = fg.add_named(name, block);
        let c = fg.add(Collector {
            input: StreamInput::new(),
            got: got.clone(),
        });
        let params = |e: &dyn std::fmt::Display| BuildError::Params(format!("{name}: {e}"));
        fg.connect(f, b).map_err(|e| params(&e))?;
        fg.connect(b, c).map_err(|e| params(&e))?;
        let (tx, rx) = mpsc::channel();
        let (back_tx, back_rx) = mpsc::channel();
        let sched = Inline {
            tasks: Mutex::new(Some(tx)),
            back: Mutex::new(Some(back_rx)),
        };
        fg.start(&sched).map_err(|e| params(&e))?;
        let tasks = rx.recv().map_err(|e| params(&e))?;
        let state = StreamBlock {
            name: name.to_owned(),
            fg,
            tasks,
            back: Some(back_tx),
            pending,
            got,
        };
        let m = self.sequential_module(name, state);
        let t = self.task(m, name);
        let i = self.input::<T>(t, "in", in_len);
        let o = self.output::<U>(t, "out", out_len);
        self.codelet(t, move |s: &mut StreamBlock<T, U>, io| {
            if let Err(e) = s.run(io.input(i), io.output(o)) {
                panic!("{e}");
            }
            Status::Continue
        });
        Ok((t, i, o))
    }
}
