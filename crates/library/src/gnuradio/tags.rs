//! Rows for GNU Radio's tag inspection blocks (`blocks.tag_debug`).

use super::common::{param, row, ANY_TYPE, VLEN};
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[row(
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
)];
