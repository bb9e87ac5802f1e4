//! Conversions from Rust values, following GNU Radio's `pmt::from_*` / `pmt::init_*vector`.

use std::sync::Arc;

use crate::{Complex32, Complex64, Pmt};

macro_rules! from_scalar {
    ($($t:ty => |$x:ident| $e:expr;)*) => {$(
        impl From<$t> for Pmt {
            fn from($x: $t) -> Pmt {
                $e
            }
        }
    )*};
}

from_scalar! {
    bool => |b| Pmt::Bool(b);
    i32 => |i| Pmt::Int(i.into());
    u32 => |i| Pmt::Int(i.into());
    i64 => |i| Pmt::Int(i);
    u64 => |u| Pmt::Uint64(u);
    // GNU Radio's `from_float` also makes a double.
    f32 => |x| Pmt::Double(x.into());
    f64 => |x| Pmt::Double(x);
    Complex32 => |c| Pmt::Complex(Complex64::new(c.re.into(), c.im.into()));
    Complex64 => |c| Pmt::Complex(c);
    &str => |s| Pmt::Symbol(s.into());
    String => |s| Pmt::Symbol(s.into());
    Arc<str> => |s| Pmt::Symbol(s);
    Vec<Pmt> => |v| Pmt::Vector(v.into());
}

macro_rules! from_uniform {
    ($($t:ty => $variant:ident,)*) => {$(
        impl From<Vec<$t>> for Pmt {
            fn from(v: Vec<$t>) -> Pmt {
                Pmt::$variant(v.into())
            }
        }

        impl From<&[$t]> for Pmt {
            fn from(v: &[$t]) -> Pmt {
                Pmt::$variant(v.into())
            }
        }
    )*};
}

from_uniform! {
    u8 => U8Vector,
    i8 => S8Vector,
    u16 => U16Vector,
    i16 => S16Vector,
    u32 => U32Vector,
    i32 => S32Vector,
    u64 => U64Vector,
    i64 => S64Vector,
    f32 => F32Vector,
    f64 => F64Vector,
    Complex32 => C32Vector,
    Complex64 => C64Vector,
}

/// A symbol equals its name, so `pmt == "freq"` and `dict.dict_get("freq")` work.
impl PartialEq<str> for Pmt {
    fn eq(&self, other: &str) -> bool {
        self.as_symbol() == Some(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_pick_gnu_radio_types() {
        assert_eq!(Pmt::from(7u32), Pmt::Int(7));
        assert_eq!(Pmt::from(7u64), Pmt::Uint64(7));
        assert_eq!(Pmt::from(0.5f32), Pmt::Double(0.5));
        assert_eq!(Pmt::from("x"), Pmt::symbol("x"));
        let x = Pmt::from("x");
        assert!(x == *"x");
        assert_eq!(Pmt::from(vec![1u8, 2]), Pmt::blob(vec![1, 2]));
        assert_eq!(Pmt::from(&[1.0f32][..]), Pmt::F32Vector(Arc::new([1.0])));
        assert_eq!(
            Pmt::from(vec![Pmt::Null]),
            Pmt::Vector(vec![Pmt::Null].into())
        );
    }
}
