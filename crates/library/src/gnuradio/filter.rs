//! Rows for GNU Radio's `filter` module (gr-filter).

use super::common::{is_empty_list, is_zero, no_ty, only, param, ty};
use super::table::{GrBlock, GrType, Mapped};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

const REAL_TAPS: &str =
    "radioflow's FIR filters take real taps and complex or float items in and out";
const NO_DELAY: &str = "radioflow's FIR filters keep tags on their items without a declared delay";

/// A decimating FIR filter where `decim` is not 1 (`fir_filter` has no decimation).
pub(super) fn fir_or_decimating(m: &mut Mapped) -> Result<(), String> {
    match m.param("decimation") {
        Some(Pmt::Int(1)) => {
            m.params.retain(|(n, _)| n != "decimation");
        }
        Some(Pmt::Int(_)) => m.block = "decimating_fir_filter",
        Some(other) => return Err(format!("decim {other:?} is not an integer")),
        None => {}
    }
    Ok(())
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "fir_filter_xxx",
        make: "filter.fir_filter_{type}({decim},{taps})",
        block: "fir_filter",
        types: &[
            no_ty("ccc", REAL_TAPS),
            ty("ccf", Dtype::Complex32),
            no_ty("fcc", REAL_TAPS),
            ty("fff", Dtype::Float32),
            no_ty("fsf", REAL_TAPS),
            no_ty("scc", REAL_TAPS),
        ] as &[GrType],
        params: &[
            param("decim", "decimation"),
            param("taps", "taps"),
            only("samp_delay", is_zero, NO_DELAY),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(fir_or_decimating),
    },
    GrBlock {
        id: "rational_resampler_xxx",
        make: "filter.rational_resampler_{type}(interpolation={interp},decimation={decim},",
        block: "rational_resampler",
        types: &[
            no_ty("ccc", REAL_TAPS),
            ty("ccf", Dtype::Complex32),
            no_ty("fcc", REAL_TAPS),
            ty("fff", Dtype::Float32),
        ] as &[GrType],
        params: &[
            param("interp", "interpolation"),
            param("decim", "decimation"),
            only(
                "taps",
                is_empty_list,
                "radioflow's rational_resampler designs its taps as GNU Radio does when given none",
            ),
            only(
                "fbw",
                is_zero,
                "GNU Radio's default fractional bandwidth, the one radioflow designs for",
            ),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "freq_xlating_fir_filter_xxx",
        make: "filter.freq_xlating_fir_filter_{type}({decim},{taps},{center_freq},{samp_rate})",
        block: "freq_xlating_fir_filter",
        types: &[
            no_ty("ccc", REAL_TAPS),
            ty("ccf", Dtype::Complex32),
            no_ty("fcc", REAL_TAPS),
            no_ty("fcf", REAL_TAPS),
            no_ty("scc", REAL_TAPS),
            no_ty("scf", REAL_TAPS),
        ] as &[GrType],
        params: &[
            param("decim", "decimation"),
            param("taps", "taps"),
            param("center_freq", "centre"),
            param("samp_rate", "sample_rate"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
];
