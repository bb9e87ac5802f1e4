//! Rows for gr-analog's FM hier blocks made of one radioflow block: `analog_fm_deemph` (GNU
//! Radio's Python `fm_deemph`, an `iir_filter_ffd` with taps of a bilinear design).

use super::common::param;
use super::table::{GrBlock, Mapped};
use radioflow_blocks::dsp::Iir;
use radioflow_runtime::Pmt;

/// A number among the `_` parameters (GRC's `default` where left out).
fn number(m: &Mapped, name: &str, default: Option<f64>) -> Result<f64, String> {
    match m.param(name) {
        Some(Pmt::Int(i)) => Ok(*i as f64),
        Some(Pmt::Double(x)) => Ok(*x),
        None => default.ok_or_else(|| format!("{} is needed", &name[1..])),
        Some(other) => Err(format!("{}: {other:?} is not a number", &name[1..])),
    }
}

/// The IIR filter's taps from `samp_rate` and `tau`, designed as GNU Radio's `fm_deemph`
/// (radioflow-dsp's `Iir::fm_deemphasis`, checked against GNU Radio's output).
fn deemphasis(m: &mut Mapped) -> Result<(), String> {
    let (rate, tau) = (
        number(m, "_samp_rate", None)?,
        number(m, "_tau", Some(75e-6))?,
    );
    let (b, a) =
        Iir::fm_deemphasis_taps(rate, tau).map_err(|e| format!("{} {}", e.name, e.reason))?;
    let list = |t: [f64; 2]| Pmt::Vector(t.iter().map(|&x| Pmt::Double(x)).collect());
    m.params = vec![("b".to_owned(), list(b)), ("a".to_owned(), list(a))];
    Ok(())
}

pub(crate) const ROWS: &[GrBlock] = &[GrBlock {
    id: "analog_fm_deemph",
    make: "analog.fm_deemph(fs={samp_rate},tau={tau})",
    block: "iir_filter",
    types: &[],
    params: &[param("samp_rate", "_samp_rate"), param("tau", "_tau")],
    fixed: &[],
    extra: &[],
    choose: Some(deemphasis),
}];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_taps_are_the_deemphasis_design_and_bad_values_are_named() {
        let mut m = Mapped {
            block: "iir_filter",
            dtype: None,
            params: vec![
                ("_samp_rate".to_owned(), Pmt::Int(48_000)),
                ("_tau".to_owned(), Pmt::Double(50e-6)),
            ],
            notes: Vec::new(),
        };
        deemphasis(&mut m).unwrap();
        let (b, a) = Iir::fm_deemphasis_taps(48e3, 50e-6).unwrap();
        let list = |t: [f64; 2]| Pmt::Vector(t.iter().map(|&x| Pmt::Double(x)).collect());
        assert_eq!(
            m.params,
            vec![("b".to_owned(), list(b)), ("a".to_owned(), list(a))]
        );
        m.params = vec![("_samp_rate".to_owned(), Pmt::Int(1000))];
        // The default tau (75 µs) puts the corner above 500 Hz: refused, naming tau.
        assert!(deemphasis(&mut m).unwrap_err().contains("tau"));
        m.params = vec![];
        assert!(deemphasis(&mut m).unwrap_err().contains("samp_rate"));
    }
}
