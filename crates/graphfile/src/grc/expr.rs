//! The safe subset of Python that GRC parameters are written in: numbers (with `1e6`, `1j`,
//! `0x1f`), strings, `True`/`False`/`None`, lists and tuples, `+ - * / // % **`, parentheses,
//! indexing, variables, and a fixed set of functions and constants (`math`/`numpy`
//! functions, `int`, `float`, `complex`, `abs`, `min`, `max`, `round`, `len`, `str`, `firdes`
//! designs, `window.WIN_*`, `analog.GR_*_WAVE`, `pmt.intern`/`from_long`/`from_double`/
//! `PMT_T`...). Nothing is executed: anything else is an error naming what is not supported.
//! Arithmetic is Python's (`python.rs`), with 64-bit integers.
//!
//! Everything is bounded, so that a hostile file is an error, never a crash or a machine out
//! of memory: expressions nest at most [`MAX_DEPTH`] levels (the parser recurses, within a
//! 2 MiB stack), a list or string holds at most [`MAX_ITEMS`] items, and the expressions of
//! one file make at most [`MAX_TOTAL_ITEMS`] in all. Variables are evaluated in dependency
//! order with a stack of their own, so a chain of any length costs no recursion.
//!
//! (A hand-written recursive-descent evaluator: no crate evaluates Python expressions
//! without running a Python, and running one is what this refuses to do.)

use super::expr_error::{ExprError, MAX_DEPTH, MAX_ITEMS, MAX_TOTAL_ITEMS};
use super::python::{self, Num, Op};
use num_complex::Complex64;
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::Pmt;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write};

/// A value of an evaluated expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer (Python `int`, within i64).
    Int(i64),
    /// A float.
    Float(f64),
    /// A complex number.
    Complex(Complex64),
    /// `True` or `False`.
    Bool(bool),
    /// A string.
    Str(String),
    /// A list or tuple.
    List(Vec<Value>),
    /// A PMT (from `pmt.*`).
    Pmt(Pmt),
    /// A named constant of a GNU Radio module (`analog.GR_COS_WAVE`, `window.WIN_HAMMING`).
    Constant(&'static str),
    /// `None`.
    None,
}

type Result<T> = std::result::Result<T, ExprError>;

/// Python's `repr`: `1.0`, `(1+2j)`, `'text'`, `[1, 'a']`, `True`, `None`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => f.write_str(&python::float_repr(*x)),
            Value::Complex(c) => python::write_complex(f, *c),
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Str(s) => python::write_str_repr(f, s),
            Value::List(v) => {
                f.write_char('[')?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_char(']')
            }
            Value::Pmt(p) => write!(f, "{p}"),
            Value::Constant(c) => f.write_str(c),
            Value::None => f.write_str("None"),
        }
    }
}

impl Value {
    /// The value as a float (ints and bools convert, like Python's arithmetic).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(i) => Some(i as f64),
            Value::Float(x) => Some(x),
            Value::Bool(b) => Some(f64::from(u8::from(b))),
            _ => None,
        }
    }

    /// The value as a PMT, the form block parameters take.
    pub fn to_pmt(&self) -> Pmt {
        match self {
            Value::Int(i) => Pmt::Int(*i),
            Value::Float(x) => Pmt::Double(*x),
            Value::Complex(c) => Pmt::Complex(*c),
            Value::Bool(b) => Pmt::Bool(*b),
            Value::Str(s) => Pmt::symbol(s.as_str()),
            Value::List(v) => Pmt::Vector(v.iter().map(Value::to_pmt).collect::<Vec<_>>().into()),
            Value::Pmt(p) => p.clone(),
            Value::Constant(c) => Pmt::symbol(*c),
            Value::None => Pmt::Null,
        }
    }

    /// A number, with Python's `bool` as an `int`.
    fn num(&self) -> Option<Num> {
        Some(match *self {
            Value::Int(i) => Num::Int(i),
            Value::Bool(b) => Num::Int(i64::from(b)),
            Value::Float(x) => Num::Float(x),
            Value::Complex(c) => Num::Complex(c),
            _ => return None,
        })
    }

    /// An integer usable as a count or an index (Python's `__index__`: int or bool).
    fn index(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            Value::Bool(b) => Some(i64::from(b)),
            _ => None,
        }
    }

    /// Python's type name, for errors.
    fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(_) => "complex",
            Value::Bool(_) => "bool",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Pmt(_) => "pmt",
            Value::Constant(_) => "constant",
            Value::None => "NoneType",
        }
    }

    /// Items (list elements at every depth plus string bytes) and list nesting depth.
    fn measure(&self) -> (usize, usize) {
        match self {
            Value::List(items) => {
                let (mut n, mut depth) = (items.len(), 0);
                for x in items {
                    let (a, d) = x.measure();
                    n = n.saturating_add(a);
                    depth = depth.max(d);
                }
                (n, depth + 1)
            }
            Value::Str(s) => (s.len(), 0),
            _ => (0, 0),
        }
    }
}

impl From<Num> for Value {
    fn from(n: Num) -> Self {
        match n {
            Num::Int(i) => Value::Int(i),
            Num::Float(x) => Value::Float(x),
            Num::Complex(c) => Value::Complex(c),
        }
    }
}

/// What the expressions of one file have made so far, against [`MAX_TOTAL_ITEMS`].
#[derive(Debug, Default)]
struct Budget {
    made: usize,
}

impl Budget {
    /// Counts a new list or string of `items` (its depth `depth`), refusing one over a limit.
    fn make(&mut self, items: usize, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(ExprError::TooDeep);
        }
        if items > MAX_ITEMS {
            return Err(ExprError::TooLarge);
        }
        self.made = self.made.saturating_add(items);
        if self.made > MAX_TOTAL_ITEMS {
            return Err(ExprError::TooMuch);
        }
        Ok(())
    }

    /// `v` owned: a variable's value is copied, and the copy counted.
    fn own(&mut self, v: Cow<'_, Value>) -> Result<Value> {
        match v {
            Cow::Owned(v) => Ok(v),
            Cow::Borrowed(v) => {
                let (items, depth) = v.measure();
                self.make(items, depth)?;
                Ok(v.clone())
            }
        }
    }
}

/// Evaluates the GRC parameter `expression` with the flowgraph variables `variables`
/// (name, expression), as `radioflow run` does for a `.grc` file: the variables it names
/// first, in dependency order, each once.
///
/// ```
/// use radioflow_graphfile::grc::{evaluate, ExprError, Value};
///
/// let vars = [("samp_rate", "32e3"), ("decim", "4")];
/// assert_eq!(evaluate("samp_rate / decim", &vars), Ok(Value::Float(8000.0)));
/// assert_eq!(evaluate("round(2.5) + 7 // -2", &vars), Ok(Value::Int(-2)));
/// assert!(matches!(evaluate("2**64", &vars), Err(ExprError::IntegerTooLarge(_))));
/// ```
///
/// # Errors
/// What is not supported or wrong, as an [`ExprError`]; a variable's own error names it.
pub fn evaluate(expression: &str, variables: &[(&str, &str)]) -> Result<Value> {
    let mut vars = Variables::new(
        variables
            .iter()
            .map(|&(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
    );
    vars.eval(expression)
}

/// The variables of a flowgraph, each evaluated once, when first needed, and the budget of
/// items every expression of the file shares.
pub(crate) struct Variables {
    raw: HashMap<String, String>,
    done: HashMap<String, Result<Value>>,
    budget: Budget,
}

/// A variable being evaluated: its tokens, the variables it names, the next one to visit.
struct Pending {
    name: String,
    tokens: Result<Vec<Token>>,
    names: Vec<String>,
    next: usize,
}

impl Variables {
    /// The variables `raw` (name, expression), none evaluated yet.
    pub(crate) fn new(raw: HashMap<String, String>) -> Self {
        Self {
            raw,
            done: HashMap::new(),
            budget: Budget::default(),
        }
    }

    /// Evaluates `text`, the variables it names first.
    pub(crate) fn eval(&mut self, text: &str) -> Result<Value> {
        let tokens = tokenize(text)?;
        for name in self.names(&tokens) {
            self.resolve(name);
        }
        self.run(&tokens)
    }

    /// Evaluates `tokens`, every variable they name being done (or being evaluated further
    /// up: then it is defined in terms of itself).
    fn run(&mut self, tokens: &[Token]) -> Result<Value> {
        let Variables { raw, done, budget } = self;
        let mut parser = Parser {
            tokens,
            pos: 0,
            depth: 0,
            raw,
            done,
            budget,
        };
        let v = parser.expr()?;
        if let Some(t) = parser.peek() {
            return Err(ExprError::Syntax(format!("unexpected {t}")));
        }
        budget.own(v)
    }

    /// The variables `tokens` name, as the parser will look them up: a name (dotted names
    /// whole) that is not called.
    fn names(&self, tokens: &[Token]) -> Vec<String> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let Token::Name(first) = &tokens[i] else {
                i += 1;
                continue;
            };
            let mut name = first.clone();
            i += 1;
            while let (Some(Token::Op(".")), Some(Token::Name(n))) =
                (tokens.get(i), tokens.get(i + 1))
            {
                name = format!("{name}.{n}");
                i += 2;
            }
            let called = tokens.get(i) == Some(&Token::Op("("));
            if !called && self.raw.contains_key(&name) && !self.done.contains_key(&name) {
                out.push(name);
            }
        }
        out
    }

    /// Evaluates variable `root` and, before it, every variable it depends on, depth first on
    /// a stack of its own (a chain of variables as long as the file allows costs no
    /// recursion). One met again while it waits for its dependencies is left to the parser,
    /// which finds it not done: defined in terms of itself.
    fn resolve(&mut self, root: String) {
        if self.done.contains_key(&root) {
            return;
        }
        let mut waiting: HashSet<String> = HashSet::from([root.clone()]);
        let mut stack = vec![self.pending(root)];
        while let Some(top) = stack.last_mut() {
            if let Some(dep) = top.names.get(top.next).cloned() {
                top.next += 1;
                if !self.done.contains_key(&dep) && waiting.insert(dep.clone()) {
                    let p = self.pending(dep);
                    stack.push(p);
                }
                continue;
            }
            let Pending { name, tokens, .. } = stack.pop().expect("the stack has a top");
            waiting.remove(&name);
            let value = tokens.and_then(|t| self.run(&t)).map_err(|e| match e {
                // A dependency's error already names the variable at fault.
                e @ ExprError::Variable { .. } => e,
                e => ExprError::Variable {
                    text: cut(&self.raw[&name]).into_owned(),
                    name: name.clone(),
                    source: Box::new(e),
                },
            });
            self.done.insert(name, value);
        }
    }

    fn pending(&self, name: String) -> Pending {
        let tokens = tokenize(&self.raw[&name]);
        let names = tokens
            .as_ref()
            .map_or_else(|_| Vec::new(), |t| self.names(t));
        Pending {
            name,
            tokens,
            names,
            next: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Num(Value),
    Str(String),
    Name(String),
    Op(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Num(v) => write!(f, "'{v}'"),
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
    ">", ":",
];

fn tokenize(text: &str) -> Result<Vec<Token>> {
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
fn number(s: &str) -> Result<Value> {
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
            .map(Value::Int)
            .map_err(|_| ExprError::IntegerTooLarge(format!("the literal {}", cut(s))));
    }
    if let Some(im) = s.strip_suffix(['j', 'J']) {
        return float_literal(im)
            .map(|x| Value::Complex(Complex64::new(0.0, x)))
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
            .map(Value::Int)
            .map_err(|_| ExprError::IntegerTooLarge(format!("the literal {}", cut(s))));
    }
    float_literal(s).map(Value::Float).ok_or_else(bad)
}

/// A float literal: digits with a point and/or an exponent (Rust also reads `inf` and `nan`,
/// which Python's literals are not).
fn float_literal(s: &str) -> Option<f64> {
    let valid = s
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    valid.then(|| s.parse().ok()).flatten()
}

type Val<'s> = Cow<'s, Value>;

/// Evaluates while it parses; the values of variables are borrowed (`'s`), not copied.
struct Parser<'t, 's, 'b> {
    tokens: &'t [Token],
    pos: usize,
    /// Recursion depth (`factor` is on every cycle of the grammar).
    depth: usize,
    raw: &'s HashMap<String, String>,
    done: &'s HashMap<String, Result<Value>>,
    budget: &'b mut Budget,
}

impl<'s> Parser<'_, 's, '_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Token::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<()> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(ExprError::Syntax(match self.peek() {
                Some(t) => format!("expected '{op}', found {t}"),
                None => format!("expected '{op}' at the end"),
            }))
        }
    }

    fn expr(&mut self) -> Result<Val<'s>> {
        let mut v = self.term()?;
        loop {
            let op = if self.eat("+") {
                Op::Add
            } else if self.eat("-") {
                Op::Sub
            } else {
                return Ok(v);
            };
            let r = self.term()?;
            v = Cow::Owned(arith(op, &v, &r, self.budget)?);
        }
    }

    fn term(&mut self) -> Result<Val<'s>> {
        let mut v = self.factor()?;
        loop {
            let op = if self.eat("*") {
                Op::Mul
            } else if self.eat("//") {
                Op::FloorDiv
            } else if self.eat("/") {
                Op::Div
            } else if self.eat("%") {
                Op::Mod
            } else {
                return Ok(v);
            };
            let r = self.factor()?;
            v = Cow::Owned(arith(op, &v, &r, self.budget)?);
        }
    }

    /// A unary sign or a power: every recursion of the grammar passes here, so the depth is
    /// counted here.
    fn factor(&mut self) -> Result<Val<'s>> {
        if self.depth == MAX_DEPTH {
            return Err(ExprError::TooDeep);
        }
        self.depth += 1;
        let v = self.factor_inner();
        self.depth -= 1;
        v
    }

    fn factor_inner(&mut self) -> Result<Val<'s>> {
        for (sign, minus) in [("-", true), ("+", false)] {
            if self.eat(sign) {
                let v = self.factor()?;
                let n = v.num().ok_or_else(|| {
                    ExprError::Unsupported(format!(
                        "bad operand for unary {sign}: {}",
                        cut_display(&*v)
                    ))
                })?;
                let n = if minus { python::negate(n)? } else { n };
                return Ok(Cow::Owned(n.into()));
            }
        }
        let base = self.postfix()?;
        if self.eat("**") {
            let exp = self.factor()?;
            return Ok(Cow::Owned(arith(Op::Pow, &base, &exp, self.budget)?));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> Result<Val<'s>> {
        let mut v = if let Some(Token::Name(first)) = self.peek() {
            // A dotted name (`math.pi`, `firdes.low_pass`) is looked up whole.
            let mut name = first.clone();
            self.pos += 1;
            while self.eat(".") {
                match self.peek() {
                    Some(Token::Name(n)) => {
                        name = format!("{name}.{n}");
                        self.pos += 1;
                    }
                    _ => {
                        return Err(ExprError::Syntax(format!(
                            "a name must follow '{}.'",
                            cut(&name)
                        )))
                    }
                }
            }
            if self.eat("(") {
                let args = self.list_until(")")?;
                Cow::Owned(call(&name, &args, self.budget)?)
            } else {
                self.name(&name)?
            }
        } else {
            self.atom()?
        };
        while self.eat("[") {
            let i = self.expr()?;
            self.expect("]")?;
            v = index(v, &i)?;
        }
        Ok(v)
    }

    fn atom(&mut self) -> Result<Val<'s>> {
        let Some(token) = self.peek() else {
            return Err(ExprError::Syntax("the expression ends too early".into()));
        };
        let token = token.clone();
        self.pos += 1;
        match token {
            Token::Num(v) => Ok(Cow::Owned(v)),
            Token::Str(s) => {
                self.budget.make(s.len(), 0)?;
                Ok(Cow::Owned(Value::Str(s)))
            }
            Token::Op("(") => {
                let items = self.list_until(")")?;
                // `(x)` is x; `(x,)` and `(x, y)` are tuples.
                let trailing_comma = self.tokens[self.pos - 2] == Token::Op(",");
                if items.len() == 1 && !trailing_comma {
                    Ok(items.into_iter().next().expect("one item"))
                } else {
                    self.list(items)
                }
            }
            Token::Op("[") => {
                let items = self.list_until("]")?;
                self.list(items)
            }
            t => {
                self.pos -= 1;
                Err(ExprError::Syntax(format!("unexpected {t}")))
            }
        }
    }

    /// A list of `items` (variables among them copied).
    fn list(&mut self, items: Vec<Val<'s>>) -> Result<Val<'s>> {
        let mut depth = 0;
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            let item = self.budget.own(item)?;
            depth = depth.max(item.measure().1);
            list.push(item);
        }
        self.budget.make(list.len(), depth + 1)?;
        Ok(Cow::Owned(Value::List(list)))
    }

    fn list_until(&mut self, close: &str) -> Result<Vec<Val<'s>>> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expr()?);
            if self.eat(close) {
                return Ok(items);
            }
            if !self.eat(",") {
                return Err(ExprError::Syntax(match self.peek() {
                    Some(t) => format!("expected ',' or '{close}', found {t}"),
                    None => format!("expected '{close}' at the end"),
                }));
            }
            if self.eat(close) {
                return Ok(items);
            }
        }
    }

    fn name(&self, name: &str) -> Result<Val<'s>> {
        match name {
            "True" => return Ok(Cow::Owned(Value::Bool(true))),
            "False" => return Ok(Cow::Owned(Value::Bool(false))),
            "None" => return Ok(Cow::Owned(Value::None)),
            _ => {}
        }
        if let Some(v) = constant(name) {
            return Ok(Cow::Owned(v));
        }
        let done: &'s HashMap<String, Result<Value>> = self.done;
        match done.get(name) {
            Some(Ok(v)) => Ok(Cow::Borrowed(v)),
            Some(Err(e)) => Err(e.clone()),
            // Every variable an expression names is evaluated before it, except one that
            // waits for this very expression.
            None if self.raw.contains_key(name) => Err(ExprError::Cycle(name.to_owned())),
            None => Err(ExprError::UnknownName(name.to_owned())),
        }
    }
}

/// The constants of the modules GRC parameters use.
fn constant(name: &str) -> Option<Value> {
    let base = name
        .strip_prefix("math.")
        .or_else(|| name.strip_prefix("numpy."))
        .or_else(|| name.strip_prefix("np."))
        .unwrap_or(name);
    Some(match base {
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "inf" => Value::Float(f64::INFINITY),
        "analog.GR_COS_WAVE" => Value::Constant("cosine"),
        "analog.GR_SIN_WAVE" => Value::Constant("sine"),
        "analog.GR_CONST_WAVE" => Value::Constant("constant"),
        "window.WIN_HAMMING" | "fft.window.WIN_HAMMING" => Value::Constant("hamming"),
        "window.WIN_HANN" | "fft.window.WIN_HANN" | "window.WIN_HANNING" => Value::Constant("hann"),
        "window.WIN_BLACKMAN" | "fft.window.WIN_BLACKMAN" => Value::Constant("blackman"),
        "window.WIN_RECTANGULAR" | "fft.window.WIN_RECTANGULAR" => Value::Constant("rectangular"),
        "window.WIN_KAISER" | "fft.window.WIN_KAISER" => Value::Constant("kaiser"),
        "pmt.PMT_T" => Value::Pmt(Pmt::Bool(true)),
        "pmt.PMT_F" => Value::Pmt(Pmt::Bool(false)),
        "pmt.PMT_NIL" => Value::Pmt(Pmt::Null),
        _ => return None,
    })
}

/// `v[i]`: an element of a list or a character of a string, counted from the end if negative.
fn index<'s>(v: Val<'s>, i: &Value) -> Result<Val<'s>> {
    let unsupported = |v: &Value| {
        ExprError::Unsupported(format!(
            "cannot index {} with {}",
            cut_display(v),
            cut_display(i)
        ))
    };
    let Some(k) = i.index() else {
        return Err(unsupported(&v));
    };
    let at = |n: usize| {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        let j = if k < 0 { n.checked_add(k) } else { Some(k) };
        j.filter(|j| (0..n).contains(j))
            .map(|j| j as usize)
            .ok_or_else(|| ExprError::InvalidValue(format!("index {k} out of range (length {n})")))
    };
    match v {
        Cow::Borrowed(Value::List(items)) => Ok(Cow::Borrowed(&items[at(items.len())?])),
        Cow::Owned(Value::List(mut items)) => {
            let j = at(items.len())?;
            Ok(Cow::Owned(items.swap_remove(j)))
        }
        Cow::Borrowed(Value::Str(s)) => char_at(s, at(s.chars().count())?),
        Cow::Owned(Value::Str(s)) => char_at(&s, at(s.chars().count())?),
        other => Err(unsupported(&other)),
    }
}

fn char_at<'s>(s: &str, j: usize) -> Result<Val<'s>> {
    let c = s.chars().nth(j).expect("an index in range");
    Ok(Cow::Owned(Value::Str(c.to_string())))
}

/// `a op b`: Python's numbers, `+` joining strings and lists, `*` repeating them.
fn arith(op: Op, a: &Value, b: &Value, budget: &mut Budget) -> Result<Value> {
    use Value::{List, Str};
    match (op, a, b) {
        (Op::Add, Str(x), Str(y)) => {
            budget.make(x.len().saturating_add(y.len()), 0)?;
            Ok(Str(format!("{x}{y}")))
        }
        (Op::Add, List(x), List(y)) => {
            let ((nx, dx), (ny, dy)) = (a.measure(), b.measure());
            budget.make(nx.saturating_add(ny), dx.max(dy))?;
            Ok(List(x.iter().chain(y).cloned().collect()))
        }
        (Op::Mul, List(_) | Str(_), n) | (Op::Mul, n, List(_) | Str(_)) if n.index().is_some() => {
            let seq = if matches!(a, List(_) | Str(_)) { a } else { b };
            let times = usize::try_from(n.index().unwrap_or(0)).unwrap_or(0);
            let (items, depth) = seq.measure();
            budget.make(items.saturating_mul(times), depth)?;
            Ok(match seq {
                Str(s) => Str(s.repeat(times)),
                List(x) => List(x.iter().cloned().cycle().take(x.len() * times).collect()),
                _ => unreachable!("a list or a string"),
            })
        }
        _ => match (a.num(), b.num()) {
            (Some(x), Some(y)) => python::binary(op, x, y).map(Value::from),
            _ => Err(ExprError::Unsupported(format!(
                "cannot apply '{op}' to {} and {}",
                cut_display(a),
                cut_display(b)
            ))),
        },
    }
}

/// A real number argument (int, bool or float) of function `f`.
fn real(f: &str, v: &Value) -> Result<f64> {
    match v.num() {
        Some(n) => n.real().ok_or_else(|| {
            ExprError::Unsupported(format!("{}: must be a real number, not complex", cut(f)))
        }),
        None => Err(ExprError::Unsupported(format!(
            "{}: must be a number, not {}",
            cut(f),
            v.type_name()
        ))),
    }
}

fn float_arg(f: &str, args: &[&Value], i: usize) -> Result<f64> {
    match args.get(i) {
        Some(v) => real(f, v),
        None => Err(ExprError::Unsupported(format!(
            "{}: argument {} is missing",
            cut(f),
            i + 1
        ))),
    }
}

/// `min` or `max` (Python's: the first of the least or greatest items; numbers compared
/// exactly, strings by code points).
fn extreme(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    let items: Vec<&Value> = match args {
        [Value::List(v)] => v.iter().collect(),
        [one] => {
            return Err(ExprError::Unsupported(format!(
                "{name}: a {} is not iterable",
                one.type_name()
            )))
        }
        _ => args.to_vec(),
    };
    let Some((&first, rest)) = items.split_first() else {
        return Err(ExprError::InvalidValue(format!("{name}() of nothing")));
    };
    let greater = |a: &Value, b: &Value| -> Result<bool> {
        use std::cmp::Ordering::Greater;
        let o = match (a.num(), b.num(), a, b) {
            (Some(Num::Int(x)), Some(Num::Int(y)), ..) => Some(x.cmp(&y)),
            (Some(Num::Int(x)), Some(Num::Float(y)), ..) => python::compare_int_float(x, y),
            (Some(Num::Float(x)), Some(Num::Int(y)), ..) => {
                python::compare_int_float(y, x).map(std::cmp::Ordering::reverse)
            }
            (Some(Num::Float(x)), Some(Num::Float(y)), ..) => x.partial_cmp(&y),
            (.., Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
            _ => {
                return Err(ExprError::Unsupported(format!(
                    "{name}: cannot compare {} and {}",
                    a.type_name(),
                    b.type_name()
                )))
            }
        };
        Ok(o == Some(Greater))
    };
    let mut best = first;
    for &item in rest {
        let better = if name.ends_with("max") {
            greater(item, best)?
        } else {
            greater(best, item)?
        };
        if better {
            best = item;
        }
    }
    budget.own(Cow::Borrowed(best))
}

/// Calls one of the supported functions.
fn call(name: &str, args: &[Val<'_>], budget: &mut Budget) -> Result<Value> {
    let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
    let args = args.as_slice();
    let base = name
        .strip_prefix("math.")
        .or_else(|| name.strip_prefix("numpy."))
        .or_else(|| name.strip_prefix("np."))
        .unwrap_or(name);
    // numpy's functions return NaN or infinity where `math`'s raise (and their floor and
    // ceil stay floats).
    let numpy = name.starts_with("numpy.") || name.starts_with("np.");
    let one = || -> Result<&Value> {
        match args {
            [x] => Ok(x),
            _ => Err(ExprError::Unsupported(format!(
                "{} takes one argument",
                cut(name)
            ))),
        }
    };
    let math = |g: fn(f64) -> f64, can_overflow: bool| -> Result<Value> {
        let x = real(name, one()?)?;
        let r = g(x);
        if numpy {
            Ok(Value::Float(r))
        } else {
            python::math_result(name, x, r, can_overflow).map(Value::Float)
        }
    };
    let rounding = |g: fn(f64) -> f64| -> Result<Value> {
        let x = one()?;
        match x.num() {
            Some(Num::Int(i)) if !numpy => Ok(Value::Int(i)),
            _ if numpy => Ok(Value::Float(g(real(name, x)?))),
            _ => python::float_to_int(g(real(name, x)?)).map(Value::Int),
        }
    };
    match base {
        "sqrt" => math(f64::sqrt, false),
        "sin" => math(f64::sin, false),
        "cos" => math(f64::cos, false),
        "tan" => math(f64::tan, false),
        "exp" => math(f64::exp, true),
        "log" => math(f64::ln, false),
        "log10" => math(f64::log10, false),
        "log2" => math(f64::log2, false),
        "floor" => rounding(f64::floor),
        "ceil" => rounding(f64::ceil),
        "float" => match args {
            [] => Ok(Value::Float(0.0)),
            [Value::Str(s)] => {
                let t = s.trim();
                t.parse::<f64>()
                    .ok()
                    .filter(|_| !t.is_empty() && !t.contains('_'))
                    .map(Value::Float)
                    .ok_or_else(|| {
                        ExprError::InvalidValue(format!(
                            "float: could not convert {}",
                            cut_display(args[0])
                        ))
                    })
            }
            [x] => real(name, x).map(Value::Float),
            _ => Err(ExprError::Unsupported("float takes one argument".into())),
        },
        "abs" => {
            let x = one()?;
            let n = x
                .num()
                .ok_or_else(|| ExprError::Unsupported(format!("abs of a {}", x.type_name())))?;
            python::abs(n).map(Value::from)
        }
        "int" => match args {
            [] => Ok(Value::Int(0)),
            [Value::Str(s)] => {
                let t = s.trim();
                let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
                let valid = !digits.is_empty()
                    && digits.bytes().all(|c| c.is_ascii_digit() || c == b'_')
                    && !digits.starts_with('_')
                    && !digits.ends_with('_')
                    && !digits.contains("__");
                if !valid {
                    return Err(ExprError::InvalidValue(format!(
                        "int: {} is not an integer",
                        cut_display(args[0])
                    )));
                }
                t.replace('_', "").parse().map(Value::Int).map_err(|_| {
                    ExprError::IntegerTooLarge(format!("int({})", cut_display(args[0])))
                })
            }
            [x] => match x.num() {
                Some(Num::Int(i)) => Ok(Value::Int(i)),
                Some(Num::Float(f)) => python::float_to_int(f).map(Value::Int),
                _ => Err(ExprError::Unsupported(format!(
                    "int of a {}",
                    x.type_name()
                ))),
            },
            _ => Err(ExprError::Unsupported(
                "int takes one argument (no base)".into(),
            )),
        },
        "round" => {
            let (x, digits) = match args {
                [x] | [x, Value::None] => (*x, None),
                [x, n] => (
                    *x,
                    Some(n.index().ok_or_else(|| {
                        ExprError::Unsupported(format!(
                            "round: the number of digits must be an integer, not {}",
                            n.type_name()
                        ))
                    })?),
                ),
                _ => {
                    return Err(ExprError::Unsupported(
                        "round takes a number and a number of digits".into(),
                    ))
                }
            };
            match (x.num(), digits) {
                (Some(Num::Int(i)), None) => Ok(Value::Int(i)),
                (Some(Num::Int(i)), Some(n)) => python::round_int(i, n).map(Value::Int),
                (Some(Num::Float(f)), None) => python::round_float_to_int(f).map(Value::Int),
                (Some(Num::Float(f)), Some(n)) => python::round_float(f, n).map(Value::Float),
                _ => Err(ExprError::Unsupported(format!(
                    "round of a {}",
                    x.type_name()
                ))),
            }
        }
        "complex" => {
            // CPython's complex(real, imag) with real or complex arguments.
            let part = |v: &Value| match v.num() {
                Some(Num::Complex(c)) => Ok((c, true)),
                Some(n) => Ok((Complex64::new(n.real().unwrap_or_default(), 0.0), false)),
                None => Err(ExprError::Unsupported(format!(
                    "complex of a {}",
                    v.type_name()
                ))),
            };
            match args {
                [] => Ok(Value::Complex(Complex64::new(0.0, 0.0))),
                [re] => part(re).map(|(c, _)| Value::Complex(c)),
                [re, im] => {
                    let ((r, r_complex), (i, i_complex)) = (part(re)?, part(im)?);
                    let mut c = Complex64::new(r.re, i.re);
                    if i_complex {
                        c.re -= i.im;
                    }
                    if r_complex {
                        c.im += r.im;
                    }
                    Ok(Value::Complex(c))
                }
                _ => Err(ExprError::Unsupported(
                    "complex takes a real and an imaginary part".into(),
                )),
            }
        }
        "min" | "max" => extreme(base, args, budget),
        "len" => match args {
            [Value::List(v)] => Ok(Value::Int(v.len() as i64)),
            [Value::Str(s)] => Ok(Value::Int(s.chars().count() as i64)),
            _ => Err(ExprError::Unsupported(
                "len takes a list or a string".into(),
            )),
        },
        "str" => {
            let s = match args {
                [] => String::new(),
                [Value::Str(s)] => s.clone(),
                [v] => {
                    // Written no further than a string may be long.
                    let mut out = Limited(String::new());
                    write!(out, "{v}").map_err(|_| ExprError::TooLarge)?;
                    out.0
                }
                _ => return Err(ExprError::Unsupported("str takes one argument".into())),
            };
            budget.make(s.len(), 0)?;
            Ok(Value::Str(s))
        }
        "list" | "tuple" => match args {
            [] => Ok(Value::List(Vec::new())),
            [Value::List(_)] => budget.own(Cow::Borrowed(args[0])),
            [Value::Str(s)] => {
                let chars: Vec<Value> = s.chars().map(|c| Value::Str(c.to_string())).collect();
                budget.make(chars.len() + s.len(), 1)?;
                Ok(Value::List(chars))
            }
            _ => Err(ExprError::Unsupported(format!(
                "{name} takes a list or a string"
            ))),
        },
        "pmt.intern" | "pmt.string_to_symbol" => match args {
            [Value::Str(s)] => Ok(Value::Pmt(Pmt::symbol(s.as_str()))),
            _ => Err(ExprError::Unsupported(format!("{name} takes a string"))),
        },
        "pmt.from_long" | "pmt.from_uint64" => match args {
            [Value::Int(i)] => Ok(Value::Pmt(Pmt::Int(*i))),
            _ => Err(ExprError::Unsupported(format!("{name} takes an integer"))),
        },
        "pmt.from_double" | "pmt.from_float" => {
            Ok(Value::Pmt(Pmt::Double(float_arg(name, args, 0)?)))
        }
        "pmt.from_bool" => match args {
            [Value::Bool(b)] => Ok(Value::Pmt(Pmt::Bool(*b))),
            _ => Err(ExprError::Unsupported(format!(
                "{name} takes True or False"
            ))),
        },
        "firdes.low_pass"
        | "filter.firdes.low_pass"
        | "firdes.low_pass_2"
        | "filter.firdes.low_pass_2"
        | "firdes.high_pass"
        | "filter.firdes.high_pass"
        | "firdes.root_raised_cosine"
        | "filter.firdes.root_raised_cosine" => firdes(name, args, budget),
        _ => Err(ExprError::Unsupported(format!(
            "unsupported function '{}'",
            cut(name)
        ))),
    }
}

/// A string that refuses to grow past [`MAX_ITEMS`] bytes.
struct Limited(String);

impl Write for Limited {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.0.len() + s.len() > MAX_ITEMS {
            return Err(fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// `firdes.low_pass(gain, fs, cutoff, transition[, window[, beta]])`, `high_pass`, and
/// `root_raised_cosine(gain, fs, symbol_rate, alpha, ntaps)` from radioflow's own designs.
fn firdes(name: &str, args: &[&Value], budget: &mut Budget) -> Result<Value> {
    use radioflow_dsp::firdes;
    use radioflow_dsp::firdes::Window;
    let num = |i| float_arg(name, args, i);
    let failed = |e: radioflow_dsp::ParamError| ExprError::InvalidValue(format!("{name}: {e}"));
    let window = || -> Result<Window> {
        let beta = if args.len() > 5 { num(5)? } else { 6.76 };
        Ok(match args.get(4) {
            None | Some(Value::Constant("hamming")) => Window::Hamming,
            Some(Value::Constant("hann")) => Window::Hann,
            Some(Value::Constant("blackman")) => Window::Blackman,
            Some(Value::Constant("rectangular")) => Window::Rectangular,
            Some(Value::Constant("kaiser")) => Window::Kaiser { beta },
            Some(other) => {
                return Err(ExprError::Unsupported(format!(
                    "{name}: unsupported window {}",
                    cut_display(*other)
                )))
            }
        })
    };
    // The taps are counted before they are designed: a narrow transition asks for millions.
    let taps = if name.ends_with("root_raised_cosine") {
        let ntaps = num(4)?;
        if !(1.0..=MAX_ITEMS as f64).contains(&ntaps) {
            return Err(ExprError::InvalidValue(format!(
                "{name}: ntaps must be between 1 and {MAX_ITEMS}"
            )));
        }
        budget.make(ntaps as usize + 1, 1)?;
        firdes::root_raised_cosine(num(0)?, num(1)?, num(2)?, num(3)?, ntaps as usize)
    } else {
        let (fs, transition, window) = (num(1)?, num(3)?, window()?);
        budget.make(
            firdes::windowed_len(fs, transition, window).map_err(failed)?,
            1,
        )?;
        if name.ends_with("high_pass") {
            firdes::high_pass(num(0)?, fs, num(2)?, transition, window)
        } else {
            firdes::low_pass(num(0)?, fs, num(2)?, transition, window)
        }
    }
    .map_err(failed)?;
    Ok(Value::List(
        taps.into_iter().map(|t| Value::Float(t.into())).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(text: &str) -> std::result::Result<Value, String> {
        evaluate(text, &[("samp_rate", "32000"), ("f", "1.5")]).map_err(|e| e.to_string())
    }

    #[test]
    fn python_arithmetic_with_its_promotions() {
        assert_eq!(ev("samp_rate/4"), Ok(Value::Float(8000.0)));
        assert_eq!(ev("samp_rate//3"), Ok(Value::Int(10_666)));
        assert_eq!(ev("-7//2"), Ok(Value::Int(-4)));
        assert_eq!(ev("-7 % 3"), Ok(Value::Int(2)));
        assert_eq!(ev("2**10 + 1"), Ok(Value::Int(1025)));
        assert_eq!(ev("2*-3"), Ok(Value::Int(-6)));
        assert_eq!(ev("2.4e6 - 1e3"), Ok(Value::Float(2_399_000.0)));
        assert_eq!(ev("(1+2)*f"), Ok(Value::Float(4.5)));
        assert_eq!(ev("1j*2 + 1"), Ok(Value::Complex(Complex64::new(1.0, 2.0))));
        // Python: round(2.5) is 2 (halves to even).
        assert_eq!(ev("int(2.9) + round(2.5)"), Ok(Value::Int(4)));
        // Python: max returns the item, here an int.
        assert_eq!(ev("max(1, 3, 2)"), Ok(Value::Int(3)));
        assert_eq!(ev("math.sqrt(16) + abs(-2)"), Ok(Value::Float(6.0)));
        assert_eq!(ev("'a' + \"b\""), Ok(Value::Str("ab".into())));
        assert_eq!(
            ev("[1, 2] * 2"),
            Ok(Value::List([1, 2, 1, 2].map(Value::Int).to_vec()))
        );
        assert_eq!(ev("(0.5, -0.5,)[1]"), Ok(Value::Float(-0.5)));
        assert_eq!(ev("(3)"), Ok(Value::Int(3)));
        assert_eq!(ev("1_000_000"), Ok(Value::Int(1_000_000)));
    }

    #[test]
    fn gnu_radio_constants_and_pmts() {
        assert_eq!(ev("analog.GR_COS_WAVE"), Ok(Value::Constant("cosine")));
        assert_eq!(
            ev("pmt.intern(\"mark\")"),
            Ok(Value::Pmt(Pmt::symbol("mark")))
        );
        assert_eq!(ev("pmt.from_long(12345)"), Ok(Value::Pmt(Pmt::Int(12345))));
        assert_eq!(ev("pmt.PMT_T"), Ok(Value::Pmt(Pmt::Bool(true))));
        let Ok(Value::List(taps)) =
            ev("firdes.low_pass(1, samp_rate, 4e3, 1e3, window.WIN_HAMMING)")
        else {
            panic!()
        };
        let direct = radioflow_dsp::firdes::low_pass(
            1.0,
            32e3,
            4e3,
            1e3,
            radioflow_dsp::firdes::Window::Hamming,
        )
        .unwrap();
        assert_eq!(taps.len(), direct.len());
    }

    #[test]
    fn anything_else_is_refused_with_what_is_wrong() {
        assert_eq!(
            ev("__import__('os')"),
            Err("unsupported function '__import__'".into())
        );
        assert_eq!(
            ev("os.system('x')"),
            Err("unsupported function 'os.system'".into())
        );
        assert_eq!(ev("nope + 1"), Err("unknown name 'nope'".into()));
        assert_eq!(ev("1 +"), Err("the expression ends too early".into()));
        assert_eq!(ev("(1"), Err("expected ')' at the end".into()));
        assert_eq!(ev("1/0"), Err("division by zero".into()));
        assert!(ev("2**100").unwrap_err().contains("overflow"));
        assert!(ev("'x' - 1").unwrap_err().contains("cannot apply '-'"));
        assert!(ev("[1] * 100000000").unwrap_err().contains("too long"));
        assert!(ev("'abc").unwrap_err().contains("unterminated"));
        assert!(ev("1 @ 2").unwrap_err().contains("unexpected '@'"));
        assert!(ev("lambda: 1").is_err());
    }

    fn err(text: &str) -> ExprError {
        evaluate(text, &[]).expect_err(text)
    }

    /// Each of these gave a wrong value (or panicked) before: Python's value or error now.
    #[test]
    fn sixty_four_bit_edges_are_python_s_values_or_named_errors() {
        let int = |t| evaluate(t, &[]);
        assert!(matches!(
            err("abs(-9223372036854775807-1)"),
            ExprError::IntegerTooLarge(_)
        ));
        assert!(matches!(
            err("(-9223372036854775807-1)//-1"),
            ExprError::IntegerTooLarge(_)
        ));
        assert!(matches!(
            err("-(-9223372036854775807-1)"),
            ExprError::IntegerTooLarge(_)
        ));
        assert_eq!(int("(-9223372036854775807-1) % -1"), Ok(Value::Int(0)));
        assert_eq!(int("5 % 9223372036854775807"), Ok(Value::Int(5)));
        assert_eq!(
            int("-5 % 9223372036854775807"),
            Ok(Value::Int(9223372036854775802))
        );
        assert_eq!(int("-5 % -9223372036854775807"), Ok(Value::Int(-5)));
        assert_eq!(
            int("5 % -9223372036854775807"),
            Ok(Value::Int(-9223372036854775802))
        );
        // Python reads it as an int past 64 bits, not as the float 1e20.
        assert!(matches!(
            err("99999999999999999999"),
            ExprError::IntegerTooLarge(_)
        ));
        assert!(matches!(
            err("0xffffffffffffffff"),
            ExprError::IntegerTooLarge(_)
        ));
        assert_eq!(int("True + True"), Ok(Value::Int(2)));
        assert_eq!(int("-True"), Ok(Value::Int(-1)));
    }

    #[test]
    fn rounding_and_conversions_are_python_s() {
        let v = |t| evaluate(t, &[]);
        assert_eq!(v("round(2.5)"), Ok(Value::Int(2)));
        assert_eq!(v("round(3.5)"), Ok(Value::Int(4)));
        assert_eq!(v("round(-2.5)"), Ok(Value::Int(-2)));
        assert_eq!(v("round(1.23456, 2)"), Ok(Value::Float(1.23)));
        assert_eq!(v("round(2.675, 2)"), Ok(Value::Float(2.67)));
        assert_eq!(v("round(1234.5678, -2)"), Ok(Value::Float(1200.0)));
        assert_eq!(v("round(1250, -2)"), Ok(Value::Int(1200)));
        assert_eq!(v("round(7, 3)"), Ok(Value::Int(7)));
        assert!(matches!(err("round(1.5, 2.0)"), ExprError::Unsupported(_)));
        assert!(matches!(err("int(1e300)"), ExprError::IntegerTooLarge(_)));
        assert!(matches!(err("int(1e400)"), ExprError::Overflow(_)));
        assert!(matches!(err("round(1e400)"), ExprError::Overflow(_)));
        assert!(matches!(err("int(1e400 * 0)"), ExprError::InvalidValue(_)));
        assert_eq!(v("int(-2.9)"), Ok(Value::Int(-2)));
        assert_eq!(v("int(' 42 ')"), Ok(Value::Int(42)));
        assert_eq!(v("float('1e3')"), Ok(Value::Float(1000.0)));
        assert_eq!(v("math.floor(-2.5)"), Ok(Value::Int(-3)));
        assert_eq!(v("numpy.floor(-2.5)"), Ok(Value::Float(-3.0)));
    }

    #[test]
    fn float_errors_are_python_s() {
        assert!(matches!(err("10.0**10**10"), ExprError::Overflow(_)));
        assert!(matches!(err("2.0**2000"), ExprError::Overflow(_)));
        assert!(matches!(err("math.exp(1000)"), ExprError::Overflow(_)));
        assert!(matches!(err("math.sqrt(-1)"), ExprError::InvalidValue(_)));
        assert!(matches!(err("math.log(0)"), ExprError::InvalidValue(_)));
        assert!(matches!(err("1.0 // 0.0"), ExprError::ZeroDivision(_)));
        assert!(matches!(err("1.0 % 0"), ExprError::ZeroDivision(_)));
        assert!(matches!(err("0.0 ** -1"), ExprError::ZeroDivision(_)));
        assert!(matches!(err("0 ** -1"), ExprError::ZeroDivision(_)));
        assert!(matches!(err("1j / 0"), ExprError::ZeroDivision(_)));
        assert!(matches!(err("1j // 2"), ExprError::Unsupported(_)));
        let v = |t| evaluate(t, &[]);
        assert_eq!(v("1e308 * 10"), Ok(Value::Float(f64::INFINITY)));
        assert_eq!(v("numpy.log(0)"), Ok(Value::Float(f64::NEG_INFINITY)));
        assert_eq!(v("2 ** -1"), Ok(Value::Float(0.5)));
        assert_eq!(v("-7.5 // 2"), Ok(Value::Float(-4.0)));
        assert_eq!(v("-7.5 % 2"), Ok(Value::Float(0.5)));
        // A negative number to a fractional power is complex, as in Python 3.
        let Ok(Value::Complex(c)) = v("(-8.0) ** (1/3)") else {
            panic!()
        };
        assert!((c - Complex64::new(1.0, 3f64.sqrt())).norm() < 1e-12, "{c}");
        assert_eq!(v("-(1j)").map(|x| x.to_string()), Ok("(-0-1j)".to_owned()));
        assert_eq!(v("-0.0").map(|x| x.to_string()), Ok("-0.0".to_owned()));
    }

    #[test]
    fn strings_read_python_s_escapes_and_print_as_its_repr() {
        let v = |t| evaluate(t, &[]);
        assert_eq!(
            v(r"'\x41\t\u00e9\101\q'"),
            Ok(Value::Str("A\té\u{41}\\q".into()))
        );
        assert_eq!(
            v(r#"str([1.0, 'a', 1e16, 2j])"#),
            Ok(Value::Str("[1.0, 'a', 1e+16, 2j]".into()))
        );
        assert_eq!(
            v("str(0.1 + 0.2)"),
            Ok(Value::Str("0.30000000000000004".into()))
        );
        assert!(matches!(err("007"), ExprError::Syntax(_)));
        assert_eq!(v("0o17 + 0b11 + 0x1e+5"), Ok(Value::Int(15 + 3 + 35)));
    }

    #[test]
    fn depth_and_size_are_bounded_with_named_errors() {
        let nested = |n| format!("{}1{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(evaluate(&nested(MAX_DEPTH - 1), &[]), Ok(Value::Int(1)));
        assert_eq!(err(&nested(MAX_DEPTH)), ExprError::TooDeep);
        assert_eq!(
            err(&format!("{}1", "-".repeat(100_000))),
            ExprError::TooDeep
        );
        assert_eq!(err("[[0]*10**7]*10**7"), ExprError::TooLarge);
        assert_eq!(err("'ab' * 10**7"), ExprError::TooLarge);
        assert_eq!(err("str([0.5] * 4000000)"), ExprError::TooLarge);
        assert_eq!(
            err("firdes.low_pass(1, 1e9, 1e3, 300, window.WIN_HAMMING)"),
            ExprError::TooLarge
        );
        // A long sum is a loop, not a recursion.
        let sum = vec!["1"; 100_000].join("+");
        assert_eq!(evaluate(&sum, &[]), Ok(Value::Int(100_000)));
    }

    #[test]
    fn variables_are_evaluated_once_in_dependency_order_without_recursion() {
        let names: Vec<String> = (0..20_000).map(|i| format!("v{i}")).collect();
        let texts: Vec<String> = (0..20_000)
            .map(|i| {
                if i == 0 {
                    "1".into()
                } else {
                    format!("v{} + 1", i - 1)
                }
            })
            .collect();
        let vars: Vec<(&str, &str)> = names
            .iter()
            .zip(&texts)
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        assert_eq!(evaluate("v19999 * 2", &vars), Ok(Value::Int(40_000)));
        let e = evaluate("a", &[("a", "b + 1"), ("b", "a")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "variable 'b' = a: variable 'a' is defined in terms of itself"
        );
        // The error of the variable at fault, not a chain of every variable above it.
        let e = evaluate(
            "v19999",
            &[("v0", "1/0")]
                .into_iter()
                .chain(vars[1..].iter().copied())
                .collect::<Vec<_>>(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "variable 'v0' = 1/0: division by zero");
    }

    /// The deepest expression accepted and the deepest list value, evaluated and dropped on
    /// a thread with a 2 MiB stack (Rust's default for spawned threads and the test
    /// harness's): within it in a debug build (which needs 0.5-1 MiB for it).
    #[test]
    fn the_depth_limit_holds_on_a_two_mib_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let n = MAX_DEPTH - 1;
                let parens = format!("{}1{}", "(".repeat(n), ")".repeat(n));
                let brackets = format!("{}1{}", "[".repeat(n), "]".repeat(n));
                let mixed = format!("{}1{}", "-(f(".repeat(n / 3), "))".repeat(n / 3));
                let powers = format!("{}1", "2**".repeat(n));
                let mut vars = vec![("v0".to_owned(), brackets.clone())];
                vars.push(("v1".into(), "[v0] + [v0]".into()));
                let vars: Vec<(&str, &str)> =
                    vars.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
                for text in [&parens, &brackets, &mixed, &powers] {
                    let _ = evaluate(text, &[("f", "1")]);
                }
                let v = evaluate("v1", &vars).unwrap();
                let _ = (v.to_string(), v.to_pmt(), v.clone() == v);
            })
            .unwrap();
        handle.join().unwrap();
    }

    #[test]
    fn long_texts_are_not_echoed_whole() {
        let long = "x".repeat(10_000_000);
        for text in [
            long.clone(),
            format!("1 + '{long}"),
            format!("{long}(1)"),
            format!("1 {long}"),
            format!("'{long}' - 1"),
            format!("1{long}"),
        ] {
            let e = err(&text).to_string();
            assert!(e.len() < 400, "{}", &e[..1000.min(e.len())]);
        }
        let e = evaluate("v", &[("v", &format!("{long} + 1"))])
            .unwrap_err()
            .to_string();
        assert!(e.len() < 400, "{}", &e[..1000]);
    }
}
