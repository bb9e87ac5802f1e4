//! [`AtscTrellisEncoder`]: gr-dtv's `atsc_trellis_encoder`, codewords to data segments.

use crate::layout::{CODEWORD, DATA, PACKET_ITEM, SEGMENT, SEGMENT_ITEM};
use crate::trellis::{TrellisEncoder, CODERS};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// gr-dtv's `atsc_trellis_encoder`: interleaved codewords (256-byte items) in, data segments
/// out (1024-byte items: the header copied, 832 level indexes 0 to 7 (segment sync then 828
/// data symbols), 188 zeros), 12 at a time: the 12 trellis encoders of ATSC A/53 Part 2
/// 5.3.5 fed and read in the order of its table 5.2. Tags keep their item offsets.
#[library_block(
    id = "atsc_trellis_encoder",
    summary = "ATSC trellis coding (A/53 Part 2 5.3.5: 12 precoded 4-state encoders) as gr-dtv's atsc_trellis_encoder: codewords in, 832-symbol data segments out, 12 at a time.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscTrellisEncoder {
    /// Interleaved codewords, vectors of 256 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Data segments, vectors of 1024 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: TrellisEncoder,
    /// 12 codewords side by side.
    codewords: Vec<u8>,
    /// 12 segments' symbols side by side.
    symbols: Vec<u8>,
}

impl Default for AtscTrellisEncoder {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_trellis_encoder")]
impl AtscTrellisEncoder {
    /// The encoders at state 0.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new()
                .with_vlen(PACKET_ITEM)
                .with_min_items(CODERS * PACKET_ITEM),
            output: StreamOutput::new()
                .with_vlen(SEGMENT_ITEM)
                .with_min_items(CODERS * SEGMENT_ITEM),
            encoder: TrellisEncoder::new(),
            codewords: vec![0; CODERS * CODEWORD],
            symbols: vec![0; CODERS * SEGMENT],
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (vin, vout) = (CODERS * PACKET_ITEM, CODERS * SEGMENT_ITEM);
        let n = (self.input.slice().len() / vin).min(self.output.slice().len() / vout);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * vin];
        let output = &mut self.output.slice()[..n * vout];
        for (i, o) in input.chunks_exact(vin).zip(output.chunks_exact_mut(vout)) {
            for (item, c) in i
                .chunks_exact(PACKET_ITEM)
                .zip(self.codewords.chunks_exact_mut(CODEWORD))
            {
                c.copy_from_slice(&item[DATA..DATA + CODEWORD]);
            }
            self.encoder.encode(&self.codewords, &mut self.symbols);
            for ((item, seg), s) in i
                .chunks_exact(PACKET_ITEM)
                .zip(o.chunks_exact_mut(SEGMENT_ITEM))
                .zip(self.symbols.chunks_exact(SEGMENT))
            {
                seg[..DATA].copy_from_slice(&item[..DATA]);
                seg[DATA..DATA + SEGMENT].copy_from_slice(s);
                seg[DATA + SEGMENT..].fill(0);
            }
        }
        propagate_tags(&self.input, &mut self.output, n * vin);
        self.input.consume(n * vin);
        self.output.produce(n * vout);
        Ok(WorkStatus::Continue)
    }
}
