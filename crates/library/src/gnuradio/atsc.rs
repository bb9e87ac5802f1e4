//! Rows for gr-dtv's ATSC transmitter blocks (`dtv_atsc_pad` to `dtv_atsc_field_sync_mux`:
//! transport stream to 8-VSB data and field sync segments) and the receiver's from the
//! deinterleaver on (`dtv_atsc_deinterleaver` to `dtv_atsc_depad`), over `radioflow-atsc`'s
//! blocks. They take no parameters; their items are gr-dtv's structures as byte vectors (256
//! bytes, 1024 for the data segments), the receiver's pipeline information a second port of
//! two shorts, as GRC's definitions say.

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
    row(
        "dtv_atsc_deinterleaver",
        "dtv.atsc_deinterleaver()",
        "atsc_deinterleaver",
        &[],
        &[],
    ),
    row(
        "dtv_atsc_rs_decoder",
        "dtv.atsc_rs_decoder()",
        "atsc_rs_decoder",
        &[],
        &[],
    ),
    row(
        "dtv_atsc_derandomizer",
        "dtv.atsc_derandomizer()",
        "atsc_derandomizer",
        &[],
        &[],
    ),
    row("dtv_atsc_depad", "dtv.atsc_depad()", "atsc_depad", &[], &[]),
];
