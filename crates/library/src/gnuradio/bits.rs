//! Rows for gr-blocks' packed/unpacked bit converters (`packed_to_unpacked_xx`,
//! `unpacked_to_packed_xx`).

use super::blocks::bit_order;
use super::common::{is_one, only, param, ty};
use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;

const TYPES: &[GrType] = &[
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
    ty("byte", Dtype::Uint8),
];

const ONE_STREAM: &str = "one input and one output stream; GNU Radio converts each of num_ports \
                          streams alike: use one radioflow block per stream";

const PARAMS: &[GrParam] = &[
    param("bits_per_chunk", "bits_per_chunk"),
    GrParam {
        key: "endianness",
        to: To::Convert("endianness", bit_order),
    },
    only("num_ports", is_one, ONE_STREAM),
];

pub(crate) const ROWS: &[GrBlock] = &[
    super::common::row(
        "blocks_packed_to_unpacked_xx",
        "blocks.packed_to_unpacked_{type.fcn}({bits_per_chunk},{endianness})",
        "packed_to_unpacked",
        TYPES,
        PARAMS,
    ),
    super::common::row(
        "blocks_unpacked_to_packed_xx",
        "blocks.unpacked_to_packed_{type.fcn}({bits_per_chunk},{endianness})",
        "unpacked_to_packed",
        TYPES,
        PARAMS,
    ),
];
