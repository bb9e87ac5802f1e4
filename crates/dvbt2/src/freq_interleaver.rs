//! [`FreqInterleaver`]: DVB-T2's frequency interleaver over the symbols of a T2 frame, as
//! gr-dtv's `dvbt2_freqinterleaver_cc` computes it.

use crate::params::FftSize;
use crate::symbol_cells::SymbolCells;
use num_complex::Complex32;

/// The address generator of FFT size `fft` (ETSI EN 302 755 clause 6.6.2): the register's
/// degree N_r - 1, its taps, and the bit permutations of even and odd symbols (tables 28 and
/// 29: where bit j of the register goes).
fn generator(fft: FftSize) -> (u32, &'static [u32], [&'static [u32]; 2]) {
    use FftSize::*;
    match fft {
        K1 => (
            9,
            &[0, 4],
            [&[8, 7, 6, 5, 0, 1, 2, 3, 4], &[6, 8, 7, 4, 1, 0, 5, 2, 3]],
        ),
        K2 => (
            10,
            &[0, 3],
            [
                &[4, 3, 9, 6, 2, 8, 1, 5, 7, 0],
                &[6, 9, 4, 8, 5, 1, 0, 7, 2, 3],
            ],
        ),
        K4 => (
            11,
            &[0, 2],
            [
                &[6, 3, 0, 9, 4, 2, 1, 8, 5, 10, 7],
                &[5, 9, 1, 4, 3, 0, 8, 10, 7, 2, 6],
            ],
        ),
        K8 => (
            12,
            &[0, 1, 4, 6],
            [
                &[7, 1, 4, 2, 9, 6, 8, 10, 0, 3, 11, 5],
                &[11, 4, 9, 3, 1, 2, 5, 0, 6, 7, 10, 8],
            ],
        ),
        K16 => (
            13,
            &[0, 1, 4, 5, 9, 11],
            [
                &[9, 7, 6, 10, 12, 5, 1, 11, 0, 2, 3, 4, 8],
                &[6, 8, 10, 12, 2, 0, 4, 1, 11, 3, 5, 9, 7],
            ],
        ),
        K32 => {
            const P: &[u32] = &[7, 13, 3, 4, 9, 2, 12, 11, 1, 8, 10, 0, 5, 6];
            (14, &[0, 1, 2, 12], [P, P])
        }
    }
}

/// The even and odd symbols' permutations H(q) of a symbol of `cells` cells: output cell q
/// is input cell H(q). 32K has one permutation (clause 6.6.2): odd symbols read by it, even
/// symbols written by it (its inverse).
fn permutations(fft: FftSize, cells: usize) -> [Vec<u32>; 2] {
    let (degree, taps, bits) = generator(fft);
    let half = 1u32 << degree;
    let mut h = [Vec::with_capacity(cells), Vec::with_capacity(cells)];
    let mut r = 0u32;
    for i in 0..2 * half {
        if i < 2 {
            r = 0;
        } else if i == 2 {
            r = 1;
        } else {
            let feedback = taps.iter().fold(0, |a, &t| a ^ ((r >> t) & 1));
            r = (r >> 1) | (feedback << (degree - 1));
        }
        for (h, bits) in h.iter_mut().zip(bits) {
            let permuted = (0..degree).fold(0, |a, j| a | (((r >> j) & 1) << bits[j as usize]));
            let q = permuted + (i % 2) * half;
            if (q as usize) < cells {
                h.push(q);
            }
        }
    }
    if fft == FftSize::K32 {
        let [even, odd] = &mut h;
        for (j, &a) in odd.iter().enumerate() {
            even[a as usize] = j as u32;
        }
    }
    h
}

/// DVB-T2's frequency interleaver (ETSI EN 302 755 clause 6.6) as gr-dtv's
/// `dvbt2_freqinterleaver_cc`: the cells of each OFDM symbol of a T2 frame (P2 symbols, data
/// symbols, the frame closing symbol) permuted, by the even symbols' permutation or the odd
/// symbols' by the symbol's index in the frame.
#[derive(Debug, Clone)]
pub struct FreqInterleaver {
    cells: SymbolCells,
    data_symbols: usize,
    /// Even and odd permutations of P2, data and closing symbols.
    p2: [Vec<u32>; 2],
    data: [Vec<u32>; 2],
    closing: [Vec<u32>; 2],
}

impl FreqInterleaver {
    /// The interleaver of T2 frames of `data_symbols` data symbols (the closing symbol among
    /// them) whose symbols carry `cells`.
    ///
    /// # Panics
    /// If `data_symbols` is 0.
    pub fn new(fft: FftSize, cells: SymbolCells, data_symbols: usize) -> Self {
        assert!(data_symbols > 0, "a T2 frame has data symbols");
        Self {
            cells,
            data_symbols,
            p2: permutations(fft, cells.p2),
            data: permutations(fft, cells.data),
            closing: permutations(fft, cells.closing),
        }
    }

    /// The cells of a T2 frame, in and out of [`interleave`](Self::interleave).
    pub fn frame_cells(&self) -> usize {
        self.cells.frame_cells(self.data_symbols)
    }

    /// Interleaves one T2 frame: `input` and `output` are [`frame_cells`](Self::frame_cells)
    /// long.
    ///
    /// # Panics
    /// If either is not.
    pub fn interleave(&self, input: &[Complex32], output: &mut [Complex32]) {
        let frame = self.frame_cells();
        assert!(
            input.len() == frame && output.len() == frame,
            "a T2 frame is {frame} cells"
        );
        let c = &self.cells;
        let plain = if c.closing == 0 {
            self.data_symbols
        } else {
            self.data_symbols - 1
        };
        let symbols = std::iter::repeat_n(&self.p2, c.p2_symbols)
            .chain(std::iter::repeat_n(&self.data, plain))
            .chain(std::iter::repeat_n(
                &self.closing,
                usize::from(c.closing != 0),
            ));
        let mut at = 0;
        for (l, h) in symbols.enumerate() {
            let h = &h[l % 2];
            let (x, y) = (&input[at..][..h.len()], &mut output[at..][..h.len()]);
            for (y, &q) in y.iter_mut().zip(h) {
                *y = x[q as usize];
            }
            at += h.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_permutation_is_one() {
        use FftSize::*;
        for fft in [K1, K2, K4, K8, K16, K32] {
            for cells in [500, 1 << (fft.log2() - 1), (3 << fft.log2()) / 4] {
                for mut h in permutations(fft, cells) {
                    assert_eq!(h.len(), cells, "{fft:?} {cells}");
                    h.sort_unstable();
                    assert!(h.iter().enumerate().all(|(i, &v)| v as usize == i));
                }
            }
        }
    }
}
