//! GNU Radio's packet header formats in GRC expressions: `digital.header_format_default(
//! access_code, threshold, bps)`, `digital.header_format_counter(…)`,
//! `digital.header_format_crc(len_key, num_key)`, and the value of a
//! `variable_header_format_default` block.
//!
//! A header format is the string of its text form (see [`HeaderFormat`]), the value the
//! packet blocks' `format` parameter takes, so no new kind of value is needed.

use super::args::bind;
use super::expr_error::ExprError;
use super::value::Value;
use radioflow_library::digital::{AccessCode, HeaderFormat, DEFAULT_ACCESS_CODE};
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

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    matches!(
        name,
        "digital.header_format_default"
            | "digital.header_format_counter"
            | "digital.header_format_crc"
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
    let format = if name == "digital.header_format_crc" {
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
}
