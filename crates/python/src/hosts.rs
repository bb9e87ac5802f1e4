//! Graphs across hosts from Python: a flowgraph whose library blocks were given hosts
//! (`Flowgraph.set_host`) runs its parts on those hosts' `radioflow serve` endpoints
//! (`Flowgraph.run_on_hosts`, crate `radioflow-hosts`), and a Python process can be such a
//! host itself (`HostServer`).
//!
//! A block goes to another host as what made it: its library id, item type and the
//! parameters given (`RemoteSpec`), kept by its handle; a block written in Python, or a
//! `vector_source` over a numpy array, exists only in this process and is refused by name.

use crate::errors::{value_error, RunError};
use crate::lock::lock;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use radioflow_graphfile::GraphDescription;
use radioflow_hosts::{HostAddress, Report, RunOptions, ServeConfig, Server};
use radioflow_runtime::{BlockId, Direction, Flowgraph, Pmt};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What made a library block, so that another host can make it again.
#[derive(Clone, Debug)]
pub(crate) struct RemoteSpec {
    pub(crate) id: &'static str,
    pub(crate) dtype: Option<String>,
    pub(crate) params: Vec<(String, Pmt)>,
}

/// Per flowgraph: how its blocks can be made elsewhere and where they go.
#[derive(Default)]
pub(crate) struct Placement {
    specs: Mutex<HashMap<BlockId, RemoteSpec>>,
    hosts: Mutex<HashMap<BlockId, String>>,
}

impl Placement {
    /// Block `id` was made from `spec`.
    pub(crate) fn made(&self, id: BlockId, spec: RemoteSpec) {
        lock(&self.specs).insert(id, spec);
    }

    /// Block `id` runs on `host`.
    pub(crate) fn set_host(&self, id: BlockId, host: &str) -> PyResult<()> {
        if host.is_empty() || host.contains(['=', ',']) || host.trim() != host {
            return Err(value_error(format!(
                "set_host: '{host}' is not a host name (a name without '=', ',' or spaces)"
            )));
        }
        lock(&self.hosts).insert(id, host.to_owned());
        Ok(())
    }

    /// The description of `fg` for the coordinator: every block with its spec and host, every
    /// connection by block and port names.
    pub(crate) fn describe(&self, fg: &Flowgraph) -> Result<GraphDescription, String> {
        let specs = lock(&self.specs);
        let hosts = lock(&self.hosts);
        let mut description = GraphDescription::new("the Python flowgraph");
        let mut homeless = Vec::new();
        for i in 0..fg.len() {
            let id = BlockId::from_index(i);
            let name = fg.name(id);
            let spec = specs.get(&id).ok_or_else(|| {
                format!(
                    "block '{name}' ({}) cannot run on another host: only blocks of \
                     radioflow.blocks can (a block written in Python, or a vector_source over \
                     a numpy array, exists in this process only)",
                    fg.type_name(id)
                )
            })?;
            let Some(host) = hosts.get(&id) else {
                homeless.push(name);
                continue;
            };
            let block = description.add(name, spec.id);
            block.dtype.clone_from(&spec.dtype);
            block.params.clone_from(&spec.params);
            block.host(host);
        }
        if !homeless.is_empty() {
            return Err(format!(
                "blocks without a host: {} (Flowgraph.set_host(block, \"name\") for each)",
                homeless.join(", ")
            ));
        }
        let port = |id: BlockId, d: Direction, index: usize| {
            let names = fg.port_names(id, d);
            let port = names.get(index).copied().unwrap_or_default();
            format!("{}.{port}", fg.name(id))
        };
        for ((src, sp), (dst, dp)) in fg.stream_connections() {
            description
                .connect(
                    &port(src, Direction::StreamOutput, sp),
                    &port(dst, Direction::StreamInput, dp),
                )
                .map_err(|e| e.to_string())?;
        }
        for ((src, sp), (dst, dp)) in fg.message_connections() {
            description
                .connect_message(
                    &port(src, Direction::MessageOutput, sp),
                    &port(dst, Direction::MessageInput, dp),
                )
                .map_err(|e| e.to_string())?;
        }
        Ok(description)
    }
}

/// Runs `description` on `hosts` (name -> `serve` address), the interpreter released; Ctrl-C
/// stops every host, waits for them, and is raised again.
pub(crate) fn run(
    py: Python<'_>,
    description: &GraphDescription,
    hosts: HashMap<String, String>,
    token: String,
    scheduler: String,
) -> PyResult<Report> {
    scheduler
        .parse::<radioflow_runtime::SchedulerSpec>()
        .map_err(|e| value_error(format!("run_on_hosts: scheduler: {e}")))?;
    let mut addresses: Vec<HostAddress> = hosts
        .into_iter()
        .map(|(name, address)| HostAddress { name, address })
        .collect();
    addresses.sort_by(|a, b| a.name.cmp(&b.name));
    let options = RunOptions {
        token,
        scheduler,
        drop_malformed: false,
    };
    let stop = AtomicBool::new(false);
    let mut interrupt = None;
    let result = std::thread::scope(|s| {
        let worker =
            s.spawn(|| radioflow_hosts::run_until(description, &addresses, &options, &stop));
        loop {
            let done = py.detach(|| {
                for _ in 0..10 {
                    if worker.is_finished() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                false
            });
            if done {
                break;
            }
            if interrupt.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Ordering::Relaxed);
                interrupt = Some(e);
            }
        }
        worker.join()
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    match result {
        Ok(r) => r.map_err(|e| RunError::new_err(e.to_string())),
        Err(_) => Err(RunError::new_err("run_on_hosts: the coordinator panicked")),
    }
}

/// The report as `{host: {block: {"consumed", "produced", "messages"}}}`.
pub(crate) fn report_dict<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (host, blocks) in &report.hosts {
        let per_block = PyDict::new(py);
        for b in blocks {
            let d = PyDict::new(py);
            d.set_item("consumed", b.consumed)?;
            d.set_item("produced", b.produced)?;
            d.set_item("messages", b.messages)?;
            per_block.set_item(&b.name, d)?;
        }
        out.set_item(host, per_block)?;
    }
    Ok(out)
}

/// A host of graphs across hosts in this process (what `radioflow serve` is on the command
/// line): binds `listen` at once, then serves coordinators from a background thread after
/// `start()`.
#[pyclass(frozen, module = "radioflow", name = "HostServer")]
pub(crate) struct PyHostServer {
    server: Mutex<Option<Server>>,
    address: String,
    token: String,
}

#[pymethods]
impl PyHostServer {
    /// Binds `listen` (`"127.0.0.1:0"` picks a free port); `token` is what coordinators must
    /// give (generated when None: read it from `.token`); with `once`, serves one
    /// coordinator's session and stops.
    #[new]
    #[pyo3(signature = (listen = "127.0.0.1:7300", token = None, once = false))]
    fn new(listen: &str, token: Option<String>, once: bool) -> PyResult<Self> {
        let listen: std::net::SocketAddr = listen.parse().map_err(|e| {
            value_error(format!(
                "HostServer: '{listen}' is not an address with a port (127.0.0.1:7300): {e}"
            ))
        })?;
        let token = match token {
            Some(t) if t.is_empty() => {
                return Err(value_error(
                    "HostServer: an empty token would let anyone in",
                ))
            }
            Some(t) => t,
            None => radioflow_hosts::generate_token(),
        };
        let mut config = ServeConfig::new(listen, token.clone());
        config.once = once;
        let server = Server::bind(config)
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("HostServer: {e}")))?;
        let address = server
            .local_addr()
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("HostServer: {e}")))?
            .to_string();
        Ok(Self {
            server: Mutex::new(Some(server)),
            address,
            token,
        })
    }

    /// The address bound (`ip:port`), for `run_on_hosts`.
    #[getter]
    fn address(&self) -> &str {
        &self.address
    }

    /// The token coordinators must give.
    #[getter]
    fn token(&self) -> &str {
        &self.token
    }

    /// Serves from a background thread (sessions log to stderr) until the process ends, or
    /// after one session with `once`.
    fn start(&self) -> PyResult<()> {
        let server = lock(&self.server)
            .take()
            .ok_or_else(|| RunError::new_err("HostServer: started already"))?;
        std::thread::Builder::new()
            .name("host-server".into())
            .spawn(move || {
                if let Err(e) = server.run() {
                    eprintln!("HostServer: {e}");
                }
            })
            .map_err(|e| RunError::new_err(format!("HostServer: {e}")))?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("<radioflow HostServer on {}>", self.address)
    }
}
