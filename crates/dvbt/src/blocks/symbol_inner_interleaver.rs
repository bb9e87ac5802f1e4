//! [`DvbtSymbolInnerInterleaver`]: gr-dtv's `dvbt_symbol_inner_interleaver`.

use crate::error::SettingsError;
use crate::params::Mode;
use crate::reference_signals::SYMBOLS_PER_FRAME;
use crate::symbol_interleaver::permutation;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_symbol_inner_interleaver";

/// The tag a receiver's symbols carry: the symbol's index in its frame.
const SYMBOL_INDEX: &str = "symbol_index";

/// The symbol interleaver (ETSI EN 300 744 clause 4.3.4.2) as gr-dtv's
/// `dvbt_symbol_inner_interleaver`: vectors of an OFDM symbol's N_max data carriers (1512,
/// 6048) of one byte each in and out, permuted by H(q): even symbols y_H(q) = y'_q, odd
/// symbols y_q = y'_H(q). Interleaving counts the symbols from 0, 68 a frame; deinterleaving
/// undoes it, each vector's parity read from the `symbol_index` tag it must carry (as gr-dtv's
/// demodulator tags them; a vector without one is an error, where gr-dtv reads past its tag
/// list). Tags keep their offsets.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtSymbolInnerInterleaver;
///
/// let cells: Vec<u8> = (0..2 * 1512).map(|k| (k % 251) as u8).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(cells.clone()).with_vlen(1512)?);
/// let si = fg.add(DvbtSymbolInnerInterleaver::new("2k", "interleave")?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(1512));
/// fg.connect(src, si)?;
/// fg.connect(si, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// // H(0) = 0, H(1) = 1024: symbol 0 (even) puts cell 1 on carrier 1024, symbol 1 (odd)
/// // takes carrier 1 from cell 1024.
/// assert_eq!((out[0], out[1024], out[1512 + 1]), (cells[0], cells[1], cells[1512 + 1024]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_symbol_inner_interleaver",
    summary = "DVB-T symbol interleaver as gr-dtv's dvbt_symbol_inner_interleaver: a symbol's data carriers permuted by H(q), one way on even symbols, the other on odd ones; or undone.",
    make = Self::new(&transmission_mode, &direction).map_err(Refused::from)
)]
#[param(transmission_mode: String = "2k", words = ["2k", "8k"], doc = "transmission mode (vectors of 1512 or 6048)")]
#[param(direction: String = "interleave", words = ["interleave", "deinterleave"], doc = "interleave (transmitter) or deinterleave (receiver: by the symbol_index tags)")]
pub struct DvbtSymbolInnerInterleaver {
    /// Vectors of a symbol's data carriers.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The same, permuted.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    h: Vec<usize>,
    interleave: bool,
    /// The next symbol's index in its frame (interleaving).
    symbol: usize,
}

impl std::fmt::Debug for DvbtSymbolInnerInterleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtSymbolInnerInterleaver")
            .field("payload", &self.h.len())
            .field("interleave", &self.interleave)
            .finish()
    }
}

#[block(type_name = "dvbt_symbol_inner_interleaver")]
impl DvbtSymbolInnerInterleaver {
    /// The interleaver (or deinterleaver) of `transmission_mode` (the parameters' words).
    ///
    /// # Errors
    /// A word not one of a parameter's.
    pub fn new(transmission_mode: &str, direction: &str) -> Result<Self, SettingsError> {
        let mode = Mode::parse(BLOCK, "transmission_mode", transmission_mode)?;
        let interleave = match direction {
            "interleave" => true,
            "deinterleave" => false,
            other => {
                return Err(SettingsError::param(
                    BLOCK,
                    "direction",
                    format!("must be interleave or deinterleave, not {other:?}"),
                ))
            }
        };
        let p = mode.payload();
        Ok(Self {
            input: StreamInput::new().with_vlen(p),
            output: StreamOutput::new().with_vlen(p),
            h: permutation(mode),
            interleave,
            symbol: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let p = self.h.len();
        let n = (self.input.slice().len() / p).min(self.output.slice().len() / p);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let first = self.input.offset();
        for j in 0..n {
            let odd = if self.interleave {
                let odd = self.symbol % 2 == 1;
                self.symbol = (self.symbol + 1) % SYMBOLS_PER_FRAME;
                odd
            } else {
                let at = first + j as u64;
                let tag = self
                    .input
                    .tags()
                    .iter()
                    .find(|t| t.offset == at && t.key.as_symbol() == Some(SYMBOL_INDEX));
                let index = tag.and_then(|t| t.value.as_i64()).ok_or_else(|| {
                    BlockError::msg(format!(
                        "{BLOCK}: deinterleaving vector {at}, which carries no {SYMBOL_INDEX} tag \
                         with an integer"
                    ))
                })?;
                index % 2 != 0
            };
            // Even symbols (interleaving) and odd ones (deinterleaving) scatter, the others
            // gather.
            let scatter = odd != self.interleave;
            let i = &self.input.slice()[j * p..(j + 1) * p];
            let o = &mut self.output.slice()[j * p..(j + 1) * p];
            if scatter {
                for (q, &h) in self.h.iter().enumerate() {
                    o[h] = i[q];
                }
            } else {
                for (y, &h) in o.iter_mut().zip(&self.h) {
                    *y = i[h];
                }
            }
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * p);
        self.output.produce(n * p);
        Ok(WorkStatus::Continue)
    }
}
