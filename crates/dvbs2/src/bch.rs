//! Systematic BCH outer code (clause 5.3.1), byte-wise table-driven.

use crate::modcod::{FecParams, FrameSize};

/// Exponents of the minimal polynomials g1..g12 of Table 6a (normal FECFRAME, GF(2^16)).
const NORMAL_POLYS: [&[u8]; 12] = [
    &[0, 2, 3, 5, 16],
    &[0, 1, 4, 5, 6, 8, 16],
    &[0, 2, 3, 4, 5, 7, 8, 9, 10, 11, 16],
    &[0, 2, 4, 6, 9, 11, 12, 14, 16],
    &[0, 1, 2, 3, 5, 8, 9, 10, 11, 12, 16],
    &[0, 2, 4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 16],
    &[0, 2, 5, 6, 8, 9, 10, 11, 13, 15, 16],
    &[0, 1, 2, 5, 6, 8, 9, 12, 13, 14, 16],
    &[0, 5, 7, 9, 10, 11, 16],
    &[0, 1, 2, 5, 7, 8, 10, 12, 13, 14, 16],
    &[0, 2, 3, 5, 9, 11, 12, 13, 16],
    &[0, 1, 5, 6, 7, 9, 11, 12, 16],
];

/// Exponents of g1..g12 of Table 6b (short FECFRAME, GF(2^14)).
const SHORT_POLYS: [&[u8]; 12] = [
    &[0, 1, 3, 5, 14],
    &[0, 6, 8, 11, 14],
    &[0, 1, 2, 6, 9, 10, 14],
    &[0, 4, 7, 8, 10, 12, 14],
    &[0, 2, 4, 6, 8, 9, 11, 13, 14],
    &[0, 3, 7, 8, 9, 13, 14],
    &[0, 2, 5, 6, 7, 10, 11, 13, 14],
    &[0, 5, 8, 9, 10, 11, 14],
    &[0, 1, 2, 3, 9, 10, 14],
    &[0, 3, 6, 9, 11, 12, 14],
    &[0, 4, 11, 12, 14],
    &[0, 1, 2, 3, 5, 6, 7, 8, 10, 13, 14],
];

/// The generator polynomial g(x) = g1(x)···g_t(x) of a code, as coefficients (index = power).
pub(crate) fn generator(frame: FrameSize, t: usize) -> Vec<u8> {
    let polys = match frame {
        FrameSize::Normal => &NORMAL_POLYS,
        FrameSize::Short => &SHORT_POLYS,
    };
    polys[..t].iter().fold(vec![1u8], |acc, p| {
        let mut out = vec![0u8; acc.len() + usize::from(*p.last().unwrap())];
        for (i, &a) in acc.iter().enumerate() {
            for &e in p.iter() {
                out[i + usize::from(e)] ^= a;
            }
        }
        out
    })
}

/// A 192-bit shift register, the highest-order parity coefficient at bit 191.
type Reg = [u64; 3];

#[inline]
fn shl(r: &Reg, n: u32) -> Reg {
    debug_assert!(n > 0 && n < 64);
    [
        (r[0] << n) | (r[1] >> (64 - n)),
        (r[1] << n) | (r[2] >> (64 - n)),
        r[2] << n,
    ]
}

#[inline]
fn xor(a: &mut Reg, b: &Reg) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// BCH encoder of one code: Nbch − Kbch parity bits appended to Kbch message bits.
#[derive(Clone)]
pub(crate) struct BchEncoder {
    /// Parity bits, Nbch − Kbch (= the degree of g).
    nparity: usize,
    /// Remainder of v(x)·x^deg mod g(x) for every byte v, left-aligned in a [`Reg`].
    table: Box<[Reg; 256]>,
}

impl BchEncoder {
    pub(crate) fn new(fec: &FecParams) -> Self {
        let g = generator(fec.frame, fec.t);
        let deg = g.len() - 1;
        debug_assert_eq!(deg, fec.nbch - fec.kbch);
        // g without x^deg, left-aligned: coefficient j at bit 192 - deg + j.
        let mut low: Reg = [0; 3];
        for (j, &c) in g[..deg].iter().enumerate() {
            if c == 1 {
                let bit = 192 - deg + j;
                low[2 - bit / 64] |= 1 << (bit % 64);
            }
        }
        let mut table = Box::new([[0u64; 3]; 256]);
        for (v, entry) in table.iter_mut().enumerate() {
            let mut reg: Reg = [0; 3];
            for k in (0..8).rev() {
                let fb = ((v >> k) & 1) as u64 ^ (reg[0] >> 63);
                reg = shl(&reg, 1);
                if fb == 1 {
                    xor(&mut reg, &low);
                }
            }
            *entry = reg;
        }
        BchEncoder {
            nparity: deg,
            table,
        }
    }

    /// Writes the parity of the packed message `bytes[..kbch / 8]` after it, in
    /// `bytes[kbch / 8..nbch / 8]` (every Kbch and parity length of the standard is a multiple of 8).
    pub(crate) fn encode(&self, bytes: &mut [u8], kbch: usize) {
        debug_assert_eq!(kbch % 8, 0);
        let (msg, parity) = bytes.split_at_mut(kbch / 8);
        let mut reg: Reg = [0; 3];
        for &byte in msg.iter() {
            let idx = usize::from((reg[0] >> 56) as u8 ^ byte);
            reg = shl(&reg, 8);
            xor(&mut reg, &self.table[idx]);
        }
        // The register is left-aligned: the parity is its first nparity / 8 big-endian bytes.
        let mut be = [0u8; 24];
        for (chunk, w) in be.chunks_exact_mut(8).zip(reg) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        parity[..self.nparity / 8].copy_from_slice(&be[..self.nparity / 8]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modcod::CodeRate;
    use rand::{Rng, SeedableRng};

    fn unpacked(bytes: &[u8]) -> Vec<u8> {
        let mut bits = vec![0u8; bytes.len() * 8];
        crate::bbframe::unpack(bytes, &mut bits);
        bits
    }

    /// Remainder of m(x)·x^deg divided by g(x), long division one bit at a time.
    fn naive_parity(msg: &[u8], g: &[u8]) -> Vec<u8> {
        let deg = g.len() - 1;
        // Polynomial in transmission order: msg bits are the highest powers first.
        let mut r: Vec<u8> = msg.to_vec();
        r.extend(std::iter::repeat_n(0, deg));
        for i in 0..msg.len() {
            if r[i] == 1 {
                // g's highest coefficient aligns with position i.
                for (j, &c) in g.iter().enumerate() {
                    r[i + deg - j] ^= c;
                }
            }
        }
        r[msg.len()..].to_vec()
    }

    #[test]
    fn generator_degrees_match_table_5() {
        for frame in [FrameSize::Normal, FrameSize::Short] {
            for rate in CodeRate::ALL {
                let Ok(fec) = FecParams::new(frame, rate) else {
                    continue;
                };
                let g = generator(frame, fec.t);
                assert_eq!(g.len() - 1, fec.nbch - fec.kbch, "{frame:?} {rate}");
                assert_eq!((g[0], *g.last().unwrap()), (1, 1));
            }
        }
    }

    #[test]
    fn table_encoder_matches_polynomial_division_for_every_code() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(19);
        for frame in [FrameSize::Normal, FrameSize::Short] {
            for rate in CodeRate::ALL {
                let Ok(fec) = FecParams::new(frame, rate) else {
                    continue;
                };
                let enc = BchEncoder::new(&fec);
                let g = generator(frame, fec.t);
                let mut bytes = vec![0u8; fec.nbch / 8];
                rng.fill(&mut bytes[..fec.kbch / 8]);
                enc.encode(&mut bytes, fec.kbch);
                let bits = unpacked(&bytes);
                assert_eq!(
                    bits[fec.kbch..],
                    naive_parity(&bits[..fec.kbch], &g)[..],
                    "{frame:?} {rate}"
                );
            }
        }
    }

    #[test]
    fn codewords_are_multiples_of_the_generator() {
        // A single 1 in the last message bit: codeword = x^deg + parity must be divisible by g.
        let fec = FecParams::new(FrameSize::Short, CodeRate::R1_2).unwrap();
        let enc = BchEncoder::new(&fec);
        let mut bytes = vec![0u8; fec.nbch / 8];
        bytes[fec.kbch / 8 - 1] = 1;
        enc.encode(&mut bytes, fec.kbch);
        let bits = unpacked(&bytes);
        let g = generator(FrameSize::Short, fec.t);
        assert_eq!(
            naive_parity(&bits, &g).iter().filter(|&&b| b == 1).count(),
            0
        );
        assert!(bits[fec.kbch..].contains(&1));
    }
}
