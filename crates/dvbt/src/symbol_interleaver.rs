//! The symbol interleaver (ETSI EN 300 744 clause 4.3.4.2): the permutation H(q) of a
//! symbol's N_max data carriers, from an N_r - 1 bit PRBS R' whose bits are permuted into R
//! (the standard's bit permutation tables for 2K and 8K), with a toggling top bit, and the
//! values of H kept below N_max.

use crate::params::Mode;

/// H(q) for q in 0..N_max: even OFDM symbols send y_H(q) = y'_q, odd ones y_q = y'_H(q).
pub fn permutation(mode: Mode) -> Vec<usize> {
    // (N_r, the R' bits XORed into the new bit, R' bit i → R bit perm[i]).
    let (nr, taps, perm): (u32, &[u32], &[u32]) = match mode {
        Mode::T2k => (11, &[0, 3], &[4, 3, 9, 6, 2, 8, 1, 5, 7, 0]),
        Mode::T8k => (13, &[0, 1, 4, 6], &[7, 1, 4, 2, 9, 6, 8, 10, 0, 3, 11, 5]),
    };
    let m_max = mode.fft_len();
    let n_max = mode.payload();
    let mut h = Vec::with_capacity(n_max);
    let mut r_prime: u32 = 0;
    for i in 0..m_max {
        r_prime = match i {
            0 | 1 => 0,
            2 => 1,
            _ => {
                let bit = taps.iter().fold(0, |b, &t| b ^ (r_prime >> t)) & 1;
                (r_prime >> 1) | (bit << (nr - 2))
            }
        };
        let r = (0..nr - 1).fold(0, |r, k| r | (((r_prime >> k) & 1) << perm[k as usize]));
        let value = ((i as u32 % 2) << (nr - 1)) + r;
        if (value as usize) < n_max {
            h.push(value as usize);
        }
    }
    debug_assert_eq!(h.len(), n_max);
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h_is_a_permutation_of_the_data_carriers() {
        for mode in [Mode::T2k, Mode::T8k] {
            let mut h = permutation(mode);
            assert_eq!(h.len(), mode.payload());
            // Clause 4.3.4.2's first values: R'_2 = 1 gives R with bit perm[0] set.
            let first = h[..2].to_vec();
            h.sort_unstable();
            assert!(h.iter().enumerate().all(|(q, &x)| q == x), "{mode:?}");
            assert_eq!(first[0], 0, "{mode:?}: H(0) = 0");
        }
    }
}
