//! Rows for gr-blocks' tagged-stream helpers added with the packet examples
//! (`tagged_stream_multiply_length`).

use super::common::{param, row, ANY_TYPE, VLEN};
use super::table::{GrBlock, GrParam, To};

pub(crate) const ROWS: &[GrBlock] = &[row(
    "blocks_tagged_stream_multiply_length",
    "blocks.tagged_stream_multiply_length({type.size}*{vlen},{lengthtagname},{c})",
    "tagged_stream_multiply_length",
    ANY_TYPE,
    &[
        param("lengthtagname", "lengthtagname"),
        VLEN,
        GrParam {
            key: "c",
            to: To::Param("scalar"),
        },
    ],
)];
