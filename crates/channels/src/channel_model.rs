//! [`ChannelModel`]: GNU Radio's channel model (timing offset, multipath, frequency offset,
//! noise) as one block.

use crate::pool_noise::PoolNoise;
use radioflow_dsp::{ComplexFir, FirSample, MmseResampler, ParamError, Rotator};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::FromMessage;

/// Samples the channel model takes: `Complex32` (GNU Radio's channel model is complex only).
pub trait ChannelSample: Item + FirSample {
    /// The samples as complex numbers.
    fn complex(s: &[Self]) -> &[Complex32];
    /// The samples as complex numbers, mutably.
    fn complex_mut(s: &mut [Self]) -> &mut [Complex32];
}

impl ChannelSample for Complex32 {
    fn complex(s: &[Self]) -> &[Complex32] {
        s
    }
    fn complex_mut(s: &mut [Self]) -> &mut [Complex32] {
        s
    }
}

/// Outputs made per work call at most (the size of the block's one scratch buffer).
const CHUNK: usize = 4096;

/// A transmission channel as GNU Radio's `channels.channel_model` models it, the stages of
/// its hierarchical block in one: the input resampled by `epsilon` (a timing offset: the
/// 8-tap MMSE resampler, [`MmseResampler`], `epsilon` inputs per output, so the stream starts
/// 3 samples into the input), filtered by the multipath `taps` ([`ComplexFir`]; fewer than 2
/// taps padded with zeros, as GNU Radio does), shifted by `frequency_offset` cycles per sample
/// (a complex exponential starting at phase 0) and added to complex Gaussian noise of power
/// `noise_voltage²` picked from a pool as `fastnoise_source_c` picks it (GNU Radio's numbers
/// for the same `noise_seed`).
///
/// For the same input and seed the output is GNU Radio 3.10's within float rounding: the
/// interpolation filters are designed as GNU Radio's were (agreeing within 5e-7), and the
/// oscillator is exact where GNU Radio's is a table lookup (within 1e-5).
///
/// Tags move to output `i / epsilon` (rounded) from input offset `i`, as GNU Radio's
/// scheduler moves them by the resampler's relative rate (not where the sample went: 3
/// samples on, GNU Radio's too); with `block_tags` the model drops them (GNU Radio's
/// `TPP_DONT` on the resampler). At the end of the stream it makes every output its input
/// determines: up to a few more than GNU Radio's, whose forecast asks for more input than
/// the interpolator reads. `noise_voltage`, `frequency_offset`, `epsilon` and `taps`
/// can be set while the graph runs (GNU Radio's `set_noise_voltage`,
/// `set_frequency_offset`, `set_timing_offset`, `set_taps`): a new noise voltage draws a new
/// pool, the oscillator runs on from its phase, new taps start from the samples the old
/// ones kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, VectorSink, VectorSource};
/// use radioflow_channels::ChannelModel;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 100]));
/// // No noise, no timing offset, a quarter turn per sample.
/// let one = [Complex32::new(1.0, 0.0)];
/// let channel = fg.add(ChannelModel::new(0.0, 0.25, 1.0, &one, 0, false)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, channel)?;
/// fg.connect(channel, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert_eq!(y.len(), 93); // the resampler's window: 8 inputs for the first output
/// assert!((y[1] - Complex32::new(0.0, 1.0)).norm() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "channel_model",
    summary = "A channel: timing offset, multipath taps, frequency offset and Gaussian noise (GNU Radio's channels.channel_model, the same numbers for the same seed).",
    dtypes = [Complex32],
    make = Self::new(noise_voltage, frequency_offset, epsilon, &taps, noise_seed, block_tags)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(noise_voltage: f32 = 0.0, settable, doc = "the noise's standard deviation (complex: power `noise_voltage²`)")]
#[param(frequency_offset: f64 = 0.0, settable, doc = "in cycles per sample (GNU Radio's sample rate here is 1)")]
#[param(epsilon: f64 = 1.0, above = 0.0, settable, doc = "input samples per output sample (1: no timing offset)")]
#[param(taps: Vec<T>, settable, doc = "the multipath filter (fewer than 2 taps padded with zeros)")]
#[param(noise_seed: i64 = 0, doc = "of the noise's generators (GNU Radio's numbers for the same seed; a negative one is taken modulo 2^64)")]
#[param(block_tags: bool = false, doc = "drop the input's tags instead of moving them")]
#[derive(Debug)]
pub struct ChannelModel<T: ChannelSample> {
    /// The transmitted signal.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The received signal.
    #[output(name = "out")]
    output: StreamOutput<T>,
    resampler: MmseResampler<Complex32>,
    multipath: ComplexFir,
    mixer: Rotator,
    noise: PoolNoise<Complex32>,
    /// Resampled, then shifted samples of one call.
    scratch: Vec<Complex32>,
    block_tags: bool,
}

#[block]
impl<T: ChannelSample> ChannelModel<T> {
    /// A channel: resampling by `epsilon` inputs per output, filtering by `taps`, shifting
    /// by `frequency_offset` cycles per sample and adding noise of standard deviation
    /// `noise_voltage` drawn from `noise_seed`; `block_tags` drops the tags.
    ///
    /// # Errors
    /// If `epsilon` is not finite and above 0 or `frequency_offset` is not finite (naming
    /// the parameter).
    pub fn new(
        noise_voltage: f32,
        frequency_offset: f64,
        epsilon: f64,
        taps: &[T],
        noise_seed: i64,
        block_tags: bool,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            resampler: MmseResampler::new(0.0, epsilon as f32).map_err(|e| named("epsilon", e))?,
            multipath: ComplexFir::new(&padded(T::complex(taps))).map_err(|e| named("taps", e))?,
            mixer: Rotator::new(frequency_offset, 1.0).map_err(|e| named("frequency_offset", e))?,
            // GNU Radio's seed is a C long converted to 64 unsigned bits.
            noise: PoolNoise::new(noise_voltage, noise_seed as u64),
            scratch: vec![Complex32::default(); CHUNK],
            block_tags,
        })
    }

    /// Changes the noise's standard deviation, drawing a new pool.
    pub fn set_noise_voltage(&mut self, noise_voltage: f32) {
        self.noise.set_amplitude(noise_voltage);
    }

    /// Changes the frequency offset; the oscillator's phase runs on.
    ///
    /// # Errors
    /// If `frequency_offset` is not finite; the offset stays as it was.
    pub fn set_frequency_offset(&mut self, frequency_offset: f64) -> Result<(), ParamError> {
        self.mixer
            .set_shift(frequency_offset)
            .map_err(|e| named("frequency_offset", e))
    }

    /// Changes the timing offset (GNU Radio's `set_timing_offset`).
    ///
    /// # Errors
    /// If `epsilon` is not finite and above 0; it stays as it was.
    pub fn set_epsilon(&mut self, epsilon: f64) -> Result<(), ParamError> {
        self.resampler
            .set_ratio(epsilon as f32)
            .map_err(|e| named("epsilon", e))
    }

    /// Changes the multipath taps (a list of numbers).
    ///
    /// # Errors
    /// If `taps` is not a list of numbers; the taps stay as they were.
    pub fn set_taps(&mut self, taps: Pmt) -> Result<(), BlockError> {
        let taps = taps_of(&taps).ok_or_else(|| {
            BlockError::msg(format!(
                "channel_model: taps must be a list of numbers, not {taps}"
            ))
        })?;
        self.multipath
            .set_taps(&padded(&taps))
            .map_err(|e| BlockError::msg(format!("channel_model: {e}")))
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = T::complex_mut(self.output.slice());
        let n = out.len().min(CHUNK);
        let (consumed, produced) = self
            .resampler
            .process(T::complex(self.input.slice()), &mut self.scratch[..n]);
        let (out, shifted) = (&mut out[..produced], &mut self.scratch[..produced]);
        self.multipath.process(shifted, out);
        self.mixer.process(out, shifted);
        for (o, s) in out.iter_mut().zip(shifted.iter()) {
            *o = self.noise.next() + s;
        }
        if !self.block_tags && !self.input.tags().is_empty() {
            let (from, to) = (self.input.offset(), self.output.offset());
            // GNU Radio's relative rate: the reciprocal of the ratio as its resampler holds it.
            let rate = 1.0 / f64::from(self.resampler.ratio());
            for t in self.input.tags() {
                if t.offset >= from + consumed as u64 {
                    break;
                }
                let at = (t.offset as f64 * rate).round() as u64;
                self.output.add_tag_at(at.max(to), t);
            }
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(WorkStatus::Continue)
    }
}

/// `e` as an error of the block's parameter `name`.
fn named(name: &'static str, e: ParamError) -> ParamError {
    ParamError {
        name,
        reason: e.reason,
    }
}

/// `taps` with zeros after them up to 2 (GNU Radio's channel model pads them so).
fn padded(taps: &[Complex32]) -> Vec<Complex32> {
    let mut taps = taps.to_vec();
    taps.resize(taps.len().max(2), Complex32::default());
    taps
}

/// Taps from a message: a list (or vector) of numbers, real or complex.
fn taps_of(msg: &Pmt) -> Option<Vec<Complex32>> {
    match msg {
        Pmt::Vector(xs) | Pmt::Tuple(xs) => xs.iter().map(Complex32::from_message).collect(),
        Pmt::C32Vector(xs) => Some(xs.to_vec()),
        Pmt::F32Vector(xs) => Some(xs.iter().map(|&x| Complex32::new(x, 0.0)).collect()),
        Pmt::F64Vector(xs) => Some(xs.iter().map(|&x| Complex32::new(x as f32, 0.0)).collect()),
        Pmt::Pair(_) => {
            let mut taps = Vec::new();
            let mut cell = msg;
            while let Some((car, cdr)) = cell.as_pair() {
                taps.push(Complex32::from_message(car)?);
                cell = cdr;
            }
            matches!(cell, Pmt::Null).then_some(taps)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    const ONE: Complex32 = Complex32::new(1.0, 0.0);

    fn channel(
        noise: f32,
        offset: f64,
        epsilon: f64,
        taps: &[Complex32],
    ) -> Harness<ChannelModel<Complex32>> {
        Harness::new(ChannelModel::new(noise, offset, epsilon, taps, 7, false).unwrap())
    }

    /// Pushes `n` ones and takes what one work call makes of them.
    fn run(h: &mut Harness<ChannelModel<Complex32>>, n: usize) -> Vec<Complex32> {
        h.push("in", &vec![ONE; n]);
        h.work().unwrap();
        h.take_output::<Complex32>("out")
    }

    #[test]
    fn settings_take_effect_from_the_next_sample() {
        let mut h = channel(0.0, 0.0, 1.0, &[ONE]);
        assert_eq!(run(&mut h, 107), vec![ONE; 100]);

        // A quarter turn per sample, from phase 0 where the oscillator stood still.
        h.post("frequency_offset", 0.25).unwrap();
        let y = run(&mut h, 4);
        let want = [
            ONE,
            Complex32::new(0.0, 1.0),
            -ONE,
            Complex32::new(0.0, -1.0),
        ];
        assert!(
            y.iter().zip(want).all(|(a, b)| (a - b).norm() < 1e-6),
            "{y:?}"
        );
        h.post("frequency_offset", 0.0).unwrap();

        // Taps 2: twice the input, once the old history is passed.
        h.post("taps", Pmt::Vector(vec![Pmt::Double(2.0)].into()))
            .unwrap();
        assert!(run(&mut h, 10)
            .iter()
            .skip(1)
            .all(|y| (y - 2.0 * ONE).norm() < 1e-6));
        assert!(h.post("taps", Pmt::symbol("none")).is_err());

        // Two inputs per output.
        h.post("epsilon", 2.0).unwrap();
        assert_eq!(run(&mut h, 200).len(), 100);

        // Noise of power 0.25 around 2.
        h.post("noise_voltage", 0.5f32).unwrap();
        let y = run(&mut h, 4000);
        let power = y.iter().map(|y| (y - 2.0 * ONE).norm_sqr()).sum::<f32>() / y.len() as f32;
        assert!((power - 0.25).abs() < 0.03, "{power}");
    }

    #[test]
    fn tags_move_by_the_rate_or_are_dropped() {
        // 501 / 2 = 250.5 rounds up, as in GNU Radio.
        for (block_tags, want) in [(false, vec![0, 50, 251]), (true, vec![])] {
            let mut h =
                Harness::new(ChannelModel::new(0.0, 0.0, 2.0, &[ONE], 0, block_tags).unwrap());
            for at in [0, 100, 501] {
                h.push_tag("in", at, "t", 1i64);
            }
            h.push("in", &[ONE; 600]);
            h.work().unwrap();
            let (_, tags) = h.take_output_with_tags::<Complex32>("out");
            let at: Vec<u64> = tags.iter().map(|t| t.offset).collect();
            assert_eq!(at, want, "block_tags {block_tags}");
        }
    }

    #[test]
    fn bad_parameters_are_refused_by_name() {
        let new = |offset, epsilon| {
            ChannelModel::<Complex32>::new(0.0, offset, epsilon, &[ONE], 0, false)
        };
        assert_eq!(new(0.0, 0.0).unwrap_err().name, "epsilon");
        assert_eq!(new(0.0, f64::INFINITY).unwrap_err().name, "epsilon");
        assert_eq!(new(f64::NAN, 1.0).unwrap_err().name, "frequency_offset");
        // No taps: GNU Radio pads them to two zeros, and so the output is 0.
        let mut h =
            Harness::new(ChannelModel::<Complex32>::new(0.0, 0.0, 1.0, &[], 0, false).unwrap());
        assert!(run(&mut h, 20).iter().all(|y| *y == Complex32::default()));
    }
}
