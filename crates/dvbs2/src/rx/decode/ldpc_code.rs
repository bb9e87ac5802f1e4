//! The DVB-S2 LDPC codes as quasi-cyclic layers of 360 checks (clause 5.3.2, Annexes B, C).
//!
//! With q = (Nldpc − Kldpc)/360, check j = c + q·k (c < q, k < 360) is row k of layer c.
//! Information bit 360·r + m with table address x = c + q·s is in check c + q·((s + m) mod 360):
//! layer c, row (m + s) mod 360 — a 360×360 circulant with shift s. Parity bit p_j, stored in
//! parity block c at position k, is in check j (layer c, shift 0) and in check j + 1: layer
//! c + 1 with shift 0 for c < q − 1, layer 0 with shift 1 for c = q − 1, where row 0 has no
//! edge (check 0 holds p_0 only; the "hole"). A layer may hold two circulants of the same
//! information block (different shifts); the decoder adds both updates.

use std::ops::Range;

use crate::ldpc::{rows, table};
use crate::modcod::{CodeRate, FecParams, FrameSize, ModcodError};

/// The circulant size of every DVB-S2 LDPC code.
pub(crate) const Z: usize = 360;

/// A 360×360 circulant block of H: layer row k is connected to variable
/// `block · 360 + (k − shift) mod 360`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    /// Variable block: information blocks 0..Kldpc/360, then q parity blocks.
    pub(crate) block: u16,
    /// Circulant shift, 0..360.
    pub(crate) shift: u16,
    /// Row 0 of this circulant is absent (the p_{−1} position of check 0).
    pub(crate) hole: bool,
}

/// One LDPC code's layered structure, built from the Annex B/C tables.
#[derive(Debug, Clone)]
pub struct LdpcCode {
    fec: FecParams,
    /// q of clause 5.3.2.
    q: usize,
    edges: Vec<Edge>,
    /// `edges[layers[c]]` are the circulants of layer c.
    layers: Vec<Range<usize>>,
    max_degree: usize,
}

impl LdpcCode {
    /// The code of `rate` in `frame`.
    ///
    /// # Errors
    /// [`ModcodError::UndefinedForShortFrame`] for 9/10 short.
    pub fn new(frame: FrameSize, rate: CodeRate) -> Result<Self, ModcodError> {
        let fec = FecParams::new(frame, rate)?;
        let q = (fec.nldpc - fec.kldpc()) / Z;
        let kb = fec.kldpc() / Z;
        let tab = table(frame, rate);
        let mut edges = Vec::new();
        let mut layers = Vec::with_capacity(q);
        for c in 0..q {
            let start = edges.len();
            let mut push = |block: usize, shift: usize, hole: bool| {
                edges.push(Edge {
                    block: block as u16,
                    shift: shift as u16,
                    hole,
                });
            };
            for (r, row) in rows(tab).enumerate() {
                for &x in row {
                    let x = usize::from(x);
                    if x % q == c {
                        push(r, x / q, false);
                    }
                }
            }
            push(kb + c, 0, false);
            if c > 0 {
                push(kb + c - 1, 0, false);
            } else {
                push(kb + q - 1, 1, true);
            }
            layers.push(start..edges.len());
        }
        let max_degree = layers.iter().map(|l| l.len()).max().unwrap_or(0);
        Ok(LdpcCode {
            fec,
            q,
            edges,
            layers,
            max_degree,
        })
    }

    /// The FEC parameters of the code.
    pub fn fec(&self) -> &FecParams {
        &self.fec
    }

    /// Variable blocks of 360: Kldpc/360 information blocks, then q parity blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.fec.nldpc / Z
    }

    pub(crate) fn q(&self) -> usize {
        self.q
    }

    pub(crate) fn edges(&self) -> &[Edge] {
        &self.edges
    }

    pub(crate) fn layers(&self) -> &[Range<usize>] {
        &self.layers
    }

    /// The largest check degree (circulants per layer).
    pub(crate) fn max_degree(&self) -> usize {
        self.max_degree
    }

    /// Index in the decoder's variable layout of FECFRAME bit `i`: information bits in place,
    /// parity bit p_{c + q·k} at `Kldpc + c·360 + k`.
    #[inline]
    pub(crate) fn position(&self, i: usize) -> usize {
        let k = self.fec.kldpc();
        if i < k {
            i
        } else {
            let j = i - k;
            k + (j % self.q) * Z + j / self.q
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_row_has_the_edges_of_clause_5_3_2() {
        // Count each check's edges from the layers and compare with H written out directly.
        for frame in [FrameSize::Normal, FrameSize::Short] {
            for rate in CodeRate::ALL {
                let Ok(code) = LdpcCode::new(frame, rate) else {
                    continue;
                };
                let fec = code.fec;
                let m = fec.nldpc - fec.kldpc();
                let q = code.q;
                let mut direct: Vec<Vec<usize>> = (0..m)
                    .map(|j| {
                        let mut v = vec![fec.kldpc() + j];
                        if j > 0 {
                            v.push(fec.kldpc() + j - 1);
                        }
                        v
                    })
                    .collect();
                for (r, row) in rows(table(frame, rate)).enumerate() {
                    for mm in 0..Z {
                        for &x in row {
                            direct[(usize::from(x) + mm * q) % m].push(r * Z + mm);
                        }
                    }
                }
                // Map FECFRAME bits to the decoder layout to compare.
                let mut from_layers: Vec<Vec<usize>> = vec![Vec::new(); m];
                for (c, layer) in code.layers.iter().enumerate() {
                    for e in &code.edges[layer.clone()] {
                        for k in 0..Z {
                            if e.hole && k == 0 {
                                continue;
                            }
                            let var = usize::from(e.block) * Z + (k + Z - usize::from(e.shift)) % Z;
                            from_layers[c + q * k].push(var);
                        }
                    }
                }
                for (j, (d, l)) in direct.iter().zip(&from_layers).enumerate() {
                    let mut d: Vec<usize> = d.iter().map(|&i| code.position(i)).collect();
                    let mut l = l.clone();
                    d.sort_unstable();
                    l.sort_unstable();
                    assert_eq!(d, l, "{frame:?} {rate} check {j}");
                }
            }
        }
    }
}
