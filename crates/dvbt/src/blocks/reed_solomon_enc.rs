//! [`DvbtReedSolomonEnc`]: gr-dtv's `dvbt_reed_solomon_enc`, the outer code.

use super::rs_code::rs_code;
use crate::error::SettingsError;
use crate::reed_solomon::ReedSolomon;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_reed_solomon_enc";

/// The outer code (ETSI EN 300 744 clause 4.3.2) as gr-dtv's `dvbt_reed_solomon_enc`:
/// vectors of `blocks` messages of `k - s` bytes in, each followed by its `n - k` parity bytes
/// out (vectors of `blocks · (n - s)` bytes): the code RS(`n`, `k`) over GF(256) of field
/// polynomial `gfpoly`, roots λ^0 to λ^(n-k-1), shortened by `s` leading zeros. DVB-T's is
/// RS(255, 239), 0x11D, shortened by 51: RS(204, 188). Tags keep their offsets (one vector
/// out for one in).
///
/// gr-dtv's `p` (the field's characteristic), `m` (bits a symbol) and `t` (errors corrected)
/// change nothing there (its symbols are bytes, its parity `n - k` bytes): they are not this
/// block's parameters. `n` must be 255, the field's code length: gr-dtv reads `255 - n`
/// bytes past its message buffer otherwise.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtReedSolomonEnc;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 188]).with_vlen(188)?);
/// let rs = fg.add(DvbtReedSolomonEnc::new(0x11d, 255, 239, 51, 1)?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(204));
/// fg.connect(src, rs)?;
/// fg.connect(rs, sink)?;
/// fg.run()?;
/// // The zero message's parity is zero.
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), vec![0u8; 204]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_reed_solomon_enc",
    summary = "DVB-T outer code as gr-dtv's dvbt_reed_solomon_enc: shortened Reed-Solomon RS(n, k) over GF(256), RS(204, 188) for DVB-T, vectors of messages in, codewords out.",
    make = Self::new(gfpoly, n, k, s, blocks).map_err(Refused::from)
)]
#[param(gfpoly: i64 = 0x11d, doc = "field polynomial, x^8 + its low 8 bits (0x11D: x^8 + x^4 + x^3 + x^2 + 1)")]
#[param(n: usize = 255, doc = "code length before shortening (255)")]
#[param(k: usize = 239, doc = "message length before shortening (n - k parity bytes)")]
#[param(s: usize = 51, doc = "shortening: leading zero bytes not sent")]
#[param(blocks: usize = 8, min = 1, doc = "messages a vector")]
pub struct DvbtReedSolomonEnc {
    /// Vectors of `blocks` messages of `k - s` bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Vectors of `blocks` codewords of `n - s` bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    rs: ReedSolomon,
    message: usize,
    blocks: usize,
}

impl std::fmt::Debug for DvbtReedSolomonEnc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtReedSolomonEnc")
            .field("message", &self.message)
            .field("parity", &self.rs.roots())
            .field("blocks", &self.blocks)
            .finish()
    }
}

#[block(type_name = "dvbt_reed_solomon_enc")]
impl DvbtReedSolomonEnc {
    /// RS(`n`, `k`) over the field of `gfpoly`, shortened by `s`, `blocks` codewords a vector.
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
            input: StreamInput::new().with_vlen(blocks * message),
            output: StreamOutput::new().with_vlen(blocks * (message + n - k)),
            rs,
            message,
            blocks,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (m, r) = (self.message, self.rs.roots());
        let (vin, vout) = (self.blocks * m, self.blocks * (m + r));
        let n = (self.input.slice().len() / vin).min(self.output.slice().len() / vout);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * vin];
        let output = &mut self.output.slice()[..n * vout];
        for (i, o) in input.chunks_exact(m).zip(output.chunks_exact_mut(m + r)) {
            o[..m].copy_from_slice(i);
            self.rs.encode(i, &mut o[m..]);
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * vin);
        self.output.produce(n * vout);
        Ok(WorkStatus::Continue)
    }
}
