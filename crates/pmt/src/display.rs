//! Printing in GNU Radio's notation (`pmt::write_string`, Python's `str(pmt)`).

use std::fmt::{self, Debug, Display, Formatter, Write};

use crate::walk::Stack;
use crate::{Complex64, Pmt};

/// Prints like GNU Radio: `#t`, `()`, `(a . 1)`, `(1 2 3)`, `((key . value) ...)` for dicts,
/// `#(...)` for vectors, `{...}` for tuples and `#[...]` for uniform vectors. Doubles print as
/// C's `%g`, `f32` and `f64` vector elements as `%f` and `%.15f`.
impl Display for Pmt {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        print(f, self, |f, task, stack| match task {
            Task::Value(Pmt::Pair(pair)) => {
                f.write_char('(')?;
                stack.push(Task::Tail(&pair.1));
                stack.push(Task::Value(&pair.0));
                Ok(())
            }
            Task::Value(Pmt::Dict(entries)) => {
                f.write_char('(')?;
                push_text(stack, ")");
                stack.push(Task::Entries(entries, true));
                Ok(())
            }
            Task::Value(Pmt::Vector(items)) => open_items(f, stack, "#(", items, " ", ")"),
            Task::Value(Pmt::Tuple(items)) => open_items(f, stack, "{", items, " ", "}"),
            Task::Value(leaf) => write_leaf(f, leaf),
            // Scheme's notation: a chain of pairs is a list, `.` goes before a final non-list
            // cdr, and a dict (a list of pairs in GNU Radio) continues the list.
            Task::Tail(tail) => match tail {
                Pmt::Pair(pair) => {
                    f.write_char(' ')?;
                    stack.push(Task::Tail(&pair.1));
                    stack.push(Task::Value(&pair.0));
                    Ok(())
                }
                Pmt::Null => f.write_char(')'),
                Pmt::Dict(entries) => {
                    push_text(stack, ")");
                    stack.push(Task::Entries(entries, false));
                    Ok(())
                }
                other => {
                    f.write_str(" . ")?;
                    push_text(stack, ")");
                    stack.push(Task::Value(other));
                    Ok(())
                }
            },
            Task::Entries(entries, first) => {
                let Some(((key, value), rest)) = entries.split_first() else {
                    return Ok(());
                };
                f.write_str(if first { "(" } else { " (" })?;
                stack.push(Task::Entries(rest, false));
                stack.push(Task::Tail(value));
                stack.push(Task::Value(key));
                Ok(())
            }
            Task::Items(..) | Task::Text(..) => unreachable!("handled by `print`"),
        })
    }
}

/// The derived format (`Pair((Int(1), Null))`), always on one line: `{:#?}` prints the same.
impl Debug for Pmt {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        print(f, self, |f, task, stack| match task {
            Task::Value(Pmt::Pair(pair)) => {
                f.write_str("Pair((")?;
                push_text(stack, "))");
                stack.push(Task::Value(&pair.1));
                stack.push(Task::Text(", ", 1));
                stack.push(Task::Value(&pair.0));
                Ok(())
            }
            Task::Value(Pmt::Dict(entries)) => {
                f.write_str("Dict([")?;
                push_text(stack, "])");
                stack.push(Task::Entries(entries, true));
                Ok(())
            }
            Task::Value(Pmt::Vector(items)) => open_items(f, stack, "Vector([", items, ", ", "])"),
            Task::Value(Pmt::Tuple(items)) => open_items(f, stack, "Tuple([", items, ", ", "])"),
            Task::Value(leaf) => debug_leaf(f, leaf),
            Task::Entries(entries, first) => {
                let Some(((key, value), rest)) = entries.split_first() else {
                    return Ok(());
                };
                f.write_str(if first { "(" } else { ", (" })?;
                stack.push(Task::Entries(rest, false));
                push_text(stack, ")");
                stack.push(Task::Value(value));
                stack.push(Task::Text(", ", 1));
                stack.push(Task::Value(key));
                Ok(())
            }
            Task::Tail(_) | Task::Items(..) | Task::Text(..) => unreachable!("not pushed"),
        })
    }
}

/// A piece of printing left to do. Containers push their parts in reverse, so the stack grows
/// with the nesting of a value but not with the length of a list.
#[derive(Clone, Copy)]
enum Task<'a> {
    Value(&'a Pmt),
    /// What follows the car of a list: the cdr of the pair just opened.
    Tail(&'a Pmt),
    /// Dict entries, the bool telling whether the first of them opens the dict.
    Entries(&'a [(Pmt, Pmt)], bool),
    /// Items of a vector or tuple, each written after the separator.
    Items(&'a [Pmt], &'static str),
    /// Text written `n` times: the closing brackets of a chain collapse into one task.
    Text(&'static str, usize),
}

/// Runs the tasks that `root` unfolds into; `step` does those of [`Task::Value`],
/// [`Task::Tail`] and [`Task::Entries`], which differ between formats.
fn print<'a>(
    f: &mut Formatter<'_>,
    root: &'a Pmt,
    mut step: impl FnMut(&mut Formatter<'_>, Task<'a>, &mut Stack<Task<'a>>) -> fmt::Result,
) -> fmt::Result {
    if !root.is_container() {
        return step(f, Task::Value(root), &mut Stack::new());
    }
    let mut stack = Stack::new();
    stack.push(Task::Value(root));
    while let Some(task) = stack.pop() {
        match task {
            Task::Text(text, n) => {
                for _ in 0..n {
                    f.write_str(text)?;
                }
            }
            Task::Items(items, separator) => {
                if let Some((item, rest)) = items.split_first() {
                    f.write_str(separator)?;
                    stack.push(Task::Items(rest, separator));
                    stack.push(Task::Value(item));
                }
            }
            task => step(f, task, &mut stack)?,
        }
    }
    Ok(())
}

fn push_text<'a>(stack: &mut Stack<Task<'a>>, text: &'static str) {
    match stack.top_mut() {
        Some(Task::Text(top, n)) if *top == text => *n += 1,
        _ => stack.push(Task::Text(text, 1)),
    }
}

fn open_items<'a>(
    f: &mut Formatter<'_>,
    stack: &mut Stack<Task<'a>>,
    open: &str,
    items: &'a [Pmt],
    separator: &'static str,
    close: &'static str,
) -> fmt::Result {
    f.write_str(open)?;
    let Some((first, rest)) = items.split_first() else {
        return f.write_str(close);
    };
    push_text(stack, close);
    stack.push(Task::Items(rest, separator));
    stack.push(Task::Value(first));
    Ok(())
}

/// Writes a value that holds no other [`Pmt`] in GNU Radio's notation.
fn write_leaf(f: &mut Formatter<'_>, leaf: &Pmt) -> fmt::Result {
    match leaf {
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
        Pmt::Pair(_) | Pmt::Dict(_) | Pmt::Vector(_) | Pmt::Tuple(_) => {
            unreachable!("containers are printed by `print`")
        }
    }
}

/// Writes a value that holds no other [`Pmt`] as `#[derive(Debug)]` would.
fn debug_leaf(f: &mut Formatter<'_>, leaf: &Pmt) -> fmt::Result {
    match leaf {
        Pmt::Null => f.write_str("Null"),
        Pmt::Bool(b) => write!(f, "Bool({b:?})"),
        Pmt::Symbol(name) => write!(f, "Symbol({:?})", &**name),
        Pmt::Int(i) => write!(f, "Int({i:?})"),
        Pmt::Uint64(u) => write!(f, "Uint64({u:?})"),
        Pmt::Double(d) => write!(f, "Double({d:?})"),
        Pmt::Complex(c) => write!(f, "Complex({c:?})"),
        Pmt::U8Vector(v) => write!(f, "U8Vector({:?})", &**v),
        Pmt::S8Vector(v) => write!(f, "S8Vector({:?})", &**v),
        Pmt::U16Vector(v) => write!(f, "U16Vector({:?})", &**v),
        Pmt::S16Vector(v) => write!(f, "S16Vector({:?})", &**v),
        Pmt::U32Vector(v) => write!(f, "U32Vector({:?})", &**v),
        Pmt::S32Vector(v) => write!(f, "S32Vector({:?})", &**v),
        Pmt::U64Vector(v) => write!(f, "U64Vector({:?})", &**v),
        Pmt::S64Vector(v) => write!(f, "S64Vector({:?})", &**v),
        Pmt::F32Vector(v) => write!(f, "F32Vector({:?})", &**v),
        Pmt::F64Vector(v) => write!(f, "F64Vector({:?})", &**v),
        Pmt::C32Vector(v) => write!(f, "C32Vector({:?})", &**v),
        Pmt::C64Vector(v) => write!(f, "C64Vector({:?})", &**v),
        Pmt::Pair(_) | Pmt::Dict(_) | Pmt::Vector(_) | Pmt::Tuple(_) => {
            unreachable!("containers are printed by `print`")
        }
    }
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
