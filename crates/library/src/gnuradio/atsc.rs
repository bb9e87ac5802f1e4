//! Rows for gr-dtv's ATSC transmitter blocks (`dtv_atsc_pad` to `dtv_atsc_field_sync_mux`:
//! transport stream to 8-VSB data and field sync segments), over `radioflow-atsc`'s blocks.
//! They take no parameters; their items are gr-dtv's structures as byte vectors (256 bytes,
//! 1024 for the data segments), as GRC's definitions say.

use super::common::row;
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[
    row("dtv_atsc_pad", "dtv.atsc_pad()", "atsc_pad", &[], &[]),
    row(
        "dtv_atsc_randomizer",
        "dtv.atsc_randomizer()",
        "atsc_randomizer",
        &[],
        &[],
    ),
    row(
        "dtv_atsc_rs_encoder",
        "dtv.atsc_rs_encoder()",
        "atsc_rs_encoder",
        &[],
        &[],
    ),
    row(
        "dtv_atsc_interleaver",
        "dtv.atsc_interleaver()",
        "atsc_interleaver",
        &[],
        &[],
    ),
    row(
        "dtv_atsc_trellis_encoder",
        "dtv.atsc_trellis_encoder()",
        "atsc_trellis_encoder",
        &[],
        &[],
    ),
    row(
        "dtv_atsc_field_sync_mux",
        "dtv.atsc_field_sync_mux()",
        "atsc_field_sync_mux",
        &[],
        &[],
    ),
];
