//! Test reference: flooding normalized/offset min-sum in f64 over H written out row by row from
//! clause 5.3.2, and the checks of H.

use crate::ldpc::{rows, table};
use crate::modcod::FecParams;

/// The rows of H as lists of FECFRAME bit indices.
pub(crate) fn h_rows(fec: &FecParams) -> Vec<Vec<usize>> {
    let k = fec.kldpc();
    let m = fec.nldpc - k;
    let q = m / 360;
    let mut h: Vec<Vec<usize>> = (0..m)
        .map(|j| {
            if j == 0 {
                vec![k]
            } else {
                vec![k + j, k + j - 1]
            }
        })
        .collect();
    for (r, row) in rows(table(fec.frame, fec.rate)).enumerate() {
        for mm in 0..360 {
            for &x in row {
                h[(usize::from(x) + mm * q) % m].push(r * 360 + mm);
            }
        }
    }
    h
}

/// H·c = 0.
pub(crate) fn satisfies(h: &[Vec<usize>], bits: &[u8]) -> bool {
    h.iter()
        .all(|row| row.iter().fold(0u8, |a, &i| a ^ bits[i]) == 0)
}

/// Flooding min-sum with normalization `alpha` and offset `beta` (magnitudes
/// max(alpha · min − beta, 0)): returns the hard decisions and whether they satisfy H within
/// `max_iterations`.
pub(crate) fn flooding_min_sum(
    h: &[Vec<usize>],
    llr: &[f64],
    max_iterations: usize,
    alpha: f64,
    beta: f64,
) -> (Vec<u8>, bool) {
    // Check-to-variable messages, per row per edge.
    let mut c2v: Vec<Vec<f64>> = h.iter().map(|r| vec![0.0; r.len()]).collect();
    let mut post = llr.to_vec();
    let decide = |post: &[f64]| post.iter().map(|&v| u8::from(v < 0.0)).collect::<Vec<u8>>();
    let mut bits = decide(&post);
    if satisfies(h, &bits) {
        return (bits, true);
    }
    for _ in 0..max_iterations {
        for (row, msgs) in h.iter().zip(c2v.iter_mut()) {
            // Variable-to-check: posterior minus this check's own message.
            let v2c: Vec<f64> = row
                .iter()
                .zip(msgs.iter())
                .map(|(&i, &m)| post[i] - m)
                .collect();
            for (e, m) in msgs.iter_mut().enumerate() {
                let mut sign = 1.0;
                let mut min = f64::INFINITY;
                for (f, &x) in v2c.iter().enumerate() {
                    if f != e {
                        if x < 0.0 {
                            sign = -sign;
                        }
                        min = min.min(x.abs());
                    }
                }
                *m = sign * (alpha * min - beta).max(0.0);
            }
        }
        post.copy_from_slice(llr);
        for (row, msgs) in h.iter().zip(&c2v) {
            for (&i, &m) in row.iter().zip(msgs) {
                post[i] += m;
            }
        }
        bits = decide(&post);
        if satisfies(h, &bits) {
            return (bits, true);
        }
    }
    (bits, false)
}
