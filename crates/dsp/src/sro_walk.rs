//! [`SroWalk`]: a sample rate offset that walks at random, GNU Radio's `sro_model`.

use crate::error::{check, positive, ParamError};
use crate::history::{History, CHUNK};
use crate::mmse_interpolator::MmseInterpolator;
use num_complex::Complex32;

/// Resamples by a sample rate offset that walks at random, as GNU Radio's
/// `channels.sro_model`: before each output the offset (Hz) moves by a step the caller draws
/// (GNU Radio: Gaussian noise of the walk's standard deviation, from a fast-noise pool, of
/// random sign), bounded to `±max_dev`; the output is the [`MmseInterpolator`] at delay `mu`,
/// then `mu` advances by `1 + offset / sample_rate` inputs. GNU Radio keeps all of it in
/// `f32` (the offset, `mu`, the ratio and their sum), and so does this, for its numbers.
///
/// ```
/// use radioflow_dsp::SroWalk;
/// use num_complex::Complex32;
/// // No steps: no offset, every input from the fourth on.
/// let mut sro = SroWalk::new(1e3, 10.0)?;
/// let x: Vec<Complex32> = (0..20).map(|n| Complex32::new(n as f32, 0.0)).collect();
/// let mut y = [Complex32::default(); 20];
/// assert_eq!(sro.process(&x, &mut y, || 0.0), (20, 13));
/// assert!((y[0].re - 3.0).abs() < 1e-6 && (y[12].re - 15.0).abs() < 1e-5);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SroWalk {
    interp: MmseInterpolator,
    history: History<Complex32>,
    sample_rate: f32,
    /// At least 0.
    max_dev: f32,
    /// The offset now, in Hz, within `±max_dev`.
    sro: f32,
    /// In `[0, 1)`.
    mu: f32,
}

impl SroWalk {
    /// A walk from 0 Hz bounded by `±max_dev` Hz, at `sample_rate` samples per second.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0, or `max_dev` is negative or not finite.
    pub fn new(sample_rate: f32, max_dev: f32) -> Result<Self, ParamError> {
        positive("sample_rate", f64::from(sample_rate))?;
        let mut walk = Self {
            interp: MmseInterpolator::new(),
            history: History::new(0, CHUNK + MmseInterpolator::NTAPS),
            sample_rate,
            max_dev: 0.0,
            sro: 0.0,
            mu: 0.0,
        };
        walk.set_max_dev(max_dev)?;
        Ok(walk)
    }

    /// Changes the sample rate (GNU Radio's `set_samp_rate`).
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0; it stays as it was.
    pub fn set_sample_rate(&mut self, sample_rate: f32) -> Result<(), ParamError> {
        positive("sample_rate", f64::from(sample_rate))?;
        self.sample_rate = sample_rate;
        Ok(())
    }

    /// Changes the bound (GNU Radio's `set_max_dev`).
    ///
    /// # Errors
    /// If `max_dev` is negative or not finite; it stays as it was.
    pub fn set_max_dev(&mut self, max_dev: f32) -> Result<(), ParamError> {
        check(max_dev.is_finite() && max_dev >= 0.0, "max_dev", || {
            format!("{max_dev} must be finite and at least 0")
        })?;
        self.max_dev = max_dev;
        Ok(())
    }

    /// The offset now, in Hz.
    pub fn sro(&self) -> f32 {
        self.sro
    }

    /// Resamples as much of `input` into `output` as fits, one `step()` per output; returns
    /// (inputs consumed, outputs made). Inputs are kept between calls.
    pub fn process(
        &mut self,
        input: &[Complex32],
        output: &mut [Complex32],
        mut step: impl FnMut() -> f32,
    ) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let window = self.history.pending();
            let mut at = 0;
            while produced < output.len() && at + MmseInterpolator::NTAPS <= window.len() {
                self.sro = (self.sro + step()).clamp(-self.max_dev, self.max_dev);
                let ratio = (1.0 + f64::from(self.sro / self.sample_rate)) as f32;
                output[produced] = self.interp.interpolate(&window[at..], self.mu);
                produced += 1;
                let s = f64::from(self.mu + ratio);
                let whole = s.floor();
                at += whole as usize;
                self.mu = (s - whole) as f32;
            }
            self.history.advance(at);
            if produced == output.len() || consumed == input.len() {
                return (consumed, produced);
            }
            consumed += self.history.extend(&input[consumed..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{random_complex, run_split};

    #[test]
    fn equals_the_definition_whatever_the_calls() {
        let x = random_complex(9, 4000);
        let steps = |k: &mut u32| {
            *k += 1;
            if *k % 5 < 2 {
                3.0
            } else {
                -1.7
            }
        };
        // The definition: the walk, then the interpolator over the whole input.
        let interp = MmseInterpolator::new();
        let (mut sro, mut mu, mut i, mut k) = (0.0f32, 0.0f32, 0usize, 0u32);
        let mut want = Vec::new();
        while i + 8 <= x.len() {
            sro = (sro + steps(&mut k)).clamp(-40.0, 40.0);
            let ratio = (1.0 + f64::from(sro / 100.0)) as f32;
            want.push(interp.interpolate(&x[i..], mu));
            let s = f64::from(mu + ratio);
            i += s.floor() as usize;
            mu = (s - s.floor()) as f32;
        }
        let mut walk = SroWalk::new(100.0, 40.0).unwrap();
        let mut k = 0;
        let got = run_split(4, &x, 300, |a, b| walk.process(a, b, || steps(&mut k)));
        assert_eq!(got, want);
        assert_eq!(SroWalk::new(0.0, 1.0).unwrap_err().name, "sample_rate");
        assert_eq!(SroWalk::new(1.0, f32::NAN).unwrap_err().name, "max_dev");
    }
}
