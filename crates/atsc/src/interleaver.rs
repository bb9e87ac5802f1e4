//! The data interleaver (ATSC A/53 Part 2, 5.3.4, figure 5.6): a convolutional byte
//! interleaver of 52 branches, branch j delaying by 4·j bytes, the commutator moving one
//! branch a byte and set back to branch 0 at the first data segment of each field (its
//! delay lines are not cleared).

/// Branches.
pub(crate) const BRANCHES: usize = 52;
/// Bytes each branch adds to the previous one's delay.
pub(crate) const DEPTH: usize = 4;

/// The interleaver's delay lines and commutator.
#[derive(Debug, Clone)]
pub struct Interleaver {
    /// Branch j's delay line, 4·j bytes, a ring read and written at `heads[j]`.
    lines: Vec<Vec<u8>>,
    heads: [usize; BRANCHES],
    branch: usize,
}

impl Default for Interleaver {
    fn default() -> Self {
        Self::new()
    }
}

impl Interleaver {
    /// Delay lines of zeros, the commutator at branch 0.
    pub fn new() -> Self {
        Self {
            lines: (0..BRANCHES).map(|j| vec![0u8; j * DEPTH]).collect(),
            heads: [0; BRANCHES],
            branch: 0,
        }
    }

    /// The commutator back to branch 0 (the first data segment of a field).
    pub fn restart(&mut self) {
        self.branch = 0;
    }

    /// Interleaves `input` into `output` (as long), byte after byte.
    pub fn interleave(&mut self, input: &[u8], output: &mut [u8]) {
        for (&x, y) in input.iter().zip(output) {
            let j = self.branch;
            let line = &mut self.lines[j];
            if line.is_empty() {
                *y = x;
            } else {
                let h = &mut self.heads[j];
                *y = std::mem::replace(&mut line[*h], x);
                *h = if *h + 1 == line.len() { 0 } else { *h + 1 };
            }
            self.branch = if j + 1 == BRANCHES { 0 } else { j + 1 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_k_comes_out_its_branch_s_delay_later() {
        let mut il = Interleaver::new();
        let n = BRANCHES * BRANCHES * DEPTH + BRANCHES;
        let input: Vec<u8> = (0..n).map(|k| (k % 251) as u8 + 1).collect();
        let mut output = vec![0u8; n];
        il.interleave(&input, &mut output);
        for (k, &x) in input.iter().enumerate() {
            // Branch j's bytes come out j·4 of its own turns (j·4·52 bytes) later.
            let later = k + (k % BRANCHES) * DEPTH * BRANCHES;
            if later < n {
                assert_eq!(output[later], x, "byte {k}");
            }
        }
    }
}
