//! Schedulers: which thread steps which [`BlockTask`](crate::BlockTask) and when a thread
//! sleeps.
//!
//! Every scheduler passes the same conformance suite (`tests/conformance.rs`). To add one,
//! implement [`Scheduler`] (`interface.rs`) in a file of this folder and add a line to that
//! suite.

mod balance;
mod crossing;
mod cut;
mod flow;
mod interface;
mod placement;
mod single;
mod spec;
mod thread;
mod tpb;
mod worker;

pub use flow::{l1d_bytes, l2_bytes, max_workers, FlowGeometry, FlowScheduler};
pub use interface::Scheduler;
pub use single::SingleThread;
pub use spec::{FlowSettings, SchedulerSpec, SchedulerSpecError, SCHEDULER_NAMES};
pub(crate) use thread::fail_thread_spawns_after;
pub use thread::{pin_current_thread, RealtimePolicy};
pub use tpb::ThreadPerBlock;

/// The scheduler [`Flowgraph::run`](crate::Flowgraph::run) uses: [`FlowScheduler`].
pub fn default_scheduler() -> Box<dyn Scheduler> {
    Box::new(FlowScheduler::new())
}

/// A scheduler by name with its default settings (`flow`, `tpb` or `single`), or from a full
/// spec (`flow:workers=2`, see [`SchedulerSpec`]); `None` if it does not parse.
pub fn scheduler_by_name(name: &str) -> Option<Box<dyn Scheduler>> {
    name.parse::<SchedulerSpec>().ok().map(|s| s.build())
}
