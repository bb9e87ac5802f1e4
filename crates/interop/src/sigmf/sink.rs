//! [`SigmfSink`]: writes a stream as a SigMF recording, its tags as captures.

use crate::sigmf::{self, CaptureLog, Datatype, Location, SigmfError, SigmfItem};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes its input as a SigMF recording: the samples in `datatype` (`cf32_le`, `ci16_le`,
/// `ci8`, `cu8`, `rf32_le`, ...; integers rounded and saturated, see
/// [`Datatype`](crate::sigmf::Datatype)) to `NAME.sigmf-data`, and, when the block stops,
/// `NAME.sigmf-meta` with the core fields (`core:datatype`, `core:version`,
/// `core:sample_rate`, `core:recorder`, ...). Given a `.sigmf` path it writes an archive
/// instead (the data goes to `NAME.sigmf.part` while the graph runs). Tags with GNU Radio's
/// keys become metadata ([`CaptureLog`]): `rx_freq` and `rx_time` start a capture
/// (`core:frequency`, `core:datetime`) at their offset, the first `rx_rate` gives
/// `core:sample_rate` unless [`sample_rate`](Self::sample_rate) did, and an `annotation`
/// dict becomes an annotation; a capture at sample 0 is always written. `core:sha512` of the
/// data file is computed as it is written (SHA-512 of the `sha2` crate, well under a tenth of
/// a core at a radio's byte rates) and written too, so that readers can check the data.
///
/// # Stream inputs
/// - `in`: `Complex32` (complex datatypes) or `f32` (real ones).
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// None.
///
/// # Parameters
/// - `path`: `X`, `X.sigmf-meta` or `X.sigmf-data` (the pair), or `X.sigmf` (an archive);
///   files are created when the graph starts.
/// - `datatype`: the SigMF datatype of the data file (in graph files `format`: the datatype
///   without its `c` or `r`, which the item type gives: `f32_le`, `i16_le`, `u8`, ...).
/// - [`sample_rate`](Self::sample_rate), [`description`](Self::description): global fields.
///
/// Blocking: yes (file I/O).
#[derive(Debug, Ports)]
pub struct SigmfSink<T: SigmfItem> {
    #[input(name = "in")]
    input: StreamInput<T>,
    location: Location,
    datatype: Datatype,
    sample_rate: Option<f64>,
    description: Option<String>,
    /// The data file being written and its path; `None` before start and after stop.
    data: Option<(BufWriter<File>, PathBuf)>,
    log: Option<CaptureLog>,
    /// Converted bytes of one work call (reused).
    bytes: Vec<u8>,
    samples: u64,
    /// The SHA-512 of the data written so far (`core:sha512`, which the `sigmf` package checks).
    hash: sha2::Sha512,
}

#[block(blocking)]
impl<T: SigmfItem> SigmfSink<T> {
    /// A sink writing `path` in `datatype`.
    ///
    /// # Panics
    /// `datatype` is complex for `f32` or real for `Complex32`.
    pub fn new(path: impl AsRef<Path>, datatype: Datatype) -> Self {
        assert_eq!(
            datatype.complex,
            T::COMPLEX,
            "sigmf_sink: {datatype} does not fit the item type"
        );
        Self {
            input: StreamInput::new(),
            location: Location::of(path.as_ref()),
            datatype,
            sample_rate: None,
            description: None,
            data: None,
            log: None,
            bytes: Vec::new(),
            samples: 0,
            hash: sha2::Sha512::default(),
        }
    }

    /// `core:sample_rate`, samples per second (else from the first `rx_rate` tag).
    ///
    /// # Panics
    /// If `rate` is not finite and positive (SigMF readers, this crate's included, refuse
    /// the recording then).
    pub fn sample_rate(mut self, rate: f64) -> Self {
        if let Err(e) = FloatRange::POSITIVE.check(rate) {
            panic!("sigmf_sink: sample_rate {e}");
        }
        self.sample_rate = Some(rate);
        self
    }

    /// `core:description`.
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Samples written so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    fn data_path(&self) -> PathBuf {
        match &self.location {
            Location::Pair { data, .. } => data.clone(),
            Location::Archive(archive) => {
                let mut name = archive.clone().into_os_string();
                name.push(".part");
                name.into()
            }
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let path = self.data_path();
        let file = File::create(&path).map_err(SigmfError::io("create", &path))?;
        self.data = Some((BufWriter::with_capacity(1 << 16, file), path));
        let mut log = CaptureLog::new(self.datatype, self.sample_rate);
        log.meta.global.description = self.description.clone();
        self.log = Some(log);
        self.samples = 0;
        self.hash = sha2::Sha512::default();
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (Some((writer, path)), Some(log)) = (self.data.as_mut(), self.log.as_mut()) else {
            return Err(BlockError::msg("sigmf_sink: work before start"));
        };
        let items = self.input.slice();
        let n = items.len();
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + n as u64;
        for tag in self.input.tags().iter().filter(|t| t.offset < end) {
            log.add(tag);
        }
        self.bytes.clear();
        self.datatype
            .encode(bytemuck::cast_slice(items), &mut self.bytes);
        writer
            .write_all(&self.bytes)
            .map_err(SigmfError::io("write", path))?;
        sha2::Digest::update(&mut self.hash, &self.bytes);
        self.input.consume(n);
        self.samples += n as u64;
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        let (Some((writer, data_path)), Some(log)) = (self.data.take(), self.log.take()) else {
            return Ok(());
        };
        writer
            .into_inner()
            .map_err(|e| SigmfError::io("write", &data_path)(e.into_error()))?;
        let mut meta = log.finish();
        meta.global.sha512 = Some(sigmf::sha512_hex(std::mem::take(&mut self.hash)));
        let json = meta.to_json();
        match &self.location {
            Location::Pair { meta, .. } => {
                std::fs::write(meta, json).map_err(SigmfError::io("write", meta))?;
            }
            Location::Archive(archive) => {
                write_archive(archive, &data_path, json.as_bytes())?;
                std::fs::remove_file(&data_path).map_err(SigmfError::io("remove", &data_path))?;
            }
        }
        Ok(())
    }
}

/// Writes `NAME/NAME.sigmf-meta` and `NAME/NAME.sigmf-data` into the tar archive `archive`
/// (`NAME.sigmf`), the layout the `sigmf` Python package writes.
fn write_archive(archive: &Path, data: &Path, meta: &[u8]) -> Result<(), SigmfError> {
    let name = archive
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "recording".into());
    let file = File::create(archive).map_err(SigmfError::io("create", archive))?;
    let mut tar = tar::Builder::new(BufWriter::new(file));
    let mtime = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut header = tar::Header::new_gnu();
    header.set_size(meta.len() as u64);
    header.set_mode(0o644);
    header.set_mtime(mtime);
    tar.append_data(&mut header, format!("{name}/{name}.sigmf-meta"), meta)
        .map_err(SigmfError::io("write", archive))?;
    let mut data_file = File::open(data).map_err(SigmfError::io("read", data))?;
    let mut header = tar::Header::new_gnu();
    header.set_size(
        data_file
            .metadata()
            .map_err(SigmfError::io("read", data))?
            .len(),
    );
    header.set_mode(0o644);
    header.set_mtime(mtime);
    tar.append_data(
        &mut header,
        format!("{name}/{name}.sigmf-data"),
        &mut data_file,
    )
    .map_err(SigmfError::io("write", archive))?;
    tar.into_inner()
        .and_then(|mut w| w.flush())
        .map_err(SigmfError::io("write", archive))?;
    Ok(())
}

/// The datatype without its `c`/`r` (which the block's item type gives).
const FORMATS: &[&str] = &[
    "f32_le", "f32_be", "f64_le", "f64_be", "i32_le", "i32_be", "i16_le", "i16_be", "i8", "u32_le",
    "u32_be", "u16_le", "u16_be", "u8",
];

register_block!(BlockDescription {
    id: "sigmf_sink",
    summary: "Writes a SigMF recording (.sigmf-meta + .sigmf-data, or a .sigmf archive), \
              rx_freq/rx_time/rx_rate tags as captures.",
    dtypes: &[Dtype::Complex64, Dtype::Float32],
    params: &[
        ParamDescription::required(
            "path",
            ParamKind::Path(PathUse::WriteSigmf),
            "the recording (X, X.sigmf-meta, X.sigmf-data or X.sigmf)"
        ),
        ParamDescription::optional(
            "format",
            ParamKind::Choice(FORMATS),
            DefaultValue::Word("f32_le"),
            "the data's SigMF datatype after its c (complex64) or r (float32)"
        ),
        ParamDescription::optional(
            "sample_rate",
            ParamKind::Float(FloatRange::at_least(0.0)),
            DefaultValue::Float(0.0),
            "core:sample_rate (0: from the first rx_rate tag)"
        ),
    ],
    ports: declared_ports::<SigmfSink<Complex32>>,
    make: |a| {
        let path = a.path("path")?;
        let complex = a.item_dtype()? != Dtype::Float32;
        let name = format!("{}{}", if complex { "c" } else { "r" }, a.word("format")?);
        let datatype = Datatype::parse(&name).map_err(|e| a.error("format", e))?;
        let rate = a.float("sample_rate")?;
        Ok(if complex {
            let b = SigmfSink::<Complex32>::new(path, datatype);
            Box::new(if rate > 0.0 { b.sample_rate(rate) } else { b }) as Box<dyn Block>
        } else {
            let b = SigmfSink::<f32>::new(path, datatype);
            Box::new(if rate > 0.0 { b.sample_rate(rate) } else { b })
        })
    },
});
