//! The constants of the Python modules GRC parameters name (`math.pi`, `analog.GR_COS_WAVE`).

use super::value::Value;
use radioflow_runtime::Pmt;

/// The constants of the modules GRC parameters use.
pub(super) fn constant(name: &str) -> Option<Value> {
    let base = name
        .strip_prefix("math.")
        .or_else(|| name.strip_prefix("numpy."))
        .or_else(|| name.strip_prefix("np."))
        .unwrap_or(name);
    Some(match base {
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "inf" => Value::Float(f64::INFINITY),
        "analog.GR_COS_WAVE" => Value::Constant("cosine"),
        "analog.GR_SIN_WAVE" => Value::Constant("sine"),
        "analog.GR_CONST_WAVE" => Value::Constant("constant"),
        "window.WIN_HAMMING" | "fft.window.WIN_HAMMING" => Value::Constant("hamming"),
        "window.WIN_HANN" | "fft.window.WIN_HANN" | "window.WIN_HANNING" => Value::Constant("hann"),
        "window.WIN_BLACKMAN" | "fft.window.WIN_BLACKMAN" => Value::Constant("blackman"),
        "window.WIN_RECTANGULAR" | "fft.window.WIN_RECTANGULAR" => Value::Constant("rectangular"),
        "window.WIN_KAISER" | "fft.window.WIN_KAISER" => Value::Constant("kaiser"),
        "pmt.PMT_T" => Value::Pmt(Pmt::Bool(true)),
        "pmt.PMT_F" => Value::Pmt(Pmt::Bool(false)),
        "pmt.PMT_NIL" => Value::Pmt(Pmt::Null),
        _ => return None,
    })
}
