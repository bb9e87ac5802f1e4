//! Rows for gr-filter's resamplers and filters beyond the plain FIR ones of `filter.rs`:
//! the polyphase arbitrary resampler, the FFT filters and the interpolating FIR filter; and
//! the DC blocker; gr-analog's frequency modulator, the single-pole IIR filter and the RMS level.

use super::common::{no_effect, no_ty, param, ty, ty_on, VLEN_ONE};
use super::filter::{fir_or_decimating, REAL_IN_COMPLEX_TAPS, SHORT_OUT};
use super::table::{GrBlock, GrParam, GrType, Mapped, To};
use radioflow_blocks::dsp::PfbArbResampler;
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// GRC's `real_vector` taps: a list as it is, a single number as a list of one (GRC makes
/// `(x, )` of a scalar when it writes the Python); `''`/`None`/`[]` is no taps.
fn taps(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(_) | Pmt::Double(_) => Ok(Pmt::Vector(vec![v.clone()].into())),
        Pmt::Null => Ok(Pmt::Vector(Vec::new().into())),
        Pmt::Symbol(s) if s.is_empty() => Ok(Pmt::Vector(Vec::new().into())),
        _ => Ok(v.clone()),
    }
}

/// No taps given: GNU Radio's Python wrapper designs its own (`taps if taps else None`,
/// `create_taps(rate, nfilts, 100)`): so does the mapping, with radioflow-dsp's copy of that
/// design (checked against GNU Radio's taps).
fn default_taps_when_empty(m: &mut Mapped) -> Result<(), String> {
    let empty = match m.param("taps") {
        Some(Pmt::Vector(v) | Pmt::Tuple(v)) => v.is_empty(),
        Some(Pmt::F32Vector(v)) => v.is_empty(),
        Some(Pmt::F64Vector(v)) => v.is_empty(),
        None => true,
        _ => false,
    };
    if !empty {
        return Ok(());
    }
    let number = |name: &str, default: f64| match m.param(name) {
        None => Ok(default),
        Some(Pmt::Int(i)) => Ok(*i as f64),
        Some(Pmt::Double(x)) => Ok(*x),
        Some(other) => Err(format!("{name} {other:?} is not a number")),
    };
    let (rate, filters) = (number("rate", f64::NAN)?, number("filters", 32.0)?);
    if !(filters >= 1.0 && filters.fract() == 0.0) {
        return Err(format!(
            "nfilts {filters} must be a whole number of at least 1"
        ));
    }
    let taps = PfbArbResampler::<f32>::default_taps(rate, filters as usize, 100.0)
        .map_err(|e| format!("taps: GNU Radio's default design: {e}"))?;
    m.params.retain(|(n, _)| n != "taps");
    let taps: Vec<Pmt> = taps.into_iter().map(|t| Pmt::Double(t.into())).collect();
    m.params.push(("taps".to_owned(), Pmt::Vector(taps.into())));
    Ok(())
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "dc_blocker_xx",
        make: "filter.dc_blocker_{type}({length},{long_form})",
        block: "dc_blocker",
        types: &[ty("cc", Dtype::Complex32), ty("ff", Dtype::Float32)] as &[GrType],
        params: &[param("length", "length"), param("long_form", "long_form")],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "single_pole_iir_filter_xx",
        make: "filter.single_pole_iir_filter_{type.fcn}({alpha},{vlen})",
        block: "single_pole_iir_filter",
        types: &[ty("complex", Dtype::Complex32), ty("float", Dtype::Float32)] as &[GrType],
        params: &[param("alpha", "alpha"), VLEN_ONE],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "blocks_rms_xx",
        make: "blocks.rms_{type.fcn}f({alpha})",
        block: "rms",
        types: &[ty("complex", Dtype::Complex32), ty("float", Dtype::Float32)] as &[GrType],
        params: &[param("alpha", "alpha")],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_frequency_modulator_fc",
        make: "analog.frequency_modulator_fc({sensitivity})",
        block: "frequency_modulator",
        types: &[],
        params: &[param("sensitivity", "sensitivity")],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "interp_fir_filter_xxx",
        make: "filter.interp_fir_filter_{type}({interp},{taps})",
        block: "interp_fir_filter",
        types: &[
            ty_on("ccc", Dtype::Complex32, "complex_interp_fir_filter"),
            ty("ccf", Dtype::Complex32),
            no_ty("fcc", REAL_IN_COMPLEX_TAPS),
            ty("fff", Dtype::Float32),
            no_ty("fsf", SHORT_OUT),
            no_ty("scc", REAL_IN_COMPLEX_TAPS),
        ] as &[GrType],
        params: &[
            param("interp", "interpolation"),
            param("taps", "taps"),
            param("samp_delay", "delay"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "fft_filter_xxx",
        make: "filter.fft_filter_{type}({decim},{taps},{nthreads})",
        // The same convolution as GNU Radio's FFT filter (its blocks of FFTs are a way to compute
        // it): outputs equal to float rounding, decimation phase and tags included
        // (tests/gnuradio_filters.rs in radioflow-blocks).
        block: "fir_filter",
        types: &[
            ty_on("ccc", Dtype::Complex32, "complex_fir_filter"),
            ty("ccf", Dtype::Complex32),
            ty("fff", Dtype::Float32),
        ] as &[GrType],
        params: &[
            param("decim", "decimation"),
            param("taps", "taps"),
            param("samp_delay", "delay"),
            no_effect(
                "nthreads",
                "the threads GNU Radio's FFTW uses for each transform; radioflow computes the \
             convolution directly (SIMD), with the same outputs",
            ),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(fir_or_decimating),
    },
    GrBlock {
        id: "pfb_arb_resampler_xxx",
        make: "pfb.arb_resampler_{type}(",
        block: "pfb_arb_resampler",
        types: &[
            ty("ccf", Dtype::Complex32),
            ty("fff", Dtype::Float32),
            no_ty(
                "ccc",
                "complex taps: radioflow's pfb_arb_resampler block takes real taps (its kernel \
             filters by complex taps as two real banks, but the block has no complex-taps \
             parameter yet)",
            ),
        ] as &[GrType],
        params: &[
            param("rrate", "rate"),
            GrParam {
                key: "taps",
                to: To::Convert("taps", taps),
            },
            param("nfilts", "filters"),
            GrParam {
                key: "atten",
                to: To::NoEffect(
                    "GNU Radio 3.10's Python template does not pass it: a flowgraph without taps \
                 gets the default design at 100 dB whatever its value (only the C++ template \
                 uses it); radioflow designs as the Python flowgraph does",
                ),
            },
            param("samp_delay", "delay"),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(default_taps_when_empty),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(params: Vec<(&str, Pmt)>) -> Mapped {
        Mapped {
            block: "pfb_arb_resampler",
            dtype: Some(Dtype::Complex32),
            params: params.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_resampler_without_taps_gets_gnu_radios_default_design() {
        let mut m = mapped(vec![("rate", Pmt::Double(1.5)), ("filters", Pmt::Int(32))]);
        default_taps_when_empty(&mut m).unwrap();
        let want = PfbArbResampler::<f32>::default_taps(1.5, 32, 100.0).unwrap();
        match m.param("taps") {
            Some(Pmt::Vector(t)) => assert_eq!(t.len(), want.len()),
            other => panic!("{other:?}"),
        }
        // Given taps stay as they are.
        let taps = Pmt::Vector(vec![Pmt::Double(1.0)].into());
        let mut m = mapped(vec![("rate", Pmt::Double(1.5)), ("taps", taps.clone())]);
        default_taps_when_empty(&mut m).unwrap();
        assert_eq!(m.param("taps"), Some(&taps));
        // A bad rate is named.
        let mut m = mapped(vec![("rate", Pmt::Double(-1.0))]);
        assert!(default_taps_when_empty(&mut m)
            .unwrap_err()
            .contains("rate"));
    }
}
