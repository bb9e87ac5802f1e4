//! [`integrate`]: sums of consecutive groups of samples.

use crate::arith::Arith;

/// `output[i] = Σ_{j<decim} input[i·decim + j]`, summed from zero in the item type (floats
/// round at every step, integers wrap), as GNU Radio's `integrate_xx` computes it, for every
/// whole group of `input`; returns how many outputs were written (`input.len() / decim`, at
/// most `output.len()`).
///
/// ```
/// let mut y = [0i32; 2];
/// assert_eq!(radioflow_dsp::integrate(&[1, 2, 3, 4, 5, 6, 7], 3, &mut y), 2);
/// assert_eq!(y, [6, 15]);
/// ```
///
/// # Panics
/// If `decim` is 0.
pub fn integrate<T: Arith + Default>(input: &[T], decim: usize, output: &mut [T]) -> usize {
    assert!(decim > 0, "integrate over groups of 0 samples");
    let n = (input.len() / decim).min(output.len());
    for (o, group) in output.iter_mut().zip(input.chunks_exact(decim)).take(n) {
        *o = group.iter().fold(T::default(), |s, &v| s.add(v));
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::random_real;

    #[test]
    fn each_output_is_its_group_summed_in_order() {
        let x = random_real(3, 1001);
        for decim in [1, 2, 7, 1001, 1002] {
            let mut y = vec![0.0f32; 2000];
            let n = integrate(&x, decim, &mut y);
            assert_eq!(n, x.len() / decim);
            for (i, v) in y[..n].iter().enumerate() {
                let mut s = 0.0f32;
                for k in 0..decim {
                    s += x[i * decim + k];
                }
                assert_eq!(v.to_bits(), s.to_bits(), "decim {decim}, output {i}");
            }
        }
        let mut y = [0i16; 1];
        assert_eq!(integrate(&[i16::MAX, 1, 5], 2, &mut y), 1);
        assert_eq!(y, [i16::MIN]);
        assert_eq!(
            integrate(&[1i16, 2, 3, 4], 1, &mut y),
            1,
            "output room first"
        );
    }
}
