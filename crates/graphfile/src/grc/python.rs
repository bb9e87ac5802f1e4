//! Python's arithmetic on the numbers of GRC expressions (`int` within 64 bits, `float`,
//! `complex`), following CPython 3's documented semantics so that every result is Python's
//! value or Python's error: `//` and `%` take the divisor's sign, `/` of two integers is
//! correctly rounded, `**` raises where Python raises (a float result out of range, zero to a
//! negative power) or turns complex, `round` goes to even (also to `n` digits, exactly),
//! `math` functions refuse what is out of their domain, and floats and complex numbers print
//! as Python's `repr`. An integer Python would carry past 64 bits is an error here
//! ([`ExprError::IntegerTooLarge`]): radioflow's integers, like every block parameter, are
//! 64-bit. (Written here: the crates that evaluate Python expressions run a Python.)

use super::expr_error::ExprError;
use num_complex::Complex64;
use std::fmt::{self, Write};

/// A number: Python's `bool` is an `int` here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
    Complex(Complex64),
}

/// A binary arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::FloorDiv => "//",
            Op::Mod => "%",
            Op::Pow => "**",
        })
    }
}

type Result<T> = std::result::Result<T, ExprError>;

fn zero_division(what: &str) -> ExprError {
    ExprError::ZeroDivision(what.to_owned())
}

fn overflow(what: &str) -> ExprError {
    ExprError::Overflow(what.to_owned())
}

impl Num {
    fn complex(self) -> Complex64 {
        match self {
            Num::Int(i) => Complex64::new(i as f64, 0.0),
            Num::Float(x) => Complex64::new(x, 0.0),
            Num::Complex(c) => c,
        }
    }

    /// The number as a float, `None` for a complex one.
    pub(crate) fn real(self) -> Option<f64> {
        match self {
            // Rounds to nearest, as Python's int-to-float conversion.
            Num::Int(i) => Some(i as f64),
            Num::Float(x) => Some(x),
            Num::Complex(_) => None,
        }
    }
}

/// `a op b`, Python's value or Python's error.
pub(crate) fn binary(op: Op, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => int_op(op, x, y),
        (Num::Complex(_), _) | (_, Num::Complex(_)) => complex_op(op, a.complex(), b.complex()),
        _ => float_op(
            op,
            a.real().unwrap_or_default(),
            b.real().unwrap_or_default(),
        ),
    }
}

fn int_op(op: Op, x: i64, y: i64) -> Result<Num> {
    let too_large = || ExprError::IntegerTooLarge(format!("{x} {op} {y}"));
    let modulo_by_zero = || zero_division("integer division or modulo by zero");
    Ok(Num::Int(match op {
        Op::Add => x.checked_add(y).ok_or_else(too_large)?,
        Op::Sub => x.checked_sub(y).ok_or_else(too_large)?,
        Op::Mul => x.checked_mul(y).ok_or_else(too_large)?,
        Op::Div => return int_true_div(x, y).map(Num::Float),
        Op::FloorDiv => {
            if y == 0 {
                return Err(modulo_by_zero());
            }
            // Only i64::MIN // -1 overflows (Python: 2**63).
            let q = x.checked_div(y).ok_or_else(too_large)?;
            if x.wrapping_rem(y) != 0 && ((x < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }
        }
        Op::Mod => {
            if y == 0 {
                return Err(modulo_by_zero());
            }
            // wrapping_rem: i64::MIN % -1 is 0, which Rust's `%` would panic on.
            let r = x.wrapping_rem(y);
            if r != 0 && ((r < 0) != (y < 0)) {
                r + y
            } else {
                r
            }
        }
        // Python: an int to a negative int power is float ** float.
        Op::Pow if y < 0 => return float_pow(x as f64, y as f64),
        Op::Pow => match u32::try_from(y) {
            Ok(e) => x.checked_pow(e).ok_or_else(too_large)?,
            Err(_) => match x {
                0 | 1 => x,
                -1 => 1 - 2 * (y & 1),
                _ => return Err(too_large()),
            },
        },
    }))
}

/// `x / y` correctly rounded, as Python divides integers (converting both to floats first
/// would round twice when they exceed 2^53).
fn int_true_div(x: i64, y: i64) -> Result<f64> {
    if y == 0 {
        return Err(zero_division("division by zero"));
    }
    const EXACT: u64 = 1 << 53;
    if x.unsigned_abs() <= EXACT && y.unsigned_abs() <= EXACT {
        return Ok(x as f64 / y as f64);
    }
    let negative = (x < 0) != (y < 0);
    let (a, b) = (u128::from(x.unsigned_abs()), u128::from(y.unsigned_abs()));
    if a == 0 {
        return Ok(if negative { -0.0 } else { 0.0 });
    }
    // A quotient of 55 or 56 bits, its last bit also set when the remainder is not zero,
    // rounds to 53 bits exactly as the true quotient would.
    let bits = |v: u128| 128 - v.leading_zeros() as i32;
    let shift = 55 + bits(b) - bits(a);
    let (n, d) = if shift >= 0 {
        (a << shift, b)
    } else {
        (a, b << -shift)
    };
    let q = (n / d) | u128::from(n % d != 0);
    // 2^-shift, exactly (shift is within -8..=118).
    let scale = f64::from_bits(((1023 - shift) as u64) << 52);
    let v = q as f64 * scale;
    Ok(if negative { -v } else { v })
}

/// Python's `math.fmod`-based floor division and modulo of floats (`_float_div_mod`).
fn float_div_mod(vx: f64, wx: f64) -> (f64, f64) {
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 {
        if (wx < 0.0) != (m < 0.0) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = 0f64.copysign(wx);
    }
    let floordiv = if div != 0.0 {
        let f = div.floor();
        if div - f > 0.5 {
            f + 1.0
        } else {
            f
        }
    } else {
        0f64.copysign(vx / wx)
    };
    (floordiv, m)
}

fn float_op(op: Op, x: f64, y: f64) -> Result<Num> {
    Ok(Num::Float(match op {
        Op::Add => x + y,
        Op::Sub => x - y,
        Op::Mul => x * y,
        Op::Div if y == 0.0 => return Err(zero_division("float division by zero")),
        Op::Div => x / y,
        Op::FloorDiv if y == 0.0 => return Err(zero_division("float floor division by zero")),
        Op::FloorDiv => float_div_mod(x, y).0,
        Op::Mod if y == 0.0 => return Err(zero_division("float modulo by zero")),
        Op::Mod => float_div_mod(x, y).1,
        Op::Pow => return float_pow(x, y),
    }))
}

fn is_odd_integer(x: f64) -> bool {
    x.abs() % 2.0 == 1.0
}

/// CPython's `float_pow`: a negative base to a fractional power is complex; a result out of
/// range is an OverflowError.
fn float_pow(iv: f64, iw: f64) -> Result<Num> {
    let float = |x| Ok(Num::Float(x));
    if iw == 0.0 {
        return float(1.0);
    }
    if iv.is_nan() {
        return float(iv);
    }
    if iw.is_nan() {
        return float(if iv == 1.0 { 1.0 } else { iw });
    }
    if iw.is_infinite() {
        let a = iv.abs();
        return float(if a == 1.0 {
            1.0
        } else if (iw > 0.0) == (a > 1.0) {
            iw.abs()
        } else {
            0.0
        });
    }
    if iv.is_infinite() {
        let odd = is_odd_integer(iw);
        return float(match (iw > 0.0, odd) {
            (true, true) => iv,
            (true, false) => iv.abs(),
            (false, true) => 0f64.copysign(iv),
            (false, false) => 0.0,
        });
    }
    if iv == 0.0 {
        if iw < 0.0 {
            return Err(zero_division("0.0 cannot be raised to a negative power"));
        }
        return float(if is_odd_integer(iw) { iv } else { 0.0 });
    }
    let mut base = iv;
    let mut negate = false;
    if iv < 0.0 {
        if iw != iw.floor() {
            return complex_pow(Complex64::new(iv, 0.0), Complex64::new(iw, 0.0)).map(Num::Complex);
        }
        base = -iv;
        negate = is_odd_integer(iw);
    }
    if base == 1.0 {
        return float(if negate { -1.0 } else { 1.0 });
    }
    let r = base.powf(iw);
    if r.is_infinite() {
        return Err(overflow(&format!(
            "{} ** {}: the result is out of a float's range",
            float_repr(iv),
            float_repr(iw)
        )));
    }
    float(if negate { -r } else { r })
}

fn complex_op(op: Op, a: Complex64, b: Complex64) -> Result<Num> {
    Ok(Num::Complex(match op {
        Op::Add => Complex64::new(a.re + b.re, a.im + b.im),
        Op::Sub => Complex64::new(a.re - b.re, a.im - b.im),
        Op::Mul => product(a, b),
        Op::Div => quotient(a, b).ok_or_else(|| zero_division("complex division by zero"))?,
        Op::FloorDiv | Op::Mod => {
            return Err(ExprError::Unsupported(format!(
                "'{op}' is not defined for complex numbers"
            )))
        }
        Op::Pow => complex_pow(a, b)?,
    }))
}

/// CPython's `_Py_c_prod`.
fn product(a: Complex64, b: Complex64) -> Complex64 {
    Complex64::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

/// CPython's `_Py_c_quot` (Smith's method); `None` for a zero divisor.
fn quotient(a: Complex64, b: Complex64) -> Option<Complex64> {
    let (abs_re, abs_im) = (b.re.abs(), b.im.abs());
    Some(if abs_re >= abs_im {
        if abs_re == 0.0 {
            return None;
        }
        let ratio = b.im / b.re;
        let denom = b.re + b.im * ratio;
        Complex64::new((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom)
    } else if abs_im >= abs_re {
        let ratio = b.re / b.im;
        let denom = b.re * ratio + b.im;
        Complex64::new((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom)
    } else {
        Complex64::new(f64::NAN, f64::NAN)
    })
}

/// CPython's `complex_pow`: small integer powers by repeated products, others in polar form.
fn complex_pow(a: Complex64, b: Complex64) -> Result<Complex64> {
    let one = Complex64::new(1.0, 0.0);
    let powu = |n: u64| {
        let (mut r, mut p, mut mask) = (one, a, 1u64);
        while mask > 0 && n >= mask {
            if n & mask != 0 {
                r = product(r, p);
            }
            mask <<= 1;
            p = product(p, p);
        }
        r
    };
    let p = if b.im == 0.0 && b.re == b.re.floor() && b.re.abs() <= 100.0 {
        let n = b.re as i64;
        if n > 0 {
            Some(powu(n.unsigned_abs()))
        } else {
            quotient(one, powu(n.unsigned_abs()))
        }
    } else if b.re == 0.0 && b.im == 0.0 {
        Some(one)
    } else if a.re == 0.0 && a.im == 0.0 {
        // (NaN exponents are not negative: 0j ** nan is 0j.)
        (b.im == 0.0 && (b.re >= 0.0 || b.re.is_nan())).then_some(Complex64::new(0.0, 0.0))
    } else {
        let vabs = a.re.hypot(a.im);
        let mut len = vabs.powf(b.re);
        let at = a.im.atan2(a.re);
        let mut phase = at * b.re;
        if b.im != 0.0 {
            len /= (at * b.im).exp();
            phase += b.im * vabs.ln();
        }
        // cos and sin of an infinite phase set errno to EDOM, which CPython reports as this
        // ZeroDivisionError.
        (!phase.is_infinite()).then(|| Complex64::new(len * phase.cos(), len * phase.sin()))
    };
    let p = p.ok_or_else(|| zero_division("0.0 to a negative or complex power"))?;
    if p.re.is_infinite() || p.im.is_infinite() {
        return Err(overflow(
            "complex exponentiation: the result is out of range",
        ));
    }
    Ok(p)
}

/// `-x`.
pub(crate) fn negate(x: Num) -> Result<Num> {
    Ok(match x {
        Num::Int(i) => Num::Int(
            i.checked_neg()
                .ok_or_else(|| ExprError::IntegerTooLarge(format!("-({i})")))?,
        ),
        Num::Float(f) => Num::Float(-f),
        Num::Complex(c) => Num::Complex(-c),
    })
}

/// `abs(x)`.
pub(crate) fn abs(x: Num) -> Result<Num> {
    Ok(match x {
        Num::Int(i) => Num::Int(
            i.checked_abs()
                .ok_or_else(|| ExprError::IntegerTooLarge(format!("abs({i})")))?,
        ),
        Num::Float(f) => Num::Float(f.abs()),
        Num::Complex(c) => {
            if c.re.is_infinite() || c.im.is_infinite() {
                Num::Float(f64::INFINITY)
            } else if c.re.is_nan() || c.im.is_nan() {
                Num::Float(f64::NAN)
            } else {
                let r = c.re.hypot(c.im);
                if r.is_infinite() {
                    return Err(overflow("abs(): absolute value too large"));
                }
                Num::Float(r)
            }
        }
    })
}

/// `int(x)` of a float: toward zero.
pub(crate) fn float_to_int(x: f64) -> Result<i64> {
    if x.is_nan() {
        return Err(ExprError::InvalidValue(
            "cannot convert float NaN to integer".into(),
        ));
    }
    if x.is_infinite() {
        return Err(overflow("cannot convert float infinity to integer"));
    }
    let t = x.trunc();
    // -2^63 <= t < 2^63, both bounds exact in f64.
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t) {
        Ok(t as i64)
    } else {
        Err(ExprError::IntegerTooLarge(format!(
            "int({})",
            float_repr(x)
        )))
    }
}

/// `round(x)` of a float: to the nearest integer, halves to even.
pub(crate) fn round_float_to_int(x: f64) -> Result<i64> {
    float_to_int(x.round_ties_even())
}

/// `round(x, n)` of an integer: to a multiple of 10^-n, halves to even.
pub(crate) fn round_int(x: i64, n: i64) -> Result<i64> {
    if n >= 0 {
        return Ok(x);
    }
    // |x| < 2^63 < 0.5 * 10^20: rounding to 10^20 or more gives 0.
    if n < -19 {
        return Ok(0);
    }
    let p = 10i128.pow(n.unsigned_abs() as u32);
    let x128 = i128::from(x);
    let (mut q, r) = (x128.div_euclid(p), x128.rem_euclid(p));
    if 2 * r > p || (2 * r == p && q % 2 != 0) {
        q += 1;
    }
    i64::try_from(q * p).map_err(|_| ExprError::IntegerTooLarge(format!("round({x}, {n})")))
}

/// `round(x, n)` of a float: the float nearest to `x` rounded exactly (in decimal) to `n`
/// digits after the point, halves to even, as CPython does with its correctly rounded
/// decimal conversion.
pub(crate) fn round_float(x: f64, n: i64) -> Result<f64> {
    // CPython's NDIGITS_MAX and NDIGITS_MIN: beyond them a double does not change, or is 0.
    if !x.is_finite() || n > 323 {
        return Ok(x);
    }
    if n < -308 {
        return Ok(0.0 * x);
    }
    if n >= 0 {
        // Rust formats the exact binary value, rounding halves to even: the decimal rounding
        // Python asks of dtoa.
        let digits = format!("{x:.0$}", n as usize);
        return Ok(digits.parse().expect("a formatted float reads back"));
    }
    // Rounding to 10^k, k = -n: the integer part's exact digits decide, the fraction only
    // breaks a tie.
    let k = n.unsigned_abs() as usize;
    let whole = x.trunc();
    let exact_tie_possible = x == whole;
    let digits = format!("{:.0}", whole.abs());
    let (kept, dropped) = if digits.len() > k {
        digits.split_at(digits.len() - k)
    } else {
        ("", digits.as_str())
    };
    // The dropped digits against half of 10^k (written with k digits: 5 then zeros).
    let dropped = format!("{dropped:0>k$}");
    let half = format!("5{}", "0".repeat(k - 1));
    let last_kept_odd = kept.bytes().last().is_some_and(|d| (d - b'0') % 2 == 1);
    let up = match dropped.cmp(&half) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => !exact_tie_possible || last_kept_odd,
    };
    let mut kept: Vec<u8> = if kept.is_empty() {
        vec![b'0']
    } else {
        kept.bytes().collect()
    };
    if up {
        // Add one to the decimal digits.
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, b'1');
                break;
            }
            i -= 1;
            if kept[i] == b'9' {
                kept[i] = b'0';
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    let text = format!(
        "{}{}{}",
        if x.is_sign_negative() { "-" } else { "" },
        String::from_utf8(kept).expect("digits"),
        "0".repeat(k)
    );
    let r: f64 = text.parse().expect("digits read back");
    if r.is_infinite() {
        return Err(overflow("round(): rounded value too large to represent"));
    }
    Ok(r)
}

/// A `math` function's result, or the error CPython's `math` module raises for it: a NaN
/// from a number is a domain error, an infinity from a finite number a range error
/// (OverflowError) where the function can overflow, else a domain error.
pub(crate) fn math_result(name: &str, x: f64, r: f64, can_overflow: bool) -> Result<f64> {
    if r.is_nan() && !x.is_nan() || r.is_infinite() && x.is_finite() && !can_overflow {
        return Err(ExprError::InvalidValue(format!(
            "{name}({}): math domain error",
            float_repr(x)
        )));
    }
    if r.is_infinite() && x.is_finite() {
        return Err(overflow(&format!(
            "{name}({}): math range error",
            float_repr(x)
        )));
    }
    Ok(r)
}

/// Compares an integer and a float exactly, as Python does (`None` with NaN).
pub(crate) fn compare_int_float(i: i64, f: f64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering::*;
    if f.is_nan() {
        return None;
    }
    if f >= 9_223_372_036_854_775_808.0 {
        return Some(Less);
    }
    if f < -9_223_372_036_854_775_808.0 {
        return Some(Greater);
    }
    let t = f.trunc();
    Some(i.cmp(&(t as i64)).then_with(|| {
        let frac = f - t;
        if frac > 0.0 {
            Less
        } else if frac < 0.0 {
            Greater
        } else {
            Equal
        }
    }))
}

/// Python's `repr` of a float: the shortest digits that read back to it, in positional
/// notation from 1e-4 to below 1e16 (with `.0` if it has no fraction), else in exponent
/// notation (`1e+16`, `1.5e-07`).
pub(crate) fn float_repr(x: f64) -> String {
    let mut s = String::new();
    write_float(&mut s, x, false, true).expect("a String takes any text");
    s
}

/// Writes `x` as Python's `repr` does; `sign` always writes a sign (complex parts), and
/// `dot_zero` adds `.0` to a whole number in positional notation.
fn write_float(f: &mut impl Write, x: f64, sign: bool, dot_zero: bool) -> fmt::Result {
    if x.is_sign_negative() && !x.is_nan() {
        f.write_char('-')?;
    } else if sign {
        f.write_char('+')?;
    }
    if x.is_nan() {
        return f.write_str("nan");
    }
    if x.is_infinite() {
        return f.write_str("inf");
    }
    // Rust's `{:e}`: the shortest digits that read back, `d.ddde-x`. Where two strings of
    // that length are as close to the value, Python takes the even one: the value rounded
    // exactly to that many digits (halves to even), when it reads back too.
    let shortest = format!("{:e}", x.abs());
    let length = shortest
        .split_once('e')
        .map_or(1, |(m, _)| m.len() - usize::from(m.contains('.')));
    let nearest = format!("{:.*e}", length - 1, x.abs());
    let sci = if nearest.parse() == Ok(x.abs()) {
        nearest
    } else {
        shortest
    };
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    // The decimal point's position after the first digit, as dtoa reports it.
    let point = exponent + 1;
    if !(-4 < point && point <= 16) {
        let (first, rest) = digits.split_at(1);
        f.write_str(first)?;
        if !rest.is_empty() {
            write!(f, ".{rest}")?;
        }
        let e = point - 1;
        return write!(f, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    }
    if point <= 0 {
        return write!(f, "0.{}{digits}", "0".repeat(point.unsigned_abs() as usize));
    }
    let point = point as usize;
    if point >= digits.len() {
        write!(f, "{digits}{}", "0".repeat(point - digits.len()))?;
        if dot_zero {
            f.write_str(".0")?;
        }
        Ok(())
    } else {
        write!(f, "{}.{}", &digits[..point], &digits[point..])
    }
}

/// Python's `repr` of a complex number: `2j`, `(1+2j)`, `(-0-1j)`, `(nan+infj)`.
pub(crate) fn write_complex(f: &mut impl Write, c: Complex64) -> fmt::Result {
    if c.re == 0.0 && c.re.is_sign_positive() {
        write_float(f, c.im, false, false)?;
        return f.write_char('j');
    }
    f.write_char('(')?;
    write_float(f, c.re, false, false)?;
    write_float(f, c.im, true, false)?;
    f.write_str("j)")
}

/// Python's `repr` of a string: in single quotes unless it holds one and no double quote.
pub(crate) fn write_str_repr(f: &mut impl Write, s: &str) -> fmt::Result {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    f.write_char(quote)?;
    for c in s.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c == quote => write!(f, "\\{c}")?,
            c if (c as u32) < 0x20 || c as u32 == 0x7f => write!(f, "\\x{:02x}", c as u32)?,
            c if c.is_control() && (c as u32) < 0x100 => write!(f, "\\x{:02x}", c as u32)?,
            c if c.is_control() && (c as u32) < 0x1_0000 => write!(f, "\\u{:04x}", c as u32)?,
            c if c.is_control() => write!(f, "\\U{:08x}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char(quote)
}

/// How many of (Python's `len(range(a, b, s))`, numpy's integer `arange`) `a, a + s, a + 2s...` lie before `b` (`s` not 0): `ceil((b - a) / s)`, at
/// least 0.
pub(crate) fn range_len(a: i128, b: i128, s: i128) -> i128 {
    if s > 0 && b > a {
        (b - a - 1) / s + 1
    } else if s < 0 && a > b {
        (a - b - 1) / -s + 1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(x: f64) -> String {
        float_repr(x)
    }

    #[test]
    fn floats_print_as_python_s_repr() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (2.0, "2.0"),
            (0.1, "0.1"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.5e-7, "1.5e-07"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123.456, "123.456"),
            (1e300, "1e+300"),
            (-2.5e-300, "-2.5e-300"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (5e-324, "5e-324"),
            // Two 16-digit strings read back; Python writes the even one.
            (9007199254740993.0 / 10.0, "900719925474099.2"),
        ];
        for (x, want) in cases {
            assert_eq!(repr(x), want, "{x:e}");
        }
        let c = |re, im| {
            let mut s = String::new();
            write_complex(&mut s, Complex64::new(re, im)).unwrap();
            s
        };
        assert_eq!(c(0.0, 2.0), "2j");
        assert_eq!(c(1.0, 2.0), "(1+2j)");
        assert_eq!(c(-0.0, -1.0), "(-0-1j)");
        assert_eq!(c(1.5, -0.0), "(1.5-0j)");
        assert_eq!(c(f64::NAN, f64::INFINITY), "(nan+infj)");
        assert_eq!(c(0.0, 1e16), "1e+16j");
    }

    #[test]
    fn integer_division_is_correctly_rounded() {
        // 2^62 + 2^9 + 1 over 3: converting first would round the dividend.
        let x = (1i64 << 62) + (1 << 9) + 1;
        let want = 1537228672809129472.0; // Python: (2**62 + 2**9 + 1) / 3
        assert_eq!(int_true_div(x, 3).unwrap(), want);
        assert_eq!(int_true_div(i64::MIN, -1).unwrap(), 2f64.powi(63));
        assert_eq!(int_true_div(1, i64::MAX).unwrap(), 1.0842021724855044e-19);
        assert_eq!(
            int_true_div(0, -(1 << 60)).unwrap().to_bits(),
            (-0.0f64).to_bits()
        );
    }

    #[test]
    fn rounding_to_digits_is_exact_with_halves_to_even() {
        assert_eq!(round_float(2.675, 2).unwrap(), 2.67);
        assert_eq!(round_float(0.125, 2).unwrap(), 0.12);
        assert_eq!(round_float(1.23456, 2).unwrap(), 1.23);
        assert_eq!(round_float(1234.5, -2).unwrap(), 1200.0);
        assert_eq!(round_float(1250.0, -2).unwrap(), 1200.0);
        assert_eq!(round_float(1350.0, -2).unwrap(), 1400.0);
        assert_eq!(round_float(1250.0001, -2).unwrap(), 1300.0);
        assert_eq!(round_float(500.0, -3).unwrap(), 0.0);
        assert_eq!(round_float(501.0, -3).unwrap(), 1000.0);
        assert_eq!(round_float(9999.0, -1).unwrap(), 10000.0);
        assert_eq!(
            round_float(-4.0, -1).unwrap().to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(round_float(1e300, -299).unwrap(), 1e300);
        assert!(round_float(1.7976931348623157e308, -308).is_err());
        assert_eq!(round_int(25, -1).unwrap(), 20);
        assert_eq!(round_int(35, -1).unwrap(), 40);
        assert_eq!(round_int(-25, -1).unwrap(), -20);
        assert_eq!(round_int(-26, -1).unwrap(), -30);
        assert!(round_int(i64::MAX, -1).is_err());
        assert!(round_int(6_000_000_000_000_000_000, -19).is_err());
        assert_eq!(round_int(4_000_000_000_000_000_000, -19).unwrap(), 0);
        assert_eq!(round_int(i64::MIN, -20).unwrap(), 0);
        assert_eq!(round_float_to_int(2.5).unwrap(), 2);
        assert_eq!(round_float_to_int(-3.5).unwrap(), -4);
    }
}
