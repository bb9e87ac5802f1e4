//! [`Frames`]: one period of interleaved samples in the format the device takes, with the
//! conversions from and to floats and the reads and writes of an ALSA PCM.

use super::pcm::{self, Pcm, SampleFormat};
use alsa::pcm::PCM;

/// A period's interleaved samples, made once when the device opens.
#[derive(Debug)]
pub(super) enum Frames {
    F32(Vec<f32>),
    S32(Vec<i32>),
    S16(Vec<i16>),
}

impl Frames {
    /// A period of `p`'s frames, in its format.
    pub(super) fn for_device(p: &Pcm) -> Self {
        let n = p.period * p.channels;
        match p.format {
            SampleFormat::F32 => Frames::F32(vec![0.0; n]),
            SampleFormat::S32 => Frames::S32(vec![0; n]),
            SampleFormat::S16 => Frames::S16(vec![0; n]),
        }
    }

    /// Sets sample `i` to `x` (±1.0 full scale; integers clip beyond).
    pub(super) fn set(&mut self, i: usize, x: f32) {
        match self {
            Frames::F32(b) => b[i] = x,
            Frames::S32(b) => b[i] = pcm::to_int::<32>(x) as i32,
            Frames::S16(b) => b[i] = pcm::to_int::<16>(x) as i16,
        }
    }

    /// Sample `i` as a float (±1.0 full scale).
    pub(super) fn get(&self, i: usize) -> f32 {
        match self {
            Frames::F32(b) => b[i],
            Frames::S32(b) => pcm::from_int::<32>(i64::from(b[i])),
            Frames::S16(b) => pcm::from_int::<16>(i64::from(b[i])),
        }
    }

    /// Writes the frames of samples `range` (whole frames) to `pcm`; the frames written.
    pub(super) fn write(&self, pcm: &PCM, range: std::ops::Range<usize>) -> alsa::Result<usize> {
        match self {
            Frames::F32(b) => pcm.io_f32()?.writei(&b[range]),
            Frames::S32(b) => pcm.io_i32()?.writei(&b[range]),
            Frames::S16(b) => pcm.io_i16()?.writei(&b[range]),
        }
    }

    /// Reads into the first `len` samples (whole frames) from `pcm`; the frames read.
    pub(super) fn read(&mut self, pcm: &PCM, len: usize) -> alsa::Result<usize> {
        match self {
            Frames::F32(b) => pcm.io_f32()?.readi(&mut b[..len]),
            Frames::S32(b) => pcm.io_i32()?.readi(&mut b[..len]),
            Frames::S16(b) => pcm.io_i16()?.readi(&mut b[..len]),
        }
    }
}
