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
            _ => {
                let n = 1 << self.bps;
                let pts = &self.points[..n];
                for (o, y) in out.chunks_exact_mut(self.bps).zip(symbols) {
                    let mut d = [0f32; 32];
                    for (d, p) in d.iter_mut().zip(pts) {
                        *d = (y - p).norm_sqr();
                    }
                    for (b, o) in o.iter_mut().enumerate() {
                        let mask = 1 << (self.bps - 1 - b);
                        let (mut d0, mut d1) = (f32::INFINITY, f32::INFINITY);
                        for (l, &dl) in d[..n].iter().enumerate() {
                            if l & mask == 0 {
                                d0 = d0.min(dl);
                            } else {
                                d1 = d1.min(dl);
                            }
                        }
                        *o = (d1 - d0) * inv;
                    }
                }
            }
        }
    }

    /// [`demap`](Self::demap) and [`deinterleave`](super::deinterleave) in one pass, the
    /// fast path: writes the LLRs of one FECFRAME (`symbols.len() · bits_per_symbol()`) in
    /// FECFRAME order. `modcod` must have this demapper's constellation (it decides the
    /// column order of 8PSK 3/5).
    ///
    /// # Panics
    /// If `out` is shorter than `symbols.len() · bits_per_symbol()`.
    pub fn demap_fec(&self, modcod: Modcod, symbols: &[Complex32], n0: f32, out: &mut [f32]) {
        debug_assert_eq!(modcod.constellation(), self.constellation);
        if self.constellation == Constellation::Qpsk {
            // QPSK's FECFRAME order is the symbol order.
            return self.demap(symbols, n0, out);
        }
        let inv = 1.0 / n0.max(f32::MIN_POSITIVE);
        let out = &mut out[..symbols.len() * self.bps];
        // Label bit b of symbol j is FECFRAME bit col(b) · rows + j (clause 5.3.3).
        let reversed = modcod.rate() == crate::modcod::CodeRate::R3_5;
        match self.constellation {
            Constellation::Psk8 => self.planes::<8, 3>(symbols, inv, out, reversed),
            Constellation::Apsk16 => self.planes::<16, 4>(symbols, inv, out, false),
            _ => self.planes::<32, 5>(symbols, inv, out, false),
        }
    }

    fn planes<const M: usize, const B: usize>(
        &self,
        symbols: &[Complex32],
        inv: f32,
        out: &mut [f32],
        reversed: bool,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
                // SAFETY: the CPU supports AVX2 and FMA (checked just above).
                unsafe { demap_avx2::<M, B>(&self.points, symbols, inv, out, reversed) };
                return;
            }
        }
        demap_points::<M, B>(&self.points, symbols, inv, out, reversed);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn demap_avx2<const M: usize, const B: usize>(
    points: &[Complex32; 32],
    symbols: &[Complex32],
    inv: f32,
    out: &mut [f32],
    reversed: bool,
) {
    // Whole steps of 8 symbols in intrinsics, the tail with the portable code.
    let n = symbols.len();
    let full = n / W * W;
    avx2::demap_planes::<M, B>(points, &symbols[..full], n, inv, out, reversed);
    if full < n {
        let mut tail = [0f32; W * 5];
        demap_points::<M, B>(
            points,
            &symbols[full..],
            inv,
            &mut tail[..(n - full) * B],
            reversed,
        );
        let rest = n - full;
        for b in 0..B {
            out[b * n + full..b * n + n].copy_from_slice(&tail[b * rest..(b + 1) * rest]);
        }
    }
}

/// The planar max-log of [`demap_points`] in AVX2/FMA intrinsics, 8 symbols per vector.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use num_complex::Complex32;

    use super::W;

    /// Writes plane b (or B − 1 − b) of bit b at `out[plane · n + j]` for the symbols given
    /// (a multiple of 8 of them; `n` is the whole frame's symbol count).
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn demap_planes<const M: usize, const B: usize>(
        points: &[Complex32; 32],
        symbols: &[Complex32],
        n: usize,
        inv: f32,
        out: &mut [f32],
        reversed: bool,
    ) {
        debug_assert_eq!(symbols.len() % W, 0);
        let inv = _mm256_set1_ps(inv);
        let mut px = [_mm256_setzero_ps(); M];
        let mut py = [_mm256_setzero_ps(); M];
        let mut e = [_mm256_setzero_ps(); M];
        for l in 0..M {
            px[l] = _mm256_set1_ps(2.0 * points[l].re);
            py[l] = _mm256_set1_ps(2.0 * points[l].im);
            e[l] = _mm256_set1_ps(points[l].norm_sqr());
        }
        for (step, ys) in symbols.chunks_exact(W).enumerate() {
            let p = ys.as_ptr().cast::<f32>();
            // SAFETY: `Complex32` is `repr(C)` {re, im}, so the 8 symbols of `ys` are 16
            // contiguous readable floats; loadu has no alignment requirement.
            let (a, b) = unsafe { (_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8))) };
            // a = r0 i0 r1 i1 | r2 i2 r3 i3, b = r4 i4 r5 i5 | r6 i6 r7 i7.
            let re =
                _mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(_mm256_shuffle_ps::<0x88>(a, b)));
            let im =
                _mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(_mm256_shuffle_ps::<0xDD>(a, b)));
            let (re, im) = (_mm256_castpd_ps(re), _mm256_castpd_ps(im));
            let mut m0 = [_mm256_set1_ps(f32::INFINITY); B];
            let mut m1 = [_mm256_set1_ps(f32::INFINITY); B];
            for l in 0..M {
                let d = _mm256_fnmadd_ps(im, py[l], _mm256_fnmadd_ps(re, px[l], e[l]));
                for bit in 0..B {
                    if (l >> (B - 1 - bit)) & 1 == 0 {
                        m0[bit] = _mm256_min_ps(m0[bit], d);
                    } else {
                        m1[bit] = _mm256_min_ps(m1[bit], d);
                    }
                }
            }
            for bit in 0..B {
                let plane = if reversed { B - 1 - bit } else { bit };
                let llr = _mm256_mul_ps(_mm256_sub_ps(m1[bit], m0[bit]), inv);
                let o = &mut out[plane * n + step * W..plane * n + step * W + W];
                // SAFETY: `o` holds 8 writable floats; storeu has no alignment requirement.
                unsafe { _mm256_storeu_ps(o.as_mut_ptr(), llr) };
            }
        }
    }
}

/// Symbols per vectorized step.
const W: usize = 8;

/// |y − p|² − |y|² = |p|² − 2·Re(y·p̄): the |y|² common to every point cancels in the LLR.
/// Loops over the points and bits have constant trip counts, so each bit's two minima are
/// straight-line code over W lanes of symbols, stored contiguously in the bit's plane
/// `out[plane · n ..]` (plane b, or B − 1 − b when `reversed`).
#[inline(always)]
fn demap_points<const M: usize, const B: usize>(
    points: &[Complex32; 32],
    symbols: &[Complex32],
    inv: f32,
    out: &mut [f32],
    reversed: bool,
) {
    let n = symbols.len();
    let mut px = [0f32; M];
    let mut py = [0f32; M];
    let mut e = [0f32; M];
    for l in 0..M {
        px[l] = 2.0 * points[l].re;
        py[l] = 2.0 * points[l].im;
        e[l] = points[l].norm_sqr();
    }
    let mut j0 = 0;
    while j0 < n {
        let len = (n - j0).min(W);
        let mut yr = [0f32; W];
        let mut yi = [0f32; W];
        for (j, y) in symbols[j0..j0 + len].iter().enumerate() {
            yr[j] = y.re;
            yi[j] = y.im;
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
        for b in 0..B {
            let plane = if reversed { B - 1 - b } else { b };
            let o = &mut out[plane * n + j0..plane * n + j0 + len];
            for (j, o) in o.iter_mut().enumerate() {
                *o = (m1[b][j] - m0[b][j]) * inv;
            }
        }
        j0 += len;
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
    fn fast_fecframe_path_equals_demap_then_deinterleave() {
        // 5401 symbols: whole steps and a tail; both the dispatched and the portable code.
        for m in Modcod::all() {
            let d = Demapper::new(m);
            let bps = d.bits_per_symbol();
            let sym: Vec<Complex32> = (0..5401)
                .map(|i| Complex32::new((i as f32 * 0.37).sin(), (i as f32 * 0.91).cos()))
                .collect();
            let mut per_symbol = vec![0f32; sym.len() * bps];
            d.demap(&sym, 0.2, &mut per_symbol);
            let mut expected = vec![0f32; per_symbol.len()];
            super::super::deinterleave(m, &per_symbol, &mut expected);
            let mut fast = vec![0f32; per_symbol.len()];
            d.demap_fec(m, &sym, 0.2, &mut fast);
            let mut portable = vec![0f32; per_symbol.len()];
            let reversed = m.to_string() == "8psk-3/5";
            match bps {
                2 => d.demap(&sym, 0.2, &mut portable),
                3 => demap_points::<8, 3>(&d.points, &sym, 5.0, &mut portable, reversed),
                4 => demap_points::<16, 4>(&d.points, &sym, 5.0, &mut portable, false),
                _ => demap_points::<32, 5>(&d.points, &sym, 5.0, &mut portable, false),
            }
            // FMA (AVX2 path) rounds differently from separate multiplies and adds.
            for (i, ((f, p), e)) in fast.iter().zip(&portable).zip(&expected).enumerate() {
                assert!(
                    (f - p).abs() <= 1e-5 * (1.0 + p.abs()),
                    "{m} bit {i}: {f} vs {p}"
                );
                assert!(
                    (f - e).abs() <= 1e-4 * (1.0 + e.abs()),
                    "{m} bit {i}: {f} vs {e}"
                );
            }
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
            let n0 = 0.05 + rng.r#gen::<f32>() * 0.5;
            let sym: Vec<Complex32> = (0..200)
                .map(|_| {
                    let p = pts[rng.gen_range(0..pts.len())];
                    p + Complex32::new(rng.r#gen::<f32>() - 0.5, rng.r#gen::<f32>() - 0.5)
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
