//! The operations and functions GRC expressions may use: Python's arithmetic on values,
//! indexing, and a fixed set of functions (`math`/`numpy`, builtins, `pmt`, `firdes`).

use super::adaptive_algorithm;
use super::args::bind;
use super::constants;
use super::digital;
use super::expr_error::{ExprError, MAX_ITEMS};
use super::fec;
use super::header_format;
use super::numpy;
use super::python::{self, Num, Op};
use super::tags;
use super::value::{Budget, Val, Value};
use super::window;
use num_complex::Complex64;
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::Pmt;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::{self, Write};

type Result<T> = std::result::Result<T, ExprError>;

/// `v[i]`: an element of a list or a character of a string, counted from the end if negative;
/// a dict's value for key `i`.
pub(super) fn index<'s>(v: Val<'s>, i: &Value) -> Result<Val<'s>> {
    let unsupported = |v: &Value| {
        ExprError::Unsupported(format!(
            "cannot index {} with {}",
            cut_display(v),
            cut_display(i)
        ))
    };
    let missing = || ExprError::InvalidValue(format!("key {} is not in the dict", cut_display(i)));
    match &*v {
        Value::Dict(entries) => {
            for (k, value) in entries {
                if equal(k, i)? {
                    return Ok(Cow::Owned(value.clone()));
                }
            }
            return Err(missing());
        }
        Value::Pmt(p) if p.is_dict() => {
            let key = python_to_pmt(i)?;
            return match p.as_dict().and_then(|d| d.iter().find(|(k, _)| *k == key)) {
                // Back as the Python value it was made from, where it was one.
                Some((_, value)) => Ok(Cow::Owned(match value {
                    Pmt::Int(n) => Value::Int(*n),
                    Pmt::Double(x) => Value::Float(*x),
                    Pmt::Complex(c) => Value::Complex(*c),
                    Pmt::Bool(b) => Value::Bool(*b),
                    Pmt::Symbol(_) => Value::Str(value.as_symbol().unwrap_or_default().to_owned()),
                    other => Value::Pmt(other.clone()),
                })),
                None => Err(missing()),
            };
        }
        _ => {}
    }
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
        Cow::Borrowed(Value::List(items) | Value::Array(items)) => {
            Ok(Cow::Borrowed(&items[at(items.len())?]))
        }
        Cow::Owned(Value::List(mut items) | Value::Array(mut items)) => {
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
    use Value::{Array, List, Str};
    match (op, a, b) {
        (_, Array(_), _) | (_, _, Array(_)) => numpy::elementwise(op, a, b, budget),
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

/// `-v` or `+v` (`sign`).
pub(super) fn unary(sign: &str, minus: bool, v: &Value, budget: &mut Budget) -> Result<Value> {
    if let Value::Array(_) = v {
        return numpy::negate(v, minus, budget);
    }
    let n = v.num().ok_or_else(|| {
        ExprError::Unsupported(format!("bad operand for unary {sign}: {}", cut_display(v)))
    })?;
    Ok(if minus { python::negate(n)? } else { n }.into())
}

/// Python's truth of a value (`if`, `and`, `or`, `not`): zero, empty and None are false.
pub(super) fn python_truth(v: &Value) -> Result<bool> {
    Ok(match v {
        Value::Int(i) => *i != 0,
        Value::Float(x) => *x != 0.0,
        Value::Complex(c) => c.re != 0.0 || c.im != 0.0,
        Value::Bool(b) => *b,
        Value::Str(s) => !s.is_empty(),
        Value::List(v) => !v.is_empty(),
        Value::Dict(entries) => !entries.is_empty(),
        Value::Array(v) => {
            match v.as_slice() {
                [] => false,
                [x] => python_truth(x)?,
                _ => return Err(ExprError::Unsupported(
                    "the truth value of an array with more than one element is ambiguous (numpy)"
                        .into(),
                )),
            }
        }
        Value::None => false,
        Value::Pmt(_)
        | Value::Constant(_)
        | Value::Lambda(_)
        | Value::Function(_)
        | Value::Constellation(_)
        | Value::Modulator(_) => true,
    })
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    In,
    NotIn,
    Is,
    IsNot,
}

/// Python's order of two values: numbers exactly (an int and a float too), strings by code
/// points, lists item by item; None where they are unordered (NaN). Other pairs cannot be
/// ordered (TypeError).
fn order(a: &Value, b: &Value) -> Result<Option<Ordering>> {
    Ok(match (a.num(), b.num(), a, b) {
        (Some(Num::Int(x)), Some(Num::Int(y)), ..) => Some(x.cmp(&y)),
        (Some(Num::Int(x)), Some(Num::Float(y)), ..) => python::compare_int_float(x, y),
        (Some(Num::Float(x)), Some(Num::Int(y)), ..) => {
            python::compare_int_float(y, x).map(Ordering::reverse)
        }
        (Some(Num::Float(x)), Some(Num::Float(y)), ..) => x.partial_cmp(&y),
        (.., Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        (.., Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y) {
                if !equal(p, q)? {
                    return order(p, q);
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => {
            return Err(ExprError::Unsupported(format!(
                "cannot order a {} and a {}",
                a.type_name(),
                b.type_name()
            )))
        }
    })
}

/// Python's `a == b`: numbers by value (complex too), a constant equal to its number in
/// GNU Radio, values of different types unequal.
fn equal(a: &Value, b: &Value) -> Result<bool> {
    Ok(match (a, b) {
        (Value::Constant(x), Value::Constant(y)) => x == y,
        (Value::Constant(c), n) | (n, Value::Constant(c)) => {
            matches!((n.num(), constants::number(c)), (Some(Num::Int(i)), Some(j)) if i == j)
        }
        (Value::Array(_), _) | (_, Value::Array(_)) => {
            return Err(ExprError::Unsupported(
                "comparing arrays (element by element in numpy) is not supported".into(),
            ))
        }
        (Value::List(x), Value::List(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y) {
                if !equal(p, q)? {
                    return Ok(false);
                }
            }
            true
        }
        _ => match (a.num(), b.num()) {
            (Some(Num::Complex(x)), Some(y)) | (Some(y), Some(Num::Complex(x))) => {
                let y = match y {
                    Num::Complex(c) => c,
                    n => Complex64::new(n.real().unwrap_or_default(), 0.0),
                };
                // An int compared as a float: exact where it matters (|int| < 2^53).
                x == y
            }
            (Some(_), Some(_)) => order(a, b)? == Some(Ordering::Equal),
            _ => a == b,
        },
    })
}

/// `a op b` for a comparison operator.
pub(super) fn compare(op: Cmp, a: &Value, b: &Value) -> Result<bool> {
    let ordered = |want: fn(Ordering) -> bool| -> Result<bool> {
        if matches!(a, Value::Array(_)) || matches!(b, Value::Array(_)) {
            return Err(ExprError::Unsupported(
                "comparing arrays (element by element in numpy) is not supported".into(),
            ));
        }
        Ok(order(a, b)?.is_some_and(want))
    };
    match op {
        Cmp::Lt => ordered(Ordering::is_lt),
        Cmp::Le => ordered(Ordering::is_le),
        Cmp::Gt => ordered(Ordering::is_gt),
        Cmp::Ge => ordered(Ordering::is_ge),
        Cmp::Eq => equal(a, b),
        Cmp::Ne => equal(a, b).map(|e| !e),
        Cmp::In | Cmp::NotIn => {
            let found = match b {
                Value::Str(s) => match a {
                    Value::Str(x) => s.contains(x.as_str()),
                    _ => {
                        return Err(ExprError::Unsupported(format!(
                            "'in <string>' needs a string on the left, not {}",
                            a.type_name()
                        )))
                    }
                },
                Value::List(v) | Value::Array(v) => {
                    let mut found = false;
                    for x in v {
                        if equal(a, x)? {
                            found = true;
                            break;
                        }
                    }
                    found
                }
                _ => {
                    return Err(ExprError::Unsupported(format!(
                        "a {} is not a container ('in')",
                        b.type_name()
                    )))
                }
            };
            Ok(found == (op == Cmp::In))
        }
        // Identity: Python's None, True and False are single objects; others are compared
        // by value here (the evaluator has no object identity), which `is` seldom needs.
        Cmp::Is => Ok(a == b),
        Cmp::IsNot => Ok(a != b),
    }
}

/// The items of a list, an array or a string (its characters), as `f` iterates them (a
/// copy, counted).
pub(super) fn items(v: &Value, f: &str, budget: &mut Budget) -> Result<Vec<Value>> {
    let (n, depth) = v.measure();
    match v {
        Value::List(v) | Value::Array(v) => {
            budget.make(n, depth)?;
            Ok(v.clone())
        }
        Value::Str(s) => {
            budget.make(n.saturating_mul(2), 1)?;
            Ok(s.chars().map(|c| Value::Str(c.to_string())).collect())
        }
        other => Err(ExprError::Unsupported(format!(
            "{f}: a {} is not iterable",
            other.type_name()
        ))),
    }
}

/// `v[start:stop:step]` of a list, an array or a string, with Python's rules for negative
/// and out-of-range bounds.
pub(super) fn slice(v: &Value, parts: [Option<&Value>; 3], budget: &mut Budget) -> Result<Value> {
    let bound = |p: Option<&Value>| -> Result<Option<i64>> {
        match p {
            None | Some(Value::None) => Ok(None),
            Some(x) => x.index().map(Some).ok_or_else(|| {
                ExprError::Unsupported(format!(
                    "slice indices must be integers or None, not {}",
                    x.type_name()
                ))
            }),
        }
    };
    let [start, stop, step] = parts;
    let (start, stop, step) = (bound(start)?, bound(stop)?, bound(step)?.unwrap_or(1));
    if step == 0 {
        return Err(ExprError::InvalidValue("slice step cannot be zero".into()));
    }
    let chars: Vec<Value>;
    let seq: &[Value] = match v {
        Value::List(x) | Value::Array(x) => x,
        Value::Str(s) => {
            budget.make(s.len(), 1)?;
            chars = s.chars().map(|c| Value::Str(c.to_string())).collect();
            &chars
        }
        other => {
            return Err(ExprError::Unsupported(format!(
                "cannot slice a {}",
                other.type_name()
            )))
        }
    };
    let n = seq.len() as i64;
    // CPython's PySlice_AdjustIndices.
    let adjust = |b: Option<i64>, default: i64| match b {
        None => default,
        Some(b) if b < 0 => (b + n).max(if step < 0 { -1 } else { 0 }),
        Some(b) => b.min(if step < 0 { n - 1 } else { n }),
    };
    let (lo, hi) = if step > 0 {
        (adjust(start, 0), adjust(stop, n))
    } else {
        (adjust(start, n - 1), adjust(stop, -1))
    };
    let mut picked = Vec::new();
    let mut i = lo;
    while (step > 0 && i < hi) || (step < 0 && i > hi) {
        picked.push(&seq[i as usize]);
        i = i.saturating_add(step);
    }
    let out: Vec<Value> = picked.into_iter().cloned().collect();
    Ok(match v {
        Value::Str(_) => {
            let s: String = out
                .iter()
                .map(|c| match c {
                    Value::Str(c) => c.as_str(),
                    _ => "",
                })
                .collect();
            budget.make(s.len(), 0)?;
            Value::Str(s)
        }
        Value::Array(_) => {
            budget.make(out.len(), 1)?;
            Value::Array(out)
        }
        _ => {
            let list = Value::List(out);
            let (items, depth) = list.measure();
            budget.make(items, depth)?;
            list
        }
    })
}

/// `range([start,] stop[, step])`, made whole as a list, counted before it is made.
fn range(args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let ints = args
        .iter()
        .map(|v| {
            v.index().ok_or_else(|| {
                ExprError::Unsupported(format!(
                    "range: a {} cannot be interpreted as an integer",
                    v.type_name()
                ))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] => (*start, *stop, *step),
        _ => {
            return Err(ExprError::Unsupported(
                "range takes a stop, or a start, a stop and a step".into(),
            ))
        }
    };
    if step == 0 {
        return Err(ExprError::InvalidValue(
            "range() arg 3 must not be zero".into(),
        ));
    }
    let (a, b, s) = (i128::from(start), i128::from(stop), i128::from(step));
    let n = python::range_len(a, b, s);
    if n > MAX_ITEMS as i128 {
        return Err(ExprError::TooLarge);
    }
    budget.make(n as usize, 1)?;
    // Every element lies between start and stop: within 64 bits.
    Ok(Value::List(
        (0..n).map(|i| Value::Int((a + i * s) as i64)).collect(),
    ))
}

/// Functions that GRC files call which are not supported yet, and why.
fn not_yet(name: &str) -> Option<&'static str> {
    // Python's `random` module (GNU Radio's examples draw payloads with
    // `random.getrandbits(8)`).
    if name.starts_with("random.") {
        return Some(
            "Python's random numbers are not supported in expressions: a flowgraph's values \
             are fixed when it is read (write the values out instead)",
        );
    }
    let base = name.strip_prefix("filter.").unwrap_or(name);
    let base = base.strip_prefix("gnuradio.").unwrap_or(base);
    if let Some(f) = base
        .strip_prefix("digital.")
        .filter(|_| !digital::is_function(base))
    {
        let constellation = f.starts_with("psk_")
            || f.starts_with("qam_")
            || f.starts_with("sd_")
            || f.starts_with("constellation")
            || f.ends_with("_constellation")
            || f == "soft_dec_table_generator";
        if constellation {
            return Some(
                "radioflow builds GNU Radio's constellation objects (digital.constellation_qpsk(), \
                 _calcdist, _rect and the like) and the psk_2, psk_4 and qam_16 tables; other \
                 tables and soft-decision table generators are not built in expressions yet",
            );
        }
    }
    let design = matches!(
        base,
        "firdes.complex_band_pass" | "firdes.gaussian" | "firdes.hilbert"
    ) || (base.starts_with("optfir.") && optfir_params(base).is_none());
    design.then_some(
        "this filter design (complex_band_pass, gaussian, hilbert, optfir's complex designs) \
         is not supported in expressions yet; firdes' low, high and band designs (and their \
         *_2 forms), root_raised_cosine, window, optfir's real designs and pm_remez are",
    )
}

/// The functions a name may stand for as a value (`map(int, v)`).
pub(super) fn is_function(name: &str) -> bool {
    if digital::is_function(name)
        || fec::is_function(name)
        || header_format::is_function(name)
        || window::is_function(name)
        || adaptive_algorithm::is_function(name)
    {
        return true;
    }
    let base = ["math.", "cmath.", "numpy.", "np."]
        .iter()
        .find_map(|m| name.strip_prefix(m));
    match base {
        Some(f) => MATH.contains(&f) || (name.starts_with('n') && numpy::known(f)),
        None => matches!(
            name,
            "int"
                | "float"
                | "complex"
                | "abs"
                | "round"
                | "min"
                | "max"
                | "len"
                | "str"
                | "list"
                | "tuple"
                | "range"
                | "sum"
                | "pow"
                | "map"
        ),
    }
}

/// The functions of `math` this evaluator has.
const MATH: &[&str] = &[
    "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "exp", "log", "log10", "log2", "floor", "ceil", "pow", "fabs", "hypot",
    "degrees", "radians",
];

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

/// An integer argument (int or bool; a float is refused, as Python's `int` parameters do)
/// of function `f`.
fn int_arg(f: &str, v: &Value) -> Result<i64> {
    match v.num() {
        Some(Num::Int(i)) => Ok(i),
        _ => Err(ExprError::Unsupported(format!(
            "{}: must be an integer, not {}",
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
        [Value::List(v) | Value::Array(v)] => v.iter().collect(),
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
pub(super) fn call(
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Result<Value> {
    if let Some(why) = not_yet(name) {
        return Err(ExprError::Unsupported(format!(
            "'{}' is not supported: {why}",
            cut(name)
        )));
    }
    if digital::is_function(name) {
        return digital::call(name, args, kwargs, budget);
    }
    if tags::is_function(name) {
        return tags::call(name, args, kwargs, budget);
    }
    if fec::is_function(name) {
        return fec::call(name, args, kwargs);
    }
    if header_format::is_function(name) {
        return header_format::call(name, args, kwargs);
    }
    if window::is_function(name) {
        return window::call(name, args, kwargs, budget);
    }
    if adaptive_algorithm::is_function(name) {
        return adaptive_algorithm::call(name, args, kwargs);
    }
    if let Some(f) = name
        .strip_prefix("numpy.")
        .or_else(|| name.strip_prefix("np."))
    {
        if let Some(e) = numpy::unsupported(f) {
            return Err(e);
        }
        if let Some(r) = numpy::call(f, args, kwargs, budget) {
            return r;
        }
    }
    let bound;
    let args = if kwargs.is_empty() {
        args
    } else {
        bound = keywords(name, args, kwargs)?;
        &bound.iter().map(|a| &**a).collect::<Vec<_>>()
    };
    if let Some(f) = name.strip_prefix("cmath.") {
        return cmath(name, f, args);
    }
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
        "asin" => math(f64::asin, false),
        "acos" => math(f64::acos, false),
        "atan" => math(f64::atan, false),
        "sinh" => math(f64::sinh, true),
        "cosh" => math(f64::cosh, true),
        "tanh" => math(f64::tanh, false),
        "asinh" => math(f64::asinh, false),
        "acosh" => math(f64::acosh, false),
        "atanh" => math(f64::atanh, false),
        "fabs" => math(f64::abs, false),
        "degrees" => math(f64::to_degrees, true),
        "radians" => math(f64::to_radians, false),
        "atan2" | "hypot" | "pow" if name.starts_with("math.") => {
            let (y, x) = (float_arg(name, args, 0)?, float_arg(name, args, 1)?);
            if args.len() != 2 {
                return Err(ExprError::Unsupported(format!(
                    "{name} takes two arguments"
                )));
            }
            let r = match base {
                "atan2" => y.atan2(x),
                "hypot" => y.hypot(x),
                _ => y.powf(x),
            };
            // math.pow raises where ** would: 0.0 to a negative power, a negative number to
            // a fractional one.
            if base == "pow" && y == 0.0 && x < 0.0 {
                return Err(ExprError::InvalidValue(format!(
                    "{name}: math domain error"
                )));
            }
            python::math_result(name, y, r, true).map(Value::Float)
        }
        "pow" => match args {
            [x, y] => arith(Op::Pow, x, y, budget),
            _ => Err(ExprError::Unsupported(
                "pow takes two arguments here (no modulus)".into(),
            )),
        },
        "range" => range(args, budget),
        "sum" => match args {
            [v] | [v, _] => {
                let mut total = match args.get(1) {
                    Some(start) => (*start).clone(),
                    None => Value::Int(0),
                };
                for x in items(v, "sum", budget)? {
                    total = arith(Op::Add, &total, &x, budget)?;
                }
                Ok(total)
            }
            _ => Err(ExprError::Unsupported(
                "sum takes a list and a start".into(),
            )),
        },
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
            [Value::Constant(c)] => Ok(Value::Float(constant_number(c)? as f64)),
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
            [Value::Constant(c)] => constant_number(c).map(Value::Int),
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
            [Value::List(v) | Value::Array(v)] => Ok(Value::Int(v.len() as i64)),
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
            [Value::Array(v)] => {
                budget.make(v.len(), 1)?;
                Ok(Value::List(v.clone()))
            }
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
        "pmt.from_long" => match args {
            [Value::Int(i)] => Ok(Value::Pmt(Pmt::Int(*i))),
            _ => Err(ExprError::Unsupported(format!("{name} takes an integer"))),
        },
        // A uint64 PMT, as GNU Radio's (pdu_to_stream's tx_time needs one).
        "pmt.from_uint64" => match args {
            [Value::Int(i)] if *i >= 0 => Ok(Value::Pmt(Pmt::Uint64(*i as u64))),
            _ => Err(ExprError::Unsupported(format!(
                "{name} takes an integer >= 0"
            ))),
        },
        _ if name.starts_with("pmt.init_") && name.ends_with("vector") => {
            init_vector(name, args, budget)
        }
        "pmt.make_tuple" => {
            let items = args
                .iter()
                .map(|a| match a {
                    Value::Pmt(p) => Ok(p.clone()),
                    _ => Err(ExprError::Unsupported(format!("{name} takes PMTs"))),
                })
                .collect::<Result<Vec<Pmt>>>()?;
            budget.make(items.len(), 1)?;
            Ok(Value::Pmt(Pmt::Tuple(items.into())))
        }
        "pmt.from_double" | "pmt.from_float" => {
            Ok(Value::Pmt(Pmt::Double(float_arg(name, args, 0)?)))
        }
        "pmt.cons" => match args {
            [Value::Pmt(car), Value::Pmt(cdr)] => {
                Ok(Value::Pmt(Pmt::pair(car.clone(), cdr.clone())))
            }
            _ => Err(ExprError::Unsupported(format!("{name} takes two PMTs"))),
        },
        // GNU Radio's empty dict is PMT_NIL.
        "pmt.make_dict" => match args {
            [] => Ok(Value::Pmt(Pmt::Null)),
            _ => Err(ExprError::Unsupported(format!("{name} takes no argument"))),
        },
        "pmt.to_pmt" => match args {
            [v] => Ok(Value::Pmt(python_to_pmt(v)?)),
            _ => Err(ExprError::Unsupported(format!("{name} takes one value"))),
        },
        "pmt.from_bool" => match args {
            [Value::Bool(b)] => Ok(Value::Pmt(Pmt::Bool(*b))),
            _ => Err(ExprError::Unsupported(format!(
                "{name} takes True or False"
            ))),
        },
        // gr-uhd's tune request (target frequency, LO offset), as the dict the UHD blocks'
        // `command` message takes: `{freq, lo_offset}` (radioflow's uhd rows read it).
        "uhd.tune_request" => {
            let freq = float_arg(name, args, 0)?;
            let lo_offset = match args.len() {
                1 => 0.0,
                2 => float_arg(name, args, 1)?,
                _ => {
                    return Err(ExprError::Unsupported(format!(
                        "{name} takes the target frequency and the LO offset (radioflow \
                         builds no tune request with RF or DSP policies)"
                    )));
                }
            };
            Ok(Value::Pmt(Pmt::dict_from([
                (Pmt::symbol("freq"), Pmt::Double(freq)),
                (Pmt::symbol("lo_offset"), Pmt::Double(lo_offset)),
            ])))
        }
        _ if firdes_params(name).is_some() => firdes(name, args, budget),
        _ if optfir_params(name).is_some() => optfir(name, args, budget),
        _ => Err(ExprError::Unsupported(format!(
            "unsupported function '{}'",
            cut(name)
        ))),
    }
}

/// GNU Radio's number for a constant (`int(fec.CC_TERMINATED)`).
fn constant_number(word: &str) -> Result<i64> {
    constants::number(word)
        .ok_or_else(|| ExprError::Unsupported(format!("the constant {} has no number", cut(word))))
}

/// The positional arguments of a call with keywords, for the functions that take them.
fn keywords<'a>(
    name: &str,
    args: &[&'a Value],
    kwargs: &[(&str, &'a Value)],
) -> Result<Vec<Cow<'a, Value>>> {
    let base = name.strip_prefix("filter.").unwrap_or(name);
    let (required, params): (usize, &[&str]) = match base {
        _ if firdes_params(base).is_some() => firdes_params(base).unwrap_or_default(),
        _ if optfir_params(base).is_some() => optfir_params(base).unwrap_or_default(),
        "round" => (1, &["number", "ndigits"]),
        "complex" => (0, &["real", "imag"]),
        _ => {
            return Err(ExprError::Unsupported(format!(
                "{}: keyword arguments ({}=...) are not supported for this function",
                cut(name),
                cut(kwargs[0].0)
            )))
        }
    };
    // GNU Radio's defaults (firdes' pybind11 signatures).
    let default = |p: &str| match p {
        "window" => Some(Value::Constant("hamming")),
        "param" => Some(Value::Float(6.76)),
        "nextra_taps" => Some(Value::Int(2)),
        "filter_type" => Some(Value::Str("bandpass".into())),
        "grid_density" => Some(Value::Int(16)),
        "ndigits" => Some(Value::None),
        "imag" => Some(Value::Int(0)),
        _ => None,
    };
    bind(name, params, required, args, kwargs, default)
}

/// `cmath.f(x)`: complex results for numbers of any kind.
fn cmath(name: &str, f: &str, args: &[&Value]) -> Result<Value> {
    let [x] = args else {
        return Err(ExprError::Unsupported(format!(
            "{} takes one argument",
            cut(name)
        )));
    };
    let c = match x.num() {
        Some(Num::Complex(c)) => c,
        Some(n) => Complex64::new(n.real().unwrap_or_default(), 0.0),
        None => {
            return Err(ExprError::Unsupported(format!(
                "{}: must be a number, not {}",
                cut(name),
                x.type_name()
            )))
        }
    };
    let r = match f {
        "exp" => c.exp(),
        "sqrt" => c.sqrt(),
        "log" => c.ln(),
        "log10" => c.log10(),
        "sin" => c.sin(),
        "cos" => c.cos(),
        "tan" => c.tan(),
        "sinh" => c.sinh(),
        "cosh" => c.cosh(),
        "tanh" => c.tanh(),
        "phase" => return Ok(Value::Float(c.arg())),
        "polar" => {
            return Ok(Value::List(vec![
                Value::Float(c.norm()),
                Value::Float(c.arg()),
            ]))
        }
        "rect" => {
            let (r, phi) = (float_arg(name, args, 0)?, float_arg(name, args, 1)?);
            Complex64::from_polar(r, phi)
        }
        _ => {
            return Err(ExprError::Unsupported(format!(
                "unsupported function '{}'",
                cut(name)
            )))
        }
    };
    if !(r.re.is_finite() && r.im.is_finite()) && c.re.is_finite() && c.im.is_finite() {
        return Err(ExprError::Overflow(format!(
            "{}: math range error",
            cut(name)
        )));
    }
    Ok(Value::Complex(r))
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

/// The firdes designs evaluated here: how many arguments they require and their names
/// (GNU Radio's pybind11 signatures), the window the `window` argument's place.
fn firdes_params(name: &str) -> Option<(usize, &'static [&'static str])> {
    const LOW_HIGH: &[&str] = &[
        "gain",
        "sampling_freq",
        "cutoff_freq",
        "transition_width",
        "window",
        "param",
    ];
    const LOW_HIGH_2: &[&str] = &[
        "gain",
        "sampling_freq",
        "cutoff_freq",
        "transition_width",
        "attenuation_dB",
        "window",
        "param",
    ];
    const BAND: &[&str] = &[
        "gain",
        "sampling_freq",
        "low_cutoff_freq",
        "high_cutoff_freq",
        "transition_width",
        "window",
        "param",
    ];
    const BAND_2: &[&str] = &[
        "gain",
        "sampling_freq",
        "low_cutoff_freq",
        "high_cutoff_freq",
        "transition_width",
        "attenuation_dB",
        "window",
        "param",
    ];
    const RRC: &[&str] = &["gain", "sampling_freq", "symbol_rate", "alpha", "ntaps"];
    const WINDOW: &[&str] = &["type", "ntaps", "param"];
    let base = name.strip_prefix("filter.").unwrap_or(name);
    Some(match base.strip_prefix("firdes.")? {
        "low_pass" | "high_pass" => (4, LOW_HIGH),
        "low_pass_2" | "high_pass_2" => (5, LOW_HIGH_2),
        "band_pass" | "band_reject" => (5, BAND),
        "band_pass_2" | "band_reject_2" => (6, BAND_2),
        "root_raised_cosine" => (5, RRC),
        "window" => (3, WINDOW),
        _ => return None,
    })
}

/// `optfir`'s real designs and `pm_remez`, as [`firdes_params`].
fn optfir_params(name: &str) -> Option<(usize, &'static [&'static str])> {
    const LOW_HIGH: &[&str] = &[
        "gain",
        "Fs",
        "freq1",
        "freq2",
        "passband_ripple_db",
        "stopband_atten_db",
        "nextra_taps",
    ];
    const BAND_PASS: &[&str] = &[
        "gain",
        "Fs",
        "freq_sb1",
        "freq_pb1",
        "freq_pb2",
        "freq_sb2",
        "passband_ripple_db",
        "stopband_atten_db",
        "nextra_taps",
    ];
    const BAND_REJECT: &[&str] = &[
        "gain",
        "Fs",
        "freq_pb1",
        "freq_sb1",
        "freq_sb2",
        "freq_pb2",
        "passband_ripple_db",
        "stopband_atten_db",
        "nextra_taps",
    ];
    const REMEZ: &[&str] = &[
        "order",
        "bands",
        "ampl",
        "error",
        "filter_type",
        "grid_density",
    ];
    let base = name.strip_prefix("filter.").unwrap_or(name);
    Some(match base {
        "optfir.low_pass" | "optfir.high_pass" => (6, LOW_HIGH),
        "optfir.band_pass" => (8, BAND_PASS),
        "optfir.band_reject" => (8, BAND_REJECT),
        "pm_remez" => (4, REMEZ),
        _ => return None,
    })
}

/// The window of a firdes design's `window` argument (Kaiser's beta from the argument at
/// `beta_at`).
fn window_arg(
    name: &str,
    args: &[&Value],
    at: usize,
    beta_at: usize,
) -> Result<radioflow_dsp::firdes::Window> {
    use radioflow_dsp::firdes::Window;
    let beta = if args.len() > beta_at {
        float_arg(name, args, beta_at)?
    } else {
        6.76
    };
    Ok(match args.get(at) {
        None | Some(Value::Constant("hamming")) => Window::Hamming,
        Some(Value::Constant("hann")) => Window::Hann,
        Some(Value::Constant("blackman")) => Window::Blackman,
        Some(Value::Constant("rectangular")) => Window::Rectangular,
        Some(Value::Constant("kaiser")) => Window::Kaiser { beta },
        Some(Value::Constant("blackman_harris")) => Window::BlackmanHarris,
        Some(other) => {
            return Err(ExprError::Unsupported(format!(
                "{name}: unsupported window {}",
                cut_display(*other)
            )))
        }
    })
}

/// The firdes designs of [`firdes_params`], from radioflow's own (`radioflow_dsp::firdes`,
/// checked against GNU Radio's taps).
fn firdes(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    use radioflow_dsp::firdes;
    let num = |i| float_arg(name, args, i);
    let failed = |e: radioflow_dsp::ParamError| ExprError::InvalidValue(format!("{name}: {e}"));
    let (required, _) = firdes_params(name).unwrap_or_default();
    if args.len() < required {
        return Err(ExprError::Unsupported(format!(
            "{name} takes at least {required} arguments ({} given)",
            args.len()
        )));
    }
    let design = name.rsplit('.').next().unwrap_or(name);
    // The taps are counted before they are designed: a narrow transition asks for millions.
    let taps = if design == "window" {
        // `firdes.window(type, ntaps, param)`: the window itself (param is Kaiser's beta).
        let window = window_arg(name, args, 0, 2)?;
        if let firdes::Window::Kaiser { beta } = window
            && !(beta.is_finite() && beta >= 0.0)
        {
            return Err(ExprError::InvalidValue(format!(
                "{name}: Kaiser's beta {beta} must be finite and at least 0"
            )));
        }
        let ntaps = num(1)?;
        // GNU Radio's window of one tap divides 0 by 0 (NaN).
        if !(2.0..=MAX_ITEMS as f64).contains(&ntaps) {
            return Err(ExprError::InvalidValue(format!(
                "{name}: ntaps must be between 2 and {MAX_ITEMS}"
            )));
        }
        budget.make(ntaps as usize, 1)?;
        // GNU Radio's window is float32.
        Ok(window
            .coefficients(ntaps as usize)
            .into_iter()
            .map(|x| x as f32)
            .collect())
    } else if design == "root_raised_cosine" {
        let ntaps = num(4)?;
        if !(1.0..=MAX_ITEMS as f64).contains(&ntaps) {
            return Err(ExprError::InvalidValue(format!(
                "{name}: ntaps must be between 1 and {MAX_ITEMS}"
            )));
        }
        budget.make(ntaps as usize + 1, 1)?;
        firdes::root_raised_cosine(num(0)?, num(1)?, num(2)?, num(3)?, ntaps as usize)
    } else {
        let band = design.starts_with("band_");
        let atten = design.ends_with("_2");
        // Gain, rate, one or two frequencies, the transition, the attenuation (`*_2`).
        let tw_at = if band { 4 } else { 3 };
        let window_at = tw_at + 1 + usize::from(atten);
        let (g, fs, f1, tw) = (num(0)?, num(1)?, num(2)?, num(tw_at)?);
        let window = window_arg(name, args, window_at, window_at + 1)?;
        let n = if atten {
            let db = num(tw_at + 1)?;
            let n = db * fs / (22.0 * tw);
            if !(n.is_finite() && n >= 0.0 && n <= firdes::MAX_TAPS as f64) {
                return Err(ExprError::InvalidValue(format!(
                    "{name}: the design needs {n} taps, more than {}",
                    firdes::MAX_TAPS
                )));
            }
            n as usize | 1
        } else {
            firdes::windowed_len(fs, tw, window).map_err(failed)?
        };
        budget.make(n, 1)?;
        let db = || num(tw_at + 1);
        match design {
            "low_pass" => firdes::low_pass(g, fs, f1, tw, window),
            "high_pass" => firdes::high_pass(g, fs, f1, tw, window),
            "low_pass_2" => firdes::low_pass_2(g, fs, f1, tw, db()?, window),
            "high_pass_2" => firdes::high_pass_2(g, fs, f1, tw, db()?, window),
            "band_pass" => firdes::band_pass(g, fs, f1, num(3)?, tw, window),
            "band_reject" => firdes::band_reject(g, fs, f1, num(3)?, tw, window),
            "band_pass_2" => firdes::band_pass_2(g, fs, f1, num(3)?, tw, db()?, window),
            _ => firdes::band_reject_2(g, fs, f1, num(3)?, tw, db()?, window),
        }
    }
    .map_err(failed)?;
    Ok(Value::List(
        taps.into_iter().map(|t| Value::Float(t.into())).collect(),
    ))
}

/// GNU Radio's `pmt.to_pmt` of a Python value: an int, float, complex, bool, string (a
/// symbol), `None` (nil), a PMT as it is, a dict (a PMT dict of the converted keys and values,
/// each added in front as `dict_add` does). Lists and tuples are refused: GNU Radio makes a
/// vector of a list and a tuple of a tuple, which this evaluator's values do not tell apart.
pub(super) fn python_to_pmt(v: &Value) -> Result<Pmt> {
    Ok(match v {
        Value::Int(i) => Pmt::Int(*i),
        Value::Float(x) => Pmt::Double(*x),
        Value::Complex(c) => Pmt::Complex(*c),
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Str(s) => Pmt::symbol(s.as_str()),
        Value::None => Pmt::Null,
        Value::Pmt(p) => p.clone(),
        Value::Dict(_) => {
            return Err(ExprError::Unsupported(
                "pmt.to_pmt of a dict holding a list or tuple (GNU Radio makes a vector of one \
                 and a tuple of the other, which are not told apart here)"
                    .into(),
            ));
        }
        other => {
            return Err(ExprError::Unsupported(format!(
                "pmt.to_pmt of a {} (ints, floats, complex numbers, bools, strings, None, dicts \
                 and PMTs are converted; a list or tuple is not: GNU Radio makes a vector of one \
                 and a tuple of the other, which are not told apart here)",
                other.type_name()
            )));
        }
    })
}

/// `pmt.init_f32vector(k, items)` and the other uniform vectors: the first `k` of `items`
/// (a list or array of numbers), converted as GNU Radio's bindings convert them (floats to
/// integers truncated, complex numbers kept only by the complex vectors).
fn init_vector(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let kind = &name["pmt.init_".len()..name.len() - "vector".len()];
    let (k, items) = match args {
        [k, Value::List(items) | Value::Array(items)] => (int_arg(name, k)?, items),
        _ => {
            return Err(ExprError::Unsupported(format!(
                "{name} takes a length and a list of numbers"
            )))
        }
    };
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| k <= items.len())
        .ok_or_else(|| {
            ExprError::InvalidValue(format!(
                "{name}: length {k} is not between 0 and the {} items given",
                items.len()
            ))
        })?;
    budget.make(k, 1)?;
    let items = &items[..k];
    let complex = |v: &Value| match v {
        Value::Complex(c) => Ok(*c),
        v => v.as_f64().map(|x| Complex64::new(x, 0.0)).ok_or_else(|| {
            ExprError::Unsupported(format!("{name}: {} is not a number", v.type_name()))
        }),
    };
    let real = |v: &Value| {
        v.as_f64().ok_or_else(|| {
            ExprError::Unsupported(format!("{name}: {} is not a real number", v.type_name()))
        })
    };
    let reals = || items.iter().map(real).collect::<Result<Vec<f64>>>();
    let pmt = match kind {
        "u8" => Pmt::U8Vector(reals()?.iter().map(|&x| x as u8).collect()),
        "s8" => Pmt::S8Vector(reals()?.iter().map(|&x| x as i8).collect()),
        "u16" => Pmt::U16Vector(reals()?.iter().map(|&x| x as u16).collect()),
        "s16" => Pmt::S16Vector(reals()?.iter().map(|&x| x as i16).collect()),
        "u32" => Pmt::U32Vector(reals()?.iter().map(|&x| x as u32).collect()),
        "s32" => Pmt::S32Vector(reals()?.iter().map(|&x| x as i32).collect()),
        "u64" => Pmt::U64Vector(reals()?.iter().map(|&x| x as u64).collect()),
        "s64" => Pmt::S64Vector(reals()?.iter().map(|&x| x as i64).collect()),
        "f32" => Pmt::F32Vector(reals()?.iter().map(|&x| x as f32).collect()),
        "f64" => Pmt::F64Vector(reals()?.into()),
        "c32" => Pmt::C32Vector(
            items
                .iter()
                .map(|v| {
                    complex(v).map(|c| radioflow_runtime::Complex32::new(c.re as f32, c.im as f32))
                })
                .collect::<Result<Vec<_>>>()?
                .into(),
        ),
        "c64" => Pmt::C64Vector(
            items
                .iter()
                .map(complex)
                .collect::<Result<Vec<_>>>()?
                .into(),
        ),
        _ => {
            return Err(ExprError::Unsupported(format!(
                "unsupported function '{}'",
                cut(name)
            )))
        }
    };
    Ok(Value::Pmt(pmt))
}

/// `optfir.low_pass` and the other real `optfir` designs, and `pm_remez`
/// (`radioflow_dsp::optfir`, checked against GNU Radio's taps).
fn optfir(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    use radioflow_dsp::optfir;
    let num = |i| float_arg(name, args, i);
    let failed = |e: radioflow_dsp::ParamError| ExprError::InvalidValue(format!("{name}: {e}"));
    let (required, params) = optfir_params(name).unwrap_or_default();
    if args.len() < required || args.len() > params.len() {
        return Err(ExprError::Unsupported(format!(
            "{name} takes {required} to {} arguments ({} given)",
            params.len(),
            args.len()
        )));
    }
    let count = |i: usize, what: &str, default: i64| -> Result<usize> {
        let v = match args.get(i) {
            Some(v) => int_arg(name, v)?,
            None => default,
        };
        usize::try_from(v)
            .ok()
            .filter(|&n| n <= optfir::MAX_REMEZ_TAPS)
            .ok_or_else(|| {
                ExprError::InvalidValue(format!(
                    "{name}: {what} {v} must be between 0 and {}",
                    optfir::MAX_REMEZ_TAPS
                ))
            })
    };
    let base = name.strip_prefix("filter.").unwrap_or(name);
    let taps = match base {
        "pm_remez" => {
            let list = |i: usize| -> Result<Vec<f64>> {
                match args[i] {
                    Value::List(items) => items
                        .iter()
                        .map(|v| real(name, v))
                        .collect::<Result<Vec<f64>>>(),
                    other => Err(ExprError::Unsupported(format!(
                        "{name}: {} must be a list, not {}",
                        params[i],
                        other.type_name()
                    ))),
                }
            };
            let kind = match args.get(4) {
                None => optfir::RemezType::Bandpass,
                Some(Value::Str(s)) => optfir::RemezType::from_name(s).ok_or_else(|| {
                    ExprError::InvalidValue(format!(
                        "{name}: filter_type '{}' is not bandpass, differentiator or hilbert",
                        cut(s)
                    ))
                })?,
                Some(other) => {
                    return Err(ExprError::Unsupported(format!(
                        "{name}: filter_type must be a string, not {}",
                        other.type_name()
                    )))
                }
            };
            let order = count(0, "order", 0)?;
            budget.make(order + 1, 1)?;
            optfir::pm_remez(
                order,
                &list(1)?,
                &list(2)?,
                &list(3)?,
                kind,
                count(5, "grid_density", 16)?,
            )
        }
        "optfir.low_pass" | "optfir.high_pass" => {
            let extra = count(6, "nextra_taps", 2)?;
            let (fs, f1, f2, ripple, atten) = (num(1)?, num(2)?, num(3)?, num(4)?, num(5)?);
            if base == "optfir.low_pass" {
                optfir::low_pass(num(0)?, fs, f1, f2, ripple, atten, extra)
            } else {
                optfir::high_pass(fs, f1, f2, ripple, atten, extra)
            }
        }
        _ => {
            let extra = count(8, "nextra_taps", 2)?;
            let edges = [num(2)?, num(3)?, num(4)?, num(5)?];
            let (g, fs, ripple, atten) = (num(0)?, num(1)?, num(6)?, num(7)?);
            if base == "optfir.band_pass" {
                optfir::band_pass(g, fs, edges, ripple, atten, extra)
            } else {
                optfir::band_reject(g, fs, edges, ripple, atten, extra)
            }
        }
    }
    .map_err(failed)?;
    budget.make(taps.len(), 1)?;
    Ok(Value::List(taps.into_iter().map(Value::Float).collect()))
}
