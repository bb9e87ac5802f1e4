//! A block as Python sees it: made by a factory (`blocks.head(...)`), then moved into the
//! flowgraph it is first connected in, and read through that flowgraph afterwards (sink data,
//! stored messages, counters).

use crate::dtype::{with_dtype, Dtype};
use crate::errors::RunError;
use crate::hosts::RemoteSpec;
use crate::lock::lock;
use crate::pmt::to_py;
use crate::shared_flowgraph::{ErrorSlot, SharedFlowgraph};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use radioflow_blocks::{MessageCounter, MessageDebug, VectorSink};
use radioflow_runtime::{Block, BlockId, BlockStats, Flowgraph, Pmt, Tag};
use std::sync::{Arc, Mutex};

/// Adds the block to a flowgraph under an instance name and returns its id.
pub(crate) type Adder = Box<dyn FnOnce(&mut Flowgraph, &str) -> BlockId + Send>;

/// What can be read from a block beyond its counters.
#[derive(Clone)]
pub(crate) enum Kind {
    VectorSink(Dtype),
    MessageDebug,
    MessageCounter,
    /// A block written in Python, with the slot its exceptions go to.
    Python(ErrorSlot),
    Other,
}

enum State {
    Pending(Adder),
    Added {
        graph: Arc<SharedFlowgraph>,
        id: BlockId,
    },
    /// The adder was taken by a flowgraph that is adding it right now.
    Adding,
}

/// A block of the native library (or the native side of a Python block).
#[pyclass(frozen, module = "radioflow", name = "Block")]
pub(crate) struct BlockHandle {
    type_name: &'static str,
    requested_name: String,
    kind: Kind,
    state: Mutex<State>,
    /// `data()` of a vector sink so far (numpy array), kept so that repeated calls return it.
    data: Mutex<Option<Py<PyAny>>>,
    /// What made a library block (so that another host can make it again).
    remote: Option<RemoteSpec>,
}

impl BlockHandle {
    /// A new block not yet in a flowgraph.
    pub(crate) fn new<B: Block>(
        type_name: &'static str,
        name: Option<String>,
        kind: Kind,
        block: B,
    ) -> Self {
        Self::new_boxed(type_name, name, kind, Box::new(block))
    }

    /// A new block made at run time (by the registry), not yet in a flowgraph.
    pub(crate) fn new_boxed(
        type_name: &'static str,
        name: Option<String>,
        kind: Kind,
        block: Box<dyn Block>,
    ) -> Self {
        Self {
            type_name,
            requested_name: name.unwrap_or_default(),
            kind,
            state: Mutex::new(State::Pending(Box::new(move |fg, name| {
                fg.add_boxed((!name.is_empty()).then_some(name), block)
            }))),
            data: Mutex::new(None),
            remote: None,
        }
    }

    /// Remembers what made this library block: it can then run on another host.
    pub(crate) fn made_from(mut self, spec: RemoteSpec) -> Self {
        self.remote = Some(spec);
        self
    }

    /// The block's id in `graph`, adding it there first if it is in no flowgraph yet.
    pub(crate) fn id_in(&self, py: Python<'_>, graph: &Arc<SharedFlowgraph>) -> PyResult<BlockId> {
        crate::shared_flowgraph::ensure_outside_flowgraph()?;
        let adder = {
            let mut state = lock(&self.state);
            match &*state {
                State::Added { graph: g, id } if Arc::ptr_eq(g, graph) => return Ok(*id),
                State::Added { .. } => {
                    return Err(crate::errors::ConnectError::new_err(format!(
                        "block '{}' ({}) already belongs to another flowgraph",
                        self.label(),
                        self.type_name
                    )));
                }
                State::Adding => {
                    return Err(crate::errors::ConnectError::new_err(format!(
                        "block '{}' is being added to a flowgraph by another thread",
                        self.label()
                    )))
                }
                State::Pending(_) => {}
            }
            match std::mem::replace(&mut *state, State::Adding) {
                State::Pending(adder) => adder,
                _ => unreachable!("checked above"),
            }
        };
        let name = self.requested_name.clone();
        let id = graph.with_fg(py, move |fg| adder(fg, &name))?;
        if let Kind::Python(slot) = &self.kind {
            graph.add_python_block(id, slot.clone());
        }
        if let Some(spec) = &self.remote {
            graph.placement.made(id, spec.clone());
        }
        *lock(&self.state) = State::Added {
            graph: graph.clone(),
            id,
        };
        Ok(id)
    }

    /// The flowgraph and id, or an error saying the block is in no flowgraph yet.
    fn added(&self) -> PyResult<(Arc<SharedFlowgraph>, BlockId)> {
        match &*lock(&self.state) {
            State::Added { graph, id } => Ok((graph.clone(), *id)),
            _ => Err(RunError::new_err(format!(
                "block '{}' is not in a flowgraph yet: connect it and run the flowgraph first",
                self.label()
            ))),
        }
    }

    /// Runs `f` on this block's flowgraph (not while it runs) and id.
    fn with_block<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Flowgraph, BlockId) -> R + Send,
    ) -> PyResult<R> {
        let (graph, id) = self.added()?;
        graph.with_stopped_fg(py, move |fg| f(fg, id))
    }

    fn label(&self) -> String {
        if self.requested_name.is_empty() {
            self.type_name.to_owned()
        } else {
            self.requested_name.clone()
        }
    }

    fn wrong_kind(&self, what: &str, only: &str) -> PyErr {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "block '{}' ({}) has no {what}: only {only} blocks do",
            self.label(),
            self.type_name
        ))
    }
}

#[pymethods]
impl BlockHandle {
    /// The instance name (unique in its flowgraph once added, e.g. `head0`).
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        let added = match &*lock(&self.state) {
            State::Added { graph, id } => Some((graph.clone(), *id)),
            _ => None,
        };
        match added {
            Some((graph, id)) => graph.name_of(py, id),
            None => Ok(self.label()),
        }
    }

    /// The block type (`head`, `vector_sink`, ...).
    #[getter]
    fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The items a vector sink received, as a numpy array. The array takes over the sink's
    /// memory (no copy); later calls return the same array, extended by what later runs added.
    fn data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Kind::VectorSink(dtype) = self.kind else {
            return Err(self.wrong_kind("data()", "vector_sink"));
        };
        let fresh = with_dtype!(dtype, T => {
            let v = self.with_block(py, |fg, id| {
                fg.block_mut::<VectorSink<T>>(id).map(VectorSink::take).unwrap_or_default()
            })?;
            PyArray1::from_vec(py, v).into_any()
        });
        let mut cache = lock(&self.data);
        let array = match cache.take() {
            Some(old) if fresh.len()? > 0 => {
                let numpy = py.import("numpy")?;
                numpy
                    .getattr("concatenate")?
                    .call1(((old, fresh),))?
                    .unbind()
            }
            Some(old) => old,
            None => fresh.unbind(),
        };
        *cache = Some(array.clone_ref(py));
        Ok(array)
    }

    /// The tags a vector sink received: `(offset, key, value)` tuples, offsets index `data()`.
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let Kind::VectorSink(dtype) = self.kind else {
            return Err(self.wrong_kind("tags()", "vector_sink"));
        };
        let tags: Vec<Tag> = with_dtype!(dtype, T => self.with_block(py, |fg, id| {
            fg.block::<VectorSink<T>>(id).map(|s| s.tags().to_vec()).unwrap_or_default()
        })?);
        let items: PyResult<Vec<_>> = tags
            .iter()
            .map(|t| {
                PyTuple::new(
                    py,
                    [
                        t.offset.into_pyobject(py)?.into_any(),
                        to_py(py, &t.key)?,
                        to_py(py, &t.value)?,
                    ],
                )
            })
            .collect();
        PyList::new(py, items?)
    }

    /// Forgets what a vector sink or message store received.
    fn reset(&self, py: Python<'_>) -> PyResult<()> {
        match self.kind {
            Kind::VectorSink(dtype) => with_dtype!(dtype, T => self.with_block(py, |fg, id| {
                if let Some(s) = fg.block_mut::<VectorSink<T>>(id) {
                    *s = VectorSink::new();
                }
            })?),
            Kind::MessageDebug => self.with_block(py, |fg, id| {
                fg.block_mut::<MessageDebug>(id).map(MessageDebug::take);
            })?,
            _ => return Err(self.wrong_kind("reset()", "vector_sink and message_debug")),
        }
        *lock(&self.data) = None;
        Ok(())
    }

    /// The messages a message_debug block stored, converted to Python values.
    fn messages<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let Kind::MessageDebug = self.kind else {
            return Err(self.wrong_kind("messages()", "message_debug"));
        };
        let msgs: Vec<Pmt> = self.with_block(py, |fg, id| {
            fg.block::<MessageDebug>(id)
                .map(|b| b.messages().to_vec())
                .unwrap_or_default()
        })?;
        let items: PyResult<Vec<_>> = msgs.iter().map(|m| to_py(py, m)).collect();
        PyList::new(py, items?)
    }

    /// The number of messages a message_counter block received.
    fn count(&self, py: Python<'_>) -> PyResult<u64> {
        let Kind::MessageCounter = self.kind else {
            return Err(self.wrong_kind("count()", "message_counter"));
        };
        self.with_block(py, |fg, id| {
            fg.block::<MessageCounter>(id)
                .map_or(0, MessageCounter::count)
        })
    }

    /// The block's counters: live while the graph runs, else those of the last run. Keys:
    /// work_calls, items_consumed, items_produced, produced_log2 (calls by log2 of the items
    /// produced), work_ns/_min/_avg/_max (with counters "timed"), input_empty, output_full
    /// (steps that found nothing to read / no room), messages, events (what the block counts
    /// itself, by name: a radio's "overflows").
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let (graph, id) = self.added()?;
        let s: BlockStats = graph.with_fg(py, |fg| fg.live_stats(id).unwrap_or_default())?;
        stats_dict(py, &s)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let name = self.name(py).unwrap_or_else(|_| self.label());
        format!("<radioflow block '{name}' ({})>", self.type_name)
    }
}

/// A block's counters as a dict.
fn stats_dict<'py>(py: Python<'py>, s: &BlockStats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("work_calls", s.work_calls)?;
    d.set_item("items_consumed", s.items_consumed)?;
    d.set_item("items_produced", s.items_produced)?;
    d.set_item("produced_log2", s.produced_log2.to_vec())?;
    d.set_item("work_ns", s.work_ns)?;
    d.set_item("work_ns_min", s.work_ns_min)?;
    d.set_item("work_ns_avg", s.work_ns_avg())?;
    d.set_item("work_ns_max", s.work_ns_max)?;
    d.set_item("input_empty", s.input_empty)?;
    d.set_item("output_full", s.output_full)?;
    d.set_item("messages", s.messages)?;
    let events = PyDict::new(py);
    for (name, count) in &s.events {
        events.set_item(*name, *count)?;
    }
    d.set_item("events", events)?;
    Ok(d)
}
