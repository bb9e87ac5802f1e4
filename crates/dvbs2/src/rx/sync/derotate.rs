//! Derotation and descrambling of data symbols: the phasors of a linear phase, computed
//! without drift over long frames, applied eight symbols at a time.

use std::f64::consts::TAU;

use num_complex::Complex32;

/// e^{−j2π·f·n} for a symbol index n, computed in f64 so that long frames do not drift.
#[inline]
pub(crate) fn rot_at(freq: f64, n: usize) -> Complex32 {
    let ph = (freq * n as f64).fract() * TAU;
    Complex32::new(ph.cos() as f32, -ph.sin() as f32)
}

/// Phase wrapped into (−π, π].
#[inline]
pub(crate) fn wrap(x: f64) -> f64 {
    x - TAU * (x / TAU).round()
}

/// Multiplies by e^{−jRπ/2}.
#[inline(always)]
pub(crate) fn descramble(s: Complex32, r: u8) -> Complex32 {
    const RE: [usize; 4] = [0, 1, 2, 3];
    const IM: [usize; 4] = [1, 2, 3, 0];
    let v = [s.re, s.im, -s.re, -s.im];
    let r = usize::from(r & 3);
    Complex32::new(v[RE[r]], v[IM[r]])
}

/// Derotates by a linear phase, descrambles and scales one data segment.
#[inline]
pub(crate) fn segment(
    y: &[Complex32],
    scr: &[u8],
    ph0: f64,
    dph: f64,
    scale: f32,
    out: &mut Vec<Complex32>,
) {
    let mut rot = Rotator::new(ph0, dph, scale);
    let mut buf = [Complex32::new(0.0, 0.0); LANES];
    for (chunk, sc) in y.chunks(LANES).zip(scr.chunks(LANES)) {
        for (((o, &s), &r), &w) in buf.iter_mut().zip(chunk).zip(sc).zip(&rot.w) {
            *o = descramble(s * w, r);
        }
        out.extend_from_slice(&buf[..chunk.len()]);
        rot.advance();
    }
}

/// Symbols a [`Rotator`] derotates at once.
pub(crate) const LANES: usize = 8;

/// scale·e^{−j(φ0 + n·Δφ)} for `LANES` consecutive symbols n at a time: independent phasors
/// (no chain of dependent multiplications from one symbol to the next), renormalized every
/// 64 steps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rotator {
    pub(crate) w: [Complex32; LANES],
    step: Complex32,
    scale2: f32,
    steps: u32,
}

impl Rotator {
    // Inlined into its callers in carrier.rs and phase.rs, as when it lived in carrier.rs: a
    // call per data segment otherwise (1 % more instructions for the whole receiver).
    #[inline]
    pub(crate) fn new(ph0: f64, dph: f64, scale: f32) -> Self {
        let w0 = Complex32::from_polar(scale, -wrap(ph0) as f32);
        let d1 = Complex32::from_polar(1.0, -wrap(dph) as f32);
        let mut w = [w0; LANES];
        for l in 1..LANES {
            w[l] = w[l - 1] * d1;
        }
        Rotator {
            w,
            step: Complex32::from_polar(1.0, -wrap(dph * LANES as f64) as f32),
            scale2: scale * scale,
            steps: 0,
        }
    }

    /// The next `LANES` symbols.
    #[inline(always)]
    pub(crate) fn advance(&mut self) {
        for w in &mut self.w {
            *w *= self.step;
        }
        self.steps += 1;
        if self.steps.is_multiple_of(64) {
            // One Newton step towards |w| = scale.
            for w in &mut self.w {
                *w *= 1.5 - 0.5 * w.norm_sqr() / self.scale2;
            }
        }
    }
}
