/// Why bytes could not be decoded as a PMT; every variant names the byte offset (from the start
/// of the input) where decoding stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PmtError {
    /// The input ended inside a value.
    #[error("truncated PMT: {what} at byte {offset} needs {needed} bytes, only {available} left")]
    Truncated {
        offset: usize,
        what: &'static str,
        needed: usize,
        available: usize,
    },
    /// A type tag that GNU Radio's format does not define (or, like comments, does not decode).
    #[error("unknown PMT tag 0x{tag:02x} at byte {offset}")]
    UnknownTag { offset: usize, tag: u8 },
    /// A uniform vector whose element type byte is not one of GNU Radio's twelve.
    #[error("unknown uniform vector element type 0x{kind:02x} at byte {offset}")]
    UnknownUniformType { offset: usize, kind: u8 },
    /// A symbol whose bytes are not UTF-8.
    #[error("symbol at byte {offset} is not valid UTF-8")]
    InvalidSymbol { offset: usize },
    /// A dict cell whose car is not a `(key . value)` pair (GNU Radio rejects these too).
    #[error("dict entry at byte {offset} is not a (key . value) pair")]
    DictEntryNotPair { offset: usize },
    /// A dict whose chain of cells ends in something other than null.
    #[error("dict continues with tag 0x{tag:02x} at byte {offset}; expected a dict cell or null")]
    ImproperDict { offset: usize, tag: u8 },
    /// Containers nested more than [`MAX_DEPTH`](crate::MAX_DEPTH) deep (the cdr of a pair,
    /// which makes lists, does not count as nesting).
    #[error("PMT nested deeper than {max} levels at byte {offset}")]
    TooDeep { offset: usize, max: usize },
    /// [`Pmt::from_bytes`](crate::Pmt::from_bytes) found bytes after a complete value.
    #[error("{count} unexpected bytes after the PMT that ends at byte {offset}")]
    TrailingBytes { offset: usize, count: usize },
}

impl PmtError {
    /// The byte offset in the input where decoding stopped.
    pub fn offset(&self) -> usize {
        match *self {
            Self::Truncated { offset, .. }
            | Self::UnknownTag { offset, .. }
            | Self::UnknownUniformType { offset, .. }
            | Self::InvalidSymbol { offset }
            | Self::DictEntryNotPair { offset }
            | Self::ImproperDict { offset, .. }
            | Self::TooDeep { offset, .. }
            | Self::TrailingBytes { offset, .. } => offset,
        }
    }
}
