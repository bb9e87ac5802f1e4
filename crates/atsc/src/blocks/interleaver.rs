//! [`AtscInterleaver`]: gr-dtv's `atsc_interleaver`, the data interleaver.

use crate::interleaver::Interleaver;
use crate::layout::{Plinfo, CODEWORD, DATA, PACKET_ITEM};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// gr-dtv's `atsc_interleaver`: codewords in and out (256-byte items, header copied), their
/// bytes through the convolutional interleaver of ATSC A/53 Part 2 5.3.4 (52 branches, 4 more
/// bytes of delay a branch), whose commutator restarts at each field's segment 0. Tags keep
/// their item offsets.
#[library_block(
    id = "atsc_interleaver",
    summary = "ATSC data interleaver (A/53 Part 2 5.3.4: 52 branches, 4 bytes more each) as gr-dtv's atsc_interleaver: codewords in and out.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscInterleaver {
    /// Codewords, vectors of 256 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Interleaved codewords, vectors of 256 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    interleaver: Interleaver,
}

impl Default for AtscInterleaver {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_interleaver")]
impl AtscInterleaver {
    /// The interleaver, its delay lines zeros.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(PACKET_ITEM),
            output: StreamOutput::new().with_vlen(PACKET_ITEM),
            interleaver: Interleaver::new(),
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
            if Plinfo::read(i).first() {
                self.interleaver.restart();
            }
            o[..DATA].copy_from_slice(&i[..DATA]);
            self.interleaver
                .interleave(&i[DATA..DATA + CODEWORD], &mut o[DATA..DATA + CODEWORD]);
            o[DATA + CODEWORD..].fill(0);
        }
        propagate_tags(&self.input, &mut self.output, n * v);
        self.input.consume(n * v);
        self.output.produce(n * v);
        Ok(WorkStatus::Continue)
    }
}
