//! GNU Radio's packet header formats in GRC expressions: `digital.header_format_default(
//! access_code, threshold, bps)`, `digital.header_format_counter(…)`,
//! `digital.header_format_crc(len_key, num_key)`, `digital.header_format_ofdm(occupied_carriers,
//! n_syms, …)`, and the value of a
//! `variable_header_format_default` block.
//!
//! A header format is the string of its text form (see [`HeaderFormat`]), the value the
//! packet blocks' `format` parameter takes, so no new kind of value is needed.

use super::args::bind;
use super::expr_error::ExprError;
use super::value::Value;
use radioflow_library::digital::{AccessCode, HeaderFormat, OfdmHeader, DEFAULT_ACCESS_CODE};
use radioflow_runtime::echo::cut;
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ExprError>;

/// Not one of GNU Radio's names: `variable_header_format_default`'s template, which takes
/// an access code of `0` for GNU Radio's default one.
const VARIABLE: &str = "digital._radioflow_variable_header_format_default";

/// The expression GNU Radio's `variable_header_format_default` block `id` evaluates to, from
/// its parameters as written (GRC's defaults for those left out); `None` for other blocks.
pub(super) fn variable_value(id: &str, params: &HashMap<String, String>) -> Option<String> {
    if id != "variable_header_format_default" {
        return None;
    }
    let p = |key: &str, default: &str| {
        let text = params.get(key).map_or(default, String::as_str);
        format!("({text})")
    };
    // `access_code` is a string parameter: its text where it is not an expression of one
    // (`0`, GRC's default, evaluates to a number: the default code).
    let code = params.get("access_code").map_or("0", String::as_str);
    Some(format!(
        "{VARIABLE}(({code}), {}, {})",
        p("threshold", "0"),
        p("bps", "1")
    ))
}

/// `format.header_nbits()` and `format.header_nbytes()` of a header format's text form
/// (GNU Radio's methods of the format object); `None` when `text` is not a header format.
pub(super) fn method(text: &str, method: &str, args: &[&Value]) -> Option<Result<Value>> {
    let format: HeaderFormat = text.parse().ok()?;
    let bits = match method {
        "header_nbits" => format.header_bits(),
        "header_nbytes" => format.header_bytes(),
        other => {
            return Some(Err(ExprError::Unsupported(format!(
                "a header format has no method {}() radioflow evaluates (it has header_nbits() \
                 and header_nbytes())",
                cut(other)
            ))))
        }
    };
    if !args.is_empty() {
        return Some(Err(ExprError::InvalidValue(format!(
            "{method}() takes no argument"
        ))));
    }
    Some(Ok(Value::Int(bits as i64)))
}

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    matches!(
        name,
        "digital.header_format_default"
            | "digital.header_format_counter"
            | "digital.header_format_crc"
            | "digital.header_format_ofdm"
    ) || name == VARIABLE
}

/// A whole number >= 0 (or a bool) as GNU Radio's `int` parameter takes it.
fn count(f: &str, p: &str, v: &Value) -> Result<u32> {
    match v {
        Value::Int(i) => u32::try_from(*i).ok(),
        Value::Bool(b) => Some(u32::from(*b)),
        _ => None,
    }
    .ok_or_else(|| ExprError::InvalidValue(format!("{}: {p} must be a whole number >= 0", cut(f))))
}

fn text<'a>(f: &str, p: &str, v: &'a Value) -> Result<&'a str> {
    match v {
        Value::Str(s) => Ok(s),
        _ => Err(ExprError::InvalidValue(format!(
            "{}: {p} must be a string",
            cut(f)
        ))),
    }
}

/// `name(args)` for a function of this module ([`is_function`]).
pub(super) fn call(name: &str, args: &[&Value], kwargs: &[(&str, &Value)]) -> Result<Value> {
    let invalid = |e: String| ExprError::InvalidValue(format!("{}: {e}", cut(name)));
    let format = if name == "digital.header_format_ofdm" {
        ofdm(name, args, kwargs)?
    } else if name == "digital.header_format_crc" {
        let a = bind(
            name,
            &["len_key_name", "num_key_name"],
            0,
            args,
            kwargs,
            |_| None,
        )?;
        // GNU Radio's defaults for keys left out.
        let key = |i: usize, p: &str, default: &'static str| -> Result<String> {
            let k = a.get(i).map_or(Ok(default), |v| text(name, p, v))?;
            if k.is_empty() || k.contains(char::is_whitespace) {
                return Err(invalid(format!(
                    "{p} '{}': radioflow's keys are one word",
                    cut(k)
                )));
            }
            Ok(k.to_owned())
        };
        HeaderFormat::Crc {
            len_key: key(0, "len_key_name", "packet_len")?,
            num_key: key(1, "num_key_name", "packet_num")?,
        }
    } else {
        let a = bind(
            name,
            &["access_code", "threshold", "bps"],
            2,
            args,
            kwargs,
            |_| Some(Value::Int(1)),
        )?;
        let code = match (&*a[0], name == VARIABLE) {
            // GRC's template: `int(eval(access_code)) == 0` picks the default code.
            (Value::Int(0), true) => DEFAULT_ACCESS_CODE,
            (Value::Str(s), true) if s.trim() == "0" => DEFAULT_ACCESS_CODE,
            (v, _) => text(name, "access_code", v)?,
        };
        let code = AccessCode::new(
            code,
            count(name, "threshold", &a[1])?,
            // GNU Radio's default bps: 1.
            a.get(2).map_or(Ok(1), |v| count(name, "bps", v))?,
        )
        .map_err(|e| invalid(e.to_string()))?;
        if name == "digital.header_format_counter" {
            HeaderFormat::Counter(code)
        } else {
            HeaderFormat::Default(code)
        }
    };
    Ok(Value::Str(format.to_string()))
}

/// A one-word tag key.
fn one_word(f: &str, p: &str, k: &str) -> Result<String> {
    if k.is_empty() || k.contains(char::is_whitespace) {
        return Err(ExprError::InvalidValue(format!(
            "{}: {p} '{}': radioflow's keys are one word",
            cut(f),
            cut(k)
        )));
    }
    Ok(k.to_owned())
}

/// `digital.header_format_ofdm(occupied_carriers, n_syms, len_key_name, frame_key_name,
/// num_key_name, bits_per_header_sym, bits_per_payload_sym, scramble_header)`, GNU Radio's
/// defaults for those left out.
fn ofdm(f: &str, args: &[&Value], kwargs: &[(&str, &Value)]) -> Result<HeaderFormat> {
    let a = bind(
        f,
        &[
            "occupied_carriers",
            "n_syms",
            "len_key_name",
            "frame_key_name",
            "num_key_name",
            "bits_per_header_sym",
            "bits_per_payload_sym",
            "scramble_header",
        ],
        2,
        args,
        kwargs,
        // GNU Radio's defaults, for a parameter left out before one given.
        |p| match p {
            "len_key_name" => Some(Value::Str("packet_len".into())),
            "frame_key_name" => Some(Value::Str("frame_len".into())),
            "num_key_name" => Some(Value::Str("packet_num".into())),
            "bits_per_header_sym" | "bits_per_payload_sym" => Some(Value::Int(1)),
            "scramble_header" => Some(Value::Bool(false)),
            _ => None,
        },
    )?;
    let invalid = |e: String| ExprError::InvalidValue(format!("{}: {e}", cut(f)));
    let sets = match &*a[0] {
        Value::List(sets) | Value::Array(sets) => sets,
        _ => return Err(invalid("occupied_carriers must be a list of lists".into())),
    };
    let carriers = sets
        .iter()
        .map(|set| match set {
            Value::List(c) | Value::Array(c) => Ok(c.len()),
            _ => Err(invalid("occupied_carriers must be a list of lists".into())),
        })
        .collect::<Result<Vec<_>>>()?;
    let n_syms = count(f, "n_syms", &a[1])? as usize;
    if carriers.is_empty() {
        return Err(invalid("occupied_carriers is empty".into()));
    }
    // GNU Radio's header length: the occupied carriers of the first n_syms symbols.
    let header_bits = (0..n_syms).map(|i| carriers[i % carriers.len()]).sum();
    let key = |i: usize, p: &str, default: &str| {
        one_word(f, p, a.get(i).map_or(Ok(default), |v| text(f, p, v))?)
    };
    let header_bps = a
        .get(5)
        .map_or(Ok(1), |v| count(f, "bits_per_header_sym", v))?;
    if header_bps != 1 {
        // Checked against GNU Radio 3.10: its parser does not find the headers its
        // formatter makes with more than one bit per header symbol.
        return Err(invalid(format!(
            "bits_per_header_sym = {header_bps} is not supported (1 is: GNU Radio 3.10's \
             parser does not find the headers its own formatter makes with more)"
        )));
    }
    if matches!(
        a.get(7).map(|v| &**v),
        Some(Value::Bool(true) | Value::Int(1))
    ) {
        return Err(invalid(
            "scramble_header = True is not supported (GNU Radio 3.10's header_format_ofdm \
             does not scramble the headers it makes but descrambles those it parses, so its \
             own headers fail)"
                .into(),
        ));
    }
    OfdmHeader::new(
        key(2, "len_key_name", "packet_len")?,
        key(3, "frame_key_name", "frame_len")?,
        key(4, "num_key_name", "packet_num")?,
        header_bits,
        carriers,
        a.get(6)
            .map_or(Ok(1), |v| count(f, "bits_per_payload_sym", v))?,
    )
    .map(HeaderFormat::Ofdm)
    .map_err(|e| invalid(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::Str(v.into())
    }

    #[test]
    fn calls_make_the_text_form_and_name_what_is_wrong() {
        let v = call(
            "digital.header_format_counter",
            &[&s("1011"), &Value::Int(1), &Value::Int(2)],
            &[],
        )
        .unwrap();
        assert_eq!(v, s("counter access_code=1011 threshold=1 bps=2"));
        let v = call(VARIABLE, &[&Value::Int(0), &Value::Int(3)], &[]).unwrap();
        assert_eq!(
            v,
            s(&format!(
                "default access_code={DEFAULT_ACCESS_CODE} threshold=3 bps=1"
            ))
        );
        let v = call("digital.header_format_crc", &[&s("len"), &s("num")], &[]).unwrap();
        assert_eq!(v, s("crc len_key=len num_key=num"));
        let e = call(
            "digital.header_format_default",
            &[&s(""), &Value::Int(0)],
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("header_format_default") && e.contains("0 bits"),
            "{e}"
        );
        let e = call("digital.header_format_crc", &[&s("a b")], &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("len_key_name"), "{e}");
        assert!(variable_value("variable", &HashMap::new()).is_none());
    }

    #[test]
    fn ofdm_header_formats_count_their_header_bits() {
        let list = |v: &[i64]| Value::List(v.iter().map(|&i| Value::Int(i)).collect());
        let occupied = Value::List(vec![list(&[1, 2, 3, 4]), list(&[-1, -2, -3])]);
        let n = |i| Value::Int(i);
        // GNU Radio's header length: the carriers of the first n_syms symbols (4 + 3 + ... + 4).
        let v = call(
            "digital.header_format_ofdm",
            &[
                &occupied,
                &n(9),
                &s("len"),
                &s("frame"),
                &s("num"),
                &n(1),
                &n(2),
            ],
            &[],
        )
        .unwrap();
        assert_eq!(
            v,
            s("ofdm len_key=len frame_key=frame num_key=num header_bits=32 carriers=4,3 payload_bps=2")
        );
        let e = |args: &[&Value], kwargs: &[(&str, &Value)]| {
            call("digital.header_format_ofdm", args, kwargs)
                .unwrap_err()
                .to_string()
        };
        assert!(
            e(&[&occupied, &n(1)], &[]).contains("32"),
            "6 bits are too few"
        );
        let t = Value::Bool(true);
        assert!(e(&[&occupied, &n(9)], &[("scramble_header", &t)]).contains("scramble_header"));
        assert!(e(&[&occupied, &n(9)], &[("bits_per_header_sym", &n(2))])
            .contains("bits_per_header_sym"));
    }
}
