//! GNU Radio's adaptive algorithm objects in GRC expressions: `digital.adaptive_algorithm_lms(
//! cons, step_size)`, `_nlms(cons, step_size)`, `_cma(cons, step_size, modulus)`, their
//! `.base()`, and the value of a `variable_adaptive_algorithm` block.
//!
//! An algorithm is the string of its text form (see [`AdaptiveAlgorithm`]), the value the
//! equalizers' `alg` parameter takes, so no new kind of value is needed.

use super::args::bind;
use super::expr_error::ExprError;
use super::value::Value;
use radioflow_library::digital::{AdaptiveAlgorithm, AlgorithmKind, Constellation};
use radioflow_runtime::echo::{cut, cut_display};
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ExprError>;

/// The expression GNU Radio's `variable_adaptive_algorithm` block `id` evaluates to, from
/// its parameters as written (GRC's defaults for those left out), as its template makes it;
/// `None` for other blocks.
pub(super) fn variable_value(id: &str, params: &HashMap<String, String>) -> Option<String> {
    if id != "variable_adaptive_algorithm" {
        return None;
    }
    let p = |key: &str, default: &str| {
        let text = params.get(key).map_or(default, String::as_str);
        format!("({text})")
    };
    // GRC's enum has lms, nlms and cma; its template also names rls, which GNU Radio 3.10
    // does not build (the call below is then refused as an unknown function).
    let kind = params.get("type").map_or("lms", |t| t.trim());
    let cons = p("cons", "None");
    let step = p("step_size", ".0001");
    Some(match kind {
        "cma" => format!(
            "digital.adaptive_algorithm_cma({cons}, {step}, {})",
            p("modulus", "2")
        ),
        "rls" => format!(
            "digital.adaptive_algorithm_rls({cons}, {}, {})",
            p("ffactor", ".99"),
            p("delta", "10.0")
        ),
        kind => format!("digital.adaptive_algorithm_{kind}({cons}, {step})"),
    })
}

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    matches!(
        name,
        "digital.adaptive_algorithm_lms"
            | "digital.adaptive_algorithm_nlms"
            | "digital.adaptive_algorithm_cma"
    )
}

/// `name(args)` for a function of this module ([`is_function`]).
pub(super) fn call(name: &str, args: &[&Value], kwargs: &[(&str, &Value)]) -> Result<Value> {
    let cma = name == "digital.adaptive_algorithm_cma";
    let params: &[&str] = if cma {
        &["cons", "step_size", "modulus"]
    } else {
        &["cons", "step_size"]
    };
    let a = bind(name, params, params.len(), args, kwargs, |_| None)?;
    let constellation: Constellation = match &*a[0] {
        Value::Constellation(c) => Constellation::clone(c),
        other => {
            return Err(ExprError::InvalidValue(format!(
                "{}: cons must be a constellation object, not {}",
                cut(name),
                other.type_name()
            )))
        }
    };
    let number = |v: &Value, p: &str| {
        v.as_f64().map(|x| x as f32).ok_or_else(|| {
            ExprError::InvalidValue(format!(
                "{}: {p} must be a number, not {}",
                cut(name),
                cut_display(v)
            ))
        })
    };
    let step = number(&a[1], "step_size")?;
    let kind = match name {
        "digital.adaptive_algorithm_lms" => AlgorithmKind::Lms,
        "digital.adaptive_algorithm_nlms" => AlgorithmKind::Nlms,
        _ => AlgorithmKind::Cma {
            modulus: number(&a[2], "modulus")?,
        },
    };
    AdaptiveAlgorithm::new(kind, step, constellation)
        .map(|alg| Value::Str(alg.to_string()))
        .map_err(|e| ExprError::InvalidValue(format!("{}: {}", cut(name), cut_display(&e))))
}

/// `alg.base()` on an algorithm's text form (GNU Radio's `base()` gives the object as its
/// base class: the same algorithm); `None` when `text` is not an algorithm.
pub(super) fn method(text: &str, method: &str, args: &[&Value]) -> Option<Result<Value>> {
    text.parse::<AdaptiveAlgorithm>().ok()?;
    Some(match (method, args) {
        ("base", []) => Ok(Value::Str(text.to_owned())),
        ("base", _) => Err(ExprError::InvalidValue("base() takes no argument".into())),
        (other, _) => Err(ExprError::Unsupported(format!(
            "an adaptive algorithm has no method {}() radioflow evaluates (it has base())",
            cut(other)
        ))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the blocks evaluate to is checked in tests/grc_equalizers.rs.
    #[test]
    fn the_variable_becomes_gnu_radio_s_template_expression() {
        let value = |pairs: &[(&str, &str)]| {
            let params = pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            variable_value("variable_adaptive_algorithm", &params).unwrap()
        };
        assert_eq!(
            value(&[
                ("type", "cma"),
                ("cons", "qpsk"),
                ("step_size", ".0001"),
                ("modulus", "4")
            ]),
            "digital.adaptive_algorithm_cma((qpsk), (.0001), (4))"
        );
        assert_eq!(
            value(&[("type", "nlms"), ("cons", "c"), ("step_size", "gain")]),
            "digital.adaptive_algorithm_nlms((c), (gain))"
        );
        assert_eq!(variable_value("variable", &HashMap::new()), None);
    }
}
