//! Rows for gr-blocks' everyday stream blocks: routing (delay, selector, muxes,
//! interleaving, decimation by keeping, repeating, skipping, muting).

use super::common::{no_effect, param, row, ANY_TYPE, ARITH_TYPE, VLEN_ONE};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// GNU Radio's `int_vector` (a tuple, a list, or one number) as a list.
fn int_list(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Vector(_) => Ok(v.clone()),
        Pmt::Tuple(items) => Ok(Pmt::Vector(items.clone())),
        Pmt::Int(_) | Pmt::Uint64(_) => Ok(Pmt::Vector(vec![v.clone()].into())),
        _ => Err("not a list of counts".into()),
    }
}

const LENGTHS: GrParam = GrParam {
    key: "lengths",
    to: To::Convert("lengths", int_list),
};

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_delay",
        "blocks.delay({type.size}*{vlen},{delay})",
        "delay",
        ANY_TYPE,
        &[VLEN_ONE, param("delay", "dly"), param("num_ports", "ports")],
    ),
    row(
        "blocks_selector",
        "blocks.selector({type.size}*{vlen},{input_index},{output_index})",
        "selector",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("enabled", "enabled"),
            param("num_inputs", "inputs"),
            param("num_outputs", "outputs"),
            param("input_index", "input_index"),
            param("output_index", "output_index"),
            no_effect("showports", "GRC's display of the message ports"),
        ],
    ),
    row(
        "blocks_stream_mux",
        "blocks.stream_mux({type.size}*{vlen},{lengths})",
        "stream_mux",
        ANY_TYPE,
        &[
            VLEN_ONE,
            LENGTHS,
            no_effect(
                "num_inputs",
                "one input per length, as GRC asserts (num_inputs == len(lengths))",
            ),
        ],
    ),
    row(
        "blocks_stream_demux",
        "blocks.stream_demux({type.size}*{vlen},{lengths})",
        "stream_demux",
        ANY_TYPE,
        &[
            VLEN_ONE,
            LENGTHS,
            no_effect(
                "num_outputs",
                "one output per length, as GRC asserts (num_outputs == len(lengths))",
            ),
        ],
    ),
    row(
        "blocks_interleave",
        "blocks.interleave({type.size}*{vlen},{blocksize})",
        "interleave",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("num_streams", "inputs"),
            param("blocksize", "blocksize"),
        ],
    ),
    row(
        "blocks_deinterleave",
        "blocks.deinterleave({type.size}*{vlen},{blocksize})",
        "deinterleave",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("num_streams", "outputs"),
            param("blocksize", "blocksize"),
        ],
    ),
    row(
        "blocks_keep_one_in_n",
        "blocks.keep_one_in_n({type.size}*{vlen},{n})",
        "keep_one_in_n",
        ANY_TYPE,
        &[VLEN_ONE, param("n", "n")],
    ),
    row(
        "blocks_keep_m_in_n",
        "blocks.keep_m_in_n({type.size},{m},{n},{offset})",
        "keep_m_in_n",
        ANY_TYPE,
        &[param("m", "m"), param("n", "n"), param("offset", "offset")],
    ),
    row(
        "blocks_repeat",
        "blocks.repeat({type.size}*{vlen},{interp})",
        "repeat",
        ANY_TYPE,
        &[VLEN_ONE, param("interp", "interp")],
    ),
    row(
        "blocks_skiphead",
        "blocks.skiphead({type.size}*{vlen},{num_items})",
        "skiphead",
        ANY_TYPE,
        &[VLEN_ONE, param("num_items", "n")],
    ),
    row(
        "blocks_mute_xx",
        "blocks.mute_{type.fcn}(bool({mute}))",
        "mute",
        ARITH_TYPE,
        &[param("mute", "mute")],
    ),
];
