//! SigMF recordings (the Signal Metadata Format, <https://sigmf.org>): a `.sigmf-meta` JSON
//! document beside a `.sigmf-data` file of samples, or both in a `.sigmf` tar archive.
//!
//! - [`Recording::open`] finds the metadata and the samples of a recording (any of its names,
//!   or an archive, whose data is read in place).
//! - [`Metadata`] is the document; [`Datatype`] the sample format with its conversions.
//! - [`stream_tags`] turns captures and annotations into stream tags with GNU Radio's keys
//!   (`rx_rate`, `rx_freq`, `rx_time` as UHD's source sends them; `annotation`), and
//!   [`CaptureLog`] turns such tags back into captures and annotations.
//!
//! The blocks are [`SigmfSource`] and [`SigmfSink`].

mod datatype;
mod meta;
mod sink;
mod source;
pub mod time;

pub use datatype::{Datatype, ScalarFormat, UnknownDatatype};
pub use meta::{Annotation, Capture, Global, Metadata, VERSION};
pub use sink::SigmfSink;
pub use source::SigmfSource;

use radioflow_runtime::echo::cut;
use radioflow_runtime::{Pmt, Tag};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// GNU Radio's tag key for the sample rate (a double, samples per second).
pub const RX_RATE: &str = "rx_rate";
/// GNU Radio's tag key for the center frequency (a double, Hz).
pub const RX_FREQ: &str = "rx_freq";
/// GNU Radio's tag key for the time of a sample: a tuple (`u64` whole seconds since the Unix
/// epoch, `f64` fraction of a second), as UHD's source sends it.
pub const RX_TIME: &str = "rx_time";
/// The tag key of a SigMF annotation: a dict from field names (`core:label`, ...) to values.
pub const ANNOTATION: &str = "annotation";

/// The item types the SigMF blocks stream: `Complex32` for complex recordings, `f32` for real
/// ones (a sample is [`SCALARS`](Self::SCALARS) `f32`s).
pub trait SigmfItem: radioflow_runtime::Item {
    /// Whether the type holds a complex sample.
    const COMPLEX: bool;
    /// `f32`s per item.
    const SCALARS: usize = if Self::COMPLEX { 2 } else { 1 };
}

impl SigmfItem for radioflow_runtime::Complex32 {
    const COMPLEX: bool = true;
}

impl SigmfItem for f32 {
    const COMPLEX: bool = false;
}

/// The item type `T` fits `datatype` (complex with complex); else an error naming `file`.
pub(crate) fn check_item<T: SigmfItem>(datatype: Datatype, file: &Path) -> Result<(), SigmfError> {
    if datatype.complex == T::COMPLEX {
        return Ok(());
    }
    let (kind, dtype) = if datatype.complex {
        ("complex", "complex64")
    } else {
        ("real", "float32")
    };
    Err(SigmfError::Field {
        file: file.to_owned(),
        field: "global.core:datatype".into(),
        message: format!("{datatype} is {kind}: use a {dtype} block"),
    })
}

/// `core:sha512` as SigMF writes it: the SHA-512 of the data file in lower-case hex.
pub(crate) fn sha512_hex(hash: sha2::Sha512) -> String {
    use sha2::Digest;
    use std::fmt::Write;
    hash.finalize()
        .iter()
        .fold(String::with_capacity(128), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Why a recording cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SigmfError {
    /// A metadata field is missing, mistyped, or holds what is not read.
    #[error("{}: {field}: {message}", file.display())]
    Field {
        /// The `.sigmf-meta` file (or the archive).
        file: PathBuf,
        /// The field's path: `global.core:datatype`, `captures[1].core:datetime`, ...
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A file cannot be opened, read or written.
    #[error("cannot {action} '{}': {source}", file.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        file: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The recording's files do not fit together (no data in an archive, a data file that is
    /// not whole samples, a complex recording read as real, ...).
    #[error("{}: {message}", file.display())]
    Recording {
        /// The file concerned.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl SigmfError {
    /// An I/O error of `action` on `file`, for `map_err`.
    pub(crate) fn io(action: &'static str, file: &Path) -> impl FnOnce(io::Error) -> Self {
        let file = file.to_owned();
        move |source| SigmfError::Io {
            action,
            file,
            source,
        }
    }

    fn recording(file: &Path, message: impl Into<String>) -> Self {
        SigmfError::Recording {
            file: file.to_owned(),
            message: message.into(),
        }
    }
}

/// Whether `path` names a SigMF recording: `.sigmf-meta`, `.sigmf-data` or a `.sigmf` archive.
pub fn is_sigmf(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("sigmf-meta" | "sigmf-data" | "sigmf")
    )
}

/// Where a recording lives, from any of its names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// `NAME.sigmf-meta` and `NAME.sigmf-data`.
    Pair {
        /// The metadata file.
        meta: PathBuf,
        /// The data file.
        data: PathBuf,
    },
    /// A `.sigmf` tar archive.
    Archive(PathBuf),
}

impl Location {
    /// `X.sigmf` is an archive; `X.sigmf-meta`, `X.sigmf-data` and `X` name the pair
    /// `X.sigmf-meta` + `X.sigmf-data`.
    pub fn of(path: &Path) -> Self {
        let ext = path.extension().and_then(|e| e.to_str());
        let base = match ext {
            Some("sigmf") => return Location::Archive(path.to_owned()),
            Some("sigmf-meta" | "sigmf-data") => path.with_extension(""),
            _ => path.to_owned(),
        };
        let with = |ext: &str| {
            let mut name = base.clone().into_os_string();
            name.push(ext);
            PathBuf::from(name)
        };
        Location::Pair {
            meta: with(".sigmf-meta"),
            data: with(".sigmf-data"),
        }
    }
}

/// A recording opened for reading: its metadata and where its samples are.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The metadata.
    pub meta: Metadata,
    /// The file the metadata came from (the archive for an archive), for errors.
    pub meta_file: PathBuf,
    /// The file holding the samples (the archive itself for an archive).
    pub data_file: PathBuf,
    /// The byte offset of the first sample in `data_file`.
    pub data_offset: u64,
    /// The number of samples.
    pub samples: u64,
}

impl Recording {
    /// Reads the metadata of the recording at `path` (see [`Location::of`]) and locates its
    /// samples; an archive's data is not extracted.
    ///
    /// # Errors
    /// A file cannot be read, the metadata is malformed ([`SigmfError::Field`] naming the
    /// field), an archive holds no metadata or no data of the same name, or the data is not a
    /// whole number of samples.
    pub fn open(path: &Path) -> Result<Self, SigmfError> {
        let (meta_file, meta_bytes, data_file, data_offset, data_len) = match Location::of(path) {
            Location::Pair { meta, data } => {
                let bytes = std::fs::read(&meta).map_err(SigmfError::io("read", &meta))?;
                let len = std::fs::metadata(&data)
                    .map_err(SigmfError::io("open", &data))?
                    .len();
                (meta, bytes, data, 0, len)
            }
            Location::Archive(archive) => {
                let (bytes, offset, len) = read_archive(&archive)?;
                (archive.clone(), bytes, archive, offset, len)
            }
        };
        let meta = Metadata::parse(&meta_file, &meta_bytes)?;
        let size = meta.global.datatype.sample_bytes() as u64;
        if data_len % size != 0 {
            return Err(SigmfError::recording(
                &data_file,
                format!(
                    "{data_len} bytes of data are not a whole number of {}-byte samples ({})",
                    size, meta.global.datatype
                ),
            ));
        }
        Ok(Self {
            meta,
            meta_file,
            data_file,
            data_offset,
            samples: data_len / size,
        })
    }

    /// The data file, positioned at the first sample.
    ///
    /// # Errors
    /// It cannot be opened.
    pub fn open_data(&self) -> Result<io::Take<File>, SigmfError> {
        use std::io::Seek;
        let mut file =
            File::open(&self.data_file).map_err(SigmfError::io("open", &self.data_file))?;
        file.seek(io::SeekFrom::Start(self.data_offset))
            .map_err(SigmfError::io("read", &self.data_file))?;
        let bytes = self.samples * self.meta.global.datatype.sample_bytes() as u64;
        Ok(file.take(bytes))
    }
}

/// Finds the first `.sigmf-meta` of an archive and the `.sigmf-data` of the same name:
/// (the metadata, the data's offset in the archive, its length).
fn read_archive(archive: &Path) -> Result<(Vec<u8>, u64, u64), SigmfError> {
    let file = File::open(archive).map_err(SigmfError::io("open", archive))?;
    let len = file
        .metadata()
        .map_err(SigmfError::io("open", archive))?
        .len();
    scan_archive(file, len, archive)
}

/// [`read_archive`] on the `len` bytes of `reader`, named `archive` in errors. The data is
/// read in place later (a span of the archive), so only members whose bytes are the file's
/// bytes, contiguous and inside the archive, are taken: a `.sigmf-meta` or `.sigmf-data`
/// member that is sparse, a link, a device, a FIFO or a directory is refused by name, as is
/// one that the archive's end cuts short. Other members are skipped (seeking over them).
fn scan_archive(
    reader: impl Read + io::Seek,
    len: u64,
    archive: &Path,
) -> Result<(Vec<u8>, u64, u64), SigmfError> {
    let bad = |e| SigmfError::io("read the archive", archive)(e);
    let mut tar = tar::Archive::new(reader);
    let mut meta: Option<(PathBuf, Vec<u8>)> = None;
    let mut datas: Vec<(PathBuf, u64, u64)> = Vec::new();
    for entry in tar.entries_with_seek().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let (name, sparse) = member_name(&mut entry).map_err(bad)?;
        let ext = name.extension().and_then(|e| e.to_str());
        if !matches!(ext, Some("sigmf-meta" | "sigmf-data")) {
            continue;
        }
        let member = || cut(&name.to_string_lossy()).into_owned();
        if let Some(what) = sparse.or_else(|| not_regular(entry.header().entry_type())) {
            return Err(SigmfError::recording(
                archive,
                format!("member '{}' is {what}", member()),
            ));
        }
        let (offset, size) = (entry.raw_file_position(), entry.size());
        if offset.checked_add(size).is_none_or(|end| end > len) {
            return Err(SigmfError::recording(
                archive,
                format!(
                    "the archive ends inside member '{}' ({size} bytes from byte {offset}; \
                     the archive has {len})",
                    member()
                ),
            ));
        }
        if ext == Some("sigmf-data") {
            datas.push((name.with_extension(""), offset, size));
        } else if meta.is_none() {
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).map_err(bad)?;
            meta = Some((name.with_extension(""), bytes));
        }
    }
    let Some((stem, bytes)) = meta else {
        return Err(SigmfError::recording(
            archive,
            "the archive holds no .sigmf-meta file",
        ));
    };
    let Some(&(_, offset, len)) = datas.iter().find(|(s, _, _)| *s == stem) else {
        return Err(SigmfError::recording(
            archive,
            format!(
                "the archive holds no {}.sigmf-data",
                cut(&stem.to_string_lossy())
            ),
        ));
    };
    Ok((bytes, offset, len))
}

/// The `sigmf_archive` fuzz target's entry: where an archive made of `bytes` holds its
/// recording's data (offset, length), as [`Recording::open`] finds it.
#[doc(hidden)]
pub fn archive_data_span(bytes: &[u8]) -> Result<(u64, u64), SigmfError> {
    let name = Path::new("fuzz.sigmf");
    let (_, offset, len) = scan_archive(io::Cursor::new(bytes), bytes.len() as u64, name)?;
    Ok((offset, len))
}

/// A member's name (pax and GNU long names applied by the `tar` crate) and, if it was stored
/// sparse, why it is refused. A sparse member's bytes in the archive are not its content: GNU
/// tar's own format (`-S` with `--format=gnu`) stores a map of holes in the header and
/// extension blocks (entry type `S`); the pax formats (0.0, 0.1, 1.0) store it in `GNU.sparse.*`
/// records and, for 1.0, in the member's data, under a made-up name with the real one in
/// `GNU.sparse.name`.
fn member_name<R: Read>(
    entry: &mut tar::Entry<'_, R>,
) -> io::Result<(PathBuf, Option<&'static str>)> {
    const SPARSE: &str = "a sparse file (tar -S): its bytes in the archive are not its \
                          content; make the archive without -S";
    let mut real = None;
    let mut sparse = entry.header().entry_type().is_gnu_sparse();
    if let Some(records) = entry.pax_extensions()? {
        for record in records {
            let record = record?;
            let Ok(key) = record.key() else { continue };
            if key.starts_with("GNU.sparse.") {
                sparse = true;
            }
            if key == "GNU.sparse.name" {
                real = record.value().ok().map(PathBuf::from);
            }
        }
    }
    let name = match real {
        Some(name) => name,
        None => entry.path()?.into_owned(),
    };
    Ok((name, sparse.then_some(SPARSE)))
}

/// Why a member of `kind` cannot be read as a recording's file, or `None` for a regular one.
fn not_regular(kind: tar::EntryType) -> Option<&'static str> {
    use tar::EntryType as E;
    Some(match kind {
        E::Regular | E::Continuous => return None,
        E::Symlink => {
            "a symbolic link: the archive must hold the file itself (GNU tar: --dereference)"
        }
        E::Link => {
            "a hard link: the archive must hold the file itself (GNU tar: --hard-dereference)"
        }
        E::Char => "a character device",
        E::Block => "a block device",
        E::Fifo => "a FIFO",
        E::Directory => "a directory",
        _ => "not a regular file",
    })
}

/// The stream tags of a recording, sorted by offset: at sample 0 and at the start of every
/// capture `rx_rate` (if the sample rate is known); at a capture's start `rx_freq` (if it has
/// `core:frequency`) and `rx_time` (if it has `core:datetime`); at an annotation's start an
/// `annotation` dict of its fields.
pub fn stream_tags(meta: &Metadata) -> Vec<Tag> {
    let mut tags = Vec::new();
    let rate = meta.global.sample_rate.map(Pmt::Double);
    if meta.captures.first().is_none_or(|c| c.sample_start != 0) {
        if let Some(rate) = &rate {
            tags.push(Tag::new(0, Pmt::symbol(RX_RATE), rate.clone()));
        }
    }
    for c in &meta.captures {
        let at = c.sample_start;
        if let Some(rate) = &rate {
            tags.push(Tag::new(at, Pmt::symbol(RX_RATE), rate.clone()));
        }
        if let Some(f) = c.frequency {
            tags.push(Tag::new(at, Pmt::symbol(RX_FREQ), Pmt::Double(f)));
        }
        if let Some((secs, frac)) = c.datetime.as_deref().and_then(|t| time::parse(t).ok()) {
            let value = Pmt::Tuple(vec![Pmt::Uint64(secs), Pmt::Double(frac)].into());
            tags.push(Tag::new(at, Pmt::symbol(RX_TIME), value));
        }
    }
    for a in &meta.annotations {
        tags.push(Tag::new(
            a.sample_start,
            Pmt::symbol(ANNOTATION),
            annotation_to_pmt(a),
        ));
    }
    // Stable: at one offset, capture tags before annotations.
    tags.sort_by_key(|t| t.offset);
    tags
}

fn annotation_to_pmt(a: &Annotation) -> Pmt {
    let mut dict = Pmt::dict_from(Vec::<(Pmt, Pmt)>::new());
    let mut add = |k: &str, v: Pmt| dict.dict_add(Pmt::symbol(k), v);
    if let Some(n) = a.sample_count {
        add("core:sample_count", Pmt::Uint64(n));
    }
    if let Some(f) = a.freq_lower_edge {
        add("core:freq_lower_edge", Pmt::Double(f));
    }
    if let Some(f) = a.freq_upper_edge {
        add("core:freq_upper_edge", Pmt::Double(f));
    }
    for (k, v) in [
        ("core:label", &a.label),
        ("core:comment", &a.comment),
        ("core:generator", &a.generator),
        ("core:uuid", &a.uuid),
    ] {
        if let Some(v) = v {
            add(k, Pmt::symbol(v.as_str()));
        }
    }
    for (k, v) in &a.extra {
        if let Some(v) = json_to_pmt(v) {
            add(k, v);
        }
    }
    dict
}

fn json_to_pmt(v: &serde_json::Value) -> Option<Pmt> {
    use serde_json::Value;
    Some(match v {
        Value::Bool(b) => Pmt::Bool(*b),
        Value::String(s) => Pmt::symbol(s.as_str()),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Pmt::Uint64(u),
            (None, Some(i)) => Pmt::Int(i),
            _ => Pmt::Double(n.as_f64()?),
        },
        _ => return None,
    })
}

fn pmt_to_json(v: &Pmt) -> Option<serde_json::Value> {
    use serde_json::Value;
    Some(match v {
        Pmt::Bool(b) => Value::Bool(*b),
        Pmt::Symbol(s) => Value::String(s.to_string()),
        Pmt::Uint64(u) => Value::from(*u),
        Pmt::Int(i) => Value::from(*i),
        Pmt::Double(d) => serde_json::Number::from_f64(*d).map(Value::Number)?,
        _ => return None,
    })
}

/// Builds a recording's captures and annotations from stream tags, in stream order: the
/// inverse of [`stream_tags`]. `rx_freq` and `rx_time` start (or complete) a capture at their
/// offset; the first `rx_rate` sets `core:sample_rate` unless it is set already; an
/// `annotation` dict becomes an annotation. Tags with other keys, or values of other types,
/// are left out.
#[derive(Clone, Debug)]
pub struct CaptureLog {
    /// The document being built.
    pub meta: Metadata,
}

impl CaptureLog {
    /// A log for a recording of `datatype` (at `sample_rate`, if known).
    pub fn new(datatype: Datatype, sample_rate: Option<f64>) -> Self {
        Self {
            meta: Metadata::new(datatype, sample_rate),
        }
    }

    fn capture_at(&mut self, offset: u64) -> &mut Capture {
        if self
            .meta
            .captures
            .last()
            .is_none_or(|c| c.sample_start != offset)
        {
            self.meta.captures.push(Capture {
                sample_start: offset,
                ..Capture::default()
            });
        }
        self.meta.captures.last_mut().unwrap()
    }

    /// Takes in one tag (tags must come in offset order).
    pub fn add(&mut self, tag: &Tag) {
        match tag.key.as_symbol() {
            Some(RX_RATE) => {
                if let (None, Some(rate)) = (self.meta.global.sample_rate, tag.value.as_f64()) {
                    self.meta.global.sample_rate = Some(rate);
                }
            }
            Some(RX_FREQ) => {
                if let Some(f) = tag.value.as_f64() {
                    self.capture_at(tag.offset).frequency = Some(f);
                }
            }
            Some(RX_TIME) => {
                if let Pmt::Tuple(t) = &tag.value {
                    if let [secs, frac] = &t[..] {
                        if let (Some(s), Some(f)) = (secs.as_u64(), frac.as_f64()) {
                            self.capture_at(tag.offset).datetime = Some(time::format(s, f));
                        }
                    }
                }
            }
            Some(ANNOTATION) => {
                if let Some(entries) = tag.value.as_dict() {
                    let mut a = Annotation {
                        sample_start: tag.offset,
                        ..Annotation::default()
                    };
                    for (k, v) in entries {
                        let Some(k) = k.as_symbol() else { continue };
                        let text = || v.as_symbol().map(str::to_owned);
                        match k {
                            "core:sample_count" => a.sample_count = v.as_u64(),
                            "core:freq_lower_edge" => a.freq_lower_edge = v.as_f64(),
                            "core:freq_upper_edge" => a.freq_upper_edge = v.as_f64(),
                            "core:label" => a.label = text(),
                            "core:comment" => a.comment = text(),
                            "core:generator" => a.generator = text(),
                            "core:uuid" => a.uuid = text(),
                            other => {
                                if let Some(v) = pmt_to_json(v) {
                                    a.extra.insert(other.to_owned(), v);
                                }
                            }
                        }
                    }
                    self.meta.annotations.push(a);
                }
            }
            _ => {}
        }
    }

    /// The finished document: a capture at sample 0 is added if there is none.
    pub fn finish(mut self) -> Metadata {
        if self
            .meta
            .captures
            .first()
            .is_none_or(|c| c.sample_start != 0)
        {
            self.meta.captures.insert(0, Capture::default());
        }
        self.meta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<Metadata, SigmfError> {
        Metadata::parse(Path::new("x.sigmf-meta"), json.as_bytes())
    }

    #[test]
    fn locations_from_any_name() {
        let pair = Location::Pair {
            meta: "d/rec.sigmf-meta".into(),
            data: "d/rec.sigmf-data".into(),
        };
        for name in ["d/rec", "d/rec.sigmf-meta", "d/rec.sigmf-data"] {
            assert_eq!(Location::of(Path::new(name)), pair, "{name}");
        }
        assert_eq!(
            Location::of(Path::new("d/rec.sigmf")),
            Location::Archive("d/rec.sigmf".into())
        );
    }

    #[test]
    fn malformed_metadata_names_the_field() {
        let cases = [
            (r#"{"global": {"core:version": "1.0.0"}}"#, "x.sigmf-meta: global: missing field `core:datatype`"),
            (
                r#"{"global": {"core:datatype": "cf33_le", "core:version": "1.0.0"}}"#,
                "x.sigmf-meta: global.core:datatype: 'cf33_le' is not a SigMF datatype",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1", "core:sample_rate": "fast"}}"#,
                "x.sigmf-meta: global.core:sample_rate: invalid type: string \"fast\", expected f64",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1"}, "captures": [{"core:sample_start": 0, "core:datetime": "yesterday"}]}"#,
                "x.sigmf-meta: captures[0].core:datetime: 'yesterday' is not an RFC 3339 UTC time",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1"}, "captures": [{"core:frequency": 1e6}]}"#,
                "x.sigmf-meta: captures[0]: missing field `core:sample_start`",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1"}, "captures": [{"core:sample_start": 5}, {"core:sample_start": 5}]}"#,
                "x.sigmf-meta: captures[1].core:sample_start: captures must be in increasing order",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1", "core:num_channels": 2}}"#,
                "x.sigmf-meta: global.core:num_channels: 2 channels",
            ),
            ("{\"global\": ", "x.sigmf-meta: global: EOF while parsing"),
        ];
        for (json, want) in cases {
            let e = parse(json).unwrap_err().to_string();
            assert!(e.starts_with(want), "{json}\n  gave: {e}\n  want: {want}");
        }
    }

    #[test]
    fn errors_cut_long_echoes_of_the_file() {
        let huge = "x".repeat(5 << 20);
        for json in [
            format!(r#"{{"global": {{"core:datatype": "{huge}", "core:version": "1"}}}}"#),
            format!(
                r#"{{"global": {{"core:datatype": "cf32_le", "core:version": "1", "core:sample_rate": "{huge}"}}}}"#
            ),
            format!(
                r#"{{"global": {{"core:datatype": "cf32_le", "core:version": "1"}}, "captures": [{{"core:sample_start": 0, "core:datetime": "{huge}"}}]}}"#
            ),
        ] {
            let e = parse(&json).unwrap_err().to_string();
            assert!(e.len() < 1200, "{} bytes: {}...", e.len(), &e[..100]);
            assert!(e.contains("bytes cut"), "{e}");
        }
    }

    #[test]
    fn captures_and_annotations_become_tags_and_back() {
        let meta = parse(
            r#"{"global": {"core:datatype": "ci16_le", "core:version": "1.2.0", "core:sample_rate": 2e6},
                "captures": [
                  {"core:sample_start": 0, "core:frequency": 100e6, "core:datetime": "2023-11-14T22:13:20.25Z"},
                  {"core:sample_start": 1000, "core:frequency": 101e6}],
                "annotations": [{"core:sample_start": 10, "core:sample_count": 20, "core:label": "burst",
                                 "core:freq_lower_edge": 99e6, "core:freq_upper_edge": 100.5e6, "x:snr": 12.5}]}"#,
        )
        .unwrap();
        let tags = stream_tags(&meta);
        let time = Pmt::Tuple(vec![Pmt::Uint64(1_700_000_000), Pmt::Double(0.25)].into());
        let keys: Vec<(u64, &str)> = tags
            .iter()
            .map(|t| (t.offset, t.key.as_symbol().unwrap()))
            .collect();
        assert_eq!(
            keys,
            [
                (0, RX_RATE),
                (0, RX_FREQ),
                (0, RX_TIME),
                (10, ANNOTATION),
                (1000, RX_RATE),
                (1000, RX_FREQ)
            ]
        );
        assert_eq!(tags[0].value, Pmt::Double(2e6));
        assert_eq!(tags[2].value, time);
        let mut log = CaptureLog::new(Datatype::parse("ci16_le").unwrap(), None);
        for t in &tags {
            log.add(t);
        }
        let back = log.finish();
        assert_eq!(back.global.sample_rate, Some(2e6));
        assert_eq!(back.captures, meta.captures);
        assert_eq!(back.annotations, meta.annotations);
    }
}
