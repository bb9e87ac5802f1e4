//! [`TimingErrorDetector`]: GNU Radio's symbol timing error detectors.

use crate::branchless_clip;
use crate::ParamError;
use num_complex::Complex32;

/// GNU Radio's timing error detectors (`digital.TED_*`), each with its inputs per symbol,
/// the inputs its error reads, and whether it needs a slicer, a look-ahead input or the
/// signal's derivative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TedKind {
    /// Mueller and Müller (decision directed, 1 input per symbol).
    MuellerAndMuller,
    /// Modified Mueller and Müller (decision directed, no self-noise).
    ModMuellerAndMuller,
    /// Zero crossing (decision directed, 2 inputs per symbol).
    ZeroCrossing,
    /// Gardner (2 inputs per symbol).
    Gardner,
    /// Early-late (2 inputs per symbol, with a look-ahead input).
    EarlyLate,
    /// D'Andrea and Mengali's generalized MSK (on the CPM signal).
    DandreaAndMengaliGenMsk,
    /// Mengali and D'Andrea's GMSK (on the CPM signal).
    MengaliAndDandreaGmsk,
    /// `y[n]·y'[n]`: the maximum-likelihood detector's small-signal approximation.
    SignalTimesSlopeMl,
    /// `sgn(y[n])·y'[n]`: its large-signal approximation.
    SignumTimesSlopeMl,
}

impl TedKind {
    /// GNU Radio's names (`TED_GARDNER`, …) and its enum's numbers.
    pub const ALL: [(Self, &'static str, i64); 9] = [
        (Self::MuellerAndMuller, "TED_MUELLER_AND_MULLER", 0),
        (Self::ModMuellerAndMuller, "TED_MOD_MUELLER_AND_MULLER", 1),
        (Self::ZeroCrossing, "TED_ZERO_CROSSING", 2),
        (Self::Gardner, "TED_GARDNER", 4),
        (Self::EarlyLate, "TED_EARLY_LATE", 5),
        (
            Self::DandreaAndMengaliGenMsk,
            "TED_DANDREA_AND_MENGALI_GEN_MSK",
            6,
        ),
        (Self::SignalTimesSlopeMl, "TED_SIGNAL_TIMES_SLOPE_ML", 7),
        (Self::SignumTimesSlopeMl, "TED_SIGNUM_TIMES_SLOPE_ML", 8),
        (
            Self::MengaliAndDandreaGmsk,
            "TED_MENGALI_AND_DANDREA_GMSK",
            9,
        ),
    ];

    /// The detector of GNU Radio's enum number.
    pub fn from_number(n: i64) -> Option<Self> {
        Self::ALL.iter().find(|a| a.2 == n).map(|a| a.0)
    }

    /// (inputs per symbol, inputs the error reads, look-ahead, derivative, slicer).
    fn shape(self) -> (usize, usize, bool, bool, bool) {
        match self {
            Self::MuellerAndMuller => (1, 2, false, false, true),
            Self::ModMuellerAndMuller => (1, 3, false, false, true),
            Self::ZeroCrossing => (2, 3, false, false, true),
            Self::Gardner => (2, 3, false, false, false),
            Self::EarlyLate => (2, 2, true, false, false),
            Self::DandreaAndMengaliGenMsk | Self::MengaliAndDandreaGmsk => {
                (2, 4, false, false, false)
            }
            Self::SignalTimesSlopeMl | Self::SignumTimesSlopeMl => (1, 1, false, true, false),
        }
    }

    /// Whether the detector decides symbols (needs a slicer constellation).
    pub fn needs_slicer(self) -> bool {
        self.shape().4
    }
}

/// The slicer of decision-directed detectors: the constellation point nearest a sample.
pub type Slicer = Box<dyn Fn(Complex32) -> Complex32 + Send>;

/// Deepest history a detector keeps, plus the look-ahead input.
const DEPTH: usize = 5;

/// GNU Radio's name in lower case (`ted_gardner`), as the GRC loader's
/// constants give it.
impl std::str::FromStr for TedKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .find(|a| a.1.eq_ignore_ascii_case(s))
            .map(|a| a.0)
            .ok_or_else(|| {
                let names: Vec<String> = Self::ALL.iter().map(|a| a.1.to_lowercase()).collect();
                format!(
                    "'{s}' is not a timing error detector ({})",
                    names.join(", ")
                )
            })
    }
}

/// A timing error detector's state, as GNU Radio's `timing_error_detector`: its inputs
/// (newest first), their decisions and derivatives, its clock within the symbol and its
/// error. Real samples (`real`) use GNU Radio's `_ff` formulas, which differ from the
/// complex ones by a factor 2 for some detectors.
pub struct TimingErrorDetector {
    kind: TedKind,
    real: bool,
    slicer: Option<Slicer>,
    inputs_per_symbol: usize,
    depth: usize,
    lookahead: bool,
    derivative: bool,
    input: [Complex32; DEPTH],
    decision: [Complex32; DEPTH],
    slope: [Complex32; DEPTH],
    clock: usize,
    error: f32,
    prev_error: f32,
}

impl std::fmt::Debug for TimingErrorDetector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimingErrorDetector")
            .field("kind", &self.kind)
            .field("real", &self.real)
            .finish()
    }
}

impl TimingErrorDetector {
    /// A detector of `kind` for real (`real`) or complex samples.
    ///
    /// # Errors
    /// A decision-directed detector without a slicer.
    pub fn new(kind: TedKind, real: bool, slicer: Option<Slicer>) -> Result<Self, ParamError> {
        let (inputs_per_symbol, depth, lookahead, derivative, needs_slicer) = kind.shape();
        if needs_slicer && slicer.is_none() {
            return Err(ParamError::new(
                "constellation",
                format!("the {kind:?} detector decides symbols: it needs a slicer constellation"),
            ));
        }
        let mut t = Self {
            kind,
            real,
            slicer: if needs_slicer { slicer } else { None },
            inputs_per_symbol,
            depth,
            lookahead,
            derivative,
            input: [Complex32::default(); DEPTH],
            decision: [Complex32::default(); DEPTH],
            slope: [Complex32::default(); DEPTH],
            clock: 0,
            error: 0.0,
            prev_error: 0.0,
        };
        t.reset();
        Ok(t)
    }

    /// Inputs per symbol.
    pub fn inputs_per_symbol(&self) -> usize {
        self.inputs_per_symbol
    }

    /// Whether the error needs the next symbol's input ([`input_lookahead`](Self::input_lookahead)).
    pub fn needs_lookahead(&self) -> bool {
        self.lookahead
    }

    /// Whether inputs come with the signal's derivative.
    pub fn needs_derivative(&self) -> bool {
        self.derivative
    }

    /// The latest error.
    pub fn error(&self) -> f32 {
        self.error
    }

    /// Clears the history; the next input is at a symbol.
    pub fn reset(&mut self) {
        self.error = 0.0;
        self.prev_error = 0.0;
        self.input = [Complex32::default(); DEPTH];
        self.decision = [Complex32::default(); DEPTH];
        self.slope = [Complex32::default(); DEPTH];
        self.clock = self.inputs_per_symbol - 1;
    }

    fn push(&mut self, x: Complex32, dx: Complex32) {
        let d = self.depth;
        self.input.copy_within(0..d - 1, 1);
        self.input[0] = x;
        if let Some(slice) = &self.slicer {
            self.decision.copy_within(0..d - 1, 1);
            self.decision[0] = slice(x);
        }
        if self.derivative {
            self.slope.copy_within(0..d - 1, 1);
            self.slope[0] = dx;
        }
    }

    /// One input `x` (with derivative `dx` where the detector needs it); at a symbol, the
    /// error is computed (unless it needs the look-ahead input).
    pub fn input(&mut self, x: Complex32, dx: Complex32) {
        self.push(x, dx);
        self.clock = (self.clock + 1) % self.inputs_per_symbol;
        if self.clock == 0 && !self.lookahead {
            self.prev_error = self.error;
            self.error = self.compute();
        }
    }

    /// The input after a symbol, for a look-ahead detector: computes the symbol's error
    /// without keeping the input.
    pub fn input_lookahead(&mut self, x: Complex32, dx: Complex32) {
        if self.clock != 0 || !self.lookahead {
            return;
        }
        let d = self.depth;
        self.input.copy_within(0..d, 1);
        self.input[0] = x;
        if let Some(slice) = &self.slicer {
            self.decision.copy_within(0..d, 1);
            self.decision[0] = slice(x);
        }
        if self.derivative {
            self.slope.copy_within(0..d, 1);
            self.slope[0] = dx;
        }
        self.prev_error = self.error;
        self.error = self.compute();
        self.input.copy_within(1..=d, 0);
        self.decision.copy_within(1..=d, 0);
        self.slope.copy_within(1..=d, 0);
    }

    /// Undoes the last [`input`](Self::input) (keeping the error where `keep_error`); the
    /// oldest input is repeated, as GNU Radio does.
    pub fn revert(&mut self, keep_error: bool) {
        if self.clock == 0 && !keep_error {
            self.error = self.prev_error;
        }
        self.clock = if self.clock == 0 {
            self.inputs_per_symbol - 1
        } else {
            self.clock - 1
        };
        // Shifting leaves the oldest input in place: it is now there twice.
        let d = self.depth;
        for a in [&mut self.input, &mut self.decision, &mut self.slope] {
            a.copy_within(1..d, 0);
        }
    }

    fn compute(&self) -> f32 {
        let (x, a, dx) = (&self.input, &self.decision, &self.slope);
        let dot = |p: Complex32, q: Complex32| p.re * q.re + p.im * q.im;
        // The complex formulas read both parts; real samples have `im = 0`, so where the
        // `_ff` formula is the complex one's real part, the same expression serves.
        match (self.kind, self.real) {
            (TedKind::MuellerAndMuller, _) => dot(a[1], x[0]) - dot(a[0], x[1]),
            (TedKind::ModMuellerAndMuller, false) => {
                let u = (x[0] - x[2]) * a[1].conj() - (a[0] - a[2]) * x[1].conj();
                branchless_clip(u.re, 1.0)
            }
            (TedKind::ModMuellerAndMuller, true) => {
                let u = (x[0].re - x[2].re) * a[1].re - (a[0].re - a[2].re) * x[1].re;
                branchless_clip(u / 2.0, 1.0)
            }
            (TedKind::ZeroCrossing, _) => dot(a[2] - a[0], x[1]),
            (TedKind::Gardner, _) => dot(x[2] - x[0], x[1]),
            (TedKind::EarlyLate, _) => dot(x[0] - x[2], x[1]),
            (TedKind::DandreaAndMengaliGenMsk | TedKind::MengaliAndDandreaGmsk, false) => {
                let u = x[0] * x[0] * (x[2] * x[2]).conj() - x[1] * x[1] * (x[3] * x[3]).conj();
                let u = if self.kind == TedKind::MengaliAndDandreaGmsk {
                    -u
                } else {
                    u
                };
                branchless_clip(u.re, 3.0)
            }
            (TedKind::DandreaAndMengaliGenMsk | TedKind::MengaliAndDandreaGmsk, true) => {
                let u =
                    x[0].re * x[0].re * x[2].re * x[2].re - x[1].re * x[1].re * x[3].re * x[3].re;
                let u = if self.kind == TedKind::MengaliAndDandreaGmsk {
                    -u
                } else {
                    u
                };
                branchless_clip(u, 3.0)
            }
            (TedKind::SignalTimesSlopeMl, false) => dot(x[0], dx[0]) / 2.0,
            (TedKind::SignalTimesSlopeMl, true) => x[0].re * dx[0].re,
            (TedKind::SignumTimesSlopeMl, real) => {
                let s = |v: f32, d: f32| if v < 0.0 { -d } else { d };
                if real {
                    s(x[0].re, dx[0].re)
                } else {
                    (s(x[0].re, dx[0].re) + s(x[0].im, dx[0].im)) / 2.0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(re: f32) -> Complex32 {
        Complex32::new(re, 0.0)
    }

    #[test]
    fn gardner_computes_at_each_second_input() {
        let mut t = TimingErrorDetector::new(TedKind::Gardner, true, None).unwrap();
        t.input(c(1.0), c(0.0));
        // A symbol: error (x[2] - x[0])·x[1] with zeros before.
        assert_eq!(t.error(), 0.0);
        t.input(c(0.5), c(0.0));
        assert_eq!(t.error(), 0.0);
        t.input(c(-1.0), c(0.0));
        assert_eq!(t.error(), (1.0 - -1.0) * 0.5);
        t.revert(false);
        assert_eq!(t.error(), 0.0);
    }

    #[test]
    fn decision_directed_detectors_need_a_slicer() {
        let e = TimingErrorDetector::new(TedKind::ZeroCrossing, false, None).unwrap_err();
        assert_eq!(e.name, "constellation");
        assert_eq!(
            TedKind::from_number(9),
            Some(TedKind::MengaliAndDandreaGmsk)
        );
        assert_eq!(TedKind::from_number(3), None);
    }
}
