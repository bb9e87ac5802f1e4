//! The safe subset of Python that GRC parameters are written in: numbers (with `1e6`, `1j`),
//! strings, `True`/`False`/`None`, lists and tuples, `+ - * / // % **`, parentheses,
//! variables, and a fixed set of functions and constants (`math`/`numpy` functions, `int`,
//! `float`, `abs`, `min`, `max`, `round`, `firdes` designs, `window.WIN_*`, `analog.GR_*_WAVE`,
//! `pmt.intern`/`from_long`/`from_double`/`PMT_T`...). Nothing is executed: anything else is
//! an error naming what is not supported. (A hand-written recursive-descent evaluator: no
//! crate evaluates Python expressions without running a Python, and running one is what this
//! refuses to do.)

use num_complex::Complex64;
use radioflow_runtime::Pmt;
use std::fmt;

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

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Complex(c) => write!(f, "{c}"),
            Value::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::List(v) => {
                write!(f, "[")?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, "]")
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
}

/// Looks up a variable of the flowgraph (evaluating it on first use).
pub(crate) trait Scope {
    /// The value of `name`, `None` if the flowgraph has no such variable.
    fn variable(&mut self, name: &str) -> Option<Result<Value, String>>;
}

/// Evaluates `text`; an error says what is not supported or wrong, and where.
pub(crate) fn eval(text: &str, scope: &mut dyn Scope) -> Result<Value, String> {
    let tokens = tokenize(text)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        scope,
    };
    let v = p.expr()?;
    if p.pos != p.tokens.len() {
        return Err(format!("unexpected {} in {text:?}", p.tokens[p.pos]));
    }
    Ok(v)
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
            Token::Str(s) => write!(f, "{s:?}"),
            Token::Name(n) => write!(f, "'{n}'"),
            Token::Op(o) => write!(f, "'{o}'"),
        }
    }
}

const OPS: &[&str] = &[
    "**", "//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",", ".", "<",
    ">", ":",
];

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.'
                    || chars[i] == '_'
                    || ((chars[i] == '+' || chars[i] == '-') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let s: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
            out.push(Token::Num(number(&s)?));
        } else if c == '"' || c == '\'' {
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(format!("unterminated string in {text:?}")),
                    Some(&q) if q == c => break,
                    Some('\\') => {
                        i += 1;
                        match chars.get(i) {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some(&o) => s.push(o),
                            None => return Err(format!("unterminated string in {text:?}")),
                        }
                    }
                    Some(&o) => s.push(o),
                }
                i += 1;
            }
            i += 1;
            out.push(Token::Str(s));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Name(chars[start..i].iter().collect()));
        } else if let Some(op) = OPS
            .iter()
            .find(|op| chars[i..].iter().take(op.len()).copied().eq(op.chars()))
        {
            i += op.len();
            out.push(Token::Op(op));
        } else {
            return Err(format!("unexpected '{c}' in {text:?}"));
        }
    }
    Ok(out)
}

fn number(s: &str) -> Result<Value, String> {
    if let Some(im) = s.strip_suffix(['j', 'J']) {
        let x: f64 = im.parse().map_err(|_| format!("bad number '{s}'"))?;
        return Ok(Value::Complex(Complex64::new(0.0, x)));
    }
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16)
            .map(Value::Int)
            .map_err(|_| format!("bad number '{s}'"));
    }
    if let Ok(i) = s.parse::<i64>() {
        return Ok(Value::Int(i));
    }
    s.parse::<f64>()
        .map(Value::Float)
        .map_err(|_| format!("bad number '{s}'"))
}

struct Parser<'a> {
    tokens: Vec<Token>,
    pos: usize,
    scope: &'a mut dyn Scope,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(&Token::Op(op_static(op))) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(match self.peek() {
                Some(t) => format!("expected '{op}', found {t}"),
                None => format!("expected '{op}' at the end"),
            })
        }
    }

    fn expr(&mut self) -> Result<Value, String> {
        let mut v = self.term()?;
        loop {
            if self.eat("+") {
                v = arith(&v, &self.term()?, '+')?;
            } else if self.eat("-") {
                v = arith(&v, &self.term()?, '-')?;
            } else {
                return Ok(v);
            }
        }
    }

    fn term(&mut self) -> Result<Value, String> {
        let mut v = self.unary()?;
        loop {
            let op = if self.eat("*") {
                '*'
            } else if self.eat("//") {
                'f'
            } else if self.eat("/") {
                '/'
            } else if self.eat("%") {
                '%'
            } else {
                return Ok(v);
            };
            v = arith(&v, &self.unary()?, op)?;
        }
    }

    fn unary(&mut self) -> Result<Value, String> {
        if self.eat("-") {
            return arith(&Value::Int(0), &self.unary()?, '-');
        }
        if self.eat("+") {
            return self.unary();
        }
        let base = self.postfix()?;
        if self.eat("**") {
            let exp = self.unary()?;
            return arith(&base, &exp, '^');
        }
        Ok(base)
    }

    fn postfix(&mut self) -> Result<Value, String> {
        // A dotted name (`math.pi`, `firdes.low_pass`) is looked up whole.
        if let Some(Token::Name(first)) = self.peek().cloned() {
            self.pos += 1;
            let mut name = first;
            while self.peek() == Some(&Token::Op(".")) {
                self.pos += 1;
                match self.peek().cloned() {
                    Some(Token::Name(n)) => {
                        self.pos += 1;
                        name = format!("{name}.{n}");
                    }
                    _ => return Err(format!("a name must follow '{name}.'")),
                }
            }
            let mut v = if self.eat("(") {
                let args = self.list_until(")")?;
                call(&name, &args)?
            } else {
                self.name(&name)?
            };
            while self.eat("[") {
                let i = self.expr()?;
                self.expect("]")?;
                v = index(&v, &i)?;
            }
            return Ok(v);
        }
        let mut v = self.atom()?;
        while self.eat("[") {
            let i = self.expr()?;
            self.expect("]")?;
            v = index(&v, &i)?;
        }
        Ok(v)
    }

    fn atom(&mut self) -> Result<Value, String> {
        match self.peek().cloned() {
            Some(Token::Num(v)) => {
                self.pos += 1;
                Ok(v)
            }
            Some(Token::Str(s)) => {
                self.pos += 1;
                Ok(Value::Str(s))
            }
            Some(Token::Op("(")) => {
                self.pos += 1;
                let items = self.list_until(")")?;
                // `(x)` is x; `(x,)` and `(x, y)` are tuples.
                let trailing_comma = self.tokens[self.pos - 2] == Token::Op(",");
                if items.len() == 1 && !trailing_comma {
                    Ok(items.into_iter().next().unwrap_or(Value::None))
                } else {
                    Ok(Value::List(items))
                }
            }
            Some(Token::Op("[")) => {
                self.pos += 1;
                Ok(Value::List(self.list_until("]")?))
            }
            Some(t) => Err(format!("unexpected {t}")),
            None => Err("the expression ends too early".into()),
        }
    }

    fn list_until(&mut self, close: &str) -> Result<Vec<Value>, String> {
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
                return Err(match self.peek() {
                    Some(t) => format!("expected ',' or '{close}', found {t}"),
                    None => format!("expected '{close}' at the end"),
                });
            }
            if self.eat(close) {
                return Ok(items);
            }
        }
    }

    fn name(&mut self, name: &str) -> Result<Value, String> {
        match name {
            "True" => return Ok(Value::Bool(true)),
            "False" => return Ok(Value::Bool(false)),
            "None" => return Ok(Value::None),
            _ => {}
        }
        if let Some(v) = constant(name) {
            return Ok(v);
        }
        match self.scope.variable(name) {
            Some(r) => r,
            None => Err(format!("unknown name '{name}'")),
        }
    }
}

fn op_static(op: &str) -> &'static str {
    OPS.iter().find(|o| **o == op).copied().unwrap_or("?")
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

fn float_arg(f: &str, args: &[Value], i: usize) -> Result<f64, String> {
    args.get(i)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("{f}: argument {} must be a number", i + 1))
}

/// Calls one of the supported functions.
fn call(name: &str, args: &[Value]) -> Result<Value, String> {
    let f1 = |g: fn(f64) -> f64| -> Result<Value, String> {
        if args.len() != 1 {
            return Err(format!("{name} takes one argument"));
        }
        Ok(Value::Float(g(float_arg(name, args, 0)?)))
    };
    let base = name
        .strip_prefix("math.")
        .or_else(|| name.strip_prefix("numpy."))
        .or_else(|| name.strip_prefix("np."))
        .unwrap_or(name);
    match base {
        "sqrt" => f1(f64::sqrt),
        "sin" => f1(f64::sin),
        "cos" => f1(f64::cos),
        "tan" => f1(f64::tan),
        "exp" => f1(f64::exp),
        "log" => f1(f64::ln),
        "log10" => f1(f64::log10),
        "log2" => f1(f64::log2),
        "floor" => f1(f64::floor),
        "ceil" => f1(f64::ceil),
        "float" => f1(|x| x),
        "abs" => match args {
            [Value::Int(i)] => Ok(Value::Int(i.abs())),
            [Value::Complex(c)] => Ok(Value::Float(c.norm())),
            _ => f1(f64::abs),
        },
        "int" => match args {
            [Value::Int(i)] => Ok(Value::Int(*i)),
            [Value::Str(s)] => s
                .trim()
                .parse()
                .map(Value::Int)
                .map_err(|_| format!("int: '{s}' is not an integer")),
            _ => Ok(Value::Int(float_arg(name, args, 0)?.trunc() as i64)),
        },
        "round" => Ok(Value::Int(float_arg(name, args, 0)?.round() as i64)),
        "complex" => Ok(Value::Complex(Complex64::new(
            float_arg(name, args, 0)?,
            if args.len() > 1 {
                float_arg(name, args, 1)?
            } else {
                0.0
            },
        ))),
        "min" | "max" => {
            let items = match args {
                [Value::List(v)] => v.clone(),
                _ => args.to_vec(),
            };
            let mut best: Option<f64> = None;
            for (i, v) in items.iter().enumerate() {
                let x = v
                    .as_f64()
                    .ok_or_else(|| format!("{name}: item {i} is not a number"))?;
                best = Some(match best {
                    None => x,
                    Some(b) if base == "min" => b.min(x),
                    Some(b) => b.max(x),
                });
            }
            best.map(Value::Float)
                .ok_or_else(|| format!("{name} of nothing"))
        }
        "len" => match args {
            [Value::List(v)] => Ok(Value::Int(v.len() as i64)),
            [Value::Str(s)] => Ok(Value::Int(s.chars().count() as i64)),
            _ => Err("len takes a list or a string".into()),
        },
        "str" => Ok(Value::Str(match args {
            [Value::Str(s)] => s.clone(),
            [v] => v.to_string(),
            _ => return Err("str takes one argument".into()),
        })),
        "list" | "tuple" => match args {
            [Value::List(v)] => Ok(Value::List(v.clone())),
            _ => Err(format!("{name} takes a list")),
        },
        "pmt.intern" | "pmt.string_to_symbol" => match args {
            [Value::Str(s)] => Ok(Value::Pmt(Pmt::symbol(s.as_str()))),
            _ => Err(format!("{name} takes a string")),
        },
        "pmt.from_long" | "pmt.from_uint64" => match args {
            [Value::Int(i)] => Ok(Value::Pmt(Pmt::Int(*i))),
            _ => Err(format!("{name} takes an integer")),
        },
        "pmt.from_double" | "pmt.from_float" => {
            Ok(Value::Pmt(Pmt::Double(float_arg(name, args, 0)?)))
        }
        "pmt.from_bool" => match args {
            [Value::Bool(b)] => Ok(Value::Pmt(Pmt::Bool(*b))),
            _ => Err(format!("{name} takes True or False")),
        },
        "firdes.low_pass"
        | "filter.firdes.low_pass"
        | "firdes.low_pass_2"
        | "filter.firdes.low_pass_2"
        | "firdes.high_pass"
        | "filter.firdes.high_pass"
        | "firdes.root_raised_cosine"
        | "filter.firdes.root_raised_cosine" => firdes(name, args),
        _ => Err(format!("unsupported function '{name}'")),
    }
}

/// `firdes.low_pass(gain, fs, cutoff, transition[, window[, beta]])`, `high_pass`, and
/// `root_raised_cosine(gain, fs, symbol_rate, alpha, ntaps)` from radioflow's own designs.
fn firdes(name: &str, args: &[Value]) -> Result<Value, String> {
    use radioflow_dsp::firdes;
    use radioflow_dsp::firdes::Window;
    let num = |i| float_arg(name, args, i);
    let window = || -> Result<Window, String> {
        let beta = if args.len() > 5 { num(5)? } else { 6.76 };
        Ok(match args.get(4) {
            None | Some(Value::Constant("hamming")) => Window::Hamming,
            Some(Value::Constant("hann")) => Window::Hann,
            Some(Value::Constant("blackman")) => Window::Blackman,
            Some(Value::Constant("rectangular")) => Window::Rectangular,
            Some(Value::Constant("kaiser")) => Window::Kaiser { beta },
            Some(other) => return Err(format!("{name}: unsupported window {other}")),
        })
    };
    let taps = if name.ends_with("root_raised_cosine") {
        let ntaps = num(4)?;
        if !(1.0..=1e6).contains(&ntaps) {
            return Err(format!("{name}: ntaps must be between 1 and 1e6"));
        }
        firdes::root_raised_cosine(num(0)?, num(1)?, num(2)?, num(3)?, ntaps as usize)
    } else if name.ends_with("high_pass") {
        firdes::high_pass(num(0)?, num(1)?, num(2)?, num(3)?, window()?)
    } else {
        firdes::low_pass(num(0)?, num(1)?, num(2)?, num(3)?, window()?)
    }
    .map_err(|e| format!("{name}: {e}"))?;
    Ok(Value::List(
        taps.into_iter().map(|t| Value::Float(t.into())).collect(),
    ))
}

fn index(v: &Value, i: &Value) -> Result<Value, String> {
    match (v, i) {
        (Value::List(items), Value::Int(k)) => {
            let n = items.len() as i64;
            let k = if *k < 0 { n + k } else { *k };
            usize::try_from(k)
                .ok()
                .and_then(|k| items.get(k))
                .cloned()
                .ok_or_else(|| format!("index {k} out of range (length {n})"))
        }
        _ => Err(format!("cannot index {v} with {i}")),
    }
}

/// `a op b` with Python's numeric promotion (int, float, complex); `+` joins strings and
/// lists, `*` repeats a list.
fn arith(a: &Value, b: &Value, op: char) -> Result<Value, String> {
    use Value::{Complex, Float, Int, List, Str};
    let bad = || format!("cannot apply '{}' to {a} and {b}", op_name(op));
    match (a, b) {
        (Int(x), Int(y)) => {
            let (x, y) = (*x, *y);
            let r = match op {
                '+' => x.checked_add(y),
                '-' => x.checked_sub(y),
                '*' => x.checked_mul(y),
                '/' => {
                    return if y == 0 {
                        Err("division by zero".into())
                    } else {
                        Ok(Float(x as f64 / y as f64))
                    }
                }
                'f' => (y != 0).then(|| x.div_euclid(y) - i64::from(x.rem_euclid(y) != 0 && y < 0)),
                '%' => (y != 0).then(|| ((x % y) + y) % y),
                '^' if y >= 0 => u32::try_from(y).ok().and_then(|y| x.checked_pow(y)),
                '^' => return Ok(Float((x as f64).powf(y as f64))),
                _ => None,
            };
            r.map(Int).ok_or_else(|| {
                format!(
                    "integer overflow or division by zero in {a} {} {b}",
                    op_name(op)
                )
            })
        }
        (Str(x), Str(y)) if op == '+' => Ok(Str(format!("{x}{y}"))),
        (List(x), List(y)) if op == '+' => Ok(List(x.iter().chain(y).cloned().collect())),
        (List(x), Int(n)) | (Int(n), List(x)) if op == '*' => {
            let n = usize::try_from(*n).unwrap_or(0);
            if x.len().saturating_mul(n) > 10_000_000 {
                return Err("list too long".into());
            }
            Ok(List(x.iter().cloned().cycle().take(x.len() * n).collect()))
        }
        (Complex(_), _) | (_, Complex(_)) => {
            let c = |v: &Value| match v {
                Complex(c) => Some(*c),
                other => other.as_f64().map(|x| num_complex::Complex64::new(x, 0.0)),
            };
            let (x, y) = (c(a).ok_or_else(bad)?, c(b).ok_or_else(bad)?);
            Ok(Complex(match op {
                '+' => x + y,
                '-' => x - y,
                '*' => x * y,
                '/' => x / y,
                '^' => x.powc(y),
                _ => return Err(bad()),
            }))
        }
        _ => {
            let (x, y) = (a.as_f64().ok_or_else(bad)?, b.as_f64().ok_or_else(bad)?);
            Ok(Float(match op {
                '+' => x + y,
                '-' => x - y,
                '*' => x * y,
                '/' if y == 0.0 => return Err("division by zero".into()),
                '/' => x / y,
                'f' => (x / y).floor(),
                '%' => x - y * (x / y).floor(),
                '^' => x.powf(y),
                _ => return Err(bad()),
            }))
        }
    }
}

fn op_name(op: char) -> &'static str {
    match op {
        '+' => "+",
        '-' => "-",
        '*' => "*",
        '/' => "/",
        'f' => "//",
        '%' => "%",
        '^' => "**",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Vars(HashMap<&'static str, Value>);

    impl Scope for Vars {
        fn variable(&mut self, name: &str) -> Option<Result<Value, String>> {
            self.0.get(name).cloned().map(Ok)
        }
    }

    fn ev(text: &str) -> Result<Value, String> {
        let mut vars = Vars(HashMap::from([
            ("samp_rate", Value::Int(32_000)),
            ("f", Value::Float(1.5)),
        ]));
        eval(text, &mut vars)
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
        assert_eq!(ev("int(2.9) + round(2.5)"), Ok(Value::Int(5)));
        assert_eq!(ev("max(1, 3, 2)"), Ok(Value::Float(3.0)));
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
}
