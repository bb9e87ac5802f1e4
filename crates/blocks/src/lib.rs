//! The standard radioflow blocks: sources and sinks, files, signal generation, arithmetic,
//! filters, throttling and message plumbing. Each block is a thin adapter over the runtime's
//! ports and, where there is math, a kernel from [`radioflow_dsp`]; this crate depends on
//! nothing else of radioflow. Interop with other programs and devices (ZeroMQ, SigMF, WAV,
//! SoapySDR) is `radioflow-interop`'s; the blocks of an application (DVB-S2, FM and RDS) live
//! with it; `radioflow-library` links them all for the front ends.
//!
//! - Sources: [`NullSource`], [`VectorSource`], [`FileSource`], [`SignalSource`], [`RateSource`],
//!   [`ConstSource`], [`NoiseSource`] and [`FastNoiseSource`] ([`NoiseType`]), [`RandomSource`].
//! - Sinks: [`NullSink`], [`VectorSink`], [`FileSink`], [`RateProbe`].
//! - Stream processing: [`Head`], [`Copy`](struct@Copy), [`Throttle`], [`FirFilter`].
//! - Routing (GNU Radio's stream blocks, with its tag placement): [`Delay`], [`Selector`],
//!   [`StreamMux`], [`StreamDemux`], [`Interleave`], [`Deinterleave`], [`KeepOneInN`],
//!   [`KeepMInN`], [`Repeat`], [`Skiphead`], [`Mute`].
//! - Everyday math on streams (GNU Radio's arithmetic, bit for bit): [`MovingAverage`],
//!   [`Integrate`], [`Threshold`], [`SampleAndHold`], [`PeakDetector`], [`PeakDetector2`].
//! - Element-wise math (GNU Radio's math blocks): [`Add`], [`Subtract`], [`Multiply`],
//!   [`Divide`], [`AddConst`], [`MultiplyConst`], [`MultiplyConjugate`], [`Conjugate`],
//!   [`Abs`], [`Nlog10`].
//! - Type conversions (GNU Radio's, with its scaling, rounding and saturation):
//!   [`ComplexToReal`], [`ComplexToImag`], [`ComplexToMag`], [`ComplexToMagSquared`],
//!   [`ComplexToArg`], [`ComplexToFloat`], [`ComplexToMagphase`], [`FloatToComplex`],
//!   [`MagphaseToComplex`], [`CharToFloat`], [`ShortToFloat`], [`IntToFloat`],
//!   [`UcharToFloat`], [`FloatToChar`], [`FloatToShort`], [`FloatToInt`], [`FloatToUchar`],
//!   [`CharToShort`], [`ShortToChar`], [`ComplexToInterleavedShort`],
//!   [`ComplexToInterleavedChar`], [`InterleavedShortToComplex`],
//!   [`InterleavedCharToComplex`].
//! - Radio: [`IqToComplex`] ([`SampleFormat`]), [`FreqXlatingFirFilter`],
//!   [`DecimatingFirFilter`], [`InterpFirFilter`], [`ComplexFirFilter`],
//!   [`ComplexInterpFirFilter`], [`RationalResampler`],
//!   [`PfbArbResampler`], [`QuadratureDemod`], [`FrequencyModulator`], [`IirFilter`] (FM
//!   de-emphasis), [`SinglePoleIirFilter`], [`Rms`], [`DcBlocker`]; GNU Radio's FM hier
//!   blocks [`WfmRcv`], [`NbfmRx`], [`WfmTx`], [`NbfmTx`]; the gain controls [`Agc`], [`Agc2`].
//! - Messages: [`MessageBurstSource`], [`MessageForwarder`], [`MessageCounter`],
//!   [`MessageDebug`], [`MessageRelay`], [`MessageStrobe`], [`MessageStrobeRandom`] ([`StrobeDistribution`]).
//! - PDUs (GNU Radio's pair of a metadata dict and a vector, [`PduItem`]):
//!   [`PduToTaggedStream`], [`TaggedStreamToPdu`], [`PduToStream`], [`TagsToPdu`],
//!   [`TakeSkipToPdu`].
//!
//! Stream ports are named `in` and `out`, and so are message ports.
//!
//! ```
//! use radioflow_blocks::{Head, SignalSource, VectorSink, Waveform};
//! use radioflow_blocks::runtime::{Complex32, Flowgraph};
//!
//! // 1 kHz complex tone at 32 kHz, first 32 samples (one full turn).
//! let mut fg = Flowgraph::new();
//! let src = fg.add(SignalSource::<Complex32>::new(
//!     Waveform::Cosine,
//!     1_000.0,
//!     32_000.0,
//!     1.0,
//!     Complex32::new(0.0, 0.0),
//! ));
//! let head = fg.add(Head::<Complex32>::new(32));
//! let sink = fg.add(VectorSink::<Complex32>::new());
//! fg.connect(src, head)?;
//! fg.connect(head, sink)?;
//! fg.run()?;
//!
//! let tone = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
//! assert_eq!(tone.len(), 32);
//! assert!((tone[8] - Complex32::new(0.0, 1.0)).norm() < 1e-6); // a quarter turn in
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod abs;
mod add;
mod add_const;
mod add_const_v;
mod agc;
mod agc2;
mod bit_word;
mod burst_tagger;
mod char_short;
mod complex_fir_filter;
mod complex_interp_fir_filter;
mod complex_to;
mod conjugate;
mod const_source;
mod copy;
mod dc_blocker;
mod decimating_fir_filter;
mod deinterleave;
mod delay;
mod divide;
mod element_wise;
mod fastnoise_source;
mod fft;
mod file_error;
mod file_sink;
mod file_source;
mod fir_filter;
mod freq_xlating_fir_filter;
mod frequency_modulator;
mod from_float;
mod head;
mod iir_filter;
mod integrate;
mod interleave;
mod interleaved;
mod interp_fir_filter;
mod iq_to_complex;
mod keep_m_in_n;
mod keep_one_in_n;
mod matrix_interleaver;
mod message_burst_source;
mod message_counter;
mod message_debug;
mod message_forwarder;
mod message_relay;
mod message_strobe;
mod message_strobe_random;
mod mmse_resampler;
mod moving_average;
mod multiply;
mod multiply_by_tag_value;
mod multiply_conjugate;
mod multiply_const;
mod multiply_const_v;
mod multiply_matrix;
mod mute;
mod nbfm_rx;
mod nbfm_tx;
mod nlog10;
mod noise_source;
mod noise_type;
mod null_sink;
mod null_source;
mod pack_k_bits;
mod packed_to_unpacked;
mod pdu_add_system_time;
mod pdu_filter;
mod pdu_item;
mod pdu_remove;
mod pdu_set;
mod pdu_split;
mod pdu_time;
mod pdu_time_delta;
mod pdu_to_stream;
mod pdu_to_tagged_stream;
mod peak_detector;
mod peak_detector2;
mod pfb_arb_resampler;
mod quadrature_demod;
mod random_pdu;
mod random_source;
mod rate_probe;
mod rate_source;
mod rate_work;
mod rational_resampler;
mod repack_bits;
mod repeat;
mod reshape;
mod rms;
mod rotator;
mod sample_and_hold;
mod selector;
mod signal_source;
mod single_pole_iir_filter;
mod skiphead;
mod stream_demux;
mod stream_mux;
mod stream_to_tagged_stream;
mod stream_to_vector;
mod subtract;
mod tag_debug;
mod tag_gate;
mod tag_map;
mod tagged_stream_multiply_length;
mod tagged_stream_mux;
mod tagged_stream_to_pdu;
mod tags_strobe;
mod tags_to_pdu;
mod take_skip_to_pdu;
#[cfg(test)]
mod test_util;
mod threshold;
mod throttle;
mod to_complex;
mod to_float;
mod unpack_k_bits;
mod unpacked_to_packed;
mod var_to_msg;
mod vector_sink;
mod vector_source;
mod vector_to_stream;
mod wfm_rcv;
mod wfm_tx;

pub use abs::Abs;
pub use add::Add;
pub use add_const::AddConst;
pub use add_const_v::AddConstV;
pub use agc::Agc;
pub use agc2::Agc2;
pub use bit_word::BitWord;
pub use burst_tagger::BurstTagger;
pub use char_short::{CharToShort, ShortToChar};
pub use complex_fir_filter::ComplexFirFilter;
pub use complex_interp_fir_filter::ComplexInterpFirFilter;
pub use complex_to::{
    ComplexToArg, ComplexToFloat, ComplexToImag, ComplexToMag, ComplexToMagSquared,
    ComplexToMagphase, ComplexToReal,
};
pub use conjugate::Conjugate;
pub use const_source::ConstSource;
pub use copy::Copy;
pub use dc_blocker::DcBlocker;
pub use decimating_fir_filter::DecimatingFirFilter;
pub use deinterleave::Deinterleave;
pub use delay::Delay;
pub use divide::Divide;
pub use fastnoise_source::FastNoiseSource;
pub use fft::Fft;
pub use file_error::FileError;
pub use file_sink::FileSink;
pub use file_source::FileSource;
pub use fir_filter::FirFilter;
pub use freq_xlating_fir_filter::FreqXlatingFirFilter;
pub use frequency_modulator::FrequencyModulator;
pub use from_float::{FloatToChar, FloatToInt, FloatToShort, FloatToUchar};
pub use head::Head;
pub use iir_filter::IirFilter;
pub use integrate::Integrate;
pub use interleave::Interleave;
pub use interleaved::{
    ComplexToInterleavedChar, ComplexToInterleavedShort, InterleavedCharToComplex,
    InterleavedShortToComplex,
};
pub use interp_fir_filter::InterpFirFilter;
pub use iq_to_complex::{IqToComplex, SampleFormat, UnknownFormat};
pub use keep_m_in_n::KeepMInN;
pub use keep_one_in_n::KeepOneInN;
pub use matrix_interleaver::MatrixInterleaver;
pub use message_burst_source::MessageBurstSource;
pub use message_counter::MessageCounter;
pub use message_debug::MessageDebug;
pub use message_forwarder::MessageForwarder;
pub use message_relay::MessageRelay;
pub use message_strobe::MessageStrobe;
pub use message_strobe_random::{MessageStrobeRandom, StrobeDistribution};
pub use mmse_resampler::MmseResampler;
pub use moving_average::MovingAverage;
pub use multiply::Multiply;
pub use multiply_by_tag_value::MultiplyByTagValue;
pub use multiply_conjugate::MultiplyConjugate;
pub use multiply_const::MultiplyConst;
pub use multiply_const_v::MultiplyConstV;
pub use multiply_matrix::{MatrixItem, MatrixTags, MultiplyMatrix};
pub use mute::Mute;
pub use nbfm_rx::NbfmRx;
pub use nbfm_tx::NbfmTx;
pub use nlog10::Nlog10;
pub use noise_source::NoiseSource;
pub use noise_type::{NoiseItem, NoiseType, UnsupportedNoise};
pub use null_sink::NullSink;
pub use null_source::NullSource;
pub use pack_k_bits::PackKBits;
pub use packed_to_unpacked::PackedToUnpacked;
pub use pdu_add_system_time::PduAddSystemTime;
pub use pdu_filter::PduFilter;
pub use pdu_item::PduItem;
pub use pdu_remove::PduRemove;
pub use pdu_set::PduSet;
pub use pdu_split::PduSplit;
pub use pdu_time_delta::PduTimeDelta;
pub use pdu_to_stream::{EarlyBurst, PduToStream};
pub use pdu_to_tagged_stream::PduToTaggedStream;
pub use peak_detector::PeakDetector;
pub use peak_detector2::PeakDetector2;
pub use pfb_arb_resampler::PfbArbResampler;
pub use quadrature_demod::QuadratureDemod;
pub use random_pdu::RandomPdu;
pub use random_source::{RandomItem, RandomSource, RandomSourceError};
pub use rate_probe::RateProbe;
pub use rate_source::RateSource;
pub use rational_resampler::RationalResampler;
pub use repack_bits::{BitOrder, RepackBits};
pub use repeat::Repeat;
pub use rms::Rms;
pub use rotator::RotatorCc;
pub use sample_and_hold::SampleAndHold;
pub use selector::Selector;
pub use signal_source::{SignalItem, SignalSource, Waveform};
pub use single_pole_iir_filter::SinglePoleIirFilter;
pub use skiphead::Skiphead;
pub use stream_demux::StreamDemux;
pub use stream_mux::StreamMux;
pub use stream_to_tagged_stream::StreamToTaggedStream;
pub use stream_to_vector::StreamToVector;
pub use subtract::Subtract;
pub use tag_debug::TagDebug;
pub use tag_gate::TagGate;
pub use tagged_stream_multiply_length::TaggedStreamMultiplyLength;
pub use tagged_stream_mux::TaggedStreamMux;
pub use tagged_stream_to_pdu::TaggedStreamToPdu;
pub use tags_strobe::TagsStrobe;
pub use tags_to_pdu::TagsToPdu;
pub use take_skip_to_pdu::TakeSkipToPdu;
pub use threshold::Threshold;
pub use throttle::Throttle;
pub use to_complex::{FloatToComplex, MagphaseToComplex};
pub use to_float::{CharToFloat, IntToFloat, ShortToFloat, UcharToFloat};
pub use unpack_k_bits::UnpackKBits;
pub use unpacked_to_packed::UnpackedToPacked;
pub use var_to_msg::VarToMsg;
pub use vector_sink::VectorSink;
pub use vector_source::VectorSource;
pub use vector_to_stream::VectorToStream;
pub use wfm_rcv::WfmRcv;
pub use wfm_tx::WfmTx;

/// The kernels behind the blocks (and the [`Arith`](radioflow_dsp::Arith) bound of
/// [`AddConst`] and [`MultiplyConst`]).
pub use radioflow_dsp as dsp;
/// The runtime the blocks plug into, so graph code needs only this crate.
pub use radioflow_runtime as runtime;

/// The README's examples, compiled and run as doc-tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
