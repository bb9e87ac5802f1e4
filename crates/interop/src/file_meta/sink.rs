//! [`FileMetaSink`]: items into a GNU Radio metadata file, in segments after headers.

use super::header::{self, HEADER_SIZE};
use radioflow_blocks::FileError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::ItemType;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Writes a stream to a GNU Radio metadata file (GNU Radio's `blocks.file_meta_sink`), byte
/// for byte as GNU Radio 3.10 writes it: raw items in segments of at most `max_seg_size`
/// items, each after a header (a PMT dict: `rx_rate`, `rx_time`, item `size`, `type`, `cplx`,
/// the segment's `bytes`, where its data starts) and a dict of extras (`extra_dict`, then the
/// keys of the tags that are not the header's). With `detached`, the headers go to
/// `<path>.hdr` and the data file holds only items.
///
/// Where a tag arrives, the segment ends and a new one begins with the tag's key set: in the
/// header if it is one of its keys (an `rx_rate` tag's rate times `rel_rate`, the rate after
/// any rate change between the radio and this sink), else in the extras. A full segment's
/// successor gets the time advanced by its length over the rate (only then, as GNU Radio).
/// The last header gets its length when the run stops. A tag that would change the header's
/// size (a key given a value of another type) is an error: no reader could find the data.
///
/// Blocking: yes (file I/O). `unbuffered` flushes after each call of the work function.
///
/// # Example
/// ```
/// use radioflow_blocks::VectorSource;
/// use radioflow_interop::FileMetaSink;
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let path = std::env::temp_dir().join(format!("radioflow-doc-{}.meta", std::process::id()));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let sink = fg.add(FileMetaSink::<f32>::new(&path, 48e3, 1.0, 1_000_000, Pmt::Null, false)?);
/// fg.connect(src, sink)?;
/// fg.run()?;
/// // One header (149 bytes), the empty extras (nil: 1 byte), then the three floats.
/// assert_eq!(std::fs::metadata(&path)?.len(), 149 + 1 + 3 * 4);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "file_meta_sink",
    summary = "Writes items to a GNU Radio metadata file: segments after PMT headers (rate, time, item type, tags), inline or in a .hdr file beside it.",
    dtypes = [Complex32, Float32, Int32, Int16, Uint8, Int8],
    make = Self::new(path, sample_rate, rel_rate, max_seg_size, extra_dict, detached)?.with_vlen(vlen).map(|s| s.unbuffered(unbuffered))
)]
#[param(path: &Path, path = write, doc = "the data file (headers too unless detached)")]
#[param(sample_rate: f64 = 1.0, doc = "the first header's rx_rate")]
#[param(rel_rate: f64 = 1.0, doc = "multiplies the rate of rx_rate tags")]
#[param(max_seg_size: u64 = 1_000_000, min = 1, doc = "items per segment at most")]
#[param(extra_dict: Pmt, doc = "a dict of extra keys for the headers (nil for none)")]
#[param(detached: bool = false, doc = "headers in the data file's name + .hdr")]
#[param(unbuffered: bool = false, doc = "flush after each call of the work function")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length; the header's item size is the vector's)")]
pub struct FileMetaSink<T: Item> {
    /// The items to write.
    #[input(name = "in")]
    input: StreamInput<T>,
    data: BufWriter<File>,
    /// `<path>.hdr` when detached.
    headers: Option<BufWriter<File>>,
    path: PathBuf,
    header: Pmt,
    extras: Pmt,
    sample_rate: f64,
    rel_rate: f64,
    max_seg: u64,
    /// Items in the current segment.
    seg: u64,
    unbuffered: bool,
    /// Where a failure left the file: nothing more is written.
    failed: bool,
}

impl<T: Item> std::fmt::Debug for FileMetaSink<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileMetaSink")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

#[block(blocking)]
impl<T: Item> FileMetaSink<T> {
    /// Creates `path` (and `<path>.hdr` if `detached`), truncating what exists, and writes the
    /// first header.
    ///
    /// # Errors
    /// A file cannot be created or written; `extra_dict` is not a dict, `max_seg_size` is 0
    /// or the item type has no GNU Radio file type (an `InvalidInput` error); each names the
    /// file.
    pub fn new(
        path: impl AsRef<Path>,
        sample_rate: f64,
        rel_rate: f64,
        max_seg_size: u64,
        extra_dict: Pmt,
        detached: bool,
    ) -> Result<Self, FileError> {
        let path = path.as_ref();
        let invalid = |why: String| {
            FileError::new(
                "create",
                path,
                io::Error::new(io::ErrorKind::InvalidInput, why),
            )
        };
        let Some((kind, cplx)) = header::file_type::<T>() else {
            return Err(invalid(format!(
                "{} items have no GNU Radio file type",
                ItemType::of::<T>()
            )));
        };
        if max_seg_size == 0 {
            return Err(invalid(
                "max_seg_size 0 (a segment holds at least an item)".into(),
            ));
        }
        // GNU Radio copies the given dict's entries one by one into a new one: the order
        // comes out reversed.
        let Some(entries) = extra_dict.as_dict() else {
            return Err(invalid(format!("extra_dict is not a dict: {extra_dict}")));
        };
        let mut extras = Pmt::Null;
        for (k, v) in entries {
            extras.dict_add(k.clone(), v.clone());
        }
        let create = |p: &Path| {
            File::create(p)
                .map(BufWriter::new)
                .map_err(|e| FileError::new("create", p, e))
        };
        let data = create(path)?;
        let headers = if detached {
            let mut hdr = path.as_os_str().to_owned();
            hdr.push(".hdr");
            Some(create(Path::new(&hdr))?)
        } else {
            None
        };
        let strt = HEADER_SIZE + extras.to_bytes().len() as u64;
        let mut sink = Self {
            input: StreamInput::new(),
            data,
            headers,
            path: path.to_owned(),
            header: header::first(sample_rate, std::mem::size_of::<T>(), kind, cplx, strt),
            extras,
            sample_rate,
            rel_rate,
            max_seg: max_seg_size,
            seg: 0,
            unbuffered: false,
            failed: false,
        };
        sink.write_header()?;
        Ok(sink)
    }

    /// Writes vectors of `vlen` scalars as items (GNU Radio's `vlen`: the header's `size` is
    /// the vector's, segments and `max_seg_size` count vectors). The first header is written
    /// again with that size.
    ///
    /// # Errors
    /// `vlen` is 0 or the header cannot be written again; the error names the file.
    pub fn with_vlen(mut self, vlen: usize) -> Result<Self, FileError> {
        if vlen == 0 {
            return Err(FileError::new(
                "create",
                &self.path,
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "vlen 0 (a vector has a scalar at least)",
                ),
            ));
        }
        self.input.set_vlen(vlen);
        // Built again, not changed: a key given again moves to the dict's front.
        let (kind, cplx) = header::file_type::<T>().expect("checked by new");
        let strt = HEADER_SIZE + self.extras_size();
        self.header = header::first(self.sample_rate, self.item_bytes(), kind, cplx, strt);
        let path = self.path.clone();
        self.header_file()
            .seek(SeekFrom::Start(0))
            .map_err(|e| FileError::new("seek in", &path, e))?;
        self.write_header()?;
        Ok(self)
    }

    /// Bytes per item (a vector of `vlen` scalars).
    fn item_bytes(&self) -> usize {
        std::mem::size_of::<T>() * self.input.vlen()
    }

    /// Flushes after each call of the work function (GNU Radio's `set_unbuffered`).
    pub fn unbuffered(mut self, on: bool) -> Self {
        self.unbuffered = on;
        self
    }

    /// Where headers go: the data file, or `<path>.hdr`.
    fn header_file(&mut self) -> &mut BufWriter<File> {
        self.headers.as_mut().unwrap_or(&mut self.data)
    }

    fn extras_size(&self) -> u64 {
        self.extras.to_bytes().len() as u64
    }

    /// Writes the header and extras where the header file stands.
    fn write_header(&mut self) -> Result<(), FileError> {
        let bytes = header::serialize(&self.header, &self.extras, &self.path)?;
        let path = self.path.clone();
        self.header_file()
            .write_all(&bytes)
            .map_err(|e| FileError::new("write", &path, e))
    }

    /// Sets `key` in the header if it is one of its keys (an `rx_rate` as this sink's rate),
    /// else in the extras.
    fn set(&mut self, key: &Pmt, value: &Pmt) {
        let mut value = value.clone();
        if key.as_symbol() == Some("rx_rate")
            && let Some(rate) = value.as_f64()
        {
            self.sample_rate = rate;
            value = Pmt::Double(rate * self.rel_rate);
        }
        if self.header.dict_get(key).is_some() {
            self.header.dict_add(key.clone(), value);
        } else {
            self.extras.dict_add(key.clone(), value);
        }
    }

    /// Gives the current segment's header its length, written again in place.
    fn close_segment(&mut self) -> Result<(), FileError> {
        let old_len = header::get(&self.header, "strt")
            .and_then(Pmt::as_u64)
            .unwrap_or(HEADER_SIZE);
        let seg_bytes = self.seg * self.item_bytes() as u64;
        let strt = HEADER_SIZE + self.extras_size();
        self.header
            .dict_add(Pmt::symbol("bytes"), Pmt::Uint64(seg_bytes));
        self.header.dict_add(Pmt::symbol("strt"), Pmt::Uint64(strt));
        let back = if self.headers.is_some() {
            old_len
        } else {
            old_len + seg_bytes
        };
        let path = self.path.clone();
        let seek = |f: &mut BufWriter<File>, by: i64| {
            f.seek(SeekFrom::Current(by))
                .map(drop)
                .map_err(|e| FileError::new("seek in", &path, e))
        };
        seek(self.header_file(), -(back as i64))?;
        self.write_header()?;
        if self.headers.is_none() {
            seek(&mut self.data, seg_bytes as i64)?;
        }
        Ok(())
    }

    /// Advances the header's `rx_time` by a full segment at the current rate.
    fn advance_time(&mut self) {
        let Some(Pmt::Tuple(t)) = header::get(&self.header, "rx_time") else {
            return;
        };
        let (Some(secs), Some(frac)) = (
            t.first().and_then(Pmt::as_u64),
            t.get(1).and_then(Pmt::as_f64),
        ) else {
            return;
        };
        let frac = frac + self.seg as f64 / (self.sample_rate * self.rel_rate);
        let whole = frac as u64;
        let time = Pmt::Tuple(
            [
                Pmt::Uint64(secs.wrapping_add(whole)),
                Pmt::Double(frac - whole as f64),
            ]
            .into(),
        );
        self.header.dict_add(Pmt::symbol("rx_time"), time);
    }

    /// Starts a segment: its header written at the end, with no length yet.
    fn new_segment(&mut self) -> Result<(), FileError> {
        let strt = HEADER_SIZE + self.extras_size();
        self.header.dict_add(Pmt::symbol("bytes"), Pmt::Uint64(0));
        self.header.dict_add(Pmt::symbol("strt"), Pmt::Uint64(strt));
        self.write_header()?;
        self.seg = 0;
        Ok(())
    }

    /// Writes `items[from..to]` of the input (items of `vlen` scalars) into segments.
    fn write_items(&mut self, from: usize, to: usize, stop_early: bool) -> Result<(), FileError> {
        let vlen = self.input.vlen();
        let mut at = from;
        while at < to {
            let k = ((self.max_seg - self.seg) as usize).min(to - at);
            let bytes: &[u8] =
                bytemuck::cast_slice(&self.input.slice()[at * vlen..(at + k) * vlen]);
            self.data
                .write_all(bytes)
                .map_err(|e| FileError::new("write", &self.path, e))?;
            at += k;
            self.seg += k as u64;
            // Before a tag, a full segment at the tag is left for the tag to end.
            if self.seg == self.max_seg && !(stop_early && at == to) {
                self.close_segment()?;
                self.advance_time();
                self.new_segment()?;
            }
        }
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.failed {
            return Ok(WorkStatus::Done);
        }
        let vlen = self.input.vlen();
        // Items, not scalars: tag offsets count vectors.
        let n = self.input.slice().len() / vlen;
        let base = self.input.offset();
        let result = (|| {
            let mut done = 0;
            let mut i = 0;
            while let Some(tag) = self.input.tags().get(i).cloned() {
                i += 1;
                let Some(at) = tag.offset.checked_sub(base).map(|a| a as usize) else {
                    continue;
                };
                if at >= n {
                    break;
                }
                self.write_items(done, at, true)?;
                done = at;
                if self.seg > 0 {
                    self.close_segment()?;
                    self.set(&tag.key, &tag.value);
                    self.new_segment()?;
                } else {
                    self.set(&tag.key, &tag.value);
                    self.close_segment()?;
                }
            }
            self.write_items(done, n, false)?;
            if self.unbuffered {
                self.data
                    .flush()
                    .map_err(|e| FileError::new("flush", &self.path, e))?;
            }
            Ok::<(), FileError>(())
        })();
        if let Err(e) = result {
            self.failed = true;
            return Err(e.into());
        }
        self.input.consume(n * vlen);
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if !self.failed {
            self.close_segment()?;
        }
        let path = self.path.clone();
        self.data
            .flush()
            .map_err(|e| FileError::new("flush", &path, e))?;
        if let Some(h) = self.headers.as_mut() {
            h.flush().map_err(|e| FileError::new("flush", &path, e))?;
        }
        Ok(())
    }
}
