//! gr-dtv's DVB-T transmitter blocks (and the receiver's demapper, bit deinterleaver,
//! Viterbi decoder, convolutional deinterleaver, Reed-Solomon decoder and energy descrambler) as blocks of a
//! streaming graph, one per file.

mod bit_inner_deinterleaver;
mod bit_inner_interleaver;
mod convolutional_deinterleaver;
mod convolutional_interleaver;
mod demap;
mod energy_descramble;
mod energy_dispersal;
mod inner_coder;
mod map;
mod reed_solomon_dec;
mod reed_solomon_enc;
mod reference_signals;
mod rs_code;
mod symbol_inner_interleaver;
mod viterbi_decoder;

pub use bit_inner_deinterleaver::DvbtBitInnerDeinterleaver;
pub use bit_inner_interleaver::DvbtBitInnerInterleaver;
pub use convolutional_deinterleaver::DvbtConvolutionalDeinterleaver;
pub use convolutional_interleaver::DvbtConvolutionalInterleaver;
pub use demap::DvbtDemap;
pub use energy_descramble::DvbtEnergyDescramble;
pub use energy_dispersal::DvbtEnergyDispersal;
pub use inner_coder::DvbtInnerCoder;
pub use map::DvbtMap;
pub use reed_solomon_dec::DvbtReedSolomonDec;
pub use reed_solomon_enc::DvbtReedSolomonEnc;
pub use reference_signals::DvbtReferenceSignals;
pub use symbol_inner_interleaver::DvbtSymbolInnerInterleaver;
pub use viterbi_decoder::DvbtViterbiDecoder;
