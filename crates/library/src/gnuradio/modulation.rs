//! Rows for gr-digital's modulation helpers: burst shaping.

use super::common::{param, row, ty};
use super::table::GrBlock;
use radioflow_runtime::registry::Dtype;

pub(crate) const ROWS: &[GrBlock] = &[row(
    "digital_burst_shaper_xx",
    "digital.burst_shaper_{type.fcn}({window},{pre_padding},{post_padding},{insert_phasing},{length_tag_name})",
    "burst_shaper",
    &[ty("float", Dtype::Float32), ty("complex", Dtype::Complex32)],
    &[
        param("window", "window"),
        param("pre_padding", "pre_padding"),
        param("post_padding", "post_padding"),
        param("insert_phasing", "insert_phasing"),
        param("length_tag_name", "length_tag_name"),
    ],
)];
