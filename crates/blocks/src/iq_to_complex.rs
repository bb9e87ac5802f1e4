//! [`IqToComplex`]: interleaved I/Q bytes of an SDR recording to complex samples, and the
//! [`SampleFormat`]s they come in.

use radioflow_dsp::{cf32_to_complex, cs16_to_complex, cs8_to_complex, cu8_to_complex};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fmt;
use std::str::FromStr;

/// The interleaved I/Q formats SDR recordings come in (see [`radioflow_dsp`]'s
/// `sample_format` conversions for the scaling of each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleFormat {
    /// Two `u8` per sample (rtl_sdr), `(v - 127.5) / 127.5`.
    Cu8,
    /// Two `i8` per sample (HackRF), `v / 128`.
    Cs8,
    /// Two little-endian `i16` per sample, `v / 32768`.
    Cs16,
    /// Two little-endian `f32` per sample (GNU Radio's `file_sink` of `gr_complex`).
    Cf32,
}

impl SampleFormat {
    /// Every format, in the order of [`NAMES`](Self::NAMES).
    pub const ALL: [SampleFormat; 4] = [Self::Cu8, Self::Cs8, Self::Cs16, Self::Cf32];
    /// The formats' names, as [`FromStr`] takes them.
    pub const NAMES: [&'static str; 4] = ["cu8", "cs8", "cs16", "cf32"];

    /// Bytes per complex sample.
    pub fn bytes_per_sample(self) -> usize {
        match self {
            Self::Cu8 | Self::Cs8 => 2,
            Self::Cs16 => 4,
            Self::Cf32 => 8,
        }
    }

    /// The format's name (`cu8`, ...).
    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|f| *f == self).expect("listed")]
    }

    /// Converts whole samples of `bytes` into `output`.
    ///
    /// # Panics
    /// If `bytes` is not whole samples or `output` is too short for them.
    pub fn to_complex(self, bytes: &[u8], output: &mut [Complex32]) {
        match self {
            Self::Cu8 => cu8_to_complex(bytes, output),
            Self::Cs8 => cs8_to_complex(bytes, output),
            Self::Cs16 => cs16_to_complex(bytes, output),
            Self::Cf32 => cf32_to_complex(bytes, output),
        }
    }
}

impl fmt::Display for SampleFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`SampleFormat`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown sample format '{0}' (known: cu8, cs8, cs16, cf32)")]
pub struct UnknownFormat(pub String);

impl FromStr for SampleFormat {
    type Err = UnknownFormat;

    /// `cu8`, `cs8`, `cs16` or `cf32` (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        Self::NAMES
            .iter()
            .position(|n| *n == lower)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}

/// Converts the interleaved I/Q bytes of an SDR recording (read with a
/// [`FileSource<u8>`](crate::FileSource)) to `Complex32` samples, in whole samples (a
/// partial sample waits for its last bytes; one left at the end of the stream is dropped).
///
/// # Example
/// ```
/// use radioflow_blocks::{IqToComplex, SampleFormat, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8, 255, 255, 0]));
/// let conv = fg.add(IqToComplex::new(SampleFormat::Cu8));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, conv)?;
/// fg.connect(conv, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert_eq!(y, &[Complex32::new(-1.0, 1.0), Complex32::new(1.0, -1.0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "iq_to_complex",
    summary = "Interleaved I/Q bytes (cu8, cs8, cs16, cf32) to complex samples.",
    dtypes = [Complex32]
)]
#[param(format: SampleFormat, words = ["cu8", "cs8", "cs16", "cf32"], doc = "the bytes' format")]
#[derive(Debug)]
pub struct IqToComplex {
    /// The recording's bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// One sample per `format.bytes_per_sample()` bytes.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    format: SampleFormat,
}

#[block]
impl IqToComplex {
    /// A converter from `format`.
    pub fn new(format: SampleFormat) -> Self {
        let size = format.bytes_per_sample();
        Self {
            input: StreamInput::new().with_min_items(size),
            output: StreamOutput::new(),
            format,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let size = self.format.bytes_per_sample();
        let n = (self.input.slice().len() / size).min(self.output.slice().len());
        let bytes = &self.input.slice()[..n * size];
        self.format.to_complex(bytes, &mut self.output.slice()[..n]);
        self.input.consume(n * size);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn converts_whole_samples_only_in_every_format() {
        let z = [Complex32::new(0.5, -0.25), Complex32::new(-1.0, 0.75)];
        for format in SampleFormat::ALL {
            let size = format.bytes_per_sample();
            let bytes: Vec<u8> = match format {
                SampleFormat::Cu8 => vec![191, 96, 0, 223],
                SampleFormat::Cs8 => vec![64, 224, 128, 96],
                SampleFormat::Cs16 => [16384i16, -8192, -32768, 24576]
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect(),
                SampleFormat::Cf32 => [0.5f32, -0.25, -1.0, 0.75]
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect(),
            };
            let mut h = Harness::new(IqToComplex::new(format));
            // A sample and a half: one out, the half kept for the next call.
            h.push("in", &bytes[..size + size / 2]);
            h.work().unwrap();
            assert_eq!(h.consumed("in"), size as u64, "{format}");
            h.push("in", &bytes[size + size / 2..]);
            h.work().unwrap();
            let got = h.take_output::<Complex32>("out");
            assert_eq!(got.len(), 2, "{format}");
            for (g, w) in got.iter().zip(&z) {
                assert!((g - w).norm() < 0.01, "{format}: {g} vs {w}");
            }
        }
    }

    #[test]
    fn formats_parse_by_name_and_unknown_ones_are_named() {
        for (f, n) in SampleFormat::ALL.iter().zip(SampleFormat::NAMES) {
            assert_eq!(n.parse::<SampleFormat>().unwrap(), *f);
            assert_eq!(f.to_string(), n);
        }
        assert_eq!("CS16".parse::<SampleFormat>().unwrap(), SampleFormat::Cs16);
        let e = "s16".parse::<SampleFormat>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown sample format 's16' (known: cu8, cs8, cs16, cf32)"
        );
    }
}
