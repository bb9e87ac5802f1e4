//! Symbol timing recovery: a Gardner detector driving a cubic (Lagrange, Farrow form)
//! interpolator, from 2 samples per symbol to 1.
//!
//! F. M. Gardner, "A BPSK/QPSK timing-error detector for sampled receivers", IEEE Trans.
//! Commun. 34(5), 1986; interpolator: L. Erup, F. M. Gardner, R. A. Harris, "Interpolation in
//! digital modems — part II", IEEE Trans. Commun. 41(6), 1993 (cubic Lagrange, Farrow form).

use num_complex::Complex32;

/// Samples of history kept before the next strobe: the interpolator reaches one sample back
/// from the midpoint, which is about one sample before the strobe.
const BACK: usize = 3;

/// Gardner timing loop state. Feed it matched-filter output at nominally 2 samples/symbol.
#[derive(Debug, Clone)]
pub(crate) struct Gardner {
    /// The next strobe is at `pending[i] + mu` samples, `mu` in [0, 1).
    i: usize,
    mu: f32,
    /// Current samples per symbol estimate (nominally 2), in f64: its steps are ~1e-6.
    sps: f64,
    nominal: f64,
    kp: f32,
    ki: f32,
    /// Last strobe value.
    prev: Complex32,
    /// Detector output of the last symbol, applied at the next: the one-symbol loop delay
    /// takes the detector off the loop's critical path (the loop is ~1000 symbols slow).
    e_prev: f32,
    /// Input samples not yet consumed (the first ones are history).
    pending: Vec<Complex32>,
}

/// Cubic Lagrange interpolation at `mu ∈ [0, 1)` between `x[1]` and `x[2]`.
#[inline(always)]
fn cubic(x: &[Complex32], mu: f32) -> Complex32 {
    // Farrow form of the 4-point Lagrange interpolator (Erup et al. 1993, eq. 22-25).
    let m2 = mu * mu;
    let m3 = m2 * mu;
    let cm1 = (-m3 + 3.0 * m2 - 2.0 * mu) * (1.0 / 6.0);
    let c0 = (m3 - 2.0 * m2 - mu + 2.0) * 0.5;
    let c1 = (-m3 + m2 + 2.0 * mu) * 0.5;
    let c2 = (m3 - mu) * (1.0 / 6.0);
    x[0] * cm1 + x[1] * c0 + x[2] * c1 + x[3] * c2
}

impl Gardner {
    /// A loop for `sps` samples per symbol with normalized noise bandwidth `bn_t` (loop
    /// bandwidth × symbol period) and damping 1/√2.
    pub(crate) fn new(sps: f64, bn_t: f64) -> Self {
        // Proportional and integral gains of a second-order loop (Rice, "Digital
        // Communications: A Discrete-Time Approach", appendix C), for a detector gain of
        // `KD` per sample of timing error, measured on unit-energy RRC (α 0.2) symbols.
        const KD: f64 = 1.3;
        let zeta = std::f64::consts::FRAC_1_SQRT_2;
        let theta = bn_t / (zeta + 0.25 / zeta);
        let d = 1.0 + 2.0 * zeta * theta + theta * theta;
        Gardner {
            i: BACK + 1,
            mu: 0.0,
            sps,
            nominal: sps,
            kp: (4.0 * zeta * theta / d / KD) as f32,
            ki: (4.0 * theta * theta / d / KD) as f32,
            prev: Complex32::new(0.0, 0.0),
            e_prev: 0.0,
            pending: Vec::with_capacity(1 << 14),
        }
    }

    /// Current estimate of samples per symbol.
    pub(crate) fn samples_per_symbol(&self) -> f64 {
        self.sps
    }

    /// Room for `n` more samples; write them with [`commit`](Self::commit).
    pub(crate) fn input_space(&mut self, n: usize) -> &mut [Complex32] {
        let len = self.pending.len();
        self.pending.resize(len + n, Complex32::new(0.0, 0.0));
        &mut self.pending[len..]
    }

    /// Runs the loop over the buffered samples, appending one symbol per strobe to `out`.
    pub(crate) fn run(&mut self, out: &mut Vec<Complex32>) {
        let x = &self.pending;
        let (mut i, mut mu, mut sps, mut prev) = (self.i, self.mu, self.sps, self.prev);
        let mut e_prev = self.e_prev;
        let (kp, ki) = (self.kp, f64::from(self.ki));
        let (lo, hi) = (self.nominal * 0.98, self.nominal * 1.02);
        out.reserve(x.len() / 2 + 2);
        // The strobe needs samples up to i + 2; the midpoint, one sample before, from i − 2.
        while i + 3 <= x.len() {
            let y = cubic(&x[i - 1..i + 3], mu);
            // Midpoint at i + tm, tm in [−2, 1): floor by truncating tm + 4 (f32::floor is a
            // libm call without SSE4.1).
            let sps32 = sps as f32;
            let tm = mu - 0.5 * sps32;
            let k = (tm + 4.0) as usize;
            let im = i + k - 4;
            let m = cubic(&x[im - 1..im + 3], tm + 4.0 - k as f32);
            // Gardner: positive when the strobes are early.
            let d = prev - y;
            let e = m.re * d.re + m.im * d.im;
            // Bounded, and 0 for non-finite input, so that the strobe always advances.
            let e = if e.is_finite() {
                e.clamp(-4.0, 4.0)
            } else {
                0.0
            };
            out.push(y);
            prev = y;
            let adv = mu + sps32 + kp * e_prev;
            sps = (sps + ki * f64::from(e_prev)).clamp(lo, hi);
            e_prev = e;
            let k = adv as usize;
            i += k;
            mu = adv - k as f32;
        }
        // Keep what the next strobe and its midpoint need.
        let keep_from = i.saturating_sub(BACK).min(x.len());
        self.pending.drain(..keep_from);
        self.i = i - keep_from;
        (self.mu, self.sps, self.prev, self.e_prev) = (mu, sps, prev, e_prev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_is_exact_on_cubic_polynomials() {
        let f = |t: f32| Complex32::new(0.3 * t * t * t - t * t + 2.0, 1.0 - 0.5 * t);
        let x: Vec<Complex32> = (-1..3).map(|i| f(i as f32)).collect();
        for k in 0..10 {
            let mu = k as f32 / 10.0;
            assert!((cubic(&x, mu) - f(mu)).norm() < 1e-5, "mu {mu}");
        }
    }
}
