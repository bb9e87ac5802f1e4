//! [`SigmfError`]: why a recording cannot be read or written.

use std::io;
use std::path::{Path, PathBuf};

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
    pub(crate) fn io(action: &'static str, file: &Path) -> impl FnOnce(io::Error) -> Self + use<> {
        let file = file.to_owned();
        move |source| SigmfError::Io {
            action,
            file,
            source,
        }
    }

    pub(crate) fn recording(file: &Path, message: impl Into<String>) -> Self {
        SigmfError::Recording {
            file: file.to_owned(),
            message: message.into(),
        }
    }
}
