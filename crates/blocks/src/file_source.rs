//! [`FileSource`]: reads raw items from a file.

use crate::file_error::FileError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};

/// Reads raw items in native byte order from a file, once or over and over, like GNU Radio's
/// `file_source` (so it reads what [`FileSink`](crate::FileSink) or GNU Radio's `file_sink`
/// wrote). Reads go straight into the output buffer.
///
/// A file whose length is not a multiple of the item size ends in a partial item: like GNU
/// Radio, the source drops those trailing bytes (at the end of every pass when repeating) and
/// logs a warning naming the file, once.
///
/// A file holding no whole item finishes at once, even when repeating.
///
/// Blocking: yes (file I/O), so thread-sharing schedulers give it its own thread.
///
/// # Example
/// ```
/// use radioflow_blocks::{FileSink, FileSource, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let path = std::env::temp_dir().join(format!("radioflow-doc-{}.u16", std::process::id()));
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u16, 2, 3]));
/// let sink = fg.add(FileSink::<u16>::new(&path)?);
/// fg.connect(src, sink)?;
/// fg.run()?;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(FileSource::<u16>::new(&path)?);
/// let sink = fg.add(VectorSink::<u16>::new());
/// fg.connect(src, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u16>>(sink).unwrap().data(), &[1, 2, 3]);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "file_source",
    summary = "Items read from a raw binary file (GNU Radio's file_source).",
    dtypes = all,
    make = Self::new(&path)?.repeat(repeat).with_vlen(vlen)
)]
#[param(path: PathBuf, path = read, doc = "the file to read")]
#[param(repeat: bool = false, doc = "start again at the end")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct FileSource<T: Item> {
    /// The file's contents.
    #[output(name = "out")]
    output: StreamOutput<T>,
    file: File,
    path: PathBuf,
    repeat: bool,
    /// Whole items read since the file was opened or last rewound.
    items_this_pass: u64,
    /// The partial-item warning was logged.
    warned: bool,
}

#[block(blocking)]
impl<T: Item> FileSource<T> {
    /// Opens `path` for reading.
    ///
    /// # Errors
    /// The file cannot be opened (missing, unreadable) or is a directory; the error names it.
    pub fn new(path: impl AsRef<Path>) -> Result<Self, FileError> {
        let path = path.as_ref();
        let err = |e| FileError::new("open", path, e);
        let file = File::open(path).map_err(err)?;
        // Opening a directory succeeds on Unix; reading it would fail only later, in `work`.
        if file.metadata().map_err(err)?.is_dir() {
            return Err(err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            )));
        }
        Ok(Self {
            output: StreamOutput::new(),
            file,
            path: path.to_owned(),
            repeat: false,
            items_this_pass: 0,
            warned: false,
        })
    }

    /// Whether to rewind at the end of the file instead of finishing.
    pub fn repeat(mut self, repeat: bool) -> Self {
        self.repeat = repeat;
        self
    }

    /// Reads vectors of `vlen` scalars (at least 1): a trailing part of a vector is dropped
    /// with the warning, as a part of an item is.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.output.set_vlen(vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vlen = self.output.vlen();
        let size = std::mem::size_of::<T>() * vlen;
        let buf = bytemuck::cast_slice_mut::<T, u8>(self.output.slice());
        if buf.is_empty() {
            // A zero-byte read would look like the end of the file.
            return Ok(WorkStatus::Continue);
        }
        let mut filled = 0;
        let mut eof = false;
        // A read may stop inside an item; read on until the item is complete or the file ends.
        while filled == 0 || filled % size != 0 {
            match self.file.read(&mut buf[filled..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(k) => filled += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(FileError::new("read", &self.path, e).into()),
            }
        }
        let n = filled / size;
        if filled % size != 0 && !self.warned {
            self.warned = true;
            tracing::warn!(
                file = %self.path.display(),
                "file length is not a multiple of the {size}-byte item size; \
                 dropping the trailing {} bytes",
                filled % size
            );
        }
        self.output.produce(n * vlen);
        self.items_this_pass += n as u64;
        if !eof {
            return Ok(WorkStatus::Continue);
        }
        if !self.repeat || self.items_this_pass == 0 {
            return Ok(WorkStatus::Done);
        }
        self.file
            .rewind()
            .map_err(|e| FileError::new("rewind", &self.path, e))?;
        self.items_this_pass = 0;
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn file_of(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, bytes).unwrap();
        f
    }

    #[test]
    fn reads_as_much_as_the_output_has_room_for() {
        let data: Vec<u16> = (0..10).collect();
        let f = file_of(bytemuck::cast_slice(&data));
        let mut h = Harness::new(FileSource::<u16>::new(f.path()).unwrap());
        h.set_space("out", 4);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!(h.take_output::<u16>("out"), [0, 1, 2, 3]);
        h.set_space("out", 100);
        // The rest, then the end of the file in the same call or the next.
        let mut got = Vec::new();
        while h.work().unwrap() == WorkStatus::Continue {
            got.extend(h.take_output::<u16>("out"));
        }
        got.extend(h.take_output::<u16>("out"));
        assert_eq!(got, (4..10).collect::<Vec<u16>>());
        assert!(h.block().is_blocking());
    }

    #[test]
    fn repeating_rewinds_and_drops_a_partial_item_every_pass() {
        let f = file_of(&[1, 0, 2, 0, 9]); // two u16 and a stray byte
        let mut h = Harness::new(FileSource::<u16>::new(f.path()).unwrap().repeat(true));
        h.set_space("out", 3);
        let mut got = Vec::new();
        for _ in 0..6 {
            assert_eq!(h.work().unwrap(), WorkStatus::Continue);
            got.extend(h.take_output::<u16>("out"));
        }
        assert!(got.len() >= 6, "{got:?}");
        assert!(
            got.iter().zip([1, 2].iter().cycle()).all(|(g, w)| g == w),
            "{got:?}"
        );
    }
}
