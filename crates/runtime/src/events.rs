//! Events a block counts beyond what the runtime counts for every block: a radio's overflows
//! and underflows, a network source's lost datagrams. An [`EventCounter`] made in a block's
//! `start` hook is listed with that block's counters ([`BlockStats::events`]), so whatever
//! reads the live counters (the live page, `Flowgraph::live_stats`) shows it while the graph
//! runs, by name, without knowing the block.
//!
//! The flowgraph collects the counters each `start` hook makes: a thread-local list is open
//! while the hook runs ([`collect`]), as [`stop_requested`](crate::stop_requested) knows the
//! run its thread works for.
//!
//! [`BlockStats::events`]: crate::BlockStats::events

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

thread_local! {
    /// The counters made by the `start` hook running on this thread, if the flowgraph listens.
    static MADE: RefCell<Option<Vec<EventCounter>>> = const { RefCell::new(None) };
}

/// A count of one kind of event a block sees (`overflows`, `underflows`, `late packets`),
/// readable from any thread while the graph runs.
///
/// Made in the block's `start` hook, it is listed with the block's counters for that run;
/// made anywhere else (in `new`, or outside a flowgraph) it counts all the same, unlisted.
/// Counting is one relaxed atomic add: for events, not for every item.
///
/// ```
/// use radioflow_runtime::EventCounter;
/// let overflows = EventCounter::new("overflows");
/// overflows.add(2);
/// assert_eq!((overflows.name(), overflows.get()), ("overflows", 2));
/// ```
#[derive(Clone, Debug)]
pub struct EventCounter {
    name: &'static str,
    count: Arc<AtomicU64>,
}

impl EventCounter {
    /// A counter at zero named `name` (what a display shows beside the number), listed with
    /// the block whose `start` hook makes it.
    pub fn new(name: &'static str) -> Self {
        let counter = Self {
            name,
            count: Arc::default(),
        };
        MADE.with(|made| {
            if let Some(list) = made.borrow_mut().as_mut() {
                list.push(counter.clone());
            }
        });
        counter
    }

    /// Counts `n` more events.
    #[inline]
    pub fn add(&self, n: u64) {
        self.count.fetch_add(n, Relaxed);
    }

    /// The events counted so far.
    pub fn get(&self) -> u64 {
        self.count.load(Relaxed)
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// Runs `hook` (a block's `start`) and returns what it returns with the event counters it made.
/// A hook that runs a flowgraph of its own collects that graph's counters there, not here.
/// A hook that panics leaves the list as it found it (the panic is the caller's to catch).
pub(crate) fn collect<R>(hook: impl FnOnce() -> R) -> (R, Vec<EventCounter>) {
    /// Puts the outer list back when dropped, on return or unwinding.
    struct Restore(Option<Option<Vec<EventCounter>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                MADE.with(|made| *made.borrow_mut() = outer);
            }
        }
    }
    let mut restore = Restore(Some(
        MADE.with(|made| made.borrow_mut().replace(Vec::new())),
    ));
    let result = hook();
    let outer = restore.0.take().unwrap_or_default();
    let made = MADE.with(|made| std::mem::replace(&mut *made.borrow_mut(), outer));
    (result, made.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_made_inside_a_hook_are_collected_once_and_only_there() {
        let before = EventCounter::new("before");
        let ((), made) = collect(|| {
            EventCounter::new("overflows").add(3);
            let ((), inner) = collect(|| {
                EventCounter::new("inner");
            });
            assert_eq!(inner.len(), 1);
            EventCounter::new("underflows");
        });
        let names: Vec<_> = made.iter().map(|c| (c.name(), c.get())).collect();
        assert_eq!(names, [("overflows", 3), ("underflows", 0)]);
        before.add(1);
        let ((), after) = collect(|| {});
        assert!(after.is_empty());
        assert_eq!(before.get(), 1);
        // A hook that panics: the next counter made outside any hook is listed nowhere.
        let panicked = std::panic::catch_unwind(|| {
            collect(|| {
                EventCounter::new("lost");
                panic!("the hook fails");
            })
        });
        assert!(panicked.is_err());
        EventCounter::new("outside");
        let ((), made) = collect(|| {});
        assert!(made.is_empty());
        assert!(MADE.with(|made| made.borrow().is_none()));
    }
}
