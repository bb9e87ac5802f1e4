//! The parameters given to a block factory, checked against the block's description.

use super::param::Number;
use super::{DefaultValue, Dtype, DtypeItem, ParamDescription, ParamKind};
use crate::echo::{cut, cut_display};
use crate::{Complex32, Pmt};
use std::collections::HashMap;

/// A parameter that is missing, unknown or has a bad value; the message names the block and
/// the parameter.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{block}: {message}")]
pub struct ParamError {
    /// The block's id.
    pub block: String,
    /// What is wrong, naming the parameter.
    pub message: String,
    /// Whether the problem is a file the block could not open (an `OSError` in Python).
    pub io: bool,
}

impl ParamError {
    /// An error of block `block`.
    pub fn new(block: &str, message: impl Into<String>) -> Self {
        Self {
            block: block.to_owned(),
            message: message.into(),
            io: false,
        }
    }

    /// An error opening a file.
    pub fn io(block: &str, message: impl Into<String>) -> Self {
        Self {
            io: true,
            ..Self::new(block, message)
        }
    }
}

/// The checked parameters of one block to make: every parameter of the description has a
/// value of its kind (given or default), and no other was given.
#[derive(Debug)]
pub struct Arguments {
    block: &'static str,
    dtype: Option<Dtype>,
    values: HashMap<&'static str, Pmt>,
}

impl Arguments {
    /// [`check`](Self::check) against a description's parts: its `id`, item `types` and
    /// `params`.
    pub(super) fn check_parts(
        id: &'static str,
        types: &'static [Dtype],
        params: &'static [ParamDescription],
        dtype: Option<Dtype>,
        given: impl IntoIterator<Item = (String, Pmt)>,
    ) -> Result<Self, ParamError> {
        let dtype = match (dtype, types) {
            (None, types) => types.first().copied(),
            (Some(d), []) => {
                return Err(ParamError::new(
                    id,
                    format!("has no item type, but {d} was asked for"),
                ))
            }
            (Some(d), types) if types.contains(&d) => Some(d),
            (Some(d), types) => {
                return Err(ParamError::new(
                    id,
                    format!(
                        "has no {d} version: its item types are {}",
                        Dtype::list(types)
                    ),
                ))
            }
        };
        let mut values = HashMap::new();
        for (name, value) in given {
            let Some(param) = params.iter().find(|p| p.name == name) else {
                let known: Vec<_> = params.iter().map(|p| p.name).collect();
                return Err(ParamError::new(
                    id,
                    if known.is_empty() {
                        format!("has no parameters, but '{}' was given", cut(&name))
                    } else {
                        format!(
                            "has no parameter '{}' (its parameters: {})",
                            cut(&name),
                            known.join(", ")
                        )
                    },
                ));
            };
            if values.insert(param.name, value).is_some() {
                return Err(ParamError::new(
                    id,
                    format!("'{}' was given twice", cut(&name)),
                ));
            }
        }
        for param in params {
            if !values.contains_key(param.name) {
                let Some(default) = param.default else {
                    return Err(ParamError::new(
                        id,
                        format!(
                            "parameter '{}' ({}) is required",
                            param.name,
                            param.kind.describe()
                        ),
                    ));
                };
                values.insert(param.name, default_pmt(default));
            }
        }
        let args = Self {
            block: id,
            dtype,
            values,
        };
        for param in params {
            args.validate(param)?;
        }
        Ok(args)
    }

    /// The block's id (for messages).
    pub fn block(&self) -> &'static str {
        self.block
    }

    /// The item type asked for (or the block's default); `None` for untyped blocks.
    pub fn dtype(&self) -> Option<Dtype> {
        self.dtype
    }

    /// The item type, for blocks that have one (the description guarantees it).
    pub fn item_dtype(&self) -> Result<Dtype, ParamError> {
        self.dtype
            .ok_or_else(|| ParamError::new(self.block, "its description lists no item type"))
    }

    /// An error about parameter `name`: `message` is a predicate ("must be > 0, not -1").
    pub fn error(&self, name: &str, message: impl std::fmt::Display) -> ParamError {
        ParamError::new(self.block, format!("{name} {message}"))
    }

    /// An error about the value of parameter `name`: `message` says what is wrong with it.
    fn value_error(&self, name: &str, message: impl std::fmt::Display) -> ParamError {
        ParamError::new(self.block, format!("{name}: {message}"))
    }

    fn value(&self, name: &str) -> Result<&Pmt, ParamError> {
        self.values
            .get(name)
            .ok_or_else(|| self.error(name, "is not a parameter of this block"))
    }

    /// A `Bool` parameter.
    pub fn bool(&self, name: &str) -> Result<bool, ParamError> {
        match self.value(name)? {
            Pmt::Bool(b) => Ok(*b),
            other => Err(self.error(
                name,
                format!("needs true or false, not {}", cut_display(other)),
            )),
        }
    }

    /// An `Int` parameter.
    pub fn int(&self, name: &str) -> Result<i64, ParamError> {
        match self.value(name)? {
            Pmt::Int(i) => Ok(*i),
            Pmt::Uint64(u) => {
                i64::try_from(*u).map_err(|_| self.error(name, format!("is too large: {u}")))
            }
            Pmt::Double(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => Ok(*x as i64),
            other => Err(self.error(
                name,
                format!("needs an integer, not {}", cut_display(other)),
            )),
        }
    }

    /// An `Int` parameter as `u64` (its description's minimum is at least 0).
    pub fn u64(&self, name: &str) -> Result<u64, ParamError> {
        let i = self.int(name)?;
        u64::try_from(i).map_err(|_| self.error(name, format!("must be >= 0, not {i}")))
    }

    /// An `Int` parameter as `usize`.
    pub fn usize(&self, name: &str) -> Result<usize, ParamError> {
        let i = self.int(name)?;
        usize::try_from(i).map_err(|_| self.error(name, format!("must be >= 0, not {i}")))
    }

    /// A `Float` parameter.
    pub fn float(&self, name: &str) -> Result<f64, ParamError> {
        let x = match self.value(name)? {
            Pmt::Double(x) => *x,
            Pmt::Int(i) => *i as f64,
            Pmt::Uint64(u) => *u as f64,
            other => {
                return Err(self.error(name, format!("needs a number, not {}", cut_display(other))))
            }
        };
        if x.is_finite() {
            Ok(x)
        } else {
            Err(self.error(name, format!("must be finite, not {}", Number(x))))
        }
    }

    /// A word of a `Choice` parameter.
    pub fn word(&self, name: &str) -> Result<&str, ParamError> {
        match self.value(name)? {
            Pmt::Symbol(s) => Ok(s),
            other => Err(self.error(name, format!("needs a word, not {}", cut_display(other)))),
        }
    }

    /// A `Path` parameter.
    pub fn path(&self, name: &str) -> Result<std::path::PathBuf, ParamError> {
        match self.value(name)? {
            Pmt::Symbol(s) if !s.is_empty() => Ok(s.as_ref().into()),
            other => Err(self.error(
                name,
                format!("needs a file path, not {}", cut_display(other)),
            )),
        }
    }

    /// A `Floats` parameter.
    pub fn floats(&self, name: &str) -> Result<Vec<f64>, ParamError> {
        let items =
            list(self.value(name)?).ok_or_else(|| self.error(name, "needs a list of numbers"))?;
        items
            .iter()
            .map(|v| match v {
                Pmt::Double(x) if x.is_finite() => Ok(*x),
                Pmt::Int(i) => Ok(*i as f64),
                other => Err(self.value_error(
                    name,
                    format!("{} is not a finite number", cut_display(other)),
                )),
            })
            .collect()
    }

    /// An `Item` parameter as a value of the block's item type `T`.
    pub fn item<T: FromParam>(&self, name: &str) -> Result<T, ParamError> {
        T::from_param(self.value(name)?).map_err(|m| self.value_error(name, m))
    }

    /// An `Items` parameter as values of `T`.
    pub fn items<T: FromParam>(&self, name: &str) -> Result<Vec<T>, ParamError> {
        let value = self.value(name)?;
        let items = list(value).ok_or_else(|| self.error(name, "needs a list of values"))?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                T::from_param(v).map_err(|m| self.value_error(name, format!("item {i}: {m}")))
            })
            .collect()
    }

    /// A `Message` parameter: any PMT.
    pub fn message(&self, name: &str) -> Result<Pmt, ParamError> {
        self.value(name).cloned()
    }

    /// A `Messages` parameter.
    pub fn messages(&self, name: &str) -> Result<Vec<Pmt>, ParamError> {
        list(self.value(name)?).ok_or_else(|| self.error(name, "needs a list of messages"))
    }

    /// Checks that the value of `param` is of its kind (converting it once).
    fn validate(&self, param: &ParamDescription) -> Result<(), ParamError> {
        let name = param.name;
        match param.kind {
            ParamKind::Bool => self.bool(name).map(drop),
            ParamKind::Int { min } => {
                let i = self.int(name)?;
                if i < min {
                    return Err(self.error(name, format!("must be >= {min}, not {i}")));
                }
                Ok(())
            }
            ParamKind::Float(range) => {
                let x = self.float(name)?;
                range.check(x).map(drop).map_err(|m| self.error(name, m))
            }
            ParamKind::Item => self.check_item(name, false),
            ParamKind::Items => self.check_item(name, true),
            ParamKind::Floats => {
                // A list whose default is `[]` may be empty (taps only some modes use).
                let may_be_empty = matches!(param.default, Some(DefaultValue::Empty));
                if self.floats(name)?.is_empty() && !may_be_empty {
                    return Err(self.error(name, "needs at least one value"));
                }
                Ok(())
            }
            ParamKind::Choice(words) => {
                let w = self.word(name)?;
                if !words.contains(&w) {
                    return Err(ParamError::new(
                        self.block,
                        format!("unknown {name} '{}' (use {})", cut(w), words.join(", ")),
                    ));
                }
                Ok(())
            }
            ParamKind::Path(_) => self.path(name).map(drop),
            ParamKind::Text => self.word(name).map(drop),
            ParamKind::Messages => self.messages(name).map(drop),
            ParamKind::Message => self.message(name).map(drop),
        }
    }

    fn check_item(&self, name: &str, many: bool) -> Result<(), ParamError> {
        let dtype = self.item_dtype()?;
        crate::with_dtype!(dtype, T => if many {
            self.items::<T>(name).map(drop)
        } else {
            self.item::<T>(name).map(drop)
        })
    }
}

/// The elements of a list-like PMT (a vector, tuple, list of pairs or uniform vector).
fn list(v: &Pmt) -> Option<Vec<Pmt>> {
    fn of<T: Copy>(xs: &[T], f: impl Fn(T) -> Pmt) -> Option<Vec<Pmt>> {
        Some(xs.iter().map(|&x| f(x)).collect())
    }
    match v {
        Pmt::Null => Some(Vec::new()),
        Pmt::Vector(xs) | Pmt::Tuple(xs) => Some(xs.to_vec()),
        Pmt::Pair(_) => {
            let mut items = Vec::new();
            let mut cell = v;
            while let Some((car, cdr)) = cell.as_pair() {
                items.push(car.clone());
                cell = cdr;
            }
            matches!(cell, Pmt::Null).then_some(items)
        }
        Pmt::F32Vector(xs) => of(xs, |x| Pmt::Double(x.into())),
        Pmt::F64Vector(xs) => of(xs, Pmt::Double),
        Pmt::C32Vector(xs) => of(xs, |x| {
            Pmt::Complex(num_complex::Complex64::new(x.re.into(), x.im.into()))
        }),
        Pmt::C64Vector(xs) => of(xs, Pmt::Complex),
        Pmt::U8Vector(xs) => of(xs, |x| Pmt::Int(x.into())),
        Pmt::S8Vector(xs) => of(xs, |x| Pmt::Int(x.into())),
        Pmt::S16Vector(xs) => of(xs, |x| Pmt::Int(x.into())),
        Pmt::S32Vector(xs) => of(xs, |x| Pmt::Int(x.into())),
        Pmt::S64Vector(xs) => of(xs, Pmt::Int),
        _ => None,
    }
}

/// A default (or example) value as the PMT a parameter takes.
pub fn default_pmt(d: DefaultValue) -> Pmt {
    match d {
        DefaultValue::Bool(b) => Pmt::Bool(b),
        DefaultValue::Int(i) => Pmt::Int(i),
        DefaultValue::Float(x) => Pmt::Double(x),
        DefaultValue::Word(w) => Pmt::Symbol(w.into()),
        DefaultValue::Empty => Pmt::Null,
    }
}

/// A value of an item type read from a parameter, refusing what does not fit.
pub trait FromParam: DtypeItem {
    /// `v` as `Self`, or what is wrong with it.
    fn from_param(v: &Pmt) -> Result<Self, String>;
}

fn real(v: &Pmt) -> Result<f64, String> {
    match v {
        Pmt::Double(x) => Ok(*x),
        Pmt::Int(i) => Ok(*i as f64),
        Pmt::Uint64(u) => Ok(*u as f64),
        Pmt::Complex(c) if c.im == 0.0 => Ok(c.re),
        Pmt::Complex(_) => Err(format!(
            "{} is complex; this block needs a real value",
            cut_display(v)
        )),
        other => Err(format!("needs a number, not {}", cut_display(other))),
    }
}

macro_rules! from_param_float {
    ($($t:ty),*) => {$(
        impl FromParam for $t {
            fn from_param(v: &Pmt) -> Result<Self, String> {
                real(v).map(|x| x as $t)
            }
        }
    )*};
}
from_param_float!(f32, f64);

macro_rules! from_param_int {
    ($($t:ty),*) => {$(
        impl FromParam for $t {
            fn from_param(v: &Pmt) -> Result<Self, String> {
                let i = match v {
                    Pmt::Int(i) => *i,
                    Pmt::Double(x) if x.fract() == 0.0 => *x as i64,
                    other => return Err(format!("needs an integer, not {}", cut_display(other))),
                };
                <$t>::try_from(i).map_err(|_| format!("{i} does not fit in {}", stringify!($t)))
            }
        }
    )*};
}
from_param_int!(i8, u8, i16, i32);

impl FromParam for Complex32 {
    fn from_param(v: &Pmt) -> Result<Self, String> {
        match v {
            Pmt::Complex(c) => Ok(Complex32::new(c.re as f32, c.im as f32)),
            other => real(other).map(|x| Complex32::new(x as f32, 0.0)),
        }
    }
}
