//! Pulse shaping frame by frame, so it can be duplicated: each PLFRAME is filtered on its own
//! from zero history ([`FrameShaper`], cloneable, parallel) and the filter's ringing past the
//! frame's end is added to the next frame's start ([`OverlapAdd`], sequential and cheap).
//! Convolution is linear, so the result is the stream filter's (to float rounding).

use num_complex::Complex32;
use radioflow_dsp::InterpolatingFir;

use crate::tx::shaping::{Shaping, ShapingError};

/// Shapes one PLFRAME at a time from zero history: writes `sps · len` samples of the frame
/// followed by [`tail`](Self::tail) samples of ringing. No state between frames.
#[derive(Clone, Debug)]
pub struct FrameShaper {
    sps: usize,
    fir: Option<InterpolatingFir<Complex32>>,
    /// Symbols of ringing: taps per polyphase branch − 1.
    flush: usize,
    zeros: Vec<Complex32>,
}

impl FrameShaper {
    /// A frame shaper for `shaping`.
    ///
    /// # Errors
    /// As for [`Shaper::new`](crate::Shaper::new).
    pub fn new(shaping: Shaping) -> Result<Self, ShapingError> {
        let sps = shaping.sps();
        let (fir, flush) = match shaping.taps()? {
            Some(taps) => {
                let flush = taps.len().div_ceil(sps) - 1;
                let fir = InterpolatingFir::new(&taps, sps).map_err(|_| ShapingError::Taps)?;
                (Some(fir), flush)
            }
            None => (None, 0),
        };
        Ok(FrameShaper {
            sps,
            fir,
            flush,
            zeros: vec![Complex32::new(0.0, 0.0); flush],
        })
    }

    /// Samples per symbol.
    pub fn sps(&self) -> usize {
        self.sps
    }

    /// Samples of ringing after each frame (0 without a filter).
    pub fn tail(&self) -> usize {
        self.flush * self.sps
    }

    /// Shapes `symbols` into `out[..sps·len + tail]`; returns that count.
    ///
    /// # Panics
    /// If `out` is shorter than `sps · symbols.len() + tail()`.
    pub fn shape(&mut self, symbols: &[Complex32], out: &mut [Complex32]) -> usize {
        let (sps, n) = (self.sps, symbols.len() * self.sps);
        let total = n + self.tail();
        let out = &mut out[..total];
        match &mut self.fir {
            None if sps == 1 => out.copy_from_slice(symbols),
            None => {
                for (o, &s) in out.chunks_exact_mut(sps).zip(symbols) {
                    o[0] = s;
                    o[1..].fill(Complex32::new(0.0, 0.0));
                }
            }
            Some(fir) => {
                // The zeros at the end flush the history back to zero for the next frame.
                for (input, dst) in [(symbols, 0..n), (&self.zeros[..], n..total)] {
                    let (mut used, mut made) = (0, 0);
                    let dst = &mut out[dst];
                    while made < dst.len() {
                        let (u, m) = fir.process(&input[used..], &mut dst[made..]);
                        if u == 0 && m == 0 {
                            break;
                        }
                        used += u;
                        made += m;
                    }
                }
            }
        }
        total
    }
}

/// Joins shaped frames: adds the previous frame's ringing to the start of each frame and
/// keeps this frame's ringing for the next; after the last frame, [`finish`](Self::finish)
/// gives its ringing.
#[derive(Clone, Debug)]
pub struct OverlapAdd {
    carry: Vec<Complex32>,
    head: Vec<Complex32>,
}

impl OverlapAdd {
    /// For frames with `tail` samples of ringing.
    pub fn new(tail: usize) -> Self {
        OverlapAdd {
            carry: vec![Complex32::new(0.0, 0.0); tail],
            head: vec![Complex32::new(0.0, 0.0); tail],
        }
    }

    /// `shaped` is one frame from [`FrameShaper::shape`] (`len + tail` samples); returns the
    /// `len` samples to send, in two parts: the first `tail` with the previous frame's
    /// ringing added, then the rest as they are. Keeps this frame's ringing.
    ///
    /// # Panics
    /// If `shaped` is shorter than twice the tail (a PLFRAME is ≥ 3 330 symbols, the tail
    /// 20 symbols' worth).
    pub fn join<'a>(&'a mut self, shaped: &'a [Complex32]) -> (&'a [Complex32], &'a [Complex32]) {
        let tail = self.carry.len();
        assert!(
            shaped.len() >= 2 * tail,
            "frame shorter than twice the filter tail"
        );
        let len = shaped.len() - tail;
        for ((h, s), c) in self.head.iter_mut().zip(shaped).zip(&self.carry) {
            *h = s + c;
        }
        self.carry.copy_from_slice(&shaped[len..]);
        (&self.head, &shaped[tail..len])
    }

    /// The frames have ended: the last one's ringing (`tail` samples), to send after it, as
    /// a stream filter's [`Shaper::finish`](crate::Shaper::finish) writes it. The next frame
    /// joined then starts from zero history.
    pub fn finish(&mut self) -> &[Complex32] {
        std::mem::swap(&mut self.carry, &mut self.head);
        self.carry.fill(Complex32::new(0.0, 0.0));
        &self.head
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bbframe::RollOff;
    use crate::tx::shaping::Shaper;

    #[test]
    fn frame_by_frame_with_overlap_add_equals_the_stream_filter() {
        for shaping in [
            Shaping::rrc(RollOff::R020, 2),
            Shaping::rrc(RollOff::R035, 3),
            Shaping::None { sps: 1 },
            Shaping::None { sps: 2 },
        ] {
            let x: Vec<Complex32> = (0..5000)
                .map(|k| Complex32::new(((k * 7) % 5) as f32 - 2.0, ((k * 3) % 4) as f32 - 1.5))
                .collect();
            let sps = shaping.sps();
            let mut sh = Shaper::new(shaping).unwrap();
            let mut want = vec![Complex32::new(0.0, 0.0); x.len() * sps + sh.tail()];
            sh.process(&x, &mut want[..x.len() * sps]);
            sh.finish(&mut want[x.len() * sps..]);
            let mut fs = FrameShaper::new(shaping).unwrap();
            let mut ola = OverlapAdd::new(fs.tail());
            let mut got = Vec::new();
            let mut buf = vec![Complex32::new(0.0, 0.0); 4000 * sps + fs.tail()];
            let mut pos = 0;
            for len in [3330, 100, 1500, 70] {
                let n = fs.shape(&x[pos..pos + len], &mut buf);
                assert_eq!(n, len * sps + fs.tail());
                let (head, rest) = ola.join(&buf[..n]);
                got.extend_from_slice(head);
                got.extend_from_slice(rest);
                pos += len;
            }
            // The last frame's ringing: the stream filter's tail.
            got.extend_from_slice(ola.finish());
            assert_eq!(got.len(), want.len());
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!((g - w).norm() < 1e-4, "{shaping:?} sample {k}: {g} vs {w}");
            }
        }
    }
}
