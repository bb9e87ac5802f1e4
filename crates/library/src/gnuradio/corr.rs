//! Rows for gr-digital's correlation estimator (`digital_corr_est_cc`).

use super::common::{param, row};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// GRC's `complex_vector`: a list as it is, a single number as a list of one (GRC makes
/// `(x, )` of a scalar when it writes the Python).
fn symbols(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(_) | Pmt::Double(_) | Pmt::Complex(_) => Ok(Pmt::Vector(vec![v.clone()].into())),
        _ => Ok(v.clone()),
    }
}

/// GNU Radio's `digital.THRESHOLD_ABSOLUTE` (1) or `THRESHOLD_DYNAMIC` (0) (the GRC
/// evaluator's words `threshold_absolute`, `threshold_dynamic`), as radioflow's word.
fn threshold_method(v: &Pmt) -> Result<Pmt, String> {
    Ok(Pmt::symbol(match v {
        Pmt::Int(1) => "absolute",
        Pmt::Int(0) => "dynamic",
        Pmt::Symbol(s) if matches!(&**s, "threshold_absolute" | "absolute") => "absolute",
        Pmt::Symbol(s) if matches!(&**s, "threshold_dynamic" | "dynamic") => "dynamic",
        _ => return Err("not digital.THRESHOLD_ABSOLUTE or digital.THRESHOLD_DYNAMIC".into()),
    }))
}

pub(crate) const ROWS: &[GrBlock] = &[row(
    "digital_corr_est_cc",
    "digital.corr_est_cc({symbols},{sps},{mark_delay},{threshold},{threshold_method})",
    "corr_est",
    &[],
    &[
        GrParam {
            key: "symbols",
            to: To::Convert("symbols", symbols),
        },
        param("sps", "sps"),
        param("mark_delay", "mark_delay"),
        param("threshold", "threshold"),
        GrParam {
            key: "threshold_method",
            to: To::Convert("threshold_method", threshold_method),
        },
    ],
)];
