//! Per-thread CPU time and context switches of this process, read from `/proc/self/task`
//! by the control port's own thread (the scheduler threads only record theirs when they end;
//! reading `/proc` costs them nothing). Empty where `/proc` is not there.

use serde::Serialize;

/// One thread of the process, now.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ThreadSample {
    /// The kernel's thread id.
    pub tid: u32,
    /// The thread's name (`comm`).
    pub name: String,
    /// User plus system CPU time, in seconds.
    pub cpu_s: f64,
    /// Share of one core the thread used since the previous sample (0 to 1).
    pub cpu_share: f64,
    /// Voluntary context switches (the thread slept).
    pub voluntary_switches: u64,
    /// Involuntary context switches (the thread was preempted).
    pub involuntary_switches: u64,
}

/// Clock ticks per second of `/proc`'s CPU times (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
const TICKS_PER_S: f64 = 100.0;

/// Every thread of the process.
pub(crate) fn sample() -> Vec<ThreadSample> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut out: Vec<ThreadSample> = dir
        .flatten()
        .filter_map(|e| {
            let tid: u32 = e.file_name().to_str()?.parse().ok()?;
            let path = e.path();
            let stat = std::fs::read_to_string(path.join("stat")).ok()?;
            let status = std::fs::read_to_string(path.join("status")).ok()?;
            Some(parse(tid, &stat, &status))
        })
        .collect();
    out.sort_by_key(|t| t.tid);
    out
}

/// One thread from its `stat` and `status` files.
fn parse(tid: u32, stat: &str, status: &str) -> ThreadSample {
    // `comm` is in parentheses and may hold spaces; the fields after the last ')' are fixed.
    let name = stat
        .find('(')
        .zip(stat.rfind(')'))
        .map(|(a, b)| stat[a + 1..b].to_owned())
        .unwrap_or_default();
    let rest: Vec<&str> = stat
        .rfind(')')
        .map(|b| stat[b + 1..].split_whitespace().collect())
        .unwrap_or_default();
    // After ')': state is field 3; utime and stime are fields 14 and 15 (1-based), so 11, 12.
    let ticks = |i: usize| rest.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let cpu_s = (ticks(11) + ticks(12)) as f64 / TICKS_PER_S;
    let field = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    ThreadSample {
        tid,
        name,
        cpu_s,
        cpu_share: 0.0,
        voluntary_switches: field("voluntary_ctxt_switches:"),
        involuntary_switches: field("nonvoluntary_ctxt_switches:"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_with_spaces_cpu_time_and_switches() {
        let stat = "42 (flow worker 1) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 1 0";
        let status = "Name:\tflow\nvoluntary_ctxt_switches:\t7\nnonvoluntary_ctxt_switches:\t3\n";
        let t = parse(42, stat, status);
        assert_eq!(t.name, "flow worker 1");
        assert_eq!(t.cpu_s, 3.0);
        assert_eq!((t.voluntary_switches, t.involuntary_switches), (7, 3));
    }

    #[test]
    fn this_thread_is_listed() {
        if std::fs::metadata("/proc/self/task").is_err() {
            eprintln!("SKIP: no /proc on this system");
            return;
        }
        assert!(!sample().is_empty());
    }
}
