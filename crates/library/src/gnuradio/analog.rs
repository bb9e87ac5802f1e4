//! Rows for GNU Radio's `analog` module (gr-analog).

use super::common::{no_ty, param, ty};
use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

const SIGNAL_TYPES: &str = "radioflow's signal_source makes complex and float samples";

/// GNU Radio's waveform (`analog.GR_COS_WAVE`, its number 102, or the name radioflow's
/// GRC evaluator gives it) as radioflow's `waveform` name.
fn waveform(v: &Pmt) -> Result<Pmt, String> {
    // gr::analog::gr_waveform_t (gnuradio/analog/sig_source_waveform.h): 100 constant,
    // 101 sine, 102 cosine, 103 square, 104 triangle, 105 sawtooth.
    const NAMES: [&str; 6] = [
        "constant", "sine", "cosine", "square", "triangle", "sawtooth",
    ];
    let name = match v {
        Pmt::Int(n @ 100..=105) => NAMES[(n - 100) as usize],
        Pmt::Symbol(s) if NAMES.contains(&&**s) => return Ok(v.clone()),
        _ => return Err("not one of GNU Radio's waveforms (analog.GR_*_WAVE)".into()),
    };
    Ok(Pmt::symbol(name))
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "analog_sig_source_x",
        make: "analog.sig_source_{type.fcn}({samp_rate},{waveform},{freq},{amp},{offset},{phase})",
        block: "signal_source",
        types: &[
            ty("complex", Dtype::Complex32),
            ty("float", Dtype::Float32),
            no_ty("int", SIGNAL_TYPES),
            no_ty("short", SIGNAL_TYPES),
            no_ty("byte", SIGNAL_TYPES),
        ] as &[GrType],
        params: &[
            param("samp_rate", "sample_rate"),
            GrParam {
                key: "waveform",
                to: To::Convert("waveform", waveform),
            },
            param("freq", "frequency"),
            param("amp", "amplitude"),
            param("offset", "offset"),
            param("phase", "phase"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_quadrature_demod_cf",
        make: "analog.quadrature_demod_cf({gain})",
        block: "quadrature_demod",
        types: &[],
        params: &[param("gain", "gain")],
        fixed: &[],
        extra: &[],
        choose: None,
    },
];
