//! GRC expressions are Python: thousands of generated arithmetic expressions (fixed seed),
//! evaluated by radioflow and by `python3`, give the same value, bit for bit, or the same
//! kind of error. Python's integers have no limit and radioflow's are 64-bit, so the Python
//! side checks every integer it makes and reports one past 64 bits as the error radioflow
//! gives for it (`IntegerTooLarge`). Skipped, with a message, where `python3` is missing.

use radioflow_graphfile::grc::{evaluate, ExprError, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Command, Stdio};

/// Evaluates each line of stdin with Python's own operators and functions, walking the
/// expression's syntax tree so that every intermediate integer can be checked against 64 bits.
const ORACLE: &str = r#"
import ast, math, operator, sys

LIMIT = 1 << 63
# int('...') of a long string: the value, checked below, not Python 3.11's guard of 4300 digits.
if hasattr(sys, 'set_int_max_str_digits'):
    sys.set_int_max_str_digits(0)

class IntegerTooLarge(Exception):
    pass

class TooLarge(Exception):
    pass

def checked(v):
    if type(v) is int and not -LIMIT <= v < LIMIT:
        raise IntegerTooLarge()
    return v

def absolute(v):
    # abs() of a complex NaN: CPython returns NaN but then reads an errno it did not clear, so
    # a range error left by an earlier operation (reading 1e400) turns it into OverflowError.
    if type(v) is complex and math.isnan(abs(v.real) + abs(v.imag)) and not (
            math.isinf(v.real) or math.isinf(v.imag)):
        return math.nan
    return abs(v)

FUNCTIONS = {
    'abs': absolute, 'int': int, 'float': float, 'round': round, 'min': min, 'max': max,
    'complex': complex, 'str': str, 'len': len,
    'math.sqrt': math.sqrt, 'math.exp': math.exp, 'math.log': math.log,
    'math.log10': math.log10, 'math.log2': math.log2, 'math.floor': math.floor,
    'math.ceil': math.ceil, 'math.sin': math.sin, 'math.cos': math.cos, 'math.tan': math.tan,
}
OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}

def name(node):
    if isinstance(node, ast.Name):
        return node.id
    return name(node.value) + '.' + node.attr

def is_int(v):
    return type(v) in (int, bool)

def evaluate(node):
    if isinstance(node, ast.Constant):
        return checked(node.value)
    if isinstance(node, ast.UnaryOp):
        v = evaluate(node.operand)
        return checked(-v if isinstance(node.op, ast.USub) else +v)
    if isinstance(node, ast.BinOp):
        a, b = evaluate(node.left), evaluate(node.right)
        # Past 64 bits either way; not computed (it could take Python minutes).
        if isinstance(node.op, ast.Pow) and is_int(a) and is_int(b) and b >= 64 and abs(a) >= 2:
            raise IntegerTooLarge()
        # A string repeated past radioflow's limit of a value (4 Mi items).
        if isinstance(node.op, ast.Mult) and {type(a), type(b)} in ({str, int}, {str, bool}):
            s, n = (a, b) if type(a) is str else (b, a)
            if len(s) * n > 1 << 22:
                raise TooLarge()
        return checked(OPERATORS[type(node.op)](a, b))
    if isinstance(node, ast.Call):
        f, args = name(node.func), [evaluate(a) for a in node.args]
        # round(int, n) computes 10**-n: for n far below -19 its value, 0, without waiting.
        if f == 'round' and len(args) == 2 and is_int(args[0]) and is_int(args[1]) and args[1] < -40:
            return 0
        return checked(FUNCTIONS[f](*args))
    raise SyntaxError(ast.dump(node))

def show(v):
    if type(v) is bool:
        return 'B:%s' % v
    if type(v) is int:
        return 'I:%d' % v
    if type(v) is float:
        return 'F:%r' % v
    if type(v) is complex:
        return 'C:%r,%r' % (v.real, v.imag)
    if type(v) is str:
        return 'S:' + v
    return 'X:' + type(v).__name__

for line in sys.stdin:
    try:
        result = show(evaluate(ast.parse(line.strip(), mode='eval').body))
    except IntegerTooLarge:
        result = 'E:IntegerTooLarge'
    except TooLarge:
        result = 'E:TooLarge'
    except ZeroDivisionError:
        result = 'E:ZeroDivision'
    except OverflowError:
        result = 'E:Overflow'
    except ValueError:
        result = 'E:InvalidValue'
    except TypeError:
        result = 'E:Unsupported'
    print(result)
"#;

/// An expression of at most `depth` levels.
fn expression(rng: &mut StdRng, depth: u32) -> String {
    if depth == 0 || rng.gen_bool(0.25) {
        return leaf(rng);
    }
    let sub = |rng: &mut StdRng| expression(rng, depth - 1);
    match rng.gen_range(0..12) {
        0..=4 => {
            let op = ["+", "-", "*", "/", "//", "%", "**"][rng.gen_range(0..7)];
            let a = sub(rng);
            // Powers mostly of small exponents, so that some results stay in range.
            let b = if op == "**" && rng.gen_bool(0.7) {
                [
                    "0", "1", "2", "3", "-1", "-2", "0.5", "-0.5", "63", "64", "1.5",
                ][rng.gen_range(0..11)]
                .to_owned()
            } else {
                sub(rng)
            };
            format!("({a} {op} {b})")
        }
        5 => format!("{}{}", ["-", "+"][rng.gen_range(0..2)], sub(rng)),
        6..=10 => {
            let f = [
                "abs",
                "int",
                "float",
                "round",
                "round",
                "min",
                "max",
                "complex",
                "math.sqrt",
                "math.exp",
                "math.log",
                "math.log10",
                "math.log2",
                "math.floor",
                "math.ceil",
                "math.sin",
                "math.cos",
                "math.tan",
                "len(str",
                "str",
            ][rng.gen_range(0..20)];
            match f {
                "round" if rng.gen_bool(0.6) => {
                    let n = if rng.gen_bool(0.8) {
                        rng.gen_range(-25..=25).to_string()
                    } else {
                        sub(rng)
                    };
                    format!("round({}, {n})", sub(rng))
                }
                "min" | "max" | "complex" => {
                    let n = if f == "complex" {
                        2
                    } else {
                        rng.gen_range(2..=3)
                    };
                    let args: Vec<String> = (0..n).map(|_| sub(rng)).collect();
                    format!("{f}({})", args.join(", "))
                }
                "len(str" => format!("len(str({}))", sub(rng)),
                _ => format!("{f}({})", sub(rng)),
            }
        }
        _ => format!("({})", sub(rng)),
    }
}

fn leaf(rng: &mut StdRng) -> String {
    const SPECIAL: &[&str] = &[
        "9223372036854775807",
        "4611686018427387904",
        "3037000499",
        "3037000500",
        "9007199254740992",
        "9007199254740993",
        "4294967296",
        "1000000007",
        "0.5",
        "1.5",
        "2.5",
        "-0.0",
        "0.1",
        "2.675",
        "1e300",
        "1e-300",
        "1e308",
        "5e-324",
        "1e16",
        "123456.789",
        "1e400",
        "0.0",
        "True",
        "False",
        "1j",
        "2.5j",
        "0j",
    ];
    match rng.gen_range(0..10) {
        0..=3 => rng.gen_range(-20..=20).to_string(),
        4..=6 => SPECIAL[rng.gen_range(0..SPECIAL.len())].to_owned(),
        7 => rng.gen_range(0..=i64::MAX).to_string(),
        8 => format!("{:?}", rng.gen_range(-1e6..1e6)),
        _ => format!(
            "{:e}",
            rng.r#gen::<f64>() * 10f64.powi(rng.gen_range(-30..30))
        ),
    }
}

/// Python's float `repr` read back; NaN equals NaN.
fn same_float(ours: f64, python: &str) -> bool {
    let p: f64 = match python.parse() {
        Ok(p) => p,
        Err(_) => return false,
    };
    (ours.is_nan() && p.is_nan()) || ours.to_bits() == p.to_bits()
}

fn same(ours: &Result<Value, ExprError>, python: &str) -> bool {
    let kind = |e: &ExprError| match e {
        ExprError::IntegerTooLarge(_) => "IntegerTooLarge",
        ExprError::ZeroDivision(_) => "ZeroDivision",
        ExprError::Overflow(_) => "Overflow",
        ExprError::InvalidValue(_) => "InvalidValue",
        ExprError::Unsupported(_) => "Unsupported",
        ExprError::TooLarge => "TooLarge",
        _ => "other",
    };
    match (ours, python.split_once(':')) {
        (Ok(Value::Int(i)), Some(("I", p))) => p == i.to_string(),
        (Ok(Value::Bool(b)), Some(("B", p))) => p == if *b { "True" } else { "False" },
        (Ok(Value::Float(x)), Some(("F", p))) => same_float(*x, p),
        (Ok(Value::Complex(c)), Some(("C", p))) => p
            .split_once(',')
            .is_some_and(|(re, im)| same_float(c.re, re) && same_float(c.im, im)),
        (Ok(Value::Str(s)), Some(("S", p))) => s == p,
        (Err(e), Some(("E", p))) => kind(e) == p,
        _ => false,
    }
}

#[test]
fn generated_expressions_give_python_s_values_and_errors() {
    let python = Command::new("python3")
        .args(["-c", ORACLE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut python) = python else {
        eprintln!("SKIPPED: python3 is not installed (the oracle for GRC expressions)");
        return;
    };
    let mut rng = StdRng::seed_from_u64(32);
    let expressions: Vec<String> = (0..20_000).map(|_| expression(&mut rng, 5)).collect();
    let mut stdin = python.stdin.take().unwrap();
    let input = expressions.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = python.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "python3 failed");
    let answers: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(answers.len(), expressions.len());
    let mut differences = Vec::new();
    let mut values = 0;
    for (text, python) in expressions.iter().zip(&answers) {
        let ours = evaluate(text, &[]);
        values += usize::from(ours.is_ok());
        if !same(&ours, python) {
            differences.push(format!(
                "{text}\n    python: {python}\n    ours:   {ours:?}"
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} expressions differ from Python, e.g.:\n{}",
        differences.len(),
        expressions.len(),
        differences[..differences.len().min(25)].join("\n")
    );
    // The generator must reach values, not only errors.
    assert!(values > expressions.len() / 3, "{values} values");
}
