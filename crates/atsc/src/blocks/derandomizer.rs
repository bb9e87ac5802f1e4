//! [`AtscDerandomizer`]: gr-dtv's `atsc_derandomizer`, transport packets back.

use super::plinfo_ports::from_shorts;
use crate::layout::{Plinfo, PACKET, PAYLOAD, SYNC_BYTE};
use crate::randomizer::Randomizer;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The transport packet's error indicator: the top bit of the byte after the sync byte.
const TRANSPORT_ERROR_BIT: u8 = 0x80;

/// gr-dtv's `atsc_derandomizer`: packets (vectors of 188 bytes: 187 data bytes and one more,
/// not read) and their pipeline information (two shorts) in, transport packets out: the sync
/// byte, then the 187 bytes XORed with the randomizer's sequence (ATSC A/53 Part 2 5.3.2,
/// restarted at each segment 0), the transport error indicator set as the pipeline
/// information's flag says. Tags on either input go to the same output item.
#[library_block(
    id = "atsc_derandomizer",
    summary = "ATSC data derandomizer (A/53 Part 2 5.3.2) as gr-dtv's atsc_derandomizer: packets and pipeline info in, transport packets (188 bytes, sync byte first, transport error indicator set) out.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscDerandomizer {
    /// Corrected packets, vectors of 188 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Their pipeline information, vectors of two shorts.
    #[input(name = "plinfo_in")]
    plinfo: StreamInput<i16>,
    /// Transport packets, vectors of 188 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    randomizer: Randomizer,
}

impl Default for AtscDerandomizer {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_derandomizer")]
impl AtscDerandomizer {
    /// The derandomizer.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(PACKET),
            plinfo: StreamInput::new().with_vlen(2),
            output: StreamOutput::new().with_vlen(PACKET),
            randomizer: Randomizer::new(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = (self.input.slice().len() / PACKET)
            .min(self.plinfo.slice().len() / 2)
            .min(self.output.slice().len() / PACKET);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * PACKET];
        let plinfo = &self.plinfo.slice()[..n * 2];
        let output = &mut self.output.slice()[..n * PACKET];
        for ((i, p), o) in input
            .chunks_exact(PACKET)
            .zip(plinfo.chunks_exact(2))
            .zip(output.chunks_exact_mut(PACKET))
        {
            let pli = from_shorts(p);
            if pli.first() {
                self.randomizer.reset();
            }
            o[0] = SYNC_BYTE;
            o[1..].copy_from_slice(&i[..PAYLOAD]);
            self.randomizer.apply(&mut o[1..]);
            if pli.flags & Plinfo::TRANSPORT_ERROR != 0 {
                o[1] |= TRANSPORT_ERROR_BIT;
            } else {
                o[1] &= !TRANSPORT_ERROR_BIT;
            }
        }
        propagate_tags(&self.input, &mut self.output, n * PACKET);
        let (from, to) = (self.plinfo.offset(), self.output.offset());
        for t in self
            .plinfo
            .tags()
            .iter()
            .take_while(|t| t.offset < from + n as u64)
        {
            self.output.push_tag(Tag {
                offset: t.offset - from + to,
                ..t.clone()
            });
        }
        self.input.consume(n * PACKET);
        self.plinfo.consume(n * 2);
        self.output.produce(n * PACKET);
        Ok(WorkStatus::Continue)
    }
}
