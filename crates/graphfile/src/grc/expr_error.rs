//! Why a GRC expression has no value ([`ExprError`]), and the limits that bound every
//! expression (errors name them).

use radioflow_runtime::echo::cut;

/// How deep expressions and values nest: parentheses, brackets, calls, unary signs and powers
/// in an expression, lists in a value. Python itself refuses 200 nested parentheses; 100
/// levels of this evaluator's recursion fit in a 2 MiB thread stack with room to spare.
pub const MAX_DEPTH: usize = 100;

/// The most items one value holds: list elements at every depth plus string bytes (4 Mi: a
/// million-tap filter and a 4 Mi-sample vector fit).
pub const MAX_ITEMS: usize = 1 << 22;

/// The most items the expressions of one file make in all (16 Mi, about 512 MiB of values):
/// every list and string made counts, a variable's value once, and once more for each
/// parameter that is that variable.
pub const MAX_TOTAL_ITEMS: usize = 1 << 24;

/// The most tokens the expressions of one file evaluate again in all (1 Mi, a second or two
/// of work in a debug build): a lambda's body each time it is applied, a comprehension's for
/// each item. Without it, applying lambdas would have no bound but the depth (a lambda
/// calling itself twice doubles the work at each level).
pub const MAX_STEPS: usize = 1 << 20;

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExprError {
    /// Not an expression this evaluator reads (Python's SyntaxError).
    #[error("{0}")]
    Syntax(String),
    /// A name that is neither a variable of the flowgraph nor a supported constant.
    #[error("unknown name '{}'", cut(.0))]
    UnknownName(String),
    /// A function or an operation this evaluator does not support, or one given values of
    /// the wrong type (Python's TypeError).
    #[error("{0}")]
    Unsupported(String),
    /// Division or modulo by zero, zero to a negative power (Python's ZeroDivisionError).
    #[error("{0}")]
    ZeroDivision(String),
    /// A float result out of range: `10.0**400`, `math.exp(1000)`, `int(inf)` (Python's
    /// OverflowError).
    #[error("{0}")]
    Overflow(String),
    /// An argument out of a function's domain or an index out of range: `math.sqrt(-1)`,
    /// `int('x')`, `[1][5]` (Python's ValueError and IndexError).
    #[error("{0}")]
    InvalidValue(String),
    /// An integer past 64 bits (the operation that made it): Python's integers have no
    /// limit, radioflow's, like every block parameter, are 64-bit.
    #[error("integer overflow: {0} does not fit in 64 bits (radioflow's integers, like block parameters, are 64-bit)")]
    IntegerTooLarge(String),
    /// Nested more than [`MAX_DEPTH`] levels deep.
    #[error("nested more than {MAX_DEPTH} levels deep (parentheses, brackets, calls, signs, powers or lists)")]
    TooDeep,
    /// A list or string of more than [`MAX_ITEMS`] items.
    #[error("a list or string too long: more than {MAX_ITEMS} items")]
    TooLarge,
    /// The expressions of one file made more than [`MAX_TOTAL_ITEMS`] items.
    #[error("the expressions make more than {MAX_TOTAL_ITEMS} items in all (lists and strings; each parameter that is a variable copies it)")]
    TooMuch,
    /// The expressions of one file evaluated more than [`MAX_STEPS`] tokens again (lambdas
    /// applied, comprehensions repeated).
    #[error("the expressions evaluate more than {MAX_STEPS} tokens of lambdas and comprehensions in all")]
    TooManySteps,
    /// A variable of the flowgraph defined in terms of itself.
    #[error("variable '{}' is defined in terms of itself", cut(.0))]
    Cycle(String),
    /// A variable of the flowgraph that has no value: its name, its expression (cut) and why.
    #[error("variable '{}' = {text}: {source}", cut(name))]
    Variable {
        /// The variable's name.
        name: String,
        /// Its expression, cut to a readable length.
        text: String,
        /// Why it has no value.
        source: Box<ExprError>,
    },
}
