//! Counting the runtime's threads, for tests that check none is left behind.

use std::time::{Duration, Instant};

/// Threads of the runtime (every scheduler and pipeline names them "rf-...") alive in this
/// process now, read from `/proc/self/task` (Linux; 0 elsewhere). The test runner's own
/// threads come and go with other tests and are not counted.
pub fn runtime_threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| {
        d.flatten()
            .filter(|t| {
                std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.starts_with("rf-"))
            })
            .count()
    })
}

/// [`runtime_threads`] once the threads already joined have left the process: the count,
/// as soon as it is at most `baseline`, or after 10 s the count then.
///
/// A joined thread can still be listed for a moment: `join` returns when the kernel clears the
/// thread's id, early in its exit, and the thread leaves `/proc/self/task` only at the end of
/// it (a test counting right after a join saw 1 thread where 0 were left, on a busy machine).
/// A thread really left behind is still there after 10 s; a finished one is gone in
/// microseconds, so the result does not depend on the machine's load.
pub fn runtime_threads_settled(baseline: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let n = runtime_threads();
        if n <= baseline || Instant::now() >= deadline {
            return n;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Testing aid: the schedulers started from the calling thread fail to spawn a thread, as the
/// system does when it has none left to give (EAGAIN), once they have spawned `n` more
/// threads; `None` lifts the limit. Other threads are not affected.
pub fn fail_thread_spawns_after(n: Option<usize>) {
    crate::scheduler::fail_thread_spawns_after(n);
}
