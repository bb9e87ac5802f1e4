//! [`CellInterleaver`]: DVB-T2's cell interleaver and time interleaver over one interleaving
//! frame, as gr-dtv's `dvbt2_cellinterleaver_cc` computes them.

use crate::error::SettingsError;
use num_complex::Complex32;

const BLOCK: &str = "dvbt2_cellinterleaver";

/// The most FEC blocks of an interleaving frame: L1-post's `PLP_NUM_BLOCKS_MAX` has 10 bits
/// (ETSI EN 302 755 clause 7.2.3.1).
pub const MAX_FEC_BLOCKS: usize = 1023;

/// A FEC block's cells (N_cells) and its permutation generator, by FECFRAME size and
/// constellation (ETSI EN 302 755 clause 6.4, tables 10 and 11): cells, the register's degree
/// N_r, and the register's taps whose XOR feeds its top bit.
fn generator(
    frame: &str,
    constellation: &str,
) -> Result<(usize, u32, &'static [u32]), SettingsError> {
    const TAPS_11: &[u32] = &[0, 3];
    const TAPS_12: &[u32] = &[0, 2];
    const TAPS_13: &[u32] = &[0, 1, 4, 6];
    const TAPS_14: &[u32] = &[0, 1, 4, 5, 9, 11];
    const TAPS_15: &[u32] = &[0, 1, 2, 12];
    let normal = match frame {
        "normal" => true,
        "short" => false,
        _ => {
            return Err(SettingsError::param(
                BLOCK,
                "framesize",
                format!("must be normal or short, not {frame:?}"),
            ))
        }
    };
    Ok(match (normal, constellation) {
        (true, "qpsk") => (32400, 15, TAPS_15),
        (true, "16qam") => (16200, 14, TAPS_14),
        (true, "64qam") => (10800, 14, TAPS_14),
        (true, "256qam") => (8100, 13, TAPS_13),
        (false, "qpsk") => (8100, 13, TAPS_13),
        (false, "16qam") => (4050, 12, TAPS_12),
        (false, "64qam") => (2700, 12, TAPS_12),
        (false, "256qam") => (2025, 11, TAPS_11),
        _ => {
            return Err(SettingsError::param(
                BLOCK,
                "constellation",
                format!("must be qpsk, 16qam, 64qam or 256qam, not {constellation:?}"),
            ))
        }
    })
}

/// The pseudo-random permutation of a FEC block's cells (clause 6.4): the register's states
/// with the alternating top bit, those below `cells` kept, in order.
fn permutation(cells: usize, degree: u32, taps: &[u32]) -> Vec<u32> {
    let mask = (1u32 << (degree - 1)) - 1;
    let mut lfsr = 0u32;
    let mut out = Vec::with_capacity(cells);
    for i in 0..1u32 << degree {
        if i < 2 {
            lfsr = 0;
        } else if i == 2 {
            lfsr = 1;
        } else {
            let feedback = taps.iter().fold(0, |a, &t| a ^ ((lfsr >> t) & 1));
            lfsr = ((lfsr & mask) >> 1) | (feedback << (degree - 2));
        }
        lfsr |= (i % 2) << (degree - 1);
        if (lfsr as usize) < cells {
            out.push(lfsr);
        }
    }
    out
}

/// The cyclic shift of the permutation for FEC block `r` of a TI block: gr-dtv takes the
/// first counter value n >= r's whose N_r bits reversed, times two, fall below the block's
/// cells (gr-dtv's register; the counter carries on from the block before).
fn shifts(blocks: usize, cells: usize, degree: u32) -> Vec<usize> {
    let mut n = 0usize;
    (0..blocks)
        .map(|_| loop {
            let reversed = (0..degree).fold(0usize, |a, p| (a | ((n >> p) & 1)) << 1);
            n += 1;
            if reversed < cells {
                break reversed;
            }
        })
        .collect()
}

/// DVB-T2's cell interleaver and time interleaver (ETSI EN 302 755 clauses 6.4 and 6.5) as
/// gr-dtv's `dvbt2_cellinterleaver_cc`: an interleaving frame of `fecblocks` FEC blocks cut
/// into `tiblocks` TI blocks (the first `tiblocks - fecblocks % tiblocks` of
/// ⌊fecblocks/tiblocks⌋ FEC blocks, the rest of one more); each FEC block's cells permuted
/// pseudo-randomly with a shift per FEC block of its TI block; each TI block written into the
/// columns of a matrix of N_cells/5 rows and read by rows. `tiblocks` 0 turns the time
/// interleaver off (each FEC block its own TI block, unshifted, read as written).
#[derive(Debug, Clone)]
pub struct CellInterleaver {
    cells: usize,
    fec_blocks: usize,
    time_interleave: bool,
    permutation: Vec<u32>,
    /// FEC blocks of each TI block.
    ti_blocks: Vec<usize>,
    /// The shift of each FEC block of the largest TI block.
    shifts: Vec<usize>,
    /// The frame after the cell interleaver.
    scratch: Vec<Complex32>,
}

impl CellInterleaver {
    /// The interleaver of FEC blocks of `frame` (`normal`: 64800 bits, `short`: 16200) mapped
    /// to `constellation` (`qpsk`, `16qam`, `64qam`, `256qam`), `fecblocks` of them per
    /// interleaving frame in `tiblocks` TI blocks (0: no time interleaving). More TI blocks
    /// than FEC blocks are taken as gr-dtv takes them: the first TI blocks have none.
    ///
    /// # Errors
    /// An unknown frame size or constellation, `fecblocks` 0 or above [`MAX_FEC_BLOCKS`].
    pub fn new(
        frame: &str,
        constellation: &str,
        fecblocks: usize,
        tiblocks: usize,
    ) -> Result<Self, SettingsError> {
        let (cells, degree, taps) = generator(frame, constellation)?;
        if fecblocks == 0 || fecblocks > MAX_FEC_BLOCKS {
            return Err(SettingsError::param(
                BLOCK,
                "fecblocks",
                format!(
                    "{fecblocks}: an interleaving frame has 1 to {MAX_FEC_BLOCKS} FEC blocks \
                     (ETSI EN 302 755 PLP_NUM_BLOCKS_MAX, 10 bits)"
                ),
            ));
        }
        let ti_blocks: Vec<usize> = match fecblocks.checked_div(tiblocks) {
            None => vec![1; fecblocks],
            Some(small) => {
                let big = fecblocks % tiblocks;
                let mut v = vec![small; tiblocks - big];
                v.extend(std::iter::repeat_n(small + 1, big));
                v
            }
        };
        let largest = ti_blocks.iter().copied().max().unwrap_or(1);
        let permutation = permutation(cells, degree, taps);
        debug_assert_eq!(permutation.len(), cells);
        Ok(Self {
            cells,
            fec_blocks: fecblocks,
            time_interleave: tiblocks != 0,
            permutation,
            ti_blocks,
            shifts: shifts(largest, cells, degree),
            scratch: vec![Complex32::new(0.0, 0.0); cells * fecblocks],
        })
    }

    /// The cells of a FEC block (N_cells).
    pub fn fec_block_cells(&self) -> usize {
        self.cells
    }

    /// The cells of an interleaving frame, in and out of [`interleave`](Self::interleave).
    pub fn frame_cells(&self) -> usize {
        self.cells * self.fec_blocks
    }

    /// Interleaves one frame: `input` and `output` are [`frame_cells`](Self::frame_cells)
    /// long.
    ///
    /// # Panics
    /// If either is not.
    pub fn interleave(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        let (cells, frame) = (self.cells, self.frame_cells());
        assert!(
            input.len() == frame && output.len() == frame,
            "a frame is {frame} cells"
        );
        let mut fec = input.chunks_exact(cells);
        let mut at = 0;
        for &blocks in &self.ti_blocks {
            for &shift in &self.shifts[..blocks] {
                let block = &mut self.scratch[at..][..cells];
                for (&p, &x) in self
                    .permutation
                    .iter()
                    .zip(fec.next().into_iter().flatten())
                {
                    block[(p as usize + shift) % cells] = x;
                }
                at += cells;
            }
        }
        if !self.time_interleave {
            output.copy_from_slice(&self.scratch);
            return;
        }
        let rows = cells / 5;
        let mut at = 0;
        for &blocks in &self.ti_blocks {
            let cols = 5 * blocks;
            let ti = &self.scratch[at..][..rows * cols];
            let out = &mut output[at..][..rows * cols];
            if cols == 0 {
                continue;
            }
            for (k, row) in out.chunks_exact_mut(cols).enumerate() {
                for (w, y) in row.iter_mut().enumerate() {
                    *y = ti[rows * w + k];
                }
            }
            at += rows * cols;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_permutation_is_one() {
        for frame in ["normal", "short"] {
            for c in ["qpsk", "16qam", "64qam", "256qam"] {
                let (cells, degree, taps) = generator(frame, c).unwrap();
                let mut p = permutation(cells, degree, taps);
                assert_eq!(p.len(), cells, "{frame} {c}");
                p.sort_unstable();
                assert!(
                    p.iter().enumerate().all(|(i, &v)| v as usize == i),
                    "{frame} {c}"
                );
            }
        }
    }

    #[test]
    fn without_time_interleaving_each_block_is_permuted_alone() {
        let mut ci = CellInterleaver::new("short", "256qam", 3, 0).unwrap();
        let n = ci.frame_cells();
        let x: Vec<Complex32> = (0..n).map(|k| Complex32::new(k as f32, 0.0)).collect();
        let mut y = vec![Complex32::new(0.0, 0.0); n];
        ci.interleave(&x, &mut y);
        for (b, block) in y.chunks(2025).enumerate() {
            for (i, &p) in ci.permutation.iter().enumerate() {
                assert_eq!(block[p as usize].re as usize, b * 2025 + i);
            }
        }
    }

    #[test]
    fn refusals_name_the_parameter() {
        let e = CellInterleaver::new("medium", "qpsk", 1, 1).unwrap_err();
        assert!(e.message.contains("framesize"), "{e}");
        let e = CellInterleaver::new("short", "8psk", 1, 1).unwrap_err();
        assert!(e.message.contains("constellation"), "{e}");
        let e = CellInterleaver::new("short", "qpsk", 0, 0).unwrap_err();
        assert!(e.message.starts_with("fecblocks"), "{e}");
    }
}
