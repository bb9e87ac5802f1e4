//! [`BitWord`]: the integer items GNU Radio's packed/unpacked bit blocks carry.

use radioflow_runtime::prelude::*;

/// An item holding bits: `u8`, `i16` or `i32` (GNU Radio's `bb`, `ss`, `ii`), read and
/// written through its bit pattern (a negative `i16` is its 16 bits).
pub trait BitWord: Item {
    /// Bits in the item.
    const BITS: u32;
    /// The item's bits, zero-extended.
    fn bits(self) -> u32;
    /// The item of the low [`Self::BITS`] bits of `bits`.
    fn from_bits(bits: u32) -> Self;
}

impl BitWord for u8 {
    const BITS: u32 = 8;
    fn bits(self) -> u32 {
        u32::from(self)
    }
    fn from_bits(bits: u32) -> Self {
        bits as u8
    }
}

impl BitWord for i16 {
    const BITS: u32 = 16;
    fn bits(self) -> u32 {
        u32::from(self as u16)
    }
    fn from_bits(bits: u32) -> Self {
        bits as u16 as i16
    }
}

impl BitWord for i32 {
    const BITS: u32 = 32;
    fn bits(self) -> u32 {
        self as u32
    }
    fn from_bits(bits: u32) -> Self {
        bits as i32
    }
}
