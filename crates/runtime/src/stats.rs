//! Run-time statistics kept by every scheduler: per block (work calls, items produced per call
//! as a log2 histogram) and per thread (context switches). Cheap enough to stay on: a few
//! instructions per work call, one system call per thread at its end.

/// What one block did during the last run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockStats {
    /// Calls of `work`.
    pub work_calls: u64,
    /// Items produced, summed over all stream outputs.
    pub items_produced: u64,
    /// `produced_log2[k]`: work calls that produced `n` items with `2^k <= n < 2^(k+1)`
    /// (`k = 0` also counts calls that produced nothing; the last bin takes everything larger).
    pub produced_log2: [u64; 32],
}

impl BlockStats {
    pub(crate) fn record_work(&mut self, produced: u64) {
        self.work_calls += 1;
        self.items_produced += produced;
        self.produced_log2[(produced.max(1).ilog2() as usize).min(31)] += 1;
    }
}

/// What one scheduler thread went through during the last run (from `getrusage(RUSAGE_THREAD)`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadStats {
    /// Thread name (`rf-<block>`, `rf-flow-<n>`, `rf-single`).
    pub name: String,
    /// Context switches because the thread waited (slept on its parker, blocked in I/O).
    pub voluntary_switches: u64,
    /// Context switches because the kernel preempted the thread.
    pub involuntary_switches: u64,
}

impl ThreadStats {
    /// The calling thread's statistics so far.
    pub(crate) fn of_current_thread() -> Self {
        let name = std::thread::current().name().unwrap_or("").to_owned();
        // Miri cannot call getrusage; it reports zero switches like other systems.
        #[cfg(all(target_os = "linux", not(miri)))]
        {
            // SAFETY: getrusage writes into the zeroed struct we pass; RUSAGE_THREAD is valid on
            // Linux for the calling thread.
            let usage = unsafe {
                let mut u: libc::rusage = std::mem::zeroed();
                (libc::getrusage(libc::RUSAGE_THREAD, &mut u) == 0).then_some(u)
            };
            if let Some(u) = usage {
                return Self {
                    name,
                    voluntary_switches: u.ru_nvcsw as u64,
                    involuntary_switches: u.ru_nivcsw as u64,
                };
            }
        }
        Self {
            name,
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bins_by_powers_of_two() {
        let mut s = BlockStats::default();
        for n in [0, 1, 2, 3, 4, 1023, 1024, 4096] {
            s.record_work(n);
        }
        assert_eq!(s.work_calls, 8);
        assert_eq!(s.items_produced, 1 + 2 + 3 + 4 + 1023 + 1024 + 4096);
        assert_eq!(s.produced_log2[0], 2); // 0 and 1
        assert_eq!(s.produced_log2[1], 2); // 2, 3
        assert_eq!(s.produced_log2[2], 1); // 4
        assert_eq!(s.produced_log2[9], 1); // 1023
        assert_eq!(s.produced_log2[10], 1); // 1024
        assert_eq!(s.produced_log2[12], 1); // 4096
    }

    #[test]
    fn a_thread_sees_its_own_context_switches() {
        let s = std::thread::Builder::new()
            .name("stats-test".into())
            .spawn(|| {
                for _ in 0..20 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                ThreadStats::of_current_thread()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(s.name, "stats-test");
        #[cfg(all(target_os = "linux", not(miri)))]
        assert!(s.voluntary_switches >= 20, "{s:?}");
    }
}
