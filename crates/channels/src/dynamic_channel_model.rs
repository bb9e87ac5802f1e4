//! [`DynamicChannelModel`]: GNU Radio's dynamic channel model (sample rate offset, carrier
//! frequency offset, selective fading, noise) as one block.

use crate::pool_noise::{PoolNoise, DYNAMIC_POOL};
use radioflow_dsp::{CfoWalk, ParamError, SelectiveFader, SroWalk};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Outputs made per work call at most (the size of the block's scratch buffer).
const CHUNK: usize = 4096;

/// A time-varying channel as GNU Radio's `channels.dynamic_channel_model` chains it, the
/// stages of its hierarchical block in one: a sample rate offset walking at random
/// ([`SroWalk`], steps of `sro_std_dev` Hz within `±sro_max_dev`), a carrier frequency offset
/// walking at random ([`CfoWalk`], `cfo_std_dev` within `±cfo_max_dev`), selective fading
/// ([`SelectiveFader`]: `sinusoids`, `doppler_freq / sample_rate`, `los`, `k`, `delays`,
/// `mags`, `ntaps`) and complex Gaussian noise of power `noise_amp²` (an 8192-value pool),
/// every stage seeded with `seed`: GNU Radio's numbers for the same seed.
///
/// Tags keep their offsets (every stage's relative rate is 1 in GNU Radio; where the outputs
/// run ahead of the inputs, a tag whose offset is out already goes on the next output). Settable while
/// the graph runs, as GNU Radio's setters: `sample_rate` (the walks'; the fading keeps its
/// normalized Doppler), `sro_std_dev` (GNU Radio's `set_sro_dev_std` sets the maximum
/// instead, a slip in its code; radioflow sets the standard deviation), `sro_max_dev`,
/// `cfo_std_dev` (a fresh pool, as GNU Radio makes a new source), `cfo_max_dev`, `noise_amp`
/// (a new pool from the running generator), `doppler_freq` and `k`.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_channels::DynamicChannelModel;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 1000]));
/// let channel = DynamicChannelModel::new(
///     32e3, 0.01, 1e3, 0.01, 1e3, 0.1, 8, 2.0, false, 4.0, 0, &[0.0, 0.1, 1.3], &[1.0, 0.99, 0.97], 8,
/// )?;
/// let channel = fg.add(channel);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, channel)?;
/// fg.connect(channel, sink)?;
/// fg.run()?;
/// assert!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len() > 900);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dynamic_channel_model",
    summary = "A time-varying channel: random-walk sample rate and carrier offsets, selective fading and noise (GNU Radio's channels.dynamic_channel_model, the same numbers for the same seed).",
    make = Self::new(sample_rate, sro_std_dev, sro_max_dev, cfo_std_dev, cfo_max_dev, noise_amp, sinusoids, doppler_freq, los, k, seed, &delays, &mags, ntaps)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(sample_rate: f64, above = 0.0, settable, doc = "samples per second")]
#[param(sro_std_dev: f32 = 0.01, settable, doc = "of the sample rate offset's steps, in Hz per sample")]
#[param(sro_max_dev: f32 = 1000.0, settable, doc = "the bound of the sample rate offset, in Hz (at least 0)")]
#[param(cfo_std_dev: f32 = 0.01, settable, doc = "of the carrier offset's steps, in Hz per sample")]
#[param(cfo_max_dev: f64 = 1000.0, at_least = 0.0, settable, doc = "the bound of the carrier offset, in Hz")]
#[param(noise_amp: f32 = 1.0, settable, doc = "the noise's standard deviation (complex: power `noise_amp²`)")]
#[param(sinusoids: u32 = 8, min = 1, doc = "of each fading path's sum-of-sinusoids model")]
#[param(doppler_freq: f64 = 2.0, settable, doc = "the fading's maximum Doppler frequency, in Hz")]
#[param(los: bool = false, doc = "the first fading path Rician (a line of sight) instead of Rayleigh")]
#[param(k: f32 = 4.0, settable, doc = "the Rician factor of the first path (with `los`)")]
#[param(seed: i64 = 0, doc = "of every stage's generators (GNU Radio's numbers for the same seed)")]
#[param(delays: Vec<f32>, doc = "each fading path's delay, in samples")]
#[param(mags: Vec<f32>, doc = "each fading path's magnitude (as many as delays)")]
#[param(ntaps: usize = 8, min = 1, doc = "taps the fading paths are spread over")]
#[derive(Debug)]
pub struct DynamicChannelModel {
    /// The transmitted signal.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The received signal, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    sro: SroWalk,
    sro_steps: PoolNoise<f32>,
    cfo: CfoWalk,
    cfo_steps: PoolNoise<f32>,
    fader: SelectiveFader,
    noise: PoolNoise<Complex32>,
    sample_rate: f64,
    seed: i64,
    /// One call's resampled, then faded samples.
    scratch: Vec<Complex32>,
}

#[block]
impl DynamicChannelModel {
    /// A dynamic channel with GNU Radio's parameters (see the type's documentation).
    ///
    /// # Errors
    /// If a stage refuses its parameter (naming it).
    #[allow(clippy::too_many_arguments)] // GNU Radio's parameters
    pub fn new(
        sample_rate: f64,
        sro_std_dev: f32,
        sro_max_dev: f32,
        cfo_std_dev: f32,
        cfo_max_dev: f64,
        noise_amp: f32,
        sinusoids: u32,
        doppler_freq: f64,
        los: bool,
        k: f32,
        seed: i64,
        delays: &[f32],
        mags: &[f32],
        ntaps: usize,
    ) -> Result<Self, ParamError> {
        let named = |name: &'static str| {
            move |e: ParamError| ParamError {
                name,
                reason: e.reason,
            }
        };
        // GNU Radio's seed is a double: a C long for the noise sources, an int for the fader.
        let noise_seed = seed as u64;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            sro: SroWalk::new(sample_rate as f32, sro_max_dev).map_err(named("sro_max_dev"))?,
            sro_steps: PoolNoise::new(sro_std_dev, noise_seed),
            cfo: CfoWalk::new(sample_rate, cfo_max_dev).map_err(named("cfo_max_dev"))?,
            cfo_steps: PoolNoise::new(cfo_std_dev, noise_seed),
            fader: SelectiveFader::new(
                sinusoids,
                (doppler_freq / sample_rate) as f32,
                los,
                k,
                seed as i32 as u32,
                delays,
                mags,
                ntaps,
            )?,
            noise: PoolNoise::with_pool(noise_amp, noise_seed, DYNAMIC_POOL),
            sample_rate,
            seed,
            scratch: vec![Complex32::default(); CHUNK],
        })
    }

    /// Changes the walks' sample rate; the fading keeps its normalized Doppler.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0; it stays as it was.
    pub fn set_sample_rate(&mut self, sample_rate: f64) -> Result<(), ParamError> {
        self.cfo.set_sample_rate(sample_rate)?;
        self.sro.set_sample_rate(sample_rate as f32)?;
        self.sample_rate = sample_rate;
        Ok(())
    }

    /// Changes the sample rate offset's steps: a fresh pool.
    pub fn set_sro_std_dev(&mut self, std_dev: f32) {
        self.sro_steps = PoolNoise::new(std_dev, self.seed as u64);
    }

    /// Changes the sample rate offset's bound.
    ///
    /// # Errors
    /// If `max_dev` is negative or not finite; it stays as it was.
    pub fn set_sro_max_dev(&mut self, max_dev: f32) -> Result<(), ParamError> {
        self.sro.set_max_dev(max_dev)
    }

    /// Changes the carrier offset's steps: a fresh pool.
    pub fn set_cfo_std_dev(&mut self, std_dev: f32) {
        self.cfo_steps = PoolNoise::new(std_dev, self.seed as u64);
    }

    /// Changes the carrier offset's bound.
    ///
    /// # Errors
    /// If `max_dev` is negative or not finite; it stays as it was.
    pub fn set_cfo_max_dev(&mut self, max_dev: f64) -> Result<(), ParamError> {
        self.cfo.set_max_dev(max_dev)
    }

    /// Changes the noise's standard deviation, drawing a new pool.
    pub fn set_noise_amp(&mut self, noise_amp: f32) {
        self.noise.set_amplitude(noise_amp);
    }

    /// Changes the fading's maximum Doppler frequency, in Hz.
    ///
    /// # Errors
    /// If `doppler_freq` is not finite; it stays as it was.
    pub fn set_doppler_freq(&mut self, doppler_freq: f64) -> Result<(), ParamError> {
        self.fader
            .set_doppler((doppler_freq / self.sample_rate) as f32)
    }

    /// Changes the Rician factor.
    ///
    /// # Errors
    /// If `k` is negative or not finite; it stays as it was.
    pub fn set_k(&mut self, k: f32) -> Result<(), ParamError> {
        self.fader.set_k(k)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = out.len().min(CHUNK);
        let sro_steps = &mut self.sro_steps;
        let (consumed, produced) =
            self.sro
                .process(self.input.slice(), &mut self.scratch[..n], || {
                    sro_steps.next_unbiased()
                });
        let (out, scratch) = (&mut out[..produced], &mut self.scratch[..produced]);
        let cfo_steps = &mut self.cfo_steps;
        self.cfo.process(scratch, out, || cfo_steps.next_unbiased());
        self.fader.process(out, scratch);
        for (o, s) in out.iter_mut().zip(scratch.iter()) {
            *o = self.noise.next() + s;
        }
        if !self.input.tags().is_empty() {
            let (from, to) = (self.input.offset(), self.output.offset());
            for t in self.input.tags() {
                if t.offset >= from + consumed as u64 {
                    break;
                }
                self.output.add_tag_at(t.offset.max(to), t);
            }
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn model(noise: f32) -> DynamicChannelModel {
        DynamicChannelModel::new(
            1e3,
            0.0,
            0.0,
            0.0,
            0.0,
            noise,
            4,
            0.0,
            false,
            4.0,
            3,
            &[0.0],
            &[1.0],
            1,
        )
        .unwrap()
    }

    #[test]
    fn settings_take_effect_and_bad_ones_are_refused() {
        let one = Complex32::new(1.0, 0.0);
        // No walks, no Doppler: a constant fading gain, no noise.
        let mut h = Harness::new(model(0.0));
        h.push("in", &[one; 107]);
        h.work().unwrap();
        let y = h.take_output::<Complex32>("out");
        assert_eq!(y.len(), 100);
        assert!(y.iter().all(|v| (v - y[0]).norm() < 1e-6), "{:?}", &y[..3]);
        // Noise of power 0.25 around that gain.
        h.post("noise_amp", 0.5f32).unwrap();
        h.push("in", &[one; 4000]);
        h.work().unwrap();
        let z = h.take_output::<Complex32>("out");
        let power = z.iter().map(|v| (v - y[0]).norm_sqr()).sum::<f32>() / z.len() as f32;
        assert!((power - 0.25).abs() < 0.03, "{power}");
        for (port, value) in [
            ("sample_rate", Pmt::Double(2e3)),
            ("doppler_freq", Pmt::Double(5.0)),
        ] {
            h.post(port, value).unwrap();
        }
        assert!(h.post("k", Pmt::Double(-1.0)).is_err());
        let e = DynamicChannelModel::new(
            1e3,
            0.0,
            -1.0,
            0.0,
            0.0,
            0.0,
            4,
            0.0,
            false,
            4.0,
            3,
            &[0.0],
            &[1.0],
            1,
        )
        .unwrap_err();
        assert_eq!(e.name, "sro_max_dev");
    }
}
