//! Rows for gr-analog's automatic gain controls (`agc_xx`, `agc2_xx`).

use super::common::{param, ty};
use super::table::{GrBlock, GrType};
use radioflow_runtime::registry::Dtype;

const TYPES: &[GrType] = &[ty("complex", Dtype::Complex32), ty("float", Dtype::Float32)];

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "analog_agc_xx",
        make: "analog.agc_{type.fcn}({rate},{reference},{gain})",
        block: "agc",
        types: TYPES,
        params: &[
            param("rate", "rate"),
            param("reference", "reference"),
            param("gain", "gain"),
            param("max_gain", "max_gain"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_agc2_xx",
        make: "analog.agc2_{type.fcn}({attack_rate},{decay_rate},{reference},{gain})",
        block: "agc2",
        types: TYPES,
        params: &[
            param("attack_rate", "attack_rate"),
            param("decay_rate", "decay_rate"),
            param("reference", "reference"),
            param("gain", "gain"),
            param("max_gain", "max_gain"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
];
