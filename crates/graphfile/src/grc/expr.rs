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

use super::constants::constant;
use super::expr_error::{ExprError, MAX_DEPTH};
use super::functions::{arith, call, index};
use super::python::{self, Op};
use super::token::{tokenize, Token};
// Value is named here by blocks.rs too.
pub(super) use super::value::Value;
use super::value::{Budget, Val};
use radioflow_runtime::echo::{cut, cut_display};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

type Result<T> = std::result::Result<T, ExprError>;

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

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;
    use radioflow_runtime::Pmt;

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
