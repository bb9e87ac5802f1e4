//! [`FileMetaSource`]: the items of a GNU Radio metadata file, with its headers as tags.

use super::header::{self, Segment};
use radioflow_blocks::FileError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::ItemType;
use std::fs::File;
use std::io::{self, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Reads a GNU Radio metadata file (GNU Radio's `blocks.file_meta_source`; written by its
/// `file_meta_sink` or radioflow's [`FileMetaSink`](crate::FileMetaSink)): each segment's
/// items, with tags on its first item as GNU Radio puts them: the extras (last first), then
/// `rx_time`, then `rx_rate`. With `detached`, the headers are read from `hdr_path` (or
/// `<path>.hdr` where it is empty). With `repeat`, the file starts again at its end.
///
/// The file is opened when the run starts; its item size must be this block's (an error
/// naming the file otherwise). A segment cut short by the end of the file gives what it has.
///
/// Blocking: yes (file I/O).
#[library_block(
    id = "file_meta_source",
    summary = "Reads a GNU Radio metadata file: its items, each segment's header as tags (rx_rate, rx_time, extras).",
    dtypes = [Complex32, Float32, Int32, Int16, Uint8, Int8],
    make = Ok::<_, Refused>(Self::new(path, repeat, detached, &hdr_path).with_vlen(vlen))
)]
#[param(path: PathBuf, path = read, doc = "the data file (headers too unless detached)")]
#[param(repeat: bool = false, doc = "start again at the end")]
#[param(detached: bool = false, doc = "headers in a file of their own")]
#[param(hdr_path: String = "", doc = "the headers' file when detached (empty: the data file's name + .hdr)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length; the file's item size must be the vector's)")]
pub struct FileMetaSource<T: Item> {
    /// The items.
    #[output(name = "out")]
    output: StreamOutput<T>,
    path: PathBuf,
    hdr_path: Option<PathBuf>,
    repeat: bool,
    data: Option<BufReader<File>>,
    headers: Option<BufReader<File>>,
    /// Items left in the current segment.
    left: u64,
    /// Tags for the next item produced.
    pending: Vec<(Pmt, Pmt)>,
    /// Items produced since the file (re)started: a repeat of an empty file ends.
    since_start: u64,
}

impl<T: Item> std::fmt::Debug for FileMetaSource<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileMetaSource")
            .field("path", &self.path)
            .finish()
    }
}

#[block(blocking)]
impl<T: Item> FileMetaSource<T> {
    /// A source of `path` (opened when the run starts); `detached` headers in `hdr_path`, or
    /// in `<path>.hdr` where `hdr_path` is empty.
    pub fn new(path: impl AsRef<Path>, repeat: bool, detached: bool, hdr_path: &str) -> Self {
        let path = path.as_ref().to_owned();
        let hdr_path = detached.then(|| {
            if hdr_path.is_empty() {
                let mut p = path.as_os_str().to_owned();
                p.push(".hdr");
                PathBuf::from(p)
            } else {
                PathBuf::from(hdr_path)
            }
        });
        Self {
            output: StreamOutput::new(),
            path,
            hdr_path,
            repeat,
            data: None,
            headers: None,
            left: 0,
            pending: Vec::new(),
            since_start: 0,
        }
    }

    /// Makes vectors of `vlen` scalars (GNU Radio's `vlen`): the file's item size must be the
    /// vector's, and segments count vectors.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.output.set_vlen(vlen);
        self
    }

    /// Bytes per item (a vector of `vlen` scalars).
    fn item_bytes(&self) -> usize {
        std::mem::size_of::<T>() * self.output.vlen()
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let open = |p: &Path| {
            File::open(p)
                .map(BufReader::new)
                .map_err(|e| FileError::new("open", p, e))
        };
        self.data = Some(open(&self.path)?);
        if let Some(h) = &self.hdr_path {
            self.headers = Some(open(h)?);
        }
        if !self.next_segment()? {
            let at = self.hdr_path.as_deref().unwrap_or(&self.path);
            return Err(FileError::new(
                "read",
                at,
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "no header: not a metadata file",
                ),
            )
            .into());
        }
        Ok(())
    }

    /// Reads the next header: its tags pending, its length in `left`. `false` at the end.
    fn next_segment(&mut self) -> Result<bool, FileError> {
        let (reader, at): (&mut BufReader<File>, &Path) = match (&mut self.headers, &self.hdr_path)
        {
            (Some(h), Some(p)) => (h, p),
            _ => (self.data.as_mut().expect("opened at start"), &self.path),
        };
        let Some(Segment {
            header,
            extras,
            item_size,
            items,
        }) = header::read(reader, at)?
        else {
            return Ok(false);
        };
        let vlen = self.output.vlen();
        let size = (std::mem::size_of::<T>() * vlen) as u64;
        if item_size != size {
            let ours = match vlen {
                1 => format!("{} items", ItemType::of::<T>()),
                _ => format!("vectors of {vlen} {}", ItemType::of::<T>()),
            };
            return Err(FileError::new(
                "read",
                at,
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("its items are {item_size} bytes, this source's {ours} {size}"),
                ),
            ));
        }
        // GNU Radio queues rx_rate, rx_time, then the extras, and tags them last first.
        self.pending.clear();
        for (k, v) in extras.into_iter().rev() {
            self.pending.push((k, v));
        }
        for key in ["rx_time", "rx_rate"] {
            if let Some(v) = header::get(&header, key) {
                self.pending.push((Pmt::symbol(key), v.clone()));
            }
        }
        self.left = items;
        Ok(true)
    }

    /// Back to the first segment (`repeat`).
    fn rewind(&mut self) -> Result<(), FileError> {
        let to_start = |f: &mut BufReader<File>, p: &Path| {
            f.seek(SeekFrom::Start(0))
                .map(drop)
                .map_err(|e| FileError::new("seek in", p, e))
        };
        if let Some(d) = self.data.as_mut() {
            to_start(d, &self.path)?;
        }
        if let (Some(h), Some(p)) = (self.headers.as_mut(), self.hdr_path.as_deref()) {
            to_start(h, p)?;
        }
        self.since_start = 0;
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while self.left == 0 {
            if self.next_segment()? {
                continue;
            }
            if !self.repeat || self.since_start == 0 {
                return Ok(WorkStatus::Done);
            }
            self.rewind()?;
        }
        let offset = self.output.offset();
        for (k, v) in self.pending.drain(..) {
            self.output.add_tag(offset, k, v);
        }
        let (vlen, item_bytes) = (self.output.vlen(), self.item_bytes());
        let out = self.output.slice();
        // Items, not scalars: a segment's length counts vectors.
        let n = ((out.len() / vlen) as u64).min(self.left) as usize;
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut out[..n * vlen]);
        let data = self.data.as_mut().expect("opened at start");
        let got = header::fill(data, bytes).map_err(|e| FileError::new("read", &self.path, e))?;
        // A vector cut short by the end of the file is not an item.
        let items = got / item_bytes;
        self.output.produce(items * vlen);
        self.since_start += items as u64;
        if items < n {
            // The file ends inside the segment: what was read, then the end (or the start
            // again).
            self.left = 0;
            if !self.repeat {
                return Ok(if items > 0 {
                    WorkStatus::Continue
                } else {
                    WorkStatus::Done
                });
            }
            self.rewind()?;
            return Ok(WorkStatus::Continue);
        }
        self.left -= items as u64;
        Ok(WorkStatus::Continue)
    }
}
