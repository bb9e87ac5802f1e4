//! BCH decoding (clause 5.3.1 codes): syndromes from the remainder, Berlekamp–Massey, Chien
//! search.

use std::sync::Arc;

use thiserror::Error;

use super::gf::Gf;
use crate::bch::BchEncoder;
use crate::modcod::FecParams;

/// More errors than the code corrects were detected; the frame is left as received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("BCH: uncorrectable frame (more than {t} errors)")]
pub struct BchFailure {
    /// The code's correction capability.
    pub t: usize,
}

/// Decoder of one BCH code, up to t = 8, 10 or 12 errors per BCH codeword.
///
/// The remainder of the received word modulo g(x) comes from the encoder's byte-wise table
/// (a valid word ends there); the 2t syndromes are the remainder evaluated at α^1..α^2t,
/// then Berlekamp–Massey gives the error locator and a Chien search over the Nbch
/// positions of the shortened code finds its roots.
#[derive(Clone)]
pub struct BchDecoder {
    fec: FecParams,
    encoder: BchEncoder,
    gf: Arc<Gf>,
}

impl BchDecoder {
    /// The decoder of `fec`'s BCH code.
    pub fn new(fec: &FecParams) -> Self {
        Self::with_field(fec, Arc::new(Gf::for_frame(fec.frame)))
    }

    pub(crate) fn with_field(fec: &FecParams, gf: Arc<Gf>) -> Self {
        BchDecoder {
            fec: *fec,
            encoder: BchEncoder::new(fec),
            gf,
        }
    }

    /// Corrects the packed BCH codeword `bytes[..Nbch / 8]` (MSB first) in place; returns the
    /// number of bits corrected.
    ///
    /// # Errors
    /// [`BchFailure`] if the errors are not correctable; `bytes` is then unchanged.
    ///
    /// # Panics
    /// If `bytes` is shorter than Nbch / 8.
    pub fn decode(&self, bytes: &mut [u8]) -> Result<usize, BchFailure> {
        let (kbch, nbch, t) = (self.fec.kbch, self.fec.nbch, self.fec.t);
        let npar = (nbch - kbch) / 8;
        let bytes = &mut bytes[..nbch / 8];
        let mut received = [0u8; 24];
        received[..npar].copy_from_slice(&bytes[kbch / 8..]);
        self.encoder.encode(bytes, kbch);
        let mut rem = [0u8; 24];
        let mut nonzero = 0u8;
        for (i, r) in rem[..npar].iter_mut().enumerate() {
            *r = bytes[kbch / 8 + i] ^ received[i];
            nonzero |= *r;
        }
        bytes[kbch / 8..].copy_from_slice(&received[..npar]);
        if nonzero == 0 {
            return Ok(0);
        }
        let gf = &*self.gf;
        // S_j = rem(α^j); bit b of remainder byte i has power (nbch − kbch) − 1 − (8i + b).
        let mut s = [0u16; 24];
        let nparity_bits = nbch - kbch;
        for (i, &r) in rem[..npar].iter().enumerate() {
            for b in 0..8 {
                if (r >> (7 - b)) & 1 == 1 {
                    let power = nparity_bits - 1 - (8 * i + b);
                    for (j, sj) in s[..2 * t].iter_mut().enumerate() {
                        *sj ^= gf.pow((j + 1) * power);
                    }
                }
            }
        }
        let (lambda, degree) = berlekamp_massey(gf, &s[..2 * t]);
        if degree > t {
            return Err(BchFailure { t });
        }
        // Chien search: error at power p iff Λ(α^{−p}) = 0; p = nbch − 1 − bit index.
        let order = gf.order();
        let mut logs = [0usize; 13];
        let mut active = [false; 13];
        for k in 1..=degree {
            if lambda[k] != 0 {
                logs[k] = gf.log(lambda[k]);
                active[k] = true;
            }
        }
        let mut found = [0usize; 12];
        let mut nfound = 0;
        for p in 0..nbch {
            let mut sum = 1u16;
            for k in 1..=degree {
                if active[k] {
                    sum ^= gf.pow(logs[k] + order - (k * p) % order);
                }
            }
            if sum == 0 {
                if nfound == degree {
                    return Err(BchFailure { t });
                }
                found[nfound] = nbch - 1 - p;
                nfound += 1;
                if nfound == degree {
                    break;
                }
            }
        }
        if nfound != degree {
            return Err(BchFailure { t });
        }
        for &i in &found[..nfound] {
            bytes[i / 8] ^= 0x80 >> (i % 8);
        }
        Ok(nfound)
    }
}

/// The error locator Λ (coefficients, Λ0 = 1) and its degree from 2t syndromes.
fn berlekamp_massey(gf: &Gf, s: &[u16]) -> ([u16; 26], usize) {
    let mut c = [0u16; 26];
    let mut b = [0u16; 26];
    c[0] = 1;
    b[0] = 1;
    let (mut l, mut m, mut bd) = (0usize, 1usize, 1u16);
    for n in 0..s.len() {
        let mut d = s[n];
        for i in 1..=l {
            d ^= gf.mul(c[i], s[n - i]);
        }
        if d == 0 {
            m += 1;
            continue;
        }
        let coef = gf.div(d, bd);
        let prev = c;
        for i in 0..26 - m {
            c[i + m] ^= gf.mul(coef, b[i]);
        }
        if 2 * l <= n {
            l = n + 1 - l;
            b = prev;
            bd = d;
            m = 1;
        } else {
            m += 1;
        }
    }
    (c, l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bch::generator;
    use crate::modcod::{CodeRate, FrameSize};
    use rand::{Rng, SeedableRng};

    fn bits(bytes: &[u8]) -> Vec<u8> {
        let mut v = vec![0u8; bytes.len() * 8];
        crate::bbframe::unpack(bytes, &mut v);
        v
    }

    /// Plain long division by g(x): the word is a codeword iff the remainder is zero.
    fn is_codeword(word: &[u8], g: &[u8]) -> bool {
        let deg = g.len() - 1;
        let mut r = word.to_vec();
        for i in 0..word.len() - deg {
            if r[i] == 1 {
                for (j, &c) in g.iter().enumerate() {
                    r[i + deg - j] ^= c;
                }
            }
        }
        r.iter().all(|&b| b == 0)
    }

    #[test]
    fn every_syndrome_of_a_codeword_is_zero() {
        // Checks that α^1..α^2t are roots of g (g_i minimal polynomial of α^{2i−1}).
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for frame in [FrameSize::Short, FrameSize::Normal] {
            let fec = FecParams::new(frame, CodeRate::R1_2).unwrap();
            let gf = Gf::for_frame(frame);
            let mut bytes = vec![0u8; fec.nbch / 8];
            rng.fill(&mut bytes[..fec.kbch / 8]);
            BchEncoder::new(&fec).encode(&mut bytes, fec.kbch);
            let b = bits(&bytes);
            for j in 1..=2 * fec.t {
                let s = b
                    .iter()
                    .enumerate()
                    .filter(|&(_, &x)| x == 1)
                    .fold(0u16, |acc, (i, _)| acc ^ gf.pow(j * (fec.nbch - 1 - i)));
                assert_eq!(s, 0, "{frame:?} S_{j}");
            }
        }
    }

    #[test]
    fn corrects_up_to_t_errors_and_never_miscorrects_silently_beyond() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let (mut failures, mut beyond) = (0, 0);
        for frame in [FrameSize::Short, FrameSize::Normal] {
            for rate in CodeRate::ALL {
                let Ok(fec) = FecParams::new(frame, rate) else {
                    continue;
                };
                let dec = BchDecoder::new(&fec);
                let g = generator(frame, fec.t);
                let mut clean = vec![0u8; fec.nbch / 8];
                rng.fill(&mut clean[..fec.kbch / 8]);
                BchEncoder::new(&fec).encode(&mut clean, fec.kbch);
                for nerr in [0, 1, fec.t / 2, fec.t, fec.t + 1, fec.t + 3] {
                    let mut word = clean.clone();
                    let mut pos = Vec::new();
                    while pos.len() < nerr {
                        let p = rng.gen_range(0..fec.nbch);
                        if !pos.contains(&p) {
                            pos.push(p);
                            word[p / 8] ^= 0x80 >> (p % 8);
                        }
                    }
                    let received = word.clone();
                    let result = dec.decode(&mut word);
                    if nerr <= fec.t {
                        assert_eq!(result, Ok(nerr), "{frame:?} {rate} {nerr} errors");
                        assert!(word == clean, "{frame:?} {rate}");
                        continue;
                    }
                    beyond += 1;
                    match result {
                        Err(e) => {
                            failures += 1;
                            assert_eq!(e.t, fec.t);
                            assert!(word == received, "unchanged on failure");
                        }
                        Ok(n) => {
                            // A miscorrection must still land on a codeword within t.
                            let changed = bits(&word)
                                .iter()
                                .zip(bits(&received))
                                .filter(|(a, b)| **a != *b)
                                .count();
                            assert!(n <= fec.t && changed == n, "{frame:?} {rate}");
                            assert!(is_codeword(&bits(&word), &g), "{frame:?} {rate}");
                        }
                    }
                }
            }
        }
        // Beyond t the decoder must (almost always) notice.
        assert!(
            failures * 10 >= beyond * 9,
            "{failures} of {beyond} flagged"
        );
    }
}
