//! Rows for GNU Radio's metadata files (`blocks.file_meta_sink`, `blocks.file_meta_source`),
//! radioflow-interop's `file_meta` blocks.

use super::common::{param, row, ty, VLEN};
use super::table::{GrBlock, GrType};
use radioflow_runtime::registry::Dtype;

/// Their item types (`type.size`; the sink's `type.dtype` and `type.cplx` follow from it).
const TYPES: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
    ty("byte", Dtype::Uint8),
];

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_file_meta_sink",
        "blocks.file_meta_sink({type.size}*{vlen},{file},{samp_rate},{rel_rate},{type.dtype},{type.cplx},{max_seg_size},{extra_dict},{detached})",
        "file_meta_sink",
        TYPES,
        &[
            VLEN,
            param("file", "path"),
            param("samp_rate", "sample_rate"),
            param("rel_rate", "rel_rate"),
            param("max_seg_size", "max_seg_size"),
            param("extra_dict", "extra_dict"),
            param("detached", "detached"),
            param("unbuffered", "unbuffered"),
        ],
    ),
    row(
        "blocks_file_meta_source",
        "blocks.file_meta_source({file},{repeat},{detached},{hdr_file})",
        "file_meta_source",
        TYPES,
        &[
            VLEN,
            param("file", "path"),
            param("repeat", "repeat"),
            param("detached", "detached"),
            param("hdr_file", "hdr_path"),
        ],
    ),
];
