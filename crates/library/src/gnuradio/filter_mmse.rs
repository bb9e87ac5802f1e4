//! The row for gr-filter's MMSE resampler (`mmse_resampler_xx`).

use super::common::{param, row, ty};
use radioflow_runtime::registry::Dtype;

use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[row(
    "mmse_resampler_xx",
    "filter.mmse_resampler_{type.fcn}({phase_shift},{resamp_ratio})",
    "mmse_resampler",
    &[ty("complex", Dtype::Complex32), ty("float", Dtype::Float32)],
    &[
        param("phase_shift", "phase_shift"),
        param("resamp_ratio", "resamp_ratio"),
    ],
)];
