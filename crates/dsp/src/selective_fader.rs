//! [`SelectiveFader`]: frequency-selective fading, GNU Radio's `selective_fading_model`.

use crate::cos_table::CosTable;
use crate::error::{check, ParamError};
use crate::flat_fader::FlatFader;
use num_complex::Complex32;

/// A frequency-selective fading channel as GNU Radio's `channels.selective_fading_model`:
/// one [`FlatFader`] per path (seeds `seed`, `seed + 1`, ...; only the first Rician where
/// `los`), each path's gain times `mags[i]` spread over `ntaps` taps by a sinc at its
/// (fractional) delay `delays[i]`, looked up in GNU Radio's 1024-entry sine table; each output
/// is those taps, made anew per sample, over the last `ntaps` inputs (zeros before the
/// first), as GNU Radio 3.10 filters.
///
/// ```
/// use radioflow_dsp::SelectiveFader;
/// use num_complex::Complex32;
/// let mut f = SelectiveFader::new(8, 0.01, false, 4.0, 0, &[0.0, 1.3], &[1.0, 0.5], 8)?;
/// let x = [Complex32::new(1.0, 0.0); 100];
/// let mut y = [Complex32::default(); 100];
/// assert_eq!(f.process(&x, &mut y), 100);
/// assert!(y.iter().all(|y| y.norm() < 10.0));
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SelectiveFader {
    /// One per path.
    faders: Vec<FlatFader>,
    delays: Vec<f32>,
    mags: Vec<f32>,
    sinc: CosTable,
    /// The taps of the current sample.
    taps: Vec<Complex32>,
    /// The last `ntaps` inputs, oldest first, the current one last.
    history: Vec<Complex32>,
}

impl SelectiveFader {
    /// A channel of paths at `delays` (samples) with magnitudes `mags`, each faded by a
    /// [`FlatFader`] of `sinusoids`, `doppler`, `k` (Rician the first where `los`), spread
    /// over `ntaps` taps.
    ///
    /// # Errors
    /// If `delays` and `mags` differ in length, `ntaps` is 0, or a fader's parameter is bad
    /// (see [`FlatFader::new`]).
    #[allow(clippy::too_many_arguments)] // GNU Radio's parameters, in its order
    pub fn new(
        sinusoids: u32,
        doppler: f32,
        los: bool,
        k: f32,
        seed: u32,
        delays: &[f32],
        mags: &[f32],
        ntaps: usize,
    ) -> Result<Self, ParamError> {
        check(delays.len() == mags.len(), "mags", || {
            format!("{} magnitudes for {} delays", mags.len(), delays.len())
        })?;
        check(ntaps >= 1, "ntaps", || "must be at least 1".into())?;
        let faders = (0..delays.len())
            .map(|i| {
                let seed = seed.wrapping_add(i as u32);
                FlatFader::new(sinusoids, doppler, i == 0 && los, k, seed)
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            faders,
            delays: delays.to_vec(),
            mags: mags.to_vec(),
            sinc: CosTable::with_size(1024),
            taps: vec![Complex32::default(); ntaps],
            history: vec![Complex32::default(); ntaps],
        })
    }

    /// Changes every path's maximum Doppler frequency.
    ///
    /// # Errors
    /// If `doppler` is not finite; it stays as it was.
    pub fn set_doppler(&mut self, doppler: f32) -> Result<(), ParamError> {
        self.faders
            .iter_mut()
            .try_for_each(|f| f.set_doppler(doppler))
    }

    /// Changes every path's Rician factor.
    ///
    /// # Errors
    /// If `k` is negative or not finite; it stays as it was.
    pub fn set_k(&mut self, k: f32) -> Result<(), ParamError> {
        self.faders.iter_mut().try_for_each(|f| f.set_k(k))
    }

    /// Fades `input` into `output` (the shorter of the two); returns how many.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> usize {
        let n = input.len().min(output.len());
        let ntaps = self.taps.len();
        for (o, &x) in output[..n].iter_mut().zip(input) {
            self.taps.fill(Complex32::default());
            for ((fader, &delay), &mag) in self.faders.iter_mut().zip(&self.delays).zip(&self.mags)
            {
                let mut h = [Complex32::default()];
                fader.gains(&mut h);
                for (k, tap) in self.taps.iter_mut().enumerate() {
                    let dist = k as f32 - delay;
                    let interp = self
                        .sinc
                        .sinc((std::f64::consts::PI * f64::from(dist)) as f32);
                    *tap += h[0] * interp * mag;
                }
            }
            self.history.copy_within(1.., 0);
            self.history[ntaps - 1] = x;
            *o = self
                .history
                .iter()
                .zip(self.taps.iter().rev())
                .fold(Complex32::default(), |sum, (x, t)| sum + x * t);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_path_at_delay_0_is_the_flat_fader() {
        let mut sel = SelectiveFader::new(8, 0.05, false, 4.0, 5, &[0.0], &[0.5], 4).unwrap();
        let mut flat = FlatFader::new(8, 0.05, false, 4.0, 5).unwrap();
        let x: Vec<Complex32> = (0..50).map(|n| Complex32::new(n as f32, 1.0)).collect();
        let mut y = vec![Complex32::default(); 50];
        sel.process(&x, &mut y);
        let mut h = vec![Complex32::default(); 50];
        flat.gains(&mut h);
        // Tap 0 is sinc(0) = 1; the others sinc(πk) = 0 but for the table's rounding.
        for n in 0..50 {
            let want = x[n] * h[n] * 0.5;
            assert!(
                (y[n] - want).norm() < 1e-2 * want.norm().max(1.0),
                "{n}: {} vs {want}",
                y[n]
            );
        }
        assert_eq!(
            SelectiveFader::new(8, 0.05, false, 4.0, 5, &[0.0], &[], 4)
                .unwrap_err()
                .name,
            "mags"
        );
        assert_eq!(
            SelectiveFader::new(8, 0.05, false, 4.0, 5, &[0.0], &[1.0], 0)
                .unwrap_err()
                .name,
            "ntaps"
        );
    }
}
