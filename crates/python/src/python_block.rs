//! Blocks written in Python: a `radioflow.SyncBlock` subclass whose `work(input_items,
//! output_items)` gets numpy views straight into the stream buffers (no copy) and returns how
//! many items it used on every port, as GNU Radio's `gr.sync_block`; message handlers; tags.
//!
//! The views are only valid during the call: a block that keeps one (or a slice of one) after
//! `work` returns fails with an error saying so, instead of reading freed buffer memory later.
//! Python blocks hold the interpreter lock while they run, so schedulers give them a thread of
//! their own ([`Block::is_blocking`]) and native blocks never wait for Python.

use crate::dtype::Dtype;
use crate::errors::{value_error, RunError};
use crate::handle::{BlockHandle, Kind};
use crate::lock::lock;
use crate::pmt::{from_py, to_py};
use crate::shared_flowgraph::ErrorSlot;
use crate::views::view;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use radioflow_runtime::{
    Block, BlockError, BufferKeepAlive, Complex32, MessageOutput, MessageSender, Pmt, Ports,
    StreamInput, StreamOutput, Tag, WorkStatus,
};
use std::sync::{Arc, Mutex};

/// GNU Radio's `WORK_DONE`: returned by `work` when the block will produce nothing more.
const WORK_DONE: i64 = -1;
/// GNU Radio's `WORK_CALLED_PRODUCE`: returned by `general_work` that called `produce()`.
const WORK_CALLED_PRODUCE: i64 = -2;

macro_rules! any_ports {
    ($($variant:ident => $t:ty),*) => {
        /// A stream input of any supported item type.
        enum AnyInput { $($variant(StreamInput<$t>)),* }
        /// A stream output of any supported item type.
        enum AnyOutput { $($variant(StreamOutput<$t>)),* }

        impl AnyInput {
            fn new(d: Dtype, min_items: usize) -> Self {
                match d { $(Dtype::$variant => AnyInput::$variant(StreamInput::new().with_min_items(min_items))),* }
            }
            fn declare(&mut self, p: &mut Ports<'_>, name: &str) {
                match self { $(AnyInput::$variant(x) => p.stream_input(name, x)),* }
            }
            fn available(&self) -> usize {
                match self { $(AnyInput::$variant(x) => x.slice().len()),* }
            }
            /// A read-only view of the first `n` readable items.
            ///
            /// # Safety
            /// The view must not be used after this port's window changes (consume, next call).
            unsafe fn view<'py>(&self, base: &Bound<'py, PyAny>, n: usize) -> PyResult<Bound<'py, PyAny>> {
                match self {
                    $(AnyInput::$variant(x) => {
                        let s = &x.slice()[..n];
                        // SAFETY: `s` is readable for the rest of this work call; the caller
                        // refuses views that outlive it.
                        unsafe { view(base, s.as_ptr(), n, false) }
                    }),*
                }
            }
            fn consume(&mut self, n: usize) {
                match self { $(AnyInput::$variant(x) => x.consume(n)),* }
            }
            fn keep_alive(&self) -> Option<BufferKeepAlive> {
                match self { $(AnyInput::$variant(x) => x.keep_alive()),* }
            }
            fn tags(&self) -> &[Tag] {
                match self { $(AnyInput::$variant(x) => x.tags()),* }
            }
            fn offset(&self) -> u64 {
                match self { $(AnyInput::$variant(x) => x.offset()),* }
            }
        }

        impl AnyOutput {
            fn new(d: Dtype, min_items: usize) -> Self {
                match d { $(Dtype::$variant => AnyOutput::$variant(StreamOutput::new().with_min_items(min_items))),* }
            }
            fn declare(&mut self, p: &mut Ports<'_>, name: &str) {
                match self { $(AnyOutput::$variant(x) => p.stream_output(name, x)),* }
            }
            fn space(&mut self) -> usize {
                match self { $(AnyOutput::$variant(x) => x.slice().len()),* }
            }
            /// A writable view of the first `n` free items.
            ///
            /// # Safety
            /// As for [`AnyInput::view`].
            unsafe fn view<'py>(&mut self, base: &Bound<'py, PyAny>, n: usize) -> PyResult<Bound<'py, PyAny>> {
                match self {
                    $(AnyOutput::$variant(x) => {
                        let s = &mut x.slice()[..n];
                        // SAFETY: `s` is ours to write for the rest of this work call; the
                        // caller refuses views that outlive it.
                        unsafe { view(base, s.as_mut_ptr().cast_const(), n, true) }
                    }),*
                }
            }
            fn produce(&mut self, n: usize) {
                match self { $(AnyOutput::$variant(x) => x.produce(n)),* }
            }
            fn keep_alive(&self) -> Option<BufferKeepAlive> {
                match self { $(AnyOutput::$variant(x) => x.keep_alive()),* }
            }
            fn add_tag(&mut self, offset: u64, key: Pmt, value: Pmt) {
                match self { $(AnyOutput::$variant(x) => x.add_tag(offset, key, value)),* }
            }
            fn add_tag_at(&mut self, offset: u64, tag: &Tag) {
                match self { $(AnyOutput::$variant(x) => x.add_tag_at(offset, tag)),* }
            }
            fn offset(&self) -> u64 {
                match self { $(AnyOutput::$variant(x) => x.offset()),* }
            }
        }
    };
}

any_ports!(
    Float32 => f32,
    Float64 => f64,
    Complex32 => Complex32,
    Int8 => i8,
    Uint8 => u8,
    Int16 => i16,
    Int32 => i32
);

/// The base object of the numpy views handed to one `work` call: every view references it,
/// so its reference count tells whether a view survived the call. If one did, the lease is
/// given the buffers' keep-alive handles, so that the surviving view reads stale items rather
/// than unmapped memory until it is dropped.
#[pyclass(frozen, module = "radioflow")]
struct BufferLease {
    keep: Mutex<Vec<BufferKeepAlive>>,
}

/// What a Python block sees of the runtime (`self._rf_ctx`): item counters and tags on the
/// current inputs during a call, the tags it adds, and its message outputs, on which it
/// publishes from any thread while it runs.
#[pyclass(frozen, module = "radioflow", name = "WorkContext")]
pub(crate) struct WorkContext {
    block: String,
    /// The message outputs' names and senders, in port order.
    message_outputs: Vec<(String, MessageSender)>,
    inner: Mutex<Context>,
}

#[derive(Default)]
struct Context {
    outputs: usize,
    nitems_read: Vec<u64>,
    nitems_written: Vec<u64>,
    /// Tags on the items offered to the current call, per input.
    tags: Vec<Vec<Tag>>,
    /// Tags added during the current call: (output, tag).
    new_tags: Vec<(usize, Tag)>,
    /// Items offered to the current call, per input, and per output.
    offered_in: Vec<usize>,
    offered_out: usize,
    /// `consume()`d items per input and `produce()`d items per output in the current
    /// `general_work` call.
    consumed: Vec<usize>,
    produced: Vec<usize>,
    /// Whether `produce()` was called in the current call.
    called_produce: bool,
}

fn tag_tuple<'py>(py: Python<'py>, t: &Tag) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            t.offset.into_pyobject(py)?.into_any(),
            to_py(py, &t.key)?,
            to_py(py, &t.value)?,
        ],
    )
}

#[pymethods]
impl WorkContext {
    /// Items consumed so far on input `i`.
    fn nitems_read(&self, i: usize) -> PyResult<u64> {
        let c = lock(&self.inner);
        c.nitems_read
            .get(i)
            .copied()
            .ok_or_else(|| value_error(format!("block '{}' has no stream input {i}", self.block)))
    }

    /// Items produced so far on output `o`.
    fn nitems_written(&self, o: usize) -> PyResult<u64> {
        let c = lock(&self.inner);
        c.nitems_written
            .get(o)
            .copied()
            .ok_or_else(|| value_error(format!("block '{}' has no stream output {o}", self.block)))
    }

    /// Tags on the items of input `i` offered to this call: `(offset, key, value)` tuples
    /// with absolute offsets.
    fn tags<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyList>> {
        let c = lock(&self.inner);
        let Some(tags) = c.tags.get(i) else {
            return Err(value_error(format!(
                "block '{}' has no stream input {i}",
                self.block
            )));
        };
        let items: PyResult<Vec<_>> = tags.iter().map(|t| tag_tuple(py, t)).collect();
        PyList::new(py, items?)
    }

    /// Puts a tag on item `offset` (absolute) of output `o`; it must be one of the items this
    /// call produces.
    fn add_tag(
        &self,
        o: usize,
        offset: u64,
        key: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (key, value) = (from_py(key)?, from_py(value)?);
        let mut c = lock(&self.inner);
        if o >= c.outputs {
            return Err(value_error(format!(
                "block '{}' has no stream output {o}",
                self.block
            )));
        }
        let written = c.nitems_written[o];
        if offset < written {
            return Err(value_error(format!(
                "block '{}': tag offset {offset} on output {o} is before the items of this call \
                 (which start at {written})",
                self.block
            )));
        }
        c.new_tags.push((o, Tag::new(offset, key, value)));
        Ok(())
    }

    /// GNU Radio's `consume(which_input, n)` in `general_work`: `n` more items of input
    /// `which_input` are used (at most the items offered).
    fn consume(&self, which_input: usize, n: usize) -> PyResult<()> {
        let mut c = lock(&self.inner);
        let Some(&offered) = c.offered_in.get(which_input) else {
            return Err(value_error(format!(
                "block '{}' has no stream input {which_input}",
                self.block
            )));
        };
        let total = c.consumed[which_input] + n;
        if total > offered {
            return Err(value_error(format!(
                "block '{}': consume({which_input}, {n}) makes {total} items, but this call was                  offered {offered} on that input",
                self.block
            )));
        }
        c.consumed[which_input] = total;
        Ok(())
    }

    /// GNU Radio's `produce(which_output, n)` in `general_work` (which then returns
    /// `WORK_CALLED_PRODUCE`, -2): `n` more items of output `which_output` are written.
    fn produce(&self, which_output: usize, n: usize) -> PyResult<()> {
        let mut c = lock(&self.inner);
        if which_output >= c.outputs {
            return Err(value_error(format!(
                "block '{}' has no stream output {which_output}",
                self.block
            )));
        }
        let total = c.produced[which_output] + n;
        if total > c.offered_out {
            return Err(value_error(format!(
                "block '{}': produce({which_output}, {n}) makes {total} items, but this call                  offered room for {}",
                self.block, c.offered_out
            )));
        }
        c.produced[which_output] = total;
        c.called_produce = true;
        Ok(())
    }

    /// Publishes `msg` on message output `port` now, from any thread (work, a handler,
    /// `start`/`stop`, a thread or timer of the block's own): delivered while the block runs,
    /// an error when it does not.
    fn publish(&self, port: &str, msg: &Bound<'_, PyAny>) -> PyResult<()> {
        let Some((_, sender)) = self.message_outputs.iter().find(|(p, _)| p == port) else {
            let names: Vec<&str> = self.message_outputs.iter().map(|(p, _)| &**p).collect();
            return Err(value_error(format!(
                "block '{}' has no message output '{port}' (it has: {})",
                self.block,
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                }
            )));
        };
        if sender.post(from_py(msg)?) {
            Ok(())
        } else {
            Err(RunError::new_err(format!(
                "block '{}': message_port_pub('{port}', ...) while the block is not running \
                 (its flowgraph has not started, or the block has finished): the message \
                 cannot be delivered",
                self.block
            )))
        }
    }
}

/// The native side of a Python block.
struct PythonBlock {
    obj: Py<PyAny>,
    ctx: Py<WorkContext>,
    label: String,
    inputs: Vec<AnyInput>,
    outputs: Vec<AnyOutput>,
    message_inputs: Vec<String>,
    message_outputs: Vec<(String, MessageOutput)>,
    error: ErrorSlot,
    /// `work` is offered a whole multiple of this many output items (GNU Radio's
    /// `set_output_multiple`); the ports declare it (times the rates) as their window.
    multiple: usize,
    /// Input items per output item (a `DecimBlock`; 1 otherwise).
    decimation: usize,
    /// Output items per input item (an `InterpBlock`; 1 otherwise).
    interpolation: usize,
    /// GNU Radio's `general_work` block (`gr.basic_block` with streams): it consumes and
    /// produces what it says; `forecast` is Python's when the class defines one.
    general: Option<General>,
    /// Items offered to the current call per input, then consumed (reused).
    offered: Vec<usize>,
    /// Items a `general_work` call produced per output (reused).
    produced: Vec<usize>,
    /// Where input tags go.
    policy: Policy,
}

/// How a `general_work` block is called.
struct General {
    /// Whether the class defines `forecast` (else GNU Radio's default: as many input items
    /// on each input as output items asked).
    forecast: bool,
    /// Its relative rate (`set_relative_rate`) as a fraction, which moves its tags.
    rate: (u64, u64),
}

/// GNU Radio's tag propagation policies (`set_tag_propagation_policy`).
#[derive(Clone, Copy)]
enum Policy {
    /// `TPP_DONT`: no tag goes through.
    Dont,
    /// `TPP_ALL_TO_ALL`: every input's tags to every output (the default).
    AllToAll,
    /// `TPP_ONE_TO_ONE`: input `i`'s tags to output `i`.
    OneToOne,
}

impl Policy {
    /// Whether a tag of input `input` goes to output `output`.
    fn carries(self, input: usize, output: usize) -> bool {
        match self {
            Policy::Dont => false,
            Policy::AllToAll => true,
            Policy::OneToOne => input == output,
        }
    }
}

impl PythonBlock {
    /// Whether a view of this call's buffers outlived the call; if so, the lease keeps the
    /// buffers mapped for as long as such a view lives.
    fn guard_lease(&self, lease: &Bound<'_, BufferLease>) -> bool {
        // SAFETY: `lease` is a live object we hold a reference to.
        if unsafe { pyo3::ffi::Py_REFCNT(lease.as_ptr()) } <= 1 {
            return false;
        }
        let mut keep = lock(&lease.get().keep);
        keep.extend(self.inputs.iter().filter_map(AnyInput::keep_alive));
        keep.extend(self.outputs.iter().filter_map(AnyOutput::keep_alive));
        true
    }

    /// Keeps the Python exception for the flowgraph and turns it into a block error.
    fn fail(&self, py: Python<'_>, during: &str, e: PyErr) -> BlockError {
        let text = format!("{during} raised {e}");
        *lock(&self.error) = Some(e.into_value(py).into_any());
        BlockError::msg(text)
    }

    /// One `work` call on `self.offered[i]` items of input `i` and `n_out` output items (for
    /// a sync/decim/interp block every input is offered `n_out · decimation / interpolation`);
    /// `work` returns the output items it produced. A `general_work` block says what it
    /// consumed (`consume`) and produced (its result, or `produce` and -2).
    fn call_work(&mut self, py: Python<'_>, n_out: usize) -> Result<WorkStatus, BlockError> {
        // A new reference (no allocation), so that `ctx` does not borrow `self`.
        let ctx_ref = self.ctx.clone_ref(py);
        let ctx = ctx_ref.get();
        {
            let mut c = lock(&ctx.inner);
            c.offered_in.clear();
            c.offered_in.extend_from_slice(&self.offered);
            c.offered_out = n_out;
            c.consumed.clear();
            c.consumed.resize(self.inputs.len(), 0);
            c.produced.clear();
            c.produced.resize(self.outputs.len(), 0);
            c.called_produce = false;
            c.nitems_read.clear();
            c.nitems_read
                .extend(self.inputs.iter().map(AnyInput::offset));
            c.nitems_written.clear();
            c.nitems_written
                .extend(self.outputs.iter().map(AnyOutput::offset));
            for (i, input) in self.inputs.iter().enumerate() {
                let end = input.offset() + self.offered[i] as u64;
                c.tags[i].clear();
                c.tags[i].extend(input.tags().iter().take_while(|t| t.offset < end).cloned());
            }
            c.new_tags.clear();
        }
        let to_err = |e: PyErr| BlockError::msg(format!("cannot make the work() arrays: {e}"));
        let lease = Bound::new(
            py,
            BufferLease {
                keep: Mutex::new(Vec::new()),
            },
        )
        .map_err(to_err)?;
        let result = {
            let mut ins = Vec::with_capacity(self.inputs.len());
            for (input, &n_in) in self.inputs.iter().zip(&self.offered) {
                // SAFETY: the view is used only during this call; leaks are detected below.
                ins.push(unsafe { input.view(lease.as_any(), n_in) }.map_err(to_err)?);
            }
            let mut outs = Vec::with_capacity(self.outputs.len());
            for output in &mut self.outputs {
                // SAFETY: as above.
                outs.push(unsafe { output.view(lease.as_any(), n_out) }.map_err(to_err)?);
            }
            let ins = PyList::new(py, ins).map_err(to_err)?;
            let outs = PyList::new(py, outs).map_err(to_err)?;
            let method = if self.general.is_some() {
                intern!(py, "general_work")
            } else {
                intern!(py, "work")
            };
            self.obj.bind(py).call_method1(method, (ins, outs))
        };
        let ret = match result {
            Ok(r) => r,
            Err(e) => {
                // The traceback's frames hold `input_items`/`output_items`: clear them so that
                // the exception (raised again as the cause of the run's error) keeps no view.
                if let Some(tb) = e.traceback(py) {
                    let cleared = py
                        .import("traceback")
                        .and_then(|m| m.call_method1("clear_frames", (tb,)));
                    if let Err(c) = cleared {
                        c.print(py);
                    }
                }
                self.guard_lease(&lease);
                let what = if self.general.is_some() {
                    "general_work()"
                } else {
                    "work()"
                };
                return Err(self.fail(py, what, e));
            }
        };
        if self.guard_lease(&lease) {
            return Err(BlockError::msg(
                "work() kept a reference to its input/output arrays after returning; they are \
                 views into the stream buffers, valid only during the call: copy what you need \
                 to keep (numpy.copy)",
            ));
        }
        let r: i64 = ret.extract().map_err(|_| {
            BlockError::msg(format!(
                "work() must return the number of items it used (an int), not {}",
                ret.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        })?;
        if r == WORK_DONE {
            return Ok(WorkStatus::Done);
        }
        if self.general.is_some() {
            return self.finish_general(ctx, r, n_out);
        }
        let (d, i) = (self.decimation, self.interpolation);
        let produced = usize::try_from(r)
            .ok()
            .filter(|&r| r <= n_out && r % i == 0)
            .ok_or_else(|| {
                BlockError::msg(if self.inputs.is_empty() && self.outputs.is_empty() {
                    format!(
                        "work() returned {r}, but a block without stream ports has no items to \
                         count: return 0 (it is called again only when a message or a \
                         neighbour wakes it), or WORK_DONE (-1) when it has nothing more to \
                         publish; a block that publishes over time does it from a thread it \
                         starts in start()"
                    )
                } else if i > 1 {
                    format!(
                        "work() returned {r}: an interpolating block produces a multiple of \
                         {i} items, at most the {n_out} offered (or -1 when done)"
                    )
                } else {
                    format!(
                        "work() returned {r}, but it was offered {n_out} items (return \
                         0..={n_out}, or -1 when done)"
                    )
                })
            })?;
        let consumed = produced / i * d;
        // Tags: every input tag on a consumed item goes to every output, its offset scaled by
        // the rate and rounded to the nearest item, halves up (GNU Radio's default all-to-all
        // propagation: `offset * relative_rate + 0.5`; a tag on the second half of a
        // decimation's group lands on the next output item, which the next call makes), then
        // the tags the block added.
        let policy = self.policy;
        for (k, input) in self.inputs.iter().enumerate() {
            let (from, end) = (input.offset(), input.offset() + consumed as u64);
            for t in input.tags().iter().take_while(|t| t.offset < end) {
                for (o, output) in self.outputs.iter_mut().enumerate() {
                    if !policy.carries(k, o) {
                        continue;
                    }
                    let at = ((t.offset - from) * 2 * i as u64 + d as u64) / (2 * d as u64)
                        + output.offset();
                    output.add_tag_at(at, t);
                }
            }
        }
        self.offered.fill(consumed);
        self.commit(ctx, |_| produced)
    }

    /// The end of a `general_work` call that returned `r`: what it consumed and produced.
    /// Tags on consumed items go to every output at the same absolute item (GNU Radio's
    /// all-to-all propagation at relative rate 1), or the output's next item where that one
    /// is already written.
    fn finish_general(
        &mut self,
        ctx: &WorkContext,
        r: i64,
        n_out: usize,
    ) -> Result<WorkStatus, BlockError> {
        let called_produce = {
            let c = lock(&ctx.inner);
            self.offered.copy_from_slice(&c.consumed);
            self.produced.copy_from_slice(&c.produced);
            c.called_produce
        };
        let each = match r {
            WORK_CALLED_PRODUCE => None,
            r if (0..=n_out as i64).contains(&r) && !called_produce => Some(r as usize),
            r => {
                return Err(BlockError::msg(format!(
                    "general_work() returned {r}: return the items produced on every output \
                     (0..={n_out}), WORK_CALLED_PRODUCE (-2) after calling produce(), or \
                     WORK_DONE (-1){}",
                    if called_produce {
                        " (it called produce(): return -2)"
                    } else {
                        ""
                    }
                )))
            }
        };
        let (policy, (num, den)) = (
            self.policy,
            self.general.as_ref().map_or((1, 1), |g| g.rate),
        );
        for (k, (input, &n)) in self.inputs.iter().zip(&self.offered).enumerate() {
            let end = input.offset() + n as u64;
            for t in input.tags().iter().take_while(|t| t.offset < end) {
                // GNU Radio's: the offset times the relative rate, halves rounded up.
                let at = (u128::from(t.offset) * 2 * u128::from(num) + u128::from(den))
                    / (2 * u128::from(den));
                let at = u64::try_from(at).unwrap_or(u64::MAX);
                for (o, output) in self.outputs.iter_mut().enumerate() {
                    if policy.carries(k, o) {
                        output.add_tag_at(at.max(output.offset()), t);
                    }
                }
            }
        }
        let produced = std::mem::take(&mut self.produced);
        let status = self.commit(ctx, |o| each.unwrap_or(produced[o]));
        self.produced = produced;
        status
    }

    /// Puts the tags the call added, consumes `self.offered[i]` items of each input `i` and
    /// produces `produced(o)` items on each output `o`.
    fn commit(
        &mut self,
        ctx: &WorkContext,
        produced: impl Fn(usize) -> usize,
    ) -> Result<WorkStatus, BlockError> {
        let new_tags = std::mem::take(&mut lock(&ctx.inner).new_tags);
        for (o, t) in new_tags {
            let end = self.outputs[o].offset() + produced(o) as u64;
            if t.offset >= end {
                return Err(BlockError::msg(format!(
                    "add_item_tag({o}, {}, ...) tags an item this call did not produce (it \
                     produced items up to {})",
                    t.offset,
                    end.saturating_sub(1)
                )));
            }
            self.outputs[o].add_tag(t.offset, t.key, t.value);
        }
        for (input, &n) in self.inputs.iter_mut().zip(&self.offered) {
            input.consume(n);
        }
        for (o, output) in self.outputs.iter_mut().enumerate() {
            output.produce(produced(o));
        }
        Ok(WorkStatus::Continue)
    }
}

impl Block for PythonBlock {
    fn ports(&mut self, p: &mut Ports<'_>) {
        for (i, input) in self.inputs.iter_mut().enumerate() {
            input.declare(p, &format!("in{i}"));
        }
        for (o, output) in self.outputs.iter_mut().enumerate() {
            output.declare(p, &format!("out{o}"));
        }
        for name in &self.message_inputs {
            p.message_input(name);
        }
        for (name, out) in &mut self.message_outputs {
            p.message_output(name, out);
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.general.is_some() {
            return self.general_work();
        }
        let (d, i) = (self.decimation, self.interpolation);
        let n_in = self.inputs.iter().map(AnyInput::available).min();
        let n_out = self.outputs.iter_mut().map(AnyOutput::space).min();
        // Output items this call can produce: whole groups of `i` outputs from `d` inputs.
        let n = match (n_in, n_out) {
            (Some(a), Some(o)) => (a / d * i).min(o),
            (Some(a), None) => a / d * i,
            (None, Some(o)) => o,
            // No stream ports: a message block; `work` lets it publish (a message source).
            (None, None) if self.message_inputs.is_empty() => 0,
            (None, None) => return Ok(WorkStatus::Continue),
        };
        let step = lcm(self.multiple, i);
        let n = n - n % step;
        if n == 0 && !(self.inputs.is_empty() && self.outputs.is_empty()) {
            return Ok(WorkStatus::Continue);
        }
        self.offered.fill(n / i * d);
        crate::thread_state::keep();
        Python::attach(|py| self.call_work(py, n))
    }

    fn handle_message(&mut self, port: usize, msg: Pmt) -> Result<(), BlockError> {
        crate::thread_state::keep();
        Python::attach(|py| {
            let name = &self.message_inputs[port];
            let value = to_py(py, &msg).map_err(|e| self.fail(py, "converting the message", e))?;
            if let Err(e) = self
                .obj
                .bind(py)
                .call_method1(intern!(py, "_rf_handle_message"), (name.as_str(), value))
            {
                return Err(self.fail(py, &format!("the handler of message port '{name}'"), e));
            }
            Ok(())
        })
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.hook("start")
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.hook("stop")
    }

    fn type_name(&self) -> &'static str {
        "python_block"
    }

    fn is_blocking(&self) -> bool {
        true
    }
}

impl PythonBlock {
    /// A `general_work` block's turn, as GNU Radio's scheduler gives it: the output items
    /// there is room for (a multiple of the output multiple), halved (rounded up to the
    /// multiple) until `forecast` asks no more input items than each input holds, or the
    /// multiple is reached; every input's whole contents offered.
    fn general_work(&mut self) -> Result<WorkStatus, BlockError> {
        let m = self.multiple;
        for (n, input) in self.offered.iter_mut().zip(&self.inputs) {
            *n = input.available();
        }
        let mut n = match self.outputs.iter_mut().map(AnyOutput::space).min() {
            Some(space) => space,
            // A sink: as many "outputs" as the fullest input has items (GNU Radio asks a
            // sink's forecast the same way).
            None => self.offered.iter().copied().max().unwrap_or(0),
        };
        n -= n % m;
        let forecast = self.general.as_ref().is_some_and(|g| g.forecast);
        crate::thread_state::keep();
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        Python::attach(|py| loop {
            let enough = if forecast {
                self.forecast_allows(py, n)?
            } else {
                self.offered.iter().all(|&a| a >= n)
            };
            if enough {
                return self.call_work(py, n);
            }
            if n <= m {
                // Blocked on input (done when the input is).
                return Ok(WorkStatus::Continue);
            }
            // GNU Radio's reduction: half, rounded up to the output multiple.
            n = (n / 2).div_ceil(m) * m;
        })
    }

    /// Whether `forecast(n, ninputs)` asks at most the items each input holds.
    fn forecast_allows(&self, py: Python<'_>, n: usize) -> Result<bool, BlockError> {
        let r = self
            .obj
            .bind(py)
            .call_method1(intern!(py, "forecast"), (n, self.inputs.len()))
            .map_err(|e| self.fail(py, "forecast()", e))?;
        let required: Vec<usize> = r.extract().map_err(|_| {
            BlockError::msg(format!(
                "forecast() must return a list of {} input item counts, not {}",
                self.inputs.len(),
                r.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        })?;
        if required.len() != self.inputs.len() {
            return Err(BlockError::msg(format!(
                "forecast() returned {} counts for {} inputs",
                required.len(),
                self.inputs.len()
            )));
        }
        Ok(required.iter().zip(&self.offered).all(|(r, a)| r <= a))
    }

    /// Calls `start()` / `stop()`; returning `False` is a failure, as in GNU Radio.
    fn hook(&mut self, which: &str) -> Result<(), BlockError> {
        Python::attach(|py| {
            let ok = self
                .obj
                .bind(py)
                .call_method0(which)
                .and_then(|r| Ok(r.is_none() || r.is_truthy()?));
            match ok {
                Ok(true) => Ok(()),
                Ok(false) => Err(BlockError::msg(format!(
                    "{which}() of block '{}' returned False",
                    self.label
                ))),
                Err(e) => Err(self.fail(py, &format!("{which}()"), e)),
            }
        })
    }
}

/// Makes the native side of Python block `obj` (a `radioflow.SyncBlock`): stream ports of the
/// given numpy types, message ports with the given names. Sets `obj._rf_ctx`.
#[pyfunction]
#[pyo3(signature = (obj, name, in_sig, out_sig, message_inputs, message_outputs, output_multiple = 1, decimation = 1, interpolation = 1, general = None, relative_rate = (1, 1), tag_policy = "all_to_all"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn python_block(
    obj: &Bound<'_, PyAny>,
    name: String,
    in_sig: Vec<String>,
    out_sig: Vec<String>,
    message_inputs: Vec<String>,
    message_outputs: Vec<String>,
    output_multiple: usize,
    decimation: usize,
    interpolation: usize,
    general: Option<bool>,
    relative_rate: (u64, u64),
    tag_policy: &str,
) -> PyResult<BlockHandle> {
    let policy = match tag_policy {
        "dont" => Policy::Dont,
        "all_to_all" => Policy::AllToAll,
        "one_to_one" => Policy::OneToOne,
        other => {
            return Err(value_error(format!(
                "Python block '{name}': tag propagation policy '{other}' (radioflow runs \
                 TPP_DONT, TPP_ALL_TO_ALL and TPP_ONE_TO_ONE)"
            )))
        }
    };
    if relative_rate.0 == 0 || relative_rate.1 == 0 {
        return Err(value_error(format!(
            "Python block '{name}': relative rate {}/{} must be above 0",
            relative_rate.0, relative_rate.1
        )));
    }
    if output_multiple == 0 {
        return Err(value_error(format!(
            "Python block '{name}': the output multiple must be at least 1"
        )));
    }
    if decimation == 0 || interpolation == 0 || (decimation > 1 && interpolation > 1) {
        return Err(value_error(format!(
            "Python block '{name}': decimation {decimation} and interpolation {interpolation}: \
             a block decimates or interpolates by at least 1, not both"
        )));
    }
    if general.is_some() && (decimation > 1 || interpolation > 1) {
        return Err(value_error(format!(
            "Python block '{name}': a general_work block has no fixed rate"
        )));
    }
    // Windows: a call needs a whole group of inputs and room for a whole group of outputs
    // (a general_work block says itself what it needs: one item).
    let out_window = lcm(output_multiple, interpolation);
    let in_window = if general.is_some() {
        1
    } else {
        out_window / interpolation * decimation
    };
    let py = obj.py();
    if in_sig.is_empty()
        && out_sig.is_empty()
        && message_inputs.is_empty()
        && message_outputs.is_empty()
    {
        return Err(value_error(format!(
            "Python block '{name}' has no ports: give it in_sig/out_sig or register message ports"
        )));
    }
    let dtypes =
        |sig: &[String]| -> PyResult<Vec<Dtype>> { sig.iter().map(|s| Dtype::parse(s)).collect() };
    let (ins, outs) = (dtypes(&in_sig)?, dtypes(&out_sig)?);
    for list in [&message_inputs, &message_outputs] {
        for (i, a) in list.iter().enumerate() {
            if list[..i].contains(a) {
                return Err(value_error(format!(
                    "Python block '{name}' registers message port '{a}' twice"
                )));
            }
        }
    }
    let message_outputs: Vec<(String, MessageOutput)> = message_outputs
        .into_iter()
        .map(|n| (n, MessageOutput::new()))
        .collect();
    let ctx = Py::new(
        py,
        WorkContext {
            block: name.clone(),
            message_outputs: message_outputs
                .iter()
                .map(|(n, o)| (n.clone(), o.sender()))
                .collect(),
            inner: Mutex::new(Context {
                outputs: outs.len(),
                tags: vec![Vec::new(); ins.len()],
                ..Context::default()
            }),
        },
    )?;
    obj.setattr("_rf_ctx", ctx.clone_ref(py))?;
    let error: ErrorSlot = Arc::new(Mutex::new(None));
    let block = PythonBlock {
        obj: obj.clone().unbind(),
        ctx,
        label: name.clone(),
        inputs: ins
            .into_iter()
            .map(|d| AnyInput::new(d, in_window))
            .collect(),
        outputs: outs
            .into_iter()
            .map(|d| AnyOutput::new(d, out_window))
            .collect(),
        multiple: output_multiple,
        decimation,
        interpolation,
        general: general.map(|forecast| General {
            forecast,
            rate: relative_rate,
        }),
        policy,
        offered: vec![0; in_sig.len()],
        produced: vec![0; out_sig.len()],
        message_inputs,
        message_outputs,
        error: error.clone(),
    };
    Ok(BlockHandle::new(
        "python_block",
        Some(name),
        Kind::Python(error),
        block,
    ))
}

/// The least common multiple of two counts (both at least 1).
fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}
