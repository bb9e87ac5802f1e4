//! [`L1Fields`]: the L1-pre and L1-post signalling fields of a one-PLP T2 frame (ETSI EN 302
//! 755 clause 7.2.3), as the bits gr-dtv's frame mapper sends.

/// The L1 signalling fields that the frame mapper's settings choose; the others are gr-dtv's
/// constants (one PLP of type 1, TS payload, network 0x3085, system 0x8001, one RF channel at
/// 729 833 333 Hz, no auxiliary streams, no FEF).
///
/// Values are the field's codes: gr-dtv writes its enumerations' numbers into the fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct L1Fields {
    /// BWT_EXT: extended carriers.
    pub extended: bool,
    /// S1: 0 T2 SISO, 1 T2 MISO, 3 T2-Lite SISO, 4 T2-Lite MISO.
    pub s1: u32,
    /// The 3 bits of S2 field 1 (gr-dtv's FFT size number modulo 8).
    pub s2: u32,
    /// GUARD_INTERVAL: 0 1/32, 1 1/16, 2 1/8, 3 1/4, 4 1/128, 5 19/128, 6 19/256.
    pub guard_interval: u32,
    /// PAPR: 0 off, 1 ACE, 2 TR, 3 both.
    pub papr: u32,
    /// L1_MOD: 0 BPSK, 1 QPSK, 2 16-QAM, 3 64-QAM.
    pub l1_mod: u32,
    /// L1_POST_SIZE: L1-post's cells.
    pub l1_post_size: u32,
    /// PILOT_PATTERN: 0 PP1 to 7 PP8.
    pub pilot_pattern: u32,
    /// NUM_T2_FRAMES.
    pub t2_frames: u32,
    /// NUM_DATA_SYMBOLS.
    pub data_symbols: u32,
    /// T2_VERSION: 0 1.1.1, 2 1.3.1.
    pub version: u32,
    /// L1_POST_SCRAMBLED.
    pub post_scrambled: bool,
    /// The reserved fields all ones (1.3.1's bias balancing) rather than zeros.
    pub reserved_ones: bool,
    /// PLP_COD: 0 1/2, 1 3/5, 2 2/3, 3 3/4, 4 4/5, 5 5/6, 6 1/3, 7 2/5.
    pub plp_cod: u32,
    /// PLP_MOD: 0 QPSK, 1 16-QAM, 2 64-QAM, 3 256-QAM.
    pub plp_mod: u32,
    /// PLP_ROTATION.
    pub plp_rotation: bool,
    /// PLP_FEC_TYPE: 0 16K LDPC, 1 64K LDPC.
    pub plp_fec_type: u32,
    /// PLP_NUM_BLOCKS_MAX and PLP_NUM_BLOCKS: FEC blocks per interleaving frame.
    pub fec_blocks: u32,
    /// TIME_IL_LENGTH: TI blocks per interleaving frame.
    pub ti_blocks: u32,
    /// IN_BAND_B_FLAG (1.3.1's in-band signalling type B).
    pub in_band_b: bool,
    /// PLP_MODE: 0 (1.1.1), 1 normal, 2 high efficiency.
    pub plp_mode: u32,
}

/// L1-pre's bits with their CRC (K_sig = 200).
pub(crate) const PRE_BITS: usize = 200;
/// L1-post's configurable and dynamic bits of one PLP with their CRC (K_sig = 350).
pub(crate) const POST_BITS: usize = 350;

/// Appends the `width` low bits of `value`, most significant first.
fn put(bits: &mut Vec<u8>, value: u32, width: u32) {
    bits.extend((0..width).rev().map(|n| ((value >> n) & 1) as u8));
}

/// Appends the CRC-32 of `bits` (clause 7.2.3.3 and annex F: generator 0x04C11DB7, register
/// starting at all ones, no reflection, no final inversion).
fn put_crc32(bits: &mut Vec<u8>) {
    let mut crc = u32::MAX;
    for &b in bits.iter() {
        let fb = u32::from(b) ^ (crc >> 31);
        crc <<= 1;
        if fb == 1 {
            crc ^= 0x04C1_1DB7;
        }
    }
    put(bits, crc, 32);
}

impl L1Fields {
    /// L1-pre's 200 bits (clause 7.2.3.1's order, the CRC last).
    pub(crate) fn pre_bits(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(PRE_BITS);
        put(&mut b, 0, 8); // TYPE: transport streams
        put(&mut b, self.extended.into(), 1);
        put(&mut b, self.s1, 3);
        put(&mut b, self.s2 & 7, 3);
        put(&mut b, 0, 1); // S2's mixed bit
        put(&mut b, 0, 1); // L1_REPETITION_FLAG
        put(&mut b, self.guard_interval, 3);
        put(&mut b, self.papr, 4);
        put(&mut b, self.l1_mod, 4);
        put(&mut b, 0, 2); // L1_COD: 1/2
        put(&mut b, 0, 2); // L1_FEC_TYPE: 16K LDPC
        put(&mut b, self.l1_post_size, 18);
        put(&mut b, (POST_BITS - 32) as u32, 18); // L1_POST_INFO_SIZE
        put(&mut b, self.pilot_pattern, 4);
        put(&mut b, 0, 8); // TX_ID_AVAILABILITY
        put(&mut b, 0, 16); // CELL_ID
        put(&mut b, 0x3085, 16); // NETWORK_ID
        put(&mut b, 0x8001, 16); // T2_SYSTEM_ID
        put(&mut b, self.t2_frames, 8);
        put(&mut b, self.data_symbols, 12);
        put(&mut b, 0, 3); // REGEN_FLAG
        put(&mut b, 0, 1); // L1_POST_EXTENSION
        put(&mut b, 1, 3); // NUM_RF
        put(&mut b, 0, 3); // CURRENT_RF_IDX
        put(&mut b, self.version, 4);
        put(&mut b, self.post_scrambled.into(), 1);
        put(&mut b, 0, 1); // T2_BASE_LITE
        put(&mut b, if self.reserved_ones { 0xf } else { 0 }, 4);
        put_crc32(&mut b);
        debug_assert_eq!(b.len(), PRE_BITS);
        b
    }

    /// L1-post's 350 bits for T2 frame `frame_idx` of the super-frame: the configurable
    /// fields (clause 7.2.3.2), the dynamic ones (clause 7.2.3.3) and the CRC.
    pub(crate) fn post_bits(&self, frame_idx: u32) -> Vec<u8> {
        let r = |ones: u32| if self.reserved_ones { ones } else { 0 };
        let mut b = Vec::with_capacity(POST_BITS);
        put(&mut b, 1, 15); // SUB_SLICES_PER_FRAME
        put(&mut b, 1, 8); // NUM_PLP
        put(&mut b, 0, 4); // NUM_AUX
        put(&mut b, 0, 8); // AUX_CONFIG_RFU
        put(&mut b, 0, 3); // RF_IDX
        put(&mut b, 729_833_333, 32); // FREQUENCY
        put(&mut b, 0, 8); // PLP_ID
        put(&mut b, 1, 3); // PLP_TYPE: data type 1
        put(&mut b, 3, 5); // PLP_PAYLOAD_TYPE: TS
        put(&mut b, 0, 1); // FF_FLAG
        put(&mut b, 0, 3); // FIRST_RF_IDX
        put(&mut b, 0, 8); // FIRST_FRAME_IDX
        put(&mut b, 1, 8); // PLP_GROUP_ID
        put(&mut b, self.plp_cod, 3);
        put(&mut b, self.plp_mod, 3);
        put(&mut b, self.plp_rotation.into(), 1);
        put(&mut b, self.plp_fec_type, 2);
        put(&mut b, self.fec_blocks, 10); // PLP_NUM_BLOCKS_MAX
        put(&mut b, 1, 8); // FRAME_INTERVAL
        put(&mut b, self.ti_blocks, 8); // TIME_IL_LENGTH
        put(&mut b, 0, 1); // TIME_IL_TYPE
        put(&mut b, 0, 1); // IN_BAND_A_FLAG
        put(&mut b, self.in_band_b.into(), 1);
        put(&mut b, r(0x7ff), 11);
        put(&mut b, self.plp_mode, 2);
        put(&mut b, 0, 1); // STATIC_FLAG
        put(&mut b, 0, 1); // STATIC_PADDING_FLAG
        put(&mut b, 0, 2); // FEF_LENGTH_MSB
        put(&mut b, r(0x3fff_ffff), 30);
        put(&mut b, frame_idx, 8); // FRAME_IDX
        put(&mut b, 0, 22); // SUB_SLICE_INTERVAL
        put(&mut b, 0, 22); // TYPE_2_START
        put(&mut b, 0, 8); // L1_CHANGE_COUNTER
        put(&mut b, 0, 3); // START_RF_IDX
        put(&mut b, r(0xff), 8);
        put(&mut b, 0, 8); // PLP_ID
        put(&mut b, 0, 22); // PLP_START
        put(&mut b, self.fec_blocks, 10); // PLP_NUM_BLOCKS
        put(&mut b, r(0xff), 8);
        put(&mut b, r(0xff), 8);
        put_crc32(&mut b);
        debug_assert_eq!(b.len(), POST_BITS);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_of_the_check_string_is_the_standard_one() {
        // CRC-32/MPEG-2 of "123456789" is 0x0376E6E7 (the same register, bit by bit).
        let mut bits = Vec::new();
        for c in b"123456789" {
            put(&mut bits, u32::from(*c), 8);
        }
        let n = bits.len();
        put_crc32(&mut bits);
        let crc = bits[n..].iter().fold(0u32, |a, &b| (a << 1) | u32::from(b));
        assert_eq!(crc, 0x0376_E6E7);
    }
}
