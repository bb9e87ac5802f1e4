//! Rows for GNU Radio's tag blocks: `blocks.tag_debug` (inspection) and
//! `blocks.tagged_stream_mux` (packets of tagged streams joined).

use super::common::{param, row, ANY_TYPE, VLEN};
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_tag_debug",
        "blocks.tag_debug({type.size}*{vlen},{name},{filter})",
        "tag_debug",
        ANY_TYPE,
        &[
            VLEN,
            param("name", "label"),
            param("filter", "filter"),
            param("num_inputs", "num_inputs"),
            param("display", "display"),
        ],
    ),
    row(
        "blocks_tagged_stream_mux",
        "blocks.tagged_stream_mux({type.size}*{vlen},{lengthtagname},{tag_preserve_head_pos})",
        "tagged_stream_mux",
        ANY_TYPE,
        &[
            VLEN,
            param("ninputs", "ninputs"),
            param("lengthtagname", "lengthtagname"),
            param("tag_preserve_head_pos", "tag_preserve_head_pos"),
        ],
    ),
];
