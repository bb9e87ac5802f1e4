//! [`DvbtReedSolomonDec`]: gr-dtv's `dvbt_reed_solomon_dec`, the outer code's decoder.

use super::rs_code::rs_code;
use crate::error::SettingsError;
use crate::reed_solomon::ReedSolomon;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_reed_solomon_dec";

/// The outer code's decoder (ETSI EN 300 744 clause 4.3.2) as gr-dtv's
/// `dvbt_reed_solomon_dec`: vectors of `blocks` codewords of `n - s` bytes in, their first
/// `k - s` bytes out (vectors of `blocks · (k - s)` bytes), each codeword of RS(`n`, `k`) over
/// GF(256) of field polynomial `gfpoly` (shortened by `s` leading zeros) corrected where it
/// has at most (n - k) / 2 wrong bytes, by Phil Karn's decoder as GNU Radio runs it (the same
/// decisions where there are more: a word found uncorrectable goes out as it came). Tags keep
/// their offsets.
///
/// gr-dtv's `p`, `m` and `t` change nothing there: they are not this block's parameters. `n`
/// must be 255.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtReedSolomonDec;
///
/// // The zero codeword with three bytes wrong.
/// let mut word = vec![0u8; 204];
/// word[3] = 7;
/// word[100] = 1;
/// word[200] = 0xff;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(word).with_vlen(204)?);
/// let rs = fg.add(DvbtReedSolomonDec::new(0x11d, 255, 239, 51, 1)?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(188));
/// fg.connect(src, rs)?;
/// fg.connect(rs, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), vec![0u8; 188]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_reed_solomon_dec",
    summary = "DVB-T outer decoder as gr-dtv's dvbt_reed_solomon_dec: shortened Reed-Solomon RS(n, k) over GF(256), RS(204, 188) for DVB-T, codewords corrected, messages out.",
    make = Self::new(gfpoly, n, k, s, blocks).map_err(Refused::from)
)]
#[param(gfpoly: i64 = 0x11d, doc = "field polynomial, x^8 + its low 8 bits (0x11D: x^8 + x^4 + x^3 + x^2 + 1)")]
#[param(n: usize = 255, doc = "code length before shortening (255)")]
#[param(k: usize = 239, doc = "message length before shortening (n - k parity bytes)")]
#[param(s: usize = 51, doc = "shortening: leading zero bytes not sent")]
#[param(blocks: usize = 8, min = 1, doc = "codewords a vector")]
pub struct DvbtReedSolomonDec {
    /// Vectors of `blocks` codewords of `n - s` bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Vectors of `blocks` messages of `k - s` bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    rs: ReedSolomon,
    message: usize,
    /// The leading zeros of the shortening.
    shortening: usize,
    blocks: usize,
}

impl std::fmt::Debug for DvbtReedSolomonDec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtReedSolomonDec")
            .field("message", &self.message)
            .field("parity", &self.rs.roots())
            .field("blocks", &self.blocks)
            .finish()
    }
}

#[block(type_name = "dvbt_reed_solomon_dec")]
impl DvbtReedSolomonDec {
    /// The decoder of RS(`n`, `k`) over the field of `gfpoly`, shortened by `s`, `blocks`
    /// codewords a vector.
    ///
    /// # Errors
    /// `n` not 255, `k` not below `n`, `s` not below `k`, `blocks` 0, a polynomial GNU Radio
    /// refuses (not generating the field).
    pub fn new(
        gfpoly: i64,
        n: usize,
        k: usize,
        s: usize,
        blocks: usize,
    ) -> Result<Self, SettingsError> {
        let rs = rs_code(BLOCK, gfpoly, n, k, s, blocks)?;
        let message = k - s;
        Ok(Self {
            input: StreamInput::new().with_vlen(blocks * (message + n - k)),
            output: StreamOutput::new().with_vlen(blocks * message),
            rs,
            message,
            shortening: s,
            blocks,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (m, r, z) = (self.message, self.rs.roots(), self.shortening);
        let (vin, vout) = (self.blocks * (m + r), self.blocks * m);
        let n = (self.input.slice().len() / vin).min(self.output.slice().len() / vout);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * vin];
        let output = &mut self.output.slice()[..n * vout];
        let mut word = [0u8; 255];
        for (i, o) in input.chunks_exact(m + r).zip(output.chunks_exact_mut(m)) {
            word[..z].fill(0);
            word[z..].copy_from_slice(i);
            // An uncorrectable word goes out as it is (gr-dtv only counts it).
            let _ = self.rs.decode(&mut word);
            o.copy_from_slice(&word[z..z + m]);
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * vin);
        self.output.produce(n * vout);
        Ok(WorkStatus::Continue)
    }
}
