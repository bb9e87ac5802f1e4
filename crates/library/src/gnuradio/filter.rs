//! Rows for GNU Radio's `filter` module (gr-filter).

use super::common::{is_empty_list, no_ty, only, param, ty, ty_on};
use super::table::{GrBlock, GrType, Mapped};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

const REAL_TAPS: &str =
    "radioflow's FIR filters take real taps and complex or float items in and out";
/// Why `fcc`/`scc` are refused where `ccc` runs.
pub(super) const REAL_IN_COMPLEX_TAPS: &str = "complex taps on float or short samples: \
     radioflow's complex-tap FIR filters take complex samples (convert the input to complex \
     first: the same outputs)";
/// Why `fsf` is refused.
pub(super) const SHORT_OUT: &str =
    "short output: radioflow's FIR filters make the float or complex items they take";
/// A decimating FIR filter where `decim` is not 1 (`fir_filter` has no decimation; the
/// complex-taps `complex_fir_filter` has). `samp_delay` (mapped to `delay`) passes to each:
/// every FIR filter moves its tags by it, as GNU Radio's `declare_sample_delay`.
pub(super) fn fir_or_decimating(m: &mut Mapped) -> Result<(), String> {
    if m.block != "fir_filter" {
        return Ok(());
    }
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
            ty_on("ccc", Dtype::Complex32, "complex_fir_filter"),
            ty("ccf", Dtype::Complex32),
            no_ty("fcc", REAL_IN_COMPLEX_TAPS),
            ty("fff", Dtype::Float32),
            no_ty("fsf", SHORT_OUT),
            no_ty("scc", REAL_IN_COMPLEX_TAPS),
        ] as &[GrType],
        params: &[
            param("decim", "decimation"),
            param("taps", "taps"),
            param("samp_delay", "delay"),
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
            // GRC writes -1.0 (GNU Radio's "default") for an empty or zero `fbw`; radioflow's
            // block reads 0 as that default.
            param("fbw", "fractional_bw"),
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
