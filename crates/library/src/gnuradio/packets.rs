//! Rows for GNU Radio's packet blocks (gr-digital): CRCs on PDUs and tagged streams.

use super::common::{param, row};
use super::table::GrBlock;

/// The parameters of GNU Radio 3.10's generic CRC blocks, under the same names.
macro_rules! crc_params {
    ($($extra:expr),*) => {
        &[
            param("num_bits", "num_bits"),
            param("poly", "poly"),
            param("initial_value", "initial_value"),
            param("final_xor", "final_xor"),
            param("input_reflected", "input_reflected"),
            param("result_reflected", "result_reflected"),
            param("swap_endianness", "swap_endianness"),
            $($extra,)*
            param("skip_header_bytes", "skip_header_bytes"),
        ]
    };
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "digital_crc32_async_bb",
        "digital.crc32_async_bb({check})",
        "crc32_async",
        &[],
        &[param("check", "check")],
    ),
    row(
        "digital_crc32_bb",
        "digital.crc32_bb({check},{lengthtagname},{packed})",
        "crc32_stream",
        &[],
        &[
            param("check", "check"),
            param("lengthtagname", "lengthtagname"),
            param("packed", "packed"),
        ],
    ),
    row(
        "digital_crc_append",
        "digital.crc_append({num_bits},{poly},{initial_value},{final_xor},{input_reflected},{result_reflected},{swap_endianness},{skip_header_bytes})",
        "crc_append",
        &[],
        crc_params!(),
    ),
    row(
        "digital_crc_check",
        "digital.crc_check({num_bits},{poly},{initial_value},{final_xor},{input_reflected},{result_reflected},{swap_endianness},{discard_crc},{skip_header_bytes})",
        "crc_check",
        &[],
        crc_params!(param("discard_crc", "discard_crc")),
    ),
];
