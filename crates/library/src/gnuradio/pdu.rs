//! Rows for GNU Radio's `pdu` module (gr-pdu): PDUs to tagged streams and back, random PDUs,
//! PDUs' metadata set, removed and filtered on, PDUs split, and stamped with the system time
//! and the delay since.

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
    row(
        "pdu_random_pdu",
        "pdu.random_pdu({minsize},{maxsize},{mask},{length_modulo})",
        "random_pdu",
        &[],
        &[
            param("minsize", "min_items"),
            param("maxsize", "max_items"),
            param("mask", "mask"),
            param("length_modulo", "length_modulo"),
        ],
    ),
    row(
        "pdu_pdu_set",
        "pdu.pdu_set({k},{v})",
        "pdu_set",
        &[],
        &[param("k", "k"), param("v", "v")],
    ),
    row(
        "pdu_pdu_remove",
        "pdu.pdu_remove({k})",
        "pdu_remove",
        &[],
        &[param("k", "k")],
    ),
    row(
        "pdu_pdu_filter",
        "pdu.pdu_filter({k},{v},{invert})",
        "pdu_filter",
        &[],
        &[param("k", "k"), param("v", "v"), param("invert", "invert")],
    ),
    row(
        "pdu_add_system_time",
        "pdu.add_system_time({key})",
        "pdu_add_system_time",
        &[],
        &[param("key", "key")],
    ),
    row(
        "pdu_pdu_split",
        "pdu.pdu_split({pass_empty})",
        "pdu_split",
        &[],
        &[param("pass_empty", "pass_empty")],
    ),
    row(
        "pdu_time_delta",
        "pdu.time_delta({delta_key},{time_key})",
        "pdu_time_delta",
        &[],
        &[
            param("delta_key", "delta_key"),
            param("time_key", "time_key"),
        ],
    ),
];
