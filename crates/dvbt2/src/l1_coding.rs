//! [`L1Coding`]: L1-pre's and L1-post's error correction and modulation (ETSI EN 302 755
//! clause 7.3): shortened BCH, shortened and punctured 16K LDPC (DVB-S2's codes, from
//! `radioflow-dvbs2`), L1-post's bit interleaving and QAM mapping, as gr-dtv's frame mapper
//! does them.

use crate::l1_signalling::{POST_BITS, PRE_BITS};
use crate::prbs::Prbs;
use num_complex::Complex32;
use radioflow_dvbs2::{CodeRate, Constellation, FecEncoder, FrameSize, FrameSpec, Modcod};

/// L1-pre's cells (N_L1pre = 1840, BPSK).
pub(crate) const PRE_CELLS: usize = 1840;
/// BCH parity bits of a short FECFRAME.
const BCH_PARITY: usize = 168;
/// L1-pre's code: 16K LDPC 1/4 (K_bch 3072, 36 parity groups).
const PRE_KBCH: usize = 3072;
const PRE_NBCH: usize = 3240;
/// L1-post's code: 16K LDPC 1/2 (K_bch 7032, 25 parity groups).
const POST_KBCH: usize = 7032;
const POST_NBCH: usize = 7200;
const NLDPC: usize = 16200;
/// L1-pre's punctured parity bits (clause 7.3.1.4: 31 groups of 360 and 328).
const PRE_PUNCTURED: usize = 11488;

/// The order L1-pre's parity groups are punctured in (clause 7.3.1.4's table for L1-pre).
const PRE_PUNCTURE: [usize; 36] = [
    27, 13, 29, 32, 5, 0, 11, 21, 33, 20, 25, 28, 18, 35, 8, 3, 9, 31, 22, 24, 7, 14, 17, 4, 2, 26,
    16, 34, 19, 10, 12, 23, 1, 6, 30, 15,
];

/// The order L1-post's BCH information groups are padded in, for BPSK and QPSK, 16-QAM,
/// 64-QAM (clause 7.3.1.2's table).
const POST_PADDING: [[usize; 20]; 3] = [
    [
        18, 17, 16, 15, 14, 13, 12, 11, 4, 10, 9, 8, 3, 2, 7, 6, 5, 1, 19, 0,
    ],
    [
        18, 17, 16, 15, 14, 13, 12, 11, 4, 10, 9, 8, 7, 3, 2, 1, 6, 5, 19, 0,
    ],
    [
        18, 17, 16, 4, 15, 14, 13, 12, 3, 11, 10, 9, 2, 8, 7, 1, 6, 5, 19, 0,
    ],
];

/// The order L1-post's parity groups are punctured in, for BPSK and QPSK, 16-QAM, 64-QAM
/// (clause 7.3.1.4's table for L1-post).
const POST_PUNCTURE: [[usize; 25]; 3] = [
    [
        6, 4, 18, 9, 13, 8, 15, 20, 5, 17, 2, 24, 10, 22, 12, 3, 16, 23, 1, 14, 0, 21, 19, 7, 11,
    ],
    [
        6, 4, 13, 9, 18, 8, 15, 20, 5, 17, 2, 22, 24, 7, 12, 1, 16, 23, 14, 0, 21, 10, 19, 11, 3,
    ],
    [
        6, 15, 13, 10, 3, 17, 21, 8, 5, 19, 2, 23, 16, 24, 7, 18, 1, 12, 20, 0, 4, 14, 9, 11, 22,
    ],
];

/// The bit-to-cell demultiplexing of L1-post's 16-QAM and 64-QAM (clause 7.3.1.6): the bit
/// of each group of 2 η_MOD that becomes the cell word's k-th bit.
const DEMUX_16QAM: [usize; 8] = [7, 1, 3, 5, 2, 4, 6, 0];
const DEMUX_64QAM: [usize; 12] = [11, 8, 5, 2, 10, 7, 4, 1, 9, 6, 3, 0];

/// L1's constellations (L1_MOD).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum L1Mod {
    Bpsk,
    Qpsk,
    Qam16,
    Qam64,
}

impl L1Mod {
    /// Bits per cell, η_MOD.
    pub(crate) fn bits(self) -> usize {
        match self {
            L1Mod::Bpsk => 1,
            L1Mod::Qpsk => 2,
            L1Mod::Qam16 => 4,
            L1Mod::Qam64 => 6,
        }
    }

    /// The L1_MOD field's code.
    pub(crate) fn code(self) -> u32 {
        match self {
            L1Mod::Bpsk => 0,
            L1Mod::Qpsk => 1,
            L1Mod::Qam16 => 2,
            L1Mod::Qam64 => 3,
        }
    }

    /// The index of the padding and puncturing tables.
    fn table(self) -> usize {
        match self {
            L1Mod::Bpsk | L1Mod::Qpsk => 0,
            L1Mod::Qam16 => 1,
            L1Mod::Qam64 => 2,
        }
    }

    /// The cell of the η_MOD bits `word` (first bit highest), as gr-dtv computes it (in
    /// double precision, then single): Gray-mapped, the real part from the even bits
    /// (clause 7.2.3.2's constellations of clause 6.2).
    fn cell(self, word: usize) -> Complex32 {
        // Levels by the Gray code of the bits of one axis (first bit highest).
        let axis = |bits: usize, n: u32| -> f64 {
            match n {
                1 => [1.0, -1.0][bits],
                2 => [3.0, 1.0, -3.0, -1.0][bits],
                _ => [7.0, 5.0, 1.0, 3.0, -7.0, -5.0, -1.0, -3.0][bits],
            }
        };
        let (re, im, norm) = match self {
            L1Mod::Bpsk => return Complex32::new([1.0, -1.0][word], 0.0),
            L1Mod::Qpsk => (axis(word >> 1, 1), axis(word & 1, 1), 2f64.sqrt()),
            L1Mod::Qam16 => {
                let re = ((word >> 2) & 2) | ((word >> 1) & 1);
                let im = ((word >> 1) & 2) | (word & 1);
                (axis(re, 2), axis(im, 2), 10f64.sqrt())
            }
            L1Mod::Qam64 => {
                let re = ((word >> 3) & 4) | ((word >> 2) & 2) | ((word >> 1) & 1);
                let im = ((word >> 2) & 4) | ((word >> 1) & 2) | (word & 1);
                (axis(re, 3), axis(im, 3), 42f64.sqrt())
            }
        };
        Complex32::new((re / norm) as f32, (im / norm) as f32)
    }
}

/// L1's encoders for one T2 frame layout: L1-post's size follows from its constellation and
/// the P2 symbols it is spread over.
pub(crate) struct L1Coding {
    fec: FecEncoder,
    modulation: L1Mod,
    scrambled: bool,
    /// L1-post's coded bits, N_L1post (clause 7.3.1.4).
    post_bits: usize,
    /// L1-post's punctured parity bits, N_punc.
    post_punctured: usize,
    /// A codeword's bits.
    word: Vec<u8>,
}

/// `bits` packed 8 to a byte, first bit highest.
fn pack(bits: &[u8]) -> Vec<u8> {
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |a, (k, &b)| a | (b << (7 - k)))
        })
        .collect()
}

/// Marks punctured parity bits (`true`): the first `n` bits of the groups of 360 taken in
/// `order` (group g holds parity bits g, g + q, g + 2q, ...; q = the number of groups).
fn punctured(order: &[usize], n: usize) -> Vec<bool> {
    let q = order.len();
    let mut out = vec![false; 360 * q];
    for k in 0..n {
        out[(k % 360) * q + order[k / 360]] = true;
    }
    out
}

impl L1Coding {
    /// The encoders of L1 in `modulation`, L1-post over `p2_symbols` P2 symbols, scrambled
    /// or not (version 1.3.1's L1_POST_SCRAMBLED).
    pub(crate) fn new(modulation: L1Mod, p2_symbols: usize, scrambled: bool) -> Self {
        let eta = modulation.bits();
        // Clause 7.3.1.4: the parity bits punctured for rate 1/2's L1-post, then N_L1post
        // rounded up to a multiple of η_MOD N_P2 (2 η_MOD with one P2 symbol), the bits
        // added taken back from the puncturing.
        let punc_temp = 6 * (POST_KBCH - POST_BITS) / 5;
        let post_temp = POST_BITS + BCH_PARITY + (NLDPC - POST_NBCH) - punc_temp;
        let step = if p2_symbols == 1 {
            2 * eta
        } else {
            eta * p2_symbols
        };
        let post_bits = post_temp.div_ceil(step) * step;
        Self {
            fec: FecEncoder::new(),
            modulation,
            scrambled,
            post_bits,
            post_punctured: punc_temp - (post_bits - post_temp),
            word: vec![0; NLDPC],
        }
    }

    /// L1-post's cells, N_L1post / η_MOD.
    pub(crate) fn post_cells(&self) -> usize {
        self.post_bits / self.modulation.bits()
    }

    /// Encodes the `info` bits (K_bch or fewer, zeros after) with the code of `rate`.
    fn encode(&mut self, rate: CodeRate, kbch: usize, info: &[u8]) {
        let spec = FrameSpec {
            modcod: Modcod::new(Constellation::Qpsk, rate).expect("QPSK 1/4 and 1/2 exist"),
            frame: FrameSize::Short,
            pilots: false,
        };
        let mut message = vec![0u8; kbch];
        message[..info.len()].copy_from_slice(info);
        self.fec
            .encode(&spec, &pack(&message), &mut self.word)
            .expect("the buffer holds a short FECFRAME");
    }

    /// L1-pre's 1840 BPSK cells of its 200 bits: BCH information zero-padded after the bits
    /// (clause 7.3.1.2), 16K LDPC 1/4, 11 488 parity bits punctured, the padding removed.
    pub(crate) fn pre(&mut self, bits: &[u8]) -> Vec<Complex32> {
        debug_assert_eq!(bits.len(), PRE_BITS);
        self.encode(CodeRate::R1_4, PRE_KBCH, bits);
        let w = &self.word;
        let gone = punctured(&PRE_PUNCTURE, PRE_PUNCTURED);
        let kept = w[..PRE_BITS].iter().chain(&w[PRE_KBCH..PRE_NBCH]).chain(
            w[PRE_NBCH..]
                .iter()
                .zip(&gone)
                .filter(|(_, g)| !**g)
                .map(|(b, _)| b),
        );
        let cells: Vec<Complex32> = kept.map(|&b| L1Mod::Bpsk.cell(b.into())).collect();
        debug_assert_eq!(cells.len(), PRE_CELLS);
        cells
    }

    /// L1-post's cells of its 350 bits: scrambled where set, placed in the BCH information
    /// groups that the padding leaves (clause 7.3.1.2), 16K LDPC 1/2, N_punc parity bits
    /// punctured, the padding removed; for 16-QAM and 64-QAM bit-interleaved in 2 η_MOD
    /// columns and demultiplexed (clauses 7.3.1.5 and 7.3.1.6); mapped.
    pub(crate) fn post(&mut self, bits: &[u8]) -> Vec<Complex32> {
        debug_assert_eq!(bits.len(), POST_BITS);
        let m = self.modulation;
        let info: Vec<u8> = if self.scrambled {
            bits.iter().zip(Prbs::new()).map(|(a, b)| a ^ b).collect()
        } else {
            bits.to_vec()
        };
        // The padded positions of the BCH information: 20 groups of 360 bits but the last
        // (192); whole groups in the table's order, then the last `rest` bits of the next
        // group. gr-dtv pads 19 whole groups where L1-post fits in one, as here.
        let group_len = |g: usize| if g == 19 { 192 } else { 360 };
        let order = &POST_PADDING[m.table()];
        let (whole, rest) = if POST_BITS <= 360 {
            (19, 360 - POST_BITS)
        } else {
            let whole = (POST_KBCH - POST_BITS) / 360;
            (whole, POST_KBCH - POST_BITS - 360 * whole)
        };
        let mut padded = vec![false; POST_KBCH];
        for &g in &order[..whole] {
            padded[g * 360..g * 360 + group_len(g)].fill(true);
        }
        let g = order[whole];
        let end = g * 360 + group_len(g);
        padded[end - rest..end].fill(true);
        let mut message = vec![0u8; POST_KBCH];
        let mut next = info.iter();
        for (b, _) in message.iter_mut().zip(&padded).filter(|(_, p)| !**p) {
            *b = *next.next().expect("the padding leaves K_sig bits");
        }
        self.encode(CodeRate::R1_2, POST_KBCH, &message);
        let w = &self.word;
        let gone = punctured(&POST_PUNCTURE[m.table()], self.post_punctured);
        let coded: Vec<u8> = w[..POST_KBCH]
            .iter()
            .zip(&padded)
            .filter(|(_, p)| !**p)
            .map(|(b, _)| b)
            .chain(&w[POST_KBCH..POST_NBCH])
            .chain(
                w[POST_NBCH..]
                    .iter()
                    .zip(&gone)
                    .filter(|(_, g)| !**g)
                    .map(|(b, _)| b),
            )
            .copied()
            .collect();
        debug_assert_eq!(coded.len(), self.post_bits);
        let eta = m.bits();
        match m {
            L1Mod::Bpsk | L1Mod::Qpsk => coded
                .chunks_exact(eta)
                .map(|c| m.cell(c.iter().fold(0, |a, &b| (a << 1) | usize::from(b))))
                .collect(),
            L1Mod::Qam16 | L1Mod::Qam64 => {
                // Written into 2 η_MOD columns of N_L1post / (2 η_MOD) rows, read by rows.
                let cols = 2 * eta;
                let rows = self.post_bits / cols;
                let demux: &[usize] = if m == L1Mod::Qam16 {
                    &DEMUX_16QAM
                } else {
                    &DEMUX_64QAM
                };
                let mut cells = Vec::with_capacity(self.post_cells());
                for r in 0..rows {
                    let word = demux
                        .iter()
                        .fold(0, |a, &d| (a << 1) | usize::from(coded[d * rows + r]));
                    cells.push(m.cell(word >> eta));
                    cells.push(m.cell(word & ((1 << eta) - 1)));
                }
                cells
            }
        }
    }
}
