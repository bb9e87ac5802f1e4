//! WAV audio files: a source and a sink.

mod sink;
mod source;

pub use sink::{WavEncoding, WavSink};
pub use source::WavSource;
