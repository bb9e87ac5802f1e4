//! The bit-wise inner interleaver (ETSI EN 300 744 clause 4.3.4.1), non-hierarchical: the
//! `v` bits of 126 symbols demultiplexed onto `v` streams (figure 6's mapping), each stream's
//! 126 bits permuted by its own H_e(w) = (w + offset_e) mod 126, and the `v` streams' bits
//! gathered into symbols again; and the way back.

/// Symbols of one interleaving block.
pub(crate) const BLOCK: usize = 126;

/// The offsets of H_0 to H_5 (clause 4.3.4.1).
const OFFSETS: [usize; 6] = [0, 63, 105, 42, 21, 84];

/// Non-hierarchical demultiplexing: bit k of a symbol goes to stream k / (v/2) + 2 (k mod v/2)
/// (x0 → b0, x1 → b2, x2 → b4, x3 → b1 … for 64QAM); the symbol's bit of each stream.
fn demultiplexing(v: usize) -> [usize; 6] {
    let half = v / 2;
    let mut bit_of_stream = [0usize; 6];
    for k in 0..v {
        bit_of_stream[k / half + 2 * (k % half)] = k;
    }
    bit_of_stream
}

/// Undoes [`interleave_block`]: `input` and `output` of 126 symbols of `v` bits; bits above
/// the `v` low ones are not read (as gr-dtv's `dvbt_bit_inner_deinterleaver`).
pub fn deinterleave_block(v: usize, input: &[u8], output: &mut [u8]) {
    debug_assert_eq!((input.len(), output.len()), (BLOCK, BLOCK));
    let bit_of_stream = demultiplexing(v);
    output.fill(0);
    for (e, &k) in bit_of_stream[..v].iter().enumerate() {
        // Stream e's bit at position j came from symbol w with H_e(w) = j.
        for (j, out) in output.iter_mut().enumerate() {
            let w = (j + BLOCK - OFFSETS[e]) % BLOCK;
            *out |= ((input[w] >> (v - 1 - e)) & 1) << (v - 1 - k);
        }
    }
}

/// Interleaves one block: `input` and `output` of 126 symbols of `v` bits (2, 4 or 6),
/// the first bit (x_0, y_0) the most significant.
pub fn interleave_block(v: usize, input: &[u8], output: &mut [u8]) {
    debug_assert_eq!((input.len(), output.len()), (BLOCK, BLOCK));
    let bit_of_stream = demultiplexing(v);
    for (w, out) in output.iter_mut().enumerate() {
        let mut y = 0u8;
        for e in 0..v {
            let x = input[(w + OFFSETS[e]) % BLOCK];
            y = (y << 1) | ((x >> (v - 1 - bit_of_stream[e])) & 1);
        }
        *out = y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_a_permutation_of_its_bits() {
        for v in [2, 4, 6] {
            // One bit set at a time: exactly one bit set comes out, each at its own place.
            let mut seen = std::collections::HashSet::new();
            for i in 0..BLOCK {
                for k in 0..v {
                    let mut input = [0u8; BLOCK];
                    input[i] = 1 << (v - 1 - k);
                    let mut out = [0u8; BLOCK];
                    interleave_block(v, &input, &mut out);
                    let set: Vec<(usize, u32)> = out
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| **o != 0)
                        .map(|(w, &o)| (w, o.trailing_zeros()))
                        .collect();
                    assert_eq!(set.len(), 1);
                    assert_eq!(out[set[0].0].count_ones(), 1);
                    assert!(seen.insert((v, set[0])));
                }
            }
        }
    }

    #[test]
    fn deinterleaving_undoes_interleaving() {
        for v in [2, 4, 6] {
            let input: Vec<u8> = (0..BLOCK)
                .map(|i| ((i * 37 + 5) % (1 << v)) as u8)
                .collect();
            let (mut mid, mut back) = ([0u8; BLOCK], [0u8; BLOCK]);
            interleave_block(v, &input, &mut mid);
            deinterleave_block(v, &mid, &mut back);
            assert_eq!(back.to_vec(), input, "v {v}");
        }
    }

    #[test]
    fn qpsk_follows_h0_and_h1() {
        // QPSK: x0 → b0 (H0(w) = w), x1 → b1 (H1(w) = w + 63).
        let input: Vec<u8> = (0..BLOCK)
            .map(|i| ((i % 3 == 0) as u8) << 1 | (i % 5 == 0) as u8)
            .collect();
        let mut out = [0u8; BLOCK];
        interleave_block(2, &input, &mut out);
        for w in 0..BLOCK {
            let b0 = (input[w] >> 1) & 1;
            let b1 = input[(w + 63) % BLOCK] & 1;
            assert_eq!(out[w], b0 << 1 | b1, "w {w}");
        }
    }
}
