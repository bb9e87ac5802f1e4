//! Stream tags: metadata attached to one item of a stream.

use radioflow_pmt::Pmt;

/// A key/value pair attached to the item at absolute index `offset` of a stream (the count of
/// items the writing port produced before it), like GNU Radio's `tag_t`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    /// Absolute index of the tagged item in its stream.
    pub offset: u64,
    /// Tag key, usually a symbol.
    pub key: Pmt,
    /// Tag value.
    pub value: Pmt,
}

impl Tag {
    /// A tag on item `offset`.
    pub fn new(offset: u64, key: impl Into<Pmt>, value: impl Into<Pmt>) -> Self {
        Self {
            offset,
            key: key.into(),
            value: value.into(),
        }
    }
}
