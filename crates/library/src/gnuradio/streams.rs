//! Rows for gr-blocks' everyday stream blocks: routing (delay, selector, muxes,
//! interleaving, decimation by keeping, repeating, skipping, muting) and everyday math
//! (moving average, integration, threshold, sample and hold, peak detection).

use super::common::{no_effect, param, row, ty, ANY_TYPE, ARITH_TYPE, VLEN_ONE};
use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;
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
    row(
        "blocks_moving_average_xx",
        "blocks.moving_average_{type.fcn}({length},{scale},{max_iter},{vlen})",
        "moving_average",
        ARITH_TYPE,
        &[
            VLEN_ONE,
            param("length", "length"),
            param("scale", "scale"),
            param("max_iter", "max_iter"),
        ],
    ),
    row(
        "blocks_integrate_xx",
        "blocks.integrate_{type.fcn}({decim},{vlen})",
        "integrate",
        ARITH_TYPE,
        &[VLEN_ONE, param("decim", "decim")],
    ),
    row(
        "blocks_threshold_ff",
        "blocks.threshold_ff({low},{high},{init})",
        "threshold",
        &[],
        &[
            param("low", "low"),
            param("high", "high"),
            param("init", "init"),
        ],
    ),
    row(
        "blocks_sample_and_hold_xx",
        "blocks.sample_and_hold_{type.fcn}()",
        "sample_and_hold",
        &[
            ty("float", Dtype::Float32),
            ty("int", Dtype::Int32),
            ty("short", Dtype::Int16),
            ty("byte", Dtype::Uint8),
        ],
        &[],
    ),
    row(
        "blocks_peak_detector_xb",
        "blocks.peak_detector_{type.fcn}b({threshold_factor_rise},{threshold_factor_fall},{look_ahead},{alpha})",
        "peak_detector",
        PEAK_TYPES,
        &[
            param("threshold_factor_rise", "threshold_factor_rise"),
            param("threshold_factor_fall", "threshold_factor_fall"),
            param("alpha", "alpha"),
            no_effect(
                "look_ahead",
                "GNU Radio's peak_detector_xb keeps it and never reads it",
            ),
        ],
    ),
    row(
        "blocks_peak_detector2_fb",
        "blocks.peak_detector2_fb({threshold_factor_rise},{look_ahead},{alpha})",
        "peak_detector2",
        &[],
        &[
            param("threshold_factor_rise", "threshold_factor_rise"),
            param("look_ahead", "look_ahead"),
            param("alpha", "alpha"),
        ],
    ),
];

/// The input types of `peak_detector_xb` (`type.fcn` f, i, s).
const PEAK_TYPES: &[GrType] = &[
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
];
