//! [`Crc`]: cyclic redundancy checks of 8 to 64 bits, as GNU Radio's `digital::crc` computes
//! them.

use crate::error::{check, ParamError};

/// A CRC of any width from 8 to 64 bits (GNU Radio 3.10's `digital::crc`, which its
/// `crc_append`, `crc_check` and `crc32_*` blocks use): polynomial, initial register, final
/// XOR, and whether input bytes and the result are reflected (least significant bit first).
/// A 256-entry table, one lookup per byte.
///
/// Written here rather than taken from the `crc` crate: that crate wants its algorithm as a
/// `&'static` value (parameters read from a flowgraph would leak), and reflects the initial
/// value for reflected input where GNU Radio does not: with an asymmetric initial value the
/// two give different CRCs, and a flowgraph must compute GNU Radio's.
///
/// ```
/// use radioflow_dsp::Crc;
/// // CRC-32 (Ethernet, zlib): the catalogue's check value.
/// let crc = Crc::new(32, 0x04C1_1DB7, 0xFFFF_FFFF, 0xFFFF_FFFF, true, true)?;
/// assert_eq!(crc.compute(b"123456789"), 0xCBF4_3926);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Crc {
    bits: u32,
    /// The low `bits` bits set: every register value stays within it.
    mask: u64,
    initial: u64,
    final_xor: u64,
    input_reflected: bool,
    result_reflected: bool,
    table: Box<[u64; 256]>,
}

impl Crc {
    /// A CRC of `num_bits` bits with polynomial `poly` (without its top bit), register
    /// starting at `initial_value`, result XORed with `final_xor` (both cut to `num_bits`),
    /// bytes taken least significant bit first where `input_reflected`, the result reflected
    /// where `result_reflected`.
    ///
    /// # Errors
    /// `num_bits` outside 8..=64 (GNU Radio's range).
    pub fn new(
        num_bits: u32,
        poly: u64,
        initial_value: u64,
        final_xor: u64,
        input_reflected: bool,
        result_reflected: bool,
    ) -> Result<Self, ParamError> {
        check((8..=64).contains(&num_bits), "num_bits", || {
            format!("{num_bits} must be between 8 and 64")
        })?;
        let mask = u64::MAX >> (64 - num_bits);
        let poly = poly & mask;
        let mut table = Box::new([0u64; 256]);
        for (byte, entry) in (0u64..).zip(table.iter_mut()) {
            *entry = if input_reflected {
                // The register runs least significant bit first: the reflected polynomial.
                let poly = reflect(poly, num_bits);
                (0..8).fold(
                    byte,
                    |r, _| if r & 1 == 1 { (r >> 1) ^ poly } else { r >> 1 },
                )
            } else {
                let top = 1u64 << (num_bits - 1);
                let start = byte << (num_bits - 8);
                (0..8).fold(start, |r, _| {
                    if r & top != 0 {
                        ((r << 1) ^ poly) & mask
                    } else {
                        (r << 1) & mask
                    }
                })
            };
        }
        Ok(Self {
            bits: num_bits,
            mask,
            initial: initial_value & mask,
            final_xor: final_xor & mask,
            input_reflected,
            result_reflected,
            table,
        })
    }

    /// The width in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The CRC of `data`.
    pub fn compute(&self, data: &[u8]) -> u64 {
        let mut r = self.initial;
        if self.input_reflected {
            for &b in data {
                r = self.table[usize::from((r as u8) ^ b)] ^ (r >> 8);
            }
        } else {
            let shift = self.bits - 8;
            for &b in data {
                let i = ((r >> shift) as u8) ^ b;
                r = (self.table[usize::from(i)] ^ (r << 8)) & self.mask;
            }
        }
        if self.input_reflected != self.result_reflected {
            r = reflect(r, self.bits);
        }
        r ^ self.final_xor
    }
}

/// The low `bits` bits of `word` in reverse order.
fn reflect(word: u64, bits: u32) -> u64 {
    word.reverse_bits() >> (64 - bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CRC bit by bit, by the definition: each message bit shifted into the register
    /// (most significant first, or each byte's least significant first where reflected).
    fn naive(c: &Crc, poly: u64, data: &[u8]) -> u64 {
        let top = 1u64 << (c.bits - 1);
        // GNU Radio keeps a reflected input's register reflected from the start: the
        // initial value is the reflected register's, so reflect it into the plain one.
        let mut r = if c.input_reflected {
            reflect(c.initial, c.bits)
        } else {
            c.initial
        };
        for &byte in data {
            for k in 0..8 {
                let bit = if c.input_reflected {
                    (byte >> k) & 1
                } else {
                    (byte >> (7 - k)) & 1
                };
                let feedback = ((r & top) != 0) as u8 ^ bit;
                r = (r << 1) & c.mask;
                if feedback == 1 {
                    r ^= poly & c.mask;
                }
            }
        }
        if c.result_reflected {
            r = reflect(r, c.bits);
        }
        r ^ c.final_xor
    }

    #[test]
    fn the_catalogue_s_check_values() {
        // (width, poly, init, xorout, refin, refout, check of "123456789").
        let cases: [(u32, u64, u64, u64, bool, bool, u64); 7] = [
            (
                32, 0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF, true, true, 0xCBF43926,
            ),
            (
                32, 0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF, false, false, 0xFC891918,
            ),
            (16, 0x1021, 0xFFFF, 0, false, false, 0x29B1),
            (16, 0x1021, 0, 0, true, true, 0x2189),
            (8, 0x07, 0, 0, false, false, 0xF4),
            (24, 0x864CFB, 0xB704CE, 0, false, false, 0x21CF02),
            (
                64,
                0x42F0E1EBA9EA3693,
                0,
                0,
                false,
                false,
                0x6C40DF5F0B497347,
            ),
        ];
        for (bits, poly, init, xor, refin, refout, want) in cases {
            let c = Crc::new(bits, poly, init, xor, refin, refout).unwrap();
            assert_eq!(
                c.compute(b"123456789"),
                want,
                "width {bits}, poly {poly:#x}"
            );
        }
    }

    #[test]
    fn equals_the_bitwise_definition() {
        let data: Vec<u8> = (0..97u32).map(|i| (i * 37 + 11) as u8).collect();
        for bits in [8, 12, 16, 24, 31, 32, 40, 64] {
            for (refin, refout) in [(false, false), (true, true), (true, false), (false, true)] {
                let poly = 0x42F0_E1EB_A9EA_3693 & (u64::MAX >> (64 - bits));
                let c = Crc::new(bits, poly, 0x1234_5678_9ABC_DEF1, 0x0F0F, refin, refout).unwrap();
                for len in [0, 1, 5, 97] {
                    assert_eq!(
                        c.compute(&data[..len]),
                        naive(&c, poly, &data[..len]),
                        "width {bits}, reflected {refin}/{refout}, {len} bytes"
                    );
                }
            }
        }
    }

    #[test]
    fn widths_outside_8_to_64_are_refused() {
        for bits in [0, 7, 65] {
            assert_eq!(
                Crc::new(bits, 7, 0, 0, false, false).unwrap_err().name,
                "num_bits"
            );
        }
    }
}
