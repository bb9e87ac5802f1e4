//! Rows for gr-blocks' element-wise math and type conversions (radioflow's element-wise
//! family, `crates/blocks/src/element_wise.rs`).

use super::common::{is_false, only, param, row, ty, ARITH_TYPE, VLEN, VLEN_ONE};
use super::table::{GrBlock, GrParam};
use radioflow_runtime::registry::Dtype;

/// Blocks with two inputs or two outputs: no vector items yet.
const NO_VECTORS: &[GrParam] = &[VLEN_ONE];
/// Element-wise blocks of one input and one output: vectors position by position.
const VECTORS: &[GrParam] = &[VLEN];
const SCALE: &[GrParam] = &[VLEN, param("scale", "scale")];
const VECTOR_PAIRS: &str = "I/Q pairs as vectors of two: radioflow's interleaved blocks read and write the pairs as a stream";

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_divide_xx",
        "blocks.divide_{type.fcn}({vlen})",
        "divide",
        ARITH_TYPE,
        &[VLEN, param("num_inputs", "inputs")],
    ),
    row(
        "blocks_multiply_conjugate_cc",
        "blocks.multiply_conjugate_cc({vlen})",
        "multiply_conjugate",
        &[],
        NO_VECTORS,
    ),
    row(
        "blocks_conjugate_cc",
        "blocks.conjugate_cc()",
        "conjugate",
        &[],
        &[],
    ),
    row(
        "blocks_abs_xx",
        "blocks.abs_{type.fcn}({vlen})",
        "abs",
        &[
            ty("int", Dtype::Int32),
            ty("short", Dtype::Int16),
            ty("float", Dtype::Float32),
        ],
        VECTORS,
    ),
    row(
        "blocks_nlog10_ff",
        "blocks.nlog10_ff({n},{vlen},{k})",
        "nlog10",
        &[],
        &[VLEN, param("n", "n"), param("k", "k")],
    ),
    row(
        "blocks_complex_to_real",
        "blocks.complex_to_real({vlen})",
        "complex_to_real",
        &[],
        VECTORS,
    ),
    row(
        "blocks_complex_to_imag",
        "blocks.complex_to_imag({vlen})",
        "complex_to_imag",
        &[],
        VECTORS,
    ),
    row(
        "blocks_complex_to_mag",
        "blocks.complex_to_mag({vlen})",
        "complex_to_mag",
        &[],
        VECTORS,
    ),
    row(
        "blocks_complex_to_mag_squared",
        "blocks.complex_to_mag_squared({vlen})",
        "complex_to_mag_squared",
        &[],
        VECTORS,
    ),
    row(
        "blocks_complex_to_arg",
        "blocks.complex_to_arg({vlen})",
        "complex_to_arg",
        &[],
        VECTORS,
    ),
    row(
        "blocks_complex_to_float",
        "blocks.complex_to_float({vlen})",
        "complex_to_float",
        &[],
        NO_VECTORS,
    ),
    row(
        "blocks_complex_to_magphase",
        "blocks.complex_to_magphase({vlen})",
        "complex_to_magphase",
        &[],
        NO_VECTORS,
    ),
    row(
        "blocks_float_to_complex",
        "blocks.float_to_complex({vlen})",
        "float_to_complex",
        &[],
        NO_VECTORS,
    ),
    row(
        "blocks_magphase_to_complex",
        "blocks.magphase_to_complex({vlen})",
        "magphase_to_complex",
        &[],
        NO_VECTORS,
    ),
    row(
        "blocks_char_to_float",
        "blocks.char_to_float({vlen},{scale})",
        "char_to_float",
        &[],
        SCALE,
    ),
    row(
        "blocks_short_to_float",
        "blocks.short_to_float({vlen},{scale})",
        "short_to_float",
        &[],
        SCALE,
    ),
    row(
        "blocks_int_to_float",
        "blocks.int_to_float({vlen},{scale})",
        "int_to_float",
        &[],
        SCALE,
    ),
    row(
        "blocks_uchar_to_float",
        "blocks.uchar_to_float()",
        "uchar_to_float",
        &[],
        &[],
    ),
    row(
        "blocks_float_to_char",
        "blocks.float_to_char({vlen},{scale})",
        "float_to_char",
        &[],
        SCALE,
    ),
    row(
        "blocks_float_to_short",
        "blocks.float_to_short({vlen},{scale})",
        "float_to_short",
        &[],
        SCALE,
    ),
    row(
        "blocks_float_to_int",
        "blocks.float_to_int({vlen},{scale})",
        "float_to_int",
        &[],
        SCALE,
    ),
    row(
        "blocks_float_to_uchar",
        "blocks.float_to_uchar()",
        "float_to_uchar",
        &[],
        &[],
    ),
    row(
        "blocks_char_to_short",
        "blocks.char_to_short({vlen})",
        "char_to_short",
        &[],
        VECTORS,
    ),
    row(
        "blocks_short_to_char",
        "blocks.short_to_char({vlen})",
        "short_to_char",
        &[],
        VECTORS,
    ),
    row(
        "blocks_complex_to_interleaved_short",
        "blocks.complex_to_interleaved_short({vector_output},{scale_factor})",
        "complex_to_interleaved_short",
        &[],
        &[
            param("scale_factor", "scale"),
            only("vector_output", is_false, VECTOR_PAIRS),
        ],
    ),
    row(
        "blocks_complex_to_interleaved_char",
        "blocks.complex_to_interleaved_char({vector_output},{scale_factor})",
        "complex_to_interleaved_char",
        &[],
        &[
            param("scale_factor", "scale"),
            only("vector_output", is_false, VECTOR_PAIRS),
        ],
    ),
    row(
        "blocks_interleaved_short_to_complex",
        "blocks.interleaved_short_to_complex({vector_input},{swap},{scale_factor})",
        "interleaved_short_to_complex",
        &[],
        &[
            param("scale_factor", "scale"),
            only("vector_input", is_false, VECTOR_PAIRS),
            param("swap", "swap"),
        ],
    ),
    row(
        "blocks_interleaved_char_to_complex",
        "blocks.interleaved_char_to_complex({vector_input},{scale_factor})",
        "interleaved_char_to_complex",
        &[],
        &[
            param("scale_factor", "scale"),
            only("vector_input", is_false, VECTOR_PAIRS),
        ],
    ),
];
