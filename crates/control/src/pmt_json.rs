//! PMT values written as JSON, for posting messages over the control port.
//!
//! | JSON | PMT |
//! |---|---|
//! | `null` | `Null` |
//! | `true` | `Bool` |
//! | `3` | `Int` (`Uint64` above `i64::MAX`) |
//! | `2.5` | `Double` |
//! | `{"double": 1e8}` | `Double` (a whole number too: JavaScript writes `1e8` as `100000000`) |
//! | `"name"` | `Symbol` |
//! | `[a, b]` | `Tuple` |
//! | `{"pair": [car, cdr]}` | `Pair` |
//! | `{"list": [a, b]}` | a list (pairs ending in `Null`) |
//! | `{"dict": [[k, v], ...]}` | `Dict` |
//! | `{"complex": [re, im]}` | `Complex` |
//! | `{"f32vector": [...]}`, `f64vector`, `u8vector`, `s32vector`, `s64vector` | uniform vectors |
//!
//! JSON nesting is bounded by `serde_json`'s recursion limit (128), so the conversion is too.

use radioflow_runtime::Pmt;
use serde_json::Value;

/// The PMT written as `v`, or what is wrong with it.
pub fn pmt_from_json(v: &Value) -> Result<Pmt, String> {
    Ok(match v {
        Value::Null => Pmt::Null,
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Pmt::Int(i)
            } else if let Some(u) = n.as_u64() {
                Pmt::Uint64(u)
            } else {
                Pmt::Double(n.as_f64().ok_or_else(|| format!("{n} is not a number"))?)
            }
        }
        Value::String(s) => Pmt::symbol(s.as_str()),
        Value::Array(a) => Pmt::Tuple(a.iter().map(pmt_from_json).collect::<Result<_, _>>()?),
        Value::Object(o) => {
            let mut it = o.iter();
            let (Some((key, value)), None) = (it.next(), it.next()) else {
                return Err("an object must have exactly one key naming the PMT kind \
                     (pair, list, dict, double, complex, f32vector, f64vector, u8vector, s32vector, s64vector)"
                    .into());
            };
            tagged(key, value)?
        }
    })
}

fn array<'a>(key: &str, v: &'a Value) -> Result<&'a [Value], String> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{key}: needs an array"))
}

fn numbers<T>(key: &str, v: &Value, f: impl Fn(&Value) -> Option<T>) -> Result<Vec<T>, String> {
    array(key, v)?
        .iter()
        .enumerate()
        .map(|(i, x)| f(x).ok_or_else(|| format!("{key}: item {i} ({x}) is out of range")))
        .collect()
}

fn tagged(key: &str, value: &Value) -> Result<Pmt, String> {
    Ok(match key {
        "pair" => match array(key, value)? {
            [car, cdr] => Pmt::pair(pmt_from_json(car)?, pmt_from_json(cdr)?),
            _ => return Err("pair: needs [car, cdr]".into()),
        },
        "list" => Pmt::list(
            array(key, value)?
                .iter()
                .map(pmt_from_json)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        "dict" => {
            let mut entries = Vec::new();
            for (i, e) in array(key, value)?.iter().enumerate() {
                match e.as_array().map(Vec::as_slice) {
                    Some([k, v]) => entries.push((pmt_from_json(k)?, pmt_from_json(v)?)),
                    _ => return Err(format!("dict: entry {i} is not [key, value]")),
                }
            }
            Pmt::dict_from(entries)
        }
        "double" => Pmt::Double(
            value
                .as_f64()
                .ok_or_else(|| format!("double: {value} is not a number"))?,
        ),
        "complex" => match array(key, value)? {
            [re, im] => match (re.as_f64(), im.as_f64()) {
                (Some(re), Some(im)) => {
                    Pmt::Complex(radioflow_runtime::pmt::Complex64::new(re, im))
                }
                _ => return Err("complex: needs two numbers".into()),
            },
            _ => return Err("complex: needs [re, im]".into()),
        },
        "f32vector" => {
            Pmt::F32Vector(numbers(key, value, |x| x.as_f64().map(|v| v as f32))?.into())
        }
        "f64vector" => Pmt::F64Vector(numbers(key, value, Value::as_f64)?.into()),
        "u8vector" => Pmt::U8Vector(
            numbers(key, value, |x| {
                x.as_u64().and_then(|v| u8::try_from(v).ok())
            })?
            .into(),
        ),
        "s32vector" => Pmt::S32Vector(
            numbers(key, value, |x| {
                x.as_i64().and_then(|v| i32::try_from(v).ok())
            })?
            .into(),
        ),
        "s64vector" => Pmt::S64Vector(numbers(key, value, Value::as_i64)?.into()),
        other => return Err(format!("unknown PMT kind '{other}'")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_containers_and_tagged_kinds_convert() {
        assert_eq!(pmt_from_json(&json!(3)).unwrap(), Pmt::Int(3));
        assert_eq!(pmt_from_json(&json!(2.5)).unwrap(), Pmt::Double(2.5));
        assert_eq!(
            pmt_from_json(&json!(u64::MAX)).unwrap(),
            Pmt::Uint64(u64::MAX)
        );
        assert_eq!(pmt_from_json(&json!("freq")).unwrap(), Pmt::symbol("freq"));
        assert_eq!(
            pmt_from_json(&json!({"pair": ["freq", 100.0]})).unwrap(),
            Pmt::pair(Pmt::symbol("freq"), Pmt::Double(100.0))
        );
        assert_eq!(
            pmt_from_json(&json!({"dict": [["a", 1]]})).unwrap(),
            Pmt::dict_from([(Pmt::symbol("a"), Pmt::Int(1))])
        );
        assert_eq!(
            pmt_from_json(&json!({"u8vector": [1, 2]})).unwrap(),
            Pmt::U8Vector(vec![1u8, 2].into())
        );
    }

    #[test]
    fn malformed_values_are_errors_naming_the_kind() {
        let e = pmt_from_json(&json!({"u8vector": [1, 300]})).unwrap_err();
        assert!(e.contains("u8vector") && e.contains("item 1"), "{e}");
        let e = pmt_from_json(&json!({"blob": []})).unwrap_err();
        assert!(e.contains("blob"), "{e}");
        assert!(pmt_from_json(&json!({"a": 1, "b": 2})).is_err());
        assert!(pmt_from_json(&json!({"pair": [1]})).is_err());
    }
}
