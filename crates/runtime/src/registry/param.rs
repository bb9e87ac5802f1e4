//! What a parameter of a block is: its kind (with a float's range), its default, what a path
//! parameter does with its file.

use crate::Pmt;
use std::fmt;
use std::ops::{Bound, RangeBounds};

/// One parameter of a block.
#[derive(Clone, Copy, Debug)]
pub struct ParamDescription {
    /// Its name (a Python keyword, a graph file's key).
    pub name: &'static str,
    /// What values it takes.
    pub kind: ParamKind,
    /// Its value when not given; `None` makes it required.
    pub default: Option<DefaultValue>,
    /// One line for the docs.
    pub doc: &'static str,
    /// A typical value of a required parameter (for docs, and for tests that make every
    /// block of the library); without one, a value of the kind is made up.
    pub example: Option<DefaultValue>,
    /// Whether it can be changed while the graph runs: by a message to the block's message
    /// input of the same name (which a control port offers as the parameter).
    pub settable: bool,
}

impl ParamDescription {
    /// A parameter without a default.
    pub const fn required(name: &'static str, kind: ParamKind, doc: &'static str) -> Self {
        Self {
            name,
            kind,
            default: None,
            doc,
            example: None,
            settable: false,
        }
    }

    /// The same parameter with a typical value (see [`example`](Self::example)).
    pub const fn with_example(mut self, example: DefaultValue) -> Self {
        self.example = Some(example);
        self
    }

    /// The same parameter, settable while the graph runs (see [`settable`](Self::settable)).
    pub const fn with_setter(mut self) -> Self {
        self.settable = true;
        self
    }

    /// A parameter with a default.
    pub const fn optional(
        name: &'static str,
        kind: ParamKind,
        default: DefaultValue,
        doc: &'static str,
    ) -> Self {
        Self {
            name,
            kind,
            default: Some(default),
            doc,
            example: None,
            settable: false,
        }
    }
}

/// The values a parameter takes (given as a [`Pmt`](crate::Pmt), checked and converted by
/// [`Arguments`](super::Arguments)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// A whole number `>= min`.
    Int {
        /// The smallest value allowed.
        min: i64,
    },
    /// A finite real number within its declared range.
    Float(FloatRange),
    /// One value of the block's item type (real or complex as the type is).
    Item,
    /// A non-empty list of finite real numbers (filter taps); empty allowed where the
    /// default is `[]`.
    Floats,
    /// Any list of values of the block's item type.
    Items,
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// A word or text the block checks itself (a MODCOD name, a format).
    Text,
    /// A file path, and what the block does with the file (graph loading refuses a graph
    /// that writes a file it reads).
    Path(PathUse),
    /// A list of messages (any PMTs).
    Messages,
    /// One message (any PMT).
    Message,
}

impl ParamKind {
    /// The Python annotation of the type (for the stub).
    pub fn python_type(self) -> &'static str {
        match self {
            ParamKind::Bool => "bool",
            ParamKind::Int { .. } => "int",
            ParamKind::Float(_) => "float",
            ParamKind::Item => "Any",
            ParamKind::Floats => "Sequence[float]",
            ParamKind::Items => "Any",
            ParamKind::Choice(_) | ParamKind::Text => "str",
            ParamKind::Path(_) => "Union[str, os.PathLike]",
            ParamKind::Messages => "Sequence[Any]",
            ParamKind::Message => "Any",
        }
    }

    /// `Ok` if `value` is one this parameter takes (a number within a float's range, a word of
    /// a choice, ...), else what it takes; lists and item values are not checked here.
    pub fn accepts(self, value: &Pmt) -> Result<(), String> {
        let ok = match self {
            ParamKind::Bool => value.as_bool().is_some(),
            ParamKind::Int { min } => value.as_i64().is_some_and(|i| i >= min),
            ParamKind::Float(range) => value.as_f64().is_some_and(|x| range.contains(x)),
            ParamKind::Choice(words) => value.as_symbol().is_some_and(|w| words.contains(&w)),
            ParamKind::Text | ParamKind::Path(_) => value.as_symbol().is_some(),
            ParamKind::Item
            | ParamKind::Floats
            | ParamKind::Items
            | ParamKind::Messages
            | ParamKind::Message => true,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("takes {}", self.describe()))
        }
    }

    /// What the parameter takes, in words (for the docs and errors).
    pub fn describe(self) -> String {
        match self {
            ParamKind::Bool => "true or false".into(),
            ParamKind::Int { min } => format!("an integer >= {min}"),
            ParamKind::Float(range) if range == FloatRange::FINITE => "a finite number".into(),
            ParamKind::Float(range) => format!("a number {range}"),
            ParamKind::Item => "a value of the item type".into(),
            ParamKind::Floats => "a non-empty list of finite numbers".into(),
            ParamKind::Items => "a list of values of the item type".into(),
            ParamKind::Choice(words) => format!("one of {}", words.join(", ")),
            ParamKind::Text => "a word".into(),
            ParamKind::Path(_) => "a file path".into(),
            ParamKind::Messages => "a list of messages".into(),
            ParamKind::Message => "a message".into(),
        }
    }
}

/// The values a [`ParamKind::Float`] parameter takes: finite numbers between `min` and `max`,
/// each bound inclusive, exclusive or absent. Declared once with the parameter
/// (`ParamKind::Float(FloatRange::at_least(1e-3))`), checked when a block is made
/// ([`Arguments::check`](super::Arguments::check)) and shown wherever the parameter is described (`radioflow blocks
/// ID`, the Python docstrings and stub).
///
/// ```
/// use radioflow_runtime::registry::FloatRange;
///
/// let sps = FloatRange::at_least(1.25).at_most(64.0);
/// assert!(sps.contains(2.0) && !sps.contains(100.0) && !sps.contains(f64::NAN));
/// assert_eq!(sps.to_string(), "in [1.25, 64]");
/// assert_eq!(FloatRange::above(0.0).to_string(), "> 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatRange {
    /// The lower bound.
    pub min: Bound<f64>,
    /// The upper bound.
    pub max: Bound<f64>,
}

impl FloatRange {
    /// Every finite number.
    pub const FINITE: Self = Self {
        min: Bound::Unbounded,
        max: Bound::Unbounded,
    };
    /// Finite numbers `> 0`.
    pub const POSITIVE: Self = Self::above(0.0);
    /// Numbers an `f32` holds (magnitude at most 3.4e38): for a parameter used as `f32`.
    pub const F32: Self = Self::at_least(-3.4e38).at_most(3.4e38);

    /// Finite numbers `>= min`.
    pub const fn at_least(min: f64) -> Self {
        Self {
            min: Bound::Included(min),
            max: Bound::Unbounded,
        }
    }

    /// Finite numbers `> min`.
    pub const fn above(min: f64) -> Self {
        Self {
            min: Bound::Excluded(min),
            max: Bound::Unbounded,
        }
    }

    /// This range, limited to numbers `<= max`.
    pub const fn at_most(mut self, max: f64) -> Self {
        self.max = Bound::Included(max);
        self
    }

    /// This range, limited to numbers `< max`.
    pub const fn below(mut self, max: f64) -> Self {
        self.max = Bound::Excluded(max);
        self
    }

    /// Whether `x` is finite and within the bounds.
    pub fn contains(&self, x: f64) -> bool {
        x.is_finite() && (self.min, self.max).contains(&x)
    }

    /// `x` if the range holds it, else what is wrong, to follow the parameter's name: `must
    /// be >= 0.001, not 1e-300` (numbers written short, see the `Display` of the range).
    ///
    /// # Errors
    /// `x` is not finite or out of the range.
    pub fn check(&self, x: f64) -> Result<f64, String> {
        if self.contains(x) {
            Ok(x)
        } else {
            Err(format!("must be {self}, not {}", Number(x)))
        }
    }
}

impl fmt::Display for FloatRange {
    /// `finite`, `> 0`, `>= 0.001`, `<= 5`, `in [1.25, 64]`, `in (0, 1e10]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lower = match self.min {
            Bound::Included(a) => Some(('[', Number(a))),
            Bound::Excluded(a) => Some(('(', Number(a))),
            Bound::Unbounded => None,
        };
        let upper = match self.max {
            Bound::Included(b) => Some((Number(b), ']')),
            Bound::Excluded(b) => Some((Number(b), ')')),
            Bound::Unbounded => None,
        };
        match (lower, upper) {
            (None, None) => f.write_str("finite"),
            (Some(('[', a)), None) => write!(f, ">= {a}"),
            (Some((_, a)), None) => write!(f, "> {a}"),
            (None, Some((b, ']'))) => write!(f, "<= {b}"),
            (None, Some((b, _))) => write!(f, "< {b}"),
            (Some((open, a)), Some((b, close))) => write!(f, "in {open}{a}, {b}{close}"),
        }
    }
}

/// A real number as messages show it: as written from 0.0001 to below a million (`0.001`,
/// `240000`), else in exponent form (`1e7`, `1e-300`, not three hundred digits).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Number(pub(crate) f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x == 0.0 || !x.is_finite() || (1e-4..1e6).contains(&x.abs()) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

/// What a block does with the file a [`ParamKind::Path`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathUse {
    /// Reads it.
    Read,
    /// Creates or truncates it.
    Write,
    /// Reads the SigMF recording it names: `X`, `X.sigmf-meta` and `X.sigmf-data` name the
    /// pair of files, `X.sigmf` an archive.
    ReadSigmf,
    /// Writes the SigMF recording it names (as [`ReadSigmf`](Self::ReadSigmf)).
    WriteSigmf,
}

impl PathUse {
    /// Whether the block creates or truncates the file.
    pub fn writes(self) -> bool {
        matches!(self, PathUse::Write | PathUse::WriteSigmf)
    }
}

/// The value of a parameter that is not given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DefaultValue {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A real number (for an `Item` parameter: that number in the item type).
    Float(f64),
    /// A word (for a `Choice`).
    Word(&'static str),
    /// The empty list.
    Empty,
}

impl DefaultValue {
    /// The default as a Python literal (for signatures and the stub).
    pub fn python(self) -> String {
        match self {
            DefaultValue::Bool(b) => if b { "True" } else { "False" }.into(),
            DefaultValue::Int(i) => i.to_string(),
            DefaultValue::Float(x) => format!("{x:?}"),
            DefaultValue::Word(w) => format!("{w:?}"),
            DefaultValue::Empty => "()".into(),
        }
    }
}

impl fmt::Display for DefaultValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefaultValue::Bool(b) => write!(f, "{b}"),
            DefaultValue::Int(i) => write!(f, "{i}"),
            DefaultValue::Float(x) => write!(f, "{x}"),
            DefaultValue::Word(w) => f.write_str(w),
            DefaultValue::Empty => f.write_str("[]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_conditions_and_check_with_short_numbers() {
        let cases = [
            (FloatRange::FINITE, "finite"),
            (FloatRange::POSITIVE, "> 0"),
            (FloatRange::at_least(1e-3), ">= 0.001"),
            (FloatRange::FINITE.at_most(5.0), "<= 5"),
            (FloatRange::FINITE.below(-2.5), "< -2.5"),
            (FloatRange::above(0.0).at_most(1e10), "in (0, 1e10]"),
            (FloatRange::at_least(1.25).below(64.0), "in [1.25, 64)"),
            (FloatRange::F32, "in [-3.4e38, 3.4e38]"),
        ];
        for (range, words) in cases {
            assert_eq!(range.to_string(), words);
        }
        let rate = FloatRange::at_least(1e-3);
        assert_eq!(rate.check(0.5), Ok(0.5));
        assert_eq!(
            rate.check(1e-300).unwrap_err(),
            "must be >= 0.001, not 1e-300"
        );
        assert_eq!(
            rate.check(f64::NAN).unwrap_err(),
            "must be >= 0.001, not NaN"
        );
        assert!(!FloatRange::FINITE.contains(f64::INFINITY));
        assert!(!FloatRange::POSITIVE.contains(0.0) && FloatRange::POSITIVE.contains(5e-324));
        assert_eq!(Number(-1e300).to_string(), "-1e300");
        assert_eq!(Number(240e3).to_string(), "240000");
    }
}
