//! GNU Radio's modulators in GRC expressions: `digital.generic_mod(...)` (the object a
//! `variable_modulate_vector` is given) and `digital.modulate_vector_bc(mod, data, taps)`,
//! the samples a modulator makes of `data`, filtered by `taps` (GNU Radio runs a small
//! flowgraph: vector source, the modulator, `fir_filter_ccf(1, taps)`, vector sink; so does
//! radioflow, with its constellation modulator).

use super::args::bind;
use super::expr_error::ExprError;
use super::generic_mod::GenericMod;
use super::value::{Budget, Value};
use num_complex::Complex32;
use radioflow_library::blocks::{VectorSink, VectorSource};
use radioflow_library::digital::ConstellationModulator;
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::Flowgraph;
use std::collections::HashMap;
use std::sync::Arc;

type Result<T> = std::result::Result<T, ExprError>;

/// The expression GNU Radio's `variable_modulate_vector` block evaluates to (its GRC
/// `value`), from its parameters as written; `None` for other blocks.
pub(super) fn variable_value(id: &str, params: &HashMap<String, String>) -> Option<String> {
    (id == "variable_modulate_vector").then(|| {
        let p = |key: &str| format!("({})", params.get(key).map_or("", String::as_str));
        format!(
            "digital.modulate_vector_bc({}.to_basic_block(), {}, {})",
            p("mod"),
            p("data"),
            p("taps")
        )
    })
}

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    matches!(name, "digital.generic_mod" | "digital.modulate_vector_bc")
}

/// `name(args)` for a function of this module ([`is_function`]).
pub(super) fn call(
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Result<Value> {
    let invalid = |what: String| ExprError::InvalidValue(format!("{}: {what}", cut(name)));
    let flag = |v: &Value, what: &str| match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(i) => Ok(*i != 0),
        other => Err(invalid(format!(
            "{what} is {}, not a bool",
            cut(&other.to_string())
        ))),
    };
    let number = |v: &Value, what: &str| {
        v.as_f64()
            .ok_or_else(|| invalid(format!("{what} is {}, not a number", cut(&v.to_string()))))
    };
    if name == "digital.generic_mod" {
        // GNU Radio's defaults (generic_mod_demod.py).
        let params = [
            "constellation",
            "differential",
            "samples_per_symbol",
            "pre_diff_code",
            "excess_bw",
            "verbose",
            "log",
            "truncate",
        ];
        let a = bind(name, &params, 1, args, kwargs, |p| {
            Some(match p {
                "samples_per_symbol" => Value::Int(2),
                "pre_diff_code" => Value::Bool(true),
                "excess_bw" => Value::Float(0.35),
                _ => Value::Bool(false),
            })
        })?;
        let a: Vec<&Value> = (0..params.len())
            .map(|i| a.get(i).map_or(&Value::None, |v| &**v))
            .collect();
        let Value::Constellation(constellation) = a[0] else {
            return Err(invalid(format!(
                "constellation is {}, not a constellation object",
                cut(&a[0].to_string())
            )));
        };
        let get = |i: usize, default: Value| {
            if matches!(a[i], Value::None) {
                default
            } else {
                a[i].clone()
            }
        };
        // pre_diff_code=False leaves out the constellation's pre-differential code, which
        // radioflow's modulator always applies where the constellation has one.
        if !flag(&get(3, Value::Bool(true)), "pre_diff_code")? && constellation.pre_diff_code().1 {
            return Err(ExprError::Unsupported(format!(
                "{}: pre_diff_code=False with a constellation that applies a pre-differential \
                 code is not supported (radioflow's modulator applies it)",
                cut(name)
            )));
        }
        // verbose and log print and write files in GNU Radio; they change no sample.
        return Ok(Value::Modulator(Arc::new(GenericMod {
            constellation: constellation.clone(),
            differential: flag(&get(1, Value::Bool(false)), "differential")?,
            samples_per_symbol: number(&get(2, Value::Int(2)), "samples_per_symbol")?,
            excess_bw: number(&get(4, Value::Float(0.35)), "excess_bw")?,
            truncate: flag(&get(7, Value::Bool(false)), "truncate")?,
        })));
    }
    let a = bind(
        name,
        &["modulator", "data", "taps"],
        3,
        args,
        kwargs,
        |_| None,
    )?;
    let Value::Modulator(m) = &*a[0] else {
        return Err(ExprError::Unsupported(format!(
            "{}: the modulator is {}; radioflow runs digital.generic_mod(...) modulators",
            cut(name),
            cut(&a[0].to_string())
        )));
    };
    let list = |v: &Value, what: &str| match v {
        Value::List(v) | Value::Array(v) => Ok(v.clone()),
        other => Err(invalid(format!(
            "{what} is {}, not a list",
            cut(&other.to_string())
        ))),
    };
    let data = list(&a[1], "data")?
        .iter()
        .map(|v| match v.index() {
            Some(b @ 0..=255) => Ok(b as u8),
            _ => Err(invalid(format!(
                "data holds {}, not a byte",
                cut(&v.to_string())
            ))),
        })
        .collect::<Result<Vec<u8>>>()?;
    let taps = list(&a[2], "taps")?
        .iter()
        .map(|v| number(v, "a tap").map(|t| Complex32::new(t as f32, 0.0)))
        .collect::<Result<Vec<Complex32>>>()?;
    // The samples to make, bounded before any is made.
    let symbols = data.len() * 8 / m.constellation.bits_per_symbol().max(1);
    let samples = (symbols as f64 * m.samples_per_symbol.max(0.0)).ceil() as usize
        + 11 * (m.samples_per_symbol.max(0.0) as usize + 1).pow(2);
    budget.make(samples, 1)?;
    let failed = |e: &dyn std::fmt::Display| invalid(cut_display(e).to_string());
    let modulator = ConstellationModulator::new(
        (*m.constellation).clone(),
        m.differential,
        m.samples_per_symbol,
        m.excess_bw,
        m.truncate,
    )
    .map_err(|e| invalid(format!("{}: {}", e.name, e.reason)))?;
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data));
    let md = fg.add(modulator);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, md).map_err(|e| failed(&e))?;
    fg.connect(md, sink).map_err(|e| failed(&e))?;
    fg.run().map_err(|e| failed(&e))?;
    let x = fg
        .block::<VectorSink<Complex32>>(sink)
        .map(|s| s.data().to_vec())
        .unwrap_or_default();
    if taps.is_empty() {
        return Err(invalid("taps is empty".into()));
    }
    let mut fir = radioflow_dsp::ComplexFir::new(&taps).map_err(|e| failed(&e))?;
    let mut y = vec![Complex32::default(); x.len()];
    fir.process(&x, &mut y);
    Ok(Value::List(
        y.into_iter()
            .map(|c| Value::Complex(num_complex::Complex64::new(c.re.into(), c.im.into())))
            .collect(),
    ))
}

/// `m.method(args)` on a modulator: `to_basic_block()`, which GRC's template calls.
pub(super) fn method(m: &Arc<GenericMod>, name: &str, args: &[&Value]) -> Result<Value> {
    if name == "to_basic_block" && args.is_empty() {
        return Ok(Value::Modulator(m.clone()));
    }
    Err(ExprError::Unsupported(format!(
        "generic_mod.{}() is not supported (a modulator gives to_basic_block())",
        cut(name)
    )))
}
