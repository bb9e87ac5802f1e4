//! The front end's sizes, shared by the matched filter, the timing loop and the resampler:
//! samples per block, samples per symbol, and the zeros that flush them at the end.

use num_complex::Complex32;

/// Input samples processed per block: the AGC measures power per block.
pub(crate) const BLOCK: usize = 4096;
/// Matched filter span in symbols on each side of the peak.
pub(crate) const SPAN: usize = 12;
/// Samples per symbol at the matched filter's input.
pub(crate) const SPS: usize = 2;
/// Symbols of a PLFRAME that may be missing at the end of a recording for the frame to be
/// delivered all the same (the missing symbols then come out of the filters' ringing over
/// zeros, as erasures the LDPC decoder fills in): a transmitter that does not write its
/// filter's tail, as GNU Radio's `interp_fir_filter` and `fir_filter` (their delay, half the
/// filter: 10-12 symbols for the usual RRC), plus a channel model's delay and clock offset.
const MISSING: usize = 32;
/// Symbols' worth of zeros pushed through the front end after the end of the input: the
/// matched filter's delay ([`SPAN`]), the timing interpolator's two samples ahead, and
/// [`MISSING`].
pub(crate) const FLUSH_SYMBOLS: usize = SPAN + 2 + MISSING;
/// Zeros the front end reads after the end of the input.
pub(crate) static ZEROS: [Complex32; 512] = [Complex32::new(0.0, 0.0); 512];
