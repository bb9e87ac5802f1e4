//! Rows for gr-digital's modulators and burst shaping.

use super::common::{is_false, no_effect, only, param, row, ty};
use super::table::GrBlock;
use radioflow_runtime::registry::Dtype;

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "digital_constellation_modulator",
        "digital.generic_mod(constellation={constellation},differential={differential},samples_per_symbol={samples_per_symbol},pre_diff_code=True,excess_bw={excess_bw},verbose={verbose},log={log},truncate={truncate})",
        "constellation_modulator",
        &[],
        &[
            param("constellation", "constellation"),
            param("differential", "differential"),
            param("samples_per_symbol", "samples_per_symbol"),
            param("excess_bw", "excess_bw"),
            no_effect(
                "verbose",
                "GNU Radio prints the bits per symbol and the roll-off when it builds the block",
            ),
            only(
                "log",
                is_false,
                "radioflow's modulator writes no files of its stages (GNU Radio's log=True writes tx_bytes2chunks.8b and the like)",
            ),
            param("truncate", "truncate"),
        ],
    ),
    row(
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
    ),
];
