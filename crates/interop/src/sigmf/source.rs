//! [`SigmfSource`]: the samples of a SigMF recording, with its captures as stream tags.

use super::{check_item, sha512_hex, stream_tags, Recording, SigmfError, SigmfItem};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Samples converted per work call at most (bounds the byte buffer).
const CHUNK: usize = 1 << 15;

/// Reads a SigMF recording (`NAME.sigmf-meta` + `NAME.sigmf-data`, or a `.sigmf` archive read
/// in place) as `Complex32` (complex datatypes) or `f32` (real ones), converting any SigMF
/// datatype (`cf32_le`, `ci16_le`, `ci8`, `cu8`, `rf32_le`, `cf64_le`, `ri16_be`, ...; integers
/// scaled to ±1, see [`Datatype`](crate::sigmf::Datatype)). The metadata becomes stream tags
/// with GNU Radio's keys, as UHD's source sends them: `rx_rate` (double) at sample 0 and at
/// every capture, `rx_freq` (double, `core:frequency`) and `rx_time` (tuple of `u64` seconds
/// and `f64` fraction, `core:datetime`) at each capture's `core:sample_start`, and an
/// `annotation` dict at each annotation ([`stream_tags`]). It ends after the last
/// sample; when the metadata gives `core:sha512`, the data read is hashed and a mismatch is an
/// error naming that field once the last sample has been read (the samples already sent stay
/// sent: the check cannot come earlier without reading the file twice).
///
/// Blocking: yes (file I/O).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_interop::sigmf::Datatype;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_interop::{SigmfSink, SigmfSource};
///
/// let dir = std::env::temp_dir().join(format!("radioflow-doc-sigmf-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("rec.sigmf-meta");
/// let data = vec![Complex32::new(0.5, -0.25); 100];
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(data.clone()));
/// let sink = fg.add(SigmfSink::<Complex32>::new(&path, Datatype::CF32_LE).sample_rate(1e6));
/// fg.connect(src, sink)?;
/// fg.run()?;
///
/// let source = SigmfSource::<Complex32>::new(&path)?;
/// assert_eq!(source.recording().unwrap().meta.global.sample_rate, Some(1e6));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(source);
/// let out = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, out)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(out).unwrap().data(), &data[..]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "sigmf_source",
    summary = "Reads a SigMF recording (.sigmf-meta + .sigmf-data, or a .sigmf archive), any \
               datatype, captures as rx_rate/rx_freq/rx_time tags.",
    dtypes = [Complex32, Float32],
    make = Self::deferred(path)
)]
#[param(
    path: PathBuf,
    path = read_sigmf,
    doc = "the recording (X, X.sigmf-meta, X.sigmf-data or X.sigmf)"
)]
#[derive(Debug)]
pub struct SigmfSource<T: SigmfItem> {
    /// The samples (the item type must match the recording: complex or real).
    #[output(name = "out")]
    output: StreamOutput<T>,
    path: PathBuf,
    /// `None` until opened (by `new`, or at start for a deferred source).
    open: Option<Open>,
}

#[derive(Debug)]
struct Open {
    recording: Recording,
    data: std::io::Take<std::fs::File>,
    /// Samples not yet read.
    left: u64,
    /// The recording's tags, by offset; `next` is the first not yet put out.
    tags: Vec<Tag>,
    next: usize,
    /// Raw bytes of one chunk (reused).
    bytes: Vec<u8>,
    /// The SHA-512 of the data read so far, when the metadata gives `core:sha512` (checked
    /// when the last sample has been read).
    hash: Option<sha2::Sha512>,
}

impl Open {
    fn new<T: SigmfItem>(path: &Path) -> Result<Self, SigmfError> {
        let recording = Recording::open(path)?;
        check_item::<T>(recording.meta.global.datatype, &recording.meta_file)?;
        Ok(Self {
            data: recording.open_data()?,
            left: recording.samples,
            tags: stream_tags(&recording.meta),
            next: 0,
            bytes: Vec::new(),
            hash: recording
                .meta
                .global
                .sha512
                .as_ref()
                .map(|_| sha2::Sha512::default()),
            recording,
        })
    }

    /// Compares the data read with `core:sha512`, if the metadata gives one.
    fn check_sha512(&mut self) -> Result<(), SigmfError> {
        let (Some(hash), Some(want)) = (self.hash.take(), &self.recording.meta.global.sha512)
        else {
            return Ok(());
        };
        let got = sha512_hex(hash);
        if got.eq_ignore_ascii_case(want) {
            Ok(())
        } else {
            Err(SigmfError::Field {
                file: self.recording.meta_file.clone(),
                field: "global.core:sha512".into(),
                message: format!(
                    "the data read from '{}' has SHA-512 {got}, not {want}: the recording is \
                     damaged or its data was changed",
                    self.recording.data_file.display()
                ),
            })
        }
    }
}

#[block(blocking)]
impl<T: SigmfItem> SigmfSource<T> {
    /// Opens the recording at `path` now (its metadata is then at hand).
    ///
    /// # Errors
    /// See [`Recording::open`]; and a complex recording for an `f32` source or a real one for
    /// `Complex32` (naming `global.core:datatype`).
    pub fn new(path: impl AsRef<Path>) -> Result<Self, SigmfError> {
        let path = path.as_ref();
        Ok(Self {
            output: StreamOutput::new(),
            path: path.to_owned(),
            open: Some(Open::new::<T>(path)?),
        })
    }

    /// A source that opens `path` only when the graph starts (for graph files); its errors are
    /// then the start's.
    pub fn deferred(path: impl AsRef<Path>) -> Self {
        Self {
            output: StreamOutput::new(),
            path: path.as_ref().to_owned(),
            open: None,
        }
    }

    /// The recording, once opened.
    pub fn recording(&self) -> Option<&Recording> {
        self.open.as_ref().map(|o| &o.recording)
    }

    fn start(&mut self) -> Result<(), BlockError> {
        if self.open.is_none() {
            self.open = Some(Open::new::<T>(&self.path)?);
        }
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let Some(open) = self.open.as_mut() else {
            return Err(BlockError::msg("sigmf_source: work before start"));
        };
        if open.left == 0 {
            return Ok(WorkStatus::Done);
        }
        let out = self.output.slice();
        let n = out.len().min(CHUNK).min(open.left as usize);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let datatype = open.recording.meta.global.datatype;
        open.bytes.resize(n * datatype.sample_bytes(), 0);
        open.data
            .read_exact(&mut open.bytes)
            .map_err(SigmfError::io("read", &open.recording.data_file))?;
        if let Some(hash) = open.hash.as_mut() {
            sha2::Digest::update(hash, &open.bytes);
        }
        let scalars: &mut [f32] = bytemuck::cast_slice_mut(&mut out[..n]);
        datatype.decode(&open.bytes, scalars);
        let start = self.output.offset();
        let end = start + n as u64;
        while let Some(tag) = open.tags.get(open.next).filter(|t| t.offset < end) {
            self.output.add_tag_at(tag.offset, tag);
            open.next += 1;
        }
        self.output.produce(n);
        open.left -= n as u64;
        if open.left == 0 {
            open.check_sha512()?;
        }
        Ok(WorkStatus::Continue)
    }
}
