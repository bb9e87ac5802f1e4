//! The generic blocks that run code objects.

mod extended_decoder;
mod extended_encoder;
mod puncpat;

pub use extended_decoder::ExtendedDecoder;
pub use extended_encoder::ExtendedEncoder;
