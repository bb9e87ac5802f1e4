//! Rows for the blocks of GNU Radio's modem examples: gr-digital's correlation estimator
//! (`digital_corr_est_cc`), GMSK modulator (`digital_gmsk_mod`), Mueller and Müller clock
//! recovery (`digital_clock_recovery_mm_xx`) and gr-channels' hardware
//! impairments (`channels_impairments`).

use super::common::{is_false, no_effect, only, param, row, ty};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::registry::Dtype;
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

pub(crate) const ROWS: &[GrBlock] = &[
row(
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
),
    row(
        "channels_impairments",
        "channels.impairments({phase_noise_mag},{magbal},{phasebal},{q_ofs},{i_ofs},{freq_offset},{gamma},{beta})",
        "impairments",
        &[],
        &[
            param("phase_noise_mag", "phase_noise_mag"),
            param("magbal", "magbal"),
            param("phasebal", "phasebal"),
            param("q_ofs", "q_ofs"),
            param("i_ofs", "i_ofs"),
            param("freq_offset", "freq_offset"),
            param("gamma", "gamma"),
            param("beta", "beta"),
        ],
    ),
    row(
        "digital_gmsk_mod",
        "digital.gmsk_mod(samples_per_symbol={samples_per_symbol},bt={bt},verbose={verbose},log={log},do_unpack={do_unpack})",
        "gmsk_mod",
        &[],
        &[
            param("samples_per_symbol", "samples_per_symbol"),
            param("bt", "bt"),
            no_effect(
                "verbose",
                "GNU Radio prints the bits per symbol and BT when it builds the block",
            ),
            only(
                "log",
                is_false,
                "radioflow's modulator writes no files of its stages (GNU Radio's log=True writes nrz.dat, gaussian_filter.dat and fmmod.dat)",
            ),
            param("do_unpack", "do_unpack"),
        ],
    ),
    row(
        "digital_clock_recovery_mm_xx",
        "digital.clock_recovery_mm_{type.fcn}({omega},{gain_omega},{mu},{gain_mu},{omega_relative_limit})",
        "clock_recovery_mm",
        &[
            ty("complex", Dtype::Complex32),
            ty("float", Dtype::Float32),
        ],
        &[
            param("omega", "omega"),
            param("gain_omega", "gain_omega"),
            param("mu", "mu"),
            param("gain_mu", "gain_mu"),
            param("omega_relative_limit", "omega_relative_limit"),
        ],
    ),
];
