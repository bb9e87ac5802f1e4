//! The outer interleaver (ETSI EN 300 744 clause 4.3.2, figure 4): Forney's convolutional
//! interleaver of I branches and its deinterleaver, one kernel for both directions.

/// I branches, each a FIFO of bytes: byte j of each run of I goes through branch j. The
/// interleaver's branch j delays by j · M bytes, the deinterleaver's by (I - 1 - j) · M, so
/// that every byte is delayed (I - 1) · M runs through both (figure 4). The FIFOs hold zeros
/// at first.
#[derive(Debug, Clone)]
pub(crate) struct OuterInterleaver {
    /// Branch j's FIFO, a ring read and written at `heads[j]` (empty: no delay).
    fifos: Vec<Vec<u8>>,
    heads: Vec<usize>,
}

impl OuterInterleaver {
    /// The interleaver of `i` branches, branch j of `j · m` bytes.
    pub(crate) fn interleaver(i: usize, m: usize) -> Self {
        Self::with_delays((0..i).map(|j| j * m))
    }

    /// The deinterleaver of `i` branches, branch j of `(i - 1 - j) · m` bytes.
    pub(crate) fn deinterleaver(i: usize, m: usize) -> Self {
        Self::with_delays((0..i).rev().map(|j| j * m))
    }

    fn with_delays(delays: impl Iterator<Item = usize>) -> Self {
        let fifos: Vec<Vec<u8>> = delays.map(|d| vec![0u8; d]).collect();
        let heads = vec![0; fifos.len()];
        Self { fifos, heads }
    }

    /// The number of branches, I.
    pub(crate) fn branches(&self) -> usize {
        self.fifos.len()
    }

    /// Passes `input` through the branches, its byte k through branch k mod I, into `output`.
    ///
    /// # Panics
    /// `input` and `output` of different lengths, or not a multiple of I long.
    pub(crate) fn run(&mut self, input: &[u8], output: &mut [u8]) {
        let branches = self.fifos.len();
        assert_eq!(input.len(), output.len());
        assert_eq!(input.len() % branches, 0);
        for (i, o) in input
            .chunks_exact(branches)
            .zip(output.chunks_exact_mut(branches))
        {
            for ((&x, y), (fifo, h)) in i
                .iter()
                .zip(o.iter_mut())
                .zip(self.fifos.iter_mut().zip(&mut self.heads))
            {
                if fifo.is_empty() {
                    *y = x;
                } else {
                    *y = std::mem::replace(&mut fifo[*h], x);
                    *h = if *h + 1 == fifo.len() { 0 } else { *h + 1 };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deinterleaver_undoes_the_interleaver_after_its_delay() {
        // I = 12, M = 17: every byte comes out (I - 1) · M · I = 2244 bytes late.
        let (i, m) = (12, 17);
        let delay = (i - 1) * m * i;
        let data: Vec<u8> = (0..4 * delay).map(|k| (k * 31 + k / 7) as u8).collect();
        let mut tx = OuterInterleaver::interleaver(i, m);
        let mut rx = OuterInterleaver::deinterleaver(i, m);
        let mut mid = vec![0u8; data.len()];
        let mut out = vec![0u8; data.len()];
        // In pieces of different lengths: the state carries over.
        for (a, b) in [(0, 24), (24, 1200), (1200, data.len())] {
            tx.run(&data[a..b], &mut mid[a..b]);
        }
        rx.run(&mid, &mut out);
        assert!(out[..delay].iter().all(|&b| b == 0));
        assert_eq!(out[delay..], data[..data.len() - delay]);
    }

    #[test]
    fn branch_delays_are_figure_4_s() {
        // Three branches of M = 2: the interleaver's branch j delays j · 2 runs.
        let mut tx = OuterInterleaver::interleaver(3, 2);
        let mut out = [0u8; 12];
        tx.run(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], &mut out);
        assert_eq!(out, [1, 0, 0, 4, 0, 0, 7, 2, 0, 10, 5, 0]);
        let mut rx = OuterInterleaver::deinterleaver(3, 2);
        rx.run(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], &mut out);
        assert_eq!(out, [0, 0, 3, 0, 0, 6, 0, 2, 9, 0, 5, 12]);
    }
}
