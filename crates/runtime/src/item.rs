//! Stream item types: any plain-old-data type can flow through a stream port.

use std::any::TypeId;
use std::fmt;

/// A type that can be carried by stream ports: plain old data (`f32`, `Complex32`, `i16`, `i8`,
/// `u8`, or your own `#[derive(Pod, Zeroable)] #[repr(C)]` struct), shareable across threads.
pub trait Item: bytemuck::Pod + Send + Sync + 'static {}

impl<T: bytemuck::Pod + Send + Sync + 'static> Item for T {}

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

impl fmt::Display for ItemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} bytes)", self.name, self.size)
    }
}
