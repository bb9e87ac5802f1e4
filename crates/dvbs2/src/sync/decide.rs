//! Hard decisions: the nearest constellation point, for decision-directed phase tracking.

use num_complex::Complex32;

use crate::mapper::Mapper;
use crate::modcod::{Constellation, Modcod};

/// Nearest-point decisions for one MODCOD's constellation (unit mean energy).
#[derive(Debug, Clone)]
pub(crate) struct Decider {
    qpsk: bool,
    points: [Complex32; 32],
    n: usize,
}

impl Decider {
    pub(crate) fn new(modcod: Modcod) -> Self {
        let mut points = [Complex32::new(0.0, 0.0); 32];
        let labels: [u8; 32] = std::array::from_fn(|i| i as u8);
        let n = 1 << modcod.constellation().bits_per_symbol();
        Mapper::new(modcod).map(&labels[..n], &mut points[..n]);
        Decider {
            qpsk: modcod.constellation() == Constellation::Qpsk,
            points,
            n,
        }
    }

    /// The constellation points, indexed by label.
    #[cfg(test)]
    pub(crate) fn points(&self) -> &[Complex32] {
        &self.points[..self.n]
    }

    /// The point nearest to `z`.
    #[inline]
    pub(crate) fn nearest(&self, z: Complex32) -> Complex32 {
        if self.qpsk {
            let a = std::f32::consts::FRAC_1_SQRT_2;
            return Complex32::new(a.copysign(z.re), a.copysign(z.im));
        }
        self.points[self.nearest_label(z)]
    }

    /// The label of the point nearest to `z`.
    #[inline]
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
    fn qpsk_fast_path_equals_the_nearest_point_search() {
        let d = Decider::new("qpsk-1/2".parse().unwrap());
        for k in 0..100 {
            let z = Complex32::from_polar(0.2 + 0.01 * k as f32, 0.37 * k as f32);
            assert_eq!(d.nearest(z), d.points()[d.nearest_label(z)]);
        }
    }
}
