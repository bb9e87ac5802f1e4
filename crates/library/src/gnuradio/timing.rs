//! Rows for gr-digital's symbol synchronizer (`symbol_sync`) and the EVM meter.

use super::common::{param, row, ty};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// symbol_sync's `ted_type`, but D'Andrea and Mengali's generalized MSK detector: GNU
/// Radio 3.10.5's outputs for it follow neither its documented formula nor any close
/// variant (checked on the same input), so radioflow's, which computes the formula, is
/// not offered under GNU Radio's name.
fn ted_type(v: &Pmt) -> Result<Pmt, String> {
    match v.as_symbol() {
        Some("ted_dandrea_and_mengali_gen_msk") => Err(
            "TED_DANDREA_AND_MENGALI_GEN_MSK: GNU Radio 3.10.5's outputs for it differ from \
             its documented formula, which radioflow computes; not offered as GNU Radio's"
                .into(),
        ),
        Some(s) if s.starts_with("ted_") && s != "ted_none" => Ok(v.clone()),
        _ => Err(format!("{v}: not a timing error detector (digital.TED_*)")),
    }
}

const TED_TYPE: GrParam = GrParam {
    key: "ted_type",
    to: To::Convert("ted_type", ted_type),
};

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "digital_symbol_sync_xx",
        "digital.symbol_sync_{type}({ted_type},{sps},{loop_bw},{damping},{ted_gain},{max_dev},{osps},{constellation},{resamp_type},{nfilters},{pfb_mf_taps})",
        "symbol_sync",
        &[ty("cc", Dtype::Complex32), ty("ff", Dtype::Float32)],
        &[
            TED_TYPE,
            param("constellation", "constellation"),
            param("sps", "sps"),
            param("ted_gain", "ted_gain"),
            param("loop_bw", "loop_bw"),
            param("damping", "damping"),
            param("max_dev", "max_dev"),
            param("osps", "osps"),
            param("resamp_type", "resamp_type"),
            param("nfilters", "nfilters"),
            param("pfb_mf_taps", "pfb_mf_taps"),
        ],
    ),
    row(
        "digital_meas_evm_cc",
        "digital.meas_evm_cc({cons},{meas_type})",
        "meas_evm",
        &[],
        &[
            param("cons", "constellation"),
            param("meas_type", "meas_type"),
        ],
    ),
];
