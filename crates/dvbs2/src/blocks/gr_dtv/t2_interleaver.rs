//! [`Dvbt2Interleaver`]: gr-dtv's `dvbt2_interleaver_bb`, DVB-T2's bit interleaver and
//! demultiplexer of bits to cells.

use super::settings::{fec_params, frames, DtvSettingsError, Standard};
use crate::modcod::{CodeRate, FrameSize};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// DVB-T2's bit interleaving (ETSI EN 302 755 clause 6.1.3: parity interleaving, then
/// column-twist interleaving) and demultiplexing of bits into cell words (clause 6.2.1), as
/// gr-dtv's `dvbt2_interleaver_bb`: FECFRAMEs of Nldpc bits in, one cell word (η_MOD bits,
/// y0 the MSB) per byte out.
///
/// QPSK takes the bits in pairs, parity-interleaved for code rates 1/3 and 2/5 only (as
/// gr-dtv does; EN 302 755 applies no bit interleaver to QPSK). 16QAM, 64QAM and 256QAM
/// normal write 2·η_MOD columns and read rows of two cells, 256QAM short 8 columns and one
/// cell; the column twists are EN 302 755 table 8's, the demultiplexing tables 13's.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{Dvbt2Interleaver, FrameSize};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8; 16200]));
/// let il = fg.add(Dvbt2Interleaver::new(FrameSize::Short, "1/2", "64qam")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, il)?;
/// fg.connect(il, sink)?;
/// fg.run()?;
/// let cells = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert_eq!(cells.len(), 2700);
/// assert!(cells.iter().all(|&c| c == 0b11_1111));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_interleaver",
    summary = "DVB-T2 bit interleaver and bit-to-cell demultiplexer as gr-dtv's dvbt2_interleaver_bb: FECFRAMEs of Nldpc bits (one per byte) in, one cell word per byte out.",
    make = Self::new(frame, &rate, &constellation)
    .map_err(Refused::from)
)]
#[param(
    frame: FrameSize = "short",
    words = ["normal", "short"],
    doc = "FECFRAME size (short by default: every rate word has a short code)"
)]
#[param(
    rate: String = "1/2",
    words = ["1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6"],
    doc = "LDPC code rate (a DVB-T2 rate of the frame size)"
)]
#[param(
    constellation: String = "qpsk",
    words = ["qpsk", "16qam", "64qam", "256qam"],
    doc = "constellation"
)]
pub struct Dvbt2Interleaver {
    /// FECFRAMEs, Nldpc bits each, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Cell words, Nldpc / η_MOD per frame.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// η_MOD.
    bits: usize,
    /// Bits of a row (2 η_MOD, or η_MOD for 256QAM short).
    columns: usize,
    /// The input bit read k-th.
    order: Vec<u32>,
    /// Demultiplexing: bit e of a row is y_{demux[e]}.
    demux: &'static [u8],
    nldpc: usize,
}

impl std::fmt::Debug for Dvbt2Interleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2Interleaver")
            .field("bits", &self.bits)
            .field("nldpc", &self.nldpc)
            .finish()
    }
}

// EN 302 755 table 8: column twist parameters tc per column.
const TWIST_16_NORMAL: [u16; 8] = [0, 0, 2, 4, 4, 5, 7, 7];
const TWIST_64_NORMAL: [u16; 12] = [0, 0, 2, 2, 3, 4, 4, 5, 5, 7, 8, 9];
const TWIST_256_NORMAL: [u16; 16] = [0, 2, 2, 2, 2, 3, 7, 15, 16, 20, 22, 22, 27, 27, 28, 32];
const TWIST_16_SHORT: [u16; 8] = [0, 0, 0, 1, 7, 20, 20, 21];
const TWIST_64_SHORT: [u16; 12] = [0, 0, 0, 2, 2, 2, 3, 3, 3, 6, 7, 7];
const TWIST_256_SHORT: [u16; 8] = [0, 0, 0, 1, 7, 20, 20, 21];

// EN 302 755 tables 13a to 13e: the cell word bit y_i each read bit b_e becomes.
const DEMUX_16: [u8; 8] = [7, 1, 4, 2, 5, 3, 6, 0];
const DEMUX_16_NORMAL_3_5: [u8; 8] = [0, 5, 1, 2, 4, 7, 3, 6];
const DEMUX_16_SHORT_1_3: [u8; 8] = [6, 0, 3, 4, 5, 2, 1, 7];
const DEMUX_16_SHORT_2_5: [u8; 8] = [7, 5, 4, 0, 3, 1, 2, 6];
const DEMUX_64: [u8; 12] = [11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0];
const DEMUX_64_NORMAL_3_5: [u8; 12] = [2, 7, 6, 9, 0, 3, 1, 8, 4, 11, 5, 10];
const DEMUX_64_SHORT_1_3: [u8; 12] = [4, 2, 0, 5, 6, 1, 3, 7, 8, 9, 10, 11];
const DEMUX_64_SHORT_2_5: [u8; 12] = [4, 0, 1, 6, 2, 3, 5, 8, 7, 10, 9, 11];
const DEMUX_256_NORMAL: [u8; 16] = [15, 1, 13, 3, 8, 11, 9, 5, 10, 6, 4, 7, 12, 2, 14, 0];
const DEMUX_256_NORMAL_3_5: [u8; 16] = [2, 11, 3, 4, 0, 9, 1, 8, 10, 13, 7, 14, 6, 15, 5, 12];
const DEMUX_256_NORMAL_2_3: [u8; 16] = [7, 2, 9, 0, 4, 6, 13, 3, 14, 10, 15, 5, 8, 12, 11, 1];
const DEMUX_256_SHORT: [u8; 8] = [7, 3, 1, 5, 2, 6, 4, 0];
const DEMUX_256_SHORT_1_3: [u8; 8] = [4, 0, 1, 2, 5, 3, 6, 7];
const DEMUX_256_SHORT_2_5: [u8; 8] = [4, 0, 5, 1, 2, 3, 6, 7];
/// QPSK: a cell is two bits in order.
const DEMUX_QPSK: [u8; 2] = [0, 1];

#[block(type_name = "dvbt2_interleaver")]
impl Dvbt2Interleaver {
    /// An interleaver for `frame`, `rate` (a DVB-T2 rate) and `constellation` (`qpsk`,
    /// `16qam`, `64qam`, `256qam`).
    ///
    /// # Errors
    /// A rate DVB-T2 does not define for the frame size, or an unknown constellation.
    pub fn new(
        frame: FrameSize,
        rate: &str,
        constellation: &str,
    ) -> Result<Self, DtvSettingsError> {
        use CodeRate::*;
        use FrameSize::*;
        let fec = fec_params("dvbt2_interleaver", Standard::DvbT2, frame, rate)?;
        let r = fec.rate;
        let (bits, twist, demux): (usize, &[u16], &'static [u8]) = match (constellation, frame) {
            ("qpsk", _) => (2, &[], &DEMUX_QPSK),
            ("16qam", Normal) => (
                4,
                &TWIST_16_NORMAL,
                if r == R3_5 {
                    &DEMUX_16_NORMAL_3_5
                } else {
                    &DEMUX_16
                },
            ),
            ("16qam", Short) => (
                4,
                &TWIST_16_SHORT,
                match r {
                    R1_3 => &DEMUX_16_SHORT_1_3,
                    R2_5 => &DEMUX_16_SHORT_2_5,
                    _ => &DEMUX_16,
                },
            ),
            ("64qam", Normal) => (
                6,
                &TWIST_64_NORMAL,
                if r == R3_5 {
                    &DEMUX_64_NORMAL_3_5
                } else {
                    &DEMUX_64
                },
            ),
            ("64qam", Short) => (
                6,
                &TWIST_64_SHORT,
                match r {
                    R1_3 => &DEMUX_64_SHORT_1_3,
                    R2_5 => &DEMUX_64_SHORT_2_5,
                    _ => &DEMUX_64,
                },
            ),
            ("256qam", Normal) => (
                8,
                &TWIST_256_NORMAL,
                match r {
                    R3_5 => &DEMUX_256_NORMAL_3_5,
                    R2_3 => &DEMUX_256_NORMAL_2_3,
                    _ => &DEMUX_256_NORMAL,
                },
            ),
            ("256qam", Short) => (
                8,
                &TWIST_256_SHORT,
                match r {
                    R1_3 => &DEMUX_256_SHORT_1_3,
                    R2_5 => &DEMUX_256_SHORT_2_5,
                    _ => &DEMUX_256_SHORT,
                },
            ),
            _ => {
                return Err(DtvSettingsError::param(
                    "dvbt2_interleaver",
                    "constellation",
                    format!("must be qpsk, 16qam, 64qam or 256qam, not {constellation:?}"),
                ))
            }
        };
        let n = fec.nldpc;
        let k = fec.kldpc();
        let q = (n - k) / 360;
        // Parity interleaving (clause 6.1.3): u[K + 360 t + s] = λ[K + Q s + t].
        let parity = bits > 2 || matches!(r, R1_3 | R2_5);
        let mut u: Vec<u32> = (0..n as u32).collect();
        if parity {
            for t in 0..q {
                for s in 0..360 {
                    u[k + 360 * t + s] = (k + q * s + t) as u32;
                }
            }
        }
        let columns = demux.len();
        let order = if twist.is_empty() {
            u
        } else {
            // Column twist: written down column c from row tc, read along the rows.
            let rows = n / columns;
            let mut v = vec![0u32; n];
            for (c, &tc) in twist.iter().enumerate() {
                for row in 0..rows {
                    v[c * rows + (row + usize::from(tc)) % rows] = u[c * rows + row];
                }
            }
            (0..n)
                .map(|i| v[(i % columns) * rows + i / columns])
                .collect()
        };
        Ok(Self {
            input: StreamInput::new().with_min_items(n),
            output: StreamOutput::new().with_min_items(n / bits),
            bits,
            columns,
            order,
            demux,
            nldpc: n,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (n, bits, columns) = (self.nldpc, self.bits, self.columns);
        let (order, demux) = (&self.order, self.demux);
        let cells = columns / bits;
        let mask = (1u32 << bits) - 1;
        Ok(frames(
            &mut self.input,
            &mut self.output,
            n,
            n / bits,
            |i, o| {
                for (row, out) in order.chunks_exact(columns).zip(o.chunks_exact_mut(cells)) {
                    let mut word = 0u32;
                    for (&at, &y) in row.iter().zip(demux) {
                        word |= u32::from(i[at as usize]) << (columns - 1 - usize::from(y));
                    }
                    for (c, cell) in out.iter_mut().enumerate() {
                        *cell = ((word >> (bits * (cells - 1 - c))) & mask) as u8;
                    }
                }
            },
        ))
    }
}
