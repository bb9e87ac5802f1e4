//! [`WfmRcv`]: GNU Radio's broadcast FM receiver hier block, `wfm_rcv`.

use crate::rate_work::rate_work;
use radioflow_dsp::{FmReceiver, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Demodulates broadcast FM to audio as GNU Radio's `analog.wfm_rcv(quad_rate,
/// audio_decimation)`: a quadrature demodulator giving ±1 at 75 kHz deviation, a Hamming
/// low-pass (`firdes.low_pass(1, quad_rate, audio_rate/2 - audio_rate/32, audio_rate/32)`)
/// keeping one sample in `audio_decimation`, then 75 µs de-emphasis at the audio rate
/// (kernel [`radioflow_dsp::FmReceiver::wfm_rcv`]). Tags move as through the decimating
/// filter.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource, WfmRcv};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// // An unmodulated carrier: silence.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 1000]));
/// let rx = fg.add(WfmRcv::new(250e3, 5)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, rx)?;
/// fg.connect(rx, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert_eq!(y.len(), 200);
/// assert!(y.iter().all(|v| v.abs() < 1e-6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "wfm_rcv",
    summary = "Broadcast FM to audio: demodulation, low-pass decimation, 75 µs de-emphasis (GNU Radio's wfm_rcv).",
    make = Self::new(quad_rate, audio_decimation).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(quad_rate: f64, above = 0.0, example = 250e3, doc = "the input's rate, Hz")]
#[param(audio_decimation: usize, min = 1, example = 5, doc = "inputs per audio sample")]
#[derive(Debug)]
pub struct WfmRcv {
    /// The FM signal at `quad_rate`.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The audio, at `quad_rate / audio_decimation`.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    kernel: FmReceiver,
}

#[block]
impl WfmRcv {
    /// A receiver for FM at `quad_rate` keeping one audio sample in `audio_decimation`.
    ///
    /// # Errors
    /// If `quad_rate` is not positive or `audio_decimation` is 0; the error names it.
    pub fn new(quad_rate: f64, audio_decimation: usize) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: FmReceiver::wfm_rcv(quad_rate, audio_decimation)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let d = self.kernel.decimation() as u64;
        let kernel = &mut self.kernel;
        rate_work(&mut self.input, &mut self.output, 1, d, |x, y| {
            kernel.process(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}
