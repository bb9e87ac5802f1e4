//! Pulse shaping (clause 5.6): root-raised-cosine filtering at an integer number of samples
//! per symbol, or one unshaped symbol per sample.

use num_complex::Complex32;
use radioflow_dsp::{firdes, InterpolatingFir};
use thiserror::Error;

use crate::bbframe::RollOff;

/// Why a [`Shaper`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShapingError {
    /// Samples per symbol of 0.
    #[error("samples per symbol (sps) must be at least 1, got {0}")]
    Sps(usize),
    /// RRC shaping asked for with one sample per symbol: the filter needs at least 2.
    #[error("RRC shaping needs at least 2 samples per symbol (got sps {0}); use --shaping none for one unshaped symbol per sample")]
    RrcNeedsSps(usize),
    /// Number of taps of 0.
    #[error("the RRC filter needs at least one tap")]
    Taps,
}

/// How the symbols become samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shaping {
    /// Root-raised-cosine filter (clause 5.6) with the roll-off of [`RollOff`], `sps` samples
    /// per symbol, `span` symbols on each side of the centre tap (`2·span·sps + 1` taps).
    Rrc {
        /// Roll-off α.
        roll_off: RollOff,
        /// Samples per symbol (interpolation), at least 2.
        sps: usize,
        /// Symbols on each side of the centre tap.
        span: usize,
    },
    /// Each symbol written once (or held for `sps` samples with zeros: see
    /// [`Shaper::process`]); `sps` 1 gives one complex value per symbol.
    None {
        /// Samples per symbol: the symbol then `sps - 1` zeros.
        sps: usize,
    },
}

impl Shaping {
    /// The default RRC filter: ±10 symbols.
    pub const fn rrc(roll_off: RollOff, sps: usize) -> Self {
        Shaping::Rrc {
            roll_off,
            sps,
            span: 10,
        }
    }

    /// Samples per symbol.
    pub const fn sps(&self) -> usize {
        match *self {
            Shaping::Rrc { sps, .. } | Shaping::None { sps } => sps,
        }
    }

    /// The RRC taps (GNU Radio's `firdes.root_raised_cosine(sps, sps, 1, α, 2·span·sps + 1)`:
    /// taps summing to `sps`, so each polyphase branch has unit DC gain), or `None`.
    ///
    /// # Errors
    /// As for [`Shaper::new`].
    pub fn taps(&self) -> Result<Option<Vec<f32>>, ShapingError> {
        match *self {
            Shaping::None { sps } if sps == 0 => Err(ShapingError::Sps(sps)),
            Shaping::None { .. } => Ok(None),
            Shaping::Rrc { sps, .. } if sps < 2 => Err(if sps == 0 {
                ShapingError::Sps(0)
            } else {
                ShapingError::RrcNeedsSps(sps)
            }),
            Shaping::Rrc { span: 0, .. } => Err(ShapingError::Taps),
            Shaping::Rrc {
                roll_off,
                sps,
                span,
            } => {
                let n = 2 * span * sps + 1;
                let s = sps as f64;
                firdes::root_raised_cosine(s, s, 1.0, f64::from(roll_off.alpha()), n)
                    .map(Some)
                    .map_err(|_| ShapingError::Taps)
            }
        }
    }
}

/// Symbols in, samples out: a streaming RRC interpolator ([`InterpolatingFir`], polyphase) or
/// zero-stuffing. The filter keeps its history across calls, so the output does not depend
/// on how the symbols are split into frames; [`finish`](Self::finish) writes its ringing
/// after the last symbol. Clone it to get an independent copy.
#[derive(Clone, Debug)]
pub struct Shaper {
    shaping: Shaping,
    fir: Option<InterpolatingFir<Complex32>>,
    /// Zero symbols that flush the filter: taps per polyphase branch − 1.
    zeros: Vec<Complex32>,
}

impl Shaper {
    /// A shaper for `shaping`.
    ///
    /// # Errors
    /// `sps` of 0, RRC with `sps` 1, or a `span` of 0.
    pub fn new(shaping: Shaping) -> Result<Self, ShapingError> {
        let (fir, flush) = match shaping.taps()? {
            Some(taps) => {
                let flush = taps.len().div_ceil(shaping.sps()) - 1;
                let fir =
                    InterpolatingFir::new(&taps, shaping.sps()).map_err(|_| ShapingError::Taps)?;
                (Some(fir), flush)
            }
            None => (None, 0),
        };
        Ok(Shaper {
            shaping,
            fir,
            zeros: vec![Complex32::new(0.0, 0.0); flush],
        })
    }

    /// The settings.
    pub fn shaping(&self) -> Shaping {
        self.shaping
    }

    /// Samples per symbol.
    pub fn sps(&self) -> usize {
        self.shaping.sps()
    }

    /// Samples of the filter's ringing after the last symbol, what [`finish`](Self::finish)
    /// writes: its taps − 1 (`2·span·sps` for RRC), 0 without a filter.
    pub fn tail(&self) -> usize {
        self.zeros.len() * self.sps()
    }

    /// The symbols have ended: writes the filter's ringing after the last one
    /// ([`tail`](Self::tail) samples, its response to zeros) into `out`; returns that count.
    /// The filter's history is then zero, as at the start.
    ///
    /// # Panics
    /// If `out` is shorter than [`tail`](Self::tail).
    pub fn finish(&mut self, out: &mut [Complex32]) -> usize {
        let n = self.tail();
        let zeros = std::mem::take(&mut self.zeros);
        self.process(&zeros, &mut out[..n]);
        self.zeros = zeros;
        n
    }

    /// Shapes `symbols` into `out`, which must hold exactly `sps · symbols.len()` samples
    /// (checked by a debug assertion; extra room is left untouched, too little truncates).
    pub fn process(&mut self, symbols: &[Complex32], out: &mut [Complex32]) {
        let sps = self.sps();
        debug_assert_eq!(out.len(), symbols.len() * sps);
        match &mut self.fir {
            Some(fir) => {
                let (mut used, mut made) = (0, 0);
                while used < symbols.len() && made < out.len() {
                    let (u, m) = fir.process(&symbols[used..], &mut out[made..]);
                    if u == 0 && m == 0 {
                        break;
                    }
                    used += u;
                    made += m;
                }
            }
            None if sps == 1 => {
                let n = symbols.len().min(out.len());
                out[..n].copy_from_slice(&symbols[..n]);
            }
            None => {
                for (o, &s) in out.chunks_exact_mut(sps).zip(symbols) {
                    o[0] = s;
                    o[1..].fill(Complex32::new(0.0, 0.0));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Zero-stuffing then direct convolution, in f64, from zero history: every output the
    /// symbols reach (`taps - 1` more than `sps` per symbol).
    fn naive(taps: &[f32], sps: usize, x: &[Complex32]) -> Vec<Complex32> {
        let mut up = vec![(0.0f64, 0.0f64); x.len() * sps + taps.len() - 1];
        for (k, s) in x.iter().enumerate() {
            up[k * sps] = (f64::from(s.re), f64::from(s.im));
        }
        (0..up.len())
            .map(|n| {
                let (mut re, mut im) = (0.0, 0.0);
                for (j, &t) in taps.iter().enumerate().take(n + 1) {
                    re += f64::from(t) * up[n - j].0;
                    im += f64::from(t) * up[n - j].1;
                }
                Complex32::new(re as f32, im as f32)
            })
            .collect()
    }

    fn symbols(n: usize) -> Vec<Complex32> {
        (0..n)
            .map(|k| {
                let a = (k * 37 % 8) as f32 * std::f32::consts::FRAC_PI_4;
                Complex32::new(a.cos(), a.sin())
            })
            .collect()
    }

    #[test]
    fn rrc_matches_naive_convolution_whatever_the_frame_split() {
        for (ro, sps) in [(RollOff::R035, 2), (RollOff::R025, 3), (RollOff::R020, 4)] {
            let shaping = Shaping::rrc(ro, sps);
            let taps = shaping.taps().unwrap().unwrap();
            assert_eq!(taps.len(), 20 * sps + 1);
            let sum: f32 = taps.iter().sum();
            assert!((sum - sps as f32).abs() < 1e-4, "taps sum to sps");
            let x = symbols(3001);
            let want = naive(&taps, sps, &x);
            let mut sh = Shaper::new(shaping).unwrap();
            let mut got = vec![Complex32::new(9.0, 9.0); want.len()];
            let mut pos = 0;
            for len in [1, 90, 1000, 7, 1903] {
                sh.process(&x[pos..pos + len], &mut got[pos * sps..(pos + len) * sps]);
                pos += len;
            }
            assert_eq!(pos, x.len());
            // Then the filter's ringing.
            assert_eq!(sh.tail(), 20 * sps);
            got.resize(want.len(), Complex32::new(9.0, 9.0));
            assert_eq!(sh.finish(&mut got[x.len() * sps..]), 20 * sps);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).norm() < 1e-5,
                    "{ro:?} sps {sps} sample {k}: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn none_writes_symbols_with_zeros_between() {
        let x = symbols(10);
        let mut sh = Shaper::new(Shaping::None { sps: 1 }).unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); 10];
        sh.process(&x, &mut out);
        assert_eq!(out, x);
        let mut sh = Shaper::new(Shaping::None { sps: 3 }).unwrap();
        let mut out = vec![Complex32::new(5.0, 5.0); 30];
        sh.process(&x, &mut out);
        assert_eq!(
            (sh.tail(), sh.finish(&mut [])),
            (0, 0),
            "no filter, no ringing"
        );
        for (k, o) in out.iter().enumerate() {
            let want = if k % 3 == 0 {
                x[k / 3]
            } else {
                Complex32::new(0.0, 0.0)
            };
            assert_eq!(*o, want);
        }
    }

    #[test]
    fn bad_settings_are_errors() {
        assert_eq!(
            Shaper::new(Shaping::rrc(RollOff::R020, 1)).unwrap_err(),
            ShapingError::RrcNeedsSps(1)
        );
        assert_eq!(
            Shaper::new(Shaping::None { sps: 0 }).unwrap_err(),
            ShapingError::Sps(0)
        );
        assert_eq!(
            Shaper::new(Shaping::Rrc {
                roll_off: RollOff::R035,
                sps: 2,
                span: 0
            })
            .unwrap_err(),
            ShapingError::Taps
        );
    }
}
