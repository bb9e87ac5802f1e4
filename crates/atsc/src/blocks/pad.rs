//! [`AtscPad`]: gr-dtv's `atsc_pad`, transport packets into 256-byte items.

use crate::layout::{PACKET, PACKET_ITEM};
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

/// gr-dtv's `atsc_pad`: each 188 bytes of the transport stream (a packet, sync byte first;
/// the block does not look for the sync byte) out as a 256-byte item, the packet then 68
/// zeros: gr-dtv's padded packet. Tags move to item offset / 188, rounded half up (GNU
/// Radio's relative rate).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_atsc::AtscPad;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0x47u8; 2 * 188 + 5]));
/// let pad = fg.add(AtscPad::new());
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(256));
/// fg.connect(src, pad)?;
/// fg.connect(pad, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert_eq!(out.len(), 2 * 256);
/// assert_eq!(out[187..189], [0x47, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "atsc_pad",
    summary = "ATSC transport packets (188 bytes) into gr-dtv's 256-byte padded items, as gr-dtv's atsc_pad.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscPad {
    /// The transport stream, bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Padded packets, vectors of 256 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
}

impl Default for AtscPad {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_pad")]
impl AtscPad {
    /// The pad.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_min_items(PACKET),
            output: StreamOutput::new().with_vlen(PACKET_ITEM),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = (self.input.slice().len() / PACKET).min(self.output.slice().len() / PACKET_ITEM);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * PACKET];
        let output = &mut self.output.slice()[..n * PACKET_ITEM];
        for (i, o) in input
            .chunks_exact(PACKET)
            .zip(output.chunks_exact_mut(PACKET_ITEM))
        {
            o[..PACKET].copy_from_slice(i);
            o[PACKET..].fill(0);
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n * PACKET, 1, PACKET as u64);
        self.input.consume(n * PACKET);
        self.output.produce(n * PACKET_ITEM);
        Ok(WorkStatus::Continue)
    }
}
