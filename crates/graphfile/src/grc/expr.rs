//! The safe subset of Python that GRC parameters are written in: numbers (with `1e6`, `1j`,
//! `0x1f`), strings, `True`/`False`/`None`, lists and tuples, `+ - * / // % **`, comparisons,
//! `and`/`or`/`not`, conditional expressions, `lambda`, list comprehensions, indexing and
//! slices, calls with keyword arguments, variables, and a fixed set of functions and constants
//! (`functions.rs`: `math`/`cmath`, builtins, `range`, `map`, `pmt`, `firdes`; `numpy.rs`:
//! numpy arrays; `constants.rs`: GNU Radio's enumerations). Nothing is executed: anything else
//! is an error naming what is not supported. Arithmetic is Python's (`python.rs`), with 64-bit
//! integers. The parser evaluates as it reads; what Python would not evaluate (the branch of a
//! conditional not taken, the right of a decided `and`/`or`, a lambda's body where it is made)
//! it reads without evaluating, and a lambda keeps its body's tokens to evaluate them where it
//! is applied.
//!
//! Everything is bounded, so that a hostile file is an error, never a crash or a machine out
//! of memory: expressions nest at most [`MAX_DEPTH`] levels (the parser recurses, within a
//! 2 MiB stack), a list or string holds at most [`MAX_ITEMS`] items, the expressions of
//! one file make at most [`MAX_TOTAL_ITEMS`] in all, and re-evaluate (lambdas applied,
//! comprehensions repeated) at most [`MAX_STEPS`] tokens in all. Variables are evaluated in dependency
//! order with a stack of their own, so a chain of any length costs no recursion.
//!
//! (A hand-written recursive-descent evaluator: no crate evaluates Python expressions
//! without running a Python, and running one is what this refuses to do.)

use super::constants::constant;
use super::expr_error::{ExprError, MAX_DEPTH};
#[cfg(doc)]
use super::expr_error::{MAX_ITEMS, MAX_STEPS, MAX_TOTAL_ITEMS};
use super::functions::{
    arith, call, compare, index, is_function, items, python_to_pmt, python_truth, slice, unary, Cmp,
};
use super::python::Op;
use super::token::{tokenize, Token};
// Value is named here by blocks.rs too.
pub(super) use super::value::Value;
use super::value::{Budget, Lambda, Val};
use radioflow_runtime::echo::{cut, cut_display};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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

    /// Gives variable `name` the value `value` instead of its expression (a GUI widget's value
    /// set while the graph runs): expressions that name it see `value`.
    pub(crate) fn fix(&mut self, name: &str, value: Value) {
        self.done.insert(name.to_owned(), Ok(value));
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
        let close = matching(tokens);
        let mut parser = Parser {
            tokens,
            close: &close,
            pos: 0,
            depth: 0,
            skip: 0,
            locals: None,
            raw,
            done,
            budget,
        };
        let v = parser.expression()?;
        if let Some(t) = parser.peek() {
            return Err(ExprError::Syntax(format!("unexpected {t}")));
        }
        budget.own(v)
    }

    /// The variables `tokens` name, as the parser will look them up: a name (dotted names
    /// whole), called or not (a variable may be a lambda).
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
            // `c.points()` depends on variable `c`.
            let variable = if self.raw.contains_key(&name) {
                name
            } else {
                first.clone()
            };
            if self.raw.contains_key(&variable) && !self.done.contains_key(&variable) {
                out.push(variable);
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

/// The names bound by the lambdas being applied and the comprehensions being repeated: each
/// scope lives on the stack of the call that binds it, its parent is the enclosing one.
struct Scope<'a> {
    names: &'a [(String, Value)],
    parent: Option<&'a Scope<'a>>,
}

impl Scope<'_> {
    fn get(&self, name: &str) -> Option<&Value> {
        let mut scope = Some(self);
        while let Some(s) = scope {
            if let Some((_, v)) = s.names.iter().rev().find(|(n, _)| n == name) {
                return Some(v);
            }
            scope = s.parent;
        }
        None
    }

    /// Every name bound here, an inner one hiding an outer one of the same name: what a
    /// lambda made here keeps.
    fn flatten(&self) -> Vec<(String, Value)> {
        let mut out: Vec<(String, Value)> = Vec::new();
        let mut scope = Some(self);
        while let Some(s) = scope {
            for (n, v) in s.names.iter().rev() {
                if !out.iter().any(|(m, _)| m == n) {
                    out.push((n.clone(), v.clone()));
                }
            }
            scope = s.parent;
        }
        out
    }
}

/// For each token opening a group (`(`, `[`), the index of the token closing it (the number
/// of tokens if none does): the parser looks ahead past a group in one step.
fn matching(tokens: &[Token]) -> Vec<usize> {
    let mut close = vec![0; tokens.len()];
    let mut open = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Op("(" | "[") => open.push(i),
            Token::Op(")" | "]") => {
                if let Some(j) = open.pop() {
                    close[j] = i;
                }
            }
            _ => {}
        }
    }
    for j in open {
        close[j] = tokens.len();
    }
    close
}

/// Python's keywords that may appear in an expression.
fn keyword(name: &str) -> bool {
    matches!(
        name,
        "if" | "else" | "and" | "or" | "not" | "lambda" | "for" | "in" | "is"
    )
}

/// Evaluates while it parses; the values of variables are borrowed (`'s`), not copied.
struct Parser<'t, 's, 'b> {
    tokens: &'t [Token],
    /// [`matching`] of the tokens.
    close: &'t [usize],
    pos: usize,
    /// Recursion depth (`factor` is on every cycle of the grammar but those of `not`,
    /// `lambda` and `else`, which count it too).
    depth: usize,
    /// Above 0 while the parser reads what Python does not evaluate (the branch of a
    /// conditional not taken, the right side of an `and`/`or` decided by its left, a lambda's
    /// body where it is made): the syntax is checked, nothing is evaluated or looked up.
    skip: usize,
    /// The names lambdas and comprehensions bind here.
    locals: Option<&'s Scope<'s>>,
    raw: &'s HashMap<String, String>,
    done: &'s HashMap<String, Result<Value>>,
    budget: &'b mut Budget,
}

/// The value of what was read without being evaluated.
fn skipped<'s>() -> Val<'s> {
    Cow::Owned(Value::None)
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

    fn peek_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Name(n)) if n == word)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = self.peek_word(word);
        if found {
            self.pos += 1;
        }
        found
    }

    fn expect(&mut self, op: &str) -> Result<()> {
        if self.eat(op) || self.eat_word(op) {
            Ok(())
        } else {
            Err(ExprError::Syntax(match self.peek() {
                Some(t) => format!("expected '{op}', found {t}"),
                None => format!("expected '{op}' at the end"),
            }))
        }
    }

    fn evaluating(&self) -> bool {
        self.skip == 0
    }

    /// `read` run without evaluating.
    fn skipping<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.skip += 1;
        let r = read(self);
        self.skip -= 1;
        r
    }

    /// `read` one level deeper.
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(ExprError::TooDeep);
        }
        self.depth += 1;
        let r = read(self);
        self.depth -= 1;
        r
    }

    /// The first token from here, at this level of brackets, that ends a plain expression
    /// or continues it as a conditional (`if`) or comprehension (`for`), with its index.
    fn ahead(&self) -> Option<(usize, &Token)> {
        let mut i = self.pos;
        while let Some(t) = self.tokens.get(i) {
            match t {
                Token::Op("(" | "[") => i = self.close[i],
                Token::Op(")" | "]" | "," | ":" | "=") => return Some((i, t)),
                Token::Name(n)
                    if keyword(n) && !matches!(n.as_str(), "and" | "or" | "not" | "in" | "is") =>
                {
                    return Some((i, t))
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// Where the list opening here is a comprehension, its `for`: the first at this level of
    /// brackets before a `,` or the closing `]`.
    fn comprehension_ahead(&self) -> Option<usize> {
        let mut i = self.pos;
        while let Some(t) = self.tokens.get(i) {
            match t {
                Token::Op("(" | "[") => i = self.close[i],
                Token::Op(")" | "]" | ",") => return None,
                Token::Name(n) if n == "for" => return Some(i),
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// Python's `expression`: a lambda, a conditional `a if c else b` (c first, then only
    /// the branch taken is evaluated; the other is read) or an `or_test`.
    fn expression(&mut self) -> Result<Val<'s>> {
        if self.eat_word("lambda") {
            return self.nested(Self::lambda);
        }
        let if_at = match self.ahead() {
            Some((i, Token::Name(n))) if n == "if" => i,
            _ => return self.or_test(),
        };
        let start = self.pos;
        self.pos = if_at + 1;
        let c = self.or_test()?;
        let take = self.evaluating() && python_truth(&c)?;
        self.expect("else")?;
        let after = self.pos;
        self.pos = start;
        let a = if take {
            self.or_test()?
        } else {
            self.skipping(Self::or_test)?
        };
        if self.pos != if_at {
            return Err(ExprError::Syntax(format!(
                "expected 'if', found {}",
                self.tokens[self.pos]
            )));
        }
        self.pos = after;
        let b = if take || !self.evaluating() {
            self.nested(|p| p.skipping(Self::expression))?
        } else {
            self.nested(Self::expression)?
        };
        Ok(if take { a } else { b })
    }

    /// `lambda a, b: body`, `lambda` read: the body is read, and kept to be evaluated where
    /// the lambda is applied.
    fn lambda(&mut self) -> Result<Val<'s>> {
        let mut params: Vec<String> = Vec::new();
        if !self.eat(":") {
            loop {
                match self.peek() {
                    Some(Token::Name(n)) if !keyword(n) => {
                        if params.contains(n) {
                            return Err(ExprError::Syntax(format!(
                                "lambda: parameter '{}' twice",
                                cut(n)
                            )));
                        }
                        params.push(n.clone());
                        self.pos += 1;
                    }
                    other => {
                        return Err(ExprError::Syntax(match other {
                            Some(t) => format!("lambda: expected a parameter name, found {t} (no defaults, *args or **kwargs)"),
                            None => "lambda: the expression ends too early".into(),
                        }))
                    }
                }
                if self.eat(":") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let start = self.pos;
        self.skipping(Self::expression)?;
        if !self.evaluating() {
            return Ok(skipped());
        }
        let body = self.tokens[start..self.pos].to_vec();
        let f = Value::Lambda(Arc::new(Lambda {
            params,
            close: matching(&body),
            body,
            captured: self.locals.map(Scope::flatten).unwrap_or_default(),
        }));
        let (items, depth) = f.measure();
        self.budget.make(items, depth)?;
        Ok(Cow::Owned(f))
    }

    fn or_test(&mut self) -> Result<Val<'s>> {
        let mut v = self.and_test()?;
        while self.eat_word("or") {
            // `a or b` is a if a is true, else b.
            if self.evaluating() && python_truth(&v)? {
                self.skipping(Self::and_test)?;
            } else {
                v = self.and_test()?;
            }
        }
        Ok(v)
    }

    fn and_test(&mut self) -> Result<Val<'s>> {
        let mut v = self.not_test()?;
        while self.eat_word("and") {
            // `a and b` is a if a is false, else b.
            if self.evaluating() && !python_truth(&v)? {
                self.skipping(Self::not_test)?;
            } else {
                v = self.not_test()?;
            }
        }
        Ok(v)
    }

    fn not_test(&mut self) -> Result<Val<'s>> {
        if self.eat_word("not") {
            let v = self.nested(Self::not_test)?;
            if !self.evaluating() {
                return Ok(skipped());
            }
            return Ok(Cow::Owned(Value::Bool(!python_truth(&v)?)));
        }
        self.comparison()
    }

    /// The comparison operator here, read.
    fn comparison_op(&mut self) -> Option<Cmp> {
        let op = match self.peek()? {
            Token::Op("<") => Cmp::Lt,
            Token::Op("<=") => Cmp::Le,
            Token::Op(">") => Cmp::Gt,
            Token::Op(">=") => Cmp::Ge,
            Token::Op("==") => Cmp::Eq,
            Token::Op("!=") => Cmp::Ne,
            Token::Name(n) if n == "in" => Cmp::In,
            Token::Name(n) if n == "is" => {
                if matches!(self.tokens.get(self.pos + 1), Some(Token::Name(m)) if m == "not") {
                    self.pos += 1;
                    Cmp::IsNot
                } else {
                    Cmp::Is
                }
            }
            Token::Name(n)
                if n == "not"
                    && matches!(self.tokens.get(self.pos + 1), Some(Token::Name(m)) if m == "in") =>
            {
                self.pos += 1;
                Cmp::NotIn
            }
            _ => return None,
        };
        self.pos += 1;
        Some(op)
    }

    /// `a < b`, chained as Python chains them: `a < b < c` is `a < b and b < c`, c read but
    /// not evaluated where a < b is false.
    fn comparison(&mut self) -> Result<Val<'s>> {
        let first = self.arith()?;
        let Some(mut op) = self.comparison_op() else {
            return Ok(first);
        };
        let mut left = first;
        let mut result = true;
        loop {
            if result && self.evaluating() {
                let right = self.arith()?;
                result = compare(op, &left, &right)?;
                left = right;
            } else {
                self.skipping(Self::arith)?;
            }
            match self.comparison_op() {
                Some(next) => op = next,
                None => break,
            }
        }
        if !self.evaluating() {
            return Ok(skipped());
        }
        Ok(Cow::Owned(Value::Bool(result)))
    }

    fn binary(&mut self, op: Op, a: &Value, b: &Value) -> Result<Val<'s>> {
        if !self.evaluating() {
            return Ok(skipped());
        }
        Ok(Cow::Owned(arith(op, a, b, self.budget)?))
    }

    fn arith(&mut self) -> Result<Val<'s>> {
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
            v = self.binary(op, &v, &r)?;
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
            v = self.binary(op, &v, &r)?;
        }
    }

    /// A unary sign or a power: most recursions of the grammar pass here, so the depth is
    /// counted here.
    fn factor(&mut self) -> Result<Val<'s>> {
        self.nested(Self::factor_inner)
    }

    fn factor_inner(&mut self) -> Result<Val<'s>> {
        for (sign, minus) in [("-", true), ("+", false)] {
            if self.eat(sign) {
                let v = self.factor()?;
                if !self.evaluating() {
                    return Ok(skipped());
                }
                return Ok(Cow::Owned(unary(sign, minus, &v, self.budget)?));
            }
        }
        let base = self.postfix()?;
        if self.eat("**") {
            let exp = self.factor()?;
            return self.binary(Op::Pow, &base, &exp);
        }
        Ok(base)
    }

    fn postfix(&mut self) -> Result<Val<'s>> {
        let mut v = match self.peek() {
            Some(Token::Name(first)) if !keyword(first) => {
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
                    let (args, kwargs) = self.arguments()?;
                    if self.evaluating() {
                        Cow::Owned(self.call_name(&name, &args, &kwargs)?)
                    } else {
                        skipped()
                    }
                } else if self.evaluating() {
                    self.name(&name)?
                } else {
                    skipped()
                }
            }
            _ => self.atom()?,
        };
        loop {
            if self.eat("[") {
                v = self.subscript(v)?;
            } else if self.eat(".") {
                // A method of the value (`digital.constellation_qpsk().base()`).
                let Some(Token::Name(method)) = self.peek().cloned() else {
                    return Err(ExprError::Syntax("a name must follow '.'".into()));
                };
                self.pos += 1;
                self.expect("(")?;
                let (args, kwargs) = self.arguments()?;
                if self.evaluating() {
                    v = Cow::Owned(self.call_method(&v, &method, &args, &kwargs)?);
                }
            } else if self.eat("(") {
                let (args, kwargs) = self.arguments()?;
                if self.evaluating() {
                    v = Cow::Owned(self.call_value(&v, &args, &kwargs)?);
                }
            } else {
                return Ok(v);
            }
        }
    }

    /// `v[i]` or `v[start:stop:step]`, `[` read.
    fn subscript(&mut self, v: Val<'s>) -> Result<Val<'s>> {
        let mut parts: [Option<Val<'s>>; 3] = [None, None, None];
        let mut colons = 0;
        loop {
            if !matches!(self.peek(), Some(Token::Op(":" | "]"))) {
                parts[colons] = Some(self.expression()?);
            }
            if colons < 2 && self.eat(":") {
                colons += 1;
            } else {
                break;
            }
        }
        self.expect("]")?;
        if !self.evaluating() {
            return Ok(skipped());
        }
        if colons == 0 {
            let i = parts[0]
                .take()
                .ok_or_else(|| ExprError::Syntax("an empty index '[]'".into()))?;
            return index(v, &i);
        }
        let [a, b, c] = parts;
        Ok(Cow::Owned(slice(
            &v,
            [a.as_deref(), b.as_deref(), c.as_deref()],
            self.budget,
        )?))
    }

    /// The arguments of a call, `(` read: positional, then `name=value` keywords.
    #[allow(clippy::type_complexity)]
    fn arguments(&mut self) -> Result<(Vec<Val<'s>>, Vec<(String, Val<'s>)>)> {
        let (mut args, mut kwargs) = (Vec::new(), Vec::<(String, Val<'s>)>::new());
        if self.eat(")") {
            return Ok((args, kwargs));
        }
        loop {
            let keyword_name = match (self.peek(), self.tokens.get(self.pos + 1)) {
                (Some(Token::Name(n)), Some(Token::Op("="))) if !keyword(n) => Some(n.clone()),
                _ => None,
            };
            if let Some(name) = keyword_name {
                self.pos += 2;
                if kwargs.iter().any(|(k, _)| *k == name) {
                    return Err(ExprError::Syntax(format!(
                        "keyword argument '{}' repeated",
                        cut(&name)
                    )));
                }
                let v = self.expression()?;
                kwargs.push((name, v));
            } else {
                if !kwargs.is_empty() {
                    return Err(ExprError::Syntax(
                        "a positional argument follows a keyword argument".into(),
                    ));
                }
                args.push(self.expression()?);
            }
            if self.eat(")") {
                return Ok((args, kwargs));
            }
            if !self.eat(",") {
                return Err(ExprError::Syntax(match self.peek() {
                    Some(t) => format!("expected ',' or ')', found {t}"),
                    None => "expected ')' at the end".into(),
                }));
            }
            if self.eat(")") {
                return Ok((args, kwargs));
            }
        }
    }

    /// `name(args)`: a lambda or function bound to the name, `map`, or a supported function.
    fn call_name(
        &mut self,
        name: &str,
        args: &[Val<'s>],
        kwargs: &[(String, Val<'s>)],
    ) -> Result<Value> {
        let bound = self
            .locals
            .and_then(|s| s.get(name))
            .or_else(|| match self.done.get(name) {
                Some(Ok(v)) => Some(v),
                _ => None,
            });
        if let Some(f) = bound {
            let f = f.clone();
            return self.call_value(&f, args, kwargs);
        }
        // `c.points()`: a method of the value of variable `c` (its error if it has one).
        if let Some((object, method)) = name.split_once('.') {
            let value = match self.locals.and_then(|s| s.get(object)) {
                Some(v) => Some(v),
                None => match self.done.get(object) {
                    Some(Ok(v)) => Some(v),
                    Some(Err(e)) => return Err(e.clone()),
                    None => None,
                },
            };
            if let Some(v) = value {
                // Only a constellation and a modulator have methods here (cloned: an `Arc`).
                let v = match v {
                    Value::Constellation(c) => Value::Constellation(c.clone()),
                    Value::Modulator(m) => Value::Modulator(m.clone()),
                    // A header format is the string of its text form.
                    Value::Str(text) => {
                        let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
                        if let Some(result) = super::header_format::method(text, method, &args) {
                            return result;
                        }
                        // And so is an adaptive algorithm.
                        if let Some(result) = super::adaptive_algorithm::method(text, method, &args)
                        {
                            return result;
                        }
                        // And a FEC decoder.
                        if let Some(result) = super::fec::method(text, method, &args) {
                            return result;
                        }
                        return Err(no_method(v, method));
                    }
                    v => return Err(no_method(v, method)),
                };
                return self.call_method(&v, method, args, kwargs);
            }
        }
        if name == "map" {
            return self.map(args, kwargs);
        }
        let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
        let kwargs: Vec<(&str, &Value)> = kwargs.iter().map(|(k, v)| (k.as_str(), &**v)).collect();
        call(name, &args, &kwargs, self.budget)
    }

    /// `v.method(args)`: the methods of GNU Radio's objects radioflow evaluates.
    fn call_method(
        &mut self,
        v: &Value,
        method: &str,
        args: &[Val<'s>],
        kwargs: &[(String, Val<'s>)],
    ) -> Result<Value> {
        let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
        let kwargs: Vec<(&str, &Value)> = kwargs.iter().map(|(k, v)| (k.as_str(), &**v)).collect();
        match v {
            Value::Constellation(c) => {
                super::digital::method(c, method, &args, &kwargs, self.budget)
            }
            Value::Modulator(m) if kwargs.is_empty() => super::modulate::method(m, method, &args),
            // An adaptive algorithm is the string of its text form (`f(...).base()`).
            Value::Str(text) if kwargs.is_empty() => {
                super::adaptive_algorithm::method(text, method, &args)
                    .unwrap_or_else(|| Err(no_method(v, method)))
            }
            // numpy's `a.tolist()`: the same numbers as a list.
            Value::Array(items) if method == "tolist" && args.is_empty() && kwargs.is_empty() => {
                self.budget.make(items.len(), 1)?;
                Ok(Value::List(items.clone()))
            }
            other => Err(no_method(other, method)),
        }
    }

    /// `f(args)` for a value `f`.
    fn call_value(
        &mut self,
        f: &Value,
        args: &[Val<'s>],
        kwargs: &[(String, Val<'s>)],
    ) -> Result<Value> {
        match f {
            Value::Lambda(l) => {
                let args = args.iter().map(|a| &**a).collect::<Vec<_>>();
                let kwargs: Vec<(&str, &Value)> =
                    kwargs.iter().map(|(k, v)| (k.as_str(), &**v)).collect();
                self.apply(l, &args, &kwargs)
            }
            // A builtin's name, called as the builtin (not looked up again).
            Value::Function(name) if name == "map" => self.map(args, kwargs),
            Value::Function(name) => {
                let args: Vec<&Value> = args.iter().map(|a| &**a).collect();
                let kwargs: Vec<(&str, &Value)> =
                    kwargs.iter().map(|(k, v)| (k.as_str(), &**v)).collect();
                call(name, &args, &kwargs, self.budget)
            }
            other => Err(ExprError::Unsupported(format!(
                "a {} is not callable: {}",
                other.type_name(),
                cut_display(other)
            ))),
        }
    }

    /// A lambda applied: its body evaluated with its parameters bound (counted against
    /// [`MAX_STEPS`], one level deeper for each application
    /// inside it).
    fn apply(&mut self, f: &Lambda, args: &[&Value], kwargs: &[(&str, &Value)]) -> Result<Value> {
        let wrong = |what: String| ExprError::Unsupported(format!("<lambda>(): {what}"));
        if args.len() > f.params.len() {
            return Err(wrong(format!(
                "takes {} arguments but {} were given",
                f.params.len(),
                args.len()
            )));
        }
        let mut bound: Vec<Option<Value>> = args.iter().map(|&a| Some(a.clone())).collect();
        bound.resize(f.params.len(), None);
        for &(k, v) in kwargs {
            let i = f
                .params
                .iter()
                .position(|p| p == k)
                .ok_or_else(|| wrong(format!("no parameter '{}'", cut(k))))?;
            if bound[i].replace(v.clone()).is_some() {
                return Err(wrong(format!("argument '{}' given twice", cut(k))));
            }
        }
        let names = f
            .params
            .iter()
            .zip(bound)
            .map(|(p, v)| {
                v.map(|v| (p.clone(), v))
                    .ok_or_else(|| wrong(format!("argument '{}' is missing", cut(p))))
            })
            .collect::<Result<Vec<_>>>()?;
        self.budget.step(f.body.len())?;
        let captured = Scope {
            names: &f.captured,
            parent: None,
        };
        let scope = Scope {
            names: &names,
            parent: Some(&captured),
        };
        let mut body = Parser {
            tokens: &f.body,
            close: &f.close,
            pos: 0,
            depth: self.depth,
            skip: 0,
            locals: Some(&scope),
            raw: self.raw,
            done: self.done,
            budget: self.budget,
        };
        let v = body.expression()?;
        body.budget.own(v)
    }

    /// `map(f, a, b...)`: f applied to the items of a, b... in step (Python's iterator made
    /// whole into a list).
    fn map(&mut self, args: &[Val<'s>], kwargs: &[(String, Val<'s>)]) -> Result<Value> {
        let (Some(f), iterables, true) = (
            args.first(),
            args.get(1..).unwrap_or_default(),
            kwargs.is_empty(),
        ) else {
            return Err(ExprError::Unsupported(
                "map takes a function and one or more lists, no keywords".into(),
            ));
        };
        if iterables.is_empty() {
            return Err(ExprError::Unsupported("map takes at least one list".into()));
        }
        let lists = iterables
            .iter()
            .map(|v| items(v, "map", self.budget))
            .collect::<Result<Vec<_>>>()?;
        let n = lists.iter().map(Vec::len).min().unwrap_or(0);
        self.budget.make(n, 1)?;
        let mut out = Vec::with_capacity(n);
        let mut depth = 0;
        for i in 0..n {
            let row: Vec<Val<'s>> = lists.iter().map(|l| Cow::Owned(l[i].clone())).collect();
            let v = self.call_value(f, &row, &[])?;
            depth = depth.max(v.measure().1);
            out.push(v);
        }
        self.budget.make(0, depth + 1)?;
        Ok(Value::List(out))
    }

    fn atom(&mut self) -> Result<Val<'s>> {
        let Some(token) = self.peek() else {
            return Err(ExprError::Syntax("the expression ends too early".into()));
        };
        let token = token.clone();
        self.pos += 1;
        match token {
            Token::Num(n) => Ok(Cow::Owned(n.into())),
            Token::Str(s) => {
                if !self.evaluating() {
                    return Ok(skipped());
                }
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
            Token::Op("{") => self.dict(),
            Token::Op("[") => {
                if let Some(for_at) = self.comprehension_ahead() {
                    return self.comprehension(for_at);
                }
                let items = self.list_until("]")?;
                self.list(items)
            }
            t => {
                self.pos -= 1;
                Err(ExprError::Syntax(format!("unexpected {t}")))
            }
        }
    }

    /// `[element for name in iterable if condition]`, `[` read, `for` at `for_at`: the
    /// element (and the condition) evaluated again for each item, with the name bound.
    fn comprehension(&mut self, for_at: usize) -> Result<Val<'s>> {
        let element = self.pos;
        self.skipping(Self::expression)?;
        if self.pos != for_at {
            return Err(ExprError::Syntax(format!(
                "expected 'for', found {}",
                self.tokens[self.pos]
            )));
        }
        self.pos += 1;
        let name = match self.peek() {
            Some(Token::Name(n)) if !keyword(n) => n.clone(),
            other => {
                return Err(ExprError::Syntax(match other {
                    Some(t) => format!("a comprehension binds one name, not {t}"),
                    None => "the expression ends too early".into(),
                }))
            }
        };
        self.pos += 1;
        self.expect("in")?;
        let iterable = self.or_test()?;
        let condition = if self.eat_word("if") {
            let at = self.pos;
            self.skipping(Self::or_test)?;
            Some(at)
        } else {
            None
        };
        self.expect("]")?;
        if !self.evaluating() {
            return Ok(skipped());
        }
        let cost = self.pos - element;
        let source = items(&iterable, "a comprehension", self.budget)?;
        let mut out = Vec::new();
        let mut depth = 0;
        for item in source {
            self.budget.step(cost)?;
            let names = [(name.clone(), item)];
            let scope = Scope {
                names: &names,
                parent: self.locals,
            };
            let mut body = Parser {
                tokens: self.tokens,
                close: self.close,
                pos: element,
                depth: self.depth,
                skip: 0,
                locals: Some(&scope),
                raw: self.raw,
                done: self.done,
                budget: self.budget,
            };
            if let Some(at) = condition {
                body.pos = at;
                let keep = body.or_test()?;
                if !python_truth(&keep)? {
                    continue;
                }
                body.pos = element;
            }
            let v = body.expression()?;
            let v = body.budget.own(v)?;
            self.budget.make(1, 0)?;
            depth = depth.max(v.measure().1);
            out.push(v);
        }
        self.budget.make(0, depth + 1)?;
        Ok(Cow::Owned(Value::List(out)))
    }

    /// A list of `items` (variables among them copied).
    fn list(&mut self, items: Vec<Val<'s>>) -> Result<Val<'s>> {
        if !self.evaluating() {
            return Ok(skipped());
        }
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

    /// `{key: value, ...}`, `{` read: a Python dict, kept as the PMT dict GNU Radio's
    /// `pmt.to_pmt` makes of it (the form every block parameter and message takes a dict in);
    /// keys and values converted as `pmt.to_pmt` converts them.
    fn dict(&mut self) -> Result<Val<'s>> {
        let mut entries = Vec::new();
        while !self.eat("}") {
            let key = self.expression()?;
            self.expect(":")?;
            let value = self.expression()?;
            entries.push((key, value));
            if !self.eat(",") {
                self.expect("}")?;
                break;
            }
        }
        if !self.evaluating() {
            return Ok(skipped());
        }
        self.budget.make(2 * entries.len(), 2)?;
        let mut pairs = Vec::with_capacity(entries.len());
        for (key, value) in &entries {
            match (python_to_pmt(key), python_to_pmt(value)) {
                (Ok(k), Ok(v)) => pairs.push((k, v)),
                // A value no PMT holds as Python does (a list): a dict of Python values.
                _ => {
                    return Ok(Cow::Owned(Value::Dict(
                        entries
                            .into_iter()
                            .map(|(k, v)| (k.into_owned(), v.into_owned()))
                            .collect(),
                    )))
                }
            }
        }
        Ok(Cow::Owned(Value::Pmt(radioflow_runtime::Pmt::dict_from(
            pairs,
        ))))
    }

    fn list_until(&mut self, close: &str) -> Result<Vec<Val<'s>>> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expression()?);
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

    fn name(&mut self, name: &str) -> Result<Val<'s>> {
        if let Some(v) = self.locals.and_then(|s| s.get(name)) {
            return Ok(Cow::Borrowed(v));
        }
        match name {
            "True" => return Ok(Cow::Owned(Value::Bool(true))),
            "False" => return Ok(Cow::Owned(Value::Bool(false))),
            "None" => return Ok(Cow::Owned(Value::None)),
            _ => {}
        }
        if let Some(v) = constant(name) {
            let (items, depth) = v.measure();
            self.budget.make(items, depth)?;
            return Ok(Cow::Owned(v));
        }
        let done: &'s HashMap<String, Result<Value>> = self.done;
        match done.get(name) {
            Some(Ok(v)) => Ok(Cow::Borrowed(v)),
            Some(Err(e)) => Err(e.clone()),
            // Every variable an expression names is evaluated before it, except one that
            // waits for this very expression.
            None if self.raw.contains_key(name) => Err(ExprError::Cycle(name.to_owned())),
            None if is_function(name) => Ok(Cow::Owned(Value::Function(name.to_owned()))),
            None => Err(ExprError::UnknownName(name.to_owned())),
        }
    }
}

/// The error of `v.method()` for a value without methods radioflow evaluates.
fn no_method(v: &Value, method: &str) -> ExprError {
    ExprError::Unsupported(format!(
        "a {} has no method {}() radioflow evaluates",
        v.type_name(),
        cut(method)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::{Complex32, Complex64};
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
        // Dicts, as GNU Radio's pmt.to_pmt makes them (each entry added in front).
        assert_eq!(
            ev("pmt.to_pmt({\"freq\": 2000, 'ampl': 1.5,})"),
            Ok(Value::Pmt(Pmt::dict_from([
                (Pmt::symbol("freq"), Pmt::Int(2000)),
                (Pmt::symbol("ampl"), Pmt::Double(1.5)),
            ])))
        );
        assert_eq!(ev("{}"), Ok(Value::Pmt(Pmt::Null)));
        // gr-uhd's tune request, as the dict its blocks' command message takes.
        let tune = |freq: f64, lo: f64| {
            Ok(Value::Pmt(Pmt::dict_from([
                (Pmt::symbol("freq"), Pmt::Double(freq)),
                (Pmt::symbol("lo_offset"), Pmt::Double(lo)),
            ])))
        };
        assert_eq!(
            ev("uhd.tune_request(915e6, samp_rate/2.0)"),
            tune(915e6, 16e3)
        );
        assert_eq!(ev("uhd.tune_request(100e6)"), tune(100e6, 0.0));
        assert!(ev("uhd.tune_request(1, 2, 3)")
            .unwrap_err()
            .contains("no tune request with RF or DSP policies"));
        // GNU Radio's tagged_streams.make_lengthtags (gnuradio.digital.utils): what its Python
        // gives for these arguments, each tag as (offset, key, value).
        let tag = |o: i64, k: &str, v: i64| {
            Value::Pmt(Pmt::Tuple(
                [Pmt::Int(o), Pmt::symbol(k), Pmt::Int(v)].into(),
            ))
        };
        assert_eq!(
            ev("tagged_streams.make_lengthtags((1024,), (0,), \"first stream\")"),
            Ok(Value::List(vec![tag(0, "first stream", 1024)]))
        );
        assert_eq!(
            ev("tagged_streams.make_lengthtags([8, 12], [0, 9], vlen=4)"),
            Ok(Value::List(vec![tag(0, "length", 2), tag(2, "length", 3)]))
        );
        assert!(ev("tagged_streams.make_lengthtags([1], [])").is_err());
        assert!(ev("tagged_streams.make_lengthtags([1], [0], vlen=0)").is_err());
        // GNU Radio's gr.tag_utils.python_to_tag / gr.python_to_tag (what its Python gives,
        // as (offset, key, value, srcid); tag_t's defaults 0, (), (), #f for a dict's gaps).
        let full =
            |o: i64, k: Pmt, v: Pmt, s: Pmt| Value::Pmt(Pmt::Tuple([Pmt::Int(o), k, v, s].into()));
        assert_eq!(
            ev("gr.tag_utils.python_to_tag((2, pmt.intern(\"mark2\"), pmt.from_long(12345), pmt.intern(\"tag1\")))"),
            Ok(full(2, Pmt::symbol("mark2"), Pmt::Int(12345), Pmt::symbol("tag1")))
        );
        assert_eq!(
            ev("gr.python_to_tag([1, pmt.intern('k'), pmt.PMT_T])"),
            Ok(full(1, Pmt::symbol("k"), Pmt::Bool(true), Pmt::Bool(false)))
        );
        assert_eq!(
            ev("gr.python_to_tag({'offset':0, 'key':pmt.intern('packet_len'), 'value':pmt.from_long(20), 'srcid':pmt.intern('vector_source')})"),
            Ok(full(0, Pmt::symbol("packet_len"), Pmt::Int(20), Pmt::symbol("vector_source")))
        );
        assert_eq!(
            ev("gr.python_to_tag({'offset': 3})"),
            Ok(full(3, Pmt::Null, Pmt::Null, Pmt::Bool(false)))
        );
        assert!(ev("gr.python_to_tag({})")
            .unwrap_err()
            .contains("gives no tag"));
        assert!(ev("gr.python_to_tag((1, 2))")
            .unwrap_err()
            .contains("(offset, key, value[, srcid])"));
        assert!(ev("gr.python_to_tag((-1, pmt.PMT_T, pmt.PMT_T))")
            .unwrap_err()
            .contains("offset"));
        assert!(ev("gr.python_to_tag((1, 'k', pmt.PMT_T))")
            .unwrap_err()
            .contains("the key must be a PMT"));
        assert_eq!(ev("pmt.to_pmt(None)"), Ok(Value::Pmt(Pmt::Null)));
        assert!(ev("pmt.to_pmt([1, 2])").is_err());
        assert!(ev("pmt.to_pmt({1: [2]})").is_err());
        assert!(ev("{1 2}").is_err());
        assert!(ev("{1: 2").is_err());
        assert_eq!(ev("pmt.PMT_T"), Ok(Value::Pmt(Pmt::Bool(true))));
        assert_eq!(
            ev("pmt.cons(pmt.make_dict(), pmt.intern(\"x\"))"),
            Ok(Value::Pmt(Pmt::pair(Pmt::Null, Pmt::symbol("x"))))
        );
        assert!(ev("pmt.cons(1, pmt.PMT_NIL)").is_err());
        assert_eq!(
            ev("pmt.make_tuple(pmt.from_uint64(1),pmt.from_double(0.25))"),
            Ok(Value::Pmt(Pmt::Tuple(
                vec![Pmt::Uint64(1), Pmt::Double(0.25)].into()
            )))
        );
        assert!(ev("pmt.from_uint64(-1)").is_err());
        assert_eq!(
            ev("pmt.init_c32vector(2, [1, 2j, 3])"),
            Ok(Value::Pmt(Pmt::C32Vector(
                vec![Complex32::new(1.0, 0.0), Complex32::new(0.0, 2.0)].into()
            )))
        );
        assert_eq!(
            ev("pmt.init_f32vector(3, numpy.arange(3))"),
            Ok(Value::Pmt(Pmt::F32Vector(vec![0.0, 1.0, 2.0].into())))
        );
        assert!(ev("pmt.init_u8vector(4, [1])").is_err());
        assert_eq!(
            ev("numpy.arange(2).tolist()"),
            Ok(Value::List(vec![Value::Int(0), Value::Int(1)]))
        );
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

    /// Each design the evaluator calls gives radioflow-dsp's taps (checked there against
    /// GNU Radio's), with GNU Radio's argument names and defaults.
    #[test]
    fn filter_designs_are_radioflow_dsps() {
        use radioflow_dsp::{firdes, optfir};
        let list = |text: &str| -> Vec<f64> {
            match ev(text) {
                Ok(Value::List(v)) => v
                    .iter()
                    .map(|x| match x {
                        Value::Float(f) => *f,
                        other => panic!("{text}: {other:?}"),
                    })
                    .collect(),
                other => panic!("{text}: {other:?}"),
            }
        };
        let f64s = |t: Vec<f32>| t.into_iter().map(f64::from).collect::<Vec<_>>();
        let w = firdes::Window::Kaiser { beta: 6.76 };
        assert_eq!(
            list("firdes.low_pass_2(2, 48e3, 5e3, 2e3, 60, window.WIN_KAISER)"),
            f64s(firdes::low_pass_2(2.0, 48e3, 5e3, 2e3, 60.0, w).unwrap())
        );
        assert_eq!(
            list("filter.firdes.high_pass_2(1, 48e3, 5e3, 2e3, attenuation_dB=70)"),
            f64s(firdes::high_pass_2(1.0, 48e3, 5e3, 2e3, 70.0, firdes::Window::Hamming).unwrap())
        );
        let bh = firdes::Window::BlackmanHarris;
        // GNU Radio 3.10: firdes.window(window.WIN_HANN, 5, 0) and WIN_KAISER, 5, 3.
        assert_eq!(
            list("firdes.window(window.WIN_HANN, 5, 0)"),
            [0.0, 0.5, 1.0, 0.5, 0.0]
        );
        let kaiser = list("firdes.window(window.WIN_KAISER, 5, 3)");
        for (a, b) in kaiser
            .iter()
            .zip([0.20488475, 0.72692555, 1.0, 0.72692555, 0.20488475])
        {
            assert!((a - b).abs() < 1e-7, "{kaiser:?}");
        }
        assert!(ev("firdes.window(window.WIN_HANN, 1, 0)").is_err());
        assert_eq!(
            list("firdes.band_pass(1, 48e3, 4e3, 8e3, 1e3, fft.window.WIN_BLACKMAN_HARRIS)"),
            f64s(firdes::band_pass(1.0, 48e3, 4e3, 8e3, 1e3, bh).unwrap())
        );
        assert_eq!(
            list("firdes.band_reject_2(1, 48e3, 4e3, 8e3, 1e3, 50)"),
            f64s(
                firdes::band_reject_2(1.0, 48e3, 4e3, 8e3, 1e3, 50.0, firdes::Window::Hamming)
                    .unwrap()
            )
        );
        assert_eq!(
            list("filter.optfir.low_pass(32, 32, 0.4, 0.6, 0.1, 100)"),
            optfir::low_pass(32.0, 32.0, 0.4, 0.6, 0.1, 100.0, 2).unwrap()
        );
        assert_eq!(
            list("optfir.band_pass(1, 48e3, 4e3, 6e3, 10e3, 12e3, 0.5, 60, nextra_taps=4)"),
            optfir::band_pass(1.0, 48e3, [4e3, 6e3, 10e3, 12e3], 0.5, 60.0, 4).unwrap()
        );
        assert_eq!(
            list("filter.pm_remez(32, [0, 0.4, 0.5, 1], [1, 1, 0, 0], [1, 1])"),
            optfir::pm_remez(
                32,
                &[0.0, 0.4, 0.5, 1.0],
                &[1.0, 1.0, 0.0, 0.0],
                &[1.0, 1.0],
                optfir::RemezType::Bandpass,
                16
            )
            .unwrap()
        );
        for (text, wanted) in [
            (
                "filter.pm_remez(5000, [0, 0.4, 0.5, 1], [1, 1, 0, 0], [1, 1])",
                "order 5000",
            ),
            (
                "filter.pm_remez(32, [0, 0.4, 0.5, 1], [1, 1, 0, 0], [1, 1], 'x')",
                "filter_type",
            ),
            ("optfir.low_pass(1, 1, 0.3, 0.2, 0.1, 60)", "band edges"),
            ("firdes.low_pass_2(1, 1, 0.1, 1e-9, 60)", "taps"),
        ] {
            let e = err(text).to_string();
            assert!(e.contains(wanted), "{text}: {e}");
        }
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
        // A lambda is a value now (issue 34); what Python allows beyond this subset is not.
        assert!(ev("lambda *a: 1")
            .unwrap_err()
            .contains("no defaults, *args"));
        // Dicts are PMT dicts (sig_source_msg_ports.grc); one holding what a PMT cannot hold as
        // Python does (a list) stays a dict of Python values (packet_rx.grc's
        // `{1: preamble_dummy, 3: preamble_rep}`), indexed by key, and refused as a PMT.
        assert_eq!(
            ev("{1: [2], 'a': 3}"),
            Ok(Value::Dict(vec![
                (Value::Int(1), Value::List(vec![Value::Int(2)])),
                (Value::Str("a".into()), Value::Int(3)),
            ]))
        );
        assert_eq!(
            ev("{1: [2], 3: [4, 5]}[3]"),
            Ok(Value::List(vec![Value::Int(4), Value::Int(5)]))
        );
        assert_eq!(ev("{1: [2], 3: [4]}[int(3.0)][0] + 1"), Ok(Value::Int(5)));
        assert_eq!(ev("{1: [2], 'a': 3}['a']"), Ok(Value::Int(3)));
        assert!(ev("{1: [2]}[2]")
            .unwrap_err()
            .contains("key 2 is not in the dict"));
        assert_eq!(
            ev("str({1: [2], 'a': 'b'})"),
            Ok(Value::Str("{1: [2], 'a': 'b'}".into()))
        );
        assert!(ev("pmt.to_pmt({1: [2]})")
            .unwrap_err()
            .contains("a list or tuple"));
        // A FEC decoder's rate, as GNU Radio's packet examples read it.
        let with_decoders = |text: &str| {
            evaluate(
                text,
                &[
                    ("rep", "fec.repetition_decoder.make(8000, 3, 0.5)"),
                    ("dummy", " fec.dummy_decoder.make(8000)"),
                ],
            )
            .map_err(|e| e.to_string())
        };
        assert_eq!(with_decoders("int(1.0/rep.rate())"), Ok(Value::Int(3)));
        assert_eq!(with_decoders("int(1.0/dummy.rate())"), Ok(Value::Int(1)));
        assert_eq!(
            with_decoders("dummy.get_output_size()"),
            Ok(Value::Int(8000))
        );
        assert!(with_decoders("rep.rate(1)")
            .unwrap_err()
            .contains("takes no argument"));
        assert!(with_decoders("rep.decode()")
            .unwrap_err()
            .contains("has no method decode()"));
        // A PMT dict indexed by key gives the Python value it was made from.
        assert_eq!(ev("{'x': 2.5, 'y': 'on'}['x'] * 2"), Ok(Value::Float(5.0)));
        assert_eq!(
            ev("{'x': 2.5, 'y': 'on'}['y']"),
            Ok(Value::Str("on".into()))
        );
        assert!(ev("{'x': 2.5}['z']")
            .unwrap_err()
            .contains("key 'z' is not in the dict"));
        assert!(ev("{1: 2 3}").unwrap_err().contains("expected '}'"));
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
                // Each level of these passes through more of the grammar.
                let nots = format!("{}1", "not ".repeat(n));
                let elses = format!("{}1", "1 if 1 else ".repeat(n));
                let lambdas = format!("{}1{}", "(lambda: ".repeat(n / 2), ")()".repeat(n / 2));
                let calls = format!(
                    "{}1{}",
                    "f(1 if 1 else [x for x in ".repeat(n / 3),
                    "])".repeat(n / 3)
                );
                for text in [&nots, &elses, &lambdas, &calls] {
                    let _ = evaluate(text, &[("f", "lambda x: x")]);
                }
                let recursive = [("f", "lambda x: 0 if not x else [f(x) for y in [1]]")];
                assert_eq!(evaluate("f(1)", &recursive), Err(ExprError::TooDeep));
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

    fn ints(v: &[i64]) -> Value {
        Value::List(v.iter().map(|&i| Value::Int(i)).collect())
    }

    fn floats(v: &[f64]) -> Value {
        Value::Array(v.iter().map(|&x| Value::Float(x)).collect())
    }

    #[test]
    fn range_is_python_s_with_negative_steps_and_empty_ranges() {
        let v = |t| evaluate(t, &[]);
        assert_eq!(v("list(range(10, -5, -3))"), Ok(ints(&[10, 7, 4, 1, -2])));
        assert_eq!(v("range(0)"), Ok(ints(&[])));
        assert_eq!(v("range(5, 1)"), Ok(ints(&[])));
        assert_eq!(v("range(3)"), Ok(ints(&[0, 1, 2])));
        assert_eq!(
            v("(list(range(-26, -21)) + list(range(22, 27)),)"),
            Ok(Value::List(vec![ints(&[
                -26, -25, -24, -23, -22, 22, 23, 24, 25, 26
            ])]))
        );
        assert!(matches!(err("range(0, 5, 0)"), ExprError::InvalidValue(_)));
        assert!(err("range(1.5)")
            .to_string()
            .contains("cannot be interpreted as an integer"));
        // Counted before it is made.
        assert_eq!(err("range(10**9)"), ExprError::TooLarge);
        assert_eq!(
            err("range(-9223372036854775807-1, 9223372036854775807)"),
            ExprError::TooLarge
        );
    }

    #[test]
    fn numpy_arrays_follow_numpy_s_lengths_and_values() {
        let v = |t| evaluate(t, &[]);
        // ceil((stop - start) / step) elements.
        assert_eq!(v("len(numpy.arange(0, 8.1, .5))"), Ok(Value::Int(17)));
        assert_eq!(v("len(numpy.arange(0, 1, 0.1))"), Ok(Value::Int(10)));
        assert_eq!(v("len(np.arange(1, 0, -0.3))"), Ok(Value::Int(4)));
        assert_eq!(
            v("numpy.arange(-1, 4, 0.5)"),
            Ok(floats(&[
                -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5
            ]))
        );
        assert_eq!(
            v("numpy.arange(3)"),
            Ok(Value::Array(vec![
                Value::Int(0),
                Value::Int(1),
                Value::Int(2)
            ]))
        );
        assert_eq!(v("numpy.arange(5, 1)"), Ok(Value::Array(vec![])));
        assert_eq!(
            v("numpy.linspace(0, 1, 5)"),
            Ok(floats(&[0.0, 0.25, 0.5, 0.75, 1.0]))
        );
        assert_eq!(
            v("numpy.linspace(0, 1, num=4, endpoint=False)"),
            Ok(floats(&[0.0, 0.25, 0.5, 0.75]))
        );
        assert_eq!(
            v("np.kron(np.ones(2), np.arange(3))"),
            Ok(floats(&[0.0, 1.0, 2.0, 0.0, 1.0, 2.0]))
        );
        // Element by element, not repeated as a list would be.
        assert_eq!(v("numpy.arange(3) * 2"), v("numpy.array([0, 2, 4])"));
        assert_eq!(v("1 - numpy.ones(2) / 2"), Ok(floats(&[0.5, 0.5])));
        assert_eq!(v("-numpy.arange(2.0)"), Ok(floats(&[-0.0, -1.0])));
        assert_eq!(v("numpy.sin(numpy.zeros(2))"), Ok(floats(&[0.0, 0.0])));
        assert_eq!(
            v("numpy.square(numpy.abs([3j, -4]))"),
            Ok(floats(&[9.0, 16.0]))
        );
        assert_eq!(
            v("sum(numpy.square([1, 2]))/(len([1, 2])/(1.0*2))"),
            Ok(Value::Float(5.0))
        );
        assert_eq!(v("numpy.mean([1, 2, 3, 4])"), Ok(Value::Float(2.5)));
        assert_eq!(
            v("max(numpy.arange(3)) + min(numpy.ones(2))"),
            Ok(Value::Float(3.0))
        );
        assert_eq!(
            v("numpy.abs(numpy.dot([1j, 1], numpy.conj([1j, 1])))"),
            Ok(Value::Float(2.0))
        );
        assert_eq!(
            v("numpy.sqrt(-1.0)").map(|x| x.as_f64().unwrap().is_nan()),
            Ok(true)
        );
        assert_eq!(
            v("numpy.exp(1j * numpy.pi)").map(|x| matches!(x, Value::Complex(_))),
            Ok(true)
        );
        assert_eq!(
            v("numpy.arange(4)[1:3]"),
            Ok(Value::Array(vec![Value::Int(1), Value::Int(2)]))
        );
        assert!(err("numpy.arange(3) + numpy.arange(4)")
            .to_string()
            .contains("broadcast"));
        assert!(err("numpy.arange(3) == 1")
            .to_string()
            .contains("not supported"));
        assert!(err("numpy.random.randint(40)")
            .to_string()
            .contains("random numbers"));
        // Counted before anything is made.
        assert_eq!(err("numpy.arange(0, 1e12)"), ExprError::TooLarge);
        assert_eq!(err("numpy.arange(1e400)"), ExprError::TooLarge);
        assert_eq!(err("numpy.ones(10**9)"), ExprError::TooLarge);
        assert_eq!(err("numpy.linspace(0, 1, 10**9)"), ExprError::TooLarge);
        assert_eq!(
            err("np.kron(np.ones(4000000), np.ones(4000000))"),
            ExprError::TooLarge
        );
        assert!(matches!(
            err("numpy.arange(0, 1, 0)"),
            ExprError::ZeroDivision(_)
        ));
        assert!(matches!(
            err("numpy.arange(0, float('nan'), 1)"),
            ExprError::InvalidValue(_)
        ));
    }

    #[test]
    fn lambdas_and_map_apply_as_python_does() {
        let v = |t| {
            evaluate(
                t,
                &[("esno", "numpy.arange(0, 2, .5)"), ("num_curves", "2")],
            )
        };
        // No defaults: refused, not misread.
        assert!(v("(lambda x, y=None: x)(1)").is_err());
        assert_eq!(v("(lambda x, y: x - y)(5, 2)"), Ok(Value::Int(3)));
        assert_eq!(v("(lambda x, y: x - y)(y=5, x=2)"), Ok(Value::Int(-3)));
        assert_eq!(v("(lambda: 7)()"), Ok(Value::Int(7)));
        assert_eq!(
            v("list(map(lambda x: int(x), [1.5, 2.5]))"),
            Ok(ints(&[1, 2]))
        );
        assert_eq!(v("list(map(int, [1.5, 2.5]))"), Ok(ints(&[1, 2])));
        assert_eq!(v("(int)(2.5)"), Ok(Value::Int(2)));
        assert_eq!(
            v("list(map(lambda a, b: a * b, [1, 2, 3], [4, 5]))"),
            Ok(ints(&[4, 10]))
        );
        // GNU Radio's BER curve examples: an inner lambda uses the outer one's parameter.
        assert_eq!(
            v("list(map(lambda b:list(map(lambda a:b * len(esno) * 2 + a, range(len(esno)*2))), range(num_curves)))"),
            Ok(Value::List(vec![ints(&[0, 1, 2, 3, 4, 5, 6, 7]), ints(&[8, 9, 10, 11, 12, 13, 14, 15])]))
        );
        // A lambda kept in a variable, applied by another expression.
        let vars = [("double", "lambda x: 2 * x"), ("k", "3")];
        assert_eq!(evaluate("double(k) + double(1)", &vars), Ok(Value::Int(8)));
        // Made inside a lambda, it keeps that lambda's parameters.
        assert_eq!(v("(lambda a: lambda b: a - b)(10)(3)"), Ok(Value::Int(7)));
        assert!(err("(lambda x: x)(1, 2)")
            .to_string()
            .contains("takes 1 arguments but 2"));
        assert!(err("(lambda x: x)()")
            .to_string()
            .contains("argument 'x' is missing"));
        assert!(err("(lambda x: x)(z=1)")
            .to_string()
            .contains("no parameter 'z'"));
        assert!(err("lambda x, x: 1").to_string().contains("twice"));
        assert!(err("3(1)").to_string().contains("not callable"));
    }

    #[test]
    fn lambdas_calling_themselves_are_bounded() {
        // Recursion: as deep as the depth limit.
        let vars = [("f", "lambda x: f(x)")];
        assert_eq!(evaluate("f(1)", &vars), Err(ExprError::TooDeep));
        // Doubling at each level: 2^20 applications, refused by the step budget.
        let vars = [("g", "lambda n: 0 if n == 0 else g(n - 1) + g(n - 1)")];
        assert_eq!(evaluate("g(3)", &vars), Ok(Value::Int(0)));
        assert_eq!(evaluate("g(20)", &vars), Err(ExprError::TooManySteps));
        let vars = [(
            "h",
            "lambda n: 0 if n == 0 else [h(n - 1) for i in range(100)]",
        )];
        assert_eq!(evaluate("len(h(1))", &vars), Ok(Value::Int(100)));
        assert_eq!(evaluate("h(5)", &vars), Err(ExprError::TooManySteps));
        // A map over a long list applies its lambda once an item, each counted.
        assert_eq!(
            err("list(map(lambda x: x + x + x + x + x + x + x + x, range(4000000)))"),
            ExprError::TooManySteps
        );
    }

    #[test]
    fn conditionals_and_boolean_operators_evaluate_only_what_python_does() {
        let v = |t| evaluate(t, &[("zeta", "2.0"), ("empty", "[]")]);
        assert_eq!(v("1 if True else 1/0"), Ok(Value::Int(1)));
        assert_eq!(v("1/0 if False else 2"), Ok(Value::Int(2)));
        assert_eq!(v("empty[0] if len(empty) > 0 else -1"), Ok(Value::Int(-1)));
        assert_eq!(
            v("(zeta*zeta-1.0) if zeta > 1.0 else (1.0-zeta*zeta)"),
            Ok(Value::Float(3.0))
        );
        assert_eq!(v("1 if 0 else 2 if 0 else 3"), Ok(Value::Int(3)));
        assert_eq!(v("[x if x else -1 for x in [0, 5]]"), Ok(ints(&[-1, 5])));
        assert_eq!(v("0 or 'x'"), Ok(Value::Str("x".into())));
        assert_eq!(v("2 and 3"), Ok(Value::Int(3)));
        assert_eq!(v("0 and 1/0"), Ok(Value::Int(0)));
        assert_eq!(v("1 or 1/0"), Ok(Value::Int(1)));
        assert_eq!(v("not []"), Ok(Value::Bool(true)));
        assert_eq!(v("1 < 2 < 3"), Ok(Value::Bool(true)));
        assert_eq!(v("1 < 3 < 2"), Ok(Value::Bool(false)));
        // a < b false: c is not evaluated.
        assert_eq!(v("2 < 1 < 1/0"), Ok(Value::Bool(false)));
        assert_eq!(v("1 == 1.0 != 2"), Ok(Value::Bool(true)));
        assert_eq!(v("'b' in 'abc' and 3 not in [1, 2]"), Ok(Value::Bool(true)));
        assert_eq!(v("None is None"), Ok(Value::Bool(true)));
        assert_eq!(v("[1, 2] < [1, 3]"), Ok(Value::Bool(true)));
        assert_eq!(v("analog.GR_GAUSSIAN == 201"), Ok(Value::Bool(true)));
        assert_eq!(
            v("window.WIN_GAUSSIAN == analog.GR_GAUSSIAN"),
            Ok(Value::Bool(false))
        );
        assert!(err("1 < 'a'").to_string().contains("cannot order"));
        assert!(err("1 if True").to_string().contains("expected 'else'"));
        // The branch not taken is read: its syntax errors are errors.
        assert!(matches!(err("1 if True else (2"), ExprError::Syntax(_)));
        // Nesting through `not`, `else` and `lambda` is bounded like any other.
        assert_eq!(
            err(&format!("{}1", "not ".repeat(100_000))),
            ExprError::TooDeep
        );
        assert_eq!(
            err(&format!("{}1", "1 if 1 else ".repeat(100_000))),
            ExprError::TooDeep
        );
        assert_eq!(
            err(&format!("{}1", "lambda: ".repeat(100_000))),
            ExprError::TooDeep
        );
    }

    #[test]
    fn keyword_arguments_bind_to_gnu_radio_s_parameter_names() {
        let v = |t| evaluate(t, &[]);
        assert_eq!(
            v("firdes.low_pass(1, 32000, 4e3, 1e3, window=window.WIN_HAMMING)"),
            v("firdes.low_pass(1, 32000, 4e3, 1e3)")
        );
        assert_eq!(
            v("firdes.low_pass(gain=1, sampling_freq=32000, transition_width=1e3, cutoff_freq=4e3)"),
            v("firdes.low_pass(1, 32000, 4e3, 1e3)")
        );
        assert_eq!(
            v("firdes.low_pass(1, 32000, 4e3, 1e3, param=5.0, window=window.WIN_KAISER)"),
            v("firdes.low_pass(1, 32000, 4e3, 1e3, window.WIN_KAISER, 5.0)")
        );
        assert_eq!(v("round(2.675, ndigits=2)"), Ok(Value::Float(2.67)));
        assert!(
            err("firdes.low_pass(1, 32000, 4e3, 1e3, windw=window.WIN_HANN)")
                .to_string()
                .contains("no keyword argument 'windw'")
        );
        assert!(err("firdes.low_pass(1, 32000, cutoff_freq=4e3)")
            .to_string()
            .contains("argument 'transition_width' is missing"));
        assert!(err("firdes.low_pass(1, gain=1)")
            .to_string()
            .contains("given twice"));
        assert!(matches!(err("max(1, x=2)"), ExprError::Unsupported(_)));
        assert!(matches!(err("f(a=1, 2)"), ExprError::Syntax(_)));
    }

    #[test]
    fn functions_not_supported_yet_say_so() {
        for (text, wanted) in [
            // The constellations radioflow builds are in grc/digital.rs; the rest say so.
            (
                "digital.psk_8()[0]",
                "'digital.psk_8' is not supported: radioflow builds GNU Radio's constellation",
            ),
            (
                "digital.soft_dec_table_generator([1, -1], 8)",
                "soft-decision table generators",
            ),
            (
                "[random.getrandbits(8) for i in range(4)]",
                "Python's random numbers are not supported",
            ),
            (
                "filter.firdes.hilbert(31)",
                "'filter.firdes.hilbert' is not supported: this filter design",
            ),
            ("firdes.gaussian(1, 4, 0.35, 33)", "filter design"),
            (
                "optfir.complex_band_pass(1, 1, 0.1, 0.2, 0.3, 0.4, 0.1, 60)",
                "filter design",
            ),
        ] {
            let e = err(text).to_string();
            assert!(e.contains(wanted), "{text}: {e}");
        }
    }

    #[test]
    fn comprehensions_slices_and_more_math() {
        let v = |t| evaluate(t, &[]);
        assert_eq!(v("[x*x for x in range(6) if x % 2]"), Ok(ints(&[1, 9, 25])));
        assert_eq!(
            v("[[y for y in range(x)] for x in range(3)][2]"),
            Ok(ints(&[0, 1]))
        );
        assert_eq!(v("[1, 2, 3, 4, 5][::-2]"), Ok(ints(&[5, 3, 1])));
        assert_eq!(v("[1, 2, 3, 4, 5][-2:]"), Ok(ints(&[4, 5])));
        assert_eq!(v("[1, 2, 3, 4, 5][4:1:-1]"), Ok(ints(&[5, 4, 3])));
        assert_eq!(v("[1, 2, 3][5:]"), Ok(ints(&[])));
        assert_eq!(v("'hello'[1:-1]"), Ok(Value::Str("ell".into())));
        assert!(matches!(err("[1][::0]"), ExprError::InvalidValue(_)));
        assert_eq!(
            v("math.sinh(0) + math.cosh(0) + math.tanh(0)"),
            Ok(Value::Float(1.0))
        );
        assert!(matches!(err("math.sinh(1000)"), ExprError::Overflow(_)));
        assert_eq!(v("math.pow(10, 2)"), Ok(Value::Float(100.0)));
        assert_eq!(v("pow(2, 10)"), Ok(Value::Int(1024)));
        assert_eq!(
            v("cmath.exp(0)"),
            Ok(Value::Complex(Complex64::new(1.0, 0.0)))
        );
        assert_eq!(
            v("int(fec.CC_TERMINATED) + float(digital.TED_GARDNER)"),
            Ok(Value::Float(5.0))
        );
        assert_eq!(v("analog.GR_TRI_WAVE"), Ok(Value::Constant("triangle")));
        assert_eq!(
            v("list(map(lambda x: int(x), list(digital.packet_utils.default_access_code)))[:4]"),
            Ok(ints(&[1, 0, 1, 0]))
        );
        assert!(err("analog.GR_GAUSSIAN + 1")
            .to_string()
            .contains("cannot apply '+'"));
        assert_eq!(v("sum([1, 2.5])"), Ok(Value::Float(3.5)));
    }

    /// `window.*` and `fft.window.*`: GNU Radio 3.10's values (`fft.window`, float32).
    #[test]
    fn window_functions_are_gnu_radio_s() {
        let cases: &[(&str, &[f64])] = &[
            (
                "window.hamming(6)",
                &[
                    0.08,
                    0.397_852_18,
                    0.912_147_8,
                    0.912_147_8,
                    0.397_852_18,
                    0.08,
                ],
            ),
            (
                "fft.window.hann(6)",
                &[0.0, 0.345_491_5, 0.904_508_5, 0.904_508_5, 0.345_491_5, 0.0],
            ),
            (
                "window.hanning(6)",
                &[0.0, 0.345_491_5, 0.904_508_5, 0.904_508_5, 0.345_491_5, 0.0],
            ),
            (
                "window.blackman(6)",
                &[0.0, 0.200_770_1, 0.849_229_9, 0.849_229_9, 0.200_770_1, 0.0],
            ),
            (
                "window.blackman3(6)",
                &[
                    6.000_325e-5,
                    -0.113_390_52,
                    0.657_035_6,
                    0.657_035_6,
                    -0.113_390_52,
                    6.000_325e-5,
                ],
            ),
            (
                "window.blackman4(6)",
                &[
                    0.001_857_02,
                    -0.129_272_73,
                    0.338_436_8,
                    0.338_436_8,
                    -0.129_272_73,
                    0.001_857_02,
                ],
            ),
            (
                "window.blackmanharris(6)",
                &[
                    5.996_879e-5,
                    0.103_011_47,
                    0.793_833_5,
                    0.793_833_5,
                    0.103_011_47,
                    5.996_879e-5,
                ],
            ),
            (
                "window.blackman_harris(6, 61)",
                &[
                    0.004_9,
                    0.205_388_26,
                    0.850_236_8,
                    0.850_236_8,
                    0.205_388_26,
                    0.004_9,
                ],
            ),
            (
                "window.blackman_harris(6, atten=67)",
                &[
                    0.012_72,
                    0.251_118_93,
                    0.866_496_1,
                    0.866_496_1,
                    0.251_118_93,
                    0.012_72,
                ],
            ),
            (
                "window.blackman_harris(6, 74)",
                &[
                    -0.002_23,
                    0.174_616_9,
                    0.833_273_1,
                    0.833_273_1,
                    0.174_616_9,
                    -0.002_23,
                ],
            ),
            (
                "window.nuttall(6)",
                &[
                    0.000_362_797,
                    0.110_515_26,
                    0.798_258_1,
                    0.798_258_1,
                    0.110_515_26,
                    0.000_362_797,
                ],
            ),
            (
                "window.blackman_nuttall(6)",
                &[
                    0.000_362_797,
                    0.110_515_26,
                    0.798_258_1,
                    0.798_258_1,
                    0.110_515_26,
                    0.000_362_797,
                ],
            ),
            (
                "window.nuttall_cfd(6)",
                &[
                    0.0,
                    0.098_665_06,
                    0.790_754_97,
                    0.790_754_97,
                    0.098_665_06,
                    0.0,
                ],
            ),
            (
                "window.kaiser(6, 5.0)",
                &[
                    0.036_710_89,
                    0.414_903_64,
                    0.913_812_46,
                    0.913_812_46,
                    0.414_903_64,
                    0.036_710_89,
                ],
            ),
            ("window.bartlett(6)", &[0.0, 0.4, 0.8, 0.8, 0.4, 0.0]),
            (
                "window.welch(6)",
                &[
                    0.489_795_92,
                    0.816_326_56,
                    0.979_591_85,
                    0.979_591_85,
                    0.816_326_56,
                    0.489_795_92,
                ],
            ),
            ("window.rectangular(3)", &[1.0, 1.0, 1.0]),
        ];
        for (text, want) in cases {
            let Ok(Value::List(got)) = ev(text) else {
                panic!("{text}: {:?}", ev(text))
            };
            assert_eq!(got.len(), want.len(), "{text}");
            for (g, w) in got.iter().zip(*want) {
                let g = g.as_f64().unwrap();
                // GNU Radio sums the cosines in float32; radioflow in f64, then rounds.
                assert!((g - w).abs() < 5e-7, "{text}: {g} vs GNU Radio's {w}");
            }
        }
        assert!(ev("window.blackman_harris(6, 50)")
            .unwrap_err()
            .contains("61, 67, 74 or 92"));
        assert!(ev("window.hann(1)").unwrap_err().contains("ntaps"));
        assert!(ev("window.tukey(6, 0.5)")
            .unwrap_err()
            .contains("not supported yet"));
    }
}
