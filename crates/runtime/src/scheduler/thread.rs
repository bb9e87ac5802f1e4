//! Thread set-up shared by schedulers: names, CPU affinity, real-time priority.

use crate::error::RunError;
use crate::task::{BlockTask, RunControl};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// A Linux real-time scheduling class for scheduler threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealtimePolicy {
    /// `SCHED_FIFO` at the given priority (1..=99).
    Fifo(u8),
    /// `SCHED_RR` at the given priority (1..=99).
    RoundRobin(u8),
}

/// Linux limits thread names to 15 bytes.
pub(crate) fn thread_name(prefix: &str, name: &str) -> String {
    let mut s = format!("{prefix}{name}");
    while s.len() > 15 {
        s.pop();
    }
    s
}

/// Pins the calling thread to `cores` (a no-op outside Linux). Returns the OS error if the
/// kernel refuses.
pub fn pin_current_thread(cores: &[usize]) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: cpu_set_t is plain data; CPU_ZERO/CPU_SET write inside it; the pointer and
        // size passed to sched_setaffinity describe that set. pid 0 is the calling thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_ZERO(&mut set);
            for &c in cores {
                libc::CPU_SET(c, &mut set);
            }
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    let _ = cores;
    Ok(())
}

static RT_WARNED: AtomicBool = AtomicBool::new(false);

/// Moves the calling thread to a real-time class; when not permitted, warns once per process
/// and carries on at normal priority.
pub(crate) fn set_realtime(policy: RealtimePolicy) {
    let (class, prio) = match policy {
        RealtimePolicy::Fifo(p) => (libc::SCHED_FIFO, p),
        RealtimePolicy::RoundRobin(p) => (libc::SCHED_RR, p),
    };
    let param = libc::sched_param {
        sched_priority: i32::from(prio.clamp(1, 99)),
    };
    // SAFETY: pthread_self is always valid for the calling thread; param is initialised.
    let rc = unsafe { libc::pthread_setschedparam(libc::pthread_self(), class, &param) };
    if rc != 0 && !RT_WARNED.swap(true, Ordering::Relaxed) {
        let e = std::io::Error::from_raw_os_error(rc);
        tracing::warn!("real-time priority not permitted ({e}); running at normal priority");
        eprintln!("radioflow: real-time priority not permitted ({e}); running at normal priority");
    }
}

/// A scheduler thread to start: its name and what it runs (returning its tasks when done).
pub(crate) type ThreadJob = (String, Box<dyn FnOnce() -> Vec<BlockTask> + Send>);

/// Starts every job on a thread of its own. If one cannot be spawned, the run is stopped, the
/// threads already started are joined (the unstarted jobs' tasks are dropped, which releases
/// their ports) and the error names `scheduler`.
pub(crate) fn spawn_all(
    scheduler: &str,
    control: &RunControl,
    jobs: Vec<ThreadJob>,
) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError> {
    let mut handles = Vec::with_capacity(jobs.len());
    for (name, job) in jobs {
        match std::thread::Builder::new().name(name).spawn(job) {
            Ok(h) => handles.push(h),
            Err(e) => {
                control.request_stop();
                for h in handles {
                    let _ = h.join();
                }
                return Err(RunError::Scheduler {
                    scheduler: scheduler.into(),
                    error: format!("cannot spawn a thread: {e}"),
                });
            }
        }
    }
    Ok(handles)
}
