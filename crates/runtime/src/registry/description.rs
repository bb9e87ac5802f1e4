//! What a front end needs to know of a block: its id, item types, parameters, ports and
//! documentation, and how to make one from named parameters.

use super::{Arguments, Dtype, ParamError};
use crate::Block;
use std::fmt;

/// One block of the library, as every front end sees it (Python factories and stub, the
/// command line's block list, graph files). Registered next to the block with
/// [`register_block!`](crate::register_block).
pub struct BlockDescription {
    /// The id front ends call it by (`multiply_const`): snake case, unique.
    pub id: &'static str,
    /// What it does, in one or two sentences (the first paragraph of its docs).
    pub summary: &'static str,
    /// The item types it can be made for, the default first; empty if it has no item type
    /// (message blocks).
    pub dtypes: &'static [Dtype],
    /// Its parameters, in the order positional front ends take them.
    pub params: &'static [ParamDescription],
    /// Its ports (from its declaration, see [`declared_ports`](super::declared_ports)).
    pub ports: fn() -> Vec<PortInfo>,
    /// Makes one from checked arguments.
    pub make: fn(&Arguments) -> Result<Box<dyn Block>, ParamError>,
}

impl fmt::Debug for BlockDescription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockDescription")
            .field("id", &self.id)
            .field("dtypes", &self.dtypes)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl BlockDescription {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamDescription> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The item type made when none is asked for.
    pub fn default_dtype(&self) -> Option<Dtype> {
        self.dtypes.first().copied()
    }
}

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
        }
    }

    /// The same parameter with a typical value (see [`example`](Self::example)).
    pub const fn with_example(mut self, example: DefaultValue) -> Self {
        self.example = Some(example);
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
        }
    }
}

/// The values a parameter takes (given as a [`Pmt`](crate::Pmt), checked and converted by
/// [`Arguments`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// A whole number `>= min`.
    Int {
        /// The smallest value allowed.
        min: i64,
    },
    /// A finite real number.
    Float,
    /// A finite real number `> 0`.
    PositiveFloat,
    /// One value of the block's item type (real or complex as the type is).
    Item,
    /// A non-empty list of finite real numbers (filter taps).
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
}

impl ParamKind {
    /// The Python annotation of the type (for the stub).
    pub fn python_type(self) -> &'static str {
        match self {
            ParamKind::Bool => "bool",
            ParamKind::Int { .. } => "int",
            ParamKind::Float | ParamKind::PositiveFloat => "float",
            ParamKind::Item => "Any",
            ParamKind::Floats => "Sequence[float]",
            ParamKind::Items => "Any",
            ParamKind::Choice(_) | ParamKind::Text => "str",
            ParamKind::Path(_) => "Union[str, os.PathLike]",
            ParamKind::Messages => "Sequence[Any]",
        }
    }

    /// What the parameter takes, in words (for the docs and errors).
    pub fn describe(self) -> String {
        match self {
            ParamKind::Bool => "true or false".into(),
            ParamKind::Int { min } => format!("an integer >= {min}"),
            ParamKind::Float => "a finite number".into(),
            ParamKind::PositiveFloat => "a finite number > 0".into(),
            ParamKind::Item => "a value of the item type".into(),
            ParamKind::Floats => "a non-empty list of finite numbers".into(),
            ParamKind::Items => "a list of values of the item type".into(),
            ParamKind::Choice(words) => format!("one of {}", words.join(", ")),
            ParamKind::Text => "a word".into(),
            ParamKind::Path(_) => "a file path".into(),
            ParamKind::Messages => "a list of messages".into(),
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

/// One port of a block, as its declaration names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortInfo {
    /// Its name; for a `Vec` of ports the common prefix (the ports are `name0`, `name1`, ...).
    pub name: &'static str,
    /// Stream or message, input or output.
    pub direction: crate::Direction,
    /// Whether it is a `Vec` of ports, as many as a parameter says.
    pub many: bool,
}

impl fmt::Display for PortInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let many = if self.many { "0..n" } else { "" };
        write!(f, "{}{many} ({})", self.name, self.direction)
    }
}
