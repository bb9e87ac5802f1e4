//! Sound cards through ALSA, as GNU Radio's gr-audio uses them on Linux: [`AudioSink`] plays
//! float streams, [`AudioSource`] records them; the device is an ALSA PCM name ([`pcm`]).

mod error;
mod frames;
mod pcm;
mod sink;
mod source;

pub use error::AudioError;
pub use sink::AudioSink;
pub use source::AudioSource;
