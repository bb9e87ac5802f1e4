//! Rows for GNU Radio's `pdu` module (gr-pdu): PDUs to tagged streams and back.

use super::common::{param, row, ty};
use super::table::{GrBlock, GrType};
use radioflow_runtime::registry::Dtype;

/// The item types of the PDU blocks (`type.tv`: `gr.types.byte_t`, `complex_t`, `float_t`).
const PDU_TYPES: &[GrType] = &[
    ty("byte", Dtype::Uint8),
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
];

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "pdu_pdu_to_tagged_stream",
        "pdu.pdu_to_tagged_stream({type.tv},{tag})",
        "pdu_to_tagged_stream",
        PDU_TYPES,
        &[param("tag", "tag")],
    ),
    row(
        "pdu_tagged_stream_to_pdu",
        "pdu.tagged_stream_to_pdu({type.tv},{tag})",
        "tagged_stream_to_pdu",
        PDU_TYPES,
        &[param("tag", "tag")],
    ),
];
