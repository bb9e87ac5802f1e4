//! Item types as numpy names them, and the Rust type behind each.

use crate::errors::value_error;
use pyo3::prelude::*;

/// A stream item type a Python user can name (numpy's dtype name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dtype {
    Float32,
    Float64,
    Complex32,
    Int8,
    Uint8,
    Int16,
    Int32,
}

impl Dtype {
    /// Every supported type, in the order the docs list them.
    pub(crate) const ALL: [Dtype; 7] = [
        Dtype::Float32,
        Dtype::Complex32,
        Dtype::Int16,
        Dtype::Int8,
        Dtype::Uint8,
        Dtype::Float64,
        Dtype::Int32,
    ];

    /// numpy's name of the type.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Dtype::Float32 => "float32",
            Dtype::Float64 => "float64",
            Dtype::Complex32 => "complex64",
            Dtype::Int8 => "int8",
            Dtype::Uint8 => "uint8",
            Dtype::Int16 => "int16",
            Dtype::Int32 => "int32",
        }
    }

    /// The type numpy calls `name`.
    pub(crate) fn parse(name: &str) -> PyResult<Self> {
        Self::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| {
                let known: Vec<_> = Self::ALL.iter().map(|d| d.name()).collect();
                value_error(format!(
                    "unsupported item type '{name}': use one of {}",
                    known.join(", ")
                ))
            })
    }
}

/// Runs `$body` with the type alias `$T` naming the Rust type of `$dtype`.
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            $crate::dtype::Dtype::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::Dtype::Float64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::Dtype::Complex32 => {
                type $T = num_complex::Complex32;
                $body
            }
            $crate::dtype::Dtype::Int8 => {
                type $T = i8;
                $body
            }
            $crate::dtype::Dtype::Uint8 => {
                type $T = u8;
                $body
            }
            $crate::dtype::Dtype::Int16 => {
                type $T = i16;
                $body
            }
            $crate::dtype::Dtype::Int32 => {
                type $T = i32;
                $body
            }
        }
    };
}
pub(crate) use with_dtype;
