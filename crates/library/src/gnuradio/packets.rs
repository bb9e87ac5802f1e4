//! Rows for GNU Radio's packet blocks (gr-digital): CRCs on PDUs and tagged streams, packet
//! headers made and parsed (the `format` object is the text form of radioflow's
//! `HeaderFormat`, which the GRC evaluator makes from `digital.header_format_*()` calls).

use super::common::{param, row, ANY_TYPE};
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
    row(
        "digital_protocol_formatter_async",
        "digital.protocol_formatter_async({format})",
        "protocol_formatter_async",
        &[],
        &[param("format", "format")],
    ),
    row(
        "digital_protocol_formatter_bb",
        "digital.protocol_formatter_bb({format},{len_tag_key})",
        "protocol_formatter",
        &[],
        &[param("format", "format"), param("len_tag_key", "len_tag_key")],
    ),
    row(
        "digital_protocol_parser_b",
        "digital.protocol_parser_b({format})",
        "protocol_parser",
        &[],
        &[param("format", "format")],
    ),
    row(
        "digital_header_payload_demux",
        "digital.header_payload_demux({header_len},{items_per_symbol},{guard_interval},{length_tag_key},{trigger_tag_key},{output_symbols},{type.itemsize},{timing_tag_key},{samp_rate},{special_tags},{header_padding})",
        "header_payload_demux",
        ANY_TYPE,
        &[
            param("header_len", "header_len"),
            param("header_padding", "header_padding"),
            param("items_per_symbol", "items_per_symbol"),
            param("guard_interval", "guard_interval"),
            param("length_tag_key", "length_tag_key"),
            param("trigger_tag_key", "trigger_tag_key"),
            param("output_symbols", "output_symbols"),
            param("timing_tag_key", "timing_tag_key"),
            param("samp_rate", "samp_rate"),
            param("special_tags", "special_tags"),
        ],
    ),
];
