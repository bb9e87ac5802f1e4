//! Finding a recording by any of its names ([`Location`]) and opening it ([`Recording`]):
//! the metadata read, the samples' file and span found (in place inside an archive), and the
//! SHA-512 SigMF records of the data.

use super::{Metadata, SigmfError};
use radioflow_runtime::echo::cut;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

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
