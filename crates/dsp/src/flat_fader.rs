//! [`FlatFader`]: Rayleigh or Rician flat fading, GNU Radio's sum-of-sinusoids model.

use crate::cos_table::CosTable;
use crate::error::{check, ParamError};
use crate::mt19937::Mt19937;
use num_complex::Complex32;

/// GNU Radio's `GR_M_PI`.
const PI: f64 = std::f64::consts::PI;

/// A flat-fading channel gain per sample as GNU Radio's `flat_fader_impl` (behind
/// `channels.fading_model` and `selective_fading_model`) makes it: the sum-of-sinusoids
/// model with a random-walk angle of arrival (Alimohammad, Fard, Cockburn and Schlegel,
/// "Compact Rayleigh and Rician fading simulator based on random walk processes", 2009):
/// `sinusoids` sinusoids of maximum Doppler frequency `doppler` (fD·Ts, cycles per sample),
/// Rayleigh, or Rician with a line-of-sight path of power ratio `k` to the scattered ones.
///
/// GNU Radio's numbers for the same seed: the initial phases and the random walk come from
/// two C++ `std::mt19937` generators (seeds `seed` and `seed + 1`) through libstdc++'s
/// `uniform_real_distribution<double>`; sines and cosines are looked up in GNU Radio's
/// 8192-entry cosine table (the index truncated, not interpolated), in the same precision
/// (phases `f32`, their increments and the walk `f64`).
///
/// ```
/// use radioflow_dsp::FlatFader;
/// use num_complex::Complex32;
/// let mut fader = FlatFader::new(8, 0.01, false, 4.0, 0)?;
/// let mut h = vec![Complex32::default(); 100_000];
/// fader.gains(&mut h);
/// // Rayleigh fading of unit mean power.
/// let power = h.iter().map(|h| h.norm_sqr()).sum::<f32>() / h.len() as f32;
/// assert!((power - 1.0).abs() < 0.3, "{power}");
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct FlatFader {
    walk: Mt19937,
    /// The angle of arrival, a random walk in `[-π, π]`.
    theta: f64,
    theta_los: f32,
    /// The walk's largest step (its sign flips at the ends).
    step: f32,
    doppler: f32,
    los: bool,
    /// In-phase and quadrature phases; index 0 is the line-of-sight path's.
    psi: Vec<f32>,
    phi: Vec<f32>,
    table: CosTable,
    scale_sin: f32,
    scale_los: f32,
    scale_nlos: f32,
}

impl FlatFader {
    /// A fader of `sinusoids` sinusoids (at least 1), maximum Doppler `doppler` cycles per
    /// sample, Rician with factor `k` if `los`, seeded with `seed`.
    ///
    /// # Errors
    /// If `sinusoids` is 0, `doppler` is not finite, or `k` is negative or not finite.
    pub fn new(
        sinusoids: u32,
        doppler: f32,
        los: bool,
        k: f32,
        seed: u32,
    ) -> Result<Self, ParamError> {
        check(sinusoids > 0, "sinusoids", || "must be at least 1".into())?;
        check(doppler.is_finite(), "doppler", || {
            format!("{doppler} must be finite")
        })?;
        let mut init = Mt19937::new(seed);
        let theta = init.uniform(-PI, PI);
        let theta_los = init.uniform(-PI, PI) as f32;
        let n = sinusoids as usize + 1;
        let (mut psi, mut phi) = (vec![0.0f32; n], vec![0.0f32; n]);
        for i in 0..n {
            psi[i] = init.uniform(-PI, PI) as f32;
            phi[i] = init.uniform(-PI, PI) as f32;
        }
        let mut fader = Self {
            walk: Mt19937::new(seed.wrapping_add(1)),
            theta,
            theta_los,
            step: 0.0,
            doppler: 0.0,
            los,
            psi,
            phi,
            table: CosTable::new(),
            scale_sin: ((1.0 / f64::from(sinusoids)) as f32).sqrt(),
            scale_los: 0.0,
            scale_nlos: 0.0,
        };
        fader.set_doppler(doppler)?;
        fader.set_k(k)?;
        Ok(fader)
    }

    /// Changes the maximum Doppler frequency (and the walk's step with it, GNU Radio's
    /// `set_fDTs`).
    ///
    /// # Errors
    /// If `doppler` is not finite; it stays as it was.
    pub fn set_doppler(&mut self, doppler: f32) -> Result<(), ParamError> {
        check(doppler.is_finite(), "doppler", || {
            format!("{doppler} must be finite")
        })?;
        self.doppler = doppler;
        // The largest step, from the paper's Table 2.
        self.step = ((0.00125 * f64::from(doppler)) as f32).powf(1.1);
        Ok(())
    }

    /// Changes the Rician factor (GNU Radio's `set_K`).
    ///
    /// # Errors
    /// If `k` is negative or not finite; it stays as it was.
    pub fn set_k(&mut self, k: f32) -> Result<(), ParamError> {
        check(k.is_finite() && k >= 0.0, "k", || {
            format!("{k} must be finite and at least 0")
        })?;
        self.scale_los = k.sqrt() / (k + 1.0).sqrt();
        self.scale_nlos = 1.0 / (k + 1.0).sqrt();
        Ok(())
    }

    /// The next `gains.len()` gains.
    pub fn gains(&mut self, gains: &mut [Complex32]) {
        let n = self.psi.len() - 1;
        let two_pi_fd = 2.0 * PI * f64::from(self.doppler);
        for g in gains {
            let mut h = Complex32::default();
            for i in 1..=n {
                let alpha = ((2.0 * PI * i as f64 - PI + self.theta) / (4 * n) as f64) as f32;
                let inc = two_pi_fd * f64::from(self.table.cos(alpha));
                self.psi[i] = ((f64::from(self.psi[i]) + inc) % (2.0 * PI)) as f32;
                self.phi[i] = ((f64::from(self.phi[i]) + inc) % (2.0 * PI)) as f32;
                h += Complex32::new(
                    self.scale_sin * self.table.cos(self.psi[i]),
                    self.scale_sin * self.table.sin(self.phi[i]),
                );
            }
            if self.los {
                let inc = two_pi_fd * f64::from(self.table.cos(self.theta_los));
                self.psi[0] = ((f64::from(self.psi[0]) + inc) % (2.0 * PI)) as f32;
                let los = Complex32::new(
                    self.scale_los * self.table.cos(self.psi[0]),
                    self.scale_los * self.table.sin(self.psi[0]),
                );
                h = h * self.scale_nlos + los;
            }
            self.theta += f64::from(self.step) * self.walk.canonical();
            if self.theta > PI {
                self.theta = PI;
                self.step = -self.step;
            } else if self.theta < -PI {
                self.theta = -PI;
                self.step = -self.step;
            }
            *g = h;
        }
    }

    /// `output[i] = input[i] · gain` for the next gains (the shorter of the two).
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> usize {
        let n = input.len().min(output.len());
        let out = &mut output[..n];
        self.gains(out);
        for (o, x) in out.iter_mut().zip(input) {
            *o = x * *o;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rician_fading_has_the_line_of_sight_power() {
        // K = 4: the line of sight carries 4/5 of the power; the mean gain is near it.
        let mut f = FlatFader::new(8, 0.05, true, 4.0, 3).unwrap();
        let mut h = vec![Complex32::default(); 50_000];
        f.gains(&mut h);
        let power = h.iter().map(|h| h.norm_sqr()).sum::<f32>() / h.len() as f32;
        assert!((power - 1.0).abs() < 0.2, "{power}");
        let scattered = h.iter().map(|h| (h.norm() - 0.894).powi(2)).sum::<f32>() / h.len() as f32;
        assert!(scattered < 0.25, "{scattered}");
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert_eq!(
            FlatFader::new(0, 0.01, false, 4.0, 0).unwrap_err().name,
            "sinusoids"
        );
        assert_eq!(
            FlatFader::new(8, f32::NAN, false, 4.0, 0).unwrap_err().name,
            "doppler"
        );
        assert_eq!(
            FlatFader::new(8, 0.01, true, -1.0, 0).unwrap_err().name,
            "k"
        );
    }
}
