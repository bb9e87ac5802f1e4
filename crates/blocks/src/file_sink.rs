//! [`FileSink`]: writes raw items to a file.

use crate::file_error::FileError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes its input as raw items in native byte order to a file, like GNU Radio's
/// `file_sink` (so [`FileSource`](crate::FileSource) or GNU Radio's `file_source` can read it
/// back). Writes are buffered; the buffer is flushed when the block stops.
///
/// Blocking: yes (file I/O), so thread-sharing schedulers give it its own thread.
///
/// # Example
/// See [`FileSource`](crate::FileSource).
#[library_block(
    id = "file_sink",
    summary = "Writes items to a raw binary file (created or truncated).",
    dtypes = all,
    make = Self::new(path)?.with_vlen(vlen)
)]
#[param(path: &Path, path = write, doc = "the file to write")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct FileSink<T: Item> {
    /// The items to write.
    #[input(name = "in")]
    input: StreamInput<T>,
    writer: BufWriter<File>,
    path: PathBuf,
}

#[block(blocking)]
impl<T: Item> FileSink<T> {
    /// Creates `path`, or truncates it if it exists.
    ///
    /// # Errors
    /// The file cannot be created (missing directory, no permission, ...); the error names it.
    pub fn new(path: impl AsRef<Path>) -> Result<Self, FileError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| FileError::new("create", path, e))?;
        Ok(Self {
            input: StreamInput::new(),
            writer: BufWriter::new(file),
            path: path.to_owned(),
        })
    }

    /// Writes vectors of `vlen` scalars (at least 1; the bytes are the same, whole vectors
    /// at the end of the stream).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        self.writer
            .write_all(bytemuck::cast_slice(i))
            .map_err(|e| FileError::new("write", &self.path, e))?;
        let n = i.len();
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.writer
            .flush()
            .map_err(|e| FileError::new("flush", &self.path, e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn writes_every_call_and_flushes_on_stop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.i32");
        let mut h = Harness::new(FileSink::<i32>::new(&path).unwrap());
        h.push("in", &[1i32, -2]);
        h.work().unwrap();
        h.push("in", &[3i32]);
        h.work().unwrap();
        assert_eq!(h.consumed("in"), 3);
        h.stop().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let want: Vec<u8> = [1i32, -2, 3].iter().flat_map(|x| x.to_ne_bytes()).collect();
        assert_eq!(bytes, want);
        assert!(h.block().is_blocking());
    }
}
