//! Bit interleaving (clause 5.3.3) and bit mapping into constellations (clause 5.4).

use std::f64::consts::PI;

use num_complex::Complex32;

use crate::modcod::{CodeRate, Constellation, Modcod};

/// Writes one constellation label per symbol from a FECFRAME (one bit per byte).
///
/// QPSK takes bits in order. 8PSK, 16APSK and 32APSK write the FECFRAME column-wise into
/// η_MOD columns of Nldpc/η_MOD rows and read it row-wise, the first column read giving the
/// label's MSB (Table 7); 8PSK 3/5 reads the columns in reverse order (Figure 7).
pub(crate) fn interleave(modcod: Modcod, fec: &[u8], labels: &mut [u8]) {
    let bps = modcod.constellation().bits_per_symbol();
    let rows = fec.len() / bps;
    let labels = &mut labels[..rows];
    if bps == 2 {
        for (l, pair) in labels.iter_mut().zip(fec.chunks_exact(2)) {
            *l = (pair[0] << 1) | pair[1];
        }
        return;
    }
    let reversed = modcod.constellation() == Constellation::Psk8 && modcod.rate() == CodeRate::R3_5;
    let mut cols: [&[u8]; 5] = [&[]; 5];
    for (c, col) in cols[..bps].iter_mut().enumerate() {
        let src = if reversed { bps - 1 - c } else { c };
        *col = &fec[src * rows..(src + 1) * rows];
    }
    for (j, l) in labels.iter_mut().enumerate() {
        *l = cols[..bps].iter().fold(0u8, |acc, col| (acc << 1) | col[j]);
    }
}

/// Constellation points indexed by label, with unit average energy (PSK radius 1; APSK rings
/// scaled so that the mean of |s|² is 1, as gr-dtv's `dvbs2_modulator_bc` does).
#[derive(Debug, Clone)]
pub(crate) struct Mapper {
    points: [Complex32; 32],
}

/// r·e^{j angle}, computed in f64 and rounded to f32 as gr-dtv does.
fn polar(r: f64, angle: f64) -> Complex32 {
    Complex32::new((r * angle.cos()) as f32, (r * angle.sin()) as f32)
}

impl Mapper {
    pub(crate) fn new(modcod: Modcod) -> Self {
        let mut points = [Complex32::new(0.0, 0.0); 32];
        match modcod.constellation() {
            Constellation::Qpsk => {
                // Figure 9: labels 00, 01, 10, 11 at π/4, −π/4, 3π/4, −3π/4.
                for (p, q) in points.iter_mut().zip([1.0, 7.0, 3.0, 5.0]) {
                    *p = polar(1.0, q * PI / 4.0);
                }
            }
            Constellation::Psk8 => {
                // Figure 10 (Gray mapping), angles in units of π/4.
                for (p, q) in points
                    .iter_mut()
                    .zip([1.0, 0.0, 4.0, 5.0, 2.0, 7.0, 3.0, 6.0])
                {
                    *p = polar(1.0, q * PI / 4.0);
                }
            }
            Constellation::Apsk16 => {
                // Table 9: γ = R2/R1 per code rate.
                let gamma = match modcod.rate() {
                    CodeRate::R2_3 => 3.15,
                    CodeRate::R3_4 => 2.85,
                    CodeRate::R4_5 => 2.75,
                    CodeRate::R5_6 => 2.70,
                    CodeRate::R8_9 => 2.60,
                    _ => 2.57,
                };
                let r2 = 1.0f64;
                let r1 = r2 / gamma;
                let scale = (4.0 / (r1 * r1 + 3.0 * r2 * r2)).sqrt();
                let (r1, r2) = (r1 * scale, r2 * scale);
                // Figure 11: labels 0..11 on the outer ring, 12..15 on the inner ring;
                // angles in units of π/12.
                const OUTER: [f64; 12] = [
                    3.0, -3.0, 9.0, -9.0, 1.0, -1.0, 11.0, -11.0, 5.0, -5.0, 7.0, -7.0,
                ];
                const INNER: [f64; 4] = [3.0, -3.0, 9.0, -9.0];
                for (p, a) in points.iter_mut().zip(OUTER) {
                    *p = polar(r2, a * PI / 12.0);
                }
                for (p, a) in points[12..].iter_mut().zip(INNER) {
                    *p = polar(r1, a * PI / 12.0);
                }
            }
            Constellation::Apsk32 => {
                // Table 10: γ1 = R2/R1, γ2 = R3/R1 per code rate.
                let (g1, g2) = match modcod.rate() {
                    CodeRate::R3_4 => (2.84, 5.27),
                    CodeRate::R4_5 => (2.72, 4.87),
                    CodeRate::R5_6 => (2.64, 4.64),
                    CodeRate::R8_9 => (2.54, 4.33),
                    _ => (2.53, 4.30),
                };
                let r3 = 1.0f64;
                let r1 = r3 / g2;
                let r2 = r1 * g1;
                let scale = (8.0 / (r1 * r1 + 3.0 * r2 * r2 + 4.0 * r3 * r3)).sqrt();
                let r = [r1 * scale, r2 * scale, r3 * scale];
                // Figure 12: (ring, angle) per label; ring 1 angles in π/12, ring 2 in π/8,
                // ring 0 in π/4 (written here in π/24 to share one unit).
                const P: [(usize, f64); 32] = [
                    (1, 6.0),
                    (1, 10.0),
                    (1, -6.0),
                    (1, -10.0),
                    (1, 18.0),
                    (1, 14.0),
                    (1, -18.0),
                    (1, -14.0),
                    (2, 3.0),
                    (2, 9.0),
                    (2, -6.0),
                    (2, -12.0),
                    (2, 18.0),
                    (2, 12.0),
                    (2, -21.0),
                    (2, -15.0),
                    (1, 2.0),
                    (0, 6.0),
                    (1, -2.0),
                    (0, -6.0),
                    (1, 22.0),
                    (0, 18.0),
                    (1, -22.0),
                    (0, -18.0),
                    (2, 0.0),
                    (2, 6.0),
                    (2, -3.0),
                    (2, -9.0),
                    (2, 21.0),
                    (2, 15.0),
                    (2, 24.0),
                    (2, -18.0),
                ];
                for (p, (ring, a)) in points.iter_mut().zip(P) {
                    *p = polar(r[ring], a * PI / 24.0);
                }
            }
        }
        Mapper { points }
    }

    /// The points, indexed by label (32 entries; the constellation's first 2^bps are used).
    pub(crate) fn points(&self) -> &[Complex32; 32] {
        &self.points
    }

    #[inline]
    pub(crate) fn map(&self, labels: &[u8], out: &mut [Complex32]) {
        for (o, &l) in out.iter_mut().zip(labels) {
            *o = self.points[usize::from(l & 31)];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constellations_have_unit_mean_energy_and_distinct_points() {
        for m in Modcod::all() {
            let mapper = Mapper::new(m);
            let n = 1 << m.constellation().bits_per_symbol();
            let pts = &mapper.points[..n];
            let e: f32 = pts.iter().map(|p| p.norm_sqr()).sum::<f32>() / n as f32;
            assert!((e - 1.0).abs() < 1e-5, "{m}: {e}");
            for i in 0..n {
                for j in 0..i {
                    assert!((pts[i] - pts[j]).norm() > 0.1, "{m}: {i} {j}");
                }
            }
        }
    }

    #[test]
    fn apsk_ring_ratios_follow_tables_9_and_10() {
        let m: Modcod = "16apsk-3/4".parse().unwrap();
        let p = Mapper::new(m).points;
        assert!((p[0].norm() / p[12].norm() - 2.85).abs() < 1e-5);
        let m: Modcod = "32apsk-8/9".parse().unwrap();
        let p = Mapper::new(m).points;
        assert!((p[0].norm() / p[17].norm() - 2.54).abs() < 1e-5);
        assert!((p[8].norm() / p[17].norm() - 4.33).abs() < 1e-5);
    }

    #[test]
    fn interleaver_reads_columns_in_order_except_8psk_3_5() {
        let rows = 16200 / 3;
        let mut fec = vec![0u8; 16200];
        fec[0] = 1; // column 0, row 0
        fec[rows + 1] = 1; // column 1, row 1
        let mut labels = vec![0u8; rows];
        interleave("8psk-2/3".parse().unwrap(), &fec, &mut labels);
        assert_eq!((labels[0], labels[1]), (0b100, 0b010));
        interleave("8psk-3/5".parse().unwrap(), &fec, &mut labels);
        assert_eq!((labels[0], labels[1]), (0b001, 0b010));
    }
}
