//! Rows for gr-digital's synchronizers: symbol timing and carrier recovery.

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
        "digital_pfb_clock_sync_xxx",
        "digital.pfb_clock_sync_{type}({sps},{loop_bw},{taps},{filter_size},{init_phase},{max_dev},{osps})",
        "pfb_clock_sync",
        &[ty("ccf", Dtype::Complex32), ty("fff", Dtype::Float32)],
        &[
            param("sps", "sps"),
            param("loop_bw", "loop_bw"),
            param("taps", "taps"),
            param("filter_size", "filter_size"),
            param("init_phase", "init_phase"),
            param("max_dev", "max_rate_deviation"),
            param("osps", "osps"),
        ],
    ),
    row(
        "digital_costas_loop_cc",
        "digital.costas_loop_cc({w},{order},{use_snr})",
        "costas_loop",
        &[],
        &[
            param("w", "loop_bw"),
            param("order", "order"),
            param("use_snr", "use_snr"),
        ],
    ),
    row(
        "digital_fll_band_edge_cc",
        "digital.fll_band_edge_cc({samps_per_sym},{rolloff},{filter_size},{w})",
        "fll_band_edge",
        &[ty("cc", Dtype::Complex32)],
        &[
            param("samps_per_sym", "samps_per_sym"),
            param("rolloff", "rolloff"),
            param("filter_size", "filter_size"),
            param("w", "loop_bw"),
        ],
    ),
];
