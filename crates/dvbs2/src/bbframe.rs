//! Mode adaptation (clause 5.1) and BB scrambling (clause 5.2.2).
//!
//! BBFRAMEs are packed, 8 bits per byte, first transmitted bit in the MSB.

use crate::modcod::FecParams;

/// The BBHEADER length in bits (clause 5.1.6).
pub(crate) const BBHEADER_BITS: usize = 80;
/// MPEG-TS packet length and sync byte (clause 5.1.1).
pub(crate) const TS_PACKET: usize = 188;
pub(crate) const TS_SYNC: u8 = 0x47;

/// CRC-8 of clause 5.1.4: g(x) = x^8 + x^7 + x^6 + x^4 + x^2 + 1, register cleared, MSB first.
pub(crate) struct Crc8 {
    table: [u8; 256],
}

impl Crc8 {
    pub(crate) const fn new() -> Self {
        let mut table = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            let mut crc = i as u8;
            let mut k = 0;
            while k < 8 {
                crc = if crc & 0x80 != 0 {
                    (crc << 1) ^ 0xD5
                } else {
                    crc << 1
                };
                k += 1;
            }
            table[i] = crc;
            i += 1;
        }
        Crc8 { table }
    }

    #[inline]
    pub(crate) fn update(&self, crc: u8, byte: u8) -> u8 {
        self.table[usize::from(crc ^ byte)]
    }

    pub(crate) fn bytes(&self, data: &[u8]) -> u8 {
        data.iter().fold(0, |c, &b| self.update(c, b))
    }
}

pub(crate) static CRC8: Crc8 = Crc8::new();

/// The input stream format (MATYPE-1 TS/GS field, clause 5.1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputStream {
    /// MPEG transport stream of 188-byte packets starting with 0x47.
    Transport,
    /// Generic continuous stream (no packets; UPL = 0).
    GenericContinuous,
}

/// Roll-off factor signalled in MATYPE-1 (clause 5.1.6). It does not change the symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollOff {
    /// α = 0.35.
    R035,
    /// α = 0.25.
    R025,
    /// α = 0.20.
    R020,
}

impl RollOff {
    const fn bits(self) -> u8 {
        match self {
            RollOff::R035 => 0,
            RollOff::R025 => 1,
            RollOff::R020 => 2,
        }
    }

    /// α as a number.
    pub const fn alpha(self) -> f32 {
        match self {
            RollOff::R035 => 0.35,
            RollOff::R025 => 0.25,
            RollOff::R020 => 0.20,
        }
    }
}

/// Mode adaptation state: the single input stream's position in its packet and the CRC-8 of the
/// packet being read (clause 5.1.4).
#[derive(Debug, Clone)]
pub(crate) struct ModeAdapter {
    stream: InputStream,
    roll_off: RollOff,
    /// CCM (true) or ACM/VCM (false), MATYPE-1 bit 4.
    ccm: bool,
    /// Bytes of the current TS packet already consumed, 0..188.
    count: usize,
    /// CRC-8 of the current packet's bytes after its sync byte.
    crc: u8,
}

/// A TS packet in the input did not start with the sync byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("TS sync byte 0x47 missing at input byte {offset} (found {found:#04x})")]
pub struct TsSyncError {
    /// Offset in the slice given to the encoder.
    pub offset: usize,
    /// The byte found there.
    pub found: u8,
}

impl ModeAdapter {
    pub(crate) fn new(stream: InputStream, roll_off: RollOff, ccm: bool) -> Self {
        ModeAdapter {
            stream,
            roll_off,
            ccm,
            count: 0,
            crc: 0,
        }
    }

    /// Bytes a full data field takes from the input for these FEC parameters.
    pub(crate) fn max_input(fec: &FecParams) -> usize {
        (fec.kbch - BBHEADER_BITS) / 8
    }

    /// Writes a BBFRAME of `fec.kbch` bits (`kbch / 8` bytes) into `out` from at most `max_input` bytes of
    /// `input`; pads if `input` is shorter (clause 5.2.1). Returns the bytes consumed.
    ///
    /// A sync byte is checked before any state changes, so an error leaves the adapter as it was.
    pub(crate) fn build(
        &mut self,
        fec: &FecParams,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<usize, TsSyncError> {
        let out = &mut out[..fec.kbch / 8];
        let n = input.len().min(Self::max_input(fec));
        let input = &input[..n];
        // Offset of the first packet start in the data field.
        let first = (TS_PACKET - self.count) % TS_PACKET;
        if self.stream == InputStream::Transport {
            for offset in (first..n).step_by(TS_PACKET) {
                if input[offset] != TS_SYNC {
                    return Err(TsSyncError {
                        offset,
                        found: input[offset],
                    });
                }
            }
        }
        let dfl = n * 8;
        // SYNCD: bits from the data field start to the first packet's start, 65535 if no
        // packet starts in it (clause 5.1.6); 0 for a continuous stream.
        let syncd = match self.stream {
            InputStream::Transport if first >= n => 0xFFFF,
            InputStream::Transport => first * 8,
            InputStream::GenericContinuous => 0,
        };
        let (ts_gs, upl, sync) = match self.stream {
            InputStream::Transport => (0b11, TS_PACKET * 8, TS_SYNC),
            InputStream::GenericContinuous => (0b01, 0, 0),
        };
        let matype1 = (ts_gs << 6) | (1 << 5) | (u8::from(self.ccm) << 4) | self.roll_off.bits();
        let mut header = [0u8; 10];
        header[0] = matype1;
        header[1] = 0; // MATYPE-2 (ISI) unused in single input stream mode.
        header[2..4].copy_from_slice(&(upl as u16).to_be_bytes());
        header[4..6].copy_from_slice(&(dfl as u16).to_be_bytes());
        header[6] = sync;
        header[7..9].copy_from_slice(&(syncd as u16).to_be_bytes());
        header[9] = CRC8.bytes(&header[..9]);
        let (head, field) = out.split_at_mut(BBHEADER_BITS / 8);
        head.copy_from_slice(&header);
        match self.stream {
            InputStream::Transport => {
                for (&b, o) in input.iter().zip(field.iter_mut()) {
                    // The sync byte carries the CRC-8 of the previous packet (0 before the first).
                    let byte = if self.count == 0 {
                        std::mem::take(&mut self.crc)
                    } else {
                        self.crc = CRC8.update(self.crc, b);
                        b
                    };
                    self.count += 1;
                    if self.count == TS_PACKET {
                        self.count = 0;
                    }
                    *o = byte;
                }
            }
            InputStream::GenericContinuous => field[..n].copy_from_slice(input),
        }
        field[n..].fill(0);
        Ok(n)
    }
}

/// Writes the bits of `bytes`, MSB first, one per byte of `bits`.
#[inline]
pub(crate) fn unpack(bytes: &[u8], bits: &mut [u8]) {
    for (&b, out) in bytes.iter().zip(bits.chunks_exact_mut(8)) {
        for (k, o) in out.iter_mut().enumerate() {
            *o = (b >> (7 - k)) & 1;
        }
    }
}

/// The BB scrambling sequence of clause 5.2.2: PRBS 1 + x^14 + x^15, loaded with
/// 100101010000000 at the start of every BBFRAME.
#[derive(Debug, Clone)]
pub(crate) struct BbScrambler {
    /// The sequence packed MSB first.
    sequence: Vec<u8>,
}

impl BbScrambler {
    pub(crate) fn new() -> Self {
        // reg bit 14 is the register's first stage; clause 5.2.2 init value read left to right.
        let mut reg: u16 = 0b100_1010_1000_0000;
        let bits: Vec<u8> = (0..64_800)
            .map(|_| {
                let out = ((reg >> 1) ^ reg) as u8 & 1;
                reg = (reg >> 1) | (u16::from(out) << 14);
                out
            })
            .collect();
        let sequence = bits
            .chunks(8)
            .map(|c| c.iter().fold(0, |a, &b| (a << 1) | b))
            .collect();
        BbScrambler { sequence }
    }

    /// The sequence's first `n` bits (n ≤ 64 800), one per byte.
    pub(crate) fn bits(&self, n: usize) -> Vec<u8> {
        let mut bits = vec![0u8; n.next_multiple_of(8)];
        unpack(&self.sequence[..n.div_ceil(8)], &mut bits);
        bits.truncate(n);
        bits
    }

    /// XORs the sequence into a packed BBFRAME (header included).
    pub(crate) fn apply(&self, bytes: &mut [u8]) {
        for (b, s) in bytes.iter_mut().zip(&self.sequence) {
            *b ^= s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc8_matches_bitwise_definition() {
        // Bit-serial division by x^8+x^7+x^6+x^4+x^2+1 (clause 5.1.4, Figure 2).
        fn slow(data: &[u8]) -> u8 {
            let mut crc = 0u8;
            for &b in data {
                for k in (0..8).rev() {
                    let fb = ((b >> k) & 1) ^ (crc >> 7);
                    crc <<= 1;
                    if fb == 1 {
                        crc ^= 0xD5;
                    }
                }
            }
            crc
        }
        let data: Vec<u8> = (0..300u32).map(|i| (i * 37 + 11) as u8).collect();
        for len in [0, 1, 9, 187, 300] {
            assert_eq!(CRC8.bytes(&data[..len]), slow(&data[..len]));
        }
        assert_ne!(CRC8.bytes(&data[..9]), 0);
    }

    #[test]
    fn generic_continuous_stream_header_and_data() {
        let fec = FecParams::new(crate::FrameSize::Short, crate::CodeRate::R1_2).unwrap();
        let mut adapter = ModeAdapter::new(InputStream::GenericContinuous, RollOff::R035, false);
        let input: Vec<u8> = (0..50u8).collect();
        let mut out = vec![9u8; fec.kbch / 8];
        assert_eq!(adapter.build(&fec, &input, &mut out), Ok(50));
        // MATYPE-1: GS continuous (01), SIS (1), ACM (0), no ISSY/NPD, roll-off 0.35 (00).
        assert_eq!(out[..9], [0b0110_0000, 0, 0, 0, 0x01, 0x90, 0, 0, 0]);
        assert_eq!(out[9], CRC8.bytes(&out[..9]));
        assert_eq!(out[10..60], input[..]);
        assert!(out[60..].iter().all(|&b| b == 0), "padding");
    }

    #[test]
    fn syncd_points_at_the_first_packet_or_says_none() {
        let fec = FecParams::new(crate::FrameSize::Short, crate::CodeRate::R1_4).unwrap();
        let mut adapter = ModeAdapter::new(InputStream::Transport, RollOff::R020, true);
        let ts: Vec<u8> = (0..3 * 188)
            .map(|i| if i % 188 == 0 { TS_SYNC } else { i as u8 })
            .collect();
        let mut out = vec![0u8; fec.kbch / 8];
        let syncd = |out: &[u8]| u16::from_be_bytes([out[7], out[8]]);
        assert_eq!(adapter.build(&fec, &ts[..100], &mut out), Ok(100));
        assert_eq!(syncd(&out), 0);
        // 88 bytes left of packet 0, then packet 1 starts: SYNCD = 88 * 8.
        assert_eq!(adapter.build(&fec, &ts[100..300], &mut out), Ok(200));
        assert_eq!(syncd(&out), 88 * 8);
        // Packet 1's sync byte carries the CRC-8 of packet 0's bytes 1..188.
        assert_eq!(out[10 + 88], CRC8.bytes(&ts[1..188]));
        // 76 bytes left of packet 1 and only 50 given: no packet starts.
        assert_eq!(adapter.build(&fec, &ts[300..350], &mut out), Ok(50));
        assert_eq!(syncd(&out), 0xFFFF);
    }

    #[test]
    fn scrambler_matches_shift_register_of_figure_3() {
        // Cells 1..=15 loaded with 100101010000000; output = cell 14 XOR cell 15, fed to cell 1.
        let mut cells: Vec<u8> = "100101010000000".bytes().map(|c| c - b'0').collect();
        let mut s = vec![0u8; 1000];
        unpack(&BbScrambler::new().sequence[..125], &mut s);
        for (i, &expected) in s.iter().enumerate() {
            let out = cells[13] ^ cells[14];
            assert_eq!(out, expected, "bit {i}");
            cells.rotate_right(1);
            cells[0] = out;
        }
    }
}
