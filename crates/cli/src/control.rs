//! `--control ADDR [--token T] [--allow-origin O]... [--probe BLOCK.PORT]...`: the live view's flags, shared by the
//! commands that run a graph (see `radioflow_control`).

use clap::Args;
use radioflow_bench::observe::RunObserver;
use radioflow_control::{
    add_probe, serve, ControlConfig, ControlHandle, Probe, ProbeConfig, Tasks,
};
use radioflow_runtime::Flowgraph;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[derive(Args, Debug, Default)]
pub(crate) struct ControlArgs {
    /// Serve the live view (web page and JSON API) on this address while the graph runs, e.g.
    /// 127.0.0.1:1337. Any address other than loopback requires a token.
    #[arg(long, value_name = "ADDR")]
    control: Option<SocketAddr>,
    /// The token every request to the control port must carry (generated and printed when
    /// the address is not loopback and none is given).
    #[arg(long, requires = "control", value_parser = token)]
    token: Option<String>,
    /// A web origin besides the live view's own page that may use the control port, e.g.
    /// `http://dash.example:8080` (its pages may write and get CORS answers; its name is
    /// accepted as Host); repeatable. Others are refused.
    #[arg(long, value_name = "ORIGIN", requires = "control")]
    allow_origin: Vec<String>,
    /// A probe on a stream output for the live view's plots (spectrum, time, constellation);
    /// repeatable.
    #[arg(long, value_name = "BLOCK.PORT", requires = "control")]
    probe: Vec<String>,
}

pub(crate) use crate::values::token;

impl ControlArgs {
    /// Whether a control port was asked for.
    pub(crate) fn enabled(&self) -> bool {
        self.control.is_some()
    }

    /// Refuses `--probe` for a command whose graph is built where probes cannot be added.
    pub(crate) fn refuse_probes(&self, command: &str) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.probe.is_empty(),
            "--probe {}: `{command}` builds its graph itself; probes are available with `radioflow run`",
            self.probe[0]
        );
        Ok(())
    }

    /// Adds the probes to `fg` (before it starts).
    pub(crate) fn add_probes(&self, fg: &mut Flowgraph) -> anyhow::Result<Vec<Probe>> {
        self.add_probes_with(fg, &[])
    }

    /// Adds the command's own probes `always` (`block.port` with its sample rate) and the
    /// user's to `fg` (before it starts), each once.
    pub(crate) fn add_probes_with(
        &self,
        fg: &mut Flowgraph,
        always: &[(&str, f64)],
    ) -> anyhow::Result<Vec<Probe>> {
        let mut specs: Vec<(&str, Option<f64>)> =
            always.iter().map(|&(s, rate)| (s, Some(rate))).collect();
        for spec in &self.probe {
            if !specs.iter().any(|(s, _)| s == spec) {
                specs.push((spec, None));
            }
        }
        specs
            .into_iter()
            .map(|(spec, sample_rate)| {
                let config = ProbeConfig {
                    sample_rate,
                    ..ProbeConfig::default()
                };
                Ok(add_probe(fg, spec, config)?)
            })
            .collect()
    }

    /// The control port's configuration on `addr`: the token and allowed origins given.
    fn config(&self, addr: SocketAddr) -> ControlConfig {
        let mut config = ControlConfig::new(addr);
        config.token = self.token.clone();
        config.allowed_origins = self.allow_origin.clone();
        config
    }

    /// Starts the control port for the running `fg` with `probes` and the initial values of
    /// settable parameters `(block, parameter, value)`, and prints its address.
    pub(crate) fn serve(
        &self,
        fg: &Flowgraph,
        probes: Vec<Probe>,
        params: Vec<(String, String, serde_json::Value)>,
    ) -> anyhow::Result<Option<ControlHandle>> {
        let Some(addr) = self.control else {
            return Ok(None);
        };
        let mut config = self.config(addr);
        config.probes = probes;
        config.params = params;
        let handle = serve(fg, config)?;
        eprintln!("live view: {}", handle.url());
        Ok(Some(handle))
    }

    /// Starts the control port for the running `fg` of a .grc file with GUI blocks: with its
    /// views' `probes`, `variables` and `views`, on the --control address or on a free
    /// loopback port; prints its address.
    pub(crate) fn serve_gui(
        &self,
        fg: &Flowgraph,
        gui: crate::grc_gui::GuiTaps,
        variables: radioflow_control::SharedVariables,
    ) -> anyhow::Result<ControlHandle> {
        let addr = self
            .control
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 0)));
        let mut config = self.config(addr);
        config.probes = gui.probes;
        config.message_taps = gui.taps;
        config.variables = Some(variables);
        config.views = gui.views;
        let handle = serve(fg, config)?;
        eprintln!("live view: {}", handle.url());
        Ok(handle)
    }

    /// Starts the control port for a program's own `tasks` (not a flowgraph) and prints its
    /// address.
    pub(crate) fn serve_tasks(&self, tasks: Tasks) -> anyhow::Result<Option<ControlHandle>> {
        let Some(addr) = self.control else {
            return Ok(None);
        };
        let handle = radioflow_control::serve_tasks(tasks, self.config(addr))?;
        eprintln!("live view: {}", handle.url());
        Ok(Some(handle))
    }
}

/// `radioflow bench --control ADDR`: the live view of every graph the experiments run, one
/// after the other on the same address (reload the page for the next run's graph). The token,
/// when one is needed, is made once for all runs; the address is printed once.
pub(crate) struct ServeEachRun {
    config: ControlConfig,
    handle: Mutex<Option<ControlHandle>>,
    printed: AtomicBool,
}

impl ServeEachRun {
    pub(crate) fn new(
        addr: SocketAddr,
        token: Option<String>,
        allowed_origins: Vec<String>,
    ) -> Self {
        let mut config = ControlConfig::new(addr);
        config.token =
            token.or_else(|| (!addr.ip().is_loopback()).then(radioflow_control::generate_token));
        config.allowed_origins = allowed_origins;
        Self {
            config,
            handle: Mutex::new(None),
            printed: AtomicBool::new(false),
        }
    }
}

impl RunObserver for ServeEachRun {
    fn started(&self, fg: &Flowgraph) {
        let result = serve(fg, self.config.clone());
        let first = !self.printed.swap(true, Ordering::Relaxed);
        match result {
            Ok(h) => {
                if first {
                    eprintln!("live view of each run: {}", h.url());
                }
                *self.handle.lock().unwrap_or_else(|p| p.into_inner()) = Some(h);
            }
            // The measurement goes on without its live view.
            Err(e) if first => eprintln!("live view: {e}"),
            Err(_) => {}
        }
    }

    fn finished(&self) {
        drop(self.handle.lock().unwrap_or_else(|p| p.into_inner()).take());
    }
}
