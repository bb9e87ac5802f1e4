//! [`GrMovingAverage`]: GNU Radio's `moving_average_xx`, with its arithmetic.

use crate::arith::Arith;
use crate::error::ParamError;

/// A running sum `y[n] = scale · Σ_{k<length} x[n-k]` from zero history, computed as GNU
/// Radio 3.10's `moving_average_xx` computes it, so that the outputs are GNU Radio's bit for
/// bit: the sum is kept in the item type (integers wrap; floats round at every step), every
/// sample is added once and subtracted `length` samples later, and every `max_iter` outputs
/// the sum is recomputed from the `length - 1` samples it holds (GNU Radio recomputes at the
/// start of each work call, and a call makes at most `max_iter` outputs), so that float
/// rounding does not pile up.
///
/// [`MovingAverage`](crate::MovingAverage) keeps its sum in `f64` instead: use this one
/// where GNU Radio's outputs are wanted.
///
/// ```
/// use radioflow_dsp::GrMovingAverage;
/// let mut avg = GrMovingAverage::<i16>::new(2, 3, 4000)?;
/// let mut y = [0i16; 3];
/// avg.process(&[1, 2, 30000], &mut y);
/// assert_eq!(y, [3, 9, 24470]); // 3 · 30002 wraps
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct GrMovingAverage<T> {
    /// The last `length - 1` samples; `ring[at]` is the oldest.
    ring: Vec<T>,
    at: usize,
    sum: T,
    scale: T,
    max_iter: usize,
    /// Outputs since the sum was last recomputed.
    since: usize,
}

impl<T: Arith + Default> GrMovingAverage<T> {
    /// A running sum over `length` samples, times `scale`, recomputed every `max_iter`
    /// outputs.
    ///
    /// # Errors
    /// If `length` or `max_iter` is 0.
    pub fn new(length: usize, scale: T, max_iter: usize) -> Result<Self, ParamError> {
        if length == 0 {
            return Err(ParamError::new("length", "must be at least 1"));
        }
        if max_iter == 0 {
            return Err(ParamError::new("max_iter", "must be at least 1"));
        }
        Ok(Self {
            ring: vec![T::default(); length - 1],
            at: 0,
            sum: T::default(),
            scale,
            max_iter,
            since: 0,
        })
    }

    /// Averages `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) {
        let output = &mut output[..input.len()];
        for (o, &x) in output.iter_mut().zip(input) {
            if self.since == 0 {
                // GNU Radio sums the history from its oldest sample, starting at zero.
                let (newer, older) = self.ring.split_at(self.at);
                self.sum = older
                    .iter()
                    .chain(newer)
                    .fold(T::default(), |s, &v| s.add(v));
            }
            self.sum = self.sum.add(x);
            *o = self.sum.mul(self.scale);
            let oldest = if self.ring.is_empty() {
                x
            } else {
                let old = std::mem::replace(&mut self.ring[self.at], x);
                self.at = if self.at + 1 == self.ring.len() {
                    0
                } else {
                    self.at + 1
                };
                old
            };
            self.sum = self.sum.sub(oldest);
            self.since = if self.since + 1 == self.max_iter {
                0
            } else {
                self.since + 1
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex32;

    /// GNU Radio's work call, written plainly: `in` holds `length - 1` samples of history
    /// before the call's first; the sum restarts at every call of at most `max_iter` outputs.
    fn naive<T: Arith + Default>(x: &[T], length: usize, scale: T, max_iter: usize) -> Vec<T> {
        let mut h = vec![T::default(); length - 1];
        h.extend_from_slice(x);
        let mut out = Vec::new();
        for start in (0..x.len()).step_by(max_iter) {
            let mut sum = h[start..start + length - 1]
                .iter()
                .fold(T::default(), |s, &v| s.add(v));
            for i in start..(start + max_iter).min(x.len()) {
                sum = sum.add(h[i + length - 1]);
                out.push(sum.mul(scale));
                sum = sum.sub(h[i]);
            }
        }
        out
    }

    fn check<T: Arith + Default + PartialEq + std::fmt::Debug>(x: &[T], scale: T) {
        for (length, max_iter) in [(1, 4000), (2, 7), (5, 4000), (17, 50), (300, 64)] {
            let want = naive(x, length, scale, max_iter);
            let mut avg = GrMovingAverage::new(length, scale, max_iter).unwrap();
            let got = run_split_sync(length as u64, x, 300, |i, o| avg.process(i, o));
            assert!(got == want, "length {length}, max_iter {max_iter}");
        }
    }

    #[test]
    fn equals_gnu_radio_s_work_written_plainly_in_any_split() {
        let f = random_real(1, 2000);
        check(&f, 0.1f32);
        check(&random_complex(2, 2000), Complex32::new(0.25, -0.5));
        let s: Vec<i16> = f.iter().map(|v| (v * 32767.0) as i16).collect();
        check(&s, 3i16);
        let i: Vec<i32> = f.iter().map(|v| (v * 2.1e9) as i32).collect();
        check(&i, -7i32);
    }

    #[test]
    fn a_zero_length_or_max_iter_is_refused() {
        assert_eq!(
            GrMovingAverage::new(0, 1.0f32, 1).unwrap_err().name,
            "length"
        );
        assert_eq!(
            GrMovingAverage::new(1, 1.0f32, 0).unwrap_err().name,
            "max_iter"
        );
    }
}
