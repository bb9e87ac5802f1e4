//! Hard decisions: the nearest constellation point, for decision-directed phase tracking.

use num_complex::Complex32;

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

/// Decisions for one MODCOD's constellation (unit mean energy): nearest point, and the phase
/// error a decision-directed loop needs.
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

    /// A single-ring constellation's order and offset (QPSK, 8PSK), for M-th power phase
    /// estimation.
    pub(crate) fn psk(&self) -> Option<super::phase::Psk> {
        let ring = self.rings[0];
        (self.nrings == 1 && matches!(ring.m, 4 | 8)).then_some(super::phase::Psk {
            m: ring.m,
            derotate: ring.derotate,
        })
    }

    /// Phase error of `z` (radians, small errors) against its ring's points: the argument of
    /// (z·e^{−j·offset})^m divided by m, which needs no search over the points (m-th power
    /// by squaring: m is 4, 8, 12 or 16).
    #[inline]
    pub(crate) fn phase_error(&self, z: Complex32) -> f32 {
        let power = z.norm_sqr();
        let mut ring = self.rings[0];
        for r in &self.rings[1..self.nrings] {
            if power > ring.upper {
                ring = *r;
            }
        }
        let w = z * ring.derotate;
        let w2 = w * w;
        let w4 = w2 * w2;
        let p = match ring.m {
            4 => w4,
            8 => w4 * w4,
            12 => w4 * w4 * w4,
            _ => {
                let w8 = w4 * w4;
                w8 * w8
            }
        };
        p.im / (ring.m as f32 * p.norm().max(f32::MIN_POSITIVE))
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
    fn phase_error_equals_the_angle_to_the_nearest_point() {
        // Reference: sin(m·θ)/m (the m-th power detector's S-curve) for θ the angle between z
        // and the nearest point, m the points on its ring, for rotations of every point of
        // every constellation.
        for m in Modcod::all() {
            let d = Decider::new(m);
            for &p in d.points() {
                for err in [-0.08f32, -0.01, 0.0, 0.03, 0.1] {
                    let z = p * Complex32::from_polar(1.0, err);
                    let near = d.points()[d.nearest_label(z)];
                    let theta = (z * near.conj()).arg();
                    let ring = d
                        .points()
                        .iter()
                        .filter(|q| (q.norm() - near.norm()).abs() < 1e-3)
                        .count() as f32;
                    let reference = (ring * theta).sin() / ring;
                    let got = d.phase_error(z);
                    assert!(
                        (got - reference).abs() < 1e-4,
                        "{m} {p} {err}: {got} vs {reference}"
                    );
                }
            }
        }
    }
}
