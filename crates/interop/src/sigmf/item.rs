//! [`SigmfItem`]: the item types the SigMF blocks stream, and the check that a recording's
//! datatype fits one.

use super::{Datatype, SigmfError};
use std::path::Path;

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
