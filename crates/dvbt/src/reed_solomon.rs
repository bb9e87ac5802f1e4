//! Reed-Solomon encoding over GF(2^8) (ETSI EN 300 744 clause 4.3.2): the systematic
//! RS(255, 239) code, generator g(x) = (x + λ^0)(x + λ^1)…(x + λ^15), field polynomial
//! x^8 + x^4 + x^3 + x^2 + 1 (0x11D), shortened to RS(204, 188) by 51 leading zero bytes.
//!
//! Written here rather than taken from a crate: gr-dtv's block takes the field polynomial and
//! the number of roots as parameters (GRC's `gfpoly`, `n`, `k`), which the Rust crates fix
//! (0x11D and their own first root); the arithmetic is that of Phil Karn's library (GNU
//! Radio's `init_rs_char`, `encode_rs_char`), in logarithms. Leading zero bytes leave the
//! encoder's register at zero: a shortened code needs none of them.

use std::fmt;

/// The logarithm of zero in the tables.
const ZERO_LOG: u8 = 255;

/// Why a field polynomial or a code is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RsError {
    /// The powers of x modulo x^8 + (the polynomial's low 8 bits) are not the 255 non-zero
    /// elements: GNU Radio's `init_rs_char` refuses it, or (x of an order dividing 255, such
    /// as 0x11B's 51) accepts it and then reads logarithm table entries it never wrote.
    NotPrimitive(u32),
    /// No parity bytes, or more than the field's 255 elements allow.
    Roots(usize),
}

impl fmt::Display for RsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RsError::NotPrimitive(p) => write!(
                f,
                "{p:#x} is not a primitive polynomial: the powers of x are not GF(256)'s 255 \
                 non-zero elements (GNU Radio refuses it, or reads table entries it never wrote)"
            ),
            RsError::Roots(r) => write!(f, "makes {r} parity bytes: must be 1 to 254"),
        }
    }
}

/// A systematic Reed-Solomon encoder over GF(2^8), roots λ^0 to λ^(roots - 1).
#[derive(Debug, Clone)]
pub struct ReedSolomon {
    /// λ^i for i in 0..255; `exp[255]` is 0 (the power of [`ZERO_LOG`]).
    exp: [u8; 256],
    /// log_λ(x) for x in 1..256; `log[0]` is [`ZERO_LOG`].
    log: [u8; 256],
    /// The generator's coefficients, lowest degree first, as logarithms.
    generator: Vec<u8>,
}

/// `x` modulo 255, for sums of two logarithms.
fn mod255(x: usize) -> usize {
    x % 255
}

impl ReedSolomon {
    /// The code of `roots` parity bytes over the field of polynomial `poly` (its bit 8 and
    /// above do not matter), as GNU Radio's `init_rs_char(8, poly, 0, 1, roots)` makes it.
    ///
    /// # Errors
    /// A polynomial that is not primitive, `roots` 0 or above 254.
    pub fn new(poly: u32, roots: usize) -> Result<Self, RsError> {
        if roots == 0 || roots > 254 {
            return Err(RsError::Roots(roots));
        }
        let mut exp = [0u8; 256];
        let mut log = [0u8; 256];
        log[0] = ZERO_LOG;
        let mut x: u32 = 1;
        for (i, e) in exp[..255].iter_mut().enumerate() {
            if x == 0 || (i > 0 && x == 1) {
                return Err(RsError::NotPrimitive(poly));
            }
            log[x as usize] = i as u8;
            *e = x as u8;
            x <<= 1;
            if x & 0x100 != 0 {
                x ^= poly;
            }
            x &= 0xff;
        }
        if x != 1 {
            return Err(RsError::NotPrimitive(poly));
        }
        // g(x) = Π (x + λ^i): multiply by (x + λ^root) one root after another.
        let mut g = vec![0u8; roots + 1];
        g[0] = 1;
        for root in 0..roots {
            g[root + 1] = 1;
            for j in (1..=root).rev() {
                g[j] = if g[j] != 0 {
                    g[j - 1] ^ exp[mod255(log[g[j] as usize] as usize + root)]
                } else {
                    g[j - 1]
                };
            }
            g[0] = exp[mod255(log[g[0] as usize] as usize + root)];
        }
        let generator = g.iter().map(|&c| log[c as usize]).collect();
        Ok(Self {
            exp,
            log,
            generator,
        })
    }

    /// Parity bytes a message gets.
    pub fn roots(&self) -> usize {
        self.generator.len() - 1
    }

    /// Writes into `parity` (`roots` bytes) the remainder of `message`·x^roots by the
    /// generator: the bytes sent after `message`.
    pub fn encode(&self, message: &[u8], parity: &mut [u8]) {
        let roots = self.roots();
        debug_assert_eq!(parity.len(), roots);
        parity.fill(0);
        for &m in message {
            let feedback = self.log[(m ^ parity[0]) as usize];
            if feedback != ZERO_LOG {
                let f = feedback as usize;
                // Parity byte j takes the generator's coefficient of degree roots - j.
                for (p, &g) in parity[1..]
                    .iter_mut()
                    .zip(self.generator[1..roots].iter().rev())
                {
                    *p ^= self.exp[mod255(f + g as usize)];
                }
            }
            parity.copy_within(1.., 0);
            parity[roots - 1] = if feedback != ZERO_LOG {
                self.exp[mod255(feedback as usize + self.generator[0] as usize)]
            } else {
                0
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mul(rs: &ReedSolomon, a: u8, b: u8) -> u8 {
        if a == 0 || b == 0 {
            0
        } else {
            rs.exp[(rs.log[a as usize] as usize + rs.log[b as usize] as usize) % 255]
        }
    }

    /// The remainder of message · x^roots by Π (x + λ^i), by long division.
    fn naive(rs: &ReedSolomon, message: &[u8], roots: usize) -> Vec<u8> {
        let mut g = vec![1u8];
        for i in 0..roots {
            let mut next = vec![0u8; g.len() + 1];
            for (j, &c) in g.iter().enumerate() {
                next[j + 1] ^= c;
                next[j] ^= mul(rs, c, rs.exp[i]);
            }
            g = next;
        }
        g.reverse();
        let mut r: Vec<u8> = message.to_vec();
        r.extend(std::iter::repeat_n(0, roots));
        for i in 0..message.len() {
            let c = r[i];
            for (j, &gj) in g.iter().enumerate() {
                r[i + j] ^= mul(rs, c, gj);
            }
        }
        r[message.len()..].to_vec()
    }

    #[test]
    fn parity_is_the_remainder_and_codewords_vanish_at_the_roots() {
        for roots in [1, 2, 16, 20] {
            let rs = ReedSolomon::new(0x11d, roots).unwrap();
            let message: Vec<u8> = (0..188).map(|i| (i * 37 + 11) as u8).collect();
            let mut parity = vec![0u8; roots];
            rs.encode(&message, &mut parity);
            assert_eq!(parity, naive(&rs, &message, roots), "{roots} roots");
            let word: Vec<u8> = message.iter().chain(&parity).copied().collect();
            for i in 0..roots {
                let x = rs.exp[i];
                let value = word.iter().fold(0u8, |acc, &c| mul(&rs, acc, x) ^ c);
                assert_eq!(value, 0, "{roots} roots: λ^{i}");
            }
        }
    }

    #[test]
    fn polynomials_gnu_radio_refuses_are_refused() {
        // x^8 alone: x's powers reach 0.
        assert_eq!(
            ReedSolomon::new(0x100, 16).unwrap_err(),
            RsError::NotPrimitive(0x100)
        );
        // x^8 + x^4 + x^3 + x + 1 is irreducible but x has order 51: GNU Radio accepts it
        // and reads logarithms it never wrote.
        assert_eq!(
            ReedSolomon::new(0x11b, 16).unwrap_err(),
            RsError::NotPrimitive(0x11b)
        );
        assert!(ReedSolomon::new(0x187, 16).is_ok());
        assert_eq!(ReedSolomon::new(0x11d, 0).unwrap_err(), RsError::Roots(0));
    }
}
