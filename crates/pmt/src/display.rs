//! Printing in GNU Radio's notation (`pmt::write_string`, Python's `str(pmt)`).

use std::fmt::{self, Display, Formatter, Write};

use crate::{Complex64, Pmt};

/// Prints like GNU Radio: `#t`, `()`, `(a . 1)`, `(1 2 3)`, `((key . value) ...)` for dicts,
/// `#(...)` for vectors, `{...}` for tuples and `#[...]` for uniform vectors. Doubles print as
/// C's `%g`, `f32` and `f64` vector elements as `%f` and `%.15f`.
impl Display for Pmt {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Pmt::Null => f.write_str("()"),
            Pmt::Bool(true) => f.write_str("#t"),
            Pmt::Bool(false) => f.write_str("#f"),
            Pmt::Symbol(name) => f.write_str(name),
            Pmt::Int(i) => write!(f, "{i}"),
            Pmt::Uint64(u) => write!(f, "{u}"),
            Pmt::Double(d) => write_g(f, *d),
            Pmt::Complex(c) => {
                // GNU Radio always writes the '+', giving "1+-2i".
                write_g(f, c.re)?;
                f.write_char('+')?;
                write_g(f, c.im)?;
                f.write_char('i')
            }
            Pmt::Pair(pair) => write_pair(f, &pair.0, &pair.1),
            Pmt::Dict(entries) => {
                f.write_char('(')?;
                write_entries(f, entries)?;
                f.write_char(')')
            }
            Pmt::Vector(items) => write_seq(f, "#(", items, ")", |f, x| x.fmt(f)),
            Pmt::Tuple(items) => write_seq(f, "{", items, "}", |f, x| x.fmt(f)),
            Pmt::U8Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::S8Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::U16Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::S16Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::U32Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::S32Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::U64Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::S64Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x}")),
            Pmt::F32Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{:.6}", *x as f64)),
            Pmt::F64Vector(v) => write_seq(f, "#[", v, "]", |f, x| write!(f, "{x:.15}")),
            Pmt::C32Vector(v) => write_seq(f, "#[", v, "]", |f, x| {
                write_tuple_complex(f, Complex64::new(x.re.into(), x.im.into()))
            }),
            Pmt::C64Vector(v) => write_seq(f, "#[", v, "]", |f, x| write_tuple_complex(f, *x)),
        }
    }
}

/// Writes a pair as Scheme does: a chain of pairs as a list, `.` before a final non-list cdr.
fn write_pair(f: &mut Formatter<'_>, car: &Pmt, cdr: &Pmt) -> fmt::Result {
    write!(f, "({car}")?;
    let mut tail = cdr;
    loop {
        match tail {
            Pmt::Pair(pair) => {
                write!(f, " {}", pair.0)?;
                tail = &pair.1;
            }
            // A dict is a list of pairs in GNU Radio, so it continues the list.
            Pmt::Dict(entries) => {
                for (key, value) in entries.iter() {
                    f.write_char(' ')?;
                    write_pair(f, key, value)?;
                }
                break;
            }
            Pmt::Null => break,
            other => {
                write!(f, " . {other}")?;
                break;
            }
        }
    }
    f.write_char(')')
}

fn write_entries(f: &mut Formatter<'_>, entries: &[(Pmt, Pmt)]) -> fmt::Result {
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            f.write_char(' ')?;
        }
        write_pair(f, key, value)?;
    }
    Ok(())
}

fn write_seq<T>(
    f: &mut Formatter<'_>,
    open: &str,
    items: &[T],
    close: &str,
    write_item: impl Fn(&mut Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    f.write_str(open)?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_char(' ')?;
        }
        write_item(f, item)?;
    }
    f.write_str(close)
}

/// `std::complex` streamed: `(re,im)`.
fn write_tuple_complex(f: &mut Formatter<'_>, c: Complex64) -> fmt::Result {
    f.write_char('(')?;
    write_g(f, c.re)?;
    f.write_char(',')?;
    write_g(f, c.im)?;
    f.write_char(')')
}

/// C's `printf("%g", x)`: six significant digits, scientific notation below 1e-4 and from 1e6
/// on, trailing zeros dropped.
fn write_g(f: &mut Formatter<'_>, x: f64) -> fmt::Result {
    const PRECISION: i32 = 6;
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x.is_nan() {
        return write!(f, "{sign}nan");
    }
    if x.is_infinite() {
        return write!(f, "{sign}inf");
    }
    if x == 0.0 {
        return write!(f, "{sign}0");
    }
    // Rounding to six digits decides the exponent, as in C.
    let sci = format!("{:.*e}", (PRECISION - 1) as usize, x);
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..PRECISION).contains(&exponent) {
        let mantissa = trim_fraction(mantissa);
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        write!(f, "{mantissa}e{exp_sign}{:02}", exponent.abs())
    } else {
        let fixed = format!("{:.*}", (PRECISION - 1 - exponent) as usize, x);
        f.write_str(trim_fraction(&fixed))
    }
}

fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(x: f64) -> String {
        Pmt::Double(x).to_string()
    }

    #[test]
    fn doubles_print_like_printf_g() {
        assert_eq!(g(0.1), "0.1");
        assert_eq!(g(123456789.0), "1.23457e+08");
        assert_eq!(g(1e-5), "1e-05");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(100000.0), "100000");
        assert_eq!(g(999999.5), "1e+06");
        assert_eq!(g(-1.5), "-1.5");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(1e300), "1e+300");
        assert_eq!(g(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn lists_and_dicts_print_as_scheme() {
        let improper = Pmt::pair(1, Pmt::pair(2, 3));
        assert_eq!(improper.to_string(), "(1 2 . 3)");
        let tail_dict = Pmt::pair(1, Pmt::dict_from([("a", 2)]));
        assert_eq!(tail_dict.to_string(), "(1 (a . 2))");
        assert_eq!(Pmt::Complex(Complex64::new(1.0, -2.0)).to_string(), "1+-2i");
    }
}
