//! [`FrameBuilder`]: the cells of a T2 frame (ETSI EN 302 755 clause 8.3) from the cells of
//! one interleaving frame of one PLP, with L1 signalling and dummy cells, as gr-dtv's frame
//! mapper lays them out.

use crate::l1_coding::PRE_CELLS;
use crate::prbs::Prbs;
use crate::symbol_cells::SymbolCells;
use num_complex::Complex32;

/// A T2 frame's layout and its fixed cells. Each frame: in each of the N_P2 P2 symbols, its
/// share of L1-pre's cells (cells n, n + N_P2, n + 2 N_P2, ... in symbol n, clause 8.3.3),
/// then its share of L1-post's, then the stream of the frame's other cells; after the P2
/// symbols the data symbols carry the rest of that stream. The stream is the PLP's cells,
/// then dummy cells (BPSK of the scrambling sequence from its start, clause 8.3.7), then
/// zeros for the closing symbol's cells that are not active (N_FC − C_FC, at the frame's
/// end as gr-dtv puts them).
#[derive(Debug, Clone)]
pub struct FrameBuilder {
    p2_symbols: usize,
    p2_cells: usize,
    data_cells: usize,
    frame_cells: usize,
    pre: Vec<Complex32>,
    /// L1-post of each T2 frame of the super-frame (its FRAME_IDX differs).
    posts: Vec<Vec<Complex32>>,
    dummies: Vec<Complex32>,
}

/// The cells of a T2 frame do not hold its PLP's cells and L1: too many FEC blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyCells {
    /// The cells the frame has.
    pub frame: usize,
    /// The cells it needs: the PLP's, L1-pre's, L1-post's and the inactive closing cells.
    pub needed: usize,
}

impl FrameBuilder {
    /// The frames of `cells` symbols (`data_symbols` after the P2 symbols) that carry
    /// `data_cells` PLP cells, L1-pre's `pre` cells and L1-post's `posts` (one per frame of
    /// the super-frame, each of the same length, which N_P2 divides).
    ///
    /// # Errors
    /// The frame has fewer cells than it needs.
    pub(crate) fn new(
        cells: SymbolCells,
        data_symbols: usize,
        data_cells: usize,
        pre: Vec<Complex32>,
        posts: Vec<Vec<Complex32>>,
    ) -> Result<Self, TooManyCells> {
        debug_assert_eq!(pre.len(), PRE_CELLS);
        let frame_cells = cells.frame_cells(data_symbols);
        let zeros = cells.closing - cells.closing_active;
        let needed = data_cells + PRE_CELLS + posts[0].len() + zeros;
        if needed > frame_cells {
            return Err(TooManyCells {
                frame: frame_cells,
                needed,
            });
        }
        let dummies = Prbs::new()
            .take(frame_cells - needed)
            .map(|b| Complex32::new(if b == 1 { -1.0 } else { 1.0 }, 0.0))
            .collect();
        Ok(Self {
            p2_symbols: cells.p2_symbols,
            p2_cells: cells.p2,
            data_cells,
            frame_cells,
            pre,
            posts,
            dummies,
        })
    }

    /// The PLP's cells of a frame (in).
    pub fn data_cells(&self) -> usize {
        self.data_cells
    }

    /// The cells of a frame (out).
    pub fn frame_cells(&self) -> usize {
        self.frame_cells
    }

    /// T2 frames per super-frame.
    pub fn frames(&self) -> usize {
        self.posts.len()
    }

    /// Copies cells `from..from + out.len()` of the stream (PLP cells, dummies, zeros) into
    /// `out`.
    fn stream(&self, data: &[Complex32], from: usize, out: &mut [Complex32]) {
        let mut out = out;
        let mut k = from;
        for part in [data, &self.dummies[..]] {
            if k < part.len() {
                let n = (part.len() - k).min(out.len());
                let (head, tail) = out.split_at_mut(n);
                head.copy_from_slice(&part[k..k + n]);
                out = tail;
                k = 0;
            } else {
                k -= part.len();
            }
        }
        out.fill(Complex32::new(0.0, 0.0));
    }

    /// Writes T2 frame `index` of the super-frame (below [`frames`](Self::frames)) of the
    /// PLP's `data` ([`data_cells`](Self::data_cells)) into `out`
    /// ([`frame_cells`](Self::frame_cells)).
    pub fn build(&self, index: usize, data: &[Complex32], out: &mut [Complex32]) {
        debug_assert_eq!(data.len(), self.data_cells);
        debug_assert_eq!(out.len(), self.frame_cells);
        let n = self.p2_symbols;
        let post = &self.posts[index];
        let (pre_share, post_share) = (PRE_CELLS / n, post.len() / n);
        let rest = self.p2_cells - pre_share - post_share;
        let (p2, tail) = out.split_at_mut(n * self.p2_cells);
        for (s, symbol) in p2.chunks_exact_mut(self.p2_cells).enumerate() {
            let (pre_part, symbol) = symbol.split_at_mut(pre_share);
            let (post_part, rest_part) = symbol.split_at_mut(post_share);
            for (j, y) in pre_part.iter_mut().enumerate() {
                *y = self.pre[s + j * n];
            }
            for (j, y) in post_part.iter_mut().enumerate() {
                *y = post[s + j * n];
            }
            self.stream(data, s * rest, rest_part);
        }
        self.stream(data, n * rest, tail);
    }
}
