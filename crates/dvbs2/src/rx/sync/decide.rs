//! A constellation's rings (point count, angular offset, radius bounds): its M-th power for
//! phase estimation, and nearest-point decisions for the tests.

use num_complex::Complex32;

use super::phase::MthPower;
use crate::mapper::Mapper;
use crate::modcod::Modcod;

/// One ring of a PSK/APSK constellation: `m` points at angles `offset + k·2π/m`.
#[derive(Debug, Clone, Copy, Default)]
struct Ring {
    m: u32,
    /// e^{−j·offset}.
    derotate: Complex32,
    /// |z|² above which a symbol belongs to the next ring out (midpoint of the radii).
    upper: f32,
}

/// One MODCOD's constellation (unit mean energy) by rings: its M-th power, and (tests)
/// nearest-point decisions.
#[derive(Debug, Clone)]
pub(crate) struct Decider {
    /// The points, for the tests' nearest-point decisions.
    #[cfg(test)]
    points: [Complex32; 32],
    #[cfg(test)]
    n: usize,
    /// Rings, innermost first.
    rings: [Ring; 3],
    nrings: usize,
}

impl Decider {
    pub(crate) fn new(modcod: Modcod) -> Self {
        let mut points = [Complex32::new(0.0, 0.0); 32];
        let labels: [u8; 32] = std::array::from_fn(|i| i as u8);
        let n = 1 << modcod.constellation().bits_per_symbol();
        Mapper::new(modcod).map(&labels[..n], &mut points[..n]);
        // Group the points by radius; each ring's offset is its smallest angle modulo 2π/m.
        let mut radii: Vec<f32> = Vec::new();
        for p in &points[..n] {
            if !radii.iter().any(|r| (r - p.norm()).abs() < 1e-3) {
                radii.push(p.norm());
            }
        }
        radii.sort_by(f32::total_cmp);
        let mut rings = [Ring::default(); 3];
        for (k, &r) in radii.iter().enumerate() {
            let on: Vec<&Complex32> = points[..n]
                .iter()
                .filter(|p| (p.norm() - r).abs() < 1e-3)
                .collect();
            let m = on.len() as u32;
            let step = std::f32::consts::TAU / m as f32;
            let offset = on[0].arg().rem_euclid(step);
            let upper = radii.get(k + 1).map_or(f32::MAX, |&next| {
                let mid = 0.5 * (r + next);
                mid * mid
            });
            rings[k] = Ring {
                m,
                derotate: Complex32::from_polar(1.0, -offset),
                upper,
            };
        }
        Decider {
            #[cfg(test)]
            points,
            #[cfg(test)]
            n,
            rings,
            nrings: radii.len(),
        }
    }

    /// The constellation's M-th power, for feed-forward phase estimation: M = 4, 8, 12, 16
    /// for QPSK, 8PSK, 16APSK, 32APSK, from the rings whose point counts divide M.
    pub(crate) fn mth_power(&self) -> MthPower {
        let m = match self.nrings {
            1 => self.rings[0].m,
            2 => 12,
            _ => 16,
        };
        let mut rings = [(Complex32::new(1.0, 0.0), f32::MAX, false); 3];
        for (o, r) in rings.iter_mut().zip(&self.rings[..self.nrings]) {
            *o = (r.derotate, r.upper, m.is_multiple_of(r.m));
        }
        MthPower {
            m,
            rings,
            nrings: self.nrings,
        }
    }

    /// The constellation points, indexed by label.
    #[cfg(test)]
    pub(crate) fn points(&self) -> &[Complex32] {
        &self.points[..self.n]
    }

    /// The label of the point nearest to `z`.
    #[cfg(test)]
    pub(crate) fn nearest_label(&self, z: Complex32) -> usize {
        let mut best = (f32::MAX, 0);
        for (i, p) in self.points[..self.n].iter().enumerate() {
            let d = (z - p).norm_sqr();
            if d < best.0 {
                best = (d, i);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mth_power_phase_is_m_times_the_angle_to_the_nearest_point() {
        // For rotations of every point of every constellation: arg(power(z))/M equals the
        // angle θ between z and the nearest point (rings left out give zero), and the power's
        // magnitude is |z|².
        for m in Modcod::all() {
            let d = Decider::new(m);
            let mp = d.mth_power();
            for &p in d.points() {
                let ring = d
                    .points()
                    .iter()
                    .filter(|q| (q.norm() - p.norm()).abs() < 1e-3)
                    .count() as u32;
                for err in [-0.03f32, -0.01, 0.0, 0.02, 0.03] {
                    let z = p * Complex32::from_polar(1.0, err);
                    let near = d.points()[d.nearest_label(z)];
                    let theta = (z * near.conj()).arg();
                    let w = mp.power(z);
                    if !mp.m.is_multiple_of(ring) {
                        assert_eq!(w, Complex32::new(0.0, 0.0), "{m} {p}");
                        continue;
                    }
                    let got = w.arg() / mp.m as f32;
                    assert!(
                        (got - theta).abs() < 1e-4,
                        "{m} {p} {err}: {got} vs {theta}"
                    );
                    assert!((w.norm() - z.norm_sqr()).abs() < 1e-4, "{m} {p}");
                }
            }
        }
    }

    #[test]
    fn mth_power_of_a_symbol_near_zero_is_finite_and_small() {
        // A noisy symbol near the origin: |z|^{-(M-2)} alone overflows f32 at M = 16 below
        // |z|² ≈ 3e-6 while z^M underflows to zero, and 0·∞ made the frame's sums NaN (the
        // carrier then lost a 32APSK frame now and then).
        for m in Modcod::all() {
            let mp = Decider::new(m).mth_power();
            for p in [1e-11f32, 1e-9, 1e-7, 1e-6, 1e-5, 1e-3] {
                let z = Complex32::from_polar(p.sqrt(), 0.3);
                let w = mp.power(z);
                assert!(w.re.is_finite() && w.im.is_finite(), "{m}, |z|² {p}: {w}");
                assert!(w.norm() <= p * 1.001, "{m}, |z|² {p}: {w}");
            }
        }
    }
}
