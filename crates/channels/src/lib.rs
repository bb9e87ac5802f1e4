//! GNU Radio's gr-channels on radioflow: [`ChannelModel`] (timing offset, multipath,
//! frequency offset and Gaussian noise in one block), [`FadingModel`] (Rayleigh or Rician
//! flat fading), [`SelectiveFadingModel`] (fading on delayed paths), [`CfoModel`] and [`SroModel`] (a carrier frequency offset and a sample rate
//! offset walking at random), [`DynamicChannelModel`] (all of them and noise) and
//! [`Quantizer`] (a converter's rounding and saturation) and [`AmpBal`] (I/Q amplitude
//! balance), computing
//! what GNU Radio 3.10's `channels.channel_model`, `fading_model`, `selective_fading_model`,
//! `cfo_model`, `sro_model`, `dynamic_channel_model`, `quantizer` and `amp_bal` compute for
//! the same input and seed.
//!
//! The DSP is `radioflow_dsp`'s ([`MmseResampler`](radioflow_dsp::MmseResampler),
//! [`ComplexFir`](radioflow_dsp::ComplexFir), [`Rotator`](radioflow_dsp::Rotator),
//! [`FlatFader`](radioflow_dsp::FlatFader), [`CfoWalk`](radioflow_dsp::CfoWalk),
//! [`SroWalk`](radioflow_dsp::SroWalk),
//! [`GrRandom`](radioflow_dsp::GrRandom)); the blocks register themselves when the crate is
//! linked (`radioflow-library` links it).
//!
//! ```
//! use radioflow_channels::ChannelModel;
//! use radioflow_runtime::Complex32;
//! let taps = [Complex32::new(1.0, 0.0), Complex32::new(0.2, -0.1)];
//! let channel = ChannelModel::new(0.1, 0.01, 1.0001, &taps, 42, false)?;
//! assert!(ChannelModel::<Complex32>::new(0.1, 0.0, 0.0, &taps, 0, false).is_err());
//! # drop(channel);
//! # Ok::<(), radioflow_dsp::ParamError>(())
//! ```
//!
//! # Validation
//! Every block against GNU Radio 3.10 on the same input (`tests/gnuradio.rs`, which SKIPS
//! where GNU Radio is not installed); the kernels against naive definitions in
//! `radioflow-dsp`.

mod amp_bal;
mod cfo_model;
mod channel_model;
mod dynamic_channel_model;
mod fading_model;
mod impairments;
mod pool_noise;
mod quantizer;
mod selective_fading_model;
mod sro_model;

pub use amp_bal::AmpBal;
pub use cfo_model::CfoModel;
pub use channel_model::{ChannelModel, ChannelSample};
pub use dynamic_channel_model::DynamicChannelModel;
pub use fading_model::FadingModel;
pub use impairments::Impairments;
pub use quantizer::Quantizer;
pub use selective_fading_model::SelectiveFadingModel;
pub use sro_model::SroModel;
