//! [`MultiplyMatrix`]: output streams that are a matrix times the input streams.

use radioflow_runtime::pmt::Complex64;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Complex32;
use std::str::FromStr;

/// Which input's tags go to which output (GNU Radio's tag propagation policies as its
/// `multiply_matrix` takes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixTags {
    /// Every input's tags on every output (GNU Radio's `TPP_ALL_TO_ALL`).
    AllToAll,
    /// Input `i`'s tags on output `i` (`TPP_ONE_TO_ONE`; a square matrix only).
    OneToOne,
    /// No tags (`TPP_DONT`).
    Dont,
    /// Input `j`'s tags on output `i` where `A[i][j]` is not 0 (`TPP_CUSTOM`).
    Matrix,
}

impl FromStr for MatrixTags {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all_to_all" => Ok(Self::AllToAll),
            "one_to_one" => Ok(Self::OneToOne),
            "dont" => Ok(Self::Dont),
            "matrix" => Ok(Self::Matrix),
            other => Err(format!(
                "'{other}' is not a tag policy (all_to_all, one_to_one, dont, matrix)"
            )),
        }
    }
}

/// An item [`MultiplyMatrix`] multiplies: float or complex.
pub trait MatrixItem:
    Item + Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self>
{
    /// A matrix element from a PMT number (a complex one only for complex items).
    fn from_pmt(v: &Pmt) -> Option<Self>;
    /// Whether the element is 0 (its input's tags then skip the output, [`MatrixTags::Matrix`]).
    fn is_zero(self) -> bool;
}

impl MatrixItem for f32 {
    fn from_pmt(v: &Pmt) -> Option<Self> {
        v.as_f64().map(|x| x as f32)
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
}

impl MatrixItem for Complex32 {
    fn from_pmt(v: &Pmt) -> Option<Self> {
        match v {
            Pmt::Complex(c) => Some(Complex32::new(c.re as f32, c.im as f32)),
            other => other.as_f64().map(|x| Complex32::new(x as f32, 0.0)),
        }
    }
    fn is_zero(self) -> bool {
        self == Complex32::new(0.0, 0.0)
    }
}

/// The elements of a PMT sequence (vector, tuple or a uniform vector of numbers).
fn elements(v: &Pmt) -> Option<Vec<Pmt>> {
    Some(match v {
        Pmt::Vector(xs) | Pmt::Tuple(xs) => xs.to_vec(),
        Pmt::F32Vector(xs) => xs.iter().map(|&x| Pmt::Double(f64::from(x))).collect(),
        Pmt::F64Vector(xs) => xs.iter().map(|&x| Pmt::Double(x)).collect(),
        Pmt::C32Vector(xs) => xs
            .iter()
            .map(|c| Pmt::Complex(Complex64::new(c.re.into(), c.im.into())))
            .collect(),
        Pmt::C64Vector(xs) => xs.iter().map(|&c| Pmt::Complex(c)).collect(),
        Pmt::S32Vector(xs) => xs.iter().map(|&x| Pmt::Int(x.into())).collect(),
        Pmt::S64Vector(xs) => xs.iter().map(|&x| Pmt::Int(x)).collect(),
        _ => return None,
    })
}

/// A matrix from a PMT sequence of rows, or from text (rows separated by `;`, real numbers
/// by spaces or commas: `"1 0; 0 1"`), every row as long as the first.
fn matrix<T: MatrixItem>(a: &Pmt) -> Result<Vec<Vec<T>>, String> {
    let rows = match a {
        Pmt::Symbol(text) => text
            .split(';')
            .map(|row| {
                let xs = row
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|x| !x.is_empty())
                    .map(|x| {
                        x.parse::<f64>()
                            .map(Pmt::Double)
                            .map_err(|_| format!("'{x}' is not a number"))
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                Ok(Pmt::Vector(xs.into()))
            })
            .collect::<Result<Vec<_>, String>>()?,
        _ => elements(a).ok_or_else(|| format!("{a} is not a sequence of rows"))?,
    };
    let m: Vec<Vec<T>> = rows
        .iter()
        .map(|r| {
            elements(r)
                .ok_or_else(|| format!("row {r} is not a sequence of numbers"))?
                .iter()
                .map(|x| {
                    T::from_pmt(x).ok_or_else(|| format!("{x} is not a number this block takes"))
                })
                .collect()
        })
        .collect::<Result<_, String>>()?;
    if m.is_empty() || m[0].is_empty() {
        return Err("the matrix is empty: it needs a row with a column at least".into());
    }
    if let Some(r) = m.iter().position(|r| r.len() != m[0].len()) {
        return Err(format!(
            "row {r} has {} columns, row 0 {}",
            m[r].len(),
            m[0].len()
        ));
    }
    Ok(m)
}

/// Output `i` is `Σ_j A[i][j] · input j`, item by item, like GNU Radio's `multiply_matrix_ff`
/// and `_cc`: as many inputs as `A` has columns, as many outputs as rows. Tags go as `tags`
/// says. A new matrix of the same shape may arrive on the `set_A` message input (a vector or
/// tuple of rows, each a vector, tuple or uniform vector of numbers) and applies from the next
/// items on; one of another shape or not a matrix is ignored with a warning, as GNU Radio does.
///
/// # Example
/// ```
/// use radioflow_blocks::{MatrixTags, MultiplyMatrix, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1.0f32, 2.0]));
/// let b = fg.add(VectorSource::new(vec![10.0f32, 20.0]));
/// let m = fg.add(MultiplyMatrix::<f32>::new(vec![vec![1.0, 1.0], vec![1.0, -1.0]], MatrixTags::AllToAll)?);
/// let sum = fg.add(VectorSink::<f32>::new());
/// let difference = fg.add(VectorSink::<f32>::new());
/// fg.connect(a, (m, 0))?;
/// fg.connect(b, (m, 1))?;
/// fg.connect((m, 0), sum)?;
/// fg.connect((m, 1), difference)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sum).unwrap().data(), &[11.0, 22.0]);
/// assert_eq!(fg.block::<VectorSink<f32>>(difference).unwrap().data(), &[-9.0, -18.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "multiply_matrix",
    summary = "Output streams that are a matrix times the input streams (GNU Radio's multiply_matrix_ff/_cc).",
    dtypes = [Float32, Complex32],
    make = matrix::<T>(&a)
        .and_then(|m| Self::new(m, tags))
        .map_err(|e| Refused::param("a", e))
)]
#[param(a: Pmt, example = "1 0; 0 1", doc = "the matrix: a list of rows, or text as \"1 0; 0 1\" (inputs = columns, outputs = rows)")]
#[param(tags: MatrixTags = "all_to_all", words = ["all_to_all", "one_to_one", "dont", "matrix"], doc = "which input's tags go to which output")]
#[message_input(name = "set_A", doc = "a new matrix of the same shape")]
#[derive(Debug)]
pub struct MultiplyMatrix<T: MatrixItem> {
    /// One stream per column.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    /// One stream per row.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<T>>,
    a: Vec<Vec<T>>,
    tags: MatrixTags,
}

#[block]
impl<T: MatrixItem> MultiplyMatrix<T> {
    /// `a`'s rows times the inputs (one per column).
    ///
    /// # Errors
    /// If `a` is empty, its rows differ in length, or `tags` is one-to-one and `a` is not
    /// square.
    pub fn new(a: Vec<Vec<T>>, tags: MatrixTags) -> Result<Self, String> {
        if a.is_empty() || a[0].is_empty() {
            return Err("the matrix is empty: it needs a row with a column at least".into());
        }
        if let Some(r) = a.iter().position(|r| r.len() != a[0].len()) {
            return Err(format!(
                "row {r} has {} columns, row 0 {}",
                a[r].len(),
                a[0].len()
            ));
        }
        if tags == MatrixTags::OneToOne && a.len() != a[0].len() {
            return Err(format!(
                "one_to_one tags need as many outputs as inputs; the matrix is {}x{}",
                a.len(),
                a[0].len()
            ));
        }
        Ok(Self {
            inputs: (0..a[0].len()).map(|_| StreamInput::new()).collect(),
            outputs: (0..a.len()).map(|_| StreamOutput::new()).collect(),
            a,
            tags,
        })
    }

    /// The matrix.
    pub fn a(&self) -> &[Vec<T>] {
        &self.a
    }

    #[message_input(name = "set_A")]
    fn set_a(&mut self, msg: Pmt) {
        match matrix::<T>(&msg) {
            Ok(m) if m.len() == self.a.len() && m[0].len() == self.a[0].len() => self.a = m,
            Ok(m) => tracing::warn!(
                "multiply_matrix set_A: a {}x{} matrix where the block is {}x{}; ignored",
                m.len(),
                m[0].len(),
                self.a.len(),
                self.a[0].len()
            ),
            Err(e) => tracing::warn!("multiply_matrix set_A: {e}; ignored"),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let readable = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0);
        let space = self
            .outputs
            .iter_mut()
            .map(|o| o.slice().len())
            .min()
            .unwrap_or(0);
        let n = readable.min(space);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        for (i, out) in self.outputs.iter_mut().enumerate() {
            let row = &self.a[i];
            // Tags first, in input order, as GNU Radio's scheduler adds them.
            if self.tags != MatrixTags::Dont {
                for (j, input) in self.inputs.iter().enumerate() {
                    let goes = match self.tags {
                        MatrixTags::AllToAll => true,
                        MatrixTags::OneToOne => i == j,
                        MatrixTags::Matrix => !row[j].is_zero(),
                        MatrixTags::Dont => false,
                    };
                    if goes {
                        let end = input.offset() + n as u64;
                        for t in input.tags().iter().take_while(|t| t.offset < end) {
                            out.push_tag(t.clone());
                        }
                    }
                }
            }
            // Column by column (each input's window read once), summing in the same order as
            // item by item: row[0]·x0 + row[1]·x1 + ...
            let y = &mut out.slice()[..n];
            for (j, input) in self.inputs.iter().enumerate() {
                let x = &input.slice()[..n];
                if j == 0 {
                    y.iter_mut().zip(x).for_each(|(y, &x)| *y = row[0] * x);
                } else {
                    y.iter_mut().zip(x).for_each(|(y, &x)| *y = *y + row[j] * x);
                }
            }
            out.produce(n);
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        Ok(WorkStatus::Continue)
    }
}
