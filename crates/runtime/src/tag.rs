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
    /// Who made the tag, GNU Radio's `srcid` (a symbol, or `#f` for none, GNU Radio's default).
    /// Blocks here leave it `#f`; it comes from GNU Radio's tag objects (`variable_tag_object`,
    /// `gr.python_to_tag`) and ZMQ tag headers, is propagated with the tag and printed by
    /// `tag_debug`. A symbol is reference-counted, so a tag's copy allocates nothing more.
    pub srcid: Pmt,
}

impl Tag {
    /// A tag on item `offset`, without a source id (`#f`).
    pub fn new(offset: u64, key: impl Into<Pmt>, value: impl Into<Pmt>) -> Self {
        Self {
            offset,
            key: key.into(),
            value: value.into(),
            srcid: Pmt::Bool(false),
        }
    }

    /// The tag with source id `srcid`.
    #[must_use]
    pub fn with_srcid(mut self, srcid: impl Into<Pmt>) -> Self {
        self.srcid = srcid.into();
        self
    }
}
