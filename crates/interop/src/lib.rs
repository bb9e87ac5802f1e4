//! radioflow's bridges to the world outside a graph, each a cargo feature of its own:
//!
//! - `zmq`: ZeroMQ blocks wire-compatible with GNU Radio's gr-zeromq ([`ZmqSource`],
//!   [`ZmqSink`], [`ZmqMessageSource`], [`ZmqMessageSink`]; the tag header in
//!   [`zmq::tag_header`]), over the system's libzmq.
//! - `sigmf`: SigMF recordings ([`SigmfSource`], [`SigmfSink`]; the format in [`sigmf`]).
//! - `wav`: audio files ([`WavSource`], [`WavSink`]).
//! - `file_meta`: GNU Radio's metadata files ([`FileMetaSource`], [`FileMetaSink`]).
//! - `soapysdr`: radios through SoapySDR ([`SoapySource`], [`SoapySink`], [`DeviceError`]), over
//!   the system's libSoapySDR.
//! - `network`: items over UDP and TCP as GNU Radio's gr-network ([`UdpSource`], [`UdpSink`]
//!   with [`UdpHeader`], [`TcpSource`], [`TcpSink`]).
//!
//! - `audio`: sound cards through ALSA, as GNU Radio's gr-audio on Linux ([`AudioSink`],
//!   [`AudioSource`], [`AudioError`]), over the system's libasound.
//!
//! All seven are on by default. The blocks register themselves with the runtime's registry
//! (graph files, GRC, Python) when this crate is linked, as `radioflow-library` does.

#[cfg(feature = "audio")]
mod audio;
#[cfg(feature = "file_meta")]
mod file_meta;
#[cfg(feature = "network")]
mod network;
#[cfg(feature = "sigmf")]
pub mod sigmf;
#[cfg(feature = "soapysdr")]
pub mod soapy;
#[cfg(feature = "wav")]
pub mod wav;
#[cfg(feature = "zmq")]
pub mod zmq;

#[cfg(feature = "audio")]
pub use audio::{AudioError, AudioSink, AudioSource};
#[cfg(feature = "file_meta")]
pub use file_meta::{FileMetaSink, FileMetaSource};
#[cfg(feature = "network")]
pub use network::{PacketError, TcpSink, TcpSource, UdpHeader, UdpSink, UdpSource};
#[cfg(feature = "sigmf")]
pub use sigmf::{SigmfSink, SigmfSource};
#[cfg(feature = "soapysdr")]
pub use soapy::{DeviceError, SoapySink, SoapySource};
#[cfg(feature = "wav")]
pub use wav::{WavEncoding, WavSink, WavSource};
#[cfg(feature = "zmq")]
pub use zmq::{ZmqMessageSink, ZmqMessageSource, ZmqPattern, ZmqSink, ZmqSocketConfig, ZmqSource};
