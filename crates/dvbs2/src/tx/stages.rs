//! The transmitter cut into stages for framed execution (one concept: the cut). Each stage
//! owns its state and passes the next one a buffer and a [`FrameSpec`]:
//!
//! 1. [`BbFramer`] (sequential: the TS packet position and CRC-8 carry over, and it decides
//!    each frame's MODCOD): mode adaptation, BBHEADER, padding, BB scrambling → BBFRAME bytes.
//! 2. [`FecEncoder`] (cloneable, no state between frames): BCH and LDPC → FECFRAME bits.
//! 3. [`PlFramer`] (cloneable, no state between frames): bit interleaving, mapping, PLHEADER,
//!    pilots, PL scrambling → PLFRAME symbols.
//! 4. [`Shaper`](crate::Shaper) (sequential: filter history).
//!
//! Stages 2 and 3 can be duplicated on several threads (sequence duplication); their output is
//! the same as [`Transmitter`](crate::Transmitter)'s.

use num_complex::Complex32;

use crate::bbframe::{unpack, BbScrambler, ModeAdapter};
use crate::bch::BchEncoder;
use crate::ldpc::LdpcEncoder;
use crate::mapper::{interleave, Mapper};
use crate::modcod::{FecParams, FrameSize, Modcod};
use crate::plframe::{self, PlScrambler, SLOT};
use crate::tx::frame_spec::FrameSpec;
use crate::tx::transmitter::{TxConfig, TxError};
use crate::tx::vcm_schedule::Schedule;

/// Largest BBFRAME in bytes (Kbch of 9/10 normal / 8).
pub const MAX_BBFRAME_BYTES: usize = 58_192 / 8;
/// Largest FECFRAME in bits.
pub const MAX_FECFRAME_BITS: usize = 64_800;
/// Largest PLFRAME in symbols (QPSK normal with pilots).
pub const MAX_PLFRAME: usize = SLOT + 64_800 / 2 + (64_800 / 2 / SLOT - 1) / 16 * 36;

/// Stage 1: bytes in, scrambled BBFRAMEs out, and the MODCOD of each frame (from the
/// configuration, a [`Schedule`], or [`set_next`](Self::set_next)).
#[derive(Debug, Clone)]
pub struct BbFramer {
    adapter: ModeAdapter,
    scrambler: BbScrambler,
    next: FrameSpec,
    fec: FecParams,
    schedule: Schedule,
    frame_index: u64,
}

impl BbFramer {
    /// A framer starting with `cfg`'s MODCOD, frame size and pilots.
    ///
    /// # Errors
    /// A MODCOD/frame pair the standard does not define.
    pub fn new(cfg: &TxConfig) -> Result<Self, TxError> {
        let next = FrameSpec {
            modcod: cfg.modcod,
            frame: cfg.frame,
            pilots: cfg.pilots,
        };
        Ok(BbFramer {
            adapter: ModeAdapter::new(cfg.stream, cfg.roll_off, cfg.ccm),
            scrambler: BbScrambler::new(),
            fec: next.fec()?,
            next,
            schedule: Schedule::default(),
            frame_index: 0,
        })
    }

    /// Follows `schedule` from now on (its entries are frame indices counted from the first
    /// frame this framer made).
    pub fn set_schedule(&mut self, schedule: Schedule) {
        self.schedule = schedule;
    }

    /// Uses `spec` from the next frame on (ACM/VCM).
    ///
    /// # Errors
    /// A MODCOD/frame pair the standard does not define; the framer then keeps its spec.
    pub fn set_next(&mut self, spec: FrameSpec) -> Result<(), TxError> {
        self.fec = spec.fec()?;
        self.next = spec;
        Ok(())
    }

    /// The spec of the next frame (after the schedule entry for it, if any, is applied).
    pub fn next_spec(&mut self) -> FrameSpec {
        if let Some(spec) = self.schedule.at(self.frame_index) {
            // Schedule entries are checked when the schedule is built.
            if let Ok(fec) = spec.fec() {
                self.next = spec;
                self.fec = fec;
            }
        }
        self.next
    }

    /// Input bytes the next frame takes when enough are given.
    pub fn max_input(&mut self) -> usize {
        self.next_spec();
        ModeAdapter::max_input(&self.fec)
    }

    /// Frames made so far.
    pub fn frames(&self) -> u64 {
        self.frame_index
    }

    /// Writes the next BBFRAME (Kbch/8 bytes) into `out[..]` from at most
    /// [`max_input`](Self::max_input) bytes of `input`, padding a shorter input. Returns the
    /// frame's spec and the input bytes consumed.
    ///
    /// # Errors
    /// [`TxError::TsSync`] (nothing consumed); [`TxError::OutputLength`] if `out` is shorter
    /// than Kbch/8.
    pub fn frame(&mut self, input: &[u8], out: &mut [u8]) -> Result<(FrameSpec, usize), TxError> {
        let spec = self.next_spec();
        let need = self.fec.kbch / 8;
        if out.len() < need {
            return Err(TxError::OutputLength {
                need,
                got: out.len(),
            });
        }
        let consumed = self.adapter.build(&self.fec, input, out)?;
        self.scrambler.apply(&mut out[..need]);
        self.frame_index += 1;
        Ok((spec, consumed))
    }
}

#[derive(Clone)]
struct FecCode {
    fec: FecParams,
    bch: BchEncoder,
    ldpc: LdpcEncoder,
}

/// Stage 2: BCH and LDPC encoding of a scrambled BBFRAME into FECFRAME bits (one per byte).
/// Keeps the encoders of every code used so far; no state between frames, so clones may
/// encode different frames in parallel.
#[derive(Clone, Default)]
pub struct FecEncoder {
    codes: Vec<FecCode>,
    bytes: Vec<u8>,
}

impl FecEncoder {
    /// An encoder with no code built yet (the first frame of each code builds it).
    pub fn new() -> Self {
        FecEncoder {
            codes: Vec::new(),
            bytes: vec![0; MAX_FECFRAME_BITS / 8],
        }
    }

    /// Encodes `bb` (at least Kbch/8 bytes) into `bits[..Nldpc]`; returns Nldpc.
    ///
    /// # Errors
    /// [`TxError::OutputLength`] if `bits` or `bb` is too short, or the spec's pair is not
    /// defined.
    pub fn encode(
        &mut self,
        spec: &FrameSpec,
        bb: &[u8],
        bits: &mut [u8],
    ) -> Result<usize, TxError> {
        let fec = spec.fec()?;
        if bits.len() < fec.nldpc || bb.len() < fec.kbch / 8 {
            return Err(TxError::OutputLength {
                need: fec.nldpc,
                got: bits.len().min(bb.len() * 8),
            });
        }
        if self.bytes.len() < fec.nbch / 8 {
            self.bytes.resize(MAX_FECFRAME_BITS / 8, 0);
        }
        let i = match self.codes.iter().position(|c| c.fec == fec) {
            Some(i) => i,
            None => {
                self.codes.push(FecCode {
                    fec,
                    bch: BchEncoder::new(&fec),
                    ldpc: LdpcEncoder::new(&fec),
                });
                self.codes.len() - 1
            }
        };
        let code = &mut self.codes[i];
        let bytes = &mut self.bytes[..fec.nbch / 8];
        bytes[..fec.kbch / 8].copy_from_slice(&bb[..fec.kbch / 8]);
        code.bch.encode(bytes, fec.kbch);
        unpack(bytes, &mut bits[..fec.nbch]);
        code.ldpc.encode(&mut bits[..fec.nldpc]);
        Ok(fec.nldpc)
    }
}

/// Stage 3: interleaving, mapping and PL framing of FECFRAME bits into a PLFRAME. No state
/// between frames, so clones may frame different frames in parallel.
///
/// Mapping, pilot insertion and PL scrambling are one pass: the scrambler rotates by a
/// multiple of π/2, so each symbol is read from the constellation rotated by R_n
/// (`rotated[R_n][label]`), which is exact (a swap and sign changes, as the scrambler does).
#[derive(Clone)]
pub struct PlFramer {
    /// Per MODCOD used so far: its points under the 4 rotations.
    tables: Vec<(Modcod, Box<[[Complex32; 32]; 4]>)>,
    scrambler: PlScrambler,
    labels: Vec<u8>,
}

impl PlFramer {
    /// A framer scrambling with Gold code `gold`.
    ///
    /// # Errors
    /// [`TxError::Gold`] for an index above 262 141.
    pub fn new(gold: u32) -> Result<Self, TxError> {
        if gold > 262_141 {
            return Err(TxError::Gold(gold));
        }
        Ok(PlFramer {
            tables: Vec::new(),
            scrambler: PlScrambler::new(gold),
            labels: vec![0; MAX_FECFRAME_BITS / 2],
        })
    }

    /// Frames `bits[..Nldpc]` into `out[..len]`; returns the PLFRAME length `len`.
    ///
    /// # Errors
    /// [`TxError::OutputLength`] if `out` is shorter than the PLFRAME, or the spec's pair is
    /// not defined.
    pub fn frame(
        &mut self,
        spec: &FrameSpec,
        bits: &[u8],
        out: &mut [Complex32],
    ) -> Result<usize, TxError> {
        let fec = spec.fec()?;
        let len = spec.plframe_len()?;
        if out.len() < len || bits.len() < fec.nldpc {
            return Err(TxError::OutputLength {
                need: len,
                got: out.len(),
            });
        }
        let i = match self.tables.iter().position(|(m, _)| *m == spec.modcod) {
            Some(i) => i,
            None => {
                let points = *Mapper::new(spec.modcod).points();
                let mut t = Box::new([[Complex32::new(0.0, 0.0); 32]; 4]);
                for (r, row) in t.iter_mut().enumerate() {
                    for (o, &p) in row.iter_mut().zip(&points) {
                        *o = PlScrambler::rotate(p, r as u8);
                    }
                }
                self.tables.push((spec.modcod, t));
                self.tables.len() - 1
            }
        };
        let table = &self.tables[i].1;
        let nsym = fec.nldpc / spec.modcod.constellation().bits_per_symbol();
        interleave(spec.modcod, &bits[..fec.nldpc], &mut self.labels);
        let mut header = [Complex32::new(0.0, 0.0); SLOT];
        plframe::plheader(
            spec.modcod.pls_modcod(),
            spec.frame == FrameSize::Short,
            spec.pilots,
            &mut header,
        );
        let out = &mut out[..len];
        out[..SLOT].copy_from_slice(&header);
        let pilot = plframe::unmodulated();
        let pilots: [Complex32; 4] = std::array::from_fn(|r| PlScrambler::rotate(pilot, r as u8));
        let r = &self.scrambler.sequence()[..len - SLOT];
        let (mut pos, mut n) = (SLOT, 0);
        let nblocks = nsym.div_ceil(16 * SLOT);
        for (b, block) in self.labels[..nsym].chunks(16 * SLOT).enumerate() {
            let k = block.len();
            for ((o, &l), &rn) in out[pos..pos + k].iter_mut().zip(block).zip(&r[n..n + k]) {
                *o = table[usize::from(rn & 3)][usize::from(l & 31)];
            }
            pos += k;
            n += k;
            if spec.pilots && b + 1 < nblocks {
                let p = plframe::PILOT_BLOCK;
                for (o, &rn) in out[pos..pos + p].iter_mut().zip(&r[n..n + p]) {
                    *o = pilots[usize::from(rn & 3)];
                }
                pos += p;
                n += p;
            }
        }
        debug_assert_eq!(pos, len);
        Ok(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tx::transmitter::Transmitter;

    fn ts(npackets: usize) -> Vec<u8> {
        (0..npackets * 188)
            .map(|i| {
                if i % 188 == 0 {
                    0x47
                } else {
                    (i * 13 + 5) as u8
                }
            })
            .collect()
    }

    /// The three stages, frame after frame with MODCOD changes, give the transmitter's
    /// symbols exactly.
    #[test]
    fn stages_equal_the_transmitter_across_modcod_changes() {
        let mut cfg = TxConfig::new("qpsk-8/9".parse().unwrap(), FrameSize::Short, true);
        cfg.ccm = false;
        let mut tx = Transmitter::new(cfg).unwrap();
        let mut bbf = BbFramer::new(&cfg).unwrap();
        let (mut fec, mut pl) = (FecEncoder::new(), PlFramer::new(0).unwrap());
        let input = ts(400);
        let (mut a, mut b) = (0, 0);
        let specs = [
            ("qpsk-8/9", FrameSize::Short, true),
            ("8psk-3/5", FrameSize::Normal, false),
            ("32apsk-9/10", FrameSize::Normal, true),
            ("qpsk-8/9", FrameSize::Short, true),
            ("16apsk-2/3", FrameSize::Short, false),
        ];
        let mut bb = vec![0u8; MAX_BBFRAME_BYTES];
        let mut bits = vec![0u8; MAX_FECFRAME_BITS];
        let mut got = vec![Complex32::new(0.0, 0.0); MAX_PLFRAME];
        for (m, f, p) in specs {
            let spec = FrameSpec {
                modcod: m.parse().unwrap(),
                frame: f,
                pilots: p,
            };
            tx.set_modcod(spec.modcod, f).unwrap();
            tx.set_pilots(p);
            bbf.set_next(spec).unwrap();
            let mut want = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            a += tx.encode_frame(&input[a..], &mut want).unwrap().consumed;
            let (s, used) = bbf.frame(&input[b..], &mut bb).unwrap();
            b += used;
            assert_eq!(s, spec);
            assert_eq!(FrameSpec::from_words(s.to_words()), Some(s));
            let n = fec.encode(&s, &bb, &mut bits).unwrap();
            assert_eq!(n, f.nldpc());
            let len = pl.frame(&s, &bits, &mut got).unwrap();
            assert_eq!(len, want.len());
            assert_eq!(&got[..len], &want[..], "{m} {f:?}");
            assert_eq!(a, b);
        }
        assert_eq!(
            FrameSpec {
                modcod: "qpsk-1/4".parse().unwrap(),
                frame: FrameSize::Normal,
                pilots: true
            }
            .plframe_len()
            .unwrap(),
            MAX_PLFRAME
        );
    }

    fn spec(m: &str, frame: FrameSize, pilots: bool) -> FrameSpec {
        FrameSpec {
            modcod: m.parse().unwrap(),
            frame,
            pilots,
        }
    }

    #[test]
    fn frames_switch_exactly_at_the_scheduled_indices() {
        let s = Schedule::parse(
            "3:8psk-3/5:normal:off, 5:32apsk-9/10:normal, 6:qpsk-1/4",
            FrameSize::Short,
            true,
        )
        .unwrap();
        let mut cfg = TxConfig::new("qpsk-8/9".parse().unwrap(), FrameSize::Short, true);
        cfg.ccm = false;
        let mut f = BbFramer::new(&cfg).unwrap();
        f.set_schedule(s);
        let input: Vec<u8> = (0..2000 * 188)
            .map(|i| if i % 188 == 0 { 0x47 } else { i as u8 })
            .collect();
        let mut bb = vec![0u8; crate::MAX_BBFRAME_BYTES];
        let (mut pos, mut got) = (0, Vec::new());
        for _ in 0..8 {
            let (spec, used) = f.frame(&input[pos..], &mut bb).unwrap();
            pos += used;
            got.push(spec);
        }
        let q = spec("qpsk-8/9", FrameSize::Short, true);
        let e = spec("8psk-3/5", FrameSize::Normal, false);
        let a = spec("32apsk-9/10", FrameSize::Normal, true);
        let l = spec("qpsk-1/4", FrameSize::Short, true);
        assert_eq!(got, [q, q, q, e, e, a, l, l]);
        assert_eq!(f.frames(), 8);
    }
}
