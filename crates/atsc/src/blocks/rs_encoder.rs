//! [`AtscRsEncoder`]: gr-dtv's `atsc_rs_encoder`, the outer code.

use crate::layout::{CODEWORD, DATA, PACKET_ITEM, PAYLOAD};
use radioflow_dvbt::ReedSolomon;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Parity bytes of ATSC's code.
const PARITY: usize = CODEWORD - PAYLOAD;

/// gr-dtv's `atsc_rs_encoder`: randomized packets in, codewords out (256-byte items: the
/// header copied, the 187 bytes, their 20 parity bytes, 45 zeros). The code is ATSC A/53
/// Part 2 5.3.3's RS(207, 187): RS(255, 235) over GF(256) of field polynomial
/// x^8 + x^4 + x^3 + x^2 + 1, roots λ^0 to λ^19, shortened by 48 leading zeros. Tags keep
/// their item offsets.
#[library_block(
    id = "atsc_rs_encoder",
    summary = "ATSC Reed-Solomon RS(207, 187) (A/53 Part 2 5.3.3) as gr-dtv's atsc_rs_encoder: randomized packets in, codewords out.",
    make = Self::new()
)]
pub struct AtscRsEncoder {
    /// Randomized packets, vectors of 256 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Codewords, vectors of 256 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    rs: ReedSolomon,
}

impl std::fmt::Debug for AtscRsEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtscRsEncoder").finish_non_exhaustive()
    }
}

impl Default for AtscRsEncoder {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_rs_encoder")]
impl AtscRsEncoder {
    /// The encoder.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(PACKET_ITEM),
            output: StreamOutput::new().with_vlen(PACKET_ITEM),
            rs: ReedSolomon::new(0x11d, PARITY).expect("0x11D is primitive, 20 roots"),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let v = PACKET_ITEM;
        let n = (self.input.slice().len() / v).min(self.output.slice().len() / v);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * v];
        let output = &mut self.output.slice()[..n * v];
        for (i, o) in input.chunks_exact(v).zip(output.chunks_exact_mut(v)) {
            o[..DATA + PAYLOAD].copy_from_slice(&i[..DATA + PAYLOAD]);
            let (message, rest) = o[DATA..].split_at_mut(PAYLOAD);
            // Leading zeros leave the encoder's register at zero: the shortening costs nothing.
            self.rs.encode(message, &mut rest[..PARITY]);
            rest[PARITY..].fill(0);
        }
        propagate_tags(&self.input, &mut self.output, n * v);
        self.input.consume(n * v);
        self.output.produce(n * v);
        Ok(WorkStatus::Continue)
    }
}
