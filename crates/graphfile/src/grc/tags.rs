//! Stream tags made in expressions: GNU Radio's `tagged_streams.make_lengthtags`
//! (`gnuradio.digital.utils`) and `gr.tag_utils.python_to_tag` (also `gr.python_to_tag`; the
//! value of a `variable_tag_object`), each tag `(offset, key, value, srcid)` as a block's `tags`
//! parameter takes it (a vector source's).

use super::expr_error::ExprError;
use super::value::{Budget, Value};
use radioflow_runtime::Pmt;

type Result<T> = std::result::Result<T, ExprError>;

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    matches!(
        name,
        "tagged_streams.make_lengthtags"
            | "digital.utils.tagged_streams.make_lengthtags"
            | "gr.tag_utils.python_to_tag"
            | "gr.python_to_tag"
            | "tag_utils.python_to_tag"
    )
}

/// The expression GNU Radio's `variable_tag_object` block evaluates to (its `var_make`
/// template), from its parameters as written (GRC's defaults for those left out); `None` for
/// other blocks.
pub(super) fn variable_value(
    id: &str,
    params: &std::collections::HashMap<String, String>,
) -> Option<String> {
    (id == "variable_tag_object").then(|| {
        let p = |key: &str, default: &str| {
            let text = params.get(key).map_or(default, String::as_str);
            format!("({text})")
        };
        format!(
            "gr.tag_utils.python_to_tag(({}, {}, {}, {}))",
            p("offset", "0"),
            p("key", "pmt.intern(\"key\")"),
            p("value", "pmt.intern(\"value\")"),
            p("src", "pmt.intern(\"src\")")
        )
    })
}

/// GNU Radio's `python_to_tag(tag_struct)`: a tuple or list `(offset, key, value[, srcid])`
/// or a dict with any of the keys `offset`, `key`, `value`, `srcid`, the tag `(offset, key,
/// value, srcid)` (GNU Radio's `tag_t` defaults, `0`, `()`, `()`, `#f`, for what a dict leaves
/// out). GNU Radio returns `None` for a struct it cannot read and keeps the default of a
/// field of the wrong kind; both are refused here, naming the field, since a `None` tag fails
/// later in GNU Radio's block anyway.
fn python_to_tag(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let bad = |why: String| ExprError::InvalidValue(format!("{name}: {why}"));
    let [arg] = args else {
        return Err(bad(format!("takes 1 argument, not {}", args.len())));
    };
    let mut fields: [Option<Value>; 4] = [None, None, None, None];
    match arg {
        Value::List(items) if items.len() == 3 || items.len() == 4 => {
            for (f, v) in fields.iter_mut().zip(items) {
                *f = Some(v.clone());
            }
        }
        Value::Pmt(Pmt::Tuple(items)) | Value::Pmt(Pmt::Vector(items))
            if items.len() == 3 || items.len() == 4 =>
        {
            for (f, v) in fields.iter_mut().zip(items.iter()) {
                *f = Some(Value::Pmt(v.clone()));
            }
        }
        Value::Pmt(Pmt::Dict(entries)) => {
            for (k, v) in entries.iter() {
                let i = match k.as_symbol() {
                    Some("offset") => 0,
                    Some("key") => 1,
                    Some("value") => 2,
                    Some("srcid") => 3,
                    // GNU Radio ignores other keys.
                    _ => continue,
                };
                // pmt.to_pmt adds each entry in front: the last one written comes first.
                if fields[i].is_none() {
                    fields[i] = Some(Value::Pmt(v.clone()));
                }
            }
        }
        // `{}` (a PMT dict is nil when empty): GNU Radio gives None.
        Value::Pmt(Pmt::Null) => {}
        other => {
            return Err(bad(format!(
                "takes (offset, key, value[, srcid]) or a dict of them, not {other}"
            )));
        }
    }
    let [offset, key, value, srcid] = fields;
    if [&offset, &key, &value, &srcid].iter().all(|f| f.is_none()) {
        return Err(bad(
            "a dict without offset, key, value or srcid gives no tag".into(),
        ));
    }
    let offset = match offset {
        None => 0,
        Some(v) => match v.index().or(match &v {
            Value::Pmt(Pmt::Int(i)) => Some(*i),
            _ => None,
        }) {
            Some(i) if i >= 0 => i,
            _ => return Err(bad(format!("the offset must be an integer >= 0, not {v}"))),
        },
    };
    let pmt = |v: Option<Value>, what: &str, default: Pmt| match v {
        None => Ok(default),
        Some(Value::Pmt(p)) => Ok(p),
        Some(other) => Err(bad(format!(
            "the {what} must be a PMT (pmt.intern(...), pmt.from_long(...)), not {other}"
        ))),
    };
    let key = pmt(key, "key", Pmt::Null)?;
    let value = pmt(value, "value", Pmt::Null)?;
    let srcid = pmt(srcid, "srcid", Pmt::Bool(false))?;
    budget.make(4, 2)?;
    Ok(Value::Pmt(Pmt::Tuple(
        [Pmt::Int(offset), key, value, srcid].into(),
    )))
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
    if name.ends_with("python_to_tag") {
        if let Some((k, _)) = kwargs.first() {
            return Err(ExprError::InvalidValue(format!(
                "{name}: no keyword argument '{k}'"
            )));
        }
        return python_to_tag(name, args, budget);
    }
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
