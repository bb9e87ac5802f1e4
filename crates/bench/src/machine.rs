//! Description of the machine a result was measured on (recorded with every result).

use serde::Serialize;

/// CPU model, core count and cache sizes as Linux reports them, and the instruction set
/// radioflow's kernels run on it.
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
    /// The instruction set the DSP kernels (FIR, decimating and frequency-translating FIR,
    /// quadrature demodulator, rotator) run, and why if not the CPU's widest, e.g. `avx512`
    /// or `avx2+fma (RADIOFLOW_ISA=avx2fma; the CPU runs avx512)`.
    pub kernels: String,
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
            kernels: kernels(),
        }
    }
}

impl std::fmt::Display for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} | {} CPUs | {} | Linux {} | kernels {}",
            self.cpu,
            self.cpus,
            self.caches.join(", "),
            self.kernel,
            self.kernels
        )
    }
}

/// What the FIR and demodulator kernels report they run (each picks the widest set it has
/// code for), with the cap's reason from [`InstructionSet::describe`].
fn kernels() -> String {
    use radioflow_dsp::{Complex32, Fir, InstructionSet, QuadratureDemod};
    let fir = Fir::<Complex32>::new(&[1.0]).kernel_name();
    let demod = QuadratureDemod::new(1.0).kernel_name();
    let described = InstructionSet::describe();
    let why = described
        .split_once(' ')
        .map_or(String::new(), |(_, why)| format!(" {why}"));
    if fir == demod {
        format!("{fir}{why}")
    } else {
        format!("FIR {fir}, demodulator {demod}{why}")
    }
}
