//! [`AtscRandomizer`]: gr-dtv's `atsc_randomizer`, the head of the transmitter's pipeline.

use crate::layout::{Plinfo, DATA, PACKET, PACKET_ITEM, PAYLOAD, SEGMENTS_PER_FIELD};
use crate::randomizer::Randomizer;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// gr-dtv's `atsc_randomizer`: padded transport packets in, randomized packets out (256-byte
/// items: the pipeline header, the 187 bytes after the sync byte XORed with the randomizer's
/// sequence (ATSC A/53 Part 2, 5.3.2), 65 zeros). The header numbers the packets as data
/// segments 0 to 311 of field 1, then of field 2, and so on from the first packet; the
/// sequence restarts at each segment 0. The sync byte is dropped unread (gr-dtv only asserts
/// it, in debug builds). Tags keep their item offsets.
#[library_block(
    id = "atsc_randomizer",
    summary = "ATSC data randomizer (A/53 Part 2 5.3.2) as gr-dtv's atsc_randomizer: padded transport packets in, randomized packets with their segment numbers out.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscRandomizer {
    /// Padded packets, vectors of 256 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Randomized packets, vectors of 256 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    randomizer: Randomizer,
    field2: bool,
    segno: usize,
}

impl Default for AtscRandomizer {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_randomizer")]
impl AtscRandomizer {
    /// The randomizer, before segment 0 of field 1.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(PACKET_ITEM),
            output: StreamOutput::new().with_vlen(PACKET_ITEM),
            randomizer: Randomizer::new(),
            field2: false,
            segno: 0,
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
            let pli = Plinfo::regular(self.field2, self.segno);
            self.segno += 1;
            if self.segno == SEGMENTS_PER_FIELD {
                self.segno = 0;
                self.field2 = !self.field2;
            }
            if pli.first() {
                self.randomizer.reset();
            }
            pli.write(o);
            let data = &mut o[DATA..DATA + PAYLOAD];
            data.copy_from_slice(&i[1..PACKET]);
            self.randomizer.apply(data);
            o[DATA + PAYLOAD..].fill(0);
        }
        propagate_tags(&self.input, &mut self.output, n * v);
        self.input.consume(n * v);
        self.output.produce(n * v);
        Ok(WorkStatus::Continue)
    }
}
