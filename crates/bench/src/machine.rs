//! Description of the machine a result was measured on (recorded with every result).

use serde::Serialize;

/// CPU model, core count and cache sizes as Linux reports them.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// CPU model name.
    pub cpu: String,
    /// Logical CPUs available to this process.
    pub cpus: usize,
    /// Cache sizes per level, e.g. `L1d 32K`, `L2 1024K`.
    pub caches: Vec<String>,
    /// Kernel release.
    pub kernel: String,
}

impl Machine {
    /// Reads the description from /proc and /sys (fields stay empty where unavailable).
    pub fn detect() -> Self {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let cpu = read("/proc/cpuinfo")
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
        let mut caches = Vec::new();
        for i in 0..8 {
            let base = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
            let (level, kind, size) = (
                read(&format!("{base}/level")),
                read(&format!("{base}/type")),
                read(&format!("{base}/size")),
            );
            if size.is_empty() {
                break;
            }
            let kind = match kind.trim() {
                "Data" => "d",
                "Instruction" => "i",
                _ => "",
            };
            caches.push(format!("L{}{kind} {}", level.trim(), size.trim()));
        }
        Self {
            cpu,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            caches,
            kernel: read("/proc/sys/kernel/osrelease").trim().to_owned(),
        }
    }
}

impl std::fmt::Display for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} | {} CPUs | {} | Linux {}",
            self.cpu,
            self.cpus,
            self.caches.join(", "),
            self.kernel
        )
    }
}
