//! Rows for GNU Radio's conversions between streams and vector items (gr-blocks).

use super::common::{param, row, ANY_TYPE, VLEN};
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_stream_to_vector",
        "blocks.stream_to_vector({type.size}*{vlen},{num_items})",
        "stream_to_vector",
        ANY_TYPE,
        &[VLEN, param("num_items", "n")],
    ),
    row(
        "blocks_vector_to_stream",
        "blocks.vector_to_stream({type.size}*{vlen},{num_items})",
        "vector_to_stream",
        ANY_TYPE,
        &[VLEN, param("num_items", "n")],
    ),
];
