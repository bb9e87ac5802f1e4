//! Rows for GNU Radio's `blocks` module (gr-blocks).

use super::common::{
    is_false, is_nil, is_one, is_true, is_zero, no_effect, only, param, row, ANY_TYPE, ARITH_TYPE,
    VLEN, VLEN_ONE,
};
use super::table::{Choose, GrBlock, GrParam, Mapped, To};
use radioflow_runtime::Pmt;

const GROUPING: &str = "how GRC groups the ports on the canvas";
const NO_RX_RATE: &str = "radioflow's throttle does not follow rx_rate tags";
const CHUNKS: &str =
    "the most items GNU Radio's throttle passes per call; radioflow's passes at most 5 ms worth \
     per call already, the rate is the same";

/// GNU Radio's `vector` parameter: a list, or one value (`vector: 1`).
fn as_list(v: &Pmt) -> Result<Pmt, String> {
    Ok(match v {
        Pmt::Vector(_) => v.clone(),
        Pmt::Tuple(items) => Pmt::Vector(items.clone()),
        single => Pmt::Vector(vec![single.clone()].into()),
    })
}

/// GNU Radio's bit order (`gr.GR_MSB_FIRST` is 0, `gr.GR_LSB_FIRST` 1, as its Python
/// bindings give them) as radioflow's word.
pub(super) fn bit_order(v: &Pmt) -> Result<Pmt, String> {
    let word = match v {
        Pmt::Int(0) => "msb",
        Pmt::Int(1) => "lsb",
        Pmt::Symbol(s) if matches!(&**s, "gr_msb_first" | "msb") => "msb",
        Pmt::Symbol(s) if matches!(&**s, "gr_lsb_first" | "lsb") => "lsb",
        _ => return Err("not a bit order (gr.GR_MSB_FIRST or gr.GR_LSB_FIRST)".into()),
    };
    Ok(Pmt::symbol(word))
}

/// The `_v` constant blocks: one constant (`vlen` 1), or one per position of vectors of `vlen`
/// (`multiply_const_v` / `add_const_v`, whose vector length is their constant's length, which
/// GNU Radio asserts is `vlen`).
fn per_position(m: &mut Mapped) -> Result<(), String> {
    let vlen = match m.param("vlen") {
        Some(Pmt::Int(v)) => *v,
        Some(other) => return Err(format!("vlen {other:?} is not an integer")),
        None => 1,
    };
    if vlen == 1 {
        return Ok(());
    }
    let len = match m.param("k") {
        Some(Pmt::Vector(k)) => k.len(),
        Some(_) => 1,
        None => return Err("const is missing".into()),
    };
    if i64::try_from(len) != Ok(vlen) {
        return Err(format!(
            "const has {len} values but vlen is {vlen}: one constant per position"
        ));
    }
    m.block = match m.block {
        "multiply_const" => "multiply_const_v",
        _ => "add_const_v",
    };
    m.params.retain(|(n, _)| n != "vlen");
    Ok(())
}

/// A row that picks its block by the parameters' values.
const fn choosing(row: GrBlock, choose: Choose) -> GrBlock {
    GrBlock {
        choose: Some(choose),
        ..row
    }
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_null_source",
        "blocks.null_source({type.size}*{vlen})",
        "null_source",
        ANY_TYPE,
        &[
            VLEN,
            only("num_outputs", is_one, "one output"),
            no_effect("bus_structure_source", GROUPING),
        ],
    ),
    row(
        "blocks_null_sink",
        "blocks.null_sink({type.size}*{vlen})",
        "null_sink",
        ANY_TYPE,
        &[
            VLEN,
            only("num_inputs", is_one, "one input"),
            no_effect("bus_structure_sink", GROUPING),
        ],
    ),
    row(
        "blocks_copy",
        "blocks.copy({type.size}*{vlen})",
        "copy",
        ANY_TYPE,
        &[
            VLEN,
            param("enabled", "enabled"),
            no_effect("showports", "GRC's display of the ports"),
        ],
    ),
    row(
        "blocks_head",
        "blocks.head({type.size}*{vlen},{num_items})",
        "head",
        ANY_TYPE,
        &[VLEN, param("num_items", "n")],
    ),
    row(
        "blocks_throttle",
        "blocks.throttle({type.size}*{vlen},{samples_per_second},{ignoretag})",
        "throttle",
        ANY_TYPE,
        &[
            VLEN,
            param("samples_per_second", "sample_rate"),
            only("ignoretag", is_true, NO_RX_RATE),
        ],
    ),
    // GNU Radio 3.10.8's throttle with a limit per call (not in every 3.10).
    row(
        "blocks_throttle2",
        "",
        "throttle",
        ANY_TYPE,
        &[
            VLEN,
            param("samples_per_second", "sample_rate"),
            only("ignoretag", is_true, NO_RX_RATE),
            no_effect("limit", CHUNKS),
            no_effect("maximum", CHUNKS),
        ],
    ),
    row(
        "blocks_multiply_const_xx",
        "blocks.multiply_const_{type.fcn}({const},{vlen})",
        "multiply_const",
        ARITH_TYPE,
        &[VLEN, param("const", "k")],
    ),
    choosing(
        row(
            "blocks_multiply_const_vxx",
            "blocks.multiply_const_{'v'ifcontext.get('vlen')()>1else''}{type.fcn}({const})",
            "multiply_const",
            ARITH_TYPE,
            &[VLEN, param("const", "k")],
        ),
        per_position,
    ),
    choosing(
        row(
            "blocks_add_const_vxx",
            "blocks.add_const_{'v'ifcontext.get('vlen')()>1else''}{type.fcn}({const})",
            "add_const",
            ANY_TYPE,
            &[VLEN, param("const", "k")],
        ),
        per_position,
    ),
    row(
        "blocks_add_xx",
        "blocks.add_v{type.fcn}({vlen})",
        "add",
        ARITH_TYPE,
        &[VLEN, param("num_inputs", "inputs")],
    ),
    row(
        "blocks_sub_xx",
        "blocks.sub_{type.fcn}({vlen})",
        "subtract",
        ARITH_TYPE,
        &[VLEN, param("num_inputs", "inputs")],
    ),
    row(
        "blocks_multiply_xx",
        "blocks.multiply_v{type.fcn}({vlen})",
        "multiply",
        ARITH_TYPE,
        &[VLEN, param("num_inputs", "inputs")],
    ),
    row(
        "blocks_file_source",
        "blocks.file_source({type.size}*{vlen},{file},{repeat},{offset},{length})",
        "file_source",
        ANY_TYPE,
        &[
            VLEN,
            param("file", "path"),
            param("repeat", "repeat"),
            only("offset", is_zero, "reading from the start"),
            only("length", is_zero, "the whole file"),
            only("begin_tag", is_nil, "no begin tag"),
        ],
    ),
    row(
        "blocks_file_sink",
        "blocks.file_sink({type.size}*{vlen},{file},{append})",
        "file_sink",
        ANY_TYPE,
        &[
            VLEN,
            param("file", "path"),
            only("append", is_false, "a new file"),
            only(
                "unbuffered",
                is_false,
                "radioflow's file_sink writes through a buffer flushed when the run stops",
            ),
        ],
    ),
    row(
        "blocks_vector_source_x",
        "blocks.vector_source_{type.fcn}({vector},{repeat},{vlen},{tags})",
        "vector_source",
        ANY_TYPE,
        &[
            VLEN,
            GrParam {
                key: "vector",
                to: To::Convert("data", as_list),
            },
            param("repeat", "repeat"),
            // Tag objects from tagged_streams.make_lengthtags, variable_tag_object and
            // gr.tag_utils.python_to_tag / gr.python_to_tag, each with its source id.
            param("tags", "tags"),
        ],
    ),
    row(
        "blocks_vector_sink_x",
        "blocks.vector_sink_{type.fcn}({vlen},{reserve_items})",
        "vector_sink",
        ANY_TYPE,
        &[
            VLEN,
            no_effect("reserve_items", "a size GNU Radio reserves memory for"),
        ],
    ),
    row(
        "blocks_message_debug",
        "blocks.message_debug({en_uvec})",
        "message_debug",
        &[],
        &[param("en_uvec", "print_vectors")],
    ),
    row(
        "blocks_stream_to_tagged_stream",
        "blocks.stream_to_tagged_stream({type.size},{vlen},{packet_len},{len_tag_key})",
        "stream_to_tagged_stream",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("packet_len", "packet_len"),
            param("len_tag_key", "len_tag_key"),
        ],
    ),
    row(
        "blocks_unpack_k_bits_bb",
        "blocks.unpack_k_bits_bb({k})",
        "unpack_k_bits",
        &[],
        &[param("k", "k")],
    ),
    row(
        "blocks_pack_k_bits_bb",
        "blocks.pack_k_bits_bb({k})",
        "pack_k_bits",
        &[],
        &[param("k", "k")],
    ),
    row(
        "blocks_repack_bits_bb",
        "blocks.repack_bits_bb({k},{l},{len_tag_key},{align_output},{endianness})",
        "repack_bits",
        &[],
        &[
            param("k", "k"),
            param("l", "l"),
            param("len_tag_key", "len_tag_key"),
            param("align_output", "align_output"),
            GrParam {
                key: "endianness",
                to: To::Convert("endianness", bit_order),
            },
        ],
    ),
];
