//! [`InstructionSet`]: the instruction sets kernels are compiled for, and the one this CPU runs,
//! decided once per process for every kernel.
//!
//! A kernel is compiled once as is ([`InstructionSet::Portable`], its reference path) and, on
//! x86-64, for the wider sets it gains from (`#[target_feature]`). It picks its code when it is
//! made, with [`InstructionSet::best_of`] over the sets it has code for, keeps that choice, and
//! its tests run every set this CPU has ([`InstructionSet::available`]) against the naive
//! reference.
//!
//! The environment variable `RADIOFLOW_ISA` caps the choice for the whole process: `portable`,
//! `sse41`, `avx2`, `avx2fma` or `avx512` (also the [names](InstructionSet::name) `sse4.1` and
//! `avx2+fma`). Kernels then run the widest set up to it, and tests run only the paths up to it,
//! so a machine with AVX-512 can measure or test its AVX2 and portable paths alone. A value
//! above what the CPU runs is clamped to what it runs, and a value that names no set is ignored;
//! both with a warning on standard error, once (not an error: the variable is a cap for
//! measurements and tests, and code the CPU cannot run is never chosen whatever it says).
//!
//! (std's `is_x86_feature_detected!` is the detection itself; this module only decides once
//! which of the kernels' sets that makes usable, so no crate is needed for it.)

use std::sync::OnceLock;

/// The environment variable that caps the instruction set: `RADIOFLOW_ISA` (see
/// [`InstructionSet::detected`]).
pub const ISA_VARIABLE: &str = "RADIOFLOW_ISA";

/// An instruction set a kernel may be compiled for, each one a superset of those before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InstructionSet {
    /// What the target enables by default (SSE2 on x86-64): runs everywhere.
    Portable,
    /// x86-64 with SSE4.1.
    Sse41,
    /// x86-64 with SSE4.1 and AVX2.
    Avx2,
    /// x86-64 with SSE4.1, AVX2 and FMA.
    Avx2Fma,
    /// x86-64 with AVX2, FMA and AVX-512 F, DQ, BW and VL (Intel Skylake-SP and later
    /// server parts, AMD Zen 4 and later): 16 floats per register and mask registers.
    Avx512,
}

impl InstructionSet {
    /// Every set, from the most portable.
    pub const ALL: [InstructionSet; 5] = [
        InstructionSet::Portable,
        InstructionSet::Sse41,
        InstructionSet::Avx2,
        InstructionSet::Avx2Fma,
        InstructionSet::Avx512,
    ];

    /// The widest set kernels use in this process: what the CPU runs, capped by
    /// `RADIOFLOW_ISA` if set (`portable`, `sse41`, `avx2`, `avx2fma` or `avx512`; a value
    /// above what the CPU runs is clamped to it, one that names no set ignored, each with a
    /// warning on standard error). Decided on the first call.
    pub fn detected() -> InstructionSet {
        static DETECTED: OnceLock<InstructionSet> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let cpu = Self::cpu();
            let Ok(value) = std::env::var(ISA_VARIABLE) else {
                return cpu;
            };
            let (chosen, warning) = cap(cpu, &value);
            if let Some(warning) = warning {
                eprintln!("warning: {warning}");
            }
            chosen
        })
    }

    /// The widest set this CPU runs, whatever `RADIOFLOW_ISA` says.
    pub fn cpu() -> InstructionSet {
        static CPU: OnceLock<InstructionSet> = OnceLock::new();
        *CPU.get_or_init(detect)
    }

    /// The set `RADIOFLOW_ISA` names (`portable`, `sse41`, `avx2`, `avx2fma`, `avx512`, or a
    /// [name](Self::name)); `None` for anything else.
    pub fn from_name(name: &str) -> Option<InstructionSet> {
        let name = name.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|s| {
            s.name() == name
                || match s {
                    InstructionSet::Sse41 => name == "sse41",
                    InstructionSet::Avx2Fma => name == "avx2fma",
                    _ => false,
                }
        })
    }

    /// Whether kernels of this set run in this process (the CPU has it, and `RADIOFLOW_ISA`
    /// does not cap below it).
    pub fn is_supported(self) -> bool {
        self <= Self::detected()
    }

    /// The widest of `kernels` (the sets a kernel has code for) that this CPU runs;
    /// [`Portable`](Self::Portable), which every kernel has, if none.
    pub fn best_of(kernels: &[InstructionSet]) -> InstructionSet {
        kernels
            .iter()
            .copied()
            .filter(|k| k.is_supported())
            .max()
            .unwrap_or(InstructionSet::Portable)
    }

    /// Every set this CPU runs, widest first (for tests that run each of a kernel's paths).
    pub fn available() -> impl Iterator<Item = InstructionSet> {
        Self::ALL.into_iter().rev().filter(|s| s.is_supported())
    }

    /// Its name: `portable`, `sse4.1`, `avx2`, `avx2+fma` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            InstructionSet::Portable => "portable",
            InstructionSet::Sse41 => "sse4.1",
            InstructionSet::Avx2 => "avx2",
            InstructionSet::Avx2Fma => "avx2+fma",
            InstructionSet::Avx512 => "avx512",
        }
    }

    /// One line for benchmark reports: the set kernels use, and why if not the CPU's widest,
    /// e.g. `avx512` or `avx2+fma (RADIOFLOW_ISA=avx2fma; the CPU runs avx512)`.
    pub fn describe() -> String {
        let (used, cpu) = (Self::detected(), Self::cpu());
        if used == cpu {
            used.name().to_owned()
        } else {
            let value = std::env::var(ISA_VARIABLE).unwrap_or_default();
            format!("{used} ({ISA_VARIABLE}={value}; the CPU runs {cpu})")
        }
    }
}

impl std::fmt::Display for InstructionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The set kernels use when the CPU runs `cpu` and `RADIOFLOW_ISA` is `value`, and the
/// warning to print, if any.
fn cap(cpu: InstructionSet, value: &str) -> (InstructionSet, Option<String>) {
    match InstructionSet::from_name(value) {
        Some(asked) if asked <= cpu => (asked, None),
        Some(asked) => (
            cpu,
            Some(format!(
                "{ISA_VARIABLE}={value} asks for {asked}, which this CPU does not run: \
                 kernels use {cpu}, the widest it runs"
            )),
        ),
        None => (
            cpu,
            Some(format!(
                "{ISA_VARIABLE}={value:?} names no instruction set (portable, sse41, avx2, \
                 avx2fma, avx512): ignored, kernels use {cpu}"
            )),
        ),
    }
}

fn detect() -> InstructionSet {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("sse4.1") {
            if has!("avx2") {
                if !has!("fma") {
                    return InstructionSet::Avx2;
                }
                return if has!("avx512f")
                    && has!("avx512dq")
                    && has!("avx512bw")
                    && has!("avx512vl")
                {
                    InstructionSet::Avx512
                } else {
                    InstructionSet::Avx2Fma
                };
            }
            return InstructionSet::Sse41;
        }
    }
    InstructionSet::Portable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_set_is_what_the_cpu_reports() {
        let d = InstructionSet::cpu();
        assert_eq!(d, detect(), "decided once, the same every time");
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2fma = has!("sse4.1") && has!("avx2") && has!("fma");
            assert_eq!(d >= InstructionSet::Sse41, has!("sse4.1"));
            assert_eq!(d >= InstructionSet::Avx2, has!("sse4.1") && has!("avx2"));
            assert_eq!(d >= InstructionSet::Avx2Fma, avx2fma);
            assert_eq!(
                d == InstructionSet::Avx512,
                avx2fma
                    && has!("avx512f")
                    && has!("avx512dq")
                    && has!("avx512bw")
                    && has!("avx512vl")
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(d, InstructionSet::Portable);
    }

    #[test]
    fn the_variable_caps_the_set_and_never_raises_it() {
        use InstructionSet::*;
        assert_eq!(cap(Avx512, "avx2fma"), (Avx2Fma, None));
        assert_eq!(cap(Avx512, "AVX2+FMA"), (Avx2Fma, None));
        assert_eq!(cap(Avx512, "portable"), (Portable, None));
        assert_eq!(cap(Avx2Fma, "sse41"), (Sse41, None));
        assert_eq!(cap(Avx512, " avx512 "), (Avx512, None));
        let (set, warning) = cap(Avx2Fma, "avx512");
        assert_eq!(set, Avx2Fma);
        let warning = warning.expect("a warning");
        assert!(
            warning.contains("RADIOFLOW_ISA=avx512") && warning.contains("avx2+fma"),
            "{warning}"
        );
        let (set, warning) = cap(Avx2Fma, "neon");
        assert_eq!(set, Avx2Fma);
        assert!(warning.expect("a warning").contains("\"neon\""));
        for s in InstructionSet::ALL {
            assert_eq!(InstructionSet::from_name(s.name()), Some(s));
        }
        // The process's own choice follows the same rule.
        let want = match std::env::var(ISA_VARIABLE) {
            Ok(v) => cap(InstructionSet::cpu(), &v).0,
            Err(_) => InstructionSet::cpu(),
        };
        assert_eq!(InstructionSet::detected(), want);
    }

    #[test]
    fn best_of_picks_the_widest_supported_kernel() {
        let d = InstructionSet::detected();
        assert_eq!(InstructionSet::best_of(&[]), InstructionSet::Portable);
        assert_eq!(InstructionSet::best_of(&InstructionSet::ALL), d);
        let avx = InstructionSet::best_of(&[InstructionSet::Avx2Fma]);
        assert_eq!(
            avx,
            if d >= InstructionSet::Avx2Fma {
                InstructionSet::Avx2Fma
            } else {
                InstructionSet::Portable
            }
        );
        let available: Vec<_> = InstructionSet::available().collect();
        assert_eq!(available.first(), Some(&d));
        assert_eq!(available.last(), Some(&InstructionSet::Portable));
        assert!(available.windows(2).all(|w| w[0] > w[1]));
    }
}
