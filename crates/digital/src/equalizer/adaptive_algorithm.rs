//! [`AdaptiveAlgorithm`]: how GNU Radio's adaptive equalizers measure their error and move
//! their taps (LMS, NLMS, CMA), with the constellation they decide by.

use crate::Constellation;
use num_complex::Complex32;
use std::fmt;
use std::str::FromStr;

/// Why an adaptive algorithm could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("adaptive algorithm: {0}")]
pub struct AdaptiveAlgorithmError(String);

fn bad(message: impl Into<String>) -> AdaptiveAlgorithmError {
    AdaptiveAlgorithmError(message.into())
}

/// The three algorithms of GNU Radio 3.10 (`digital.adaptive_algorithm_lms`, `_nlms`, `_cma`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlgorithmKind {
    /// Least mean squares: taps move by `step · e · conj(x)`, `e = decision - y`.
    Lms,
    /// Normalized LMS: the step divided by the window's energy `Σ|x|²`.
    Nlms,
    /// Constant modulus: `e = y · (|y|² - modulus)`, each part clipped to ±1, taps moved by
    /// `-step · e · conj(x)`; needs no decision.
    Cma {
        /// The modulus `|y|²` is driven to.
        modulus: f32,
    },
}

/// An adaptive algorithm as GNU Radio's `variable_adaptive_algorithm` makes it: a kind, a
/// step size and the constellation its decision-directed error decides by.
///
/// Its arithmetic is GNU Radio 3.10's (`adaptive_algorithm_lms.h`, `_nlms.h`, `_cma.h`), in
/// `f32`, operation for operation where GNU Radio's is scalar C++; GNU Radio sums the NLMS
/// window energy and multiplies the LMS/CMA tap updates with VOLK kernels, whose order of
/// operations (and fused multiply-adds) depend on the machine: there the results agree to
/// float rounding.
///
/// It reads and writes a one-line text form, the value the equalizers' `alg` parameter
/// takes: `lms step=0.0001 | qpsk`, `nlms step=0.05 | 16qam`, `cma step=0.0001 modulus=4 |
/// qpsk` (the constellation's own text form after the bar, see [`Constellation`]).
///
/// ```
/// use radioflow_digital::{AdaptiveAlgorithm, AlgorithmKind, Constellation};
///
/// let lms: AdaptiveAlgorithm = "lms step=0.01 | qpsk".parse()?;
/// assert_eq!(lms.kind(), AlgorithmKind::Lms);
/// assert_eq!(lms.to_string().parse::<AdaptiveAlgorithm>()?, lms);
/// let cma = AdaptiveAlgorithm::new(AlgorithmKind::Cma { modulus: 4.0 }, 1e-4, Constellation::qpsk())?;
/// assert_eq!(cma.to_string(), "cma step=0.0001 modulus=4 | qpsk");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AdaptiveAlgorithm {
    kind: AlgorithmKind,
    step: f32,
    constellation: Constellation,
}

impl AdaptiveAlgorithm {
    /// An algorithm of `kind` with step size `step` deciding by `constellation`.
    ///
    /// # Errors
    /// If `step` or the modulus is not finite, or the constellation has more than one
    /// sample per symbol (GNU Radio's equalizers decide one sample at a time).
    pub fn new(
        kind: AlgorithmKind,
        step: f32,
        constellation: Constellation,
    ) -> Result<Self, AdaptiveAlgorithmError> {
        if !step.is_finite() {
            return Err(bad(format!("the step size {step} is not a finite number")));
        }
        if let AlgorithmKind::Cma { modulus } = kind
            && !modulus.is_finite()
        {
            return Err(bad(format!("the modulus {modulus} is not a finite number")));
        }
        if constellation.dimensionality() != 1 {
            return Err(bad(format!(
                "the constellation has {} samples per symbol; GNU Radio's equalizers decide \
                 one sample at a time (dimensionality 1)",
                constellation.dimensionality()
            )));
        }
        Ok(Self {
            kind,
            step,
            constellation,
        })
    }

    /// The kind (with the CMA's modulus).
    pub fn kind(&self) -> AlgorithmKind {
        self.kind
    }

    /// The step size.
    pub fn step(&self) -> f32 {
        self.step
    }

    /// The constellation the decision-directed error decides by.
    pub fn constellation(&self) -> &Constellation {
        &self.constellation
    }

    /// GNU Radio's `initialize_taps`: LMS and NLMS start from zeros, CMA from a one in the
    /// first tap as GNU Radio orders them (before its filter reverses them). `taps` are
    /// written as the equalizers apply them, `taps[k]` to the window's `k`-th oldest
    /// sample, so the CMA's one lands on the newest sample (the last).
    pub(crate) fn initialize_taps(&self, taps: &mut [Complex32]) {
        taps.fill(Complex32::default());
        if matches!(self.kind, AlgorithmKind::Cma { .. })
            && let Some(last) = taps.last_mut()
        {
            *last = Complex32::new(1.0, 0.0);
        }
    }

    /// GNU Radio's `error_dd`: the error of output `y` against the constellation point it
    /// is decided as, and that point (CMA: its own error, and no decision: zero).
    #[inline]
    pub(crate) fn error_dd(&self, y: Complex32) -> (Complex32, Complex32) {
        match self.kind {
            AlgorithmKind::Cma { modulus } => (cma_error(y, modulus), Complex32::default()),
            AlgorithmKind::Lms | AlgorithmKind::Nlms => {
                let d = self.constellation.points()[self.constellation.decision(&[y]) as usize];
                (d - y, d)
            }
        }
    }

    /// GNU Radio's `error_tr`: the error of output `y` against the training symbol `d`
    /// (CMA: its own error, whatever `d`).
    #[inline]
    pub(crate) fn error_tr(&self, y: Complex32, d: Complex32) -> Complex32 {
        match self.kind {
            AlgorithmKind::Cma { modulus } => cma_error(y, modulus),
            AlgorithmKind::Lms | AlgorithmKind::Nlms => d - y,
        }
    }

    /// GNU Radio's `update_taps`: moves `taps` (as applied to `window`, same length) by
    /// `error`.
    #[inline]
    pub(crate) fn update_taps(
        &self,
        taps: &mut [Complex32],
        window: &[Complex32],
        error: Complex32,
    ) {
        debug_assert_eq!(taps.len(), window.len());
        match self.kind {
            AlgorithmKind::Lms | AlgorithmKind::Cma { .. } => {
                // VOLK: conj(x), times the scalar step·error (CMA: -step·error), added.
                let mu = if matches!(self.kind, AlgorithmKind::Lms) {
                    self.step
                } else {
                    -self.step
                };
                let scaled = Complex32::new(mu * error.re, mu * error.im);
                for (t, x) in taps.iter_mut().zip(window) {
                    *t += x.conj() * scaled;
                }
            }
            AlgorithmKind::Nlms => {
                let energy: f32 = window.iter().map(|x| x.re * x.re + x.im * x.im).sum();
                let step = self.step / energy;
                let e = error.conj();
                for (t, x) in taps.iter_mut().zip(window) {
                    // conj(conj(t) + step·x·conj(e)), as GNU Radio writes it.
                    let scaled = Complex32::new(step * x.re, step * x.im);
                    *t = (t.conj() + scaled * e).conj();
                }
            }
        }
    }
}

/// The CMA's error: `y · (|y|² - modulus)`, each part clipped to ±1 (GNU Radio's
/// `gr::clip`).
#[inline]
fn cma_error(y: Complex32, modulus: f32) -> Complex32 {
    let s = (y.re * y.re + y.im * y.im) - modulus;
    // `clamp` keeps a NaN, as GNU Radio's comparisons do.
    Complex32::new((y.re * s).clamp(-1.0, 1.0), (y.im * s).clamp(-1.0, 1.0))
}

impl fmt::Display for AdaptiveAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            AlgorithmKind::Lms => write!(f, "lms step={}", self.step)?,
            AlgorithmKind::Nlms => write!(f, "nlms step={}", self.step)?,
            AlgorithmKind::Cma { modulus } => {
                write!(f, "cma step={} modulus={modulus}", self.step)?
            }
        }
        write!(f, " | {}", self.constellation)
    }
}

impl FromStr for AdaptiveAlgorithm {
    type Err = AdaptiveAlgorithmError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (head, cons) = s
            .split_once('|')
            .ok_or_else(|| bad(format!("'{s}' has no '| constellation' part")))?;
        let constellation: Constellation = cons.trim().parse().map_err(|e| bad(format!("{e}")))?;
        let mut words = head.split_whitespace();
        let kind = words
            .next()
            .ok_or_else(|| bad("no kind (lms, nlms or cma)"))?;
        let (mut step, mut modulus) = (None, None);
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| bad(format!("'{w}' is not key=value")))?;
            let number = v
                .parse::<f32>()
                .map_err(|_| bad(format!("{k}: '{v}' is not a number")))?;
            match k {
                "step" => step = Some(number),
                "modulus" if kind == "cma" => modulus = Some(number),
                _ => return Err(bad(format!("{kind} takes no '{k}'"))),
            }
        }
        let step = step.ok_or_else(|| bad(format!("{kind} needs step=")))?;
        let kind = match kind {
            "lms" => AlgorithmKind::Lms,
            "nlms" => AlgorithmKind::Nlms,
            "cma" => AlgorithmKind::Cma {
                modulus: modulus.ok_or_else(|| bad("cma needs modulus="))?,
            },
            other => return Err(bad(format!("'{other}' is not lms, nlms or cma"))),
        };
        Self::new(kind, step, constellation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_reads_back_and_refuses_what_is_wrong() {
        for text in [
            "lms step=0.0001 | qpsk",
            "nlms step=0.5 | 16qam",
            "cma step=0.001 modulus=2 | bpsk",
            "lms step=0.01 | calcdist points=-1,0;1,0 map=0,1 rot=2 dim=1 norm=amplitude",
        ] {
            let a: AdaptiveAlgorithm = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        for wrong in [
            "lms step=0.1",
            "lms | qpsk",
            "rls step=0.1 | qpsk",
            "cma step=0.1 | qpsk",
            "lms step=0.1 modulus=2 | qpsk",
            "lms step=x | qpsk",
            "lms step=inf | qpsk",
            "lms step=0.1 | calcdist points=0,0;1,0;0,1;1,1 map=0,1 rot=1 dim=2",
        ] {
            assert!(wrong.parse::<AdaptiveAlgorithm>().is_err(), "{wrong}");
        }
    }

    #[test]
    fn errors_follow_gnu_radio_s_signs() {
        let lms: AdaptiveAlgorithm = "lms step=0.5 | qpsk".parse().unwrap();
        let p = Constellation::qpsk().points()[3];
        let y = p * 0.9;
        let (e, d) = lms.error_dd(y);
        assert_eq!(d, p);
        assert_eq!(e, p - y);
        assert_eq!(lms.error_tr(y, -p), -p - y);
        // LMS: t += step·e·conj(x).
        let mut taps = [Complex32::new(0.1, 0.2)];
        let x = [Complex32::new(0.5, -1.0)];
        lms.update_taps(&mut taps, &x, Complex32::new(1.0, 1.0));
        let want = Complex32::new(0.1, 0.2) + x[0].conj() * Complex32::new(0.5, 0.5);
        assert!((taps[0] - want).norm() < 1e-7);
        // CMA: error clipped, no decision, taps move the other way.
        let cma: AdaptiveAlgorithm = "cma step=0.5 modulus=1 | qpsk".parse().unwrap();
        let (e, d) = cma.error_dd(Complex32::new(2.0, 0.1));
        assert_eq!((e.re, d), (1.0, Complex32::default()));
        assert!((e.im - 0.301).abs() < 1e-6, "{e}");
        let mut init = [Complex32::new(5.0, 5.0); 3];
        cma.initialize_taps(&mut init);
        assert_eq!(init[2], Complex32::new(1.0, 0.0));
        assert_eq!(init[0], Complex32::default());
        // NLMS: the step divided by the window's energy.
        let nlms: AdaptiveAlgorithm = "nlms step=1 | qpsk".parse().unwrap();
        let mut taps = [Complex32::default(); 2];
        let x = [Complex32::new(1.0, 0.0), Complex32::new(0.0, 1.0)];
        nlms.update_taps(&mut taps, &x, Complex32::new(2.0, 0.0));
        assert_eq!(taps, [Complex32::new(1.0, 0.0), Complex32::new(0.0, -1.0)]);
    }
}
