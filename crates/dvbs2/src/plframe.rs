//! Physical layer framing (clause 5.5): PLHEADER, pilots, dummy PLFRAMEs and PL scrambling.

use std::f64::consts::FRAC_1_SQRT_2;

use num_complex::Complex32;

/// Symbols in a slot and in a PLHEADER (one slot).
pub(crate) const SLOT: usize = 90;
/// A pilot block: 36 symbols after every 16 slots (clause 5.5.3).
pub(crate) const PILOT_BLOCK: usize = 36;
/// Data symbols between pilot blocks (16 slots).
pub(crate) const PILOT_PERIOD: usize = 16 * SLOT;
/// Slots of a dummy PLFRAME (clause 5.5.1).
pub(crate) const DUMMY_SLOTS: usize = 36;

/// SOF, 0x18D2E82, transmitted MSB first (clause 5.5.2.1).
const SOF: u32 = 0x18D_2E82;
/// Rows of the (32, 6) first-order Reed–Muller generator of clause 5.5.2.4, for b1..b6.
const PLS_ROWS: [u32; 6] = [
    0x5555_5555,
    0x3333_3333,
    0x0F0F_0F0F,
    0x00FF_00FF,
    0x0000_FFFF,
    0xFFFF_FFFF,
];
/// PLS scrambling sequence of clause 5.5.2.4, first bit in the MSB.
const PLS_SCRAMBLE: u64 = 0x719D_83C9_5342_2DFA;

/// (1 + j)/√2: π/2-BPSK for bit 0 on even symbols, and the pilot symbol (clause 5.5.3).
pub(crate) fn unmodulated() -> Complex32 {
    let a = FRAC_1_SQRT_2 as f32;
    Complex32::new(a, a)
}

/// The 64 PLS code bits for a MODCOD number and TYPE (clause 5.5.2.4), MSB first.
pub(crate) fn pls_code(modcod: u8, short: bool, pilots: bool) -> u64 {
    // b1..b6 = MODCOD (5 bits) and the TYPE MSB (frame size); b7 = TYPE LSB (pilots).
    let six = (u32::from(modcod & 31) << 1) | u32::from(short);
    let mut code32 = 0u32;
    for (k, row) in PLS_ROWS.iter().enumerate() {
        if (six >> (5 - k)) & 1 == 1 {
            code32 ^= row;
        }
    }
    let mut code = 0u64;
    for k in (0..32).rev() {
        let y = u64::from((code32 >> k) & 1);
        code = (code << 2) | (y << 1) | (y ^ u64::from(pilots));
    }
    code ^ PLS_SCRAMBLE
}

/// The 90 π/2-BPSK symbols of a PLHEADER (clause 5.5.2.5).
pub(crate) fn plheader(modcod: u8, short: bool, pilots: bool, out: &mut [Complex32; SLOT]) {
    let bits = (u128::from(SOF) << 64) | u128::from(pls_code(modcod, short, pilots));
    let a = FRAC_1_SQRT_2 as f32;
    for (i, o) in out.iter_mut().enumerate() {
        let bit = (bits >> (SLOT - 1 - i)) & 1 == 1;
        // Even symbols: ±(1+j)/√2; odd symbols rotated by π/2: ±(−1+j)/√2.
        let s = if i % 2 == 0 {
            Complex32::new(a, a)
        } else {
            Complex32::new(-a, a)
        };
        *o = if bit { -s } else { s };
    }
}

/// The complex randomization sequence R_n ∈ {0,1,2,3} of clause 5.5.4 for Gold code index n.
#[derive(Debug, Clone)]
pub(crate) struct PlScrambler {
    /// R_n per symbol after the PLHEADER, long enough for the longest PLFRAME.
    r: Vec<u8>,
}

/// Largest PLFRAME payload after its header: QPSK normal with pilots.
const MAX_PAYLOAD: usize = 64_800 / 2 + (64_800 / 2 / SLOT - 1) / 16 * PILOT_BLOCK;

impl PlScrambler {
    /// # Panics
    /// If `gold` is not below 2^18 − 1 (the standard's range is 0..=262 141).
    pub(crate) fn new(gold: u32) -> Self {
        const PERIOD: usize = (1 << 18) - 1;
        const SHIFT: usize = 131_072;
        assert!(
            (gold as usize) < PERIOD - 1,
            "gold code index {gold} out of range"
        );
        let len = MAX_PAYLOAD + SHIFT;
        // x(i+18) = x(i+7) + x(i), x(0) = 1; y(i+18) = y(i+10) + y(i+7) + y(i+5) + y(i), y = 1.
        // The x sequence starts at its n-th element.
        let n = gold as usize;
        let mut x = vec![0u8; n + len + 18];
        x[0] = 1;
        for i in 0..n + len {
            x[i + 18] = x[i + 7] ^ x[i];
        }
        let mut y = vec![1u8; len + 18];
        for i in 0..len {
            y[i + 18] = y[i + 10] ^ y[i + 7] ^ y[i + 5] ^ y[i];
        }
        let z = |i: usize| x[n + i] ^ y[i];
        let r = (0..MAX_PAYLOAD).map(|i| 2 * z(i + SHIFT) + z(i)).collect();
        PlScrambler { r }
    }

    /// R_n (0..=3) for every payload symbol n of the longest PLFRAME.
    pub(crate) fn sequence(&self) -> &[u8] {
        &self.r
    }

    /// `s` · e^{j r π/2}, exactly (a swap and sign changes).
    #[inline]
    pub(crate) fn rotate(s: Complex32, r: u8) -> Complex32 {
        const RE: [usize; 4] = [0, 3, 2, 1];
        const IM: [usize; 4] = [1, 0, 3, 2];
        let v = [s.re, s.im, -s.re, -s.im];
        let r = usize::from(r & 3);
        Complex32::new(v[RE[r]], v[IM[r]])
    }

    /// Multiplies `symbols` by e^{j R_n π/2}, n counted from the first symbol after the header.
    #[inline]
    pub(crate) fn apply(&self, symbols: &mut [Complex32]) {
        // Branch-free: R_n is random, so a match mispredicts half the time.
        const RE: [usize; 4] = [0, 3, 2, 1];
        const IM: [usize; 4] = [1, 0, 3, 2];
        for (s, &r) in symbols.iter_mut().zip(&self.r) {
            let v = [s.re, s.im, -s.re, -s.im];
            let r = usize::from(r & 3);
            *s = Complex32::new(v[RE[r]], v[IM[r]]);
        }
    }
}

/// PLFRAME length in symbols for `slots` slots of data (clause 5.5).
pub(crate) const fn plframe_len(slots: usize, pilots: bool) -> usize {
    SLOT + slots * SLOT
        + if pilots {
            (slots - 1) / 16 * PILOT_BLOCK
        } else {
            0
        }
}

/// Writes header, data slots and pilot blocks; `out` must be `plframe_len(slots, pilots)` long.
/// Does not scramble.
pub(crate) fn assemble(
    header: &[Complex32; SLOT],
    data: &[Complex32],
    pilots: bool,
    out: &mut [Complex32],
) {
    out[..SLOT].copy_from_slice(header);
    let mut pos = SLOT;
    let nblocks = data.len().div_ceil(16 * SLOT);
    for (b, block) in data.chunks(16 * SLOT).enumerate() {
        out[pos..pos + block.len()].copy_from_slice(block);
        pos += block.len();
        if pilots && b + 1 < nblocks {
            out[pos..pos + PILOT_BLOCK].fill(unmodulated());
            pos += PILOT_BLOCK;
        }
    }
    debug_assert_eq!(pos, out.len());
}

/// A dummy PLFRAME (clause 5.5.1): header with MODCOD 0 and 36 slots of unmodulated carrier.
pub(crate) fn dummy(out: &mut [Complex32]) {
    let mut header = [Complex32::new(0.0, 0.0); SLOT];
    plheader(0, false, false, &mut header);
    out[..SLOT].copy_from_slice(&header);
    out[SLOT..SLOT + DUMMY_SLOTS * SLOT].fill(unmodulated());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pls_codes_are_a_biorthogonal_code() {
        // Any two distinct PLS codes (before scrambling) differ in at least 32 bits.
        let codes: Vec<u64> = (0..64u8)
            .flat_map(|m| [false, true].map(|p| pls_code(m >> 1, m & 1 == 1, p) ^ PLS_SCRAMBLE))
            .collect();
        for i in 0..codes.len() {
            for j in 0..i {
                assert!((codes[i] ^ codes[j]).count_ones() >= 32, "{i} {j}");
            }
        }
    }

    #[test]
    fn pl_header_starts_with_sof_in_pi_2_bpsk() {
        let mut h = [Complex32::new(0.0, 0.0); SLOT];
        plheader(4, true, true, &mut h);
        for (i, s) in h.iter().enumerate().take(26) {
            let bit = (SOF >> (25 - i)) & 1;
            let expected_re_sign =
                if i % 2 == 0 { 1.0 } else { -1.0 } * if bit == 1 { -1.0 } else { 1.0 };
            assert_eq!(s.re.signum(), expected_re_sign, "symbol {i}");
            assert!((s.norm() - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn gold_code_zero_starts_like_the_register_description() {
        // Independent of the recurrences: the two shift registers of Figure 14 stepped directly.
        let s = PlScrambler::new(0);
        let (mut x, mut y) = (1u32, 0x3FFFFu32);
        let parity = |v: u32| (v.count_ones() & 1) as u8;
        for (i, &r) in s.r.iter().take(500).enumerate() {
            // z(i + 131072) from the taps given in the figure.
            let za = parity(x & 0x8050) ^ parity(y & 0xFF60);
            let zb = ((x ^ y) & 1) as u8;
            assert_eq!(r, 2 * za + zb, "symbol {i}");
            let xb = parity(x & 0x81);
            x = (x >> 1) | (u32::from(xb) << 17);
            let yb = parity(y & 0x4A1);
            y = (y >> 1) | (u32::from(yb) << 17);
        }
    }

    #[test]
    fn frame_lengths() {
        assert_eq!(plframe_len(360, false), 32_490);
        assert_eq!(plframe_len(360, true), 33_282);
        assert_eq!(plframe_len(90, true), 8_370);
    }
}
