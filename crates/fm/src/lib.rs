//! An FM broadcast receiver on radioflow: an IQ recording (`cf32`, `cs16`, `cu8`, `cs8`) or a
//! radio (SoapySDR, the `soapysdr` feature, on by default) with a station somewhere in it, to
//! mono or stereo audio in a WAV file.
//!
//! - [`ReceiverConfig`]: the recording (or the [`DeviceInput`]), its rate, the station's
//!   offset, mono or stereo, the de-emphasis, the WAV file.
//! - [`Receiver`]: checks the configuration ([`FmError`] names the file or option at
//!   fault), [`build`](Receiver::build)s the graph into a [`Flowgraph`](radioflow_runtime::Flowgraph)
//!   ([`ReceiverGraph`] gives the demodulated multiplex, where an RDS decoder attaches) or
//!   [`run`](Receiver::run)s it with progress and a [`Summary`] ([`run_observed`](Receiver::run_observed)
//!   with an [`Observer`] that adds probes before the start and a control port after it).
//! - [`Plan`]: the rates (2.4 Msps -> 240 kHz multiplex -> 48 kHz audio).
//!
//! ```no_run
//! use radioflow_blocks::SampleFormat;
//! use radioflow_fm::{Receiver, ReceiverConfig};
//! use radioflow_runtime::FlowScheduler;
//! use std::time::Duration;
//!
//! let mut config = ReceiverConfig::new("station.cu8", SampleFormat::Cu8, 2.4e6, 200e3);
//! config.stereo = true;
//! config.wav = Some("station.wav".into());
//! let rx = Receiver::new(config)?;
//! let summary = rx.run(&FlowScheduler::new(), Duration::from_secs(1), |p| {
//!     eprintln!("{:.0}%", 100.0 * p.samples as f64 / p.total as f64)
//! })?;
//! println!("{:.1} s of signal at {:.1}x real time", summary.signal_seconds, summary.speed());
//! # Ok::<(), radioflow_fm::FmError>(())
//! ```

mod error;
mod plan;
mod rds_forward;
mod receiver;
pub mod synth;

pub use error::FmError;
pub use plan::{Plan, AUDIO_RATE, CHANNEL_HALF_WIDTH, MAX_SAMPLE_RATE, MIN_MPX_RATE};
pub use receiver::{
    DeviceInput, Observer, Progress, Receiver, ReceiverConfig, ReceiverGraph, Summary, DEVIATION,
};
