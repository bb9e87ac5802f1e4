//! The transmitter: one BBFRAME in, one PLFRAME of symbols out.

use num_complex::Complex32;
use thiserror::Error;

use crate::bbframe::{unpack, BbScrambler, InputStream, ModeAdapter, RollOff, TsSyncError};
use crate::bch::BchEncoder;
use crate::ldpc::LdpcEncoder;
use crate::mapper::{interleave, Mapper};
use crate::modcod::{FecParams, FrameSize, Modcod, ModcodError};
use crate::plframe::{self, PlScrambler, DUMMY_SLOTS, SLOT};

/// Transmitter settings; [`Transmitter::set_modcod`] changes MODCOD and frame size later.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TxConfig {
    /// MODCOD of the first frame.
    pub modcod: Modcod,
    /// FECFRAME size of the first frame.
    pub frame: FrameSize,
    /// Pilot blocks on (clause 5.5.3).
    pub pilots: bool,
    /// Roll-off signalled in the BBHEADER.
    pub roll_off: RollOff,
    /// Gold code index n of the PL scrambler, 0..=262 141 (clause 5.5.4).
    pub gold: u32,
    /// TS or generic continuous input.
    pub stream: InputStream,
    /// Signal CCM in MATYPE-1; set false (ACM/VCM) when the MODCOD will change between
    /// frames. gr-dtv always signals CCM.
    pub ccm: bool,
}

impl TxConfig {
    /// CCM, TS input, roll-off 0.20, Gold code 0: the settings of the gr-dtv golden data.
    pub fn new(modcod: Modcod, frame: FrameSize, pilots: bool) -> Self {
        TxConfig {
            modcod,
            frame,
            pilots,
            roll_off: RollOff::R020,
            gold: 0,
            stream: InputStream::Transport,
            ccm: true,
        }
    }
}

/// Why the transmitter could not be built or could not encode a frame.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TxError {
    /// The MODCOD and frame size are not a pair of the standard.
    #[error(transparent)]
    Modcod(#[from] ModcodError),
    /// Gold code index out of 0..=262 141.
    #[error("Gold code index {0} out of range 0..=262141")]
    Gold(u32),
    /// The output slice does not have the PLFRAME's length.
    #[error("output holds {got} symbols, the PLFRAME has {need}")]
    OutputLength {
        /// Symbols in the PLFRAME.
        need: usize,
        /// Length of the slice given.
        got: usize,
    },
    /// A TS packet did not start with 0x47.
    #[error(transparent)]
    TsSync(#[from] TsSyncError),
    /// A VCM schedule entry could not be parsed.
    #[error("bad schedule entry {0}")]
    Schedule(String),
}

/// One MODCOD's encoders, built once and kept for VCM/ACM switching.
#[derive(Clone)]
struct Code {
    modcod: Modcod,
    fec: FecParams,
    bch: BchEncoder,
    ldpc: LdpcEncoder,
    mapper: Mapper,
}

/// What one call of [`Transmitter::encode_frame`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameInfo {
    /// Input bytes consumed (at most [`Transmitter::max_input`]; fewer means padding).
    pub consumed: usize,
    /// Symbols written (the PLFRAME length).
    pub symbols: usize,
}

/// DVB-S2 transmitter from bytes to PL-scrambled symbols, one PLFRAME per call, without
/// allocating per frame. Cloning gives an independent encoder (same settings and state).
#[derive(Clone)]
pub struct Transmitter {
    cfg: TxConfig,
    adapter: ModeAdapter,
    bb_scrambler: BbScrambler,
    pl_scrambler: PlScrambler,
    /// Encoders of the MODCODs used so far; the current one is `codes[current]`.
    codes: Vec<Code>,
    current: usize,
    /// Packed BCH codeword: BBFRAME, then BCH parity.
    bch_bytes: Vec<u8>,
    /// FECFRAME bits, one per byte: BCH codeword, then LDPC parity.
    fec_bits: Vec<u8>,
    labels: Vec<u8>,
    symbols: Vec<Complex32>,
}

impl Transmitter {
    /// Builds the encoders of `cfg`'s MODCOD and the scramblers (the PL one for `cfg.gold`).
    ///
    /// # Errors
    /// [`TxError::Modcod`] for 9/10 short, [`TxError::Gold`] for an index out of range.
    pub fn new(cfg: TxConfig) -> Result<Self, TxError> {
        if cfg.gold > 262_141 {
            return Err(TxError::Gold(cfg.gold));
        }
        let mut tx = Transmitter {
            cfg,
            adapter: ModeAdapter::new(cfg.stream, cfg.roll_off, cfg.ccm),
            bb_scrambler: BbScrambler::new(),
            pl_scrambler: PlScrambler::new(cfg.gold),
            codes: Vec::new(),
            current: 0,
            bch_bytes: vec![0; 64_800 / 8],
            fec_bits: vec![0; 64_800],
            labels: vec![0; 64_800 / 2],
            symbols: vec![Complex32::new(0.0, 0.0); 64_800 / 2],
        };
        tx.set_modcod(cfg.modcod, cfg.frame)?;
        Ok(tx)
    }

    /// Uses `modcod` and `frame` from the next frame on (VCM/ACM). The first use of a MODCOD
    /// builds its encoders (allocates); later switches back to it do not.
    ///
    /// # Errors
    /// [`TxError::Modcod`] for 9/10 short; the transmitter then keeps its MODCOD.
    pub fn set_modcod(&mut self, modcod: Modcod, frame: FrameSize) -> Result<(), TxError> {
        let fec = modcod.fec(frame)?;
        self.current = match self
            .codes
            .iter()
            .position(|c| c.modcod == modcod && c.fec.frame == frame)
        {
            Some(i) => i,
            None => {
                self.codes.push(Code {
                    modcod,
                    fec,
                    bch: BchEncoder::new(&fec),
                    ldpc: LdpcEncoder::new(&fec),
                    mapper: Mapper::new(modcod),
                });
                self.codes.len() - 1
            }
        };
        self.cfg.modcod = modcod;
        self.cfg.frame = frame;
        Ok(())
    }

    /// Turns pilots on or off from the next frame on.
    pub fn set_pilots(&mut self, on: bool) {
        self.cfg.pilots = on;
    }

    /// The current settings.
    pub fn config(&self) -> &TxConfig {
        &self.cfg
    }

    /// Input bytes one frame consumes when enough are given: (Kbch − 80) / 8.
    pub fn max_input(&self) -> usize {
        ModeAdapter::max_input(&self.codes[self.current].fec)
    }

    /// Symbols of the next PLFRAME.
    pub fn frame_len(&self) -> usize {
        let code = &self.codes[self.current];
        let slots = code.fec.nldpc / code.modcod.constellation().bits_per_symbol() / SLOT;
        plframe::plframe_len(slots, self.cfg.pilots)
    }

    /// Symbols of a dummy PLFRAME (clause 5.5.1).
    pub const DUMMY_LEN: usize = SLOT + DUMMY_SLOTS * SLOT;

    /// Encodes one PLFRAME from up to [`max_input`](Self::max_input) bytes of `input` into
    /// `out`, which must be [`frame_len`](Self::frame_len) long. Input shorter than a full data
    /// field is padded (clause 5.2.1). TS input must continue the previous call's packet
    /// position; its sync bytes are checked.
    ///
    /// # Errors
    /// [`TxError::OutputLength`] or [`TxError::TsSync`]; nothing is consumed then.
    pub fn encode_frame(
        &mut self,
        input: &[u8],
        out: &mut [Complex32],
    ) -> Result<FrameInfo, TxError> {
        let need = self.frame_len();
        if out.len() != need {
            return Err(TxError::OutputLength {
                need,
                got: out.len(),
            });
        }
        let consumed = self.encode_fec(input)?;
        let code = &self.codes[self.current];
        let nsym = code.fec.nldpc / code.modcod.constellation().bits_per_symbol();
        interleave(
            code.modcod,
            &self.fec_bits[..code.fec.nldpc],
            &mut self.labels,
        );
        code.mapper
            .map(&self.labels[..nsym], &mut self.symbols[..nsym]);
        let mut header = [Complex32::new(0.0, 0.0); SLOT];
        let short = code.fec.frame == FrameSize::Short;
        plframe::plheader(
            code.modcod.pls_modcod(),
            short,
            self.cfg.pilots,
            &mut header,
        );
        plframe::assemble(&header, &self.symbols[..nsym], self.cfg.pilots, out);
        self.pl_scrambler.apply(&mut out[SLOT..]);
        Ok(FrameInfo {
            consumed,
            symbols: need,
        })
    }

    /// Writes a dummy PLFRAME of [`DUMMY_LEN`](Self::DUMMY_LEN) symbols (clause 5.5.1).
    ///
    /// # Errors
    /// [`TxError::OutputLength`] if `out` is not `DUMMY_LEN` long.
    pub fn dummy_frame(&self, out: &mut [Complex32]) -> Result<(), TxError> {
        if out.len() != Self::DUMMY_LEN {
            return Err(TxError::OutputLength {
                need: Self::DUMMY_LEN,
                got: out.len(),
            });
        }
        plframe::dummy(out);
        self.pl_scrambler.apply(&mut out[SLOT..]);
        Ok(())
    }

    /// Mode adaptation, BB scrambling, BCH and LDPC into `fec_bits`; returns bytes consumed.
    fn encode_fec(&mut self, input: &[u8]) -> Result<usize, TxError> {
        let code = &mut self.codes[self.current];
        let fec = code.fec;
        let bytes = &mut self.bch_bytes[..fec.nbch / 8];
        let consumed = self.adapter.build(&fec, input, bytes)?;
        self.bb_scrambler.apply(&mut bytes[..fec.kbch / 8]);
        code.bch.encode(bytes, fec.kbch);
        unpack(bytes, &mut self.fec_bits[..fec.nbch]);
        code.ldpc.encode(&mut self.fec_bits[..fec.nldpc]);
        Ok(consumed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(npackets: usize) -> Vec<u8> {
        (0..npackets * 188)
            .map(|i| {
                if i % 188 == 0 {
                    0x47
                } else {
                    (i * 7 + 3) as u8
                }
            })
            .collect()
    }

    #[test]
    fn vcm_switches_modcod_between_frames_and_back() {
        let mut tx = Transmitter::new(TxConfig::new(
            "qpsk-1/2".parse().unwrap(),
            FrameSize::Short,
            true,
        ))
        .unwrap();
        let input = ts(200);
        let mut pos = 0;
        let mut run = |tx: &mut Transmitter| {
            let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            let info = tx.encode_frame(&input[pos..], &mut out).unwrap();
            pos += info.consumed;
            (info, out)
        };
        let (a, _) = run(&mut tx);
        tx.set_modcod("32apsk-9/10".parse().unwrap(), FrameSize::Normal)
            .unwrap();
        let (b, _) = run(&mut tx);
        assert_eq!(a.consumed, (7032 - 80) / 8);
        assert_eq!(b.consumed, (58192 - 80) / 8);
        assert_eq!(b.symbols, 90 + 12960 + (144 - 1) / 16 * 36);
        tx.set_modcod("qpsk-1/2".parse().unwrap(), FrameSize::Short)
            .unwrap();
        tx.set_pilots(false);
        assert_eq!(tx.frame_len(), 90 + 8100);
        assert_eq!(tx.codes.len(), 2);
        assert!(tx
            .set_modcod("qpsk-9/10".parse().unwrap(), FrameSize::Short)
            .is_err());
        assert_eq!(tx.config().modcod.to_string(), "qpsk-1/2");
    }

    #[test]
    fn short_input_is_padded_and_bad_sync_is_rejected_without_consuming() {
        let mut tx = Transmitter::new(TxConfig::new(
            "qpsk-1/4".parse().unwrap(),
            FrameSize::Short,
            false,
        ))
        .unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        let mut input = ts(3);
        input[188] = 0x00;
        let err = tx.encode_frame(&input, &mut out).unwrap_err();
        assert_eq!(
            err,
            TxError::TsSync(TsSyncError {
                offset: 188,
                found: 0
            })
        );
        let info = tx.encode_frame(&input[..100], &mut out).unwrap();
        assert_eq!(info.consumed, 100);
        // DFL (header bytes 4..6) = 800 bits: undo the BB scrambling to read it.
        let mut bb = tx.bch_bytes[..10].to_vec();
        tx.bb_scrambler.apply(&mut bb);
        assert_eq!(u16::from_be_bytes([bb[4], bb[5]]), 800);
        let mut small = vec![Complex32::new(0.0, 0.0); 10];
        assert!(matches!(
            tx.encode_frame(&input, &mut small),
            Err(TxError::OutputLength { .. })
        ));
    }

    #[test]
    fn dummy_frame_is_scrambled_unmodulated_carrier() {
        let tx = Transmitter::new(TxConfig::new(
            "qpsk-1/4".parse().unwrap(),
            FrameSize::Short,
            false,
        ))
        .unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); Transmitter::DUMMY_LEN];
        tx.dummy_frame(&mut out).unwrap();
        assert!(out.iter().all(|s| (s.norm() - 1.0).abs() < 1e-6));
        // Scrambling rotates the carrier by multiples of π/2, so not all payload symbols agree.
        assert!(out[SLOT..].iter().any(|s| (s - out[SLOT]).norm() > 0.1));
        assert!(Transmitter::new(TxConfig {
            gold: 262_142,
            ..*tx.config()
        })
        .is_err());
    }

    #[test]
    fn clones_encode_identically() {
        let mut a = Transmitter::new(TxConfig::new(
            "8psk-3/5".parse().unwrap(),
            FrameSize::Short,
            true,
        ))
        .unwrap();
        let mut b = a.clone();
        let input = ts(100);
        let mut oa = vec![Complex32::new(0.0, 0.0); a.frame_len()];
        let mut ob = oa.clone();
        a.encode_frame(&input, &mut oa).unwrap();
        b.encode_frame(&input, &mut ob).unwrap();
        assert_eq!(oa, ob);
    }
}
