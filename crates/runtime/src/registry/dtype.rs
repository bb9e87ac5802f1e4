//! The item types a block of the library can be made for, by name.

use crate::Complex32;
use std::fmt;

/// An item type named in a front end: numpy's name in Python (`complex64`), GNU Radio
/// Companion's in graph files (`complex`), or the Rust type's (`Complex32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    /// `f32` (numpy `float32`, GRC `float`).
    Float32,
    /// `Complex32` (numpy `complex64`, GRC `complex`).
    Complex32,
    /// `i16` (numpy `int16`, GRC `short`).
    Int16,
    /// `i8` (numpy `int8`).
    Int8,
    /// `u8` (numpy `uint8`, GRC `byte`).
    Uint8,
    /// `f64` (numpy `float64`).
    Float64,
    /// `i32` (numpy `int32`, GRC `int`).
    Int32,
}

impl Dtype {
    /// Every type, in the order the docs list them.
    pub const ALL: &'static [Dtype] = &[
        Dtype::Float32,
        Dtype::Complex32,
        Dtype::Int16,
        Dtype::Int8,
        Dtype::Uint8,
        Dtype::Float64,
        Dtype::Int32,
    ];

    /// The two types of signal-processing blocks: `float32` and `complex64`.
    pub const SIGNAL: &'static [Dtype] = &[Dtype::Float32, Dtype::Complex32];

    /// numpy's name of the type (the one the front ends print).
    pub fn name(self) -> &'static str {
        match self {
            Dtype::Float32 => "float32",
            Dtype::Complex32 => "complex64",
            Dtype::Int16 => "int16",
            Dtype::Int8 => "int8",
            Dtype::Uint8 => "uint8",
            Dtype::Float64 => "float64",
            Dtype::Int32 => "int32",
        }
    }

    /// GNU Radio Companion's name of the type, where it has one. GRC's `byte` is `u8`: GNU
    /// Radio's byte streams are `unsigned char` in nearly every block (`vector_source_b`, the
    /// bit packers, the digital blocks); the few that read them as signed (`char_to_float`)
    /// take `u8` and say so.
    pub fn grc_name(self) -> Option<&'static str> {
        Some(match self {
            Dtype::Float32 => "float",
            Dtype::Complex32 => "complex",
            Dtype::Int16 => "short",
            Dtype::Uint8 => "byte",
            Dtype::Int32 => "int",
            Dtype::Int8 | Dtype::Float64 => return None,
        })
    }

    /// The type named `name` by numpy, GNU Radio Companion or Rust (`f32`, `Complex32`, ...).
    pub fn parse(name: &str) -> Option<Self> {
        let rust = |d: Dtype| match d {
            Dtype::Float32 => "f32",
            Dtype::Complex32 => "Complex32",
            Dtype::Int16 => "i16",
            Dtype::Int8 => "i8",
            Dtype::Uint8 => "u8",
            Dtype::Float64 => "f64",
            Dtype::Int32 => "i32",
        };
        Self::ALL
            .iter()
            .copied()
            .find(|&d| d.name() == name || d.grc_name() == Some(name) || rust(d) == name)
    }

    /// The names of `types`, comma-separated (for messages).
    pub fn list(types: &[Dtype]) -> String {
        types
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The Rust type of a [`Dtype`]: implemented for the seven item types, so that a block
/// factory generic over `T` can be called for a type chosen at run time (see
/// [`with_dtype!`](crate::with_dtype)).
pub trait DtypeItem: crate::Item {
    /// The [`Dtype`] of `Self`.
    const DTYPE: Dtype;
}

macro_rules! dtype_items {
    ($($t:ty => $d:ident),*) => {$(
        impl DtypeItem for $t {
            const DTYPE: Dtype = Dtype::$d;
        }
    )*};
}
dtype_items!(f32 => Float32, Complex32 => Complex32, i16 => Int16, i8 => Int8, u8 => Uint8,
    f64 => Float64, i32 => Int32);

/// Runs `$body` with the type alias `$T` naming the Rust type of the [`Dtype`] `$dtype`,
/// for the types listed (all seven when no list is given); another type evaluates `$other`
/// with `$d` bound to it.
///
/// ```
/// use radioflow_runtime::registry::Dtype;
/// use radioflow_runtime::with_dtype;
///
/// let size = |d: Dtype| with_dtype!(d, T => std::mem::size_of::<T>());
/// assert_eq!(size(Dtype::Complex32), 8);
/// let fir = |d: Dtype| with_dtype!(d, T in [Float32, Complex32] => Ok(std::mem::size_of::<T>()),
///     other d => Err(format!("no FIR for {d}")));
/// assert!(fir(Dtype::Int8).is_err());
/// ```
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        $crate::with_dtype!($dtype, $T in [Float32, Complex32, Int16, Int8, Uint8, Float64, Int32]
            => $body, other d => ::core::unreachable!("every dtype is listed: {}", d))
    };
    ($dtype:expr, $T:ident in [$($d:ident),* $(,)?] => $body:expr, other $o:ident => $other:expr) => {
        match $dtype {
            $(
                $crate::registry::Dtype::$d => {
                    #[allow(dead_code)]
                    type $T = <$crate::registry::DtypeMarker<{ $crate::registry::Dtype::$d as u8 }>
                        as $crate::registry::DtypeOf>::Type;
                    $body
                }
            )*
            #[allow(unreachable_patterns)]
            $o => $other,
        }
    };
}

/// Maps a [`Dtype`] discriminant to its Rust type (used by [`with_dtype!`](crate::with_dtype)).
#[doc(hidden)]
pub struct DtypeMarker<const D: u8>;

/// The Rust type behind a [`DtypeMarker`].
#[doc(hidden)]
pub trait DtypeOf {
    /// The item type.
    type Type: DtypeItem;
}

macro_rules! dtype_of {
    ($($d:ident => $t:ty),*) => {$(
        impl DtypeOf for DtypeMarker<{ Dtype::$d as u8 }> {
            type Type = $t;
        }
    )*};
}
dtype_of!(Float32 => f32, Complex32 => Complex32, Int16 => i16, Int8 => i8, Uint8 => u8,
    Float64 => f64, Int32 => i32);
