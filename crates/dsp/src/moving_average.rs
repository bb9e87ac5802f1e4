//! [`MovingAverage`] and [`Delay`]: running sums and delays over a ring of recent samples.

use crate::error::{check, Num, ParamError};
use crate::fir::FirSample;

/// A running sum `y[n] = scale · Σ_{k<length} x[n-k]` from zero history, as GNU Radio's
/// `moving_average_xx`, for `f32` or `Complex32` samples. The sum is kept in `f64` per
/// component, so it does not drift the way an `f32` running sum would (the error of
/// subtracting what was added is about 1e-16 of the values per sample).
///
/// ```
/// use radioflow_dsp::MovingAverage;
/// let mut avg = MovingAverage::<f32>::new(3, 1.0 / 3.0)?;
/// let mut y = [0.0; 5];
/// avg.process(&[3.0, 3.0, 3.0, 6.0, 6.0], &mut y);
/// assert_eq!(y, [1.0, 2.0, 3.0, 4.0, 5.0]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MovingAverage<T: FirSample> {
    delay: Delay<T>,
    /// The sum of the `length` newest samples, per component.
    sum: [f64; 2],
    scale: f64,
}

impl<T: FirSample> MovingAverage<T> {
    /// A running sum over `length` samples, times `scale` (`1/length` for the mean).
    ///
    /// # Errors
    /// If `length` is 0 or `scale` is not finite.
    pub fn new(length: usize, scale: f64) -> Result<Self, ParamError> {
        check(length > 0, "length", || "must be at least 1".into())?;
        check(scale.is_finite(), "scale", || {
            format!("{} must be finite", Num(scale))
        })?;
        Ok(Self {
            delay: Delay::new(length),
            sum: [0.0; 2],
            scale,
        })
    }

    /// The number of samples summed.
    pub fn length(&self) -> usize {
        self.delay.delay()
    }

    /// Averages `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) {
        let output = &mut output[..input.len()];
        for (o, &x) in output.iter_mut().zip(input) {
            let old = self.delay.push(x);
            let (xc, oc) = (
                T::components(std::slice::from_ref(&x)),
                T::components(std::slice::from_ref(&old)),
            );
            let yc = T::components_mut(std::slice::from_mut(o));
            for c in 0..T::COMPONENTS {
                self.sum[c] += f64::from(xc[c]) - f64::from(oc[c]);
                yc[c] = (self.sum[c] * self.scale) as f32;
            }
        }
    }
}

/// A delay line: `y[n] = x[n - delay]`, zeros first.
///
/// ```
/// use radioflow_dsp::Delay;
/// let mut d = Delay::<f32>::new(2);
/// let mut y = [0.0; 4];
/// d.process(&[1.0, 2.0, 3.0, 4.0], &mut y);
/// assert_eq!(y, [0.0, 0.0, 1.0, 2.0]);
/// ```
#[derive(Clone, Debug)]
pub struct Delay<T> {
    /// The last `delay` samples; `ring[at]` is the oldest.
    ring: Vec<T>,
    at: usize,
}

impl<T: Copy + Default> Delay<T> {
    /// A delay of `delay` samples (0 copies the input).
    pub fn new(delay: usize) -> Self {
        Self {
            ring: vec![T::default(); delay],
            at: 0,
        }
    }

    /// The delay, in samples.
    pub fn delay(&self) -> usize {
        self.ring.len()
    }

    /// Delays `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) {
        let output = &mut output[..input.len()];
        if self.ring.is_empty() {
            output.copy_from_slice(input);
            return;
        }
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.push(x);
        }
    }

    /// Pushes `x`, returning the sample `delay` before it.
    #[inline]
    fn push(&mut self, x: T) -> T {
        if self.ring.is_empty() {
            return x;
        }
        let old = std::mem::replace(&mut self.ring[self.at], x);
        self.at = if self.at + 1 == self.ring.len() {
            0
        } else {
            self.at + 1
        };
        old
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex32;

    fn split<T: Copy + Default>(x: &[T], f: impl FnMut(&[T], &mut [T])) -> Vec<T> {
        run_split_sync(6, x, 300, f)
    }

    #[test]
    fn moving_average_matches_the_naive_sum_across_calls() {
        let x = random_complex(1, 5000);
        for len in [1, 2, 10, 333] {
            let mut avg = MovingAverage::<Complex32>::new(len, 0.25).unwrap();
            let got = split(&x, |i, o| avg.process(i, o));
            for (n, g) in got.iter().enumerate() {
                let want: Complex32 =
                    x[n.saturating_sub(len - 1)..=n].iter().sum::<Complex32>() * 0.25;
                // f32 naive sum of up to 333 terms against the f64 running sum.
                assert!(
                    (g - want).norm() < 1e-5 * len as f32,
                    "{len} {n}: {g} vs {want}"
                );
            }
        }
    }

    #[test]
    fn moving_average_equals_gnu_radios() {
        let x = golden_real("real");
        let mut avg = MovingAverage::<f32>::new(10, 0.5).unwrap();
        let mut y = vec![0.0; x.len()];
        avg.process(&x, &mut y);
        // GNU Radio's running sum is f32 (re-summed every 4096 samples): 1e-5 of the RMS.
        assert_close_real(&y, &golden_real("moving_average"), 1e-5, "moving average");
        assert!(MovingAverage::<f32>::new(0, 1.0).is_err());
    }

    #[test]
    fn delay_shifts_across_calls() {
        let x = random_real(2, 3000);
        for d in [0, 1, 7, 500] {
            let mut delay = Delay::new(d);
            let got = split(&x, |i, o| delay.process(i, o));
            let want: Vec<f32> = std::iter::repeat_n(0.0, d)
                .chain(x.iter().copied())
                .take(x.len())
                .collect();
            assert_eq!(got, want, "delay {d}");
        }
    }
}
