//! [`FmError`]: what can go wrong setting up or running the receiver.

use radioflow_blocks::{FileError, SampleFormat};
use std::path::PathBuf;

/// An error of the receiver, naming the file or the option at fault.
#[derive(Debug, thiserror::Error)]
pub enum FmError {
    /// The input recording cannot be read.
    #[error("cannot read the input '{}': {source}", path.display())]
    Input {
        /// The recording.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The input's length is not a whole number of samples of its format.
    #[error(
        "the input '{}' is {len} bytes, not a whole number of {format} samples ({} bytes each): \
         wrong --format?",
        path.display(),
        format.bytes_per_sample()
    )]
    PartialSample {
        /// The recording.
        path: PathBuf,
        /// Its length in bytes.
        len: u64,
        /// The format it was read as.
        format: SampleFormat,
    },
    /// The input holds no sample.
    #[error("the input '{}' is empty", path.display())]
    Empty {
        /// The recording.
        path: PathBuf,
    },
    /// An option is out of range (the sample rate, the offset, the de-emphasis, ...).
    #[error("invalid --{option}: {reason}")]
    Option {
        /// The option's name, as on the command line.
        option: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The input SigMF recording cannot be read or does not fit the receiver (its error names
    /// the file and the metadata field).
    #[error(transparent)]
    Sigmf(#[from] radioflow_interop::sigmf::SigmfError),
    /// The device cannot be opened or set up (its error names it and what it refused).
    #[cfg(feature = "soapysdr")]
    #[error(transparent)]
    Device(#[from] radioflow_interop::DeviceError),
    /// The WAV output cannot be written.
    #[error(transparent)]
    Output(#[from] FileError),
    /// The receiver's own graph could not be connected (a bug in the receiver).
    #[error("the receiver's graph could not be connected: {0}")]
    Connect(#[from] radioflow_runtime::ConnectError),
    /// A caller's [`Observer`](crate::Observer) failed (a probe on an unknown port, a control
    /// port that cannot listen, ...).
    #[error("{0}")]
    Observer(Box<dyn std::error::Error + Send + Sync>),
    /// The graph failed while running.
    #[error("the receiver's graph failed: {0}")]
    Run(#[from] radioflow_runtime::RunError),
}

impl FmError {
    pub(crate) fn option(option: &'static str, reason: impl Into<String>) -> Self {
        Self::Option {
            option,
            reason: reason.into(),
        }
    }
}
