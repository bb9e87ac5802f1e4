//! Rows for gr-digital's synchronizers: symbol timing and carrier recovery.

use super::common::{param, row, ty};
use super::table::GrBlock;
use radioflow_runtime::registry::Dtype;

pub(crate) const ROWS: &[GrBlock] = &[
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
