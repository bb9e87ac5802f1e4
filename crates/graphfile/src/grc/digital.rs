//! GNU Radio's constellations in GRC expressions: `digital.constellation_*()` and
//! `digital.psk_2()`-style tables, the methods GNU Radio's examples call on a constellation
//! (`.base()`, `.points()`, `.arity()`, `.bits_per_symbol()`), and the value of a
//! `variable_constellation` / `variable_constellation_rect` block.
//!
//! A constellation is a [`Value::Constellation`]; a block parameter takes it in its text form
//! (see [`Constellation`]), so no new kind of parameter is needed.

use super::args::bind;
use super::expr_error::ExprError;
use super::value::{Budget, Value};
use num_complex::{Complex32, Complex64};
use radioflow_library::digital::{Constellation, Normalization};
use radioflow_runtime::echo::{cut, cut_display};
use std::collections::HashMap;
use std::sync::Arc;

type Result<T> = std::result::Result<T, ExprError>;

/// The function that gives a `variable_constellation` its soft-decision table (GNU Radio
/// calls `gen_soft_dec_lut` on the object after making it); not one of GNU Radio's names.
const GEN_LUT: &str = "digital._radioflow_gen_soft_dec_lut";

/// The expression GNU Radio's `variable_constellation(_rect)` block `id` evaluates to, from
/// its parameters as written (GRC's defaults for those left out); `None` for other blocks.
pub(super) fn variable_value(id: &str, params: &HashMap<String, String>) -> Option<String> {
    let p = |key: &str, default: &str| {
        let text = params.get(key).map_or(default, String::as_str);
        format!("({text})")
    };
    let points = p("const_points", "[-1-1j, -1+1j, 1+1j, 1-1j]");
    let map = p("sym_map", "[0, 1, 3, 2]");
    let rot = p("rot_sym", "4");
    let value = match id {
        "variable_constellation" => match params.get("type").map_or("calcdist", String::as_str) {
            "calcdist" => format!(
                "digital.constellation_calcdist({points}, {map}, {rot}, {}, {})",
                p("dims", "1"),
                p(
                    "normalization",
                    "digital.constellation.AMPLITUDE_NORMALIZATION"
                )
            ),
            kind => format!("digital.constellation_{kind}()"),
        },
        "variable_constellation_rect" => format!(
            "digital.constellation_rect({points}, {map}, {rot}, {}, {}, {}, {})",
            p("real_sect", "2"),
            p("imag_sect", "2"),
            p("w_real_sect", "1"),
            p("w_imag_sect", "1")
        ),
        _ => return None,
    };
    // GRC's template: `gen_soft_dec_lut(precision)` for 'auto', `set_soft_dec_lut(lut,
    // precision)` for anything but None.
    let lut = params.get("soft_dec_lut").map_or("None", |s| s.trim());
    let precision = p("precision", "8");
    Some(match lut.to_lowercase().as_str() {
        "none" => value,
        "'auto'" | "\"auto\"" => format!("{GEN_LUT}({value}, {precision})"),
        _ => format!("{GEN_LUT}({value}, {precision}, ({lut}))"),
    })
}

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    super::modulate::is_function(name)
        || table(name).is_some()
        || name == GEN_LUT
        || matches!(
            name,
            "digital.constellation_bpsk"
                | "digital.bpsk_constellation"
                | "digital.qpsk_constellation"
                | "digital.dqpsk_constellation"
                | "digital.constellation_qpsk"
                | "digital.constellation_dqpsk"
                | "digital.constellation_8psk"
                | "digital.constellation_16qam"
                | "digital.constellation_calcdist"
                | "digital.constellation_rect"
        )
}

/// `name(args)` for a function of this module ([`is_function`]).
pub(super) fn call(
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Result<Value> {
    if super::modulate::is_function(name) {
        return super::modulate::call(name, args, kwargs, budget);
    }
    if let Some((points, symbols)) = table(name) {
        no_arguments(name, args, kwargs)?;
        let points: Vec<Value> = points.into_iter().map(Value::from_point).collect();
        let symbols: Vec<Value> = symbols.into_iter().map(|s| Value::Int(s.into())).collect();
        budget.make(points.len() + symbols.len() + 2, 2)?;
        return Ok(Value::List(vec![Value::List(points), Value::List(symbols)]));
    }
    let made = |c: std::result::Result<Constellation, _>| {
        c.map(|c| Value::Constellation(Arc::new(c))).map_err(
            |e: radioflow_library::digital::ConstellationError| {
                ExprError::InvalidValue(format!("{}: {}", cut(name), cut_display(&e)))
            },
        )
    };
    let named = match name {
        // GNU Radio's Python helpers (bpsk.py, qpsk.py) return the same objects; their only
        // argument, mod_code, accepts nothing but the default (Gray), so none is taken.
        "digital.constellation_bpsk" | "digital.bpsk_constellation" => Some(Constellation::bpsk()),
        "digital.constellation_qpsk" | "digital.qpsk_constellation" => Some(Constellation::qpsk()),
        "digital.constellation_dqpsk" | "digital.dqpsk_constellation" => {
            Some(Constellation::dqpsk())
        }
        "digital.constellation_8psk" => Some(Constellation::psk8()),
        "digital.constellation_16qam" => Some(Constellation::qam16()),
        _ => None,
    };
    if let Some(c) = named {
        no_arguments(name, args, kwargs)?;
        return made(Ok(c));
    }
    match name {
        "digital.constellation_calcdist" => {
            let params = [
                "constell",
                "pre_diff_code",
                "rotational_symmetry",
                "dimensionality",
                "normalization",
            ];
            let a = bind(name, &params, 4, args, kwargs, |_| None)?;
            made(Constellation::calcdist(
                &points(name, &a[0])?,
                &codes(name, &a[1])?,
                count(name, "rotational_symmetry", &a[2])?,
                count(name, "dimensionality", &a[3])? as usize,
                normalization(name, a.get(4))?,
            ))
        }
        "digital.constellation_rect" => {
            let params = [
                "constell",
                "pre_diff_code",
                "rotational_symmetry",
                "real_sectors",
                "imag_sectors",
                "width_real_sectors",
                "width_imag_sectors",
                "normalization",
            ];
            let a = bind(name, &params, 7, args, kwargs, |_| None)?;
            let width = |v: &Value, p: &str| {
                v.as_f64().map(|x| x as f32).ok_or_else(|| {
                    ExprError::InvalidValue(format!("{}: {p} must be a number", cut(name)))
                })
            };
            made(Constellation::rect(
                &points(name, &a[0])?,
                &codes(name, &a[1])?,
                count(name, "rotational_symmetry", &a[2])?,
                (
                    count(name, "real_sectors", &a[3])?,
                    count(name, "imag_sectors", &a[4])?,
                ),
                (
                    width(&a[5], "width_real_sectors")?,
                    width(&a[6], "width_imag_sectors")?,
                ),
                normalization(name, a.get(7))?,
            ))
        }
        GEN_LUT => match args {
            [Value::Constellation(c), p] => {
                let precision = count(name, "precision", p)?;
                made(Constellation::clone(c).with_soft_lut(precision))
            }
            [Value::Constellation(_), _, _] => Err(ExprError::Unsupported(
                "variable_constellation: a soft-decision table given as values (soft_dec_lut) \
                 is not supported; 'auto' (a table radioflow computes as GNU Radio's \
                 gen_soft_dec_lut) or None is"
                    .into(),
            )),
            _ => Err(ExprError::Unsupported(format!(
                "{}: takes a constellation and a precision",
                cut(name)
            ))),
        },
        _ => Err(ExprError::Unsupported(format!(
            "unsupported function '{}'",
            cut(name)
        ))),
    }
}

/// `c.method(args)` on a constellation: GNU Radio's accessors.
pub(super) fn method(
    c: &Arc<Constellation>,
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Result<Value> {
    let what = format!("constellation.{name}");
    const METHODS: &[&str] = &[
        "base",
        "points",
        "arity",
        "bits_per_symbol",
        "dimensionality",
        "rotational_symmetry",
        "apply_pre_diff_code",
        "pre_diff_code",
    ];
    if METHODS.contains(&name) {
        no_arguments(&what, args, kwargs)?;
    }
    let int = |n: usize| Value::Int(n as i64);
    Ok(match name {
        "base" => Value::Constellation(c.clone()),
        "points" => {
            budget.make(c.points().len(), 1)?;
            Value::List(c.points().iter().map(|&p| Value::from_point(p)).collect())
        }
        "arity" => int(c.arity()),
        "bits_per_symbol" => int(c.bits_per_symbol()),
        "dimensionality" => int(c.dimensionality()),
        "rotational_symmetry" => int(c.rotational_symmetry() as usize),
        "apply_pre_diff_code" => Value::Bool(c.pre_diff_code().1),
        "pre_diff_code" => {
            let code = c.pre_diff_code().0;
            budget.make(code.len(), 1)?;
            Value::List(code.iter().map(|&v| Value::Int(v.into())).collect())
        }
        _ => {
            return Err(ExprError::Unsupported(format!(
                "{}() is not supported (a constellation gives base, points, arity, \
                 bits_per_symbol, dimensionality, rotational_symmetry, pre_diff_code, \
                 apply_pre_diff_code)",
                cut(&what)
            )))
        }
    })
}

impl Value {
    /// A constellation point as Python's complex number.
    fn from_point(p: Complex32) -> Value {
        Value::Complex(Complex64::new(p.re.into(), p.im.into()))
    }
}

fn no_arguments(name: &str, args: &[&Value], kwargs: &[(&str, &Value)]) -> Result<()> {
    if args.is_empty() && kwargs.is_empty() {
        Ok(())
    } else {
        Err(ExprError::Unsupported(format!(
            "{}() takes no arguments",
            cut(name)
        )))
    }
}

/// GNU Radio's `psk_constellations.py` / `qam_constellations.py` tables: (points, symbols).
fn table(name: &str) -> Option<(Vec<Complex32>, Vec<u8>)> {
    let c = Complex32::new;
    let base = name.strip_prefix("digital.")?;
    Some(match base {
        "psk_2" | "psk_2_0" | "psk_2_0x0" => (vec![c(-1.0, 0.0), c(1.0, 0.0)], vec![0, 1]),
        "psk_2_1" | "psk_2_0x1" => (vec![c(-1.0, 0.0), c(1.0, 0.0)], vec![1, 0]),
        "psk_4" | "psk_4_0" | "psk_4_0x0_0_1" => (
            vec![c(-1.0, -1.0), c(1.0, -1.0), c(-1.0, 1.0), c(1.0, 1.0)],
            vec![0, 1, 2, 3],
        ),
        "qam_16" | "qam_16_0" | "qam_16_0x0_0_1_2_3" => {
            let levels = [-3.0, -1.0, 1.0, 3.0];
            let points = levels
                .iter()
                .flat_map(|&im| levels.iter().map(move |&re| c(re, im)))
                .collect();
            let symbols = vec![
                0x0, 0x4, 0xC, 0x8, 0x1, 0x5, 0xD, 0x9, 0x3, 0x7, 0xF, 0xB, 0x2, 0x6, 0xE, 0xA,
            ];
            (points, symbols)
        }
        _ => return None,
    })
}

/// A list of numbers as points (GNU Radio's `gr_complex`, f32).
fn points(f: &str, v: &Value) -> Result<Vec<Complex32>> {
    let list = match v {
        Value::List(v) | Value::Array(v) => v,
        other => {
            return Err(ExprError::InvalidValue(format!(
                "{}: the points must be a list, not {}",
                cut(f),
                other.type_name()
            )))
        }
    };
    list.iter()
        .map(|x| match x {
            Value::Complex(z) => Ok(Complex32::new(z.re as f32, z.im as f32)),
            other => other
                .as_f64()
                .map(|re| Complex32::new(re as f32, 0.0))
                .ok_or_else(|| {
                    ExprError::InvalidValue(format!(
                        "{}: a point is a {}, not a number",
                        cut(f),
                        other.type_name()
                    ))
                }),
        })
        .collect()
}

/// A list of symbol values (GNU Radio's `pre_diff_code`).
fn codes(f: &str, v: &Value) -> Result<Vec<u32>> {
    let list = match v {
        Value::List(v) | Value::Array(v) => v,
        other => {
            return Err(ExprError::InvalidValue(format!(
                "{}: the symbol map must be a list, not {}",
                cut(f),
                other.type_name()
            )))
        }
    };
    list.iter()
        .map(|x| {
            x.index()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| {
                    ExprError::InvalidValue(format!(
                        "{}: the symbol map holds {}, not a whole number >= 0",
                        cut(f),
                        cut_display(x)
                    ))
                })
        })
        .collect()
}

fn count(f: &str, what: &str, v: &Value) -> Result<u32> {
    v.index()
        .and_then(|i| u32::try_from(i).ok())
        .ok_or_else(|| {
            ExprError::InvalidValue(format!(
                "{}: {what} must be a whole number >= 0, not {}",
                cut(f),
                cut_display(v)
            ))
        })
}

/// GNU Radio's normalization (AMPLITUDE where none is given).
fn normalization(f: &str, v: Option<&std::borrow::Cow<'_, Value>>) -> Result<Normalization> {
    let Some(v) = v else {
        return Ok(Normalization::Amplitude);
    };
    match &**v {
        Value::Constant("no_normalization") => Ok(Normalization::None),
        Value::Constant("power_normalization") => Ok(Normalization::Power),
        Value::Constant("amplitude_normalization") => Ok(Normalization::Amplitude),
        // The enumeration's numbers, as Python may pass them.
        Value::Int(0) => Ok(Normalization::None),
        Value::Int(1) => Ok(Normalization::Power),
        Value::Int(2) => Ok(Normalization::Amplitude),
        other => Err(ExprError::InvalidValue(format!(
            "{}: normalization must be digital.constellation.NO_, POWER_ or \
             AMPLITUDE_NORMALIZATION, not {}",
            cut(f),
            cut_display(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// What the blocks evaluate to is checked in tests/grc_digital.rs.
    #[test]
    fn constellation_variables_become_gnu_radio_s_template_expressions() {
        let value = |id: &str, pairs: &[(&str, &str)]| variable_value(id, &params(pairs)).unwrap();
        assert_eq!(
            value(
                "variable_constellation",
                &[("type", "qpsk"), ("soft_dec_lut", "None")]
            ),
            "digital.constellation_qpsk()"
        );
        assert_eq!(
            value(
                "variable_constellation",
                &[
                    ("type", "8psk"),
                    ("soft_dec_lut", "'auto'"),
                    ("precision", "sps")
                ]
            ),
            format!("{GEN_LUT}(digital.constellation_8psk(), (sps))")
        );
        assert_eq!(
            value(
                "variable_constellation",
                &[("const_points", "digital.psk_4()[0]"), ("sym_map", "m")]
            ),
            "digital.constellation_calcdist((digital.psk_4()[0]), (m), (4), (1), \
             (digital.constellation.AMPLITUDE_NORMALIZATION))"
        );
        assert_eq!(
            value("variable_constellation_rect", &[("soft_dec_lut", "[[0.5]]")]),
            format!(
                "{GEN_LUT}(digital.constellation_rect(([-1-1j, -1+1j, 1+1j, 1-1j]), ([0, 1, 3, 2]), \
                 (4), (2), (2), (1), (1)), (8), ([[0.5]]))"
            )
        );
        assert_eq!(variable_value("variable", &params(&[])), None);
    }
}
