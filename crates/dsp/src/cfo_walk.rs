//! [`CfoWalk`]: a carrier frequency offset that walks at random, GNU Radio's `cfo_model`.

use crate::cos_table::CosTable;
use crate::error::{check, positive, ParamError};
use num_complex::Complex32;

/// GNU Radio's `GR_M_PI`.
const PI: f64 = std::f64::consts::PI;

/// Shifts samples by a carrier frequency offset that walks at random, as GNU Radio's
/// `channels.cfo_model`: per sample the offset (Hz) moves by a step the caller draws
/// (GNU Radio: Gaussian noise of the walk's standard deviation, from a fast-noise pool, of
/// random sign), bounded to `±max_dev`; the phase advances by `2π · offset / sample_rate`
/// (an `f32` phase advanced in `f64`, wrapped past ±2π) and the sample is multiplied by `cos + j sin` of it, looked
/// up in GNU Radio's cosine table, so that the same steps give GNU Radio's numbers.
///
/// ```
/// use radioflow_dsp::CfoWalk;
/// use num_complex::Complex32;
/// // A constant 100 Hz offset at 1 kHz: the walk starts at 0 and steps 100 once.
/// let mut cfo = CfoWalk::new(1000.0, 100.0)?;
/// let x = [Complex32::new(1.0, 0.0); 3];
/// let mut y = [Complex32::default(); 3];
/// let mut first = true;
/// cfo.process(&x, &mut y, || if std::mem::take(&mut first) { 100.0 } else { 0.0 });
/// assert!((y[2] - Complex32::from_polar(1.0, 3.0 * 0.2 * std::f32::consts::PI)).norm() < 2e-3);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CfoWalk {
    table: CosTable,
    sample_rate: f64,
    /// At least 0.
    max_dev: f64,
    /// The offset now, in Hz, within `±max_dev`.
    cfo: f64,
    /// The phase, in `[-2π, 2π]` after each wrap (`f32`, as GNU Radio keeps it).
    angle: f32,
}

impl CfoWalk {
    /// A walk from 0 Hz bounded by `±max_dev` Hz, at `sample_rate` samples per second.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0, or `max_dev` is negative or not finite.
    pub fn new(sample_rate: f64, max_dev: f64) -> Result<Self, ParamError> {
        positive("sample_rate", sample_rate)?;
        let mut walk = Self {
            table: CosTable::new(),
            sample_rate,
            max_dev: 0.0,
            cfo: 0.0,
            angle: 0.0,
        };
        walk.set_max_dev(max_dev)?;
        Ok(walk)
    }

    /// Changes the sample rate (GNU Radio's `set_samp_rate`).
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0; it stays as it was.
    pub fn set_sample_rate(&mut self, sample_rate: f64) -> Result<(), ParamError> {
        positive("sample_rate", sample_rate)?;
        self.sample_rate = sample_rate;
        Ok(())
    }

    /// Changes the bound (GNU Radio's `set_max_dev`).
    ///
    /// # Errors
    /// If `max_dev` is negative or not finite; it stays as it was.
    pub fn set_max_dev(&mut self, max_dev: f64) -> Result<(), ParamError> {
        check(max_dev.is_finite() && max_dev >= 0.0, "max_dev", || {
            format!("{max_dev} must be finite and at least 0")
        })?;
        self.max_dev = max_dev;
        Ok(())
    }

    /// The offset now, in Hz.
    pub fn cfo(&self) -> f64 {
        self.cfo
    }

    /// Shifts `input` into `output` (the shorter of the two), one `step()` per sample;
    /// returns how many.
    pub fn process(
        &mut self,
        input: &[Complex32],
        output: &mut [Complex32],
        mut step: impl FnMut() -> f32,
    ) -> usize {
        let n = input.len().min(output.len());
        for (o, x) in output[..n].iter_mut().zip(input) {
            self.cfo = (self.cfo + f64::from(step())).clamp(-self.max_dev, self.max_dev);
            // Each step rounded to f32 as GNU Radio stores it.
            let mut angle = (f64::from(self.angle) + 2.0 * PI * self.cfo / self.sample_rate) as f32;
            if f64::from(angle) > 2.0 * PI {
                angle = (f64::from(angle) - 2.0 * PI) as f32;
            }
            if f64::from(angle) < -2.0 * PI {
                angle = (f64::from(angle) + 2.0 * PI) as f32;
            }
            self.angle = angle;
            *o = x * Complex32::new(self.table.cos(self.angle), self.table.sin(self.angle));
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_walks_within_its_bound() {
        let mut walk = CfoWalk::new(1e3, 5.0).unwrap();
        let x = vec![Complex32::new(1.0, 0.0); 100];
        let mut y = Vec::new();
        let mut phase = 0.0f64;
        let mut k = 0;
        let mut seen = Vec::new();
        for chunk in x.chunks(10) {
            let mut out = [Complex32::default(); 10];
            walk.process(chunk, &mut out, || {
                k += 1;
                if k % 3 == 0 {
                    -2.0
                } else {
                    1.5
                }
            });
            seen.push(walk.cfo());
            y.extend_from_slice(&out);
        }
        assert!(seen.iter().all(|c| c.abs() <= 5.0));
        assert!(seen.contains(&5.0), "bounded at 5: {seen:?}");
        // The last sample: the phase the offsets add up to.
        let mut cfo = 0.0f64;
        for k in 1..=100 {
            cfo = (cfo + if k % 3 == 0 { -2.0 } else { 1.5 }).clamp(-5.0, 5.0);
            phase += 2.0 * PI * cfo / 1e3;
        }
        let last = y.last().unwrap();
        assert!((last - Complex32::from_polar(1.0, phase as f32)).norm() < 2e-3);
        assert_eq!(CfoWalk::new(0.0, 1.0).unwrap_err().name, "sample_rate");
        assert_eq!(CfoWalk::new(1.0, -1.0).unwrap_err().name, "max_dev");
    }
}
