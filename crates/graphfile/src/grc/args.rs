//! Keyword arguments of the functions that take them (`firdes.low_pass(..., window=...)`,
//! `numpy.linspace(0, 1, num=5)`), bound to positions as Python binds them.

use super::expr_error::ExprError;
use super::value::Value;
use radioflow_runtime::echo::cut;
use std::borrow::Cow;

type Result<T> = std::result::Result<T, ExprError>;

/// The positional arguments of `f(args, kwargs)` for parameters `params`, of which the
/// first `required` must be given: each keyword at its parameter's place, a parameter left
/// out before a later one given by its default (`default(name)`; none is an error).
pub(super) fn bind<'a>(
    f: &str,
    params: &[&str],
    required: usize,
    args: &[&'a Value],
    kwargs: &[(&str, &'a Value)],
    default: impl Fn(&str) -> Option<Value>,
) -> Result<Vec<Cow<'a, Value>>> {
    let wrong = |what: String| ExprError::Unsupported(format!("{}: {what}", cut(f)));
    if args.len() > params.len() {
        return Err(wrong(format!(
            "takes at most {} arguments ({} given)",
            params.len(),
            args.len()
        )));
    }
    let mut bound: Vec<Option<Cow<'a, Value>>> =
        args.iter().map(|&a| Some(Cow::Borrowed(a))).collect();
    bound.resize(params.len(), None);
    for &(k, v) in kwargs {
        let i = params.iter().position(|p| *p == k).ok_or_else(|| {
            wrong(format!(
                "no keyword argument '{}' (it takes {})",
                cut(k),
                params.join(", ")
            ))
        })?;
        if bound[i].replace(Cow::Borrowed(v)).is_some() {
            return Err(wrong(format!("argument '{}' given twice", cut(k))));
        }
    }
    let last = bound
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1)
        .max(required.min(params.len()));
    bound.truncate(last);
    bound
        .into_iter()
        .zip(params)
        .map(|(v, p)| match v {
            Some(v) => Ok(v),
            None => default(p)
                .map(Cow::Owned)
                .ok_or_else(|| wrong(format!("argument '{p}' is missing"))),
        })
        .collect()
}
