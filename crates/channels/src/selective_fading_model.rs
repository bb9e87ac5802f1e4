//! [`SelectiveFadingModel`]: frequency-selective fading, GNU Radio's
//! `channels.selective_fading_model`.

use radioflow_dsp::{ParamError, SelectiveFader};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Fades the samples over several delayed paths, as GNU Radio's
/// `channels.selective_fading_model`: [`SelectiveFader`], one Rayleigh (or for the first path,
/// with `los`, Rician) flat fader per path, each at its delay `delays[i]` (in samples,
/// fractional ones spread by a sinc) and magnitude `mags[i]`, over `ntaps` taps; GNU Radio's
/// numbers for the same `seed`. Tags kept. `doppler` and `k` can be set while the graph runs
/// (GNU Radio's `set_fDTs`, `set_K`).
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, NullSource, VectorSink};
/// use radioflow_channels::SelectiveFadingModel;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NullSource::<Complex32>::new());
/// let head = fg.add(Head::<Complex32>::new(100));
/// let paths = SelectiveFadingModel::new(8, 0.01, false, 4.0, 0, &[0.0, 0.1, 1.3], &[1.0, 0.99, 0.97], 8)?;
/// let fading = fg.add(paths);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, fading)?;
/// fg.connect(fading, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len(), 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "selective_fading_model",
    summary = "Frequency-selective fading: flat faders on delayed paths (GNU Radio's channels.selective_fading_model, the same numbers for the same seed).",
    make = Self::new(sinusoids, doppler, los, k, seed, &delays, &mags, ntaps).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(sinusoids: u32 = 8, min = 1, doc = "of each path's sum-of-sinusoids model")]
#[param(doppler: f32 = 0.01, settable, doc = "the maximum Doppler frequency in cycles per sample (fD·Ts)")]
#[param(los: bool = false, doc = "the first path Rician (a line of sight) instead of Rayleigh")]
#[param(k: f32 = 4.0, settable, doc = "the Rician factor of the first path (with `los`)")]
#[param(seed: i64 = 0, doc = "of the first path's generators, the next path's `seed + 1` and so on (as a C int converted to 32 unsigned bits, GNU Radio's numbers)")]
#[param(delays: Vec<f32>, doc = "each path's delay, in samples")]
#[param(mags: Vec<f32>, doc = "each path's magnitude (as many as delays)")]
#[param(ntaps: usize = 8, min = 1, doc = "taps the paths are spread over")]
#[derive(Debug)]
pub struct SelectiveFadingModel {
    /// Samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Faded samples, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    fader: SelectiveFader,
}

#[block]
impl SelectiveFadingModel {
    /// A selective fading channel (see [`SelectiveFader::new`]).
    ///
    /// # Errors
    /// As [`SelectiveFader::new`], naming the parameter.
    #[allow(clippy::too_many_arguments)] // GNU Radio's parameters, in its order
    pub fn new(
        sinusoids: u32,
        doppler: f32,
        los: bool,
        k: f32,
        seed: i64,
        delays: &[f32],
        mags: &[f32],
        ntaps: usize,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            // GNU Radio's seed is a C int, converted to 32 unsigned bits per path.
            fader: SelectiveFader::new(
                sinusoids,
                doppler,
                los,
                k,
                seed as u32,
                delays,
                mags,
                ntaps,
            )?,
        })
    }

    /// Changes every path's maximum Doppler frequency.
    ///
    /// # Errors
    /// If `doppler` is not finite; it stays as it was.
    pub fn set_doppler(&mut self, doppler: f32) -> Result<(), ParamError> {
        self.fader.set_doppler(doppler)
    }

    /// Changes the Rician factor.
    ///
    /// # Errors
    /// If `k` is negative or not finite; it stays as it was.
    pub fn set_k(&mut self, k: f32) -> Result<(), ParamError> {
        self.fader.set_k(k)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let fader = &mut self.fader;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            fader.process(x, y);
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn settings_are_the_fader_s_and_bad_ones_refused() {
        let one = Complex32::new(1.0, 0.0);
        let (delays, mags) = ([0.0, 1.5], [1.0, 0.5]);
        let mut h = Harness::new(
            SelectiveFadingModel::new(4, 0.01, true, 4.0, 2, &delays, &mags, 4).unwrap(),
        );
        let mut fader = SelectiveFader::new(4, 0.01, true, 4.0, 2, &delays, &mags, 4).unwrap();
        h.post("k", 1.0f32).unwrap();
        h.post("doppler", 0.1f32).unwrap();
        fader.set_k(1.0).unwrap();
        fader.set_doppler(0.1).unwrap();
        h.push("in", &[one; 30]);
        h.work().unwrap();
        let mut want = [Complex32::default(); 30];
        fader.process(&[one; 30], &mut want);
        assert_eq!(h.take_output::<Complex32>("out"), want);
        let e = SelectiveFadingModel::new(4, 0.01, true, 4.0, 2, &delays, &[1.0], 4).unwrap_err();
        assert_eq!(e.name, "mags");
    }
}
