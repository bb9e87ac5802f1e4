//! [`BitFlipDecoder`]: GNU Radio's `fec.ldpc_bit_flip_decoder.make(matrix, max_iter)`, hard
//! decisions corrected by flipping the bits most unsatisfied checks share.

use crate::code::{Decoder, Soft};
use crate::ldpc_matrix::LdpcMatrix;
use std::sync::Arc;

/// GNU Radio's bit-flip decoder of an LDPC matrix object: each value above 0 a 1 bit; while
/// some check fails (at most `max_iter` rounds), every bit in the most failing checks is
/// flipped at once; the data bits are then taken whatever the checks say (last in an `H`
/// matrix's codeword, first in a `G` matrix's). Frames of whole codewords, one at first.
#[derive(Debug, Clone)]
pub struct BitFlipDecoder {
    matrix: Arc<LdpcMatrix>,
    max_iter: usize,
    frame_bits: usize,
    /// One codeword's bits, the failing checks, and per bit the failing checks it is in.
    word: Vec<u8>,
    syndrome: Vec<u8>,
    counts: Vec<u32>,
}

impl BitFlipDecoder {
    /// A decoder of `matrix`'s codewords, at most `max_iter` flipping rounds each.
    pub fn new(matrix: Arc<LdpcMatrix>, max_iter: usize) -> Self {
        Self {
            max_iter,
            frame_bits: matrix.k(),
            word: vec![0; matrix.n()],
            syndrome: vec![0; matrix.checks().len()],
            counts: vec![0; matrix.n()],
            matrix,
        }
    }

    /// Computes the syndrome of `word`; whether every check holds.
    fn checks_hold(&mut self) -> bool {
        let mut ok = true;
        for (s, check) in self.syndrome.iter_mut().zip(self.matrix.checks()) {
            *s = check.iter().fold(0, |acc, b| acc ^ self.word[*b]);
            ok &= *s == 0;
        }
        ok
    }

    fn decode_word(&mut self, soft: &[f32], out: &mut [u8]) {
        for (w, x) in self.word.iter_mut().zip(soft) {
            *w = u8::from(*x > 0.0);
        }
        let mut round = 0;
        while round < self.max_iter && !self.checks_hold() {
            self.counts.fill(0);
            for (s, check) in self.syndrome.iter().zip(self.matrix.checks()) {
                if *s == 1 {
                    for b in check {
                        self.counts[*b] += 1;
                    }
                }
            }
            let max = self.counts.iter().copied().max().unwrap_or(0);
            for (w, c) in self.word.iter_mut().zip(&self.counts) {
                if *c == max {
                    *w ^= 1;
                }
            }
            round += 1;
        }
        let at = self.matrix.data_offset();
        out.copy_from_slice(&self.word[at..at + out.len()]);
    }
}

impl Decoder for BitFlipDecoder {
    fn input_size(&self) -> usize {
        self.frame_bits / self.matrix.k() * self.matrix.n()
    }
    fn output_size(&self) -> usize {
        self.frame_bits
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Float(input) = input else {
            panic!("the LDPC bit-flip decoder takes floats");
        };
        let (n, k) = (self.matrix.n(), self.matrix.k());
        for (soft, out) in input.chunks_exact(n).zip(output.chunks_exact_mut(k)) {
            self.decode_word(soft, out);
        }
    }
    fn rate(&self) -> f64 {
        self.matrix.k() as f64 / self.matrix.n() as f64
    }
    /// Whole codewords' data only (GNU Radio's decoder throws on other sizes: `false`, the
    /// frame kept).
    fn set_frame_size(&mut self, bits: usize) -> bool {
        if bits == 0 || !bits.is_multiple_of(self.matrix.k()) {
            return false;
        }
        self.frame_bits = bits;
        true
    }
}
