//! [`WavSource`]: reads audio from a WAV file.

use radioflow_blocks::FileError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

type Reader = hound::WavReader<BufReader<File>>;

/// Reads a WAV file (through the `hound` crate) as one `f32` stream per channel, integer
/// samples scaled to ±1 (`v / 2^(bits-1)`), float samples as they are; finishes at the end
/// of the file.
///
/// [`new`](Self::new) reads the header (channels, rate) at once; the registry's source reads
/// it when the graph starts. Blocking: yes (file I/O).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_interop::{WavEncoding, WavSink, WavSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let path = std::env::temp_dir().join(format!("radioflow-doc-src-{}.wav", std::process::id()));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32, 0.5, -0.5]));
/// let wav = fg.add(WavSink::new(&path, 1, 8_000, WavEncoding::Float32)?);
/// fg.connect(src, wav)?;
/// fg.run()?;
///
/// let mut fg = Flowgraph::new();
/// let wav = WavSource::new(&path)?;
/// assert_eq!((wav.channels(), wav.sample_rate()), (1, 8_000));
/// let src = fg.add(wav);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[0.0, 0.5, -0.5]);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "wav_source",
    summary = "Reads a WAV file as f32 channels (out0, out1, ...), integers scaled to ±1.",
    dtypes = [Float32],
    make = Self::deferred(path, channels)
)]
#[param(path: PathBuf, path = read, doc = "the file to read")]
#[param(
    channels: usize = 1,
    min = 1,
    doc = "the file's channels (checked when the graph starts)"
)]
pub struct WavSource {
    /// One per channel.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<f32>>,
    /// `None` until opened (at `start` for a source made by the registry).
    reader: Option<Reader>,
    path: PathBuf,
    sample_rate: u32,
    /// The scale of integer samples, `2^-(bits-1)`; 0 for float samples.
    scale: f32,
}

impl std::fmt::Debug for WavSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WavSource")
            .field("path", &self.path)
            .field("channels", &self.outputs.len())
            .finish()
    }
}

fn open(path: &Path) -> Result<(Reader, u32, usize, f32), FileError> {
    let reader = hound::WavReader::open(path).map_err(|e| {
        let e = match e {
            hound::Error::IoError(e) => e,
            other => io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not a WAV file we read: {other}"),
            ),
        };
        FileError::new("open", path, e)
    })?;
    let spec = reader.spec();
    let scale = match spec.sample_format {
        hound::SampleFormat::Float => 0.0,
        hound::SampleFormat::Int => (-(f32::from(spec.bits_per_sample) - 1.0)).exp2(),
    };
    Ok((reader, spec.sample_rate, usize::from(spec.channels), scale))
}

#[block(blocking)]
impl WavSource {
    /// Opens `path` and reads its header.
    ///
    /// # Errors
    /// The file cannot be opened or is not a WAV file hound reads; the error names it.
    pub fn new(path: impl AsRef<Path>) -> Result<Self, FileError> {
        let path = path.as_ref();
        let (reader, sample_rate, channels, scale) = open(path)?;
        Ok(Self {
            outputs: (0..channels).map(|_| StreamOutput::new()).collect(),
            reader: Some(reader),
            path: path.to_owned(),
            sample_rate,
            scale,
        })
    }

    /// A source of a file of `channels` channels opened only when the graph starts (for
    /// graph descriptions, whose ports are known before the file is read); a file with
    /// another channel count is then an error.
    pub fn deferred(path: impl AsRef<Path>, channels: usize) -> Self {
        Self {
            outputs: (0..channels).map(|_| StreamOutput::new()).collect(),
            reader: None,
            path: path.as_ref().to_owned(),
            sample_rate: 0,
            scale: 0.0,
        }
    }

    /// Channels (one output each).
    pub fn channels(&self) -> usize {
        self.outputs.len()
    }

    /// Frames per second, from the header (0 before a deferred source started).
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    fn start(&mut self) -> Result<(), BlockError> {
        if self.reader.is_none() {
            let (reader, rate, channels, scale) = open(&self.path)?;
            if channels != self.outputs.len() {
                return Err(BlockError::msg(format!(
                    "'{}' has {channels} channels, the source was made for {}",
                    self.path.display(),
                    self.outputs.len()
                )));
            }
            (self.reader, self.sample_rate, self.scale) = (Some(reader), rate, scale);
        }
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(WorkStatus::Done);
        };
        let n = self
            .outputs
            .iter_mut()
            .map(|o| o.slice().len())
            .min()
            .unwrap_or(0);
        let channels = self.outputs.len();
        let path = &self.path;
        let err = |e: hound::Error| {
            let e = match e {
                hound::Error::IoError(e) => e,
                other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
            };
            FileError::new("read", path, e)
        };
        let mut frames = 0;
        let mut done = false;
        'frames: while frames < n {
            for c in 0..channels {
                let v = if self.scale == 0.0 {
                    reader
                        .samples::<f32>()
                        .next()
                        .map(|s| s.map_err(err))
                        .transpose()?
                } else {
                    reader
                        .samples::<i32>()
                        .next()
                        .map(|s| s.map(|v| v as f32 * self.scale).map_err(err))
                        .transpose()?
                };
                match v {
                    Some(v) => self.outputs[c].slice()[frames] = v,
                    None => {
                        // The end; a partial last frame is dropped.
                        done = true;
                        break 'frames;
                    }
                }
            }
            frames += 1;
        }
        for o in &mut self.outputs {
            o.produce(frames);
        }
        Ok(if done {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn write(path: &Path, spec: hound::WavSpec, samples: &[i32]) {
        let mut w = hound::WavWriter::create(path, spec).unwrap();
        for &s in samples {
            w.write_sample(s).unwrap();
        }
        w.finalize().unwrap();
    }

    #[test]
    fn reads_channels_scaled_in_as_much_output_as_there_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.wav");
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 22_050,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        write(&path, spec, &[16384, -32768, 0, 8192, -16384, 32767]);
        let mut h = Harness::new(WavSource::new(&path).unwrap());
        assert_eq!(h.block().sample_rate(), 22_050);
        h.set_space("out0", 2);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        h.set_space("out0", 10);
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.take_output::<f32>("out0"), [0.5, 0.0, -0.5]);
        assert_eq!(
            h.take_output::<f32>("out1"),
            [-1.0, 0.25, 32767.0 / 32768.0]
        );
    }

    #[test]
    fn a_deferred_source_checks_the_file_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.wav");
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: 8_000,
            bits_per_sample: 8,
            sample_format: hound::SampleFormat::Int,
        };
        write(&path, spec, &[64, -128]);
        let mut h = Harness::new(WavSource::deferred(&path, 1));
        h.start().unwrap();
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.take_output::<f32>("out0"), [0.5, -1.0]);
        let mut h = Harness::new(WavSource::deferred(&path, 2));
        let e = h.start().unwrap_err().to_string();
        assert!(e.contains("in.wav") && e.contains("1 channels"), "{e}");
        std::fs::write(&path, [0u8; 64]).unwrap();
        let e = WavSource::new(&path).unwrap_err().to_string();
        assert!(e.starts_with("cannot open") && e.contains("in.wav"), "{e}");
    }
}
