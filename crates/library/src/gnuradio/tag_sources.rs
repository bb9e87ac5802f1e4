//! Rows for GNU Radio's sources of stream tags (`blocks.tags_strobe`).

use super::common::{param, row, ANY_TYPE, VLEN};
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[row(
    "blocks_tags_strobe",
    "blocks.tags_strobe({type.size}*{vlen},{value},{nsamps},{key})",
    "tags_strobe",
    ANY_TYPE,
    &[
        VLEN,
        param("value", "value"),
        param("key", "key"),
        param("nsamps", "nsamps"),
    ],
)];
