//! [`AtscDepad`]: gr-dtv's `atsc_depad`, transport packets back to a byte stream.

use crate::layout::PACKET;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

/// gr-dtv's `atsc_depad`: transport packets (vectors of 188 bytes) in, their bytes out. Tags
/// move to item offset · 188 (GNU Radio's relative rate).
#[library_block(
    id = "atsc_depad",
    summary = "ATSC transport packets (vectors of 188 bytes) back to a byte stream, as gr-dtv's atsc_depad.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscDepad {
    /// Transport packets, vectors of 188 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The transport stream, bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
}

impl Default for AtscDepad {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_depad")]
impl AtscDepad {
    /// The depad.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(PACKET),
            output: StreamOutput::new().with_min_items(PACKET),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = (self.input.slice().len() / PACKET).min(self.output.slice().len() / PACKET);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let m = n * PACKET;
        self.output.slice()[..m].copy_from_slice(&self.input.slice()[..m]);
        propagate_tags_at_rate(&self.input, &mut self.output, n, PACKET as u64, 1);
        self.input.consume(m);
        self.output.produce(m);
        Ok(WorkStatus::Continue)
    }
}
