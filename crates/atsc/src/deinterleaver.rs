//! The receiver's data deinterleaver, as gr-dtv's `atsc_deinterleaver` undoes
//! [`Interleaver`](crate::Interleaver) (ATSC A/53 Part 2, 5.3.4): 52 branches, branch j
//! delaying by 4·(51 - j) bytes, the commutator set back to branch 0 at each field's first
//! data segment (as the transmitter's), then 156 bytes more of delay for all, so that every
//! byte comes out 52 segments (52 · 207 bytes) after it went into the transmitter's
//! interleaver.

use crate::interleaver::{BRANCHES, DEPTH};

/// Bytes of delay after the branches.
const ALIGNMENT: usize = 156;

/// A delay line of bytes, zeros at first.
#[derive(Debug, Clone)]
struct Delay {
    line: Vec<u8>,
    head: usize,
}

impl Delay {
    fn new(len: usize) -> Self {
        Self {
            line: vec![0; len],
            head: 0,
        }
    }

    fn push(&mut self, x: u8) -> u8 {
        if self.line.is_empty() {
            return x;
        }
        let y = std::mem::replace(&mut self.line[self.head], x);
        self.head = if self.head + 1 == self.line.len() {
            0
        } else {
            self.head + 1
        };
        y
    }
}

/// The deinterleaver's delay lines and commutator.
#[derive(Debug, Clone)]
pub struct Deinterleaver {
    branches: Vec<Delay>,
    alignment: Delay,
    branch: usize,
}

impl Default for Deinterleaver {
    fn default() -> Self {
        Self::new()
    }
}

impl Deinterleaver {
    /// Delay lines of zeros, the commutator at branch 0.
    pub fn new() -> Self {
        Self {
            branches: (0..BRANCHES)
                .map(|j| Delay::new((BRANCHES - 1 - j) * DEPTH))
                .collect(),
            alignment: Delay::new(ALIGNMENT),
            branch: 0,
        }
    }

    /// The commutator back to branch 0 (the first data segment of a field).
    pub fn restart(&mut self) {
        self.branch = 0;
    }

    /// Deinterleaves `input` into `output` (as long), byte after byte.
    pub fn deinterleave(&mut self, input: &[u8], output: &mut [u8]) {
        for (&x, y) in input.iter().zip(output) {
            let j = self.branch;
            *y = self.alignment.push(self.branches[j].push(x));
            self.branch = if j + 1 == BRANCHES { 0 } else { j + 1 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Interleaver;

    #[test]
    fn bytes_come_back_52_segments_later() {
        // Fields of 312 segments: the commutators restart together at each segment 0.
        let (mut il, mut dl) = (Interleaver::new(), Deinterleaver::new());
        let segments = 400;
        let input: Vec<u8> = (0..segments * 207).map(|k| (k * 31 % 253) as u8).collect();
        let mut output = vec![0u8; input.len()];
        let (mut mid, mut seg_out) = ([0u8; 207], [0u8; 207]);
        for (s, (i, o)) in input.chunks(207).zip(output.chunks_mut(207)).enumerate() {
            if s % 312 == 0 {
                il.restart();
                dl.restart();
            }
            il.interleave(i, &mut mid);
            dl.deinterleave(&mid, &mut seg_out);
            o.copy_from_slice(&seg_out);
        }
        assert_eq!(output[52 * 207..], input[..(segments - 52) * 207]);
    }
}
