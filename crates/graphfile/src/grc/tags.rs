//! Stream tags made in expressions: GNU Radio's `tagged_streams.make_lengthtags`
//! (`gnuradio.digital.utils`), each tag `(offset, key, value)` as a block's `tags` parameter
//! takes it (a vector source's).

use super::expr_error::ExprError;
use super::value::{Budget, Value};
use radioflow_runtime::Pmt;

type Result<T> = std::result::Result<T, ExprError>;

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    matches!(
        name,
        "tagged_streams.make_lengthtags" | "digital.utils.tagged_streams.make_lengthtags"
    )
}

/// `make_lengthtags(lengths, offsets, tagname='length', vlen=1)`: a tag on each offset
/// (divided by `vlen`) with key `tagname` and the length (divided by `vlen`) as its value, as
/// GNU Radio's Python makes them (source id false).
pub(super) fn call(
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Result<Value> {
    let bad = |why: String| ExprError::InvalidValue(format!("{name}: {why}"));
    let keyword = |key: &str| kwargs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    if let Some((k, _)) = kwargs
        .iter()
        .find(|(k, _)| !["lengths", "offsets", "tagname", "vlen"].contains(k))
    {
        return Err(bad(format!("no keyword argument '{k}'")));
    }
    if args.len() > 4 {
        return Err(bad(format!("at most 4 arguments, not {}", args.len())));
    }
    let arg = |i: usize, key: &str| args.get(i).copied().or_else(|| keyword(key));
    let ints = |v: Option<&Value>, what: &str| -> Result<Vec<i64>> {
        match v {
            Some(Value::List(items)) | Some(Value::Array(items)) => items
                .iter()
                .map(|x| {
                    x.index()
                        .ok_or_else(|| bad(format!("{what}: {x} is not an integer")))
                })
                .collect(),
            Some(other) => Err(bad(format!("{what} must be a list, not {other}"))),
            None => Err(bad(format!("{what} is missing"))),
        }
    };
    let lengths = ints(arg(0, "lengths"), "lengths")?;
    let offsets = ints(arg(1, "offsets"), "offsets")?;
    if lengths.len() != offsets.len() {
        return Err(bad(format!(
            "{} lengths for {} offsets",
            lengths.len(),
            offsets.len()
        )));
    }
    let tagname = match arg(2, "tagname") {
        None => "length".to_owned(),
        Some(Value::Str(s)) => s.clone(),
        Some(other) => return Err(bad(format!("tagname must be a string, not {other}"))),
    };
    let vlen = match arg(3, "vlen") {
        None => 1,
        Some(v) => match v.index() {
            Some(n) if n > 0 => n,
            _ => return Err(bad(format!("vlen must be a positive integer, not {v}"))),
        },
    };
    budget.make(lengths.len() * 3, 2)?;
    let mut tags = Vec::with_capacity(lengths.len());
    for (offset, length) in offsets.into_iter().zip(lengths) {
        let offset = offset.div_euclid(vlen);
        if offset < 0 {
            return Err(bad(format!("offset {offset} is negative")));
        }
        tags.push(Value::Pmt(Pmt::Tuple(
            [
                Pmt::Int(offset),
                Pmt::symbol(tagname.as_str()),
                Pmt::Int(length.div_euclid(vlen)),
            ]
            .into(),
        )));
    }
    Ok(Value::List(tags))
}
