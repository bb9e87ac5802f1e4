//! [`serve`]: the control port's thread (a single-threaded tokio runtime, never a scheduler
//! thread), its shared state and [`ControlHandle`].

use crate::api;
use crate::connections::Limits;
use crate::counters::{Report, Sampler};
use crate::error::ServeError;
use crate::graph_info::GraphInfo;
use crate::message_tap::MessageTap;
use crate::origin::Origins;
use crate::probe::Probe;
use crate::probe_view::ProbeState;
use crate::state::{Budgets, Live, State};
use crate::tasks::Tasks;
use crate::variables::{SharedVariables, ViewConfig};
use radioflow_runtime::{Direction, Flowgraph};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::watch;

/// How often the counters are sampled, whatever the clients ask for.
pub(crate) const SAMPLE_PERIOD: Duration = Duration::from_millis(100);

/// What [`serve`] needs besides the graph.
#[derive(Clone, Debug)]
pub struct ControlConfig {
    /// Where to listen; `127.0.0.1:0` picks a free port on the loopback interface.
    pub addr: SocketAddr,
    /// The token every request must carry. Required (generated if `None`) when `addr` is not a
    /// loopback address; optional on loopback (enforced if given).
    pub token: Option<String>,
    /// Probes added with [`add_probe`](crate::add_probe) before the graph started.
    pub probes: Vec<Probe>,
    /// Message taps added with [`add_message_tap`](crate::add_message_tap) before the graph
    /// started (a front end's message displays read them).
    pub message_taps: Vec<MessageTap>,
    /// Initial values of settable parameters, `(block, parameter, value)`, shown until set.
    pub params: Vec<(String, String, serde_json::Value)>,
    /// Web origins besides the port's own page that may use it (`http://dash.example:8080`):
    /// their pages may write and open WebSockets, get CORS answers, and their host names are
    /// accepted as `Host` (a reverse proxy's, a name of this machine). Requests from them
    /// still need the token when there is one.
    pub allowed_origins: Vec<String>,
    /// Connections, timeouts and request budgets.
    pub limits: Limits,
    /// Variables the page may set (a GRC file's widgets), if the front end has any.
    pub variables: Option<SharedVariables>,
    /// Views that stand for the front end's displays (a GRC file's QT GUI sinks); the page
    /// shows each probe on its own when there are none.
    pub views: Vec<ViewConfig>,
}

impl ControlConfig {
    /// Listening on `addr`, no token given, no probes, no other origin, default limits.
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            token: None,
            probes: Vec::new(),
            message_taps: Vec::new(),
            params: Vec::new(),
            allowed_origins: Vec::new(),
            limits: Limits::default(),
            variables: None,
            views: Vec::new(),
        }
    }
}

/// The running control port. Dropping it (or [`shutdown`](Self::shutdown)) stops it.
#[derive(Debug)]
pub struct ControlHandle {
    addr: SocketAddr,
    token: Option<String>,
    state: Arc<State>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ControlHandle {
    /// The address it listens on (with the port chosen when `addr` had port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The token requests must carry, if any.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The page's address (with the token in its query when there is one).
    pub fn url(&self) -> String {
        match &self.token {
            Some(t) => format!("http://{}/?token={t}", self.addr),
            None => format!("http://{}/", self.addr),
        }
    }

    /// Takes the live handles of `fg` after it (re)started: counters, stop, message posting.
    pub fn attach(&self, fg: &Flowgraph) {
        *self.state.live.write().unwrap_or_else(|p| p.into_inner()) = Live {
            stats: fg.stats_handle(),
            stop: fg.stop_handle(),
            poster: fg.message_poster(),
            fill: fg.buffer_fill(),
            tasks: None,
        };
    }

    /// Forgets the graph's live handles (after `wait`): the page shows it stopped.
    pub fn detach(&self) {
        *self.state.live.write().unwrap_or_else(|p| p.into_inner()) = Live::default();
    }

    /// Stops the server and waits for its thread.
    pub fn shutdown(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ControlHandle {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// Starts the control port for `fg` on a thread of its own and attaches it to the running
/// graph (if `fg` runs; otherwise call [`ControlHandle::attach`] after starting it).
///
/// # Errors
/// An empty token, an allowed origin that is not one, an address that cannot be bound, or a
/// thread that cannot be started.
pub fn serve(fg: &Flowgraph, config: ControlConfig) -> Result<ControlHandle, ServeError> {
    let graph = GraphInfo::of(fg);
    let mut outputs: Vec<(usize, usize, String, String)> = Vec::new();
    for ((b, o), _) in fg.stream_connections() {
        if !outputs.iter().any(|x| (x.0, x.1) == (b.index(), o)) {
            let port = fg.port_names(b, Direction::StreamOutput)[o].to_owned();
            outputs.push((b.index(), o, fg.name(b).to_owned(), port));
        }
    }
    let handle = start(graph, outputs, config)?;
    handle.attach(fg);
    Ok(handle)
}

/// Starts the control port for a program that is not a flowgraph: its `tasks` are shown as
/// blocks with the counters it keeps, its threads as any program's, and `POST /api/stop`
/// sets its stop flag. Served until the handle is dropped (the page shows the tasks running
/// until then).
///
/// # Errors
/// As [`serve`].
pub fn serve_tasks(tasks: Tasks, config: ControlConfig) -> Result<ControlHandle, ServeError> {
    let graph = GraphInfo::of_tasks(&tasks);
    let handle = start(graph, Vec::new(), config)?;
    handle
        .state
        .live
        .write()
        .unwrap_or_else(|p| p.into_inner())
        .tasks = Some(tasks);
    Ok(handle)
}

/// The server's thread and state for `graph`, attached to nothing yet.
fn start(
    graph: GraphInfo,
    outputs: Vec<(usize, usize, String, String)>,
    config: ControlConfig,
) -> Result<ControlHandle, ServeError> {
    let token = match config.token {
        Some(t) if t.trim().is_empty() => return Err(ServeError::EmptyToken),
        Some(t) => Some(t),
        None if !config.addr.ip().is_loopback() => Some(crate::auth::generate_token()),
        None => None,
    };
    let names: Vec<String> = graph.blocks.iter().map(|b| b.name.clone()).collect();
    let paced: Vec<bool> = graph.blocks.iter().map(|b| b.paced).collect();
    let (tx, rx) = watch::channel(Arc::new(Report::default()));
    let state = Arc::new(State {
        graph,
        live: RwLock::new(Live::default()),
        token: token.clone(),
        counters: rx,
        params: Mutex::new(
            config
                .params
                .into_iter()
                .map(|(b, p, v)| ((b, p), v))
                .collect(),
        ),
        probes: config
            .probes
            .into_iter()
            .map(|p| Mutex::new(ProbeState::new(p)))
            .collect(),
        message_taps: config.message_taps,
        origins: Origins::parse(&config.allowed_origins)?,
        budgets: Budgets::new(config.limits.requests_per_second),
        variables: config.variables,
        views: config.views,
        followed: Mutex::default(),
    });
    let std_listener =
        std::net::TcpListener::bind(config.addr).map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
    std_listener
        .set_nonblocking(true)
        .map_err(ServeError::Runtime)?;
    let addr = std_listener.local_addr().map_err(ServeError::Runtime)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let app = api::router(state.clone());
    let limits = config.limits;
    let sampler_state = state.clone();
    let follow_state = state.clone();
    let thread = std::thread::Builder::new()
        .name("rf-control".into())
        .spawn(move || {
            runtime.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(std_listener) else {
                    return;
                };
                tokio::spawn(sample_loop(
                    sampler_state,
                    tx,
                    Sampler::new(names, paced, outputs),
                ));
                tokio::spawn(crate::follow::follow_loop(follow_state));
                crate::connections::serve(listener, app, limits, stop_rx).await;
            });
        })
        .map_err(ServeError::Runtime)?;
    Ok(ControlHandle {
        addr,
        token,
        state,
        shutdown: Some(stop_tx),
        thread: Some(thread),
    })
}

/// Samples the counters every [`SAMPLE_PERIOD`] for every client.
async fn sample_loop(state: Arc<State>, tx: watch::Sender<Arc<Report>>, mut sampler: Sampler) {
    let mut tick = tokio::time::interval(SAMPLE_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        let live = state.live();
        let tasks = live.tasks.as_ref().map(Tasks::sample);
        let report = sampler.sample(live.stats.as_ref(), tasks, live.fill.as_ref());
        if tx.send(Arc::new(report)).is_err() {
            return;
        }
    }
}
