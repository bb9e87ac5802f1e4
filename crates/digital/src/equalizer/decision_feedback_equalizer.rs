//! [`DecisionFeedbackEqualizer`]: GNU Radio's adaptive decision feedback equalizer
//! (`digital.decision_feedback_equalizer`).

use super::adaptive_algorithm::AdaptiveAlgorithm;
use super::kernel::{equalizer_work, EqualizerKernel};
use super::linear_equalizer::complex;
use super::training::Training;
use radioflow_dsp::ParamError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::marker::PhantomData;

/// An adaptive equalizer with a feedforward filter on the input and a feedback filter on
/// its past decisions, one output per `sps` input samples, as GNU Radio's
/// `decision_feedback_equalizer`: symbol `n` is `Σ_k taps[k] · w[k]` over the window `w` of
/// the last `num_taps_rev` decisions (oldest first) then the `num_taps_fwd` samples ending
/// at the symbol's last sample, `x[n·sps + sps - num_taps_fwd ..= n·sps + sps - 1]`. The
/// decisions are the training symbols while training, the constellation points decided
/// while decision-directed, zero while idle (and zero with CMA, which decides nothing, as
/// in GNU Radio). The taps adapt over the whole window; training, the `taps` (vectors of
/// `num_taps_fwd + num_taps_rev`, the feedback taps first) and `state` outputs and the
/// tags are as [`LinearEqualizer`](crate::LinearEqualizer)'s.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{AdaptiveAlgorithm, DecisionFeedbackEqualizer};
/// use radioflow_runtime::{Complex32, Flowgraph, Pmt, Tag};
///
/// // BPSK at 2 samples per symbol with a strong echo of the previous symbol.
/// let mut seed = 7u32;
/// let symbols: Vec<Complex32> = (0..3000)
///     .map(|_| {
///         seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
///         Complex32::new(if (seed >> 16) & 1 == 0 { -1.0 } else { 1.0 }, 0.0)
///     })
///     .collect();
/// let x: Vec<Complex32> = (0..2 * symbols.len())
///     .map(|i| {
///         let n = i / 2;
///         symbols[n] + if n > 0 { symbols[n - 1] * 0.7 } else { Complex32::default() }
///     })
///     .collect();
/// let alg: AdaptiveAlgorithm = "lms step=0.02 | bpsk".parse()?;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x).tags(vec![Tag::new(0, "corr_est", Pmt::Null)]));
/// let dfe = fg.add(DecisionFeedbackEqualizer::<Complex32>::new(
///     4, 2, 2, alg, true, &symbols[..300], "corr_est")?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, dfe)?;
/// fg.connect(dfe, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert!((2000..3000).all(|n| (y[n] - symbols[n]).norm() < 0.2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "decision_feedback_equalizer",
    summary = "Adaptive decision feedback equalizer, LMS/NLMS/CMA, trained on a tagged sequence (GNU Radio's decision_feedback_equalizer).",
    dtypes = [Complex32],
    make = Self::new(num_taps_fwd, num_taps_rev, sps, alg, adapt_after_training, &complex(&training_sequence), &training_start_tag)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(num_taps_fwd: usize = 5, min = 1, doc = "the feedforward filter's taps (on the input)")]
#[param(num_taps_rev: usize = 3, doc = "the feedback filter's taps (on the past decisions)")]
#[param(sps: usize, min = 1, example = 2, doc = "input samples per symbol (one output per sps inputs)")]
#[param(alg: AdaptiveAlgorithm, example = "lms step=0.0001 | qpsk", doc = "the adaptive algorithm: `lms step=S | CONS`, `nlms step=S | CONS` or `cma step=S modulus=M | CONS` (see radioflow_digital::AdaptiveAlgorithm)")]
#[param(adapt_after_training: bool = true, doc = "adapt to the decisions once the training sequence is done (else stop adapting)")]
#[param(training_sequence: Vec<T> = [], doc = "the training symbols, from the start tag on")]
#[param(training_start_tag: String = "corr_est", doc = "the key of the tag training starts at (empty: no training)")]
#[derive(Debug)]
pub struct DecisionFeedbackEqualizer<T: Item + Into<Complex32>> {
    /// The samples, `sps` per symbol.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The equalized symbols.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// Each symbol's taps, vectors of num_taps_fwd + num_taps_rev, feedback first (optional).
    #[output(name = "taps")]
    taps: StreamOutput<Complex32>,
    /// The state each symbol was made in: 0 idle, 1 training, 2 decision-directed (optional).
    #[output(name = "state")]
    state: StreamOutput<i16>,
    start_key: String,
    kernel: EqualizerKernel,
    _training_type: PhantomData<T>,
}

#[block]
impl<T: Item + Into<Complex32>> DecisionFeedbackEqualizer<T> {
    /// GNU Radio's `decision_feedback_equalizer(num_taps_forward, num_taps_feedback, sps,
    /// alg, adapt_after_training, training_sequence, training_start_tag)`.
    ///
    /// # Errors
    /// If `num_taps_fwd` or `sps` is 0, naming the parameter.
    pub fn new(
        num_taps_fwd: usize,
        num_taps_rev: usize,
        sps: usize,
        alg: AdaptiveAlgorithm,
        adapt_after_training: bool,
        training_sequence: &[Complex32],
        training_start_tag: &str,
    ) -> Result<Self, ParamError> {
        if num_taps_fwd == 0 {
            return Err(ParamError::new("num_taps_fwd", "needs at least one tap"));
        }
        if sps == 0 {
            return Err(ParamError::new(
                "sps",
                "needs at least one sample per symbol",
            ));
        }
        let training = Training::new(
            alg,
            training_sequence.to_vec(),
            adapt_after_training,
            training_start_tag,
        );
        let lag = sps - 1;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            taps: StreamOutput::optional().with_vlen(num_taps_fwd + num_taps_rev),
            state: StreamOutput::optional(),
            start_key: training_start_tag.to_owned(),
            kernel: EqualizerKernel::new(training, sps, num_taps_fwd, num_taps_rev, lag),
            _training_type: PhantomData,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        equalizer_work(
            &mut self.kernel,
            &self.start_key,
            &mut self.input,
            &mut self.output,
            &mut self.taps,
            &mut self.state,
        );
        Ok(WorkStatus::Continue)
    }
}
