//! [`FromMessage`]: the types a `#[message_input]` method can take instead of a raw [`Pmt`].

use radioflow_pmt::Pmt;

/// A value a message input accepts, read from the PMT that arrives (GNU Radio's conventions:
/// numbers as `from_double` / `from_long` / `from_uint64`, names as symbols).
///
/// ```
/// use radioflow_runtime::{FromMessage, Pmt};
/// assert_eq!(f64::from_message(&Pmt::Int(3)), Some(3.0));
/// assert_eq!(bool::from_message(&Pmt::Double(1.0)), None);
/// ```
pub trait FromMessage: Sized {
    /// What the input expects, for the error when a message does not convert.
    const EXPECTS: &'static str;

    /// The value, or `None` if `msg` is not one.
    fn from_message(msg: &Pmt) -> Option<Self>;
}

impl FromMessage for f64 {
    const EXPECTS: &'static str = "a number";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_f64()
    }
}

impl FromMessage for f32 {
    const EXPECTS: &'static str = "a number";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_f64().map(|x| x as f32)
    }
}

impl FromMessage for i64 {
    const EXPECTS: &'static str = "an integer";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_i64()
    }
}

impl FromMessage for u64 {
    const EXPECTS: &'static str = "a non-negative integer";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_u64()
    }
}

impl FromMessage for usize {
    const EXPECTS: &'static str = "a non-negative integer";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_u64().and_then(|v| usize::try_from(v).ok())
    }
}

impl FromMessage for bool {
    const EXPECTS: &'static str = "a bool";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_bool()
    }
}

impl FromMessage for String {
    const EXPECTS: &'static str = "a symbol";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_symbol().map(str::to_owned)
    }
}

impl FromMessage for num_complex::Complex64 {
    const EXPECTS: &'static str = "a complex number";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_complex()
    }
}
