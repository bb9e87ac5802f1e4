//! [`FadingModel`]: Rayleigh or Rician flat fading, GNU Radio's `channels.fading_model`.

use radioflow_dsp::{FlatFader, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Multiplies each sample by a flat-fading gain, as GNU Radio's `channels.fading_model`:
/// [`FlatFader`]'s sum of `sinusoids` sinusoids of maximum Doppler frequency `doppler`
/// (fD·Ts, cycles per sample), Rayleigh or, with `los`, Rician of factor `k`; GNU Radio's
/// numbers for the same `seed`. Tags kept. `doppler` and `k` can be set while the graph runs
/// (GNU Radio's `set_fDTs`, `set_K`).
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, NullSource, VectorSink};
/// use radioflow_channels::FadingModel;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NullSource::<Complex32>::new());
/// let head = fg.add(Head::<Complex32>::new(100));
/// let fading = fg.add(FadingModel::new(8, 0.01, false, 4.0, 0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, fading)?;
/// fg.connect(fading, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data(), &[Complex32::default(); 100]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fading_model",
    summary = "Rayleigh or Rician flat fading by a sum of sinusoids (GNU Radio's channels.fading_model, the same numbers for the same seed).",
    make = Self::new(sinusoids, doppler, los, k, seed).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(sinusoids: u32 = 8, min = 1, doc = "of the sum-of-sinusoids model")]
#[param(doppler: f32 = 0.01, settable, doc = "the maximum Doppler frequency in cycles per sample (fD·Ts)")]
#[param(los: bool = false, doc = "Rician (a line-of-sight path) instead of Rayleigh")]
#[param(k: f32 = 4.0, settable, doc = "the Rician factor: the line of sight's power over the scattered paths' (with `los`)")]
#[param(seed: u32 = 0, doc = "of the generators (GNU Radio's numbers for the same seed)")]
#[derive(Debug)]
pub struct FadingModel {
    /// Samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Samples times the fading gain, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    fader: FlatFader,
}

#[block]
impl FadingModel {
    /// A fading channel (see [`FlatFader::new`]).
    ///
    /// # Errors
    /// As [`FlatFader::new`], naming the parameter.
    pub fn new(
        sinusoids: u32,
        doppler: f32,
        los: bool,
        k: f32,
        seed: u32,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            fader: FlatFader::new(sinusoids, doppler, los, k, seed)?,
        })
    }

    /// Changes the maximum Doppler frequency.
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
        let mut h = Harness::new(FadingModel::new(4, 0.01, true, 4.0, 9).unwrap());
        let mut fader = FlatFader::new(4, 0.01, true, 4.0, 9).unwrap();
        h.post("k", 0.5f32).unwrap();
        h.post("doppler", 0.2f32).unwrap();
        fader.set_k(0.5).unwrap();
        fader.set_doppler(0.2).unwrap();
        h.push("in", &[one; 50]);
        h.work().unwrap();
        let mut want = [Complex32::default(); 50];
        fader.gains(&mut want);
        assert_eq!(h.take_output::<Complex32>("out"), want);
        let e = h.post("k", -1.0f32).unwrap_err();
        assert!(e.to_string().contains('k'), "{e}");
        assert_eq!(
            FadingModel::new(0, 0.01, false, 4.0, 0).unwrap_err().name,
            "sinusoids"
        );
    }
}
