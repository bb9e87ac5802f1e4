//! [`WfmTx`]: GNU Radio's broadcast FM transmitter hier block, `wfm_tx`.

use crate::rate_work::rate_work;
use radioflow_dsp::{FmTransmitter, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Modulates audio onto a broadcast FM carrier as GNU Radio's `analog.wfm_tx(audio_rate,
/// quad_rate, tau, max_dev, fh)`: interpolation by `quad_rate / audio_rate` through an
/// equiripple low-pass (`optfir.low_pass(factor, quad_rate, 16e3, 18e3, 0.1, 40)`, none where
/// the rates are equal), pre-emphasis (`tau`, flat again from `fh` Hz; `fh` ≤ 0 means
/// `0.925·quad_rate/2`), and a frequency modulator swinging `max_dev` Hz at ±1 (kernel
/// [`radioflow_dsp::FmTransmitter::wfm_tx`]). Tags move as through the interpolating filter.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource, WfmTx};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32; 100]));
/// let tx = fg.add(WfmTx::new(48_000, 240_000, 75e-6, 75e3, -1.0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, tx)?;
/// fg.connect(tx, sink)?;
/// fg.run()?;
/// // Silence: a steady carrier, five samples per audio sample.
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert_eq!(y.len(), 500);
/// assert!(y.iter().all(|z| (z.re - 1.0).abs() < 1e-6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "wfm_tx",
    summary = "Audio to broadcast FM: interpolation, pre-emphasis, frequency modulation (GNU Radio's wfm_tx).",
    make = Self::new(audio_rate, quad_rate, tau, max_dev, fh).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(audio_rate: u64, min = 1, example = 48000, doc = "the input's rate, Hz")]
#[param(quad_rate: u64, min = 1, example = 240000, doc = "the output's rate, Hz (a multiple of audio_rate)")]
#[param(tau: f64 = 75e-6, above = 0.0, doc = "the pre-emphasis time constant, s")]
#[param(max_dev: f64 = 75e3, doc = "the deviation at ±1, Hz")]
#[param(fh: f64 = -1.0, doc = "where the pre-emphasis flattens out, Hz (≤ 0 or ≥ quad_rate/2: 0.925·quad_rate/2)")]
#[derive(Debug)]
pub struct WfmTx {
    /// The audio, at `audio_rate`.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// The FM signal, at `quad_rate`.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    kernel: FmTransmitter,
}

#[block]
impl WfmTx {
    /// A transmitter from `audio_rate` to `quad_rate`.
    ///
    /// # Errors
    /// A rate not positive, `quad_rate` not a multiple of `audio_rate`, `tau`, `max_dev` or
    /// `fh` out of range, or a low-pass GNU Radio's design cannot make at `quad_rate`; the
    /// error names it.
    pub fn new(
        audio_rate: u64,
        quad_rate: u64,
        tau: f64,
        max_dev: f64,
        fh: f64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: FmTransmitter::wfm_tx(audio_rate, quad_rate, tau, max_dev, fh)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.kernel.interpolation() as u64;
        let kernel = &mut self.kernel;
        rate_work(&mut self.input, &mut self.output, i, 1, |x, y| {
            kernel.process(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}
