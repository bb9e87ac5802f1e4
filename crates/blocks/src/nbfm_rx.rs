//! [`NbfmRx`]: GNU Radio's narrow-band FM receiver hier block, `nbfm_rx`.

use crate::rate_work::rate_work;
use radioflow_dsp::{FmReceiver, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Demodulates narrow-band FM to audio as GNU Radio's `analog.nbfm_rx(audio_rate,
/// quad_rate, tau, max_dev)`: a quadrature demodulator giving ±1 at `max_dev` Hz,
/// de-emphasis with `tau` at `quad_rate`, then a Hamming low-pass to 2.7 kHz (0.5 kHz
/// transition) keeping one sample in `quad_rate / audio_rate` (kernel
/// [`radioflow_dsp::FmReceiver::nbfm_rx`]). A `max_dev` message sets the deviation (GNU
/// Radio's `set_max_deviation`). Tags move as through the decimating filter.
///
/// # Example
/// ```
/// use radioflow_blocks::{NbfmRx, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 1000]));
/// let rx = fg.add(NbfmRx::new(8_000, 40_000, 75e-6, 5e3)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, rx)?;
/// fg.connect(rx, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data().len(), 200);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "nbfm_rx",
    summary = "Narrow-band FM to audio: demodulation, de-emphasis, low-pass decimation (GNU Radio's nbfm_rx).",
    make = Self::new(audio_rate, quad_rate, tau, max_dev).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(audio_rate: u64, min = 1, example = 8000, doc = "the output's rate, Hz")]
#[param(quad_rate: u64, min = 1, example = 40000, doc = "the input's rate, Hz (a multiple of audio_rate)")]
#[param(tau: f64 = 75e-6, above = 0.0, doc = "the de-emphasis time constant, s")]
#[param(max_dev: f64 = 5e3, above = 0.0, settable, doc = "the deviation giving ±1, Hz")]
#[derive(Debug)]
pub struct NbfmRx {
    /// The FM signal at `quad_rate`.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The audio, at `audio_rate`.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    kernel: FmReceiver,
}

#[block]
impl NbfmRx {
    /// A receiver from `quad_rate` to `audio_rate`.
    ///
    /// # Errors
    /// A rate not positive, `quad_rate` not a multiple of `audio_rate`, `tau` or `max_dev`
    /// out of range; the error names it.
    pub fn new(
        audio_rate: u64,
        quad_rate: u64,
        tau: f64,
        max_dev: f64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: FmReceiver::nbfm_rx(audio_rate, quad_rate, tau, max_dev)?,
        })
    }

    /// The `max_dev` parameter's setter: a finite positive number sets it; anything else
    /// is ignored (a bad value must not stop a running receiver).
    fn set_max_dev(&mut self, msg: Pmt) {
        if let Some(hz) = msg.as_f64()
            && hz.is_finite()
            && hz > 0.0
        {
            self.kernel.set_max_deviation(hz);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    /// A max_dev message rescales the demodulator from the next call on (as GNU Radio's
    /// set_max_deviation); one that is not a positive number is ignored.
    #[test]
    fn a_max_dev_message_sets_the_deviation() {
        let x: Vec<Complex32> = (0..400)
            .map(|n| Complex32::from_polar(1.0, 0.3 * n as f32))
            .collect();
        let mut h = Harness::new(NbfmRx::new(8_000, 40_000, 75e-6, 5e3).unwrap());
        let mut k = FmReceiver::nbfm_rx(8_000, 40_000, 75e-6, 5e3).unwrap();
        let mut want = vec![0.0; 80];
        for (half, dev) in x.chunks(200).zip([5e3, 2.5e3]) {
            h.post("max_dev", Pmt::Double(dev)).unwrap();
            h.post("max_dev", Pmt::Double(-1.0)).unwrap();
            k.set_max_deviation(dev);
            h.push("in", half);
            h.work().unwrap();
            let (used, made) = k.process(half, &mut want);
            assert_eq!((used, made), (200, 40));
            assert_eq!(h.take_output::<f32>("out"), want[..40]);
        }
    }
}
