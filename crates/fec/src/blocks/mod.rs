//! The generic blocks that run code objects.

mod async_decoder;
mod async_encoder;
mod ber;
mod bits;
mod extended_decoder;
mod extended_encoder;
mod frame_tags;
mod generic_decoder;
mod generic_encoder;
mod packet;
mod puncpat;
mod tagged_decoder;
mod tagged_encoder;

pub use async_decoder::AsyncDecoder;
pub use async_encoder::AsyncEncoder;
pub use ber::Ber;
pub use extended_decoder::ExtendedDecoder;
pub use extended_encoder::ExtendedEncoder;
pub use generic_decoder::{GenericByteDecoder, GenericDecoder};
pub use generic_encoder::GenericEncoder;
pub use tagged_decoder::TaggedDecoder;
pub use tagged_encoder::TaggedEncoder;
