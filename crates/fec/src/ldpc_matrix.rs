//! GNU Radio's LDPC matrix objects (`fec.ldpc_H_matrix(file, gap)`, `fec.ldpc_G_matrix(file)`)
//! and the encoder of either ([`MatrixEncoder`]: `fec.ldpc_par_mtrx_encoder_make_H(H)`,
//! `fec.ldpc_gen_mtrx_encoder_make(G)`).
//!
//! A parity-check matrix in approximate lower-triangular form (Richardson and Urbanke, *Modern
//! Coding Theory*, appendix A) is `H = [T A B; E C D]`: `T` upper triangular of `m - gap`
//! rows, `gap` rows below it. A codeword is `[p1 p2 s]`, data `s` last; GNU Radio's encoder
//! solves `p2 = φ⁻¹ (D s + E T⁻¹ B s)` with `φ = C + E T⁻¹ A`, then `p1 = T⁻¹ (A p2 + B s)`,
//! each `T⁻¹` by back substitution on `T`'s upper part. A generator matrix `G = [I P]` codes
//! `s` as `G' s` (data first) and checks with `H = [P' I]`.

use crate::code::Encoder;
use std::fmt;
use std::sync::Arc;

/// Which of GNU Radio's two matrix objects, with what its encoder needs.
#[derive(Debug, Clone)]
enum Form {
    /// `fec.ldpc_H_matrix`: the parts of `H = [T A B; E C D]` as rows of column indices.
    Parity {
        gap: usize,
        /// Per row of `T` (`t` rows), the columns right of the diagonal, below `t`.
        t_upper: Vec<Vec<usize>>,
        /// Per row of `[A B]` (`t` rows) and of `[E C D]` (`gap` rows): column indices.
        a: Vec<Vec<usize>>,
        b: Vec<Vec<usize>>,
        e: Vec<Vec<usize>>,
        d: Vec<Vec<usize>>,
        /// `φ⁻¹`, `gap × gap`, dense.
        phi_inv: Vec<Vec<u8>>,
    },
    /// `fec.ldpc_G_matrix`: per code bit, the data bits it sums (the columns of `G`).
    Generator { columns: Vec<Vec<usize>> },
}

/// An LDPC matrix object of GNU Radio's FEC API: the parity checks its bit-flip decoder uses
/// and what its encoder needs.
#[derive(Debug, Clone)]
pub struct LdpcMatrix {
    /// GNU Radio's call that made it (`fec.ldpc_H_matrix('…', 2)`).
    call: String,
    n: usize,
    k: usize,
    /// Per parity check, its code bits.
    checks: Vec<Vec<usize>>,
    form: Form,
}

impl PartialEq for LdpcMatrix {
    fn eq(&self, other: &Self) -> bool {
        self.call == other.call
    }
}

/// The matrix of an alist file as GNU Radio's `read_matrix_from_file` reads it: the sizes
/// (`columns rows`) on the first line, three lines skipped, then one line per column listing
/// its rows (1-based). Returns the rows count and the columns.
fn read_columns(text: &str) -> Result<(usize, Vec<Vec<usize>>), String> {
    let mut lines = text.lines();
    let first = lines.next().ok_or("the file is empty")?;
    let size: Vec<usize> = first
        .split_whitespace()
        .map(|w| {
            w.parse()
                .map_err(|_| format!("'{w}' is not a whole number"))
        })
        .collect::<Result<_, String>>()?;
    let [n, m] = size[..] else {
        return Err("the first line is not `columns rows`".into());
    };
    if n == 0 || m == 0 || n > 1 << 16 || m > 1 << 16 {
        return Err(format!(
            "{n} columns, {m} rows: not a matrix radioflow reads"
        ));
    }
    let mut lines = lines.skip(3);
    let mut columns = Vec::with_capacity(n);
    for c in 0..n {
        let line = lines
            .next()
            .ok_or_else(|| format!("the file ends before column {}", c + 1))?;
        let rows = line
            .split_whitespace()
            .map(|w| match w.parse::<usize>() {
                Ok(r) if (1..=m).contains(&r) => Ok(r - 1),
                _ => Err(format!(
                    "column {}: '{w}' is not a row from 1 to {m}",
                    c + 1
                )),
            })
            .collect::<Result<Vec<_>, String>>()?;
        columns.push(rows);
    }
    Ok((m, columns))
}

/// Dense rows of the matrix of `columns`.
fn dense(m: usize, n: usize, columns: &[Vec<usize>]) -> Vec<Vec<u8>> {
    let mut h = vec![vec![0u8; n]; m];
    for (c, rows) in columns.iter().enumerate() {
        for r in rows {
            h[*r][c] = 1;
        }
    }
    h
}

/// The inverse of square `a` over GF(2), `None` where it is singular.
fn inverse(a: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let n = a.len();
    let mut m: Vec<Vec<u8>> = a.to_vec();
    let mut inv: Vec<Vec<u8>> = (0..n)
        .map(|i| (0..n).map(|j| u8::from(i == j)).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).find(|r| m[*r][col] == 1)?;
        m.swap(col, pivot);
        inv.swap(col, pivot);
        for r in 0..n {
            if r != col && m[r][col] == 1 {
                let (pm, pi) = (m[col].clone(), inv[col].clone());
                for (x, y) in m[r].iter_mut().zip(&pm) {
                    *x ^= y;
                }
                for (x, y) in inv[r].iter_mut().zip(&pi) {
                    *x ^= y;
                }
            }
        }
    }
    Some(inv)
}

/// `a · b` over GF(2), dense.
fn multiply(a: &[Vec<u8>], b: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let cols = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            (0..cols)
                .map(|j| {
                    row.iter()
                        .zip(b)
                        .fold(0, |acc, (x, brow)| acc ^ (x & brow[j]))
                })
                .collect()
        })
        .collect()
}

/// The columns (offset by `from`) of the ones of rows `rows`, columns `cols`, of `h`.
fn part(
    h: &[Vec<u8>],
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) -> Vec<Vec<usize>> {
    h[rows]
        .iter()
        .map(|row| {
            cols.clone()
                .filter(|c| row[*c] == 1)
                .map(|c| c - cols.start)
                .collect()
        })
        .collect()
}

/// GNU Radio's `back_solve_mod2`: `x` of `T x = y`, from the last row up, with `T`'s ones
/// right of the diagonal (its diagonal taken as ones, as GNU Radio's arithmetic leaves it).
fn back_solve(t_upper: &[Vec<usize>], y: &[u8], x: &mut [u8]) {
    for i in (0..t_upper.len()).rev() {
        x[i] = t_upper[i].iter().fold(y[i], |acc, j| acc ^ x[*j]);
    }
}

/// Row `row` (column indices) times `v`, over GF(2).
fn dot(row: &[usize], v: &[u8]) -> u8 {
    row.iter().fold(0, |acc, j| acc ^ v[*j])
}

impl LdpcMatrix {
    /// `fec.ldpc_H_matrix(file, gap)`: the parity-check matrix of alist text `text`
    /// (`file` names it in [`call`](Self::call)), in approximate lower-triangular form with
    /// `gap` rows below `T`.
    ///
    /// # Errors
    /// In words: the text is no alist matrix, or the matrix and gap make no encoder (GNU
    /// Radio's would fail: `T` or `φ` not invertible, `gap` 0 or not below the rows).
    pub fn parity(file: &str, text: &str, gap: usize) -> Result<Self, String> {
        let (m, columns) = read_columns(text)?;
        let n = columns.len();
        if m >= n {
            return Err(format!("{m} rows and {n} columns: no data bits"));
        }
        if gap == 0 || gap >= m {
            return Err(format!(
                "gap {gap} is not between 1 and the rows less one ({})",
                m - 1
            ));
        }
        let h = dense(m, n, &columns);
        let t = m - gap;
        let t_dense: Vec<Vec<u8>> = h[..t].iter().map(|r| r[..t].to_vec()).collect();
        let t_inv = inverse(&t_dense).ok_or(
            "T (the first rows less the gap, as many columns) is not invertible: is the gap right?",
        )?;
        let dense_part = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| {
            h[rows]
                .iter()
                .map(|r| r[cols.clone()].to_vec())
                .collect::<Vec<_>>()
        };
        let (a_dense, c_dense, e_dense) = (
            dense_part(0..t, t..t + gap),
            dense_part(t..m, t..t + gap),
            dense_part(t..m, 0..t),
        );
        let eta = multiply(&multiply(&e_dense, &t_inv), &a_dense);
        let phi: Vec<Vec<u8>> = c_dense
            .iter()
            .zip(&eta)
            .map(|(c, x)| c.iter().zip(x).map(|(a, b)| a ^ b).collect())
            .collect();
        if phi.iter().all(|r| r.iter().all(|x| *x == 0)) {
            return Err("φ = C + E T⁻¹ A is all zeros: is the gap right?".into());
        }
        let phi_inv =
            inverse(&phi).ok_or("φ = C + E T⁻¹ A is not invertible: is the gap right?")?;
        let t_upper = (0..t)
            .map(|i| (i + 1..t).filter(|j| h[i][*j] == 1).collect())
            .collect();
        Ok(Self {
            call: format!("fec.ldpc_H_matrix({file:?}, {gap})"),
            n,
            k: n - m,
            checks: part(&h, 0..m, 0..n),
            form: Form::Parity {
                gap,
                t_upper,
                a: part(&h, 0..t, t..t + gap),
                b: part(&h, 0..t, t + gap..n),
                e: part(&h, t..m, 0..t),
                d: part(&h, t..m, t + gap..n),
                phi_inv,
            },
        })
    }

    /// `fec.ldpc_G_matrix(file)`: the generator matrix `G = [I P]` of alist text `text`.
    ///
    /// # Errors
    /// The text is no alist matrix, or its first columns are not the identity.
    pub fn generator(file: &str, text: &str) -> Result<Self, String> {
        let (k, columns) = read_columns(text)?;
        let n = columns.len();
        if k >= n {
            return Err(format!("{k} rows and {n} columns: no parity bits"));
        }
        let g = dense(k, n, &columns);
        if (0..k).any(|r| (0..k).any(|c| g[r][c] != u8::from(r == c))) {
            return Err(
                "not a generator matrix G = [I P]: its first columns are not the identity".into(),
            );
        }
        // H = [P' I]: check r holds the data bits of P's column r and parity bit r.
        let checks = (0..n - k)
            .map(|r| {
                (0..k)
                    .filter(|c| g[*c][k + r] == 1)
                    .chain(std::iter::once(k + r))
                    .collect()
            })
            .collect();
        Ok(Self {
            call: format!("fec.ldpc_G_matrix({file:?})"),
            n,
            k,
            checks,
            form: Form::Generator { columns },
        })
    }

    /// Reads the file named `file` and makes `fec.ldpc_H_matrix(file, gap)` (`gap` given) or
    /// `fec.ldpc_G_matrix(file)`.
    ///
    /// # Errors
    /// The file cannot be read, or as [`parity`](Self::parity) and
    /// [`generator`](Self::generator).
    pub fn from_file(file: &str, gap: Option<usize>) -> Result<Self, String> {
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("'{file}' cannot be read: {e}"))?;
        match gap {
            Some(gap) => Self::parity(file, &text, gap),
            None => Self::generator(file, &text),
        }
        .map_err(|e| format!("'{file}': {e}"))
    }

    /// Code bits per codeword.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Data bits per codeword.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Whether it is an `H` matrix (`fec.ldpc_H_matrix`), not a `G` matrix.
    pub fn is_parity(&self) -> bool {
        matches!(self.form, Form::Parity { .. })
    }

    /// Per parity check, its code bits.
    pub(crate) fn checks(&self) -> &[Vec<usize>] {
        &self.checks
    }

    /// Where a codeword's data bits start: after the parity bits of an `H` matrix's code,
    /// first in a `G` matrix's.
    pub(crate) fn data_offset(&self) -> usize {
        match self.form {
            Form::Parity { .. } => self.n - self.k,
            Form::Generator { .. } => 0,
        }
    }

    /// The scratch bits [`encode`](Self::encode) needs.
    fn scratch_len(&self) -> usize {
        match &self.form {
            Form::Parity { t_upper, gap, .. } => 3 * t_upper.len() + 2 * gap,
            Form::Generator { .. } => 0,
        }
    }

    /// One codeword of `data` ([`k`](Self::k) bits) into `out` ([`n`](Self::n)), with
    /// `scratch` ([`scratch_len`](Self::scratch_len)) for the steps.
    fn encode(&self, data: &[u8], out: &mut [u8], scratch: &mut [u8]) {
        match &self.form {
            Form::Generator { columns } => {
                for (o, col) in out.iter_mut().zip(columns) {
                    *o = col.iter().fold(0, |acc, r| acc ^ (data[*r] & 1));
                }
            }
            Form::Parity {
                gap,
                t_upper,
                a,
                b,
                e,
                d,
                phi_inv,
            } => {
                let t = t_upper.len();
                let (bs, rest) = scratch.split_at_mut(t);
                let (y, rest) = rest.split_at_mut(t);
                let (w, rest) = rest.split_at_mut(t);
                let (z, p2) = rest.split_at_mut(*gap);
                for (x, row) in bs.iter_mut().zip(b) {
                    *x = row.iter().fold(0, |acc, j| acc ^ (data[*j] & 1));
                }
                back_solve(t_upper, bs, y);
                for (i, x) in z.iter_mut().enumerate() {
                    *x = d[i].iter().fold(0, |acc, j| acc ^ (data[*j] & 1)) ^ dot(&e[i], y);
                }
                for (x, row) in p2.iter_mut().zip(phi_inv) {
                    *x = row
                        .iter()
                        .zip(z.iter())
                        .fold(0, |acc, (p, v)| acc ^ (p & v));
                }
                for (i, x) in w.iter_mut().enumerate() {
                    *x = dot(&a[i], p2) ^ bs[i];
                }
                let (p1, rest) = out.split_at_mut(t);
                back_solve(t_upper, w, p1);
                let (out_p2, out_s) = rest.split_at_mut(*gap);
                out_p2.copy_from_slice(p2);
                for (o, x) in out_s.iter_mut().zip(data) {
                    *o = x & 1;
                }
            }
        }
    }

    /// GNU Radio's call that made it.
    pub fn call(&self) -> &str {
        &self.call
    }
}

impl fmt::Display for LdpcMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.call)
    }
}

/// GNU Radio's encoders of LDPC matrix objects: `fec.ldpc_par_mtrx_encoder_make_H(H)` (an
/// `H` matrix, by Richardson and Urbanke's steps) and `fec.ldpc_gen_mtrx_encoder_make(G)`
/// (a `G` matrix): frames of whole codewords' data, one codeword's at first.
#[derive(Debug, Clone)]
pub struct MatrixEncoder {
    matrix: Arc<LdpcMatrix>,
    frame_bits: usize,
    scratch: Vec<u8>,
}

impl MatrixEncoder {
    /// An encoder of one codeword's data per frame.
    pub fn new(matrix: Arc<LdpcMatrix>) -> Self {
        Self {
            frame_bits: matrix.k,
            scratch: vec![0; matrix.scratch_len()],
            matrix,
        }
    }
}

impl Encoder for MatrixEncoder {
    fn input_size(&self) -> usize {
        self.frame_bits
    }
    fn output_size(&self) -> usize {
        self.frame_bits / self.matrix.k * self.matrix.n
    }
    fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let (n, k) = (self.matrix.n, self.matrix.k);
        for (data, word) in input.chunks_exact(k).zip(output.chunks_exact_mut(n)) {
            self.matrix.encode(data, word, &mut self.scratch);
        }
    }
    /// Whole codewords' data only (GNU Radio's encoder throws on other sizes: `false`, the
    /// frame kept).
    fn set_frame_size(&mut self, bits: usize) -> bool {
        if bits == 0 || !bits.is_multiple_of(self.matrix.k) {
            return false;
        }
        self.frame_bits = bits;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parity-check matrix in the form, 3 rows, gap 1: T = [[1, 1], [0, 1]].
    const H: &str = "6 3\n2 3\n1 2 2 2 1 1\n3 3 3\n1\n1 2\n2 3\n1 3\n2\n3\n";

    #[test]
    fn parity_codewords_hold_every_check_and_carry_the_data_last() {
        let h = LdpcMatrix::parity("h", H, 1).unwrap();
        assert_eq!((h.n(), h.k(), h.data_offset()), (6, 3, 3));
        let mut enc = MatrixEncoder::new(Arc::new(h.clone()));
        for v in 0..8u8 {
            let data: Vec<u8> = (0..3).map(|i| (v >> i) & 1).collect();
            let mut word = [9u8; 6];
            enc.encode(&data, &mut word);
            assert_eq!(&word[3..], data.as_slice());
            for check in h.checks() {
                assert_eq!(dot(check, &word), 0, "{data:?} -> {word:?}");
            }
        }
    }

    #[test]
    fn generator_codewords_hold_its_parity_checks() {
        // G = [I P] with P = [[1, 1], [0, 1]].
        let g = LdpcMatrix::generator("g", "4 2\n1 2\n1 1 1 2\n3 2\n1\n2\n1\n1 2\n1 3 4\n2 4\n")
            .unwrap();
        let mut enc = MatrixEncoder::new(Arc::new(g.clone()));
        let mut word = [0u8; 4];
        enc.encode(&[1, 1], &mut word);
        assert_eq!(word, [1, 1, 1, 0]);
        for check in g.checks() {
            assert_eq!(dot(check, &word), 0);
        }
        assert!(
            LdpcMatrix::generator("g", "4 2\n1 2\n1 1 1 2\n3 2\n2\n1\n1\n1 2\n")
                .unwrap_err()
                .contains("identity")
        );
    }

    #[test]
    fn a_wrong_gap_is_refused() {
        assert!(LdpcMatrix::parity("h", H, 0).is_err());
        assert!(LdpcMatrix::parity("h", H, 3).is_err());
    }
}
