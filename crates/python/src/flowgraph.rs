//! The flowgraph object: connect blocks, run them with the interpreter released, stop them
//! (also with Ctrl-C), read their counters.
//!
//! The Rust flowgraph is shared with the blocks added to it ([`SharedFlowgraph`], which says
//! how it is locked).

use crate::errors::{connect_error, value_error, RunError};
use crate::handle::BlockHandle;
use crate::lock::lock;
use crate::scheduler::PyScheduler;
use crate::shared_flowgraph::SharedFlowgraph;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use radioflow_control::{ControlConfig, ProbeConfig, ServeError};
use radioflow_runtime::{
    BlockId, Counters, Direction, Flowgraph, PortName, PortRef, Profile, TraceConfig,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A port given from Python: an index or a name.
fn port(block: BlockId, p: &Bound<'_, PyAny>) -> PyResult<PortRef> {
    let port = match p.extract::<usize>() {
        Ok(i) => PortName::Index(i),
        _ => match p.extract::<String>() {
            Ok(s) => PortName::Name(s),
            _ => {
                return Err(value_error(format!(
                    "a port is an index (int) or a name (str), not {}",
                    p.repr()?
                )));
            }
        },
    };
    Ok(PortRef { block, port })
}

/// One end of a connection as Python gives it: a block and a port (index or name).
type End<'a, 'py> = (&'a Bound<'py, BlockHandle>, &'a Bound<'py, PyAny>);

impl PyFlowgraph {
    /// Adds both blocks if needed and connects their ports with `how` (stream or message).
    fn link(
        &self,
        py: Python<'_>,
        (src, src_port): End<'_, '_>,
        (dst, dst_port): End<'_, '_>,
        how: impl FnOnce(&mut Flowgraph, PortRef, PortRef) -> Result<(), radioflow_runtime::ConnectError>
            + Send,
    ) -> PyResult<()> {
        let s = port(src.get().id_in(py, &self.graph)?, src_port)?;
        let d = port(dst.get().id_in(py, &self.graph)?, dst_port)?;
        self.graph
            .with_fg(py, |fg| how(fg, s, d))?
            .map_err(connect_error)
    }
}

/// A flowgraph (GNU Radio's `top_block`).
#[pyclass(frozen, module = "radioflow", name = "Flowgraph")]
pub(crate) struct PyFlowgraph {
    graph: Arc<SharedFlowgraph>,
}

#[pymethods]
impl PyFlowgraph {
    #[new]
    fn new() -> Self {
        Self {
            graph: SharedFlowgraph::new(),
        }
    }

    /// Adds `block` (if it is not in this flowgraph yet); returns its index.
    fn add(&self, py: Python<'_>, block: &Bound<'_, BlockHandle>) -> PyResult<usize> {
        Ok(block.get().id_in(py, &self.graph)?.index())
    }

    /// The item types of `block`'s stream inputs (`outputs` false) or outputs: one
    /// `(dtype name or None, vlen, bytes per item)` per port, adding the block if needed (what
    /// `radioflow.gnuradio` reads to give a block made from an item size the type of its
    /// neighbour).
    fn stream_types(
        &self,
        py: Python<'_>,
        block: &Bound<'_, BlockHandle>,
        outputs: bool,
    ) -> PyResult<Vec<(Option<&'static str>, usize, usize)>> {
        let id = block.get().id_in(py, &self.graph)?;
        let d = if outputs {
            Direction::StreamOutput
        } else {
            Direction::StreamInput
        };
        self.graph.with_fg(py, |fg| {
            (0..fg.port_names(id, d).len())
                .map(|i| match fg.port_item_type(id, d, i) {
                    Some(t) => (t.dtype().map(|d| d.name()), t.vlen(), t.size()),
                    None => (None, 1, 0),
                })
                .collect()
        })
    }

    /// Connects stream output `src_port` of `src` to stream input `dst_port` of `dst`.
    fn connect(
        &self,
        py: Python<'_>,
        src: &Bound<'_, BlockHandle>,
        src_port: &Bound<'_, PyAny>,
        dst: &Bound<'_, BlockHandle>,
        dst_port: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.link(py, (src, src_port), (dst, dst_port), |fg, s, d| {
            fg.connect(s, d).map(|_| ())
        })
    }

    /// Connects message output `src_port` of `src` to message input `dst_port` of `dst`.
    fn msg_connect(
        &self,
        py: Python<'_>,
        src: &Bound<'_, BlockHandle>,
        src_port: &Bound<'_, PyAny>,
        dst: &Bound<'_, BlockHandle>,
        dst_port: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.link(py, (src, src_port), (dst, dst_port), |fg, s, d| {
            fg.connect_message(s, d)
        })
    }

    /// Buffer bytes of every connection (rounded up to whole pages and items).
    fn set_default_buffer_size(&self, py: Python<'_>, bytes: usize) -> PyResult<()> {
        if bytes == 0 {
            return Err(value_error("a buffer needs at least one byte"));
        }
        self.graph
            .with_stopped_fg(py, |fg| fg.set_default_buffer_size(bytes))
    }

    /// At most `items` items per work call of `block` (GNU Radio's `set_max_noutput_items`).
    fn set_max_items(
        &self,
        py: Python<'_>,
        block: &Bound<'_, BlockHandle>,
        items: usize,
    ) -> PyResult<()> {
        if items == 0 {
            return Err(value_error("max items must be at least 1"));
        }
        let id = block.get().id_in(py, &self.graph)?;
        self.graph
            .with_stopped_fg(py, |fg| fg.set_max_items(id, items))
    }

    /// What the next runs record per block: "off", "counts" (default) or "timed" (adds the
    /// time in work: two clock reads per call).
    fn set_counters(&self, py: Python<'_>, counters: &str) -> PyResult<()> {
        let c = Counters::from_name(counters).ok_or_else(|| {
            value_error(format!(
                "unknown counters setting '{counters}': use off, counts or timed"
            ))
        })?;
        self.graph.with_stopped_fg(py, |fg| fg.set_counters(c))
    }

    /// What runs record per block: "off", "counts" or "timed".
    fn counters(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(match self.graph.with_fg(py, |fg| fg.counters())? {
            Counters::Off => "off",
            Counters::Counts => "counts",
            Counters::Timed => "timed",
        })
    }

    /// Records a trace of the next runs, keeping the last `events_per_block` work calls of
    /// each block (24 bytes each); `None` turns tracing off.
    #[pyo3(signature = (events_per_block = Some(65536)))]
    fn set_trace(&self, py: Python<'_>, events_per_block: Option<usize>) -> PyResult<()> {
        if events_per_block == Some(0) {
            return Err(value_error("a trace keeps at least one event per block"));
        }
        self.graph.with_stopped_fg(py, |fg| {
            fg.set_trace(events_per_block.map(|n| TraceConfig {
                events_per_block: n,
            }))
        })
    }

    /// Writes the last run's trace as Chrome trace-event JSON (Perfetto, chrome://tracing).
    fn write_trace(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let shown = path.display().to_string();
        let written = self.graph.with_stopped_fg(py, move |fg| {
            let Some(trace) = fg.trace() else {
                return Ok(false);
            };
            let mut file = std::fs::File::create(&path)?;
            trace.write_chrome_json(&mut file)?;
            Ok::<bool, std::io::Error>(true)
        })?;
        match written {
            Ok(true) => Ok(()),
            Ok(false) => Err(RunError::new_err(
                "no trace recorded: call set_trace() before the run",
            )),
            Err(e) => Err(pyo3::exceptions::PyOSError::new_err(format!(
                "cannot write the trace to {shown}: {e}"
            ))),
        }
    }

    /// Checks the graph and starts it on `scheduler` (default: flow); returns at once.
    #[pyo3(signature = (scheduler = None))]
    fn start(&self, py: Python<'_>, scheduler: Option<&Bound<'_, PyScheduler>>) -> PyResult<()> {
        let config = scheduler.map_or_else(PyScheduler::default_flow, |s| s.get().clone());
        let graph = &self.graph;
        let started = graph.with_fg(py, |fg| {
            fg.start(config.build().as_ref())?;
            if let Some(c) = lock(&graph.control).as_ref() {
                c.attach(fg);
            }
            Ok(fg.stop_handle())
        })?;
        match started {
            Ok(handle) => {
                *lock(&graph.stop) = handle;
                *lock(&graph.started) = Some(Instant::now());
                Ok(())
            }
            Err(e) => Err(graph.run_error(py, e)),
        }
    }

    /// Waits until the graph has finished. Ctrl-C (KeyboardInterrupt) stops the graph, waits
    /// for its threads, and is raised again. With `timeout` (seconds), gives up after that
    /// long with a RunError naming the blocks still inside their code and the others not
    /// finished (the run goes on: wait again, or stop and wait).
    #[pyo3(signature = (timeout = None))]
    fn wait(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<()> {
        let graph = &self.graph;
        if graph.with_fg(py, |fg| fg.called_from_own_block())? {
            return Err(RunError::new_err(
                radioflow_runtime::RunError::WaitFromBlock.to_string(),
            ));
        }
        let limit = match timeout {
            None => None,
            Some(t) if (0.0..1e9).contains(&t) => Some(Instant::now() + Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(crate::errors::value_error(format!(
                    "wait: timeout must be a number of seconds >= 0, not {t}"
                )))
            }
        };
        loop {
            if limit.is_some_and(|l| Instant::now() >= l) {
                let unresponsive = graph.with_fg(py, |fg| {
                    let names = |b: Vec<&str>| b.into_iter().map(str::to_owned).collect();
                    (!fg.is_finished()).then(|| radioflow_runtime::RunError::Unresponsive {
                        blocks: names(fg.busy_blocks()),
                        waiting: names(fg.waiting_blocks()),
                        waited: Duration::from_secs_f64(timeout.unwrap_or_default()),
                    })
                })?;
                match unresponsive {
                    None => break,
                    Some(e) => return Err(RunError::new_err(format!("wait: {e}"))),
                }
            }
            // Poll with a growing sleep: short graphs end promptly, long ones cost nothing.
            let finished = py.detach(|| {
                let deadline = Instant::now() + Duration::from_millis(100);
                let mut nap = Duration::from_micros(20);
                loop {
                    if lock(&graph.fg).is_finished() {
                        return true;
                    }
                    if Instant::now() >= deadline {
                        return false;
                    }
                    std::thread::sleep(nap);
                    nap = (nap * 2).min(Duration::from_millis(10));
                }
            });
            if finished {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                self.stop();
                let _ = graph.finish(py);
                *lock(&graph.stop) = None;
                return Err(interrupt);
            }
        }
        let result = graph.finish(py);
        *lock(&graph.stop) = None;
        if let Some(c) = lock(&graph.control).as_ref() {
            c.detach();
        }
        if let Some(t0) = lock(&graph.started).take() {
            *lock(&graph.last_seconds) = t0.elapsed().as_secs_f64();
        }
        result
    }

    /// Runs the graph to completion on `scheduler` (default: flow).
    #[pyo3(signature = (scheduler = None))]
    fn run(&self, py: Python<'_>, scheduler: Option<&Bound<'_, PyScheduler>>) -> PyResult<()> {
        self.start(py, scheduler)?;
        self.wait(py, None)
    }

    /// Serves the live view (web page and JSON API, `radioflow_control`) of this graph on
    /// `address` (`"127.0.0.1:0"` picks a free port) until the flowgraph is dropped, across
    /// its runs; returns the page's URL. Any address but loopback requires `token` (one is
    /// generated when not given; it is in the URL; an empty one is refused). `probes`
    /// (`"block.port"` stream outputs, for the page's spectrum, time and constellation plots)
    /// can only be added before the graph starts. `allowed_origins` (`"http://host:port"`)
    /// are web origins besides the page's own that may use the API.
    #[pyo3(signature = (address = "127.0.0.1:0", token = None, probes = Vec::new(), allowed_origins = Vec::new()))]
    fn serve(
        &self,
        py: Python<'_>,
        address: &str,
        token: Option<String>,
        probes: Vec<String>,
        allowed_origins: Vec<String>,
    ) -> PyResult<String> {
        let addr: std::net::SocketAddr = address.parse().map_err(|e| {
            value_error(format!(
                "serve: '{address}' is not an address with a port (e.g. 127.0.0.1:1337): {e}"
            ))
        })?;
        if lock(&self.graph.control).is_some() {
            return Err(RunError::new_err("serve: this flowgraph is served already"));
        }
        let handle = self.graph.with_fg(py, |fg| {
            if !probes.is_empty() && fg.is_running() {
                return Err(value_error(
                    "serve: probes are added before the graph starts (call serve, then start)",
                ));
            }
            let mut config = ControlConfig::new(addr);
            config.token = token;
            config.allowed_origins = allowed_origins;
            for spec in &probes {
                let probe = radioflow_control::add_probe(fg, spec, ProbeConfig::default())
                    .map_err(|e| value_error(format!("serve: {e}")))?;
                config.probes.push(probe);
            }
            radioflow_control::serve(fg, config).map_err(|e| match e {
                ServeError::EmptyToken | ServeError::BadOrigin { .. } => {
                    value_error(format!("serve: {e}"))
                }
                e => RunError::new_err(e.to_string()),
            })
        })??;
        let url = handle.url();
        *lock(&self.graph.control) = Some(handle);
        Ok(url)
    }

    /// Asks a running graph to stop (from any thread); `wait()` then returns.
    fn stop(&self) {
        if let Some(h) = lock(&self.graph.stop).as_ref() {
            h.stop();
        }
    }

    /// Posts `msg` to message input `port` (its name) of `block` in the running graph, from
    /// any thread: what a block's setter does for a parameter that is a message input.
    /// Returns False when the graph does not run or the block has finished; raises
    /// ValueError when the block has no such message input.
    fn post(
        &self,
        py: Python<'_>,
        block: &Bound<'_, BlockHandle>,
        port: &str,
        msg: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let id = block.get().id_in(py, &self.graph)?;
        let msg = crate::pmt::from_py(msg)?;
        let found = self.graph.with_fg(py, |fg| {
            let index = fg
                .port_names(id, Direction::MessageInput)
                .iter()
                .position(|p| *p == port);
            (index, fg.message_poster())
        })?;
        match found {
            (None, _) => Err(value_error(format!(
                "block '{}' has no message input '{port}'",
                self.graph.name_of(py, id)?
            ))),
            (Some(_), None) => Ok(false),
            (Some(index), Some(poster)) => Ok(poster.post(id, index, msg)),
        }
    }

    /// Whether the graph was started and `wait()` has not returned yet.
    fn is_running(&self, py: Python<'_>) -> PyResult<bool> {
        self.graph.with_fg(py, |fg| fg.is_running())
    }

    /// Counters of `block` from the last run.
    fn stats<'py>(&self, block: &Bound<'py, BlockHandle>) -> PyResult<Bound<'py, PyDict>> {
        block
            .call_method0("stats")?
            .cast_into::<PyDict>()
            .map_err(Into::into)
    }

    /// Context switches and CPU time of every scheduler thread of the last run: a list of dicts
    /// with `name`, `voluntary_switches`, `involuntary_switches`, `cpu_seconds`.
    fn thread_stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let threads = self
            .graph
            .with_stopped_fg(py, |fg| fg.thread_stats().to_vec())?;
        let items: PyResult<Vec<_>> = threads
            .iter()
            .map(|t| {
                let d = PyDict::new(py);
                d.set_item("name", &t.name)?;
                d.set_item("voluntary_switches", t.voluntary_switches)?;
                d.set_item("involuntary_switches", t.involuntary_switches)?;
                d.set_item("cpu_seconds", t.cpu_time.as_secs_f64())?;
                Ok(d)
            })
            .collect();
        PyList::new(py, items?)
    }

    /// The last run as a table, one row per block: calls, items, share of time in work,
    /// throughput, latency per call, starved/full steps, messages; the bottleneck is marked.
    /// Run with `set_counters("timed")` for the time columns.
    fn profile(&self, py: Python<'_>) -> PyResult<String> {
        let seconds = *lock(&self.graph.last_seconds);
        self.graph
            .with_stopped_fg(py, |fg| Profile::of(fg, seconds).to_string())
    }

    /// The block that took the largest share of time in the last timed run, if any.
    fn bottleneck(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let seconds = *lock(&self.graph.last_seconds);
        self.graph.with_stopped_fg(py, |fg| {
            Profile::of(fg, seconds)
                .bottleneck()
                .map(|r| r.name.clone())
        })
    }

    /// Runs `block` on host `host` when the graph runs across hosts (`run_on_hosts`).
    fn set_host(&self, py: Python<'_>, block: &Bound<'_, BlockHandle>, host: &str) -> PyResult<()> {
        let id = block.get().id_in(py, &self.graph)?;
        self.graph.placement.set_host(id, host)
    }

    /// Runs the graph across hosts: each block on the host `set_host` gave it, `hosts` naming
    /// each host's `radioflow serve` (or `HostServer`) address, `token` theirs; the
    /// connections between hosts become ZeroMQ links. Waits until the graph ends on every
    /// host (Ctrl-C stops them all) and returns each block's counters by host:
    /// `{host: {block: {"consumed", "produced", "messages"}}}`.
    #[pyo3(signature = (hosts, token, scheduler = "flow"))]
    fn run_on_hosts<'py>(
        &self,
        py: Python<'py>,
        hosts: std::collections::HashMap<String, String>,
        token: String,
        scheduler: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let graph = &self.graph;
        let description = graph
            .with_stopped_fg(py, |fg| graph.placement.describe(fg))?
            .map_err(|e| RunError::new_err(format!("run_on_hosts: {e}")))?;
        let report = crate::hosts::run(py, &description, hosts, token, scheduler.to_owned())?;
        crate::hosts::report_dict(py, &report)
    }

    /// Instance names of the blocks, in the order they were added.
    fn block_names(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.graph.with_fg(py, |fg| {
            (0..fg.len())
                .map(|i| fg.name(BlockId::from_index(i)).to_owned())
                .collect()
        })
    }
}
