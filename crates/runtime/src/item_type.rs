//! [`ItemType`]: an item type described at run time, to check connections and name the type
//! in errors and front ends.

use crate::item::Item;
use std::any::TypeId;
use std::fmt;

/// Run-time description of an item type, used to check connections.
#[derive(Clone, Copy, Debug)]
pub struct ItemType {
    id: TypeId,
    name: &'static str,
    size: usize,
}

impl ItemType {
    /// The description of `T`.
    pub fn of<T: Item>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
            size: std::mem::size_of::<T>(),
        }
    }

    /// Size of one item in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The Rust type name, e.g. `f32` or `num_complex::Complex<f32>`.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl PartialEq for ItemType {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for ItemType {}

impl ItemType {
    /// Whether an output of this type may feed an input of type `other`: the same type, or
    /// bytes signed on one side and unsigned on the other. GNU Radio's byte streams are
    /// untyped (`char` to some blocks, `unsigned char` to most); a `u8` stream into an `i8`
    /// input is read as two's complement, as GNU Radio's `char_to_float` reads its bytes.
    pub fn connects_to(&self, other: &Self) -> bool {
        let bytes = [TypeId::of::<i8>(), TypeId::of::<u8>()];
        self == other || (bytes.contains(&self.id) && bytes.contains(&other.id))
    }

    /// The front ends' name of the type (`complex64`, ...), if it is one of theirs.
    pub fn dtype(&self) -> Option<crate::registry::Dtype> {
        use crate::registry::Dtype;
        use crate::Complex32;
        let known = [
            (TypeId::of::<f32>(), Dtype::Float32),
            (TypeId::of::<Complex32>(), Dtype::Complex32),
            (TypeId::of::<i16>(), Dtype::Int16),
            (TypeId::of::<i8>(), Dtype::Int8),
            (TypeId::of::<u8>(), Dtype::Uint8),
            (TypeId::of::<f64>(), Dtype::Float64),
            (TypeId::of::<i32>(), Dtype::Int32),
        ];
        known.iter().find(|(id, _)| *id == self.id).map(|(_, d)| *d)
    }
}

/// `complex64` for the front ends' types, else the Rust name and size (`Pair (16 bytes)`).
impl fmt::Display for ItemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dtype() {
            Some(d) => write!(f, "{d}"),
            None => write!(f, "{} ({} bytes)", self.name, self.size),
        }
    }
}
