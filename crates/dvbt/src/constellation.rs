//! The carriers' constellations (ETSI EN 300 744 clause 4.3.5, figure 9): QPSK, 16QAM and
//! 64QAM, uniform or hierarchical (α = 2, 4), Gray-mapped, normalized as clause 4.4 says
//! (table of normalization factors), in gr-dtv's `dvbt_map` arithmetic (single precision).

use crate::params::{Constellation, Hierarchy};
use num_complex::Complex32;

/// Gray code to binary, for the 1 or 2 bits an axis's amplitude takes.
fn gray_to_binary(g: u32) -> u32 {
    g ^ (g >> 1)
}

/// The normalization factor of clause 4.4 (1/√2 for QPSK, whatever α: gr-dtv's choice).
fn normalization(c: Constellation, h: Hierarchy) -> f32 {
    let energy = match (c, h.alpha()) {
        (Constellation::Qpsk, _) => 2.0,
        (Constellation::Qam16, 1) => 10.0,
        (Constellation::Qam16, 2) => 20.0,
        (Constellation::Qam16, _) => 52.0,
        (Constellation::Qam64, 1) => 42.0,
        (Constellation::Qam64, 2) => 60.0,
        (Constellation::Qam64, _) => 108.0,
    };
    (1.0 / f64::sqrt(energy)) as f32
}

/// The point of every symbol value (`2^v` of them, y_0 the most significant bit) scaled by
/// `gain`: y_0 and y_1 the signs of I and Q (1: negative), then I's and Q's bits alternately
/// (y_2 I, y_3 Q, y_4 I, y_5 Q) Gray-coding the distance from the axis, the outermost first,
/// levels α, α + 2, α + 4 … (QPSK: ±α, as gr-dtv makes it).
pub fn points(c: Constellation, h: Hierarchy, gain: f32) -> Vec<Complex32> {
    let v = c.bits() as u32;
    let axis_bits = v / 2 - 1;
    let outer = (1i32 << axis_bits) - 1;
    let scale = gain * normalization(c, h);
    (0..1u32 << v)
        .map(|s| {
            let (mut gi, mut gq) = (0, 0);
            for j in 0..axis_bits {
                // y_{2+2j} and y_{3+2j}: the bits after the signs, from the top.
                gi = (gi << 1) | (s >> (v - 3 - 2 * j)) & 1;
                gq = (gq << 1) | (s >> (v - 4 - 2 * j)) & 1;
            }
            let level = |g: u32| h.alpha() + (outer - gray_to_binary(g) as i32) * 2;
            let sign = |bit: u32| if bit == 1 { -1 } else { 1 };
            let i = sign((s >> (v - 1)) & 1) * level(gi);
            let q = sign((s >> (v - 2)) & 1) * level(gq);
            Complex32::new(scale * i as f32, scale * q as f32)
        })
        .collect()
}

/// The index of the point of `points` nearest to `z` (squared distance in single precision,
/// the first of equally near ones), as gr-dtv's `dvbt_demap` decides.
pub fn nearest(points: &[Complex32], z: Complex32) -> usize {
    let mut best = (0, f32::INFINITY);
    for (i, p) in points.iter().enumerate() {
        let (dr, di) = (z.re - p.re, z.im - p.im);
        let d = dr * dr + di * di;
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_energy_are_the_standard_s() {
        let p = points(Constellation::Qam16, Hierarchy::Nh, 1.0);
        let k = 1.0 / 10f32.sqrt();
        // Figure 9: 0000 is (3, 3), 1111 is (-1, -1), 1010 is (-3, 1)... in units of k.
        assert_eq!(p[0b0000], Complex32::new(3.0 * k, 3.0 * k));
        assert_eq!(p[0b1111], Complex32::new(-k, -k));
        assert_eq!(p[0b1000], Complex32::new(-3.0 * k, 3.0 * k));
        assert_eq!(p[0b0010], Complex32::new(k, 3.0 * k));
        for (c, h) in [
            (Constellation::Qpsk, Hierarchy::Nh),
            (Constellation::Qam16, Hierarchy::Nh),
            (Constellation::Qam64, Hierarchy::Nh),
            (Constellation::Qam16, Hierarchy::Alpha2),
            (Constellation::Qam16, Hierarchy::Alpha4),
            (Constellation::Qam64, Hierarchy::Alpha2),
            (Constellation::Qam64, Hierarchy::Alpha4),
        ] {
            let p = points(c, h, 1.0);
            let e: f32 = p.iter().map(|z| z.norm_sqr()).sum::<f32>() / p.len() as f32;
            assert!((e - 1.0).abs() < 1e-5, "{c:?} {h:?}: mean energy {e}");
        }
    }

    #[test]
    fn every_point_is_nearest_to_itself() {
        for c in [
            Constellation::Qpsk,
            Constellation::Qam16,
            Constellation::Qam64,
        ] {
            let p = points(c, Hierarchy::Alpha2, 1.5);
            for (i, &z) in p.iter().enumerate() {
                assert_eq!(nearest(&p, z), i, "{c:?}");
            }
        }
        // QPSK's four points are equally near to the origin: the first.
        let p = points(Constellation::Qpsk, Hierarchy::Nh, 1.0);
        assert_eq!(nearest(&p, Complex32::new(0.0, 0.0)), 0);
        // 16QAM's inner points 0011, 0111, 1011, 1111 are: 0011.
        let p = points(Constellation::Qam16, Hierarchy::Nh, 1.0);
        assert_eq!(nearest(&p, Complex32::new(0.0, 0.0)), 0b0011);
    }

    #[test]
    fn neighbours_differ_in_one_bit() {
        let p = points(Constellation::Qam64, Hierarchy::Nh, 1.0);
        let d = 2.0 / 42f32.sqrt();
        for a in 0..64usize {
            for b in 0..64usize {
                if ((p[a] - p[b]).norm() - d).abs() < 1e-4 {
                    assert_eq!((a ^ b).count_ones(), 1, "{a:06b} {b:06b}");
                }
            }
        }
    }
}
