//! [`FileError`]: an I/O error of a file block, naming the file.

use std::io;
use std::path::{Path, PathBuf};

/// An I/O error of a block that reads or writes a file ([`FileSource`](crate::FileSource),
/// [`FileSink`](crate::FileSink), and the file formats of other crates), naming the file and
/// what was being done to it.
///
/// ```
/// use radioflow_blocks::FileSource;
///
/// let err = FileSource::<f32>::new("/no/such/file.f32").unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
/// assert!(err.to_string().starts_with("cannot open '/no/such/file.f32': "));
/// ```
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} '{}': {source}", path.display())]
pub struct FileError {
    action: &'static str,
    path: PathBuf,
    source: io::Error,
}

impl FileError {
    /// `source`, met while doing `action` ("open", "create", "write"...) to `path`.
    pub fn new(action: &'static str, path: &Path, source: io::Error) -> Self {
        Self {
            action,
            path: path.to_owned(),
            source,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kind of the underlying I/O error.
    pub fn kind(&self) -> io::ErrorKind {
        self.source.kind()
    }
}

impl From<FileError> for io::Error {
    fn from(e: FileError) -> Self {
        io::Error::new(e.kind(), e)
    }
}

/// A file a block made by the registry could not open: an I/O error (an `OSError` in Python).
impl From<FileError> for radioflow_runtime::registry::Refused {
    fn from(e: FileError) -> Self {
        Self::io(e)
    }
}
