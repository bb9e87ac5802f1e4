//! Thread set-up shared by schedulers: names, CPU affinity, real-time priority.

use crate::error::RunError;
use crate::task::{BlockTask, RunControl};
use crate::valgrind;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
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

/// A scheduler thread to start: its name, the tasks it steps, and its loop, which returns the
/// tasks when they are done.
pub(crate) struct ThreadJob {
    pub(crate) name: String,
    pub(crate) tasks: Vec<BlockTask>,
    pub(crate) run: Box<dyn FnOnce(Vec<BlockTask>) -> Vec<BlockTask> + Send>,
}

/// Holds the threads of a run back until every one of them was spawned: then they all go, or,
/// if one could not be spawned, none runs a task. (Written here: `std::sync::Barrier` needs
/// the count of threads that will arrive and cannot be told that some never will.)
#[derive(Default)]
struct Gate {
    go: Mutex<Option<bool>>,
    opened: Condvar,
}

impl Gate {
    fn open(&self, go: bool) {
        let mut state = self.go.lock().unwrap_or_else(|p| p.into_inner());
        valgrind::happens_after(&self.go);
        *state = Some(go);
        // std's Mutex and Condvar are futexes, which helgrind and DRD do not see: each critical
        // section says it follows the one before (after the lock) and precedes the next
        // (before the unlock), as the lock does.
        valgrind::happens_before(&self.go);
        drop(state);
        self.opened.notify_all();
    }

    /// Waits for [`open`](Self::open); whether to run.
    fn wait(&self) -> bool {
        let mut state = self.go.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            valgrind::happens_after(&self.go);
            let go = *state;
            valgrind::happens_before(&self.go);
            if let Some(go) = go {
                return go;
            }
            state = self.opened.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The job's tasks, taken by its thread once the gate opens, or back by the spawner if not.
type TaskSlot = std::sync::Arc<Mutex<Vec<BlockTask>>>;

thread_local! {
    /// Threads the calling thread may still spawn before a spawn fails (testing aid, see
    /// [`fail_thread_spawns_after`]); `None`: no limit but the system's.
    static SPAWNS_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Testing aid: the schedulers started from the calling thread fail to spawn a thread, as the
/// system does when it has no thread left to give (EAGAIN), once they have spawned `n` more;
/// `None` lifts the limit.
pub(crate) fn fail_thread_spawns_after(n: Option<usize>) {
    SPAWNS_LEFT.set(n);
}

fn spawn(
    name: String,
    f: impl FnOnce() -> Vec<BlockTask> + Send + 'static,
) -> std::io::Result<JoinHandle<Vec<BlockTask>>> {
    match SPAWNS_LEFT.get() {
        Some(0) => return Err(std::io::Error::from_raw_os_error(libc::EAGAIN)),
        Some(n) => SPAWNS_LEFT.set(Some(n - 1)),
        None => {}
    }
    std::thread::Builder::new().name(name).spawn(f)
}

/// Starts every job on a thread of its own. The threads wait until all are spawned, so a
/// spawn that fails (out of threads: a graph of 100,000 blocks under `tpb`) leaves no block
/// half run: the threads already started are let go without a task and joined, every block
/// is stopped (its `stop` hook, its ports released) on the calling thread and handed back to
/// the flowgraph through `control`, and the error names `scheduler`, the thread and the count.
pub(crate) fn spawn_all(
    scheduler: &str,
    control: &RunControl,
    jobs: Vec<ThreadJob>,
) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError> {
    let total = jobs.len();
    let gate = std::sync::Arc::new(Gate::default());
    let mut handles = Vec::with_capacity(total);
    let mut slots: Vec<TaskSlot> = Vec::with_capacity(total);
    let mut jobs = jobs.into_iter();
    let mut failure = None;
    for job in jobs.by_ref() {
        let slot: TaskSlot = std::sync::Arc::new(Mutex::new(job.tasks));
        slots.push(slot.clone());
        let (gate, run) = (gate.clone(), job.run);
        let name = job.name.clone();
        let spawned = spawn(job.name, move || {
            if !gate.wait() {
                return Vec::new();
            }
            let tasks = std::mem::take(&mut *slot.lock().unwrap_or_else(|p| p.into_inner()));
            run(tasks)
        });
        match spawned {
            Ok(h) => handles.push(h),
            Err(e) => {
                failure = Some((handles.len() + 1, name, e));
                break;
            }
        }
    }
    let Some((k, name, e)) = failure else {
        gate.open(true);
        return Ok(handles);
    };
    control.request_stop();
    gate.open(false);
    for h in handles {
        let _ = h.join();
    }
    let mut tasks: Vec<BlockTask> = slots
        .iter()
        .flat_map(|s| std::mem::take(&mut *s.lock().unwrap_or_else(|p| p.into_inner())))
        .collect();
    tasks.extend(jobs.flat_map(|j| j.tasks));
    for t in &mut tasks {
        // With the stop requested above, a step is the block's stop hook and the release of
        // its ports.
        let step = t.step();
        debug_assert_eq!(step, crate::task::Step::Done);
    }
    control.give_back(tasks);
    Err(RunError::Scheduler {
        scheduler: scheduler.into(),
        error: format!(
            "cannot start thread {k} of the {total} the run needs ('{name}'): {e}; no block ran \
             and every one was stopped (raise the system's limit on threads, or use fewer: \
             `flow` runs a worker per CPU, `tpb` a thread per block)"
        ),
    })
}
