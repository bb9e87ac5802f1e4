//! [`FmStereoDecoder`]: an FM stereo multiplex to left and right audio.

use radioflow_dsp::{ParamError, StereoDecoder};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Decodes the demodulated multiplex of an FM broadcast station into left and right audio
/// (kernel [`radioflow_dsp::StereoDecoder`]: 19 kHz pilot tracked by a PLL, 38 kHz `L-R`
/// demodulated with the regenerated subcarrier, matrixed with `L+R`; both filtered to
/// 15 kHz and decimated). Without a pilot both outputs carry the mono `L+R`: every 20 ms the
/// pilot is measured against the noise around it and stereo comes on from a pilot
/// carrier-to-noise density of 58 dB-Hz (about 18 dB of CNR for a 9 % pilot), off under 55
/// (the statistic and why: [`radioflow_dsp::StereoDecoder`]). De-emphasis is not applied: follow each output with [`IirFilter::fm_deemphasis`](radioflow_blocks::IirFilter::fm_deemphasis).
/// Tags are not propagated.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fm::FmStereoDecoder;
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.25f32; 2400]));
/// let dec = fg.add(FmStereoDecoder::new(240e3, 5)?);
/// let (l, r) = (fg.add(VectorSink::<f32>::new()), fg.add(VectorSink::<f32>::new()));
/// fg.connect(src, dec)?;
/// fg.connect((dec, "left"), l)?;
/// fg.connect((dec, "right"), r)?;
/// fg.run()?;
/// let left = fg.block::<VectorSink<f32>>(l).unwrap().data();
/// assert_eq!(left.len(), 480);
/// assert!((left[479] - 0.25).abs() < 1e-3); // no pilot: mono, DC passes
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fm_stereo_decoder",
    summary = "An FM stereo multiplex to left and right audio (pilot PLL, 38 kHz L-R, matrix; mono without a pilot).",
    dtypes = [Float32],
    make = Self::new(sample_rate, decimation).map_err(|e| Refused::param(e.name, e.reason))
)]
// From the 53 kHz of L-R plus filter room up to 10 MHz, 40 times the usual 240 kHz: the
// filters' length grows with the rate (about 8000 taps there).
#[param(
    sample_rate: f64 = 240e3,
    at_least = 120e3,
    at_most = 10e6,
    doc = "the multiplex's rate, Hz"
)]
#[param(
    decimation: usize = 5,
    min = 1,
    doc = "multiplex samples per audio sample (audio at least 32 kHz)"
)]
#[derive(Debug)]
pub struct FmStereoDecoder {
    /// The multiplex (1 = full deviation) at `sample_rate`.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// The left audio at `sample_rate / decimation`, scaled as the mono `L+R`.
    #[output(name = "left")]
    left: StreamOutput<f32>,
    /// The right audio, as `left`.
    #[output(name = "right")]
    right: StreamOutput<f32>,
    kernel: StereoDecoder,
}

#[block]
impl FmStereoDecoder {
    /// A decoder of a multiplex at `sample_rate`, giving audio at `sample_rate / decimation`.
    ///
    /// # Errors
    /// A rate too low (see the parameters); the error names the parameter.
    pub fn new(sample_rate: f64, decimation: usize) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            left: StreamOutput::new(),
            right: StreamOutput::new(),
            kernel: StereoDecoder::new(sample_rate, decimation)?,
        })
    }

    /// Whether the last samples were decoded in stereo (the last 20 ms window found a pilot
    /// standing out of the noise).
    pub fn is_stereo(&self) -> bool {
        self.kernel.is_stereo()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (c, p) = self
            .kernel
            .process(self.input.slice(), self.left.slice(), self.right.slice());
        self.input.consume(c);
        self.left.produce(p);
        self.right.produce(p);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;
    use std::f64::consts::PI;

    #[test]
    fn equals_the_kernel_with_little_output_space() {
        let fs = 240e3;
        let mpx: Vec<f32> = (0..24_000)
            .map(|n| {
                let t = n as f64 / fs;
                let th = 2.0 * PI * 19e3 * t;
                let l = 0.4 * (2.0 * PI * 1e3 * t).sin();
                (0.45 * l + 0.45 * l * (2.0 * th).sin() + 0.09 * th.sin()) as f32
            })
            .collect();
        let mut kernel = StereoDecoder::new(fs, 5).unwrap();
        let (mut wl, mut wr) = (vec![0.0; 4800], vec![0.0; 4800]);
        assert_eq!(kernel.process(&mpx, &mut wl, &mut wr), (24_000, 4800));

        let mut h = Harness::new(FmStereoDecoder::new(fs, 5).unwrap());
        h.set_space("left", 7);
        h.set_space("right", 7);
        let (mut l, mut r) = (Vec::new(), Vec::new());
        for chunk in mpx.chunks(1000) {
            h.push("in", chunk);
            loop {
                h.work().unwrap();
                let (a, b) = (h.take_output::<f32>("left"), h.take_output::<f32>("right"));
                assert_eq!(a.len(), b.len());
                if a.is_empty() {
                    break;
                }
                l.extend(a);
                r.extend(b);
            }
        }
        assert_eq!(l.len(), 4800);
        assert!(h.block().is_stereo());
        // Steps split elsewhere: equal once the lock decision is the same.
        for k in 1000..4800 {
            assert!(
                (l[k] - wl[k]).abs() < 1e-4 && (r[k] - wr[k]).abs() < 1e-4,
                "{k}"
            );
        }
    }
}
