//! The ideal synchroniser: data symbols of a PLFRAME known to be aligned and undistorted.

use num_complex::Complex32;

use crate::plframe::{PlScrambler, PILOT_BLOCK, SLOT};

/// Removes the PLHEADER and the pilot blocks of an aligned PLFRAME and undoes PL scrambling,
/// for tests, benchmarks and loopback: what frame and carrier synchronisation deliver on a
/// real signal, without estimating anything.
#[derive(Debug, Clone)]
pub struct IdealSync {
    scrambler: PlScrambler,
}

impl IdealSync {
    /// For PL scrambling with Gold code index `gold` (clause 5.5.4).
    ///
    /// # Panics
    /// If `gold` is above 262 141.
    pub fn new(gold: u32) -> Self {
        IdealSync {
            scrambler: PlScrambler::new(gold),
        }
    }

    /// Writes the data symbols of `plframe` (header, slots and, with `pilots`, a pilot block
    /// after every 16 slots) to the start of `out`; returns how many. `out` is used as
    /// scratch for the whole payload.
    ///
    /// # Panics
    /// If `out` is shorter than `plframe` minus its 90 header symbols.
    pub fn data_symbols(
        &self,
        plframe: &[Complex32],
        pilots: bool,
        out: &mut [Complex32],
    ) -> usize {
        let payload = &plframe[SLOT.min(plframe.len())..];
        let out = &mut out[..payload.len()];
        out.copy_from_slice(payload);
        // Three quarter turns undo one: e^{j3Rπ/2} = e^{−jRπ/2}.
        for _ in 0..3 {
            self.scrambler.apply(out);
        }
        if !pilots {
            return out.len();
        }
        let mut n = 0;
        let mut src = 0;
        while src < out.len() {
            let len = (out.len() - src).min(16 * SLOT);
            out.copy_within(src..src + len, n);
            n += len;
            src += len + PILOT_BLOCK;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FrameSize, Transmitter, TxConfig};

    #[test]
    fn same_data_symbols_with_and_without_pilots() {
        let input: Vec<u8> = (0..2000u32)
            .map(|i| if i % 188 == 0 { 0x47 } else { (i * 13) as u8 })
            .collect();
        let mut got = Vec::new();
        for pilots in [false, true] {
            let cfg = TxConfig::new("8psk-2/3".parse().unwrap(), FrameSize::Short, pilots);
            let mut tx = Transmitter::new(cfg).unwrap();
            let mut frame = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            tx.encode_frame(&input, &mut frame).unwrap();
            let mut out = vec![Complex32::new(0.0, 0.0); frame.len()];
            let n = IdealSync::new(0).data_symbols(&frame, pilots, &mut out);
            assert_eq!(n, 16200 / 3);
            out.truncate(n);
            got.push(out);
        }
        assert!(
            got[0] == got[1],
            "pilot removal or descrambling positions wrong"
        );
        // Descrambled 8PSK points: e^{jkπ/4} (scrambled ones would be too, but rotated
        // differently with and without pilots, so the equality above is the real test).
        for s in &got[0] {
            let k = s.arg() / std::f32::consts::FRAC_PI_4;
            assert!((k - k.round()).abs() < 1e-4 && (s.norm() - 1.0).abs() < 1e-5);
        }
    }
}
