//! The tokens of a GRC expression, read as Python reads them: numbers, strings with Python's
//! escapes, names and operators.

use super::expr_error::ExprError;
use super::python::{self, Num};
use num_complex::Complex64;
use radioflow_runtime::echo::{cut, cut_display};
use std::fmt::{self, Write};

type Result<T> = std::result::Result<T, ExprError>;

/// A token; `Name`s include Python's keywords (`if`, `lambda`).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
    Num(Num),
    Str(String),
    Name(String),
    Op(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Num(Num::Int(i)) => write!(f, "'{i}'"),
            Token::Num(Num::Float(x)) => write!(f, "'{}'", python::float_repr(*x)),
            Token::Num(Num::Complex(c)) => {
                f.write_char('\'')?;
                python::write_complex(f, *c)?;
                f.write_char('\'')
            }
            Token::Str(s) => f.write_str(&cut_display(&StrRepr(s))),
            Token::Name(n) => write!(f, "'{}'", cut(n)),
            Token::Op(o) => write!(f, "'{o}'"),
        }
    }
}

/// A string shown as Python's `repr` shows it.
struct StrRepr<'a>(&'a str);

impl fmt::Display for StrRepr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        python::write_str_repr(f, self.0)
    }
}

const OPS: &[&str] = &[
    "**", "//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",", ".", "<",
    ">", ":", "=", "{", "}",
];

pub(super) fn tokenize(text: &str) -> Result<Vec<Token>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if c.is_whitespace() {
            i += c.len_utf8();
        } else if c.is_ascii_digit()
            || (c == '.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            let hex = bytes[i..].starts_with(b"0x") || bytes[i..].starts_with(b"0X");
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'.'
                    || bytes[i] == b'_'
                    || (matches!(bytes[i], b'+' | b'-')
                        && !hex
                        && matches!(bytes[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            out.push(Token::Num(number(&text[start..i])?));
        } else if c == '"' || c == '\'' {
            let (s, end) = string(text, i)?;
            out.push(Token::Str(s));
            i = end;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while let Some(c) = text[i..].chars().next() {
                if !(c.is_alphanumeric() || c == '_') {
                    break;
                }
                i += c.len_utf8();
            }
            out.push(Token::Name(text[start..i].to_owned()));
        } else if let Some(op) = OPS.iter().find(|op| bytes[i..].starts_with(op.as_bytes())) {
            i += op.len();
            out.push(Token::Op(op));
        } else {
            return Err(ExprError::Syntax(format!(
                "unexpected '{c}' in {}",
                cut(text)
            )));
        }
    }
    Ok(out)
}

/// The string literal opening at byte `start` of `text` (Python's escapes) and the byte
/// after it.
fn string(text: &str, start: usize) -> Result<(String, usize)> {
    let unterminated = || ExprError::Syntax(format!("unterminated string in {}", cut(text)));
    let mut chars = text[start..].char_indices();
    let (_, quote) = chars.next().expect("a quote opens the string");
    let mut s = String::new();
    while let Some((_, c)) = chars.next() {
        if c == quote {
            let end = chars.next().map_or(text.len(), |(j, _)| start + j);
            return Ok((s, end));
        }
        if c != '\\' {
            s.push(c);
            continue;
        }
        let (_, e) = chars.next().ok_or_else(unterminated)?;
        let hex = |chars: &mut std::str::CharIndices<'_>, n: usize| -> Result<char> {
            let digits: String = chars.by_ref().take(n).map(|(_, c)| c).collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .filter(|_| digits.len() == n)
                .and_then(char::from_u32)
                .ok_or_else(|| {
                    ExprError::Syntax(format!("bad escape '\\{e}{}' in a string", cut(&digits)))
                })
        };
        match e {
            '\n' => {}
            '\\' | '\'' | '"' => s.push(e),
            'a' => s.push('\x07'),
            'b' => s.push('\x08'),
            'f' => s.push('\x0c'),
            'n' => s.push('\n'),
            'r' => s.push('\r'),
            't' => s.push('\t'),
            'v' => s.push('\x0b'),
            'x' => s.push(hex(&mut chars, 2)?),
            'u' => s.push(hex(&mut chars, 4)?),
            'U' => s.push(hex(&mut chars, 8)?),
            '0'..='7' => {
                // Up to three octal digits.
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    let rest = chars.as_str();
                    match rest.chars().next().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                s.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            // Python keeps an unknown escape as written.
            other => {
                s.push('\\');
                s.push(other);
            }
        }
    }
    Err(unterminated())
}

/// A number literal, as Python reads it.
fn number(s: &str) -> Result<Num> {
    let bad = || ExprError::Syntax(format!("bad number '{}'", cut(s)));
    // Python allows one underscore between digits.
    let b = s.as_bytes();
    for (i, _) in s.match_indices('_') {
        if i == 0
            || i + 1 == b.len()
            || !b[i - 1].is_ascii_alphanumeric()
            || !b[i + 1].is_ascii_alphanumeric()
        {
            return Err(bad());
        }
    }
    let s2: String = s.chars().filter(|&c| c != '_').collect();
    let s = s2.as_str();
    let radix = match s.get(..2) {
        Some("0x" | "0X") => 16,
        Some("0o" | "0O") => 8,
        Some("0b" | "0B") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = &s[2..];
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return Err(bad());
        }
        return i64::from_str_radix(digits, radix)
            .map(Num::Int)
            .map_err(|_| ExprError::IntegerTooLarge(format!("the literal {}", cut(s))));
    }
    if let Some(im) = s.strip_suffix(['j', 'J']) {
        return float_literal(im)
            .map(|x| Num::Complex(Complex64::new(0.0, x)))
            .ok_or_else(bad);
    }
    if s.bytes().all(|c| c.is_ascii_digit()) {
        if s.len() > 1 && s.starts_with('0') && s.bytes().any(|c| c != b'0') {
            return Err(ExprError::Syntax(format!(
                "leading zeros in a decimal integer are not allowed (Python): '{}' (0o for octal)",
                cut(s)
            )));
        }
        return s
            .parse::<i64>()
            .map(Num::Int)
            .map_err(|_| ExprError::IntegerTooLarge(format!("the literal {}", cut(s))));
    }
    float_literal(s).map(Num::Float).ok_or_else(bad)
}

/// A float literal: digits with a point and/or an exponent (Rust also reads `inf` and `nan`,
/// which Python's literals are not).
fn float_literal(s: &str) -> Option<f64> {
    let valid = s
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    valid.then(|| s.parse().ok()).flatten()
}
