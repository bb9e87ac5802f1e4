//! [`AtscFieldSyncMux`]: gr-dtv's `atsc_field_sync_mux`, a field sync before each field.

use crate::field_sync::{FieldSync, SAVED};
use crate::layout::{Plinfo, DATA, SEGMENT, SEGMENT_ITEM};
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

/// gr-dtv's `atsc_field_sync_mux`: data segments in and out (1024-byte items), a field sync
/// segment (ATSC A/53 Part 2 5.4: header zeros, its 832 symbols, zeros) before each field's
/// segment 0, of field 1 or 2 as that segment's header says; its last 12 symbols repeat those
/// of the last data segment numbered 311 (zeros before the first). Tags keep their offsets
/// (GNU Radio's relative rate 1), or go to the next item to be written where that one is
/// written already.
#[library_block(
    id = "atsc_field_sync_mux",
    summary = "ATSC field sync (A/53 Part 2 5.4) as gr-dtv's atsc_field_sync_mux: data segments in, a field sync segment inserted before each field.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscFieldSyncMux {
    /// Data segments, vectors of 1024 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Data and field sync segments, vectors of 1024 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    field_sync: FieldSync,
    /// The last 12 symbols of the last segment 311.
    saved: [u8; SAVED],
    /// The field sync before the waiting segment 0 is written.
    sync_written: bool,
}

impl Default for AtscFieldSyncMux {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_field_sync_mux")]
impl AtscFieldSyncMux {
    /// The mux, no symbols saved yet (zeros).
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(SEGMENT_ITEM),
            output: StreamOutput::new().with_vlen(SEGMENT_ITEM),
            field_sync: FieldSync::new(),
            saved: [0; SAVED],
            sync_written: false,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let v = SEGMENT_ITEM;
        let available = self.input.slice().len() / v;
        let room = self.output.slice().len() / v;
        let (mut read, mut written) = (0, 0);
        let input = self.input.slice();
        let output = self.output.slice();
        while read < available && written < room {
            let item = &input[read * v..(read + 1) * v];
            let out = &mut output[written * v..(written + 1) * v];
            let pli = Plinfo::read(item);
            if pli.first() && !self.sync_written {
                out[..DATA].fill(0);
                self.field_sync
                    .write(pli.field2(), &self.saved, &mut out[DATA..DATA + SEGMENT]);
                out[DATA + SEGMENT..].fill(0);
                self.sync_written = true;
            } else {
                out.copy_from_slice(item);
                if pli.last() {
                    self.saved
                        .copy_from_slice(&item[DATA + SEGMENT - SAVED..DATA + SEGMENT]);
                }
                self.sync_written = false;
                read += 1;
            }
            written += 1;
        }
        if written == 0 {
            return Ok(WorkStatus::Continue);
        }
        propagate_tags_at_rate(&self.input, &mut self.output, read, 1, 1);
        self.input.consume(read * v);
        self.output.produce(written * v);
        Ok(WorkStatus::Continue)
    }
}
