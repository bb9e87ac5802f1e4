//! Rows for gr-filter's convenience filters (`low_pass_filter`, `high_pass_filter`,
//! `band_pass_filter`, `band_reject_filter`, `root_raised_cosine_filter`,
//! `filter_fft_low_pass_filter`): GNU Radio's templates make a FIR filter (decimating or
//! interpolating by the `type`) with taps from a `firdes` call on the block's parameters. The
//! rows pass those parameters under `_` names to their `choose`, which designs the taps with
//! radioflow-dsp's `firdes` (checked against GNU Radio's taps) and leaves the FIR filter's
//! parameters only.

use super::common::{no_effect, no_ty, param, ty, ty_on};
use super::filter::fir_or_decimating;
use super::table::{GrBlock, GrParam, GrType, Mapped};
use radioflow_blocks::dsp::firdes::{self, Window};
use radioflow_blocks::dsp::ParamError;
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// A window design: gain, sample rate, cutoff, transition width, window.
type Design = fn(f64, f64, f64, f64, Window) -> Result<Vec<f32>, ParamError>;

/// The `firdes` parameters of the window designs, under the names `choose` reads.
const DESIGN_PARAMS: [GrParam; 6] = [
    param("gain", "_gain"),
    param("samp_rate", "_samp_rate"),
    param("cutoff_freq", "_cutoff_freq"),
    param("width", "_width"),
    param("win", "_win"),
    param("beta", "_beta"),
];

/// The window GRC's `win` names (`window.WIN_HAMMING` evaluates to the word `hamming`).
fn window(win: Option<&Pmt>, beta: f64) -> Result<Window, String> {
    Ok(match win {
        None => Window::Hamming,
        Some(Pmt::Symbol(s)) => match &**s {
            "hamming" => Window::Hamming,
            "hann" => Window::Hann,
            "blackman" => Window::Blackman,
            "rectangular" => Window::Rectangular,
            "kaiser" => Window::Kaiser { beta },
            "blackman_harris" => Window::BlackmanHarris,
            other => {
                return Err(format!(
                    "win: window {other} is not one radioflow's firdes designs with (hamming, \
                     hann, blackman, rectangular, kaiser, blackman_harris)"
                ));
            }
        },
        Some(other) => return Err(format!("win: {other:?} is not a window")),
    })
}

/// A number among the `_` parameters (GRC's `default` where left out).
fn number(m: &Mapped, name: &str, default: Option<f64>) -> Result<f64, String> {
    match m.param(name) {
        Some(Pmt::Int(i)) => Ok(*i as f64),
        Some(Pmt::Double(x)) => Ok(*x),
        None => default.ok_or_else(|| format!("{} is needed", &name[1..])),
        Some(other) => Err(format!("{}: {other:?} is not a number", &name[1..])),
    }
}

/// GRC's `win` and `beta` as a window.
fn window_of(m: &Mapped) -> Result<Window, String> {
    window(m.param("_win"), number(m, "_beta", Some(6.76))?)
}

/// A `firdes` error, named.
fn named(e: ParamError) -> String {
    format!("firdes: {} {}", e.name, e.reason)
}

/// Puts `taps` in place of the `_` parameters, then keeps the FIR filter's own:
/// `interpolation` for the interpolating types, else `decimation` (a decimating filter where
/// it is not 1), as GNU Radio's template passes `interp if type starts with interp else
/// decim`.
fn with_taps(m: &mut Mapped, taps: Vec<Pmt>) -> Result<(), String> {
    m.params.retain(|(n, _)| !n.starts_with('_'));
    m.params.push(("taps".to_owned(), Pmt::Vector(taps.into())));
    if m.block.ends_with("interp_fir_filter") {
        m.params.retain(|(n, _)| n != "decimation");
        Ok(())
    } else {
        m.params.retain(|(n, _)| n != "interpolation");
        fir_or_decimating(m)
    }
}

fn real(taps: Vec<f32>) -> Vec<Pmt> {
    taps.into_iter().map(|t| Pmt::Double(t.into())).collect()
}

/// Designs the taps with `design` from the `_` parameters (GRC's defaults for those left
/// out).
fn designed(m: &mut Mapped, design: Design) -> Result<(), String> {
    let (gain, rate) = (
        number(m, "_gain", Some(1.0))?,
        number(m, "_samp_rate", None)?,
    );
    let (cutoff, width) = (number(m, "_cutoff_freq", None)?, number(m, "_width", None)?);
    let taps = design(gain, rate, cutoff, width, window_of(m)?).map_err(named)?;
    with_taps(m, real(taps))
}

/// A band design: gain, sample rate, low and high cutoffs, transition width, window.
type Band = fn(f64, f64, f64, f64, f64, Window) -> Result<Vec<f32>, ParamError>;

/// Designs band taps with `design`, or `firdes.complex_band_pass` for the complex-taps types
/// (the rows' `ccc` options become the `complex_` blocks).
fn band(m: &mut Mapped, design: Band) -> Result<(), String> {
    let (gain, rate) = (
        number(m, "_gain", Some(1.0))?,
        number(m, "_samp_rate", None)?,
    );
    let low = number(m, "_low_cutoff_freq", None)?;
    let high = number(m, "_high_cutoff_freq", None)?;
    let (width, win) = (number(m, "_width", None)?, window_of(m)?);
    let taps = if m.block.starts_with("complex_") {
        firdes::complex_band_pass(gain, rate, low, high, width, win)
            .map_err(named)?
            .into_iter()
            .map(|t| {
                Pmt::Complex(radioflow_runtime::pmt::Complex64::new(
                    t.re.into(),
                    t.im.into(),
                ))
            })
            .collect()
    } else {
        real(design(gain, rate, low, high, width, win).map_err(named)?)
    };
    with_taps(m, taps)
}

fn low_pass(m: &mut Mapped) -> Result<(), String> {
    designed(m, firdes::low_pass)
}

fn high_pass(m: &mut Mapped) -> Result<(), String> {
    designed(m, firdes::high_pass)
}

fn band_pass(m: &mut Mapped) -> Result<(), String> {
    band(m, firdes::band_pass)
}

fn band_reject(m: &mut Mapped) -> Result<(), String> {
    band(m, firdes::band_reject)
}

fn root_raised_cosine(m: &mut Mapped) -> Result<(), String> {
    let (gain, rate) = (
        number(m, "_gain", Some(1.0))?,
        number(m, "_samp_rate", None)?,
    );
    let (symbols, alpha) = (
        number(m, "_sym_rate", Some(1.0))?,
        number(m, "_alpha", Some(0.35))?,
    );
    let ntaps = match m.param("_ntaps") {
        Some(Pmt::Int(n)) if *n >= 1 => *n as usize,
        other => {
            return Err(format!(
                "ntaps: {other:?} is not a whole number of at least 1"
            ))
        }
    };
    let taps = firdes::root_raised_cosine(gain, rate, symbols, alpha, ntaps).map_err(named)?;
    with_taps(m, real(taps))
}

/// The `type` of `low_pass_filter` and `high_pass_filter`: the FIR filter GNU Radio makes.
const FIR_TYPES: &[GrType] = &[
    ty("fir_filter_ccf", Dtype::Complex32),
    ty_on(
        "interp_fir_filter_ccf",
        Dtype::Complex32,
        "interp_fir_filter",
    ),
    ty("fir_filter_fff", Dtype::Float32),
    ty_on("interp_fir_filter_fff", Dtype::Float32, "interp_fir_filter"),
];

/// The parameters of `low_pass_filter` and `high_pass_filter`.
const FIR_PARAMS: &[GrParam] = &[
    param("decim", "decimation"),
    param("interp", "interpolation"),
    DESIGN_PARAMS[0],
    DESIGN_PARAMS[1],
    DESIGN_PARAMS[2],
    DESIGN_PARAMS[3],
    DESIGN_PARAMS[4],
    DESIGN_PARAMS[5],
];

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "low_pass_filter",
        make: "filter.{type}(",
        block: "fir_filter",
        types: FIR_TYPES,
        params: FIR_PARAMS,
        fixed: &[],
        extra: &[],
        choose: Some(low_pass),
    },
    GrBlock {
        id: "high_pass_filter",
        make: "filter.{type}(",
        block: "fir_filter",
        types: FIR_TYPES,
        params: FIR_PARAMS,
        fixed: &[],
        extra: &[],
        choose: Some(high_pass),
    },
    GrBlock {
        id: "filter_fft_low_pass_filter",
        make: "filter.fft_filter_{type}({decim},firdes.low_pass({gain},{samp_rate},",
        // GNU Radio's FFT filter computes the FIR filter's convolution (see fft_filter_xxx);
        // its `ccc` converts the real low-pass taps to complex ones, the same filter as
        // real taps on complex samples.
        block: "fir_filter",
        types: &[
            ty("ccc", Dtype::Complex32),
            ty("ccf", Dtype::Complex32),
            ty("fff", Dtype::Float32),
        ] as &[GrType],
        params: &[
            param("decim", "decimation"),
            DESIGN_PARAMS[0],
            DESIGN_PARAMS[1],
            DESIGN_PARAMS[2],
            DESIGN_PARAMS[3],
            DESIGN_PARAMS[4],
            DESIGN_PARAMS[5],
            no_effect(
                "nthreads",
                "the threads GNU Radio's FFTW uses for each transform; radioflow computes the \
                 convolution directly (SIMD), with the same outputs",
            ),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(low_pass),
    },
];

/// Why `fcc` (float samples, complex taps) is refused.
const FLOAT_COMPLEX_TAPS: &str = "complex taps on float samples: radioflow's complex-taps FIR \
     filters take complex samples (convert the input to complex first: the same outputs)";

/// The parameters of `band_pass_filter` and `band_reject_filter`.
const BAND_PARAMS: &[GrParam] = &[
    param("decim", "decimation"),
    param("interp", "interpolation"),
    param("gain", "_gain"),
    param("samp_rate", "_samp_rate"),
    param("low_cutoff_freq", "_low_cutoff_freq"),
    param("high_cutoff_freq", "_high_cutoff_freq"),
    param("width", "_width"),
    param("win", "_win"),
    param("beta", "_beta"),
];

/// Rows whose design has more than the window designs' parameters.
pub(crate) const BAND_ROWS: &[GrBlock] = &[
    GrBlock {
        id: "band_pass_filter",
        make: "filter.{type}(",
        block: "fir_filter",
        // The complex-taps options design with firdes.complex_band_pass (GNU Radio's `fcn`).
        types: &[
            ty("fir_filter_ccf", Dtype::Complex32),
            ty_on(
                "interp_fir_filter_ccf",
                Dtype::Complex32,
                "interp_fir_filter",
            ),
            ty("fir_filter_fff", Dtype::Float32),
            ty_on("interp_fir_filter_fff", Dtype::Float32, "interp_fir_filter"),
            ty_on("fir_filter_ccc", Dtype::Complex32, "complex_fir_filter"),
            ty_on(
                "interp_fir_filter_ccc",
                Dtype::Complex32,
                "complex_interp_fir_filter",
            ),
            no_ty("fir_filter_fcc", FLOAT_COMPLEX_TAPS),
            no_ty("interp_fir_filter_fcc", FLOAT_COMPLEX_TAPS),
        ] as &[GrType],
        params: BAND_PARAMS,
        fixed: &[],
        extra: &[],
        choose: Some(band_pass),
    },
    GrBlock {
        id: "band_reject_filter",
        make: "filter.{type}(",
        block: "fir_filter",
        types: &[
            ty("fir_filter_ccf", Dtype::Complex32),
            ty_on(
                "interp_fir_filter_ccf",
                Dtype::Complex32,
                "interp_fir_filter",
            ),
            ty("fir_filter_fff", Dtype::Float32),
            ty_on("interp_fir_filter_fff", Dtype::Float32, "interp_fir_filter"),
            no_ty(
                "fir_filter_ccc",
                "firdes.complex_band_reject: radioflow's firdes has no complex band-reject design",
            ),
            no_ty(
                "interp_fir_filter_ccc",
                "firdes.complex_band_reject: radioflow's firdes has no complex band-reject design",
            ),
            no_ty("fir_filter_fcc", FLOAT_COMPLEX_TAPS),
            no_ty("interp_fir_filter_fcc", FLOAT_COMPLEX_TAPS),
        ] as &[GrType],
        params: BAND_PARAMS,
        fixed: &[],
        extra: &[],
        choose: Some(band_reject),
    },
    GrBlock {
        id: "root_raised_cosine_filter",
        make: "filter.{type}(",
        block: "fir_filter",
        types: FIR_TYPES,
        params: &[
            param("decim", "decimation"),
            param("interp", "interpolation"),
            param("gain", "_gain"),
            param("samp_rate", "_samp_rate"),
            param("sym_rate", "_sym_rate"),
            param("alpha", "_alpha"),
            param("ntaps", "_ntaps"),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(root_raised_cosine),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(block: &'static str, params: Vec<(&str, Pmt)>) -> Mapped {
        Mapped {
            block,
            dtype: Some(Dtype::Complex32),
            params: params.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            notes: Vec::new(),
        }
    }

    fn design(extra: Vec<(&'static str, Pmt)>) -> Vec<(&'static str, Pmt)> {
        let mut p = vec![
            ("decimation", Pmt::Int(1)),
            ("interpolation", Pmt::Int(3)),
            ("_gain", Pmt::Double(2.0)),
            ("_samp_rate", Pmt::Int(48_000)),
            ("_cutoff_freq", Pmt::Double(5e3)),
            ("_width", Pmt::Double(2e3)),
        ];
        p.extend(extra);
        p
    }

    fn taps(m: &Mapped) -> Vec<f32> {
        match m.param("taps") {
            Some(Pmt::Vector(v)) => v
                .iter()
                .map(|t| match t {
                    Pmt::Double(x) => *x as f32,
                    other => panic!("{other:?}"),
                })
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_taps_are_firdes_s_and_the_filter_gets_only_its_parameters() {
        let mut m = mapped("fir_filter", design(vec![]));
        low_pass(&mut m).unwrap();
        let want = firdes::low_pass(2.0, 48e3, 5e3, 2e3, Window::Hamming).unwrap();
        assert_eq!(taps(&m), want);
        assert_eq!(m.block, "fir_filter");
        let names: Vec<&str> = m.params.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["taps"],
            "decimation 1 and the design parameters dropped"
        );
        // Interpolating: its factor kept, the decimation dropped; Kaiser with its beta.
        let kaiser = vec![("_win", Pmt::symbol("kaiser")), ("_beta", Pmt::Double(5.0))];
        let mut m = mapped("interp_fir_filter", design(kaiser));
        high_pass(&mut m).unwrap();
        let w = Window::Kaiser { beta: 5.0 };
        assert_eq!(taps(&m), firdes::high_pass(2.0, 48e3, 5e3, 2e3, w).unwrap());
        assert_eq!(m.param("interpolation"), Some(&Pmt::Int(3)));
        assert!(m.param("decimation").is_none());
        // Decimating by 4: the decimating filter.
        let mut p = design(vec![]);
        p[0].1 = Pmt::Int(4);
        let mut m = mapped("fir_filter", p);
        low_pass(&mut m).unwrap();
        assert_eq!(m.block, "decimating_fir_filter");
    }

    #[test]
    fn band_and_rrc_designs() {
        let band = vec![
            ("decimation", Pmt::Int(1)),
            ("_samp_rate", Pmt::Int(48_000)),
            ("_low_cutoff_freq", Pmt::Double(2e3)),
            ("_high_cutoff_freq", Pmt::Double(6e3)),
            ("_width", Pmt::Double(1e3)),
        ];
        let mut m = mapped("fir_filter", band.clone());
        band_pass(&mut m).unwrap();
        let w = Window::Hamming;
        assert_eq!(
            taps(&m),
            firdes::band_pass(1.0, 48e3, 2e3, 6e3, 1e3, w).unwrap()
        );
        let mut m = mapped("fir_filter", band.clone());
        band_reject(&mut m).unwrap();
        assert_eq!(
            taps(&m),
            firdes::band_reject(1.0, 48e3, 2e3, 6e3, 1e3, w).unwrap()
        );
        // Complex taps for the complex block; its decimation stays.
        let mut m = mapped("complex_fir_filter", band);
        band_pass(&mut m).unwrap();
        let want = firdes::complex_band_pass(1.0, 48e3, 2e3, 6e3, 1e3, w).unwrap();
        let want: Vec<Pmt> = want
            .into_iter()
            .map(|t| {
                Pmt::Complex(radioflow_runtime::pmt::Complex64::new(
                    t.re.into(),
                    t.im.into(),
                ))
            })
            .collect();
        assert_eq!(m.param("taps"), Some(&Pmt::Vector(want.into())));
        assert_eq!(m.param("decimation"), Some(&Pmt::Int(1)));
        let rrc = vec![
            ("interpolation", Pmt::Int(4)),
            ("_samp_rate", Pmt::Int(4)),
            ("_sym_rate", Pmt::Int(1)),
            ("_alpha", Pmt::Double(0.35)),
            ("_ntaps", Pmt::Int(45)),
        ];
        let mut m = mapped("interp_fir_filter", rrc);
        root_raised_cosine(&mut m).unwrap();
        let want = firdes::root_raised_cosine(1.0, 4.0, 1.0, 0.35, 45).unwrap();
        assert_eq!(taps(&m), want);
        assert_eq!(m.param("interpolation"), Some(&Pmt::Int(4)));
    }

    #[test]
    fn bad_designs_are_named() {
        let mut m = mapped("fir_filter", design(vec![("_win", Pmt::symbol("flattop"))]));
        assert!(low_pass(&mut m).unwrap_err().contains("win"));
        let mut p = design(vec![]);
        p.retain(|(n, _)| *n != "_width");
        let mut m = mapped("fir_filter", p);
        assert!(low_pass(&mut m).unwrap_err().contains("width"));
        let mut m = mapped(
            "fir_filter",
            design(vec![("_cutoff_freq", Pmt::Double(30e3))]),
        );
        // A second value of a name: the first is read; use a fresh list instead.
        m.params.retain(|(n, _)| n != "_cutoff_freq");
        m.params.push(("_cutoff_freq".into(), Pmt::Double(30e3)));
        assert!(low_pass(&mut m).unwrap_err().contains("firdes"));
    }
}
