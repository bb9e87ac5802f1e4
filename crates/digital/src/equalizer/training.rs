//! [`Training`]: the adaptive equalizers' state (idle, training, decision-directed) and what
//! each output symbol adapts to, as GNU Radio's `linear_equalizer` and
//! `decision_feedback_equalizer` step it.

use super::adaptive_algorithm::AdaptiveAlgorithm;
use num_complex::Complex32;

/// GNU Radio's `equalizer_state_t`, the number its `state` output carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i16)]
pub(crate) enum State {
    /// Not adapting.
    Idle = 0,
    /// Adapting to the training sequence.
    Training = 1,
    /// Adapting to its own decisions.
    DecisionDirected = 2,
}

/// The training state machine and the algorithm, shared by both equalizers.
#[derive(Debug)]
pub(crate) struct Training {
    pub(crate) alg: AdaptiveAlgorithm,
    sequence: Vec<Complex32>,
    adapt_after_training: bool,
    state: State,
    /// The next training symbol; `None` once the sequence is done (GNU Radio's -1).
    next: Option<usize>,
}

impl Training {
    /// GNU Radio starts decision-directed when there is no start tag or no sequence, else
    /// idle until the tag.
    pub(crate) fn new(
        alg: AdaptiveAlgorithm,
        sequence: Vec<Complex32>,
        adapt_after_training: bool,
        start_tag: &str,
    ) -> Self {
        let state = if start_tag.is_empty() || sequence.is_empty() {
            State::DecisionDirected
        } else {
            State::Idle
        };
        Self {
            alg,
            sequence,
            adapt_after_training,
            state,
            next: Some(0),
        }
    }

    /// One output symbol `y`: returns the state it was made in (the `state` output) and,
    /// unless idle, the error to adapt by and the decision (the training symbol, the
    /// constellation point, or zero: the decision feedback). `start` says the training start
    /// tag falls on one of the symbol's input samples.
    ///
    /// GNU Radio's order: the tag starts training at the first symbol; past the sequence's
    /// end (and at once where the sequence is empty) the state becomes decision-directed,
    /// or idle without `adapt_after_training`.
    #[inline]
    pub(crate) fn step(
        &mut self,
        y: Complex32,
        start: bool,
    ) -> (State, Option<(Complex32, Complex32)>) {
        let made_in = self.state;
        if start {
            self.state = State::Training;
            self.next = Some(0);
        }
        if self.next.is_none_or(|k| k >= self.sequence.len()) {
            self.state = if self.adapt_after_training {
                State::DecisionDirected
            } else {
                State::Idle
            };
            self.next = None;
        }
        let adapt = match (self.state, self.next) {
            (State::Training, Some(k)) => {
                let d = self.sequence[k];
                self.next = Some(k + 1);
                Some((self.alg.error_tr(y, d), d))
            }
            (State::DecisionDirected, _) => Some(self.alg.error_dd(y)),
            _ => None,
        };
        (made_in, adapt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qpsk_lms() -> AdaptiveAlgorithm {
        "lms step=0.1 | qpsk".parse().unwrap()
    }

    #[test]
    fn trains_from_the_tag_then_decides_or_idles() {
        let seq = vec![Complex32::new(1.0, 0.0), Complex32::new(-1.0, 0.0)];
        for adapt_after in [true, false] {
            let mut t = Training::new(qpsk_lms(), seq.clone(), adapt_after, "corr_est");
            let y = Complex32::new(0.5, 0.5);
            assert_eq!(t.step(y, false), (State::Idle, None));
            let (s, a) = t.step(y, true);
            assert_eq!((s, a.unwrap().1), (State::Idle, seq[0]));
            let (s, a) = t.step(y, false);
            assert_eq!((s, a.unwrap().1), (State::Training, seq[1]));
            let (s, a) = t.step(y, false);
            assert_eq!(s, State::Training);
            assert_eq!(a.is_some(), adapt_after);
            let want = if adapt_after {
                State::DecisionDirected
            } else {
                State::Idle
            };
            assert_eq!(t.step(y, false).0, want);
        }
    }

    #[test]
    fn no_sequence_or_tag_starts_decision_directed_or_never_adapts() {
        let y = Complex32::new(0.5, 0.5);
        let mut t = Training::new(qpsk_lms(), Vec::new(), true, "corr_est");
        assert_eq!(t.step(y, true).0, State::DecisionDirected);
        assert!(t.step(y, false).1.is_some());
        // GNU Radio: an empty sequence without adapt_after_training is idle for ever.
        let mut t = Training::new(qpsk_lms(), Vec::new(), false, "corr_est");
        assert_eq!(t.step(y, false), (State::DecisionDirected, None));
        assert_eq!(t.step(y, true), (State::Idle, None));
    }
}
