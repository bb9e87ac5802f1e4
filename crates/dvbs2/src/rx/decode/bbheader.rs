//! BBHEADER parsing with its CRC-8 (clause 5.1.6) and BB descrambling (clause 5.2.2).

use thiserror::Error;

use crate::bbframe::{BbScrambler, BBHEADER_BITS, CRC8};

/// Bytes of a BBHEADER.
pub const BBHEADER_BYTES: usize = BBHEADER_BITS / 8;

/// Why a BBHEADER was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BbHeaderError {
    /// The CRC-8 over the first 9 bytes does not match the 10th.
    #[error("BBHEADER CRC-8 mismatch: computed {computed:#04x}, received {received:#04x}")]
    Crc {
        /// CRC-8 of the 9 bytes received.
        computed: u8,
        /// The CRC byte received.
        received: u8,
    },
    /// DFL exceeds the BBFRAME's data field.
    #[error("BBHEADER DFL {dfl} bits exceeds the data field of {max} bits")]
    DataFieldTooLong {
        /// DFL read.
        dfl: u16,
        /// Kbch − 80 of the frame.
        max: usize,
    },
    /// SYNCD points past DFL (and is not 0xFFFF, "no packet starts").
    #[error("BBHEADER SYNCD {syncd} bits lies beyond DFL {dfl}")]
    SyncdBeyondDataField {
        /// SYNCD read.
        syncd: u16,
        /// DFL read.
        dfl: u16,
    },
    /// UPL not a whole number of bytes (this receiver handles byte-aligned packets).
    #[error("BBHEADER UPL {0} bits is not a whole number of bytes")]
    UplNotBytes(u16),
}

/// A parsed BBHEADER (clause 5.1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BbHeader {
    /// MATYPE-1: TS/GS (2 bits), SIS/MIS, CCM/ACM, ISSYI, NPD, RO (2 bits).
    pub matype1: u8,
    /// MATYPE-2: input stream identifier in MIS mode.
    pub matype2: u8,
    /// User packet length in bits; 0 for a continuous stream.
    pub upl: u16,
    /// Data field length in bits.
    pub dfl: u16,
    /// The user packets' sync byte (0x47 for TS).
    pub sync: u8,
    /// Bits from the data field start to the first packet start; 0xFFFF if none starts.
    pub syncd: u16,
}

impl BbHeader {
    /// Parses and checks the first 10 bytes of a descrambled BBFRAME of `kbch` bits.
    ///
    /// # Errors
    /// [`BbHeaderError`] for a CRC mismatch or inconsistent lengths.
    ///
    /// # Panics
    /// If `bytes` is shorter than 10.
    pub fn parse(bytes: &[u8], kbch: usize) -> Result<Self, BbHeaderError> {
        let h = &bytes[..BBHEADER_BYTES];
        let computed = CRC8.bytes(&h[..9]);
        if computed != h[9] {
            return Err(BbHeaderError::Crc {
                computed,
                received: h[9],
            });
        }
        let header = BbHeader {
            matype1: h[0],
            matype2: h[1],
            upl: u16::from_be_bytes([h[2], h[3]]),
            dfl: u16::from_be_bytes([h[4], h[5]]),
            sync: h[6],
            syncd: u16::from_be_bytes([h[7], h[8]]),
        };
        let max = kbch - BBHEADER_BITS;
        if usize::from(header.dfl) > max {
            return Err(BbHeaderError::DataFieldTooLong {
                dfl: header.dfl,
                max,
            });
        }
        if !header.upl.is_multiple_of(8) {
            return Err(BbHeaderError::UplNotBytes(header.upl));
        }
        if header.upl != 0 && header.syncd != 0xFFFF && header.syncd >= header.dfl.max(1) {
            return Err(BbHeaderError::SyncdBeyondDataField {
                syncd: header.syncd,
                dfl: header.dfl,
            });
        }
        Ok(header)
    }

    /// A transport stream (TS/GS = 11).
    pub fn is_transport(&self) -> bool {
        self.matype1 >> 6 == 0b11
    }

    /// CCM (true) or ACM/VCM (false).
    pub fn is_ccm(&self) -> bool {
        self.matype1 & 0x10 != 0
    }
}

/// Removes the BB scrambling of clause 5.2.2 (the same XOR as the transmitter's).
#[derive(Debug, Clone)]
pub struct BbDescrambler {
    scrambler: BbScrambler,
}

impl Default for BbDescrambler {
    fn default() -> Self {
        Self::new()
    }
}

impl BbDescrambler {
    /// The descrambler (its sequence is built once).
    pub fn new() -> Self {
        BbDescrambler {
            scrambler: BbScrambler::new(),
        }
    }

    /// Descrambles a packed BBFRAME (header included) in place.
    pub fn apply(&self, bbframe: &mut [u8]) {
        self.scrambler.apply(bbframe);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bbframe::{InputStream, ModeAdapter, RollOff};
    use crate::modcod::{CodeRate, FecParams, FrameSize};

    #[test]
    fn parses_the_transmitters_header_and_rejects_a_flipped_bit() {
        let fec = FecParams::new(FrameSize::Short, CodeRate::R1_2).unwrap();
        let mut adapter = ModeAdapter::new(InputStream::Transport, RollOff::R020, true);
        let ts: Vec<u8> = (0..2 * 188)
            .map(|i| if i % 188 == 0 { 0x47 } else { i as u8 })
            .collect();
        let mut frame = vec![0u8; fec.kbch / 8];
        adapter.build(&fec, &ts[..100], &mut frame).unwrap();
        let mut scrambled = frame.clone();
        let d = BbDescrambler::new();
        d.apply(&mut scrambled);
        assert_ne!(scrambled, frame);
        d.apply(&mut scrambled);
        assert_eq!(scrambled, frame);
        let h = BbHeader::parse(&frame, fec.kbch).unwrap();
        assert!(h.is_transport() && h.is_ccm());
        assert_eq!((h.upl, h.dfl, h.sync, h.syncd), (188 * 8, 800, 0x47, 0));
        for bit in 0..80 {
            let mut bad = frame.clone();
            bad[bit / 8] ^= 0x80 >> (bit % 8);
            assert!(
                matches!(
                    BbHeader::parse(&bad, fec.kbch),
                    Err(BbHeaderError::Crc { .. })
                ),
                "bit {bit}"
            );
        }
        // A header with a valid CRC but DFL beyond the data field.
        let mut long = frame.clone();
        long[4..6].copy_from_slice(&(fec.kbch as u16).to_be_bytes());
        long[9] = CRC8.bytes(&long[..9]);
        assert_eq!(
            BbHeader::parse(&long, fec.kbch),
            Err(BbHeaderError::DataFieldTooLong {
                dfl: fec.kbch as u16,
                max: fec.kbch - 80
            })
        );
    }
}
