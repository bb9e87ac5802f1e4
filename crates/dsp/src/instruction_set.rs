//! [`InstructionSet`]: the instruction sets kernels are compiled for, and the one this CPU runs,
//! decided once per process for every kernel.
//!
//! A kernel is compiled once as is ([`InstructionSet::Portable`], its reference path) and, on
//! x86-64, for the wider sets it gains from (`#[target_feature]`). It picks its code when it is
//! made, with [`InstructionSet::best_of`] over the sets it has code for, keeps that choice, and
//! its tests run every set this CPU has ([`InstructionSet::available`]) against the naive
//! reference.
//!
//! (std's `is_x86_feature_detected!` is the detection itself; this module only decides once
//! which of the kernels' sets that makes usable, so no crate is needed for it.)

use std::sync::OnceLock;

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
}

impl InstructionSet {
    /// Every set, from the most portable.
    pub const ALL: [InstructionSet; 4] = [
        InstructionSet::Portable,
        InstructionSet::Sse41,
        InstructionSet::Avx2,
        InstructionSet::Avx2Fma,
    ];

    /// The widest set this CPU runs, detected on the first call.
    pub fn detected() -> InstructionSet {
        static DETECTED: OnceLock<InstructionSet> = OnceLock::new();
        *DETECTED.get_or_init(detect)
    }

    /// Whether this CPU runs code compiled for this set.
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

    /// Its name: `portable`, `sse4.1`, `avx2` or `avx2+fma`.
    pub fn name(self) -> &'static str {
        match self {
            InstructionSet::Portable => "portable",
            InstructionSet::Sse41 => "sse4.1",
            InstructionSet::Avx2 => "avx2",
            InstructionSet::Avx2Fma => "avx2+fma",
        }
    }
}

impl std::fmt::Display for InstructionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn detect() -> InstructionSet {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("sse4.1") {
            if has!("avx2") {
                return if has!("fma") {
                    InstructionSet::Avx2Fma
                } else {
                    InstructionSet::Avx2
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
    fn the_detected_set_is_what_the_cpu_reports() {
        let d = InstructionSet::detected();
        assert_eq!(d, detect(), "decided once, the same every time");
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            assert_eq!(d >= InstructionSet::Sse41, has!("sse4.1"));
            assert_eq!(d >= InstructionSet::Avx2, has!("sse4.1") && has!("avx2"));
            assert_eq!(
                d == InstructionSet::Avx2Fma,
                has!("sse4.1") && has!("avx2") && has!("fma")
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(d, InstructionSet::Portable);
    }

    #[test]
    fn best_of_picks_the_widest_supported_kernel() {
        let d = InstructionSet::detected();
        assert_eq!(InstructionSet::best_of(&[]), InstructionSet::Portable);
        assert_eq!(InstructionSet::best_of(&InstructionSet::ALL), d);
        let avx = InstructionSet::best_of(&[InstructionSet::Avx2Fma]);
        assert_eq!(
            avx,
            if d == InstructionSet::Avx2Fma {
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
