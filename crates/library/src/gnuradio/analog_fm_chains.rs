//! Rows for gr-analog's FM receiver and transmitter hier blocks (`wfm_rcv`, `nbfm_rx`,
//! `wfm_tx`, `nbfm_tx`), each one radioflow block with GNU Radio's parameters.

use super::common::param;
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// A rate as GNU Radio's Python takes it, `int(x)`: a float is truncated toward zero.
fn int(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(_) => Ok(v.clone()),
        Pmt::Double(x) if x.is_finite() => Ok(Pmt::Int(x.trunc() as i64)),
        _ => Err("not a number (GNU Radio takes int() of it)".into()),
    }
}

/// `wfm_rcv`'s `audio_decimation`: GNU Radio refuses a value that is not a whole number.
fn whole(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(_) => Ok(v.clone()),
        Pmt::Double(x) if x.fract() == 0.0 => Ok(Pmt::Int(*x as i64)),
        _ => Err("needs to be an integer (as GNU Radio's wfm_rcv says)".into()),
    }
}

const fn convert(key: &'static str, f: fn(&Pmt) -> Result<Pmt, String>) -> GrParam {
    GrParam {
        key,
        to: To::Convert(key, f),
    }
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "analog_wfm_rcv",
        make: "analog.wfm_rcv(quad_rate={quad_rate},audio_decimation={audio_decimation},)",
        block: "wfm_rcv",
        types: &[],
        params: &[
            param("quad_rate", "quad_rate"),
            convert("audio_decimation", whole),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_nbfm_rx",
        make: "analog.nbfm_rx(audio_rate={audio_rate},quad_rate={quad_rate},tau={tau},max_dev={max_dev},)",
        block: "nbfm_rx",
        types: &[],
        params: &[
            convert("audio_rate", int),
            convert("quad_rate", int),
            param("tau", "tau"),
            param("max_dev", "max_dev"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_wfm_tx",
        make: "analog.wfm_tx(audio_rate={audio_rate},quad_rate={quad_rate},tau={tau},max_dev={max_dev},fh={fh},)",
        block: "wfm_tx",
        types: &[],
        params: &[
            convert("audio_rate", int),
            convert("quad_rate", int),
            param("tau", "tau"),
            param("max_dev", "max_dev"),
            param("fh", "fh"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_nbfm_tx",
        make: "analog.nbfm_tx(audio_rate={audio_rate},quad_rate={quad_rate},tau={tau},max_dev={max_dev},fh={fh},)",
        block: "nbfm_tx",
        types: &[],
        params: &[
            convert("audio_rate", int),
            convert("quad_rate", int),
            param("tau", "tau"),
            param("max_dev", "max_dev"),
            param("fh", "fh"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_truncated_as_python_s_int_and_decimations_must_be_whole() {
        assert_eq!(int(&Pmt::Double(48000.9)), Ok(Pmt::Int(48000)));
        assert_eq!(int(&Pmt::Int(8)), Ok(Pmt::Int(8)));
        assert!(int(&Pmt::Double(f64::NAN)).is_err());
        assert_eq!(whole(&Pmt::Double(5.0)), Ok(Pmt::Int(5)));
        assert!(whole(&Pmt::Double(5.5)).unwrap_err().contains("integer"));
    }
}
