//! [`ItemType`]: an item type described at run time, to check connections and name the type
//! in errors and front ends.

use crate::item::Item;
use std::any::TypeId;
use std::fmt;

/// Run-time description of an item type, used to check connections: a scalar type and a
/// vector length (GNU Radio's `vlen`: one item is `vlen` consecutive scalars; 1 for scalar
/// streams).
#[derive(Clone, Copy, Debug)]
pub struct ItemType {
    id: TypeId,
    name: &'static str,
    size: usize,
    vlen: usize,
}

impl ItemType {
    /// The description of `T` (scalar items, vector length 1).
    pub fn of<T: Item>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
            size: std::mem::size_of::<T>(),
            vlen: 1,
        }
    }

    /// The same scalar type in vectors of `vlen` (at least 1).
    pub fn with_vlen(self, vlen: usize) -> Self {
        Self {
            vlen: vlen.max(1),
            ..self
        }
    }

    /// Size of one scalar in bytes (an item is [`vlen`](Self::vlen) of them).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Scalars per item (1 unless the port carries vectors).
    pub fn vlen(&self) -> usize {
        self.vlen
    }

    /// The Rust type name, e.g. `f32` or `num_complex::Complex<f32>`.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl PartialEq for ItemType {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.vlen == other.vlen
    }
}

impl Eq for ItemType {}

impl ItemType {
    /// Whether an output of this type may feed an input of type `other`: the same type, or
    /// bytes signed on one side and unsigned on the other. GNU Radio's byte streams are
    /// untyped (`char` to some blocks, `unsigned char` to most); a `u8` stream into an `i8`
    /// input is read as two's complement, as GNU Radio's `char_to_float` reads its bytes.
    /// The vector lengths must be equal (a `float32[4]` output does not feed a `float32`
    /// input, as in GNU Radio).
    pub fn connects_to(&self, other: &Self) -> bool {
        let bytes = [TypeId::of::<i8>(), TypeId::of::<u8>()];
        self == other
            || (self.vlen == other.vlen && bytes.contains(&self.id) && bytes.contains(&other.id))
    }

    /// The front ends' name of the scalar type (`complex64`, ...), if it is one of theirs
    /// (whatever the vector length).
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

/// `complex64` for the front ends' types, else the Rust name and size (`Pair (16 bytes)`);
/// vectors add their length (`float32[4]`).
impl fmt::Display for ItemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dtype() {
            Some(d) => write!(f, "{d}")?,
            None => write!(f, "{} ({} bytes)", self.name, self.size)?,
        }
        if self.vlen > 1 {
            write!(f, "[{}]", self.vlen)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_lengths_must_match_to_connect_and_show_in_the_name() {
        let f = ItemType::of::<f32>();
        let f4 = f.with_vlen(4);
        assert_eq!(f4.to_string(), "float32[4]");
        assert_eq!(f.to_string(), "float32");
        assert!(!f4.connects_to(&f) && !f.connects_to(&f4));
        assert!(f4.connects_to(&ItemType::of::<f32>().with_vlen(4)));
        let (u, i) = (ItemType::of::<u8>(), ItemType::of::<i8>());
        assert!(u.with_vlen(2).connects_to(&i.with_vlen(2)));
        assert!(!u.with_vlen(2).connects_to(&i));
    }
}
