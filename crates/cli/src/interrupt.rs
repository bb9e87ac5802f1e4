//! Ctrl-C (SIGINT) and SIGTERM end a run as the end of its input would: the command stops
//! its graph, every block's `stop` runs (a WAV file gets its sizes, a SigMF recording its
//! metadata), the summary is printed and the exit status is 0. A second one ends the
//! process at once, with the shell's status for the signal (130, 143).

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// SIGINT and SIGTERM caught from [`catch`](Self::catch) on, for the rest of the process;
/// dropped, the thread [`then`](Self::then) started ends.
pub(crate) struct Interrupt {
    caught: Arc<AtomicBool>,
    /// Until [`then`](Self::then) takes them: the signals that came, queued.
    signals: Option<Signals>,
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl Interrupt {
    /// Catches SIGINT and SIGTERM. Call it before the run starts: a signal that comes
    /// before [`then`](Self::then) is kept for it.
    ///
    /// # Errors
    /// The handlers cannot be installed.
    pub(crate) fn catch() -> anyhow::Result<Self> {
        let caught = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM] {
            // First: at the second signal the flag is already set, and the process ends.
            signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, caught.clone())?;
            signal_hook::flag::register(signal, caught.clone())?;
        }
        let signals = Signals::new([SIGINT, SIGTERM])?;
        Ok(Self {
            caught,
            handle: signals.handle(),
            signals: Some(signals),
            thread: None,
        })
    }

    /// Calls `stop` (on a thread of its own) when a signal comes, or at once if one came.
    pub(crate) fn then(&mut self, mut stop: impl FnMut() + Send + 'static) {
        let Some(mut signals) = self.signals.take() else {
            return;
        };
        self.thread = Some(std::thread::spawn(move || {
            for _ in signals.forever() {
                stop();
            }
        }));
    }

    /// Whether a signal came.
    pub(crate) fn caught(&self) -> bool {
        self.caught.load(Ordering::SeqCst)
    }

    /// The flag a signal sets, for code that polls one.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.caught
    }
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(thread) = self.thread.take() {
            thread.join().ok();
        }
    }
}
