//! [`ComplexFir`]: a streaming FIR with complex taps on complex samples.

use crate::error::{check, ParamError};
use crate::history::{History, CHUNK};
use num_complex::Complex32;

/// A streaming FIR with complex taps on complex samples, as GNU Radio's `fir_filter_ccc`
/// (decimation 1): `y[n] = Σ_k taps[k] · x[n - k]`, from zero history. Taps can be changed
/// between calls ([`set_taps`](Self::set_taps)); the filter then starts from the last
/// `taps - 1` inputs seen, as many as the old taps kept (zeros before them; GNU Radio reads
/// further back in its buffer where the new taps are longer).
///
/// ```
/// use radioflow_dsp::ComplexFir;
/// use num_complex::Complex32;
/// let j = Complex32::new(0.0, 1.0);
/// let mut fir = ComplexFir::new(&[Complex32::new(1.0, 0.0), j])?;
/// let x = [Complex32::new(1.0, 0.0), Complex32::new(2.0, 0.0)];
/// let mut y = [Complex32::default(); 2];
/// assert_eq!(fir.process(&x, &mut y), 2);
/// assert_eq!(y, [Complex32::new(1.0, 0.0), Complex32::new(2.0, 1.0)]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ComplexFir {
    /// The taps reversed, so an output is a dot product with the window in time order.
    reversed: Vec<Complex32>,
    /// The last `taps - 1` inputs, then the inputs being filtered.
    history: History<Complex32>,
}

impl ComplexFir {
    /// A filter with `taps`, its history zeros.
    ///
    /// # Errors
    /// If `taps` is empty.
    pub fn new(taps: &[Complex32]) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "needs at least one tap".into())?;
        Ok(Self {
            reversed: taps.iter().rev().copied().collect(),
            history: History::new(taps.len() - 1, CHUNK),
        })
    }

    /// The taps.
    pub fn taps(&self) -> impl Iterator<Item = Complex32> + '_ {
        self.reversed.iter().rev().copied()
    }

    /// Filters with `taps` from the next sample on; the last inputs seen stay the history
    /// (zeros where there were fewer).
    ///
    /// # Errors
    /// If `taps` is empty; the taps stay as they were.
    pub fn set_taps(&mut self, taps: &[Complex32]) -> Result<(), ParamError> {
        let mut next = Self::new(taps)?;
        let old = self.history.pending();
        let keep = old.len().min(taps.len() - 1);
        // Zeros, then the last `keep` inputs seen.
        next.history.advance(keep);
        next.history.extend(&old[old.len() - keep..]);
        *self = next;
        Ok(())
    }

    /// Filters `input` into `output` (the shorter of the two); returns how many.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> usize {
        let n = input.len().min(output.len());
        let len = self.reversed.len();
        let mut done = 0;
        while done < n {
            let took = self.history.extend(&input[done..n]);
            let window = self.history.pending();
            for (o, w) in output[done..done + took]
                .iter_mut()
                .zip(window.windows(len))
            {
                *o = w.iter().zip(&self.reversed).map(|(x, t)| x * t).sum();
            }
            self.history.advance(took);
            done += took;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::random_complex;

    fn naive(taps: &[Complex32], x: &[Complex32]) -> Vec<Complex32> {
        (0..x.len())
            .map(|n| {
                (0..taps.len())
                    .filter(|&k| k <= n)
                    .map(|k| taps[k] * x[n - k])
                    .sum()
            })
            .collect()
    }

    #[test]
    fn equals_the_definition_whatever_the_calls() {
        let taps = random_complex(1, 13);
        let x = random_complex(2, 9000);
        let want = naive(&taps, &x);
        for step in [1, 7, 4096, 9000] {
            let mut fir = ComplexFir::new(&taps).unwrap();
            let mut got = vec![Complex32::default(); x.len()];
            for (i, o) in x.chunks(step).zip(got.chunks_mut(step)) {
                assert_eq!(fir.process(i, o), i.len());
            }
            for (n, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!((g - w).norm() < 1e-5, "step {step} at {n}: {g} vs {w}");
            }
        }
    }

    #[test]
    fn new_taps_filter_the_samples_already_seen() {
        let x = random_complex(3, 40);
        let (a, b) = (random_complex(4, 3), random_complex(5, 6));
        let mut fir = ComplexFir::new(&a).unwrap();
        let mut y = vec![Complex32::default(); 40];
        fir.process(&x[..20], &mut y[..20]);
        fir.set_taps(&b).unwrap();
        fir.process(&x[20..], &mut y[20..]);
        // After the change: b over the last 5 inputs of which only 2 were kept (a's history
        // was 2 long), zeros before them.
        let mut seen = vec![Complex32::default(); 20];
        seen[18..].copy_from_slice(&x[18..20]);
        seen.extend_from_slice(&x[20..]);
        let want = naive(&b, &seen);
        for n in 20..40 {
            assert!((y[n] - want[n]).norm() < 1e-5, "{n}");
        }
        assert!(fir.set_taps(&[]).is_err());
        assert_eq!(fir.taps().count(), 6);
    }
}
