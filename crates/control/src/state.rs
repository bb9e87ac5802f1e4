//! [`State`]: what the control port's request handlers share (the graph, the handles on its
//! run, the counters, parameters, probes, allowed origins, request budgets).

use crate::counters::Report;
use crate::graph_info::GraphInfo;
use crate::origin::Origins;
use crate::probe_view::ProbeState;
use crate::tasks::Tasks;
use radioflow_runtime::{BufferFill, MessagePoster, StatsHandle, StopHandle};
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The handles on a running graph the control port uses.
#[derive(Clone, Debug, Default)]
pub(crate) struct Live {
    pub(crate) stats: Option<StatsHandle>,
    pub(crate) stop: Option<StopHandle>,
    pub(crate) poster: Option<MessagePoster>,
    pub(crate) fill: Option<BufferFill>,
    /// Instead of a graph: a program's own tasks ([`serve_tasks`](crate::serve_tasks)).
    pub(crate) tasks: Option<Tasks>,
}

impl Live {
    /// Whether there is something running to show.
    pub(crate) fn running(&self) -> bool {
        self.stats.is_some() || self.tasks.is_some()
    }

    /// Asks the graph (or the tasks) to stop; `false` when nothing can be stopped.
    pub(crate) fn stop(&self) -> bool {
        if let Some(s) = &self.stop {
            s.stop();
            return true;
        }
        self.tasks.as_ref().is_some_and(Tasks::stop)
    }
}

/// Everything the request handlers share.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) graph: GraphInfo,
    pub(crate) live: RwLock<Live>,
    pub(crate) token: Option<String>,
    pub(crate) counters: watch::Receiver<Arc<Report>>,
    /// Last value set per `(block, parameter)`, and initial values given by the owner.
    pub(crate) params: Mutex<HashMap<(String, String), serde_json::Value>>,
    pub(crate) probes: Vec<Mutex<ProbeState>>,
    pub(crate) message_taps: Vec<crate::message_tap::MessageTap>,
    /// Who may use the port besides its own page.
    pub(crate) origins: Origins,
    pub(crate) budgets: Budgets,
    /// The front end's variables, if any.
    pub(crate) variables: Option<crate::variables::SharedVariables>,
    /// The front end's views.
    pub(crate) views: Vec<crate::variables::ViewConfig>,
    /// What the widgets that follow messages took ([`crate::follow`]).
    pub(crate) followed: Mutex<Followed>,
}

impl State {
    pub(crate) fn live(&self) -> Live {
        self.live.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// What the page reads of the widgets that follow messages (`crate::follow`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Followed {
    /// Messages the widgets took so far (the page redraws its widgets when it changes).
    pub(crate) received: u64,
    /// Per widget, why it refused the last message it did not take (QT logs a warning), or
    /// what failed when its change was applied.
    pub(crate) warnings: BTreeMap<String, String>,
}

/// Requests per second per client address, each address with its own one-second window.
/// Written here rather than taken from a rate-limiting crate (governor): a window and a count
/// per address is all this needs.
#[derive(Debug)]
pub(crate) struct Budgets {
    per_second: u32,
    clients: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Budgets {
    /// Addresses remembered before those whose window has passed are forgotten.
    const REMEMBERED: usize = 1024;

    pub(crate) fn new(per_second: u32) -> Self {
        Self {
            per_second,
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `client`'s budget; `false` when this second's is spent.
    pub(crate) fn admit(&self, client: IpAddr) -> bool {
        let second = Duration::from_secs(1);
        let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        if clients.len() >= Self::REMEMBERED {
            clients.retain(|_, (start, _)| start.elapsed() < second);
        }
        let (start, count) = clients.entry(client).or_insert((Instant::now(), 0));
        if start.elapsed() >= second {
            (*start, *count) = (Instant::now(), 0);
        }
        *count = count.saturating_add(1);
        *count <= self.per_second
    }
}
