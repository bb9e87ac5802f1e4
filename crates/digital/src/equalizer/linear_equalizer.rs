//! [`LinearEqualizer`]: GNU Radio's adaptive linear equalizer (`digital.linear_equalizer`).

use super::adaptive_algorithm::AdaptiveAlgorithm;
use super::kernel::{equalizer_work, EqualizerKernel};
use super::training::Training;
use radioflow_dsp::ParamError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::marker::PhantomData;

/// An adaptive FIR equalizer keeping one output per `sps` input samples, as GNU Radio's
/// `linear_equalizer`: symbol `n` is `Σ_k taps[k] · x[n·sps - (num_taps - 1) + k]` (the
/// taps as the `taps` output gives them, the last on the newest sample), after which the
/// taps adapt by the algorithm (LMS, NLMS or CMA, see [`AdaptiveAlgorithm`]) to the error
/// against the training sequence or, decision-directed, against the constellation point
/// the symbol is decided as.
///
/// Training starts on the symbol whose samples hold a tag of key `training_start_tag`, one
/// training symbol per output; after the sequence the equalizer adapts to its decisions
/// (`adapt_after_training`) or stops adapting. Without a start tag key or a sequence it is
/// decision-directed from the start (GNU Radio's rule: with an empty sequence and
/// `adapt_after_training` false it never adapts). The optional `taps` output gives each
/// symbol's taps (vectors of `num_taps`, before they adapt to it), `state` the state the
/// symbol was made in (0 idle, 1 training, 2 decision-directed). Tags move to the symbol of
/// their sample, rounded to the nearest.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{AdaptiveAlgorithm, Constellation, LinearEqualizer};
/// use radioflow_runtime::{Complex32, Flowgraph, Pmt, Tag};
///
/// // GNU Radio's QPSK points at 1 sample per symbol through a channel 1 + 0.4 z^-1: LMS
/// // learns its inverse.
/// let points = Constellation::qpsk().points().to_vec();
/// let mut seed = 1u32;
/// let symbols: Vec<Complex32> = (0..4000)
///     .map(|_| {
///         seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
///         points[(seed >> 16) as usize % 4]
///     })
///     .collect();
/// let x: Vec<Complex32> = (0..symbols.len())
///     .map(|n| symbols[n] + if n > 0 { symbols[n - 1] * 0.4 } else { Complex32::default() })
///     .collect();
/// let alg: AdaptiveAlgorithm = "lms step=0.005 | qpsk".parse()?;
/// let mut fg = Flowgraph::new();
/// // Trained on the first 200 symbols from the tag at sample 0, then decision-directed.
/// let src = fg.add(VectorSource::new(x).tags(vec![Tag::new(0, "corr_est", Pmt::Null)]));
/// let eq = fg.add(LinearEqualizer::<Complex32>::new(8, 1, alg, true, &symbols[..200], "corr_est")?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, eq)?;
/// fg.connect(eq, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// // The inverse of 1 + 0.4 z^-1 is causal: no delay.
/// assert!((3000..4000).all(|n| (y[n] - symbols[n]).norm() < 0.3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "linear_equalizer",
    summary = "Adaptive linear equalizer, LMS/NLMS/CMA, trained on a tagged sequence (GNU Radio's linear_equalizer).",
    dtypes = [Complex32],
    make = Self::new(num_taps, sps, alg, adapt_after_training, &complex(&training_sequence), &training_start_tag)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(num_taps: usize, min = 1, example = 15, doc = "the filter's taps")]
#[param(sps: usize, min = 1, example = 2, doc = "input samples per symbol (one output per sps inputs)")]
#[param(alg: AdaptiveAlgorithm, example = "lms step=0.0001 | qpsk", doc = "the adaptive algorithm: `lms step=S | CONS`, `nlms step=S | CONS` or `cma step=S modulus=M | CONS` (see radioflow_digital::AdaptiveAlgorithm)")]
#[param(adapt_after_training: bool = true, doc = "adapt to the decisions once the training sequence is done (else stop adapting)")]
#[param(training_sequence: Vec<T> = [], doc = "the training symbols, from the start tag on")]
#[param(training_start_tag: String = "corr_est", doc = "the key of the tag training starts at (empty: no training)")]
#[derive(Debug)]
pub struct LinearEqualizer<T: Item + Into<Complex32>> {
    /// The samples, `sps` per symbol.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The equalized symbols.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// Each symbol's taps, vectors of num_taps (optional).
    #[output(name = "taps")]
    taps: StreamOutput<Complex32>,
    /// The state each symbol was made in: 0 idle, 1 training, 2 decision-directed (optional).
    #[output(name = "state")]
    state: StreamOutput<i16>,
    start_key: String,
    kernel: EqualizerKernel,
    _training_type: PhantomData<T>,
}

/// The training symbols as complex numbers (the registry's are of the item type).
pub(crate) fn complex<T: Copy + Into<Complex32>>(items: &[T]) -> Vec<Complex32> {
    items.iter().map(|&t| t.into()).collect()
}

#[block]
impl<T: Item + Into<Complex32>> LinearEqualizer<T> {
    /// GNU Radio's `linear_equalizer(num_taps, sps, alg, adapt_after_training,
    /// training_sequence, training_start_tag)`.
    ///
    /// # Errors
    /// If `num_taps` or `sps` is 0, naming the parameter.
    pub fn new(
        num_taps: usize,
        sps: usize,
        alg: AdaptiveAlgorithm,
        adapt_after_training: bool,
        training_sequence: &[Complex32],
        training_start_tag: &str,
    ) -> Result<Self, ParamError> {
        if num_taps == 0 {
            return Err(ParamError::new("num_taps", "needs at least one tap"));
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
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            taps: StreamOutput::optional().with_vlen(num_taps),
            state: StreamOutput::optional(),
            start_key: training_start_tag.to_owned(),
            kernel: EqualizerKernel::new(training, sps, num_taps, 0, 0),
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
