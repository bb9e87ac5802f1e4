//! The PL scrambling sequence as the receiver uses it: R_n per symbol after a header.

use num_complex::Complex32;

use crate::plframe::{PlScrambler, SLOT};

/// Longest PLFRAME: QPSK normal with pilots.
pub(super) const MAX_FRAME: usize = 33_282;
/// Symbols after a header the scrambling sequence covers.
const MAX_PAYLOAD: usize = MAX_FRAME - SLOT;

/// R_n (clause 5.5.4) of Gold code `gold` for every symbol after a header, as many as the
/// longest PLFRAME has.
pub(crate) fn scrambling_sequence(gold: u32) -> Vec<u8> {
    // e^{jR·π/2} of the scrambler applied to ones gives R.
    let mut ones = vec![Complex32::new(1.0, 0.0); MAX_PAYLOAD];
    PlScrambler::new(gold).apply(&mut ones);
    ones.iter()
        .map(|s| match (s.re > 0.5, s.im > 0.5, s.re < -0.5) {
            (true, _, _) => 0,
            (_, true, _) => 1,
            (_, _, true) => 2,
            _ => 3,
        })
        .collect()
}
