//! The operations and functions GRC expressions may use: Python's arithmetic on values,
//! indexing, and a fixed set of functions (`math`/`numpy`, builtins, `pmt`, `firdes`).

use super::expr_error::{ExprError, MAX_ITEMS};
use super::python::{self, Num, Op};
use super::value::{Budget, Val, Value};
use num_complex::Complex64;
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::Pmt;
use std::borrow::Cow;
use std::fmt::{self, Write};

type Result<T> = std::result::Result<T, ExprError>;

/// `v[i]`: an element of a list or a character of a string, counted from the end if negative.
pub(super) fn index<'s>(v: Val<'s>, i: &Value) -> Result<Val<'s>> {
    let unsupported = |v: &Value| {
        ExprError::Unsupported(format!(
            "cannot index {} with {}",
            cut_display(v),
            cut_display(i)
        ))
    };
    let Some(k) = i.index() else {
        return Err(unsupported(&v));
    };
    let at = |n: usize| {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        let j = if k < 0 { n.checked_add(k) } else { Some(k) };
        j.filter(|j| (0..n).contains(j))
            .map(|j| j as usize)
            .ok_or_else(|| ExprError::InvalidValue(format!("index {k} out of range (length {n})")))
    };
    match v {
        Cow::Borrowed(Value::List(items)) => Ok(Cow::Borrowed(&items[at(items.len())?])),
        Cow::Owned(Value::List(mut items)) => {
            let j = at(items.len())?;
            Ok(Cow::Owned(items.swap_remove(j)))
        }
        Cow::Borrowed(Value::Str(s)) => char_at(s, at(s.chars().count())?),
        Cow::Owned(Value::Str(s)) => char_at(&s, at(s.chars().count())?),
        other => Err(unsupported(&other)),
    }
}

fn char_at<'s>(s: &str, j: usize) -> Result<Val<'s>> {
    let c = s.chars().nth(j).expect("an index in range");
    Ok(Cow::Owned(Value::Str(c.to_string())))
}

/// `a op b`: Python's numbers, `+` joining strings and lists, `*` repeating them.
pub(super) fn arith(op: Op, a: &Value, b: &Value, budget: &mut Budget) -> Result<Value> {
    use Value::{List, Str};
    match (op, a, b) {
        (Op::Add, Str(x), Str(y)) => {
            budget.make(x.len().saturating_add(y.len()), 0)?;
            Ok(Str(format!("{x}{y}")))
        }
        (Op::Add, List(x), List(y)) => {
            let ((nx, dx), (ny, dy)) = (a.measure(), b.measure());
            budget.make(nx.saturating_add(ny), dx.max(dy))?;
            Ok(List(x.iter().chain(y).cloned().collect()))
        }
        (Op::Mul, List(_) | Str(_), n) | (Op::Mul, n, List(_) | Str(_)) if n.index().is_some() => {
            let seq = if matches!(a, List(_) | Str(_)) { a } else { b };
            let times = usize::try_from(n.index().unwrap_or(0)).unwrap_or(0);
            let (items, depth) = seq.measure();
            budget.make(items.saturating_mul(times), depth)?;
            Ok(match seq {
                Str(s) => Str(s.repeat(times)),
                List(x) => List(x.iter().cloned().cycle().take(x.len() * times).collect()),
                _ => unreachable!("a list or a string"),
            })
        }
        _ => match (a.num(), b.num()) {
            (Some(x), Some(y)) => python::binary(op, x, y).map(Value::from),
            _ => Err(ExprError::Unsupported(format!(
                "cannot apply '{op}' to {} and {}",
                cut_display(a),
                cut_display(b)
            ))),
        },
    }
}

/// A real number argument (int, bool or float) of function `f`.
fn real(f: &str, v: &Value) -> Result<f64> {
    match v.num() {
        Some(n) => n.real().ok_or_else(|| {
            ExprError::Unsupported(format!("{}: must be a real number, not complex", cut(f)))
        }),
        None => Err(ExprError::Unsupported(format!(
            "{}: must be a number, not {}",
            cut(f),
            v.type_name()
        ))),
    }
}

fn float_arg(f: &str, args: &[&Value], i: usize) -> Result<f64> {
    match args.get(i) {
        Some(v) => real(f, v),
        None => Err(ExprError::Unsupported(format!(
            "{}: argument {} is missing",
            cut(f),
            i + 1
        ))),
    }
}

/// `min` or `max` (Python's: the first of the least or greatest items; numbers compared
/// exactly, strings by code points).
fn extreme(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let items: Vec<&Value> = match args {
        [Value::List(v)] => v.iter().collect(),
        [one] => {
            return Err(ExprError::Unsupported(format!(
                "{name}: a {} is not iterable",
                one.type_name()
            )))
        }
        _ => args.to_vec(),
    };
    let Some((&first, rest)) = items.split_first() else {
        return Err(ExprError::InvalidValue(format!("{name}() of nothing")));
    };
    let greater = |a: &Value, b: &Value| -> Result<bool> {
        use std::cmp::Ordering::Greater;
        let o = match (a.num(), b.num(), a, b) {
            (Some(Num::Int(x)), Some(Num::Int(y)), ..) => Some(x.cmp(&y)),
            (Some(Num::Int(x)), Some(Num::Float(y)), ..) => python::compare_int_float(x, y),
            (Some(Num::Float(x)), Some(Num::Int(y)), ..) => {
                python::compare_int_float(y, x).map(std::cmp::Ordering::reverse)
            }
            (Some(Num::Float(x)), Some(Num::Float(y)), ..) => x.partial_cmp(&y),
            (.., Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
            _ => {
                return Err(ExprError::Unsupported(format!(
                    "{name}: cannot compare {} and {}",
                    a.type_name(),
                    b.type_name()
                )))
            }
        };
        Ok(o == Some(Greater))
    };
    let mut best = first;
    for &item in rest {
        let better = if name.ends_with("max") {
            greater(item, best)?
        } else {
            greater(best, item)?
        };
        if better {
            best = item;
        }
    }
    budget.own(Cow::Borrowed(best))
}

/// Calls one of the supported functions.
pub(super) fn call(name: &str, args: &[Val<'_>], budget: &mut Budget) -> Result<Value> {
    let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
    let args = args.as_slice();
    let base = name
        .strip_prefix("math.")
        .or_else(|| name.strip_prefix("numpy."))
        .or_else(|| name.strip_prefix("np."))
        .unwrap_or(name);
    // numpy's functions return NaN or infinity where `math`'s raise (and their floor and
    // ceil stay floats).
    let numpy = name.starts_with("numpy.") || name.starts_with("np.");
    let one = || -> Result<&Value> {
        match args {
            [x] => Ok(x),
            _ => Err(ExprError::Unsupported(format!(
                "{} takes one argument",
                cut(name)
            ))),
        }
    };
    let math = |g: fn(f64) -> f64, can_overflow: bool| -> Result<Value> {
        let x = real(name, one()?)?;
        let r = g(x);
        if numpy {
            Ok(Value::Float(r))
        } else {
            python::math_result(name, x, r, can_overflow).map(Value::Float)
        }
    };
    let rounding = |g: fn(f64) -> f64| -> Result<Value> {
        let x = one()?;
        match x.num() {
            Some(Num::Int(i)) if !numpy => Ok(Value::Int(i)),
            _ if numpy => Ok(Value::Float(g(real(name, x)?))),
            _ => python::float_to_int(g(real(name, x)?)).map(Value::Int),
        }
    };
    match base {
        "sqrt" => math(f64::sqrt, false),
        "sin" => math(f64::sin, false),
        "cos" => math(f64::cos, false),
        "tan" => math(f64::tan, false),
        "exp" => math(f64::exp, true),
        "log" => math(f64::ln, false),
        "log10" => math(f64::log10, false),
        "log2" => math(f64::log2, false),
        "floor" => rounding(f64::floor),
        "ceil" => rounding(f64::ceil),
        "float" => match args {
            [] => Ok(Value::Float(0.0)),
            [Value::Str(s)] => {
                let t = s.trim();
                t.parse::<f64>()
                    .ok()
                    .filter(|_| !t.is_empty() && !t.contains('_'))
                    .map(Value::Float)
                    .ok_or_else(|| {
                        ExprError::InvalidValue(format!(
                            "float: could not convert {}",
                            cut_display(args[0])
                        ))
                    })
            }
            [x] => real(name, x).map(Value::Float),
            _ => Err(ExprError::Unsupported("float takes one argument".into())),
        },
        "abs" => {
            let x = one()?;
            let n = x
                .num()
                .ok_or_else(|| ExprError::Unsupported(format!("abs of a {}", x.type_name())))?;
            python::abs(n).map(Value::from)
        }
        "int" => match args {
            [] => Ok(Value::Int(0)),
            [Value::Str(s)] => {
                let t = s.trim();
                let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
                let valid = !digits.is_empty()
                    && digits.bytes().all(|c| c.is_ascii_digit() || c == b'_')
                    && !digits.starts_with('_')
                    && !digits.ends_with('_')
                    && !digits.contains("__");
                if !valid {
                    return Err(ExprError::InvalidValue(format!(
                        "int: {} is not an integer",
                        cut_display(args[0])
                    )));
                }
                t.replace('_', "").parse().map(Value::Int).map_err(|_| {
                    ExprError::IntegerTooLarge(format!("int({})", cut_display(args[0])))
                })
            }
            [x] => match x.num() {
                Some(Num::Int(i)) => Ok(Value::Int(i)),
                Some(Num::Float(f)) => python::float_to_int(f).map(Value::Int),
                _ => Err(ExprError::Unsupported(format!(
                    "int of a {}",
                    x.type_name()
                ))),
            },
            _ => Err(ExprError::Unsupported(
                "int takes one argument (no base)".into(),
            )),
        },
        "round" => {
            let (x, digits) = match args {
                [x] | [x, Value::None] => (*x, None),
                [x, n] => (
                    *x,
                    Some(n.index().ok_or_else(|| {
                        ExprError::Unsupported(format!(
                            "round: the number of digits must be an integer, not {}",
                            n.type_name()
                        ))
                    })?),
                ),
                _ => {
                    return Err(ExprError::Unsupported(
                        "round takes a number and a number of digits".into(),
                    ))
                }
            };
            match (x.num(), digits) {
                (Some(Num::Int(i)), None) => Ok(Value::Int(i)),
                (Some(Num::Int(i)), Some(n)) => python::round_int(i, n).map(Value::Int),
                (Some(Num::Float(f)), None) => python::round_float_to_int(f).map(Value::Int),
                (Some(Num::Float(f)), Some(n)) => python::round_float(f, n).map(Value::Float),
                _ => Err(ExprError::Unsupported(format!(
                    "round of a {}",
                    x.type_name()
                ))),
            }
        }
        "complex" => {
            // CPython's complex(real, imag) with real or complex arguments.
            let part = |v: &Value| match v.num() {
                Some(Num::Complex(c)) => Ok((c, true)),
                Some(n) => Ok((Complex64::new(n.real().unwrap_or_default(), 0.0), false)),
                None => Err(ExprError::Unsupported(format!(
                    "complex of a {}",
                    v.type_name()
                ))),
            };
            match args {
                [] => Ok(Value::Complex(Complex64::new(0.0, 0.0))),
                [re] => part(re).map(|(c, _)| Value::Complex(c)),
                [re, im] => {
                    let ((r, r_complex), (i, i_complex)) = (part(re)?, part(im)?);
                    let mut c = Complex64::new(r.re, i.re);
                    if i_complex {
                        c.re -= i.im;
                    }
                    if r_complex {
                        c.im += r.im;
                    }
                    Ok(Value::Complex(c))
                }
                _ => Err(ExprError::Unsupported(
                    "complex takes a real and an imaginary part".into(),
                )),
            }
        }
        "min" | "max" => extreme(base, args, budget),
        "len" => match args {
            [Value::List(v)] => Ok(Value::Int(v.len() as i64)),
            [Value::Str(s)] => Ok(Value::Int(s.chars().count() as i64)),
            _ => Err(ExprError::Unsupported(
                "len takes a list or a string".into(),
            )),
        },
        "str" => {
            let s = match args {
                [] => String::new(),
                [Value::Str(s)] => s.clone(),
                [v] => {
                    // Written no further than a string may be long.
                    let mut out = Limited(String::new());
                    write!(out, "{v}").map_err(|_| ExprError::TooLarge)?;
                    out.0
                }
                _ => return Err(ExprError::Unsupported("str takes one argument".into())),
            };
            budget.make(s.len(), 0)?;
            Ok(Value::Str(s))
        }
        "list" | "tuple" => match args {
            [] => Ok(Value::List(Vec::new())),
            [Value::List(_)] => budget.own(Cow::Borrowed(args[0])),
            [Value::Str(s)] => {
                let chars: Vec<Value> = s.chars().map(|c| Value::Str(c.to_string())).collect();
                budget.make(chars.len() + s.len(), 1)?;
                Ok(Value::List(chars))
            }
            _ => Err(ExprError::Unsupported(format!(
                "{name} takes a list or a string"
            ))),
        },
        "pmt.intern" | "pmt.string_to_symbol" => match args {
            [Value::Str(s)] => Ok(Value::Pmt(Pmt::symbol(s.as_str()))),
            _ => Err(ExprError::Unsupported(format!("{name} takes a string"))),
        },
        "pmt.from_long" | "pmt.from_uint64" => match args {
            [Value::Int(i)] => Ok(Value::Pmt(Pmt::Int(*i))),
            _ => Err(ExprError::Unsupported(format!("{name} takes an integer"))),
        },
        "pmt.from_double" | "pmt.from_float" => {
            Ok(Value::Pmt(Pmt::Double(float_arg(name, args, 0)?)))
        }
        "pmt.from_bool" => match args {
            [Value::Bool(b)] => Ok(Value::Pmt(Pmt::Bool(*b))),
            _ => Err(ExprError::Unsupported(format!(
                "{name} takes True or False"
            ))),
        },
        "firdes.low_pass"
        | "filter.firdes.low_pass"
        | "firdes.low_pass_2"
        | "filter.firdes.low_pass_2"
        | "firdes.high_pass"
        | "filter.firdes.high_pass"
        | "firdes.root_raised_cosine"
        | "filter.firdes.root_raised_cosine" => firdes(name, args, budget),
        _ => Err(ExprError::Unsupported(format!(
            "unsupported function '{}'",
            cut(name)
        ))),
    }
}

/// A string that refuses to grow past [`MAX_ITEMS`] bytes.
struct Limited(String);

impl Write for Limited {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.0.len() + s.len() > MAX_ITEMS {
            return Err(fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// `firdes.low_pass(gain, fs, cutoff, transition[, window[, beta]])`, `high_pass`, and
/// `root_raised_cosine(gain, fs, symbol_rate, alpha, ntaps)` from radioflow's own designs.
fn firdes(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    use radioflow_dsp::firdes;
    use radioflow_dsp::firdes::Window;
    let num = |i| float_arg(name, args, i);
    let failed = |e: radioflow_dsp::ParamError| ExprError::InvalidValue(format!("{name}: {e}"));
    let window = || -> Result<Window> {
        let beta = if args.len() > 5 { num(5)? } else { 6.76 };
        Ok(match args.get(4) {
            None | Some(Value::Constant("hamming")) => Window::Hamming,
            Some(Value::Constant("hann")) => Window::Hann,
            Some(Value::Constant("blackman")) => Window::Blackman,
            Some(Value::Constant("rectangular")) => Window::Rectangular,
            Some(Value::Constant("kaiser")) => Window::Kaiser { beta },
            Some(other) => {
                return Err(ExprError::Unsupported(format!(
                    "{name}: unsupported window {}",
                    cut_display(*other)
                )))
            }
        })
    };
    // The taps are counted before they are designed: a narrow transition asks for millions.
    let taps = if name.ends_with("root_raised_cosine") {
        let ntaps = num(4)?;
        if !(1.0..=MAX_ITEMS as f64).contains(&ntaps) {
            return Err(ExprError::InvalidValue(format!(
                "{name}: ntaps must be between 1 and {MAX_ITEMS}"
            )));
        }
        budget.make(ntaps as usize + 1, 1)?;
        firdes::root_raised_cosine(num(0)?, num(1)?, num(2)?, num(3)?, ntaps as usize)
    } else {
        let (fs, transition, window) = (num(1)?, num(3)?, window()?);
        budget.make(
            firdes::windowed_len(fs, transition, window).map_err(failed)?,
            1,
        )?;
        if name.ends_with("high_pass") {
            firdes::high_pass(num(0)?, fs, num(2)?, transition, window)
        } else {
            firdes::low_pass(num(0)?, fs, num(2)?, transition, window)
        }
    }
    .map_err(failed)?;
    Ok(Value::List(
        taps.into_iter().map(|t| Value::Float(t.into())).collect(),
    ))
}
