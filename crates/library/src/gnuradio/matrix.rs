//! Rows for GNU Radio's matrix blocks (`blocks.multiply_matrix_xx`, `blocks.matrix_interleaver`).

use super::common::{param, row, ty, ANY_TYPE, VLEN};
use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// GNU Radio's tag propagation policy (`gr.TPP_*`: 0 dont, 1 all to all, 2 one to one, 3
/// custom, as its Python bindings number them) as the word of radioflow's `multiply_matrix`
/// (custom: by the matrix, what GNU Radio's block does with it).
fn tag_policy(v: &Pmt) -> Result<Pmt, String> {
    let word = match v {
        Pmt::Int(0) => "dont",
        Pmt::Int(1) => "all_to_all",
        Pmt::Int(2) => "one_to_one",
        Pmt::Int(3) => "matrix",
        Pmt::Symbol(s) => match &**s {
            "tpp_dont" | "dont" => "dont",
            "tpp_all_to_all" | "all_to_all" => "all_to_all",
            "tpp_one_to_one" | "one_to_one" => "one_to_one",
            "tpp_custom" | "matrix" => "matrix",
            _ => return Err("not a tag propagation policy (gr.TPP_*)".into()),
        },
        _ => return Err("not a tag propagation policy (gr.TPP_*)".into()),
    };
    Ok(Pmt::symbol(word))
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_multiply_matrix_xx",
        "blocks.multiply_matrix_{type.fcn}({A},{tag_propagation_policy})",
        "multiply_matrix",
        &[ty("float", Dtype::Float32), ty("complex", Dtype::Complex32)] as &[GrType],
        &[
            param("A", "a"),
            GrParam {
                key: "tag_propagation_policy",
                to: To::Convert("tags", tag_policy),
            },
        ],
    ),
    row(
        "blocks_matrix_interleaver",
        "blocks.matrix_interleaver(itemsize={type.size}*{vlen},rows={rows},cols={cols},deint={deint})",
        "matrix_interleaver",
        ANY_TYPE,
        &[
            VLEN,
            param("rows", "rows"),
            param("cols", "cols"),
            param("deint", "deint"),
        ],
    ),
];
