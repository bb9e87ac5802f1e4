//! Transmission Parameter Signalling (ETSI EN 300 744 clause 4.6): the 68 bits s0 to s67 of
//! an OFDM frame, one bit a symbol, DBPSK-modulated on every TPS carrier.

use crate::params::{CodeRate, Constellation, GuardInterval, Hierarchy, Mode};

/// What the TPS of every frame say.
#[derive(Debug, Clone, Copy)]
pub struct TpsSettings {
    /// The constellation (s25, s26).
    pub constellation: Constellation,
    /// Hierarchy (s27 to s29).
    pub hierarchy: Hierarchy,
    /// The high priority stream's code rate (s30 to s32).
    pub rate_hp: CodeRate,
    /// The low priority stream's code rate (s33 to s35).
    pub rate_lp: CodeRate,
    /// Guard interval (s36, s37).
    pub guard: GuardInterval,
    /// Transmission mode (s38, s39).
    pub mode: Mode,
    /// Whether the cell identifier is sent (the length indicator s17 to s22: 31 or 23 bits).
    pub include_cell_id: bool,
    /// The cell identifier: its high byte in even frames, low byte in odd ones (s40 to s47).
    pub cell_id: u16,
}

/// Writes `value`'s `last - first + 1` low bits into bits `first..=last`, the most significant
/// into `first`.
fn set(bits: &mut [u8; 68], first: usize, last: usize, mut value: u32) {
    for b in bits[first..=last].iter_mut().rev() {
        *b = (value & 1) as u8;
        value >>= 1;
    }
}

/// The 68 TPS bits of frame `frame` (0 to 3 in the super-frame); `s0` the initialization bit.
pub fn tps_bits(s: &TpsSettings, frame: usize, s0: u8) -> [u8; 68] {
    let mut bits = [0u8; 68];
    bits[0] = s0;
    // Clause 4.6.2.2: the synchronization word, inverted in odd frames.
    set(
        &mut bits,
        1,
        16,
        if frame % 2 == 1 { 0xca11 } else { 0x35ee },
    );
    // Clause 4.6.2.3: the length indicator.
    set(
        &mut bits,
        17,
        22,
        if s.include_cell_id { 0x1f } else { 0x17 },
    );
    set(&mut bits, 23, 24, frame as u32);
    set(&mut bits, 25, 26, s.constellation.tps());
    set(&mut bits, 27, 29, s.hierarchy.tps());
    set(&mut bits, 30, 32, s.rate_hp.tps());
    set(&mut bits, 33, 35, s.rate_lp.tps());
    set(&mut bits, 36, 37, s.guard.tps());
    set(&mut bits, 38, 39, s.mode.tps());
    // Clause 4.6.2.10 (gr-dtv sends the cell identifier's byte whether or not the length
    // indicator says it is there).
    let cell = if frame % 2 == 1 {
        s.cell_id & 0xff
    } else {
        s.cell_id >> 8
    };
    set(&mut bits, 40, 47, u32::from(cell));
    // s48 to s53 stay 0. Clause 4.6.2.11: BCH(67, 53), shortened from BCH(127, 113) with
    // generator x^14 + x^9 + x^8 + x^6 + x^5 + x^4 + x^2 + x + 1, over s1 to s53 (the
    // 60 leading zeros of the shortening leave the register at zero).
    let generator: u32 = (1 << 9) | (1 << 8) | (1 << 6) | (1 << 5) | (1 << 4) | (1 << 2) | 0b11;
    let mut reg: u32 = 0;
    for &b in &bits[1..54] {
        let feedback = (u32::from(b) ^ (reg >> 13)) & 1;
        reg = (reg << 1) & 0x3fff;
        if feedback == 1 {
            reg ^= generator;
        }
    }
    // The remainder, highest degree first.
    for (i, b) in bits[54..68].iter_mut().enumerate() {
        *b = ((reg >> (13 - i)) & 1) as u8;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codewords_are_multiples_of_the_generator() {
        let s = TpsSettings {
            constellation: Constellation::Qam64,
            hierarchy: Hierarchy::Nh,
            rate_hp: CodeRate::R2_3,
            rate_lp: CodeRate::R2_3,
            guard: GuardInterval::G1_32,
            mode: Mode::T2k,
            include_cell_id: true,
            cell_id: 0x1234,
        };
        for frame in 0..4 {
            let bits = tps_bits(&s, frame, 1);
            // s1..s67 as a polynomial (s1 the highest degree) modulo the generator is 0.
            let g: u32 =
                (1 << 14) | (1 << 9) | (1 << 8) | (1 << 6) | (1 << 5) | (1 << 4) | (1 << 2) | 0b11;
            let mut r: u32 = 0;
            for &b in &bits[1..] {
                r = (r << 1) | u32::from(b);
                if r & (1 << 14) != 0 {
                    r ^= g;
                }
            }
            assert_eq!(r, 0, "frame {frame}");
            assert_eq!(bits[23..25], [(frame >> 1) as u8 & 1, frame as u8 & 1]);
        }
        // Clause 4.6.2.2: 0011010111101110 in frames 1 and 3 of the standard (our 0 and 2).
        let bits = tps_bits(&s, 0, 0);
        assert_eq!(
            bits[1..17],
            [0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0]
        );
    }
}
