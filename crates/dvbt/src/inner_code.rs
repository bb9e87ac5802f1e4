//! The inner code (ETSI EN 300 744 clause 4.3.3): the rate 1/2 convolutional code of
//! constraint length 7, generators G1 = 171 (X) and G2 = 133 (Y) octal, punctured to the
//! rate (table 2), its bits sent in the order X1 Y1 Y2 X3 …, then gathered `m` to a byte
//! as gr-dtv's `dvbt_inner_coder` hands them to the bit interleaver.
//!
//! Not `radioflow-fec`'s `CcEncoder`: that encodes GNU Radio's gr-fec frames bit by bit;
//! DVB-T streams the register through every byte and punctures, a dozen lines here.

use crate::params::CodeRate;

/// Which outputs are sent for each input bit of a puncturing period (table 2): X, Y.
pub(crate) fn puncturing(rate: CodeRate) -> &'static [(bool, bool)] {
    match rate {
        CodeRate::R1_2 => &[(true, true)],
        CodeRate::R2_3 => &[(true, true), (false, true)],
        CodeRate::R3_4 => &[(true, true), (false, true), (true, false)],
        CodeRate::R5_6 => &[
            (true, true),
            (false, true),
            (true, false),
            (false, true),
            (true, false),
        ],
        CodeRate::R7_8 => &[
            (true, true),
            (false, true),
            (false, true),
            (false, true),
            (true, false),
            (false, true),
            (true, false),
        ],
    }
}

/// The encoder's state between calls: the last six input bits, and the rate.
#[derive(Debug, Clone)]
pub struct InnerCoder {
    /// Bit 6 the newest input bit, bit 0 the one six bits before it (reset 0).
    reg: u8,
    pattern: &'static [(bool, bool)],
    /// Bits a constellation symbol: the output bytes' width.
    m: usize,
}

/// The parity of `x`.
fn parity(x: u8) -> u8 {
    (x.count_ones() & 1) as u8
}

impl InnerCoder {
    /// An encoder of `rate` whose output bytes hold `m` bits each.
    pub fn new(rate: CodeRate, m: usize) -> Self {
        Self {
            reg: 0,
            pattern: puncturing(rate),
            m,
        }
    }

    /// Input bytes of one group: `k · m / 2`, which makes `4 n` output bytes (gr-dtv's
    /// block of work; `k/n` the rate).
    pub fn group_in(&self) -> usize {
        let k = self.pattern.len();
        k * self.m / 2
    }

    /// Output bytes of one group: `4 n`.
    pub fn group_out(&self) -> usize {
        4 * self
            .pattern
            .iter()
            .map(|&(x, y)| usize::from(x) + usize::from(y))
            .sum::<usize>()
    }

    /// Encodes one group: `input` ([`group_in`](Self::group_in) bytes, most significant
    /// bit first) into `output` ([`group_out`](Self::group_out) bytes of `m` bits, the first
    /// coded bit the most significant).
    pub fn encode_group(&mut self, input: &[u8], output: &mut [u8]) {
        debug_assert_eq!(input.len(), self.group_in());
        debug_assert_eq!(output.len(), self.group_out());
        let m = self.m;
        let (mut acc, mut filled, mut o) = (0u8, 0, 0);
        let mut push = |bit: u8| {
            acc = (acc << 1) | bit;
            filled += 1;
            if filled == m {
                output[o] = acc;
                o += 1;
                acc = 0;
                filled = 0;
            }
        };
        let bits = input
            .iter()
            .flat_map(|&b| (0..8).rev().map(move |j| (b >> j) & 1));
        for (bit, &(send_x, send_y)) in bits.zip(self.pattern.iter().cycle()) {
            self.reg = (self.reg >> 1) | (bit << 6);
            if send_x {
                push(parity(self.reg & 0o171));
            }
            if send_y {
                push(parity(self.reg & 0o133));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impulse_gives_the_generators() {
        // Rate 1/2, two bits a byte: a 1 then zeros gives G1 and G2's taps in turn,
        // X then Y each bit: 171 = 1 111 001, 133 = 1 011 011 (newest tap first).
        let mut c = InnerCoder::new(CodeRate::R1_2, 2);
        assert_eq!((c.group_in(), c.group_out()), (1, 8));
        let mut out = [0u8; 8];
        c.encode_group(&[0x80], &mut out);
        let (g1, g2) = (0b1111001u8, 0b1011011u8);
        for (j, &o) in out.iter().enumerate().take(7) {
            assert_eq!(
                o,
                ((g1 >> (6 - j)) & 1) << 1 | ((g2 >> (6 - j)) & 1),
                "bit {j}"
            );
        }
        assert_eq!(out[7], 0);
    }

    #[test]
    fn groups_have_gr_dtv_s_sizes() {
        for (rate, m, i, o) in [
            (CodeRate::R2_3, 6, 6, 12),
            (CodeRate::R7_8, 2, 7, 32),
            (CodeRate::R5_6, 4, 10, 24),
        ] {
            let c = InnerCoder::new(rate, m);
            assert_eq!((c.group_in(), c.group_out()), (i, o), "{rate:?}");
            // The coded bits of the group's input bits fill its output bytes: 8 i · n/k = o · m.
            let (k, n) = rate.k_n();
            assert_eq!(i * 8 * n, o * m * k, "{rate:?}");
        }
    }
}
