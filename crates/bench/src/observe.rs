//! A hook on every graph the experiments run: `radioflow bench --control` serves the live
//! view of each run while it lasts. Process-wide, because the experiments' graphs are built
//! deep inside the suites; set it once before running them.

use radioflow_runtime::Flowgraph;
use std::sync::{Arc, RwLock};

/// Told about every experiment graph's run, on the thread that runs it.
pub trait RunObserver: Send + Sync {
    /// `fg` has started.
    fn started(&self, fg: &Flowgraph);
    /// The graph that last started has ended (after its wait, failed or not).
    fn finished(&self);
}

static OBSERVER: RwLock<Option<Arc<dyn RunObserver>>> = RwLock::new(None);

/// Sets (or with `None` removes) the observer of every experiment's runs from now on.
pub fn set_run_observer(observer: Option<Arc<dyn RunObserver>>) {
    *OBSERVER.write().unwrap_or_else(|p| p.into_inner()) = observer;
}

/// The observer, if one is set.
pub(crate) fn observer() -> Option<Arc<dyn RunObserver>> {
    OBSERVER.read().unwrap_or_else(|p| p.into_inner()).clone()
}
