//! [`DcBlocker`]: removes the DC component with cascaded moving averages.

use crate::error::{check, ParamError};
use crate::fir::FirSample;
use crate::history::CHUNK;
use crate::moving_average::{Delay, MovingAverage};

/// A linear-phase DC blocker (R. Yates and R. Lyons, "DC blocker algorithms", IEEE Signal
/// Processing Magazine, 2008), as GNU Radio's `dc_blocker_xx`: the input, delayed to line up,
/// minus its mean over cascaded moving averages of `length` samples.
///
/// - long form (4 averages, GNU Radio's default): `y[n] = x[n - 2(D-1)] - M⁴x[n]`;
/// - short form (2 averages): `y[n] = x[n - (D-1)] - M²x[n]`;
///
/// where `M` is the mean of the last `D` samples. The long form has a flatter pass band;
/// both have a notch at DC whose width is about `fs / D`.
///
/// ```
/// use radioflow_dsp::DcBlocker;
/// let mut dc = DcBlocker::<f32>::new(32, true)?;
/// let x = vec![5.0f32; 500];
/// let mut y = vec![0.0; 500];
/// dc.process(&x, &mut y);
/// assert!(y[200..].iter().all(|v| v.abs() < 1e-6));
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DcBlocker<T: FirSample> {
    averages: Vec<MovingAverage<T>>,
    /// The input's delay to the averages' centre: `D-1` per two averages.
    delay: Delay<T>,
    /// Two buffers the averages pass a chunk through.
    scratch: [Vec<T>; 2],
}

impl<T: FirSample> DcBlocker<T> {
    /// A DC blocker averaging over `length` samples, long form (4 averages) or short (2).
    ///
    /// # Errors
    /// If `length` is 0.
    pub fn new(length: usize, long_form: bool) -> Result<Self, ParamError> {
        check(length > 0, "length", || "must be at least 1".into())?;
        let stages = if long_form { 4 } else { 2 };
        let averages = (0..stages)
            .map(|_| MovingAverage::new(length, 1.0 / length as f64))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            averages,
            delay: Delay::new(stages / 2 * (length - 1)),
            scratch: [vec![T::default(); CHUNK], vec![T::default(); CHUNK]],
        })
    }

    /// Removes DC from `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) {
        let output = &mut output[..input.len()];
        for (x, o) in input.chunks(CHUNK).zip(output.chunks_mut(CHUNK)) {
            let [a, b] = &mut self.scratch;
            let (a, b) = (&mut a[..x.len()], &mut b[..x.len()]);
            // x -> a -> b (-> a -> b): an even number of averages ends in b.
            self.averages[0].process(x, a);
            self.averages[1].process(a, b);
            if let [_, _, third, fourth] = &mut self.averages[..] {
                third.process(b, a);
                fourth.process(a, b);
            }
            self.delay.process(x, o);
            let oc = T::components_mut(o);
            for (o, m) in oc.iter_mut().zip(T::components(b)) {
                *o -= m;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn equals_gnu_radios_dc_blocker_ff() {
        let x: Vec<f32> = golden_real("real").iter().map(|v| v + 3.0).collect();
        for (long, key) in [(true, "dc_blocker_long"), (false, "dc_blocker_short")] {
            let mut dc = DcBlocker::<f32>::new(32, long).unwrap();
            let mut y = vec![0.0; x.len()];
            dc.process(&x, &mut y);
            // GNU Radio's running sums are f32 (these are f64): 1e-5 of the RMS.
            assert_close_real(&y, &golden_real(key), 1e-5, key);
        }
    }

    #[test]
    fn matches_the_naive_definition() {
        let x = random_real(3, 2000);
        let d = 16;
        let mean =
            |v: &[f64], n: usize| v[n.saturating_sub(d - 1)..=n].iter().sum::<f64>() / d as f64;
        let mut m: Vec<f64> = x.iter().map(|&v| v.into()).collect();
        let mut long = Vec::new();
        for stage in 0..4 {
            m = (0..m.len()).map(|n| mean(&m, n)).collect();
            if stage == 1 {
                long = m.clone();
            }
        }
        let at = |n: usize, back: usize| {
            if n >= back {
                f64::from(x[n - back])
            } else {
                0.0
            }
        };
        let mut dc = DcBlocker::<f32>::new(d, true).unwrap();
        let mut y = vec![0.0; x.len()];
        dc.process(&x, &mut y);
        for n in 0..x.len() {
            assert!(
                (f64::from(y[n]) - (at(n, 2 * (d - 1)) - m[n])).abs() < 1e-6,
                "long {n}"
            );
        }
        let mut dc = DcBlocker::<f32>::new(d, false).unwrap();
        dc.process(&x, &mut y);
        for n in 0..x.len() {
            assert!(
                (f64::from(y[n]) - (at(n, d - 1) - long[n])).abs() < 1e-6,
                "short {n}"
            );
        }
    }
}
