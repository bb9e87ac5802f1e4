//! [`FromMessage`]: the types a `#[message_input]` method can take instead of a raw [`Pmt`],
//! and [`MessageType`], what such an input accepts, known before a message is sent.

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

/// Integers of an item type: a message out of the type's range is refused, never wrapped.
macro_rules! narrow_integer {
    ($($t:ty),*) => {$(
        impl FromMessage for $t {
            const EXPECTS: &'static str = concat!("an integer that fits ", stringify!($t));
            fn from_message(msg: &Pmt) -> Option<Self> {
                msg.as_i64().and_then(|i| <$t>::try_from(i).ok())
            }
        }
    )*};
}

narrow_integer!(i8, u8, i16, i32);

impl FromMessage for num_complex::Complex32 {
    const EXPECTS: &'static str = "a number (complex or real)";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_complex()
            .map(|c| num_complex::Complex32::new(c.re as f32, c.im as f32))
    }
}

impl FromMessage for num_complex::Complex64 {
    const EXPECTS: &'static str = "a complex number";
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_complex()
    }
}

/// What a typed message input accepts: a description and a check that runs without the block,
/// so a control port can refuse a wrong value (and name what was expected) instead of sending
/// it to a handler whose refusal would stop the graph.
///
/// ```
/// use radioflow_runtime::{MessageType, Pmt};
/// let t = MessageType::of::<f64>();
/// assert!(t.accepts(&Pmt::Double(1e3)) && !t.accepts(&Pmt::symbol("abc")));
/// assert_eq!(t.expects(), "a number");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MessageType {
    expects: &'static str,
    accepts: fn(&Pmt) -> bool,
}

impl MessageType {
    /// The type of an input whose method takes a `T`.
    pub fn of<T: FromMessage>() -> Self {
        fn accepts<T: FromMessage>(msg: &Pmt) -> bool {
            T::from_message(msg).is_some()
        }
        Self {
            expects: T::EXPECTS,
            accepts: accepts::<T>,
        }
    }

    /// What the input expects, as in "takes a number".
    pub fn expects(&self) -> &'static str {
        self.expects
    }

    /// Whether `msg` converts to the input's type.
    pub fn accepts(&self, msg: &Pmt) -> bool {
        (self.accepts)(msg)
    }
}
