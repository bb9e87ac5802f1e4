//! The data-shaping pulse shared by the encoder (transmitter half) and the decoder's matched
//! filter (receiver half).
//!
//! EN 50067 §1.7 (IEC 62106-1) shapes each biphase impulse so that the overall data channel
//! (transmitter and receiver together) has the amplitude response
//! `H₀(f) = cos(π·f·t_d/4)` for `0 ≤ f ≤ 2/t_d`, 0 above, with `t_d = 1/1187.5 s`, split
//! equally between the two ends: each end's filter is `√H₀(f)`. With `T = t_d/2` (one biphase
//! half-symbol, 1/2375 s) that is `√cos(π·f·T/2)` up to `f = 1/T`.

use std::f64::consts::PI;

/// RDS bit rate, bit/s (EN 50067 §1.5: 57 kHz / 48).
pub const BIT_RATE: f64 = 1187.5;

/// Rate of the biphase half-symbols (two per bit), 1/s.
pub(crate) const HALF_SYMBOL_RATE: f64 = 2.0 * BIT_RATE;

/// The pulse is kept over `±SPAN` half-symbols and tapered to zero at the ends.
pub(crate) const SPAN: f64 = 6.0;

/// Points of the numeric integration over `0..1/T`.
const POINTS: usize = 2048;

/// The impulse response of one end's filter `√cos(π·f·T/2)` (`|f| ≤ 1/T`) at `u` half-symbol
/// periods from its centre, tapered by a raised-cosine window over `±SPAN` (0 outside), in
/// units where the untapered response's peak is `2∫₀¹√cos(πv/2)dv ≈ 1.2`.
///
/// Computed by midpoint integration of `2∫₀¹ √cos(πv/2)·cos(2πvu) dv` (the `√` edge at
/// `v = 1` is integrable; 2048 points give about 1e-5), only when filters are built.
pub(crate) fn pulse(u: f64) -> f64 {
    if u.abs() >= SPAN {
        return 0.0;
    }
    let dv = 1.0 / POINTS as f64;
    let integral: f64 = (0..POINTS)
        .map(|k| {
            let v = (k as f64 + 0.5) * dv;
            (PI * v / 2.0).cos().sqrt() * (2.0 * PI * v * u).cos()
        })
        .sum::<f64>()
        * dv;
    let taper = 0.5 * (1.0 + (PI * u / SPAN).cos());
    2.0 * integral * taper
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pulse_is_even_peaked_and_zero_outside_the_span() {
        assert!((pulse(0.0) - pulse(-0.0)).abs() < 1e-12);
        for u in [0.3, 1.0, 2.7, 5.5] {
            assert!((pulse(u) - pulse(-u)).abs() < 1e-12);
            assert!(pulse(u).abs() < pulse(0.0));
        }
        assert_eq!(pulse(SPAN), 0.0);
        assert_eq!(pulse(-7.0), 0.0);
        // 2∫₀¹ √cos(πv/2) dv = 1.1981..., from an independent fine trapezoid sum.
        let n = 200_000;
        let exact: f64 = (0..=n)
            .map(|k| {
                let v = k as f64 / n as f64;
                let w = if k == 0 || k == n { 0.5 } else { 1.0 };
                w * (PI * v / 2.0).cos().max(0.0).sqrt()
            })
            .sum::<f64>()
            * 2.0
            / n as f64;
        assert!((pulse(0.0) - exact).abs() < 1e-4, "{} {exact}", pulse(0.0));
    }
}
