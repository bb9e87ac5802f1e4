//! The numpy GRC parameters use: one-dimensional arrays of numbers ([`Value::Array`]) made
//! by `arange`, `linspace`, `ones`, `zeros`, `array`; arithmetic on them element by element
//! (an array with a number, a list or an array of the same length); numpy's element-wise
//! functions (`sin`, `exp`, `abs`, `square`, `conj`, `angle`...) on numbers and arrays; and
//! `sum`, `mean`, `dot`, `kron`, `concatenate`. Elements follow Python's arithmetic
//! (`python.rs`); where numpy would give infinity or NaN with a warning (a division by zero)
//! this is an error, and integers stay within 64 bits as elsewhere. Every array is counted
//! by the budget before it is made.

use super::args::bind;
use super::expr_error::{ExprError, MAX_ITEMS};
use super::python::{self, Num, Op};
use super::value::{Budget, Value};
use num_complex::Complex64;
use radioflow_runtime::echo::{cut, cut_display};

type Result<T> = std::result::Result<T, ExprError>;

/// The numbers of an array, a list or a number (numpy's `asarray`), for function `f`.
fn numbers(f: &str, v: &Value) -> Result<Vec<Num>> {
    let one = |x: &Value| {
        x.num().ok_or_else(|| {
            ExprError::Unsupported(format!(
                "numpy.{f}: an array holds numbers, not {}",
                x.type_name()
            ))
        })
    };
    let mut x = match v {
        Value::Array(items) | Value::List(items) => {
            items.iter().map(one).collect::<Result<Vec<_>>>()?
        }
        x => vec![one(x)?],
    };
    // One type for every element, as numpy's: complex, else float, else int.
    if x.iter().any(|n| matches!(n, Num::Complex(_))) {
        x = x.into_iter().map(|n| Num::Complex(complex(n))).collect();
    } else if x.iter().any(|n| matches!(n, Num::Float(_))) {
        x = x
            .into_iter()
            .map(|n| Num::Float(n.real().unwrap_or_default()))
            .collect();
    }
    Ok(x)
}

fn is_array(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::List(_))
}

/// An array of `n` numbers made by `item`, counted first.
fn make(n: usize, budget: &mut Budget, item: impl FnMut(usize) -> Result<Num>) -> Result<Value> {
    budget.make(n, 1)?;
    let items = (0..n).map(item).map(|r| r.map(Value::from));
    Ok(Value::Array(items.collect::<Result<Vec<_>>>()?))
}

/// `a op b` where one of them is an array: element by element, a number (or an array of
/// one) applying to every element.
pub(super) fn elementwise(op: Op, a: &Value, b: &Value, budget: &mut Budget) -> Result<Value> {
    let (x, y) = (
        numbers("array arithmetic", a)?,
        numbers("array arithmetic", b)?,
    );
    let n = match (x.len(), y.len()) {
        (n, m) if n == m => n,
        (1, m) => m,
        (n, 1) => n,
        (n, m) => {
            return Err(ExprError::InvalidValue(format!(
                "operands could not be broadcast together with shapes ({n},) ({m},)"
            )))
        }
    };
    let at = |v: &[Num], i: usize| if v.len() == 1 { v[0] } else { v[i] };
    make(n, budget, |i| python::binary(op, at(&x, i), at(&y, i)))
}

/// `-a` or `+a` of an array.
pub(super) fn negate(a: &Value, minus: bool, budget: &mut Budget) -> Result<Value> {
    let x = numbers("negative", a)?;
    make(x.len(), budget, |i| {
        if minus {
            python::negate(x[i])
        } else {
            Ok(x[i])
        }
    })
}

/// numpy's element-wise function `name` of one number (an int where numpy keeps ints).
fn element(name: &str, x: Num) -> Option<Result<Num>> {
    let real = |g: fn(f64) -> f64| {
        Some(Ok(match x {
            Num::Complex(c) => return complex_element(name, c).map(Ok),
            Num::Int(i) => Num::Float(g(i as f64)),
            Num::Float(f) => Num::Float(g(f)),
        }))
    };
    match name {
        "sin" => real(f64::sin),
        "cos" => real(f64::cos),
        "tan" => real(f64::tan),
        "arcsin" => real(f64::asin),
        "arccos" => real(f64::acos),
        "arctan" => real(f64::atan),
        "sinh" => real(f64::sinh),
        "cosh" => real(f64::cosh),
        "tanh" => real(f64::tanh),
        "exp" => real(f64::exp),
        "log" => real(f64::ln),
        "log10" => real(f64::log10),
        "log2" => real(f64::log2),
        "sqrt" => real(f64::sqrt),
        "floor" | "ceil" | "rint" | "round" | "trunc" if matches!(x, Num::Complex(_)) => Some(Err(
            ExprError::Unsupported(format!("numpy.{name} of a complex number")),
        )),
        "floor" => real(f64::floor),
        "ceil" => real(f64::ceil),
        "trunc" => real(f64::trunc),
        "rint" | "round" => real(f64::round_ties_even),
        "abs" | "absolute" => Some(match x {
            Num::Complex(c) => Ok(Num::Float(c.norm())),
            n => python::abs(n),
        }),
        "square" => Some(python::binary(Op::Mul, x, x)),
        "conj" | "conjugate" => Some(Ok(match x {
            Num::Complex(c) => Num::Complex(c.conj()),
            n => n,
        })),
        "real" => Some(Ok(match x {
            Num::Complex(c) => Num::Float(c.re),
            n => n,
        })),
        "imag" => Some(Ok(match x {
            Num::Complex(c) => Num::Float(c.im),
            Num::Int(_) => Num::Int(0),
            Num::Float(_) => Num::Float(0.0),
        })),
        "angle" => Some(Ok(Num::Float(match x {
            Num::Complex(c) => c.arg(),
            Num::Int(i) => 0f64.atan2(i as f64),
            Num::Float(f) => 0f64.atan2(f),
        }))),
        _ => None,
    }
}

fn complex_element(name: &str, c: Complex64) -> Option<Num> {
    Some(Num::Complex(match name {
        "sin" => c.sin(),
        "cos" => c.cos(),
        "tan" => c.tan(),
        "arcsin" => c.asin(),
        "arccos" => c.acos(),
        "arctan" => c.atan(),
        "sinh" => c.sinh(),
        "cosh" => c.cosh(),
        "tanh" => c.tanh(),
        "exp" => c.exp(),
        "log" => c.ln(),
        "log10" => c.log10(),
        "log2" => c.log2(),
        "sqrt" => c.sqrt(),
        _ => return None,
    }))
}

/// Whether `name` (without `numpy.`) is a numpy function this evaluator has.
pub(super) fn known(name: &str) -> bool {
    matches!(
        name,
        "arange"
            | "linspace"
            | "ones"
            | "zeros"
            | "array"
            | "asarray"
            | "sum"
            | "mean"
            | "concatenate"
            | "dot"
            | "kron"
    ) || element(name, Num::Int(0)).is_some()
}

/// numpy's function `name` (without `numpy.`), or None where numpy has none this evaluator
/// knows.
pub(super) fn call(
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Option<Result<Value>> {
    let known = matches!(
        name,
        "arange"
            | "linspace"
            | "ones"
            | "zeros"
            | "array"
            | "asarray"
            | "sum"
            | "mean"
            | "concatenate"
            | "dot"
            | "kron"
    ) || element(name, Num::Int(0)).is_some();
    if !known {
        return None;
    }
    let f = format!("numpy.{name}");
    let params: &[&str] = match name {
        "arange" => &["start", "stop", "step"],
        "linspace" => &["start", "stop", "num", "endpoint"],
        "ones" | "zeros" => &["shape"],
        "array" | "asarray" => &["object"],
        "sum" | "mean" | "concatenate" => &["a"],
        "dot" | "kron" => &["a", "b"],
        _ => &["x"],
    };
    let default = |p: &str| match p {
        "num" => Some(Value::Int(50)),
        "endpoint" => Some(Value::Bool(true)),
        _ => None,
    };
    let required = match name {
        "linspace" | "dot" | "kron" => 2,
        _ => 1,
    };
    let args = match bind(&f, params, required, args, kwargs, default) {
        Ok(a) => a,
        Err(e) => return Some(Err(e)),
    };
    let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
    let r = match (name, args.as_slice()) {
        ("arange", _) => arange(&args, budget),
        ("linspace", _) => linspace(&args, budget),
        ("ones" | "zeros", [n]) => {
            let Some(n) = n.index() else {
                return Some(Err(ExprError::Unsupported(format!(
                    "{f}: the shape is one integer here, not {}",
                    cut_display(*n)
                ))));
            };
            let fill = Num::Float(if name == "ones" { 1.0 } else { 0.0 });
            count(&f, n as f64).and_then(|n| make(n, budget, |_| Ok(fill)))
        }
        ("array" | "asarray", [v]) => numbers(name, v).and_then(|x| {
            let mut x = x;
            // One type for every element, as numpy's: complex, else float, else int.
            if x.iter().any(|n| matches!(n, Num::Complex(_))) {
                x = x.into_iter().map(|n| Num::Complex(complex(n))).collect();
            } else if x.iter().any(|n| matches!(n, Num::Float(_))) {
                x = x
                    .into_iter()
                    .map(|n| Num::Float(n.real().unwrap_or_default()))
                    .collect();
            }
            make(x.len(), budget, |i| Ok(x[i]))
        }),
        ("sum" | "mean", [v]) => numbers(name, v).and_then(|x| {
            let mut total = Num::Int(0);
            for n in &x {
                total = python::binary(Op::Add, total, *n)?;
            }
            if name == "sum" {
                return Ok(total.into());
            }
            if x.is_empty() {
                return Ok(Value::Float(f64::NAN));
            }
            python::binary(Op::Div, total, Num::Int(x.len() as i64)).map(Value::from)
        }),
        ("dot", [a, b]) => numbers(name, a).and_then(|x| {
            let y = numbers(name, b)?;
            if x.len() != y.len() {
                return Err(ExprError::InvalidValue(format!(
                    "{f}: shapes ({},) and ({},) not aligned",
                    x.len(),
                    y.len()
                )));
            }
            let mut total = Num::Int(0);
            for (p, q) in x.iter().zip(&y) {
                total = python::binary(Op::Add, total, python::binary(Op::Mul, *p, *q)?)?;
            }
            Ok(total.into())
        }),
        ("kron", [a, b]) => numbers(name, a).and_then(|x| {
            let y = numbers(name, b)?;
            let n = x.len().saturating_mul(y.len());
            make(n, budget, |i| {
                python::binary(Op::Mul, x[i / y.len()], y[i % y.len()])
            })
        }),
        ("concatenate", [Value::List(parts)]) => (|| {
            let arrays = parts
                .iter()
                .map(|p| numbers(name, p))
                .collect::<Result<Vec<_>>>()?;
            let all: Vec<Num> = arrays.into_iter().flatten().collect();
            make(all.len(), budget, |i| Ok(all[i]))
        })(),
        (_, [x]) if is_array(x) => numbers(name, x).and_then(|x| {
            make(x.len(), budget, |i| {
                element(name, x[i]).expect("a known function")
            })
        }),
        (_, [x]) => match x.num() {
            Some(n) => element(name, n).expect("a known function").map(Value::from),
            None => Err(ExprError::Unsupported(format!(
                "{f}: must be a number or an array, not {}",
                x.type_name()
            ))),
        },
        _ => Err(ExprError::Unsupported(format!("{f}: wrong arguments"))),
    };
    Some(r)
}

fn complex(n: Num) -> Complex64 {
    match n {
        Num::Complex(c) => c,
        n => Complex64::new(n.real().unwrap_or_default(), 0.0),
    }
}

/// A count of elements, refused past [`MAX_ITEMS`] before anything is made.
fn count(f: &str, n: f64) -> Result<usize> {
    if n.is_nan() {
        return Err(ExprError::InvalidValue(format!("{f}: the length is NaN")));
    }
    if n > MAX_ITEMS as f64 {
        return Err(ExprError::TooLarge);
    }
    Ok(n.max(0.0) as usize)
}

fn real_arg(f: &str, v: &Value) -> Result<Num> {
    match v.num() {
        Some(Num::Complex(_)) | None => Err(ExprError::Unsupported(format!(
            "{f}: must be a real number, not {}",
            v.type_name()
        ))),
        Some(n) => Ok(n),
    }
}

/// `numpy.arange([start,] stop[, step])`: `ceil((stop - start) / step)` elements, ints if
/// every argument is an int, `start + i * (start + step - start)` as numpy computes them.
fn arange(args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let f = "numpy.arange";
    let nums = args
        .iter()
        .map(|v| real_arg(f, v))
        .collect::<Result<Vec<_>>>()?;
    let (start, stop, step) = match nums.as_slice() {
        [stop] => (Num::Int(0), *stop, Num::Int(1)),
        [start, stop] => (*start, *stop, Num::Int(1)),
        [start, stop, step] => (*start, *stop, *step),
        _ => {
            return Err(ExprError::Unsupported(format!(
                "{f} takes a stop, or a start, a stop and a step"
            )))
        }
    };
    if let (Num::Int(a), Num::Int(b), Num::Int(s)) = (start, stop, step) {
        if s == 0 {
            return Err(ExprError::ZeroDivision(format!("{f}: the step is 0")));
        }
        // ceil((b - a) / s) in 128 bits: no overflow.
        let (a, b, s) = (i128::from(a), i128::from(b), i128::from(s));
        let n = python::range_len(a, b, s);
        if n > MAX_ITEMS as i128 {
            return Err(ExprError::TooLarge);
        }
        return make(n as usize, budget, |i| {
            i64::try_from(a + i as i128 * s)
                .map(Num::Int)
                .map_err(|_| ExprError::IntegerTooLarge(format!("{f}: an element")))
        });
    }
    let (a, b, s) = (
        start.real().unwrap_or_default(),
        stop.real().unwrap_or_default(),
        step.real().unwrap_or_default(),
    );
    if s == 0.0 {
        return Err(ExprError::ZeroDivision(format!("{f}: the step is 0")));
    }
    let n = count(f, ((b - a) / s).ceil())?;
    let delta = (a + s) - a;
    make(n, budget, |i| Ok(Num::Float(a + i as f64 * delta)))
}

/// `numpy.linspace(start, stop, num=50, endpoint=True)`, as numpy computes it:
/// `start + i * step`, the last element `stop` itself where it is included.
fn linspace(args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let f = "numpy.linspace";
    let [start, stop, rest @ ..] = args else {
        return Err(ExprError::Unsupported(format!(
            "{f} takes a start and a stop"
        )));
    };
    let (a, b) = (
        real_arg(f, start)?.real().unwrap_or_default(),
        real_arg(f, stop)?.real().unwrap_or_default(),
    );
    let num = match rest.first() {
        Some(n) => n.index().ok_or_else(|| {
            ExprError::Unsupported(format!(
                "{f}: num must be an integer, not {}",
                n.type_name()
            ))
        })?,
        None => 50,
    };
    if num < 0 {
        return Err(ExprError::InvalidValue(format!(
            "{f}: number of samples, {num}, must be non-negative"
        )));
    }
    let endpoint = match rest.get(1) {
        Some(Value::Bool(e)) => *e,
        Some(other) => other.index().is_some_and(|i| i != 0),
        None => true,
    };
    let n = count(f, num as f64)?;
    let div = if endpoint { n.saturating_sub(1) } else { n };
    let step = (b - a) / div.max(1) as f64;
    make(n, budget, |i| {
        Ok(Num::Float(if endpoint && n > 1 && i == n - 1 {
            b
        } else if div == 0 {
            a
        } else {
            a + i as f64 * step
        }))
    })
}

/// Why numpy's function `name` is refused, where it is one this evaluator knows of.
pub(super) fn unsupported(name: &str) -> Option<ExprError> {
    matches!(name, "random.randint" | "random.random" | "random.normal" | "random.uniform")
        .then(|| {
            ExprError::Unsupported(format!(
                "numpy.{}: random numbers are not supported in expressions (a flowgraph's values are fixed when it is read)",
                cut(name)
            ))
        })
}
