//! [`WavSink`]: writes audio to a WAV file.

use radioflow_blocks::FileError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// How [`WavSink`] stores samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WavEncoding {
    /// 16-bit PCM: `round(v · 32767)`, clipped to the 16-bit range (what every player plays).
    Pcm16,
    /// 32-bit IEEE float, as is.
    Float32,
}

impl std::str::FromStr for WavEncoding {
    type Err = String;

    /// `pcm16` or `float32`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pcm16" => Ok(Self::Pcm16),
            "float32" => Ok(Self::Float32),
            other => Err(format!("no WAV encoding '{other}' (pcm16, float32)")),
        }
    }
}

/// Writes one or more `f32` streams (the channels, ±1 full scale) to a WAV file (through the
/// `hound` crate), interleaved frame by frame: mono with one input, stereo with two (left on
/// `in0`). The header is completed when the block stops.
///
/// `pcm16` samples beyond ±1 clip, counted by [`clipped`](Self::clipped). Blocking: yes (file
/// I/O).
///
/// # Example
/// ```
/// use radioflow_blocks::VectorSource;
/// use radioflow_interop::{WavEncoding, WavSink};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let path = std::env::temp_dir().join(format!("radioflow-doc-{}.wav", std::process::id()));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32, 0.5, -0.5]));
/// let wav = fg.add(WavSink::new(&path, 1, 48_000, WavEncoding::Pcm16)?);
/// fg.connect(src, wav)?;
/// fg.run()?;
/// assert_eq!(std::fs::metadata(&path)?.len(), 44 + 3 * 2);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "wav_sink",
    summary = "Writes f32 channels (in0, in1, ...) to a WAV file, 16-bit PCM or float.",
    dtypes = [Float32]
)]
#[param(path: &Path, path = write, doc = "the file to write")]
#[param(channels: usize = 1, min = 1, doc = "channels (1 to 16), one input each")]
#[param(sample_rate: u32, min = 1, doc = "frames per second")]
#[param(
    encoding: WavEncoding = "pcm16",
    words = ["pcm16", "float32"],
    doc = "16-bit PCM or 32-bit float"
)]
pub struct WavSink {
    /// One per channel.
    #[input(name = "in")]
    inputs: Vec<StreamInput<f32>>,
    /// `None` once finalized.
    writer: Option<hound::WavWriter<BufWriter<File>>>,
    path: PathBuf,
    encoding: WavEncoding,
    frames: u64,
    clipped: u64,
}

impl std::fmt::Debug for WavSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WavSink")
            .field("path", &self.path)
            .field("channels", &self.inputs.len())
            .field("frames", &self.frames)
            .finish()
    }
}

/// A `hound` error as an I/O error (what [`FileError`] carries).
fn io_error(e: hound::Error) -> io::Error {
    match e {
        hound::Error::IoError(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

#[block(blocking)]
impl WavSink {
    /// Creates `path` (or truncates it) for `channels` channels at `sample_rate`.
    ///
    /// # Errors
    /// The file cannot be created, or `channels` is not 1 to 16 or `sample_rate` is 0 (an
    /// `InvalidInput` error); the error names the file.
    pub fn new(
        path: impl AsRef<Path>,
        channels: usize,
        sample_rate: u32,
        encoding: WavEncoding,
    ) -> Result<Self, FileError> {
        let path = path.as_ref();
        let invalid = |what: String| {
            FileError::new(
                "create",
                path,
                io::Error::new(io::ErrorKind::InvalidInput, what),
            )
        };
        if !(1..=16).contains(&channels) {
            return Err(invalid(format!("{channels} channels (1 to 16 allowed)")));
        }
        if sample_rate == 0 {
            return Err(invalid("a sample rate of 0".into()));
        }
        let spec = hound::WavSpec {
            channels: channels as u16,
            sample_rate,
            bits_per_sample: match encoding {
                WavEncoding::Pcm16 => 16,
                WavEncoding::Float32 => 32,
            },
            sample_format: match encoding {
                WavEncoding::Pcm16 => hound::SampleFormat::Int,
                WavEncoding::Float32 => hound::SampleFormat::Float,
            },
        };
        let writer = hound::WavWriter::create(path, spec)
            .map_err(|e| FileError::new("create", path, io_error(e)))?;
        Ok(Self {
            inputs: (0..channels).map(|_| StreamInput::new()).collect(),
            writer: Some(writer),
            path: path.to_owned(),
            encoding,
            frames: 0,
            clipped: 0,
        })
    }

    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// 16-bit samples that were beyond ±1 and clipped.
    pub fn clipped(&self) -> u64 {
        self.clipped
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0);
        let Some(writer) = self.writer.as_mut() else {
            return Ok(WorkStatus::Done);
        };
        let err = |e| FileError::new("write", &self.path, io_error(e));
        for k in 0..n {
            for input in &self.inputs {
                let v = input.slice()[k];
                match self.encoding {
                    WavEncoding::Float32 => writer.write_sample(v).map_err(err)?,
                    WavEncoding::Pcm16 => {
                        let s = (v * 32767.0).round();
                        if !(-32768.0..=32767.0).contains(&s) {
                            self.clipped += 1;
                        }
                        writer
                            .write_sample(s.clamp(-32768.0, 32767.0) as i16)
                            .map_err(err)?;
                    }
                }
            }
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        self.frames += n as u64;
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some(writer) = self.writer.take() {
            writer
                .finalize()
                .map_err(|e| FileError::new("finish", &self.path, io_error(e)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn writes_interleaved_frames_that_hound_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        for encoding in [WavEncoding::Pcm16, WavEncoding::Float32] {
            let path = dir.path().join("out.wav");
            let mut h = Harness::new(WavSink::new(&path, 2, 44_100, encoding).unwrap());
            h.push("in0", &[0.5f32, -0.25, 2.0]);
            h.push("in1", &[0.125f32, 1.0]);
            h.work().unwrap();
            assert_eq!((h.consumed("in0"), h.consumed("in1")), (2, 2));
            h.push("in1", &[-3.0f32]);
            h.work().unwrap();
            assert_eq!(h.block().frames(), 3);
            h.stop().unwrap();
            let mut r = hound::WavReader::open(&path).unwrap();
            let spec = r.spec();
            assert_eq!((spec.channels, spec.sample_rate), (2, 44_100));
            let got: Vec<f32> = match encoding {
                WavEncoding::Pcm16 => {
                    assert_eq!(h.block().clipped(), 2);
                    r.samples::<i16>()
                        .map(|s| f32::from(s.unwrap()) / 32767.0)
                        .collect()
                }
                WavEncoding::Float32 => r.samples::<f32>().map(|s| s.unwrap()).collect(),
            };
            let want = [0.5, 0.125, -0.25, 1.0, 2.0, -3.0];
            for (g, w) in got.iter().zip(want) {
                let w = match encoding {
                    WavEncoding::Pcm16 => f32::clamp(w, -32768.0 / 32767.0, 1.0),
                    WavEncoding::Float32 => w,
                };
                assert!((g - w).abs() < 1e-4, "{encoding:?}: {got:?}");
            }
            assert_eq!(got.len(), 6);
        }
    }

    #[test]
    fn bad_channel_counts_and_directories_are_errors_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let e = WavSink::new(dir.path().join("a.wav"), 0, 48_000, WavEncoding::Pcm16).unwrap_err();
        assert!(
            e.to_string().contains("a.wav") && e.to_string().contains("0 channels"),
            "{e}"
        );
        let e = WavSink::new(dir.path(), 1, 48_000, WavEncoding::Pcm16).unwrap_err();
        assert!(e.to_string().starts_with("cannot create"), "{e}");
    }
}
