//! PLHEADER detection and decoding (EN 302 307-1 clause 5.5.2): differential correlation with
//! the SOF and the PLS code's pair structure, and soft maximum-likelihood decoding of the
//! (64, 7) PLS code by a fast Hadamard transform.

use num_complex::Complex32;

use crate::plframe::{plheader, pls_code, SLOT};

/// SOF length in symbols.
pub(crate) const SOF_LEN: usize = 26;
/// Differential terms in the header metric: 25 within the SOF, 32 within the PLS pairs.
pub(crate) const TERMS: usize = SOF_LEN - 1 + 32;

/// A decoded PLS code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pls {
    /// MODCOD field, 0..=31 (0: dummy PLFRAME).
    pub(crate) modcod: u8,
    /// TYPE MSB: short FECFRAME.
    pub(crate) short: bool,
    /// TYPE LSB: pilots on.
    pub(crate) pilots: bool,
}

/// The known parts of a PLHEADER, as the detector and decoder use them.
#[derive(Debug, Clone)]
pub(crate) struct HeaderRef {
    /// Sign s of each SOF differential reference j·s, `sof_sign[i]` for symbols i+1, i.
    sof_sign: [f32; SOF_LEN - 1],
    /// Sign of each PLS pair's differential reference (pilots off), pair k: symbols
    /// 27+2k, 26+2k.
    pls_sign: [f32; 32],
    /// The SOF symbols.
    pub(crate) sof: [Complex32; SOF_LEN],
    /// PLS scrambling sequence as ±1 (clause 5.5.2.4), first bit first.
    scramble: [f32; 64],
}

/// Differential product a·conj(b).
#[inline(always)]
fn diff(a: Complex32, b: Complex32) -> Complex32 {
    a * b.conj()
}

impl HeaderRef {
    pub(crate) fn new() -> Self {
        let mut h = [Complex32::new(0.0, 0.0); SLOT];
        plheader(0, false, false, &mut h);
        // Consecutive π/2-BPSK symbols differ by ±j: keep the sign of the imaginary part.
        let sign = |d: Complex32| {
            debug_assert!(d.re.abs() < 1e-5 && (d.im.abs() - 1.0).abs() < 1e-5);
            d.im.signum()
        };
        let mut sof_sign = [0.0; SOF_LEN - 1];
        for (i, s) in sof_sign.iter_mut().enumerate() {
            *s = sign(diff(h[i + 1], h[i]));
        }
        let mut pls_sign = [0.0; 32];
        for (k, s) in pls_sign.iter_mut().enumerate() {
            *s = sign(diff(h[SOF_LEN + 2 * k + 1], h[SOF_LEN + 2 * k]));
        }
        let mut sof = [Complex32::new(0.0, 0.0); SOF_LEN];
        sof.copy_from_slice(&h[..SOF_LEN]);
        // The code of the all-zero PLS word is zero, so this is the scrambling sequence.
        let scr = pls_code(0, false, false);
        let mut scramble = [0.0; 64];
        for (k, s) in scramble.iter_mut().enumerate() {
            *s = if (scr >> (63 - k)) & 1 == 1 {
                -1.0
            } else {
                1.0
            };
        }
        HeaderRef {
            sof_sign,
            pls_sign,
            sof,
            scramble,
        }
    }

    /// SOF and PLS correlations of the header starting at `y[0]` (`y` holds at least 90
    /// symbols); each is ≈ (terms)·|a|²·e^{j2πf} for a header with amplitude a and frequency
    /// offset f cycles/symbol; the PLS one is negated when pilots are on.
    #[inline]
    pub(crate) fn correlate(&self, y: &[Complex32]) -> (Complex32, Complex32) {
        let y = &y[..SLOT];
        let mut s = Complex32::new(0.0, 0.0);
        for (i, &sign) in self.sof_sign.iter().enumerate() {
            s += diff(y[i + 1], y[i]) * sign;
        }
        let mut p = Complex32::new(0.0, 0.0);
        for (k, &sign) in self.pls_sign.iter().enumerate() {
            p += diff(y[SOF_LEN + 2 * k + 1], y[SOF_LEN + 2 * k]) * sign;
        }
        // Remove the reference's j: multiply by −j.
        let mj = |c: Complex32| Complex32::new(c.im, -c.re);
        (mj(s), mj(p))
    }

    /// Detection metric: |c_sof ± c_pls|, the sign (pilots, unknown) that gives the larger,
    /// and that combined correlation, whose phase is 2πf. Both parts have the phase 2πf on a
    /// header, so adding them coherently beats adding their magnitudes.
    #[inline]
    pub(crate) fn metric(&self, y: &[Complex32]) -> (f32, Complex32) {
        let (s, p) = self.correlate(y);
        let c = if (p * s.conj()).re < 0.0 {
            s - p
        } else {
            s + p
        };
        (c.norm(), c)
    }

    /// Decodes the PLS code of a header `z` (90 symbols, frequency offset removed): phase from
    /// the SOF, then the maximum correlation over the 128 codewords. Returns the PLS, its
    /// correlation and that correlation over Σ|soft bits| (about 0.8 for a header at
    /// −2.35 dB, 1 without noise, near 0.5 for noise).
    pub(crate) fn decode(&self, z: &[Complex32]) -> (Pls, f32, f32) {
        let z = &z[..SLOT];
        let mut c = Complex32::new(0.0, 0.0);
        for (&a, &s) in z.iter().zip(&self.sof) {
            c += a * s.conj();
        }
        let rot = c.conj() / c.norm().max(f32::MIN_POSITIVE);
        // Soft PLS code bits, positive for 0: remove the π/2-BPSK rotation (bit 0 is
        // (1+j)/√2 on even symbols, (−1+j)/√2 on odd ones) and the scrambling.
        let mut soft = [0.0f32; 64];
        for (k, s) in soft.iter_mut().enumerate() {
            let i = SOF_LEN + k;
            let w = z[i] * rot;
            // Projection on (1+j)/√2 (even i) or (−1+j)/√2 (odd i); SOF_LEN is even.
            let r = if i.is_multiple_of(2) {
                w.re + w.im
            } else {
                w.im - w.re
            };
            *s = r * self.scramble[k];
        }
        let (pls, corr) = decode_soft(&soft);
        let total: f32 = soft.iter().map(|s| s.abs()).sum();
        (pls, corr, corr / total.max(f32::MIN_POSITIVE))
    }
}

/// In-place fast Walsh–Hadamard transform of 32 values (natural order).
fn fwht32(v: &mut [f32; 32]) {
    let mut h = 1;
    while h < 32 {
        for i in (0..32).step_by(2 * h) {
            for j in i..i + h {
                let (a, b) = (v[j], v[j + h]);
                v[j] = a + b;
                v[j + h] = a - b;
            }
        }
        h *= 2;
    }
}

/// Maximum-likelihood decoding of soft PLS code bits (descrambled, positive for 0).
///
/// The 32-bit first-order Reed–Muller word y has y_m = b6 ⊕ (a·m) where a = (b5..b1) and m
/// is the bit's index (clause 5.5.2.4: rows 0x5555_5555 … 0x0000_FFFF weigh the index bits
/// 0..4 of the MSB-first position); the 64-bit code repeats each y_m, the repetition
/// inverted when pilots are on. So for each pilots hypothesis the correlations with all 64
/// words are the Hadamard transform of the pair sums. Returns the PLS and its correlation.
pub(crate) fn decode_soft(soft: &[f32; 64]) -> (Pls, f32) {
    let mut best = (f32::MIN, 0usize, false);
    for pilots in [false, true] {
        let sign = if pilots { -1.0 } else { 1.0 };
        let mut v = [0.0f32; 32];
        for (m, x) in v.iter_mut().enumerate() {
            *x = soft[2 * m] + sign * soft[2 * m + 1];
        }
        fwht32(&mut v);
        for (a, &c) in v.iter().enumerate() {
            let mag = c.abs();
            if mag > best.0 {
                best = (mag, a | if c < 0.0 { 32 } else { 0 }, pilots);
            }
        }
    }
    let (mag, word, pilots) = best;
    let a = (word & 31) as u8;
    // b1 (the MODCOD's MSB) is a's bit 0.
    let modcod = a.reverse_bits() >> 3;
    let pls = Pls {
        modcod,
        short: word & 32 != 0,
        pilots,
    };
    (pls, mag)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ±1 per PLS code bit, positive for 0, scrambled as transmitted.
    fn code_signs(p: Pls) -> [f32; 64] {
        let c = pls_code(p.modcod, p.short, p.pilots);
        std::array::from_fn(|k| if (c >> (63 - k)) & 1 == 1 { -1.0 } else { 1.0 })
    }

    fn all() -> impl Iterator<Item = Pls> {
        (0..128u8).map(|w| Pls {
            modcod: w >> 2,
            short: w & 2 != 0,
            pilots: w & 1 != 0,
        })
    }

    #[test]
    fn fast_decoder_equals_brute_force_correlation_over_128_words() {
        use rand::{Rng, SeedableRng};
        let h = HeaderRef::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for trial in 0..400 {
            let soft_rx: [f32; 64] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
            // Naive: correlate the received (scrambled) soft bits with every scrambled word.
            let mut best = (f32::MIN, all().next().unwrap());
            for p in all() {
                let s = code_signs(p);
                let c: f32 = s.iter().zip(&soft_rx).map(|(a, b)| a * b).sum();
                if c > best.0 {
                    best = (c, p);
                }
            }
            let descrambled: [f32; 64] = std::array::from_fn(|k| soft_rx[k] * h.scramble[k]);
            assert_eq!(decode_soft(&descrambled).0, best.1, "trial {trial}");
        }
    }

    #[test]
    fn decodes_every_header_under_a_phase_rotation() {
        let h = HeaderRef::new();
        for p in all() {
            let mut sym = [Complex32::new(0.0, 0.0); SLOT];
            plheader(p.modcod, p.short, p.pilots, &mut sym);
            let rot = Complex32::from_polar(0.7, 2.1);
            let z: Vec<Complex32> = sym.iter().map(|s| s * rot).collect();
            let (got, corr, quality) = h.decode(&z);
            assert!((quality - 1.0).abs() < 1e-5);
            assert_eq!(got, p);
            // 64 bits, each projected with amplitude 0.7·√2.
            assert!(
                (corr - 64.0 * 0.7 * 2f32.sqrt()).abs() < 1e-3,
                "{p:?}: {corr}"
            );
            // The detector sees the full terms without noise, the PLS sign flipped by pilots.
            let (cs, cp) = h.correlate(&z);
            assert!((cs - Complex32::new(25.0 * 0.49, 0.0)).norm() < 1e-3);
            let expect = if p.pilots { -32.0 } else { 32.0 } * 0.49;
            assert!(
                (cp - Complex32::new(expect, 0.0)).norm() < 1e-3,
                "{p:?} {cp}"
            );
        }
    }
}
