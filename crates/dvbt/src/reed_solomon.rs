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

impl ReedSolomon {
    /// Decodes the 255-byte word `data` in place as Phil Karn's `decode_rs_char` (GNU Radio's)
    /// does, without erasures: syndromes, Berlekamp-Massey, Chien search, Forney. Returns the
    /// bytes corrected, or `None` where the word is found uncorrectable (then `data` is as
    /// given, but where Forney's denominator vanishes after some bytes were corrected: those
    /// stay corrected, as in GNU Radio).
    pub fn decode(&self, data: &mut [u8; 255]) -> Option<usize> {
        const NN: usize = 255;
        let a0 = ZERO_LOG as usize;
        let roots = self.roots();
        let exp = |x: usize| self.exp[x] as usize;
        let log = |x: usize| self.log[x] as usize;
        // Syndromes: data(x) at λ^i, by Horner, then as logarithms.
        let mut s = [0usize; 256];
        s[..roots].fill(data[0] as usize);
        for &d in &data[1..] {
            for (i, si) in s[..roots].iter_mut().enumerate() {
                *si = if *si == 0 {
                    d as usize
                } else {
                    d as usize ^ exp(mod255(log(*si) + i))
                };
            }
        }
        if s[..roots].iter().all(|&x| x == 0) {
            return Some(0);
        }
        for si in &mut s[..roots] {
            *si = log(*si);
        }
        // Berlekamp-Massey: lambda in polynomial form, b in logarithms.
        let mut lambda = [0usize; 256];
        lambda[0] = 1;
        let mut b = [a0; 256];
        b[0] = log(1);
        let mut t = [0usize; 256];
        let mut el = 0;
        for r in 1..=roots {
            let mut discr = 0;
            for i in 0..r {
                if lambda[i] != 0 && s[r - i - 1] != a0 {
                    discr ^= exp(mod255(log(lambda[i]) + s[r - i - 1]));
                }
            }
            let discr = log(discr);
            if discr == a0 {
                b.copy_within(0..roots, 1);
                b[0] = a0;
            } else {
                t[0] = lambda[0];
                for i in 0..roots {
                    t[i + 1] = if b[i] != a0 {
                        lambda[i + 1] ^ exp(mod255(discr + b[i]))
                    } else {
                        lambda[i + 1]
                    };
                }
                if 2 * el < r {
                    el = r - el;
                    for i in 0..=roots {
                        b[i] = if lambda[i] == 0 {
                            a0
                        } else {
                            mod255(log(lambda[i]) + NN - discr)
                        };
                    }
                } else {
                    b.copy_within(0..roots, 1);
                    b[0] = a0;
                }
                lambda[..=roots].copy_from_slice(&t[..=roots]);
            }
        }
        let mut deg_lambda = 0;
        for (i, l) in lambda[..=roots].iter_mut().enumerate() {
            *l = log(*l);
            if *l != a0 {
                deg_lambda = i;
            }
        }
        // Chien search: the roots λ^i of lambda, error i - 1 bytes from the start.
        let mut reg = lambda;
        let (mut root, mut loc) = ([0usize; 256], [0usize; 256]);
        let mut count = 0;
        for i in 1..=NN {
            let mut q = 1;
            for j in (1..=deg_lambda).rev() {
                if reg[j] != a0 {
                    reg[j] = mod255(reg[j] + j);
                    q ^= exp(reg[j]);
                }
            }
            if q != 0 {
                continue;
            }
            root[count] = i;
            loc[count] = i - 1;
            count += 1;
            if count == deg_lambda {
                break;
            }
        }
        if count != deg_lambda {
            return None;
        }
        // Forney: omega = s · lambda mod x^roots, the error values.
        let mut omega = [a0; 256];
        let mut deg_omega = 0;
        for i in 0..roots {
            let mut tmp = 0;
            for j in (0..=deg_lambda.min(i)).rev() {
                if s[i - j] != a0 && lambda[j] != a0 {
                    tmp ^= exp(mod255(s[i - j] + lambda[j]));
                }
            }
            if tmp != 0 {
                deg_omega = i;
            }
            omega[i] = log(tmp);
        }
        for j in (0..count).rev() {
            let mut num1 = 0;
            for i in (0..=deg_omega).rev() {
                if omega[i] != a0 {
                    num1 ^= exp(mod255(omega[i] + i * root[j]));
                }
            }
            // λ^(root · (first root - 1)): the first root is 0.
            let num2 = exp(mod255(NN - root[j]));
            let mut den = 0;
            let top = deg_lambda.min(roots - 1) & !1;
            for i in (0..=top).rev().step_by(2) {
                if lambda[i + 1] != a0 {
                    den ^= exp(mod255(lambda[i + 1] + i * root[j]));
                }
            }
            if den == 0 {
                return None;
            }
            if num1 != 0 {
                data[loc[j]] ^= exp(mod255(log(num1) + log(num2) + NN - log(den))) as u8;
            }
        }
        Some(count)
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
    fn up_to_half_the_roots_errors_are_corrected() {
        let rs = ReedSolomon::new(0x11d, 16).unwrap();
        let mut word = [0u8; 255];
        for (i, b) in word[51..239].iter_mut().enumerate() {
            *b = (i * 91 + 7) as u8;
        }
        let (message, parity) = word.split_at_mut(239);
        rs.encode(message, parity);
        for errors in [0, 1, 5, 8] {
            let mut received = word;
            for e in 0..errors {
                received[60 + 23 * e] ^= (e * 17 + 1) as u8;
            }
            assert_eq!(rs.decode(&mut received), Some(errors), "{errors} errors");
            assert_eq!(received, word, "{errors} errors");
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
