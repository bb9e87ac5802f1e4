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
//! # Stereo or mono
//!
//! In stereo the receiver decodes `L-R` only while the station's 19 kHz pilot stands out of
//! the noise: every 20 ms (counted in samples: the same decisions under every scheduler and
//! however the input is split) `radioflow_dsp::StereoDecoder` measures the pilot
//! coherently against the loop that tracks it and the noise left around it, as a
//! carrier-to-noise density. Stereo comes on at 58 dB-Hz (with at least a 2 % pilot within
//! 10 Hz of 19 kHz) and goes off under 55 dB-Hz. Measured on GNU Radio's stations
//! (`golden/pilot_vectors.py`, `tests/stereo_pilot.rs`; medians over 2 s):
//!
//! | station | CNR (dB, 200 kHz) | pilot C/N0 (dB-Hz) | decoded |
//! |---|---|---|---|
//! | mono (no pilot), 0.9 programme or GNU Radio's `wfm_tx` | 4 to 30 | 13 to 22 (28 at most) | mono in every 50 ms block |
//! | mono, no noise | - | 1 (6 at most) | mono |
//! | stereo, 9 % pilot | 10 | 50.9 | mono |
//! | | 20 | 60.3 | stereo from the first 50 ms block to the end |
//! | | 25 / 30 / 40 | 63.8 / 65.9 / 67.3 | stereo from the first 50 ms block to the end |
//!
//! A 9 % pilot comes out at about `40 + CNR` dB-Hz (the demodulated noise density grows as
//! f²), levelling off above 30 dB where the programme's leakage into the pilot's band
//! dominates: stereo from about 18 dB of CNR, back to mono under about 15, where the `L-R`
//! band (23-53 kHz, 2-8 times the noise density under 15 kHz) makes stereo some 20 dB
//! noisier than the mono sum. Before (a PLL's mean in-phase product over each 4096-sample
//! call against a fixed 1.5 % level), a mono station flipped to stereo in 34-40 of 40 blocks
//! (`wfm_tx` at 5-30 dB CNR) and a short last call could decide on a few samples.
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

mod blocks;
mod error;
mod plan;
mod rds_forward;
mod receiver;
pub mod synth;

pub use blocks::{FmStereoDecoder, RdsDecoder};
pub use error::FmError;
pub use plan::{Plan, AUDIO_RATE, CHANNEL_HALF_WIDTH, MAX_SAMPLE_RATE, MIN_MPX_RATE};
pub use receiver::{
    DeviceInput, Observer, Progress, Receiver, ReceiverConfig, ReceiverGraph, Summary, DEVIATION,
};
