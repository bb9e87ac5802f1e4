//! [`EncoderDef`] and [`DecoderDef`]: a code object as GNU Radio's Python makes it
//! (`fec.cc_encoder_make(2048, 7, 2, [109, 79], 0, fec.CC_STREAMING, False)`), checked, in
//! the one-line text form a block parameter takes, and the [`Encoder`] / [`Decoder`] it
//! builds.

use crate::cc::{CcCode, CcEncoder, CcMode};
use crate::code::{Decoder, Encoder};
use crate::dummy::{DummyDecoder, DummyEncoder};
use crate::ldpc::{LdpcCode, LdpcDecoder, LdpcEncoder};
use crate::ldpc_bit_flip::BitFlipDecoder;
use crate::ldpc_matrix::{LdpcMatrix, MatrixEncoder};
use crate::polar::{PolarCode, PolarEncoder};
use crate::polar_list::PolarListDecoder;
use crate::polar_sc::PolarScDecoder;
use crate::repetition::{RepetitionDecoder, RepetitionEncoder};
use crate::viterbi::CcDecoder;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Why a code definition is refused: the function and parameter at fault, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{function}: {param}: {why}")]
pub struct DefError {
    /// GNU Radio's function (`fec.cc_encoder_make`).
    pub function: String,
    /// Its parameter (`k`), or `arguments` for the call as a whole.
    pub param: String,
    /// What is wrong.
    pub why: String,
}

/// An encoder object of GNU Radio's FEC API.
#[derive(Debug, Clone, PartialEq)]
pub enum EncoderDef {
    /// `fec.dummy_encoder_make(frame_bits)`.
    Dummy {
        /// Bits per frame.
        frame_bits: usize,
    },
    /// `fec.repetition_encoder_make(frame_bits, rep)`.
    Repetition {
        /// Bits per frame.
        frame_bits: usize,
        /// Copies of each bit.
        rep: usize,
    },
    /// `fec.cc_encoder_make(frame_bits, k, rate, polys, start_state, mode, padding)`.
    Cc(CcCode),
    /// `fec.ccsds_encoder_make(frame_bits, start_state, mode)`: the K = 7 code with
    /// polynomials 109 and 79 (0x6d, 0x4f), on bits GNU Radio packs to bytes first (the same
    /// code bits: radioflow encodes the bits directly).
    Ccsds(CcCode),
    /// `fec.ldpc_encoder_make(alist_file)`: one codeword's data per frame.
    Ldpc {
        /// The alist file as given.
        file: String,
        /// The code read from it.
        code: Arc<LdpcCode>,
    },
    /// `fec.ldpc_par_mtrx_encoder_make_H(H)` of an `fec.ldpc_H_matrix(file, gap)`, or
    /// `fec.ldpc_gen_mtrx_encoder_make(G)` of an `fec.ldpc_G_matrix(file)`: whole codewords'
    /// data per frame, one codeword's at first.
    LdpcMatrix(Arc<LdpcMatrix>),
    /// `fec.polar_encoder.make(N, K, frozen_bit_positions, frozen_bit_values, False)`, or
    /// (`systematic`) `fec.polar_encoder_systematic.make(N, K, frozen_bit_positions)`.
    Polar {
        /// The code.
        code: PolarCode,
        /// Whether the data stand in the codeword.
        systematic: bool,
    },
}

/// A decoder object of GNU Radio's FEC API.
#[derive(Debug, Clone, PartialEq)]
pub enum DecoderDef {
    /// `fec.dummy_decoder.make(frame_bits)`.
    Dummy {
        /// Bits per frame.
        frame_bits: usize,
    },
    /// `fec.repetition_decoder.make(frame_bits, rep, ap_prob)`.
    Repetition {
        /// Bits per frame.
        frame_bits: usize,
        /// Copies of each bit.
        rep: usize,
        /// Share of positive copies above which a bit is 1.
        ap_prob: f32,
    },
    /// `fec.cc_decoder.make(frame_bits, k, rate, polys, start_state, end_state, mode,
    /// padding)`.
    Cc {
        /// The code.
        code: CcCode,
        /// A terminated frame's end state, -1 for the best one.
        end_state: i64,
    },
    /// `fec.ldpc_decoder.make(alist_file, sigma, max_iterations)`.
    Ldpc {
        /// The alist file as given.
        file: String,
        /// The code read from it.
        code: Arc<LdpcCode>,
        /// The noise's standard deviation the likelihoods assume.
        sigma: f64,
        /// The most iterations per codeword.
        max_iter: usize,
    },
    /// `fec.ldpc_bit_flip_decoder.make(matrix, max_iterations)` of an LDPC matrix object.
    LdpcBitFlip {
        /// The matrix (`fec.ldpc_H_matrix(file, gap)` or `fec.ldpc_G_matrix(file)`).
        matrix: Arc<LdpcMatrix>,
        /// The most flipping rounds per codeword.
        max_iter: usize,
    },
    /// `fec.polar_decoder_sc.make(N, K, frozen_bit_positions, frozen_bit_values)`, or
    /// (`systematic`) `fec.polar_decoder_sc_systematic.make(N, K, frozen_bit_positions)`.
    PolarSc {
        /// The code.
        code: PolarCode,
        /// Whether the data stand in the codeword.
        systematic: bool,
    },
    /// `fec.polar_decoder_sc_list.make(L, N, K, frozen_bit_positions, frozen_bit_values)`.
    PolarList {
        /// The code.
        code: PolarCode,
        /// Paths kept (`L`).
        list: usize,
    },
}

/// The polar code of arguments `n`, `k`, positions and (where given) values from `at`.
fn polar_code(a: &Args<'_>, at: usize, values: bool) -> Result<PolarCode, DefError> {
    let n = a.count(at)?;
    let k = a.count(at + 1)?;
    let list = |i: usize| -> Result<Vec<i64>, DefError> {
        Ok(a.polys(i)?.into_iter().map(i64::from).collect())
    };
    let positions = list(at + 2)?
        .into_iter()
        .map(|p| usize::try_from(p).map_err(|_| a.err(a.names[at + 2], format!("{p} is negative"))))
        .collect::<Result<Vec<_>, _>>()?;
    let values = if values {
        list(at + 3)?
            .into_iter()
            .map(|v| {
                u8::try_from(v).map_err(|_| a.err(a.names[at + 3], format!("{v} is not a bit")))
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    PolarCode::new(n, k, positions, values).map_err(|(p, why)| a.err(p, why))
}

const POLAR_NAMES: &[&str] = &[
    "block_size",
    "num_info_bits",
    "frozen_bit_positions",
    "frozen_bit_values",
    "is_packed",
];

/// `[a, b, c]`.
fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("[")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str("]")
}

/// `N, K, [positions]` and, with `values`, `, [values]`.
fn write_polar(f: &mut fmt::Formatter<'_>, c: &PolarCode, values: bool) -> fmt::Result {
    write!(f, "{}, {}, ", c.n(), c.k())?;
    write_list(f, c.frozen())?;
    if values {
        f.write_str(", ")?;
        write_list(f, c.values())?;
    }
    Ok(())
}

/// The LDPC matrix object argument `i` makes: GNU Radio's call `fec.ldpc_H_matrix(file, gap)`
/// or `fec.ldpc_G_matrix(file)` (`.get_base_sptr()` after it allowed, as GRC writes it).
fn ldpc_matrix(a: &Args<'_>, i: usize) -> Result<Arc<LdpcMatrix>, DefError> {
    let w = a.word(i)?;
    let w = w.strip_suffix(".get_base_sptr()").unwrap_or(w);
    let not = || {
        a.err(
            a.names[i],
            format!("{w} is not fec.ldpc_H_matrix(file, gap) or fec.ldpc_G_matrix(file)"),
        )
    };
    let (name, args) = parse_call(w).map_err(|_| not())?;
    let function = name.as_str();
    let m = |names: &'static [&'static str]| Args {
        function,
        names,
        args: args.clone(),
    };
    let made = match function {
        "fec.ldpc_H_matrix" => {
            let m = m(&["filename", "gap"]);
            m.exactly(2)?;
            let gap = usize::try_from(m.int(1)?).map_err(|_| m.err("gap", "negative".into()))?;
            LdpcMatrix::from_file(&file_name(&m, 0)?, Some(gap))
                .map_err(|e| m.err("filename", e))?
        }
        "fec.ldpc_G_matrix" => {
            let m = m(&["filename"]);
            m.exactly(1)?;
            LdpcMatrix::from_file(&file_name(&m, 0)?, None).map_err(|e| m.err("filename", e))?
        }
        _ => return Err(not()),
    };
    Ok(Arc::new(made))
}

/// The matrix object `text` makes (`fec.ldpc_H_matrix(file, gap)`, `fec.ldpc_G_matrix(file)`).
///
/// # Errors
/// Naming the function and parameter at fault.
pub fn parse_ldpc_matrix(text: &str) -> Result<Arc<LdpcMatrix>, DefError> {
    let a = Args {
        function: "LDPC matrix",
        names: &["matrix"],
        args: vec![Arg::Word(text.trim().to_owned())],
    };
    ldpc_matrix(&a, 0)
}

/// The code of the alist file named by argument `i` (a quoted path).
fn ldpc_code(a: &Args<'_>, i: usize) -> Result<(String, Arc<LdpcCode>), DefError> {
    let file = &file_name(a, i)?;
    let text = std::fs::read_to_string(file)
        .map_err(|e| a.err(a.names[i], format!("'{file}' cannot be read: {e}")))?;
    let code = LdpcCode::from_alist(&text)
        .map_err(|e| a.err(a.names[i], format!("'{file}' is no alist matrix: {e}")))?;
    Ok((file.to_owned(), Arc::new(code)))
}

/// The quoted file name argument `i` is.
fn file_name(a: &Args<'_>, i: usize) -> Result<String, DefError> {
    let w = a.word(i)?;
    w.strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .or_else(|| w.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')))
        .map(str::to_owned)
        .ok_or_else(|| a.err(a.names[i], format!("{w} is not a quoted file name")))
}

/// One argument of a call as written.
#[derive(Debug, Clone)]
enum Arg {
    Word(String),
    List(Vec<String>),
}

/// Splits `name(a, [b, c], d)` into its name and arguments.
fn parse_call(text: &str) -> Result<(String, Vec<Arg>), DefError> {
    let bad = |why: &str| DefError {
        function: text.trim().chars().take(60).collect(),
        param: "arguments".into(),
        why: why.into(),
    };
    let text = text.trim();
    let open = text
        .find('(')
        .ok_or_else(|| bad("not a call `name(arguments)`"))?;
    let inner = text[open + 1..]
        .strip_suffix(')')
        .ok_or_else(|| bad("no closing parenthesis"))?;
    let name = text[..open].trim().to_owned();
    let mut args = Vec::new();
    let mut rest = inner.trim();
    while !rest.is_empty() {
        if let Some(list) = rest.strip_prefix('[').or_else(|| rest.strip_prefix('(')) {
            let close = list
                .find([']', ')'])
                .ok_or_else(|| bad("a list without its closing bracket"))?;
            let items = list[..close]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            args.push(Arg::List(items));
            rest = list[close + 1..].trim_start();
        } else {
            // A word ends at a comma outside brackets and quotes (a nested call's arguments
            // are its own: `fec.ldpc_H_matrix('f', 2)`).
            let (mut depth, mut quote) = (0i32, None);
            let mut end = rest.len();
            for (i, c) in rest.char_indices() {
                match (quote, c) {
                    (Some(q), c) if c == q => quote = None,
                    (Some(_), _) => {}
                    (None, '\'' | '"') => quote = Some(c),
                    (None, '(' | '[') => depth += 1,
                    (None, ')' | ']') => depth -= 1,
                    (None, ',') if depth == 0 => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            args.push(Arg::Word(rest[..end].trim().to_owned()));
            rest = &rest[end..];
        }
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
        } else if !rest.is_empty() {
            return Err(bad("arguments not separated by commas"));
        }
    }
    Ok((name, args))
}

/// Reads a call's arguments by position, naming the parameter in errors.
struct Args<'a> {
    function: &'a str,
    names: &'a [&'a str],
    args: Vec<Arg>,
}

impl Args<'_> {
    fn err(&self, param: &str, why: String) -> DefError {
        DefError {
            function: self.function.into(),
            param: param.into(),
            why,
        }
    }
    fn word(&self, i: usize) -> Result<&str, DefError> {
        match self.args.get(i) {
            Some(Arg::Word(w)) => Ok(w),
            Some(Arg::List(_)) => {
                Err(self.err(self.names[i], "a list where one value belongs".into()))
            }
            None => Err(self.err(self.names[i], "missing".into())),
        }
    }
    fn int(&self, i: usize) -> Result<i64, DefError> {
        let w = self.word(i)?;
        w.parse()
            .map_err(|_| self.err(self.names[i], format!("'{w}' is not an integer")))
    }
    fn count(&self, i: usize) -> Result<usize, DefError> {
        let v = self.int(i)?;
        usize::try_from(v)
            .ok()
            .filter(|v| *v >= 1)
            .ok_or_else(|| self.err(self.names[i], format!("{v} is not a positive count")))
    }
    fn float(&self, i: usize) -> Result<f64, DefError> {
        let w = self.word(i)?;
        w.parse()
            .map_err(|_| self.err(self.names[i], format!("'{w}' is not a number")))
    }
    fn boolean(&self, i: usize) -> Result<bool, DefError> {
        match self.word(i)? {
            "True" | "true" | "1" => Ok(true),
            "False" | "false" | "0" => Ok(false),
            w => Err(self.err(self.names[i], format!("'{w}' is not True or False"))),
        }
    }
    fn mode(&self, i: usize) -> Result<CcMode, DefError> {
        self.word(i)?
            .parse()
            .map_err(|e| self.err(self.names[i], e))
    }
    fn polys(&self, i: usize) -> Result<Vec<i32>, DefError> {
        let items = match self.args.get(i) {
            Some(Arg::List(items)) => items.clone(),
            Some(Arg::Word(w)) => {
                return Err(self.err(self.names[i], format!("'{w}' is not a list of polynomials")))
            }
            None => return Err(self.err(self.names[i], "missing".into())),
        };
        items
            .iter()
            .map(|s| {
                s.parse()
                    .map_err(|_| self.err(self.names[i], format!("'{s}' is not an integer")))
            })
            .collect()
    }
    fn exactly(&self, n: usize) -> Result<(), DefError> {
        if self.args.len() == n {
            Ok(())
        } else {
            Err(self.err(
                "arguments",
                format!(
                    "{} given, {n} expected ({})",
                    self.args.len(),
                    self.names.join(", ")
                ),
            ))
        }
    }
    fn cc(&self, code: Result<CcCode, (&'static str, String)>) -> Result<CcCode, DefError> {
        code.map_err(|(p, why)| self.err(p, why))
    }
}

impl EncoderDef {
    /// The encoder this definition makes.
    pub fn build(&self) -> Box<dyn Encoder> {
        match self {
            EncoderDef::Dummy { frame_bits } => Box::new(DummyEncoder::new(*frame_bits)),
            EncoderDef::Repetition { frame_bits, rep } => {
                Box::new(RepetitionEncoder::new(*frame_bits, *rep))
            }
            EncoderDef::Cc(code) | EncoderDef::Ccsds(code) => {
                Box::new(CcEncoder::new(code.clone()))
            }
            EncoderDef::Ldpc { code, .. } => Box::new(LdpcEncoder::new(code.clone())),
            EncoderDef::LdpcMatrix(matrix) => Box::new(MatrixEncoder::new(matrix.clone())),
            EncoderDef::Polar { code, systematic } => {
                Box::new(PolarEncoder::new(code.clone(), *systematic))
            }
        }
    }
}

impl FromStr for EncoderDef {
    type Err = DefError;
    fn from_str(text: &str) -> Result<Self, DefError> {
        let (name, args) = parse_call(text)?;
        let function = name.as_str();
        let a = |names: &'static [&'static str]| Args {
            function,
            names,
            args: args.clone(),
        };
        Ok(match function {
            "fec.dummy_encoder_make" => {
                let a = a(&["framebits"]);
                a.exactly(1)?;
                EncoderDef::Dummy {
                    frame_bits: a.count(0)?,
                }
            }
            "fec.repetition_encoder_make" => {
                let a = a(&["framebits", "rep"]);
                a.exactly(2)?;
                EncoderDef::Repetition {
                    frame_bits: a.count(0)?,
                    rep: a.count(1)?,
                }
            }
            "fec.cc_encoder_make" => {
                let a = a(&[
                    "framebits",
                    "k",
                    "rate",
                    "polys",
                    "state_start",
                    "mode",
                    "padding",
                ]);
                a.exactly(7)?;
                EncoderDef::Cc(a.cc(CcCode::new(
                    a.count(0)?,
                    a.int(1)?,
                    a.int(2)?,
                    a.polys(3)?,
                    a.int(4)?,
                    a.mode(5)?,
                    a.boolean(6)?,
                ))?)
            }
            "fec.ccsds_encoder_make" => {
                let a = a(&["framebits", "state_start", "mode"]);
                a.exactly(3)?;
                let frame_bits = a.count(0)?;
                if frame_bits % 8 != 0 {
                    return Err(a.err(
                        "framebits",
                        format!("{frame_bits} is not a whole number of bytes (GNU Radio's CCSDS encoder takes packed bytes)"),
                    ));
                }
                EncoderDef::Ccsds(a.cc(CcCode::new(
                    frame_bits,
                    7,
                    2,
                    vec![109, 79],
                    a.int(1)?,
                    a.mode(2)?,
                    false,
                ))?)
            }
            "fec.ldpc_encoder_make" => {
                let a = a(&["alist_file"]);
                a.exactly(1)?;
                let (file, code) = ldpc_code(&a, 0)?;
                EncoderDef::Ldpc { file, code }
            }
            "fec.ldpc_par_mtrx_encoder_make_H" | "fec.ldpc_gen_mtrx_encoder_make" => {
                let a = a(if function.ends_with("_H") {
                    &["H_obj"]
                } else {
                    &["G_obj"]
                });
                a.exactly(1)?;
                let matrix = ldpc_matrix(&a, 0)?;
                if matrix.is_parity() != function.ends_with("_H") {
                    return Err(a.err(
                        a.names[0],
                        format!(
                            "{matrix} is not the matrix this encoder takes (an H matrix for \
                             fec.ldpc_par_mtrx_encoder_make_H, a G matrix for \
                             fec.ldpc_gen_mtrx_encoder_make)"
                        ),
                    ));
                }
                EncoderDef::LdpcMatrix(matrix)
            }
            "fec.polar_encoder.make" | "fec.polar_encoder_make" => {
                let a = a(POLAR_NAMES);
                a.exactly(5)?;
                if a.boolean(4)? {
                    return Err(a.err(
                        "is_packed",
                        "packed polar encoders are not built (GNU Radio's blocks pack the bits \
                         around them: the code bits are those of False, which radioflow runs)"
                            .into(),
                    ));
                }
                EncoderDef::Polar {
                    code: polar_code(&a, 0, true)?,
                    systematic: false,
                }
            }
            "fec.polar_encoder_systematic.make" | "fec.polar_encoder_systematic_make" => {
                let a = a(POLAR_NAMES);
                a.exactly(3)?;
                EncoderDef::Polar {
                    code: polar_code(&a, 0, false)?,
                    systematic: true,
                }
            }
            "fec.ldpc_par_mtrx_encoder_make" | "fec.ldpc_par_mtrx_encoder.make" => {
                let a = a(&["alist_file", "gap"]);
                a.exactly(2)?;
                let gap =
                    usize::try_from(a.int(1)?).map_err(|_| a.err("gap", "negative".into()))?;
                let file = file_name(&a, 0)?;
                EncoderDef::LdpcMatrix(Arc::new(
                    LdpcMatrix::from_file(&file, Some(gap)).map_err(|e| a.err("alist_file", e))?,
                ))
            }
            _ => {
                return Err(DefError {
                    function: name.chars().take(60).collect(),
                    param: "arguments".into(),
                    why: "not an encoder radioflow makes (fec.dummy_encoder_make, \
                          fec.repetition_encoder_make, fec.cc_encoder_make, \
                          fec.ccsds_encoder_make, fec.ldpc_encoder_make, \
                          fec.ldpc_par_mtrx_encoder_make_H, fec.ldpc_gen_mtrx_encoder_make, \
                          fec.polar_encoder.make, fec.polar_encoder_systematic.make)"
                        .into(),
                })
            }
        })
    }
}

fn write_cc(f: &mut fmt::Formatter<'_>, c: &CcCode) -> fmt::Result {
    write!(f, "{}, {}, {}, [", c.frame_bits, c.k, c.rate())?;
    for (i, p) in c.polys.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{p}")?;
    }
    write!(f, "], {}", c.start_state)
}

fn python_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// GNU Radio's Python call, which [`FromStr`] reads back.
impl fmt::Display for EncoderDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncoderDef::Dummy { frame_bits } => write!(f, "fec.dummy_encoder_make({frame_bits})"),
            EncoderDef::Repetition { frame_bits, rep } => {
                write!(f, "fec.repetition_encoder_make({frame_bits}, {rep})")
            }
            EncoderDef::Cc(c) => {
                f.write_str("fec.cc_encoder_make(")?;
                write_cc(f, c)?;
                write!(f, ", {}, {})", c.mode, python_bool(c.padding))
            }
            EncoderDef::Ccsds(c) => write!(
                f,
                "fec.ccsds_encoder_make({}, {}, {})",
                c.frame_bits, c.start_state, c.mode
            ),
            EncoderDef::Ldpc { file, .. } => write!(f, "fec.ldpc_encoder_make({file:?})"),
            EncoderDef::LdpcMatrix(m) if m.is_parity() => {
                write!(f, "fec.ldpc_par_mtrx_encoder_make_H({m})")
            }
            EncoderDef::LdpcMatrix(m) => write!(f, "fec.ldpc_gen_mtrx_encoder_make({m})"),
            EncoderDef::Polar {
                code,
                systematic: false,
            } => {
                f.write_str("fec.polar_encoder.make(")?;
                write_polar(f, code, true)?;
                f.write_str(", False)")
            }
            EncoderDef::Polar {
                code,
                systematic: true,
            } => {
                f.write_str("fec.polar_encoder_systematic.make(")?;
                write_polar(f, code, false)?;
                f.write_str(")")
            }
        }
    }
}

impl DecoderDef {
    /// The name GNU Radio's decoder object gives itself (`generic_decoder`'s name, before its
    /// number: `cc_decoder`). GNU Radio's polar decoders leave theirs unset (their alias is
    /// whatever the memory held): radioflow names them `polar_decoder_sc`,
    /// `polar_decoder_sc_systematic` and `polar_decoder_sc_list`.
    pub fn name(&self) -> &'static str {
        match self {
            DecoderDef::Dummy { .. } => "dummy_decoder",
            DecoderDef::Repetition { .. } => "repetition_decoder",
            DecoderDef::Cc { .. } => "cc_decoder",
            DecoderDef::Ldpc { .. } => "ldpc_decoder",
            DecoderDef::LdpcBitFlip { .. } => "ldpc_bit_flip_decoder",
            DecoderDef::PolarSc {
                systematic: false, ..
            } => "polar_decoder_sc",
            DecoderDef::PolarSc { .. } => "polar_decoder_sc_systematic",
            DecoderDef::PolarList { .. } => "polar_decoder_sc_list",
        }
    }

    /// The decoder this definition makes.
    ///
    /// # Errors
    /// A convolutional code GNU Radio's decoder does not run (K other than 7, rate other
    /// than 1/2), naming the parameter.
    pub fn build(&self) -> Result<Box<dyn Decoder>, DefError> {
        Ok(match self {
            DecoderDef::Dummy { frame_bits } => Box::new(DummyDecoder::new(*frame_bits)),
            DecoderDef::Repetition {
                frame_bits,
                rep,
                ap_prob,
            } => Box::new(RepetitionDecoder::new(*frame_bits, *rep, *ap_prob)),
            DecoderDef::Cc { code, end_state } => Box::new(
                CcDecoder::new(code.clone(), *end_state).map_err(|(p, why)| DefError {
                    function: "fec.cc_decoder.make".into(),
                    param: p.into(),
                    why,
                })?,
            ),
            DecoderDef::Ldpc {
                code,
                sigma,
                max_iter,
                ..
            } => Box::new(LdpcDecoder::new(code.clone(), *sigma as f32, *max_iter)),
            DecoderDef::LdpcBitFlip { matrix, max_iter } => {
                Box::new(BitFlipDecoder::new(matrix.clone(), *max_iter))
            }
            DecoderDef::PolarSc { code, systematic } => {
                Box::new(PolarScDecoder::new(code.clone(), *systematic))
            }
            DecoderDef::PolarList { code, list } => Box::new(
                PolarListDecoder::new(code.clone(), *list).map_err(|why| DefError {
                    function: "fec.polar_decoder_sc_list.make".into(),
                    param: "max_list_size".into(),
                    why,
                })?,
            ),
        })
    }
}

impl FromStr for DecoderDef {
    type Err = DefError;
    fn from_str(text: &str) -> Result<Self, DefError> {
        let (name, args) = parse_call(text)?;
        let function = name.as_str();
        let a = |names: &'static [&'static str]| Args {
            function,
            names,
            args: args.clone(),
        };
        let def = match function {
            "fec.dummy_decoder.make" | "fec.dummy_decoder_make" => {
                let a = a(&["framebits"]);
                a.exactly(1)?;
                DecoderDef::Dummy {
                    frame_bits: a.count(0)?,
                }
            }
            "fec.repetition_decoder.make" | "fec.repetition_decoder_make" => {
                let a = a(&["framebits", "rep", "prob"]);
                a.exactly(3)?;
                let p = a.float(2)?;
                if !(0.0..=1.0).contains(&p) {
                    return Err(a.err("prob", format!("{p} is not a probability (0 to 1)")));
                }
                DecoderDef::Repetition {
                    frame_bits: a.count(0)?,
                    rep: a.count(1)?,
                    ap_prob: p as f32,
                }
            }
            "fec.cc_decoder.make" | "fec.cc_decoder_make" => {
                let a = a(&[
                    "framebits",
                    "k",
                    "rate",
                    "polys",
                    "state_start",
                    "state_end",
                    "mode",
                    "padding",
                ]);
                a.exactly(8)?;
                DecoderDef::Cc {
                    code: a.cc(CcCode::new(
                        a.count(0)?,
                        a.int(1)?,
                        a.int(2)?,
                        a.polys(3)?,
                        a.int(4)?,
                        a.mode(6)?,
                        a.boolean(7)?,
                    ))?,
                    end_state: a.int(5)?,
                }
            }
            "fec.ldpc_decoder.make" | "fec.ldpc_decoder_make" => {
                let a = a(&["alist_file", "sigma", "max_iterations"]);
                a.exactly(3)?;
                let (file, code) = ldpc_code(&a, 0)?;
                DecoderDef::Ldpc {
                    file,
                    code,
                    sigma: a.float(1)?,
                    max_iter: a.count(2)?,
                }
            }
            "fec.polar_decoder_sc.make" | "fec.polar_decoder_sc_make" => {
                let a = a(POLAR_NAMES);
                a.exactly(4)?;
                DecoderDef::PolarSc {
                    code: polar_code(&a, 0, true)?,
                    systematic: false,
                }
            }
            "fec.polar_decoder_sc_systematic.make" | "fec.polar_decoder_sc_systematic_make" => {
                let a = a(POLAR_NAMES);
                a.exactly(3)?;
                DecoderDef::PolarSc {
                    code: polar_code(&a, 0, false)?,
                    systematic: true,
                }
            }
            "fec.polar_decoder_sc_list.make" | "fec.polar_decoder_sc_list_make" => {
                let a = a(&[
                    "max_list_size",
                    "block_size",
                    "num_info_bits",
                    "frozen_bit_positions",
                    "frozen_bit_values",
                ]);
                a.exactly(5)?;
                DecoderDef::PolarList {
                    list: a.count(0)?,
                    code: polar_code(&a, 1, true)?,
                }
            }
            "fec.ldpc_bit_flip_decoder.make" | "fec.ldpc_bit_flip_decoder_make" => {
                let a = a(&["mtrx_obj", "max_iter"]);
                a.exactly(2)?;
                let max_iter =
                    usize::try_from(a.int(1)?).map_err(|_| a.err("max_iter", "negative".into()))?;
                DecoderDef::LdpcBitFlip {
                    matrix: ldpc_matrix(&a, 0)?,
                    max_iter,
                }
            }
            _ => {
                return Err(DefError {
                    function: name.chars().take(60).collect(),
                    param: "arguments".into(),
                    why: "not a decoder radioflow makes (fec.dummy_decoder.make, \
                          fec.repetition_decoder.make, fec.cc_decoder.make, \
                          fec.ldpc_decoder.make, fec.ldpc_bit_flip_decoder.make, \
                          fec.polar_decoder_sc.make, fec.polar_decoder_sc_systematic.make, \
                          fec.polar_decoder_sc_list.make)"
                        .into(),
                })
            }
        };
        // Refused now rather than when a block is made.
        def.build()?;
        Ok(def)
    }
}

/// GNU Radio's Python call, which [`FromStr`] reads back.
impl fmt::Display for DecoderDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecoderDef::Dummy { frame_bits } => write!(f, "fec.dummy_decoder.make({frame_bits})"),
            DecoderDef::Repetition {
                frame_bits,
                rep,
                ap_prob,
            } => write!(
                f,
                "fec.repetition_decoder.make({frame_bits}, {rep}, {ap_prob:?})"
            ),
            DecoderDef::Cc { code, end_state } => {
                f.write_str("fec.cc_decoder.make(")?;
                write_cc(f, code)?;
                write!(
                    f,
                    ", {end_state}, {}, {})",
                    code.mode,
                    python_bool(code.padding)
                )
            }
            DecoderDef::Ldpc {
                file,
                sigma,
                max_iter,
                ..
            } => write!(f, "fec.ldpc_decoder.make({file:?}, {sigma:?}, {max_iter})"),
            DecoderDef::LdpcBitFlip { matrix, max_iter } => {
                write!(f, "fec.ldpc_bit_flip_decoder.make({matrix}, {max_iter})")
            }
            DecoderDef::PolarSc {
                code,
                systematic: false,
            } => {
                f.write_str("fec.polar_decoder_sc.make(")?;
                write_polar(f, code, true)?;
                f.write_str(")")
            }
            DecoderDef::PolarSc {
                code,
                systematic: true,
            } => {
                f.write_str("fec.polar_decoder_sc_systematic.make(")?;
                write_polar(f, code, false)?;
                f.write_str(")")
            }
            DecoderDef::PolarList { code, list } => {
                write!(f, "fec.polar_decoder_sc_list.make({list}, ")?;
                write_polar(f, code, true)?;
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_reads_back() {
        for text in [
            "fec.dummy_encoder_make(2048)",
            "fec.repetition_encoder_make(2048, 3)",
            "fec.cc_encoder_make(80, 7, 2, [109, 79], 0, fec.CC_TAILBITING, False)",
            "fec.ccsds_encoder_make(80, 0, fec.CC_STREAMING)",
        ] {
            assert_eq!(text.parse::<EncoderDef>().unwrap().to_string(), text);
        }
        for text in [
            "fec.dummy_decoder.make(2048)",
            "fec.repetition_decoder.make(2048, 3, 0.5)",
            "fec.cc_decoder.make(80, 7, 2, [109, -79], 0, -1, fec.CC_TERMINATED, True)",
        ] {
            assert_eq!(text.parse::<DecoderDef>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn errors_name_function_and_parameter() {
        let e = "fec.cc_encoder_make(80, 7, 3, [109, 79], 0, fec.CC_STREAMING, False)"
            .parse::<EncoderDef>()
            .unwrap_err();
        assert_eq!(
            (e.function.as_str(), e.param.as_str()),
            ("fec.cc_encoder_make", "rate")
        );
        let e = "fec.cc_decoder.make(80, 5, 2, [19, 29], 0, -1, fec.CC_STREAMING, False)"
            .parse::<DecoderDef>()
            .unwrap_err();
        assert_eq!(e.param, "k");
        let e = "fec.repetition_decoder.make(80, 3, 2)"
            .parse::<DecoderDef>()
            .unwrap_err();
        assert_eq!(e.param, "prob");
        assert!("fec.polar_encoder(1)".parse::<EncoderDef>().is_err());
        assert!("fec.dummy_encoder_make(1, 2)"
            .parse::<EncoderDef>()
            .is_err());
    }
}
