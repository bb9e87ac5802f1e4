//! What a block declared with [`#[library_block]`](super::library_block) is made of at run
//! time: its parameters read into the Rust types its declaration gives them ([`Param`]), its
//! constructor's refusal ([`Refused`]), the construction from checked arguments
//! ([`FromArguments`]), and the message inputs that set its settable parameters while a graph
//! runs ([`SettableParams`]).

use super::{Arguments, BlockDescription, FromParam, ParamDescription, ParamError};
use crate::{Block, BlockError, FromMessage, MessageType, Pmt, Ports, Tag};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A Rust type a declared parameter can have: how it is read from the checked arguments.
/// Item types (`T`, `Vec<T>`) are read with [`Arguments::item`] and [`Arguments::items`]; a
/// type given words (`words = [...]`) or any other type with `FromStr` with [`read_word`].
pub trait Param: Sized {
    /// The value of parameter `name`.
    ///
    /// # Errors
    /// The value does not fit the type (an integer too large for it); the error names the
    /// block and the parameter.
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError>;
}

impl Param for bool {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.bool(name)
    }
}

impl Param for i64 {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.int(name)
    }
}

impl Param for u64 {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.u64(name)
    }
}

impl Param for usize {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.usize(name)
    }
}

impl Param for u32 {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        u32::try_from(args.u64(name)?).map_err(|_| args.error(name, "is too large"))
    }
}

impl Param for f64 {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.float(name)
    }
}

/// Its declared range keeps it within what an `f32` holds (`FloatRange::F32` by default).
impl Param for f32 {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        Ok(args.float(name)? as f32)
    }
}

impl Param for String {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        Ok(args.word(name)?.to_owned())
    }
}

impl Param for PathBuf {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.path(name)
    }
}

impl Param for Vec<f64> {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.floats(name)
    }
}

/// Filter taps: the values as `f32`.
impl Param for Vec<f32> {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        Ok(args.floats(name)?.into_iter().map(|t| t as f32).collect())
    }
}

/// One message: the value as it is.
impl Param for Pmt {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.message(name)
    }
}

impl Param for Vec<Pmt> {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.messages(name)
    }
}

/// Stream tags, each given as `[offset, key, value]` or `[offset, key, value, srcid]`.
impl Param for Vec<Tag> {
    fn read(args: &Arguments, name: &str) -> Result<Self, ParamError> {
        args.messages(name)?
            .iter()
            .enumerate()
            .map(|(i, t)| tag(t).map_err(|m| args.error(name, format!("item {i}: {m}"))))
            .collect()
    }
}

/// A tag given as a parameter: `[offset, key, value]`, or with a source id (GNU Radio's
/// `srcid`) as a fourth value.
fn tag(t: &Pmt) -> Result<Tag, String> {
    const FORM: &str = "[offset, key, value] or [offset, key, value, srcid]";
    let parts: Vec<Pmt> = match t {
        Pmt::Vector(v) | Pmt::Tuple(v) => v.to_vec(),
        _ => return Err(format!("must be {FORM}, not {t}")),
    };
    let (offset, key, value, srcid) = match <[Pmt; 4]>::try_from(parts) {
        Ok([offset, key, value, srcid]) => (offset, key, value, srcid),
        Err(parts) => match <[Pmt; 3]>::try_from(parts) {
            Ok([offset, key, value]) => (offset, key, value, Pmt::Bool(false)),
            Err(p) => return Err(format!("must be {FORM}, not {} values", p.len())),
        },
    };
    let offset = match offset {
        Pmt::Int(i) if i >= 0 => i as u64,
        Pmt::Uint64(u) => u,
        other => return Err(format!("the offset must be an integer >= 0, not {other}")),
    };
    Ok(Tag::new(offset, key, value).with_srcid(srcid))
}

/// The word given for parameter `name`, parsed into `T` (a `Choice` of words mapped to the
/// values of an enum, or a word checked by `T` itself, like a MODCOD).
///
/// # Errors
/// `T` refuses the word; the error names the block and the parameter.
pub fn read_word<T: FromStr>(args: &Arguments, name: &str) -> Result<T, ParamError>
where
    T::Err: fmt::Display,
{
    args.word(name)?
        .parse()
        .map_err(|e| args.error(name, format!("is refused: {e}")))
}

/// A value of the block's item type `T` (an `Item` parameter).
#[doc(hidden)]
pub fn read_item<T: FromParam>(args: &Arguments, name: &str) -> Result<T, ParamError> {
    args.item(name)
}

/// Values of the block's item type `T` (an `Items` parameter).
#[doc(hidden)]
pub fn read_items<T: FromParam>(args: &Arguments, name: &str) -> Result<Vec<T>, ParamError> {
    args.items(name)
}

/// Why a block's constructor refused the parameters it was given: a [`ParamError`] without
/// the block's id, which the registry adds. What the `make` expression of a
/// [`#[library_block]`](super::library_block) may fail with (`?` converts into it from
/// [`ParamError`] and from the error types that implement `Into<Refused>`).
///
/// ```
/// use radioflow_runtime::registry::Refused;
/// assert_eq!(Refused::param("taps", "needs at least one value").to_string(),
///     "taps needs at least one value");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    message: String,
    io: bool,
}

impl Refused {
    /// Parameter `name` refused: `problem` follows the name ("must be > 0, not -1").
    pub fn param(name: &str, problem: impl fmt::Display) -> Self {
        Self::other(format!("{name} {problem}"))
    }

    /// A file the block could not open or create (an `OSError` in Python).
    pub fn io(error: impl fmt::Display) -> Self {
        Self {
            message: error.to_string(),
            io: true,
        }
    }

    /// Any other refusal, in the constructor's words.
    pub fn other(error: impl fmt::Display) -> Self {
        Self {
            message: error.to_string(),
            io: false,
        }
    }

    /// The error of block `block`.
    pub fn in_block(self, block: &str) -> ParamError {
        ParamError {
            block: block.to_owned(),
            message: self.message,
            io: self.io,
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<ParamError> for Refused {
    fn from(e: ParamError) -> Self {
        Self {
            message: e.message,
            io: e.io,
        }
    }
}

/// What a declared block's `make` expression gives: the block, or a `Result` whose error
/// converts into [`Refused`].
#[doc(hidden)]
pub trait Made<B> {
    /// The block or why it was refused.
    fn made(self) -> Result<B, Refused>;
}

impl<B: Block> Made<B> for B {
    fn made(self) -> Result<B, Refused> {
        Ok(self)
    }
}

impl<B: Block, E: Into<Refused>> Made<B> for Result<B, E> {
    fn made(self) -> Result<B, Refused> {
        self.map_err(Into::into)
    }
}

/// A block made from checked arguments; [`#[library_block]`](super::library_block) writes
/// it from the declaration (each parameter read into its declared type, then the `make`
/// expression, by default `Self::new` with the parameters in order).
pub trait FromArguments: Sized {
    /// The block `args` describe.
    ///
    /// # Errors
    /// A value does not fit its Rust type, or the constructor refused it; the error names the
    /// block.
    fn from_arguments(args: &Arguments) -> Result<Self, ParamError>;
}

/// A block declared with [`#[library_block]`](super::library_block): the description its
/// declaration registers (for the block's own checks, e.g. of a range, in its constructor).
pub trait Declared {
    /// The registered description.
    const DESCRIPTION: &'static BlockDescription;
}

/// `B` made from `args`, boxed (a [`BlockDescription::make`](super::BlockDescription::make)).
#[doc(hidden)]
pub fn make_boxed<B: Block + FromArguments>(
    args: &Arguments,
) -> Result<Box<dyn Block>, ParamError> {
    Ok(Box::new(B::from_arguments(args)?))
}

/// The message inputs that set a block's settable parameters while a graph runs: written by
/// [`#[library_block]`](super::library_block) for every parameter declared `settable` (each
/// calls the block's `set_NAME` method), and empty for a block declared with
/// `#[derive(Ports)]`. Listed before the `#[message_input]` methods' inputs.
#[doc(hidden)]
pub trait SettableParams {
    /// The parameters' names, which are also their message inputs' names.
    const NAMES: &'static [&'static str] = &[];

    /// Declares the message inputs.
    fn declare(_p: &mut Ports<'_>) {}

    /// Handles a message to the input `index` (of [`NAMES`](Self::NAMES)).
    ///
    /// # Errors
    /// The setter refused the value.
    fn set(&mut self, index: usize, _msg: Pmt) -> Result<(), BlockError> {
        Err(BlockError::msg(format!("no settable parameter {index}")))
    }
}

/// The value a setter takes: a [`FromMessage`] type (the input is typed: a control port
/// refuses a value of another type before it is sent), or any [`Pmt`].
#[doc(hidden)]
pub trait SettingArg: Sized {
    /// What the input accepts (`None`: any message).
    fn message_type() -> Option<MessageType>;
    /// `msg` as the setter's argument, if it is one.
    fn from_setting(msg: Pmt) -> Option<Self>;
}

impl<T: FromMessage> SettingArg for T {
    fn message_type() -> Option<MessageType> {
        Some(MessageType::of::<T>())
    }
    fn from_setting(msg: Pmt) -> Option<Self> {
        T::from_message(&msg)
    }
}

impl SettingArg for Pmt {
    fn message_type() -> Option<MessageType> {
        None
    }
    fn from_setting(msg: Pmt) -> Option<Self> {
        Some(msg)
    }
}

/// What a setter returns: nothing, or a `Result` whose error stops the graph.
#[doc(hidden)]
pub trait SetterResult {
    /// As a handler's result.
    fn into_result(self) -> Result<(), BlockError>;
}

impl SetterResult for () {
    fn into_result(self) -> Result<(), BlockError> {
        Ok(())
    }
}

impl<E: Into<BlockError>> SetterResult for Result<(), E> {
    fn into_result(self) -> Result<(), BlockError> {
        self.map_err(Into::into)
    }
}

/// Declares the message input `name` of a setter, typed as the setter's argument is.
#[doc(hidden)]
pub fn settable_input<B, A: SettingArg, R>(
    p: &mut Ports<'_>,
    name: &str,
    _set: fn(&mut B, A) -> R,
) {
    match A::message_type() {
        Some(t) => p.typed_message_input(name, t),
        None => p.message_input(name),
    }
}

/// Sets `param` of block `block` (its id) from `msg` with `set`: a value its declaration does
/// not take (outside its range, of another kind) or its setter's argument type does not hold
/// is ignored with a warning, so that a bad value sent from a control port leaves a running
/// graph as it was.
///
/// # Errors
/// The setter's own.
#[doc(hidden)]
pub fn apply_setting<B, A: SettingArg, R: SetterResult>(
    target: &mut B,
    set: fn(&mut B, A) -> R,
    block: &str,
    param: &ParamDescription,
    msg: Pmt,
) -> Result<(), BlockError> {
    let refused = match A::message_type() {
        Some(t) if !t.accepts(&msg) => Err(format!("takes {}", t.expects())),
        _ => param.kind.accepts(&msg),
    };
    if let Err(why) = refused {
        tracing::warn!("{block}: '{}' set to {msg} ignored: {why}", param.name);
        return Ok(());
    }
    match A::from_setting(msg) {
        Some(value) => set(target, value).into_result(),
        None => Ok(()),
    }
}

/// Whether `a` and `b` hold the same names in the same order (for the declaration's checks,
/// at compile time).
#[doc(hidden)]
pub const fn same_names(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let (x, y) = (a[i].as_bytes(), b[i].as_bytes());
        if x.len() != y.len() {
            return false;
        }
        let mut j = 0;
        while j < x.len() {
            if x[j] != y[j] {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}
