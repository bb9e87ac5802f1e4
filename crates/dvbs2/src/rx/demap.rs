//! Soft demapping (max-log LLRs) for the four constellations of clause 5.4.

use num_complex::Complex32;

use crate::mapper::Mapper;
use crate::modcod::{Constellation, Modcod};

/// Max-log LLRs of a MODCOD's constellation, exact over all its points.
///
/// LLR convention: `ln P(b = 0 | y) − ln P(b = 1 | y)`, so a positive value decides 0. With
/// complex noise of variance `n0` (E|n|² = N0), the max-log LLR of label bit `b` is
/// `(min_{s: b=1} |y − s|² − min_{s: b=0} |y − s|²) / N0`. The points are the transmitter's
/// (unit mean energy, the APSK ring ratios of Tables 9 and 10).
#[derive(Debug, Clone)]
pub struct Demapper {
    constellation: Constellation,
    bps: usize,
    points: [Complex32; 32],
}

impl Demapper {
    /// The demapper of `modcod`'s constellation.
    pub fn new(modcod: Modcod) -> Self {
        let bps = modcod.constellation().bits_per_symbol();
        let labels: Vec<u8> = (0..32).collect();
        let mut points = [Complex32::new(0.0, 0.0); 32];
        Mapper::new(modcod).map(&labels, &mut points);
        Demapper {
            constellation: modcod.constellation(),
            bps,
            points,
        }
    }

    /// Bits per symbol.
    pub fn bits_per_symbol(&self) -> usize {
        self.bps
    }

    /// Writes `bits_per_symbol()` LLRs per symbol, label MSB first, into
    /// `out[..symbols.len() * bits_per_symbol()]`; `n0` is the complex noise variance.
    ///
    /// # Panics
    /// If `out` is shorter than `symbols.len() * bits_per_symbol()`.
    pub fn demap(&self, symbols: &[Complex32], n0: f32, out: &mut [f32]) {
        let inv = 1.0 / n0.max(f32::MIN_POSITIVE);
        let out = &mut out[..symbols.len() * self.bps];
        match self.constellation {
            Constellation::Qpsk => {
                // Labels 00, 01, 10, 11 at (+,+), (+,−), (−,+), (−,−) · 1/√2: the max-log
                // LLRs separate into 4·(1/√2)·y/N0 on each axis (and are exact then).
                let k = 2.0 * std::f32::consts::SQRT_2 * inv;
                for (o, y) in out.chunks_exact_mut(2).zip(symbols) {
                    o[0] = k * y.re;
                    o[1] = k * y.im;
                }
            }
            Constellation::Psk8 => self.demap_with::<8, 3>(symbols, inv, out),
            Constellation::Apsk16 => self.demap_with::<16, 4>(symbols, inv, out),
            Constellation::Apsk32 => self.demap_with::<32, 5>(symbols, inv, out),
        }
    }

    /// The exhaustive max-log of an M-point constellation, 8 symbols at a time.
    fn demap_with<const M: usize, const B: usize>(
        &self,
        symbols: &[Complex32],
        inv: f32,
        out: &mut [f32],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
                // SAFETY: the CPU supports AVX2 and FMA (checked just above).
                unsafe { demap_avx2::<M, B>(&self.points, symbols, inv, out) };
                return;
            }
        }
        demap_points::<M, B>(&self.points, symbols, inv, out);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn demap_avx2<const M: usize, const B: usize>(
    points: &[Complex32; 32],
    symbols: &[Complex32],
    inv: f32,
    out: &mut [f32],
) {
    demap_points::<M, B>(points, symbols, inv, out);
}

/// Symbols per vectorized step.
const W: usize = 8;

/// |y − p|² − |y|² = |p|² − 2·Re(y·p̄): the |y|² common to every point cancels in the LLR.
/// Loops over the points and bits have constant trip counts, so each bit's two minima are
/// straight-line code over W lanes of symbols.
#[inline(always)]
fn demap_points<const M: usize, const B: usize>(
    points: &[Complex32; 32],
    symbols: &[Complex32],
    inv: f32,
    out: &mut [f32],
) {
    let mut px = [0f32; M];
    let mut py = [0f32; M];
    let mut e = [0f32; M];
    for l in 0..M {
        px[l] = 2.0 * points[l].re;
        py[l] = 2.0 * points[l].im;
        e[l] = points[l].norm_sqr();
    }
    let full = symbols.len() / W * W;
    for (ys, o) in symbols[..full]
        .chunks_exact(W)
        .zip(out.chunks_exact_mut(W * B))
    {
        demap_step::<M, B>(&px, &py, &e, ys.try_into().expect("W symbols"), inv, o);
    }
    let rest = symbols.len() - full;
    if rest > 0 {
        let mut ys = [Complex32::new(0.0, 0.0); W];
        ys[..rest].copy_from_slice(&symbols[full..]);
        let mut o = [0f32; W * 5];
        demap_step::<M, B>(&px, &py, &e, &ys, inv, &mut o[..W * B]);
        out[full * B..symbols.len() * B].copy_from_slice(&o[..rest * B]);
    }
}

/// The LLRs of W symbols into `o` (W · B values).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn demap_step<const M: usize, const B: usize>(
    px: &[f32; M],
    py: &[f32; M],
    e: &[f32; M],
    ys: &[Complex32; W],
    inv: f32,
    o: &mut [f32],
) {
    let mut yr = [0f32; W];
    let mut yi = [0f32; W];
    for j in 0..W {
        yr[j] = ys[j].re;
        yi[j] = ys[j].im;
    }
    let mut m0 = [[f32::INFINITY; W]; B];
    let mut m1 = [[f32::INFINITY; W]; B];
    for l in 0..M {
        let mut d = [0f32; W];
        for j in 0..W {
            d[j] = e[l] - yr[j] * px[l] - yi[j] * py[l];
        }
        for b in 0..B {
            let m = if (l >> (B - 1 - b)) & 1 == 0 {
                &mut m0[b]
            } else {
                &mut m1[b]
            };
            for j in 0..W {
                m[j] = m[j].min(d[j]);
            }
        }
    }
    for (j, o) in o.chunks_exact_mut(B).enumerate() {
        for b in 0..B {
            o[b] = (m1[b][j] - m0[b][j]) * inv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// ln Σ_{s: b=0} e^{−|y−s|²/N0} − ln Σ_{s: b=1} e^{−|y−s|²/N0}, in f64, and the max-log
    /// form of the same sums.
    fn naive(points: &[Complex32], bps: usize, y: Complex32, n0: f64) -> Vec<(f64, f64)> {
        (0..bps)
            .map(|b| {
                let mask = 1 << (bps - 1 - b);
                let mut sums = [Vec::new(), Vec::new()];
                for (l, p) in points.iter().enumerate() {
                    let dx = f64::from(y.re) - f64::from(p.re);
                    let dy = f64::from(y.im) - f64::from(p.im);
                    sums[usize::from(l & mask != 0)].push(-(dx * dx + dy * dy) / n0);
                }
                let lse = |v: &[f64]| {
                    let m = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
                };
                let max = |v: &[f64]| v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                (lse(&sums[0]) - lse(&sums[1]), max(&sums[0]) - max(&sums[1]))
            })
            .collect()
    }

    #[test]
    fn portable_and_dispatched_paths_agree() {
        // Odd length: the 8-symbol steps and the tail.
        let sym: Vec<Complex32> = (0..203)
            .map(|i| Complex32::new((i as f32 * 0.37).sin(), (i as f32 * 0.91).cos()))
            .collect();
        for m in ["8psk-2/3", "16apsk-3/4", "32apsk-9/10"] {
            let d = Demapper::new(m.parse().unwrap());
            let bps = d.bits_per_symbol();
            let mut a = vec![0f32; sym.len() * bps];
            let mut b = a.clone();
            d.demap(&sym, 0.2, &mut a);
            match bps {
                3 => demap_points::<8, 3>(&d.points, &sym, 5.0, &mut b),
                4 => demap_points::<16, 4>(&d.points, &sym, 5.0, &mut b),
                _ => demap_points::<32, 5>(&d.points, &sym, 5.0, &mut b),
            }
            assert_eq!(a, b, "{m}");
        }
    }

    #[test]
    fn noiseless_symbols_give_the_bits_as_llr_signs() {
        for m in Modcod::all() {
            let d = Demapper::new(m);
            let bps = d.bits_per_symbol();
            let labels: Vec<u8> = (0..1u8 << bps).collect();
            let mut sym = vec![Complex32::new(0.0, 0.0); labels.len()];
            Mapper::new(m).map(&labels, &mut sym);
            let mut llr = vec![0f32; sym.len() * bps];
            d.demap(&sym, 0.1, &mut llr);
            for (l, o) in labels.iter().zip(llr.chunks_exact(bps)) {
                for (b, &v) in o.iter().enumerate() {
                    let bit = (l >> (bps - 1 - b)) & 1;
                    assert!(v != 0.0 && (v < 0.0) == (bit == 1), "{m} label {l} bit {b}");
                }
            }
        }
    }

    #[test]
    fn matches_naive_f64_max_log_and_stays_within_ln_m_of_log_sum_exp() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for m in Modcod::all() {
            let d = Demapper::new(m);
            let bps = d.bits_per_symbol();
            let pts = &d.points[..1 << bps];
            let n0 = 0.05 + rng.gen::<f32>() * 0.5;
            let sym: Vec<Complex32> = (0..200)
                .map(|_| {
                    let p = pts[rng.gen_range(0..pts.len())];
                    p + Complex32::new(rng.gen::<f32>() - 0.5, rng.gen::<f32>() - 0.5)
                })
                .collect();
            let mut llr = vec![0f32; sym.len() * bps];
            d.demap(&sym, n0, &mut llr);
            // Max-log differs from the exact LLR by at most ln(M/2) (each sum has M/2 terms).
            let bound = ((pts.len() / 2) as f64).ln() + 1e-6;
            for (y, o) in sym.iter().zip(llr.chunks_exact(bps)) {
                for (&v, (lse, maxlog)) in o.iter().zip(naive(pts, bps, *y, f64::from(n0))) {
                    let v = f64::from(v);
                    assert!((v - maxlog).abs() <= 1e-4 * (1.0 + maxlog.abs()), "{m}");
                    assert!((v - lse).abs() <= bound, "{m}: {v} vs {lse}");
                }
            }
        }
    }
}
