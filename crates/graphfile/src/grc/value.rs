//! The values GRC expressions evaluate to ([`Value`]) and the budget of items that the
//! expressions of one file share ([`Budget`]).

use super::expr_error::{ExprError, MAX_DEPTH, MAX_ITEMS, MAX_STEPS, MAX_TOTAL_ITEMS};
use super::python::{self, Num};
use super::token::Token;
use num_complex::Complex64;
use radioflow_library::digital::Constellation;
use radioflow_runtime::echo::cut;
use radioflow_runtime::Pmt;
use std::borrow::Cow;
use std::fmt::{self, Write};
use std::sync::Arc;

/// A value of an evaluated expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer (Python `int`, within i64).
    Int(i64),
    /// A float.
    Float(f64),
    /// A complex number.
    Complex(Complex64),
    /// `True` or `False`.
    Bool(bool),
    /// A string.
    Str(String),
    /// A list or tuple (`range(...)` and `map(...)` too, made whole).
    List(Vec<Value>),
    /// A one-dimensional numpy array of numbers (`numpy.arange`, `numpy.ones`): arithmetic on
    /// it is element by element.
    Array(Vec<Value>),
    /// A PMT (from `pmt.*`, and a dict literal whose keys and values are all PMT values).
    Pmt(Pmt),
    /// A dict literal with a value no PMT holds as Python does (a list, an object), kept as
    /// Python values: indexed by key (`{1: [0, 1], 3: [1, 1]}[3]`), made a PMT dict where a
    /// block takes it.
    Dict(Vec<(Value, Value)>),
    /// A named constant of a GNU Radio module (`analog.GR_COS_WAVE`, `window.WIN_HAMMING`),
    /// as the word a radioflow block takes for it (`cosine`, `hamming`).
    Constant(&'static str),
    /// A `lambda`, applied where it is called (`map(lambda x: 2 * x, v)`).
    Lambda(Arc<Lambda>),
    /// A supported function named without being called (`map(int, v)`, `(int)(x)`).
    Function(String),
    /// A GNU Radio constellation object (`digital.constellation_qpsk()`), which a block
    /// parameter takes in its text form.
    Constellation(Arc<Constellation>),
    /// A GNU Radio modulator (`digital.generic_mod(...)`), which `modulate_vector_bc` runs.
    Modulator(Arc<super::generic_mod::GenericMod>),
    /// `None`.
    None,
}

type Result<T> = std::result::Result<T, ExprError>;

/// Python's `repr`: `1.0`, `(1+2j)`, `'text'`, `[1, 'a']`, `True`, `None`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => f.write_str(&python::float_repr(*x)),
            Value::Complex(c) => python::write_complex(f, *c),
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Str(s) => python::write_str_repr(f, s),
            Value::List(v) => fmt::Display::fmt(&ListRepr(v), f),
            Value::Array(v) => {
                f.write_str("array(")?;
                fmt::Display::fmt(&ListRepr(v), f)?;
                f.write_char(')')
            }
            Value::Pmt(p) => write!(f, "{p}"),
            Value::Dict(entries) => {
                f.write_char('{')?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_char('}')
            }
            Value::Constant(c) => f.write_str(c),
            Value::Lambda(_) => f.write_str("<lambda>"),
            Value::Function(name) => write!(f, "<function {}>", cut(name)),
            Value::Constellation(c) => write!(f, "<constellation {c}>"),
            Value::Modulator(m) => write!(f, "<{m}>"),
            Value::None => f.write_str("None"),
        }
    }
}

impl Value {
    /// The value as a float (ints and bools convert, like Python's arithmetic).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(i) => Some(i as f64),
            Value::Float(x) => Some(x),
            Value::Bool(b) => Some(f64::from(u8::from(b))),
            _ => None,
        }
    }

    /// The value as a PMT, the form block parameters take.
    pub fn to_pmt(&self) -> Pmt {
        match self {
            Value::Int(i) => Pmt::Int(*i),
            Value::Float(x) => Pmt::Double(*x),
            Value::Complex(c) => Pmt::Complex(*c),
            Value::Bool(b) => Pmt::Bool(*b),
            Value::Str(s) => Pmt::symbol(s.as_str()),
            Value::List(v) | Value::Array(v) => {
                Pmt::Vector(v.iter().map(Value::to_pmt).collect::<Vec<_>>().into())
            }
            Value::Pmt(p) => p.clone(),
            Value::Dict(entries) => {
                Pmt::dict_from(entries.iter().map(|(k, v)| (k.to_pmt(), v.to_pmt())))
            }
            Value::Constant(c) => Pmt::symbol(*c),
            Value::Lambda(_) | Value::Function(_) | Value::Modulator(_) => {
                Pmt::symbol(self.to_string())
            }
            Value::Constellation(c) => Pmt::symbol(c.to_string()),
            Value::None => Pmt::Null,
        }
    }

    /// A number, with Python's `bool` as an `int`.
    pub(super) fn num(&self) -> Option<Num> {
        Some(match *self {
            Value::Int(i) => Num::Int(i),
            Value::Bool(b) => Num::Int(i64::from(b)),
            Value::Float(x) => Num::Float(x),
            Value::Complex(c) => Num::Complex(c),
            _ => return None,
        })
    }

    /// An integer usable as a count or an index (Python's `__index__`: int or bool).
    pub(super) fn index(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            Value::Bool(b) => Some(i64::from(b)),
            _ => None,
        }
    }

    /// Python's type name, for errors.
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(_) => "complex",
            Value::Bool(_) => "bool",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Array(_) => "numpy.ndarray",
            Value::Pmt(_) => "pmt",
            Value::Dict(_) => "dict",
            Value::Constant(_) => "constant",
            Value::Lambda(_) | Value::Function(_) => "function",
            Value::Constellation(_) => "constellation",
            Value::Modulator(_) => "generic_mod",
            Value::None => "NoneType",
        }
    }

    /// Items (list elements at every depth plus string bytes) and list nesting depth.
    pub(super) fn measure(&self) -> (usize, usize) {
        match self {
            Value::List(items) | Value::Array(items) => {
                let (mut n, mut depth) = (items.len(), 0);
                for x in items {
                    let (a, d) = x.measure();
                    n = n.saturating_add(a);
                    depth = depth.max(d);
                }
                (n, depth + 1)
            }
            Value::Str(s) => (s.len(), 0),
            Value::Dict(entries) => {
                let (mut n, mut depth) = (2 * entries.len(), 0);
                for x in entries.iter().flat_map(|(k, v)| [k, v]) {
                    let (a, d) = x.measure();
                    n = n.saturating_add(a);
                    depth = depth.max(d);
                }
                (n, depth + 1)
            }
            Value::Lambda(f) => {
                let (mut n, mut depth) = (f.body.len(), 0);
                for (_, x) in &f.captured {
                    let (a, d) = x.measure();
                    n = n.saturating_add(a);
                    depth = depth.max(d);
                }
                (n, depth + 1)
            }
            Value::Function(name) => (name.len(), 0),
            _ => (0, 0),
        }
    }
}

/// A list's items as Python writes them: `[1, 'a']`.
struct ListRepr<'a>(&'a [Value]);

impl fmt::Display for ListRepr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('[')?;
        for (i, x) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{x}")?;
        }
        f.write_char(']')
    }
}

/// The value of a `lambda`: its parameters, its body (tokens, with the bracket each one
/// opening a group closes) and the values of the names of the enclosing lambdas and
/// comprehensions it was made in. Applied, the body is evaluated with the parameters bound.
#[derive(Debug)]
pub struct Lambda {
    pub(super) params: Vec<String>,
    pub(super) body: Vec<Token>,
    pub(super) close: Vec<usize>,
    pub(super) captured: Vec<(String, Value)>,
}

/// Python compares functions by identity.
impl PartialEq for Lambda {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl From<Num> for Value {
    fn from(n: Num) -> Self {
        match n {
            Num::Int(i) => Value::Int(i),
            Num::Float(x) => Value::Float(x),
            Num::Complex(c) => Value::Complex(c),
        }
    }
}

/// What the expressions of one file have made so far, against [`MAX_TOTAL_ITEMS`].
#[derive(Debug, Default)]
pub(super) struct Budget {
    made: usize,
    /// Tokens evaluated again: lambda bodies applied, comprehension bodies repeated.
    steps: usize,
}

impl Budget {
    /// Counts a new list or string of `items` (its depth `depth`), refusing one over a limit.
    pub(super) fn make(&mut self, items: usize, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(ExprError::TooDeep);
        }
        if items > MAX_ITEMS {
            return Err(ExprError::TooLarge);
        }
        self.made = self.made.saturating_add(items);
        if self.made > MAX_TOTAL_ITEMS {
            return Err(ExprError::TooMuch);
        }
        Ok(())
    }

    /// Counts `tokens` evaluated once more (a lambda applied, a comprehension's next item),
    /// refusing more than [`MAX_STEPS`] in all.
    pub(super) fn step(&mut self, tokens: usize) -> Result<()> {
        self.steps = self.steps.saturating_add(tokens.max(1));
        if self.steps > MAX_STEPS {
            return Err(ExprError::TooManySteps);
        }
        Ok(())
    }

    /// `v` owned: a variable's value is copied, and the copy counted.
    pub(super) fn own(&mut self, v: Cow<'_, Value>) -> Result<Value> {
        match v {
            Cow::Owned(v) => Ok(v),
            Cow::Borrowed(v) => {
                let (items, depth) = v.measure();
                self.make(items, depth)?;
                Ok(v.clone())
            }
        }
    }
}

/// A value evaluated, or a variable's value borrowed.
pub(super) type Val<'s> = Cow<'s, Value>;
