//! GNU Radio's LDPC codes of alist parity-check matrices (`fec.ldpc_encoder_make(file)`,
//! `fec.ldpc_decoder.make(file, sigma, max_iter)`): [`LdpcCode`] (the matrix and the
//! generator GNU Radio derives from it), [`LdpcEncoder`] and [`LdpcDecoder`] (its
//! belief-propagation decoder, with its arithmetic kept).
//!
//! Written here rather than taken from a crate: the point is GNU Radio's own choices (its
//! column permutation from Gaussian elimination, which sets where the data bits sit in a
//! codeword, and its decoder on probability ratios), which no general LDPC crate makes. Not
//! the DVB-S2 crate's layered min-sum decoder either: that one is built for the standard's
//! structured matrices and decides otherwise than GNU Radio's.

use crate::code::{Decoder, Encoder, Soft};

/// A parity-check matrix as an alist file gives it, and the systematic generator GNU Radio's
/// `cldpc` derives by Gaussian elimination with column swaps.
#[derive(Debug, Clone, PartialEq)]
pub struct LdpcCode {
    /// Code bits.
    n: usize,
    /// Parity checks (rows), dependent ones included.
    m: usize,
    /// Rows of H, dense.
    h: Vec<Vec<u8>>,
    /// Per check, its bits (0-based); per bit, its checks.
    checks: Vec<Vec<usize>>,
    bits: Vec<Vec<usize>>,
    /// The reduced matrix, the column order, and H's rank.
    g: Vec<Vec<u8>>,
    permute: Vec<usize>,
    rank: usize,
}

impl LdpcCode {
    /// Reads an alist file's text (MacKay's format: `N M`, the largest weights, each column's
    /// and each row's weight, then each column's and each row's 1-based indices).
    ///
    /// # Errors
    /// What is wrong with the text, in words.
    pub fn from_alist(text: &str) -> Result<Self, String> {
        let mut lines = text.lines();
        let mut numbers = |what: &str| -> Result<Vec<usize>, String> {
            let line = lines
                .next()
                .ok_or_else(|| format!("the file ends before {what}"))?;
            line.split_whitespace()
                .map(|w| {
                    w.parse()
                        .map_err(|_| format!("'{w}' in {what} is not a whole number"))
                })
                .collect()
        };
        let size = numbers("the sizes (N M)")?;
        let [n, m] = size[..] else {
            return Err("the first line is not `N M`".into());
        };
        if n == 0 || m == 0 || n > 1 << 16 || m > n {
            return Err(format!(
                "N = {n}, M = {m} is no parity-check matrix radioflow reads (0 < M <= N <= 65536)"
            ));
        }
        numbers("the largest weights")?;
        let col_w = numbers("the column weights")?;
        let row_w = numbers("the row weights")?;
        if col_w.len() < n || row_w.len() < m {
            return Err("fewer column or row weights than N and M".into());
        }
        let mut bits = Vec::with_capacity(n);
        for (c, w) in col_w.iter().take(n).enumerate() {
            let idx = numbers(&format!("column {}", c + 1))?;
            if idx.len() < *w || idx[..*w].iter().any(|i| *i == 0 || *i > m) {
                return Err(format!(
                    "column {}: not {w} row numbers from 1 to {m}",
                    c + 1
                ));
            }
            bits.push(idx[..*w].iter().map(|i| i - 1).collect::<Vec<_>>());
        }
        let mut checks = Vec::with_capacity(m);
        let mut h = vec![vec![0u8; n]; m];
        for (r, w) in row_w.iter().take(m).enumerate() {
            let idx = numbers(&format!("row {}", r + 1))?;
            if idx.len() < *w || idx[..*w].iter().any(|i| *i == 0 || *i > n) {
                return Err(format!(
                    "row {}: not {w} column numbers from 1 to {n}",
                    r + 1
                ));
            }
            for i in &idx[..*w] {
                h[r][i - 1] = 1;
            }
            checks.push(idx[..*w].iter().map(|i| i - 1).collect::<Vec<_>>());
        }
        let (g, permute, rank) = reduce(&h, n);
        if rank == n {
            return Err("H has full column rank: the code carries no data".into());
        }
        Ok(Self {
            n,
            m,
            h,
            checks,
            bits,
            g,
            permute,
            rank,
        })
    }

    /// Code bits per codeword.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Data bits per codeword.
    pub fn k(&self) -> usize {
        self.n - self.rank
    }

    /// Codeword of `data` ([`k`](Self::k) bits) into `out` ([`n`](Self::n) bits).
    fn encode(&self, data: &[u8], out: &mut [u8]) {
        let (n, k, rank) = (self.n, self.k(), self.rank);
        for i in 0..n {
            let x = if i >= rank {
                data[i - rank] & 1
            } else {
                self.g[i][n - k..]
                    .iter()
                    .zip(data)
                    .fold(0, |acc, (g, d)| acc ^ (g & d & 1))
            };
            out[self.permute[i]] = x;
        }
    }

    /// Whether the first `rows` checks hold for `word`.
    fn holds(&self, word: &[u8], rows: usize) -> bool {
        self.h[..rows.min(self.m)]
            .iter()
            .all(|row| row.iter().zip(word).fold(0, |acc, (h, b)| acc ^ (h & b)) == 0)
    }
}

/// GNU Radio's `GF2Mat::get_G`: row reduction of `h` with column swaps (a dependent row moved
/// to the end); the reduced matrix, the column order and the rank.
fn reduce(h: &[Vec<u8>], n: usize) -> (Vec<Vec<u8>>, Vec<usize>, usize) {
    let m = h.len();
    let mut g = h.to_vec();
    let mut permute: Vec<usize> = (0..n).collect();
    let (mut diag, mut limit, mut rank) = (0, m, 0);
    while diag < limit {
        if let Some(col) = (diag..n).find(|c| g[diag][*c] == 1) {
            rank += 1;
            for row in g.iter_mut() {
                row.swap(diag, col);
            }
            permute.swap(diag, col);
            let pivot = g[diag].clone();
            for (r, row) in g.iter_mut().enumerate() {
                if r != diag && row[diag] == 1 {
                    for (a, b) in row.iter_mut().zip(&pivot) {
                        *a ^= b;
                    }
                }
            }
            diag += 1;
        } else {
            let row = g.remove(diag);
            g.insert(limit - 1, row);
            limit -= 1;
        }
    }
    (g, permute, rank)
}

/// GNU Radio's `fec.ldpc_encoder_make(file)`: one codeword's data per frame, always (GNU
/// Radio 3.10's encoder keeps its frame whatever it is asked).
#[derive(Debug, Clone)]
pub struct LdpcEncoder {
    code: std::sync::Arc<LdpcCode>,
}

impl LdpcEncoder {
    /// An encoder of one codeword's data per frame.
    pub fn new(code: std::sync::Arc<LdpcCode>) -> Self {
        Self { code }
    }
}

impl Encoder for LdpcEncoder {
    fn input_size(&self) -> usize {
        self.code.k()
    }
    fn output_size(&self) -> usize {
        self.code.n()
    }
    fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        self.code.encode(input, output);
    }
    /// Refused (`false`) whatever `bits` is, the frame one codeword's data, as GNU Radio's.
    fn set_frame_size(&mut self, _bits: usize) -> bool {
        false
    }
}

/// GNU Radio's `fec.ldpc_decoder.make(file, sigma, max_iter)`: its sum-product decoder on
/// likelihood ratios (`exp(-y / 2σ²)` of each value `y`, positive for a 1 bit), in f64, as
/// GNU Radio 3.10's `awgn_bp` computes them: checks by products of `2 / (1 + q) - 1`, bits
/// by products of ratios, a bit 1 where its ratio is above 1, until the checks hold or
/// `max_iter` iterations.
#[derive(Debug, Clone)]
pub struct LdpcDecoder {
    code: std::sync::Arc<LdpcCode>,
    sigma: f32,
    max_iter: usize,
    frame_bits: usize,
    /// Messages per check and bit (dense, as GNU Radio keeps them), channel values, and
    /// the current decisions.
    q: Vec<f64>,
    r: Vec<f64>,
    rx: Vec<f64>,
    lr: Vec<f64>,
    estimate: Vec<u8>,
    /// One codeword's values, negated.
    word: Vec<f32>,
    iterations: i64,
}

impl LdpcDecoder {
    /// A decoder of one codeword per frame for noise of deviation `sigma`, at most
    /// `max_iter` iterations.
    pub fn new(code: std::sync::Arc<LdpcCode>, sigma: f32, max_iter: usize) -> Self {
        let (n, m) = (code.n, code.m);
        Self {
            sigma,
            frame_bits: code.k(),
            max_iter,
            q: vec![0.0; m * n],
            r: vec![0.0; m * n],
            rx: vec![0.0; n],
            lr: vec![0.0; n],
            estimate: vec![0; n],
            word: vec![0.0; n],
            iterations: -1,
            code,
        }
    }

    /// Decodes one codeword of values `y` (positive: a 0 bit, as GNU Radio negates the
    /// block's input first) into `estimate`; returns the iterations made.
    fn decode_word(&mut self, y: &[f32]) -> i64 {
        let c = &*self.code;
        let (n, k) = (c.n, c.k());
        for (e, v) in self.estimate.iter_mut().zip(y) {
            *e = u8::from(*v < 0.0);
        }
        if c.holds(&self.estimate, n - k) {
            return 0;
        }
        // Likelihood ratios P(1)/P(0), the exponent in f32 as GNU Radio writes it.
        let two_var = 2.0 * self.sigma * self.sigma;
        for (r, v) in self.rx.iter_mut().zip(y) {
            *r = f64::from(-v / two_var).exp();
        }
        for (var, checks) in c.bits.iter().enumerate() {
            for chk in checks {
                self.q[chk * n + var] = self.rx[var];
            }
        }
        let mut iterations = 0;
        while iterations < self.max_iter as i64 {
            iterations += 1;
            for (chk, vars) in c.checks.iter().enumerate() {
                let row = chk * n;
                let product = vars
                    .iter()
                    .fold(1.0f64, |p, v| p * (2.0 / (1.0 + self.q[row + v]) - 1.0));
                for v in vars {
                    let p = product / (2.0 / (1.0 + self.q[row + v]) - 1.0);
                    self.r[row + v] = (1.0 - p) / (1.0 + p);
                }
            }
            for (var, checks) in c.bits.iter().enumerate() {
                let ratio = checks
                    .iter()
                    .fold(self.rx[var], |s, chk| s * self.r[chk * n + var]);
                self.lr[var] = ratio;
                for chk in checks {
                    self.q[chk * n + var] = ratio / self.r[chk * n + var];
                }
            }
            for (e, l) in self.estimate.iter_mut().zip(&self.lr) {
                *e = u8::from(*l > 1.0);
            }
            if c.holds(&self.estimate, n - k) {
                break;
            }
        }
        iterations
    }
}

impl Decoder for LdpcDecoder {
    fn input_size(&self) -> usize {
        (self.frame_bits as f64 / self.rate()).round() as usize
    }
    fn output_size(&self) -> usize {
        self.frame_bits
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Float(input) = input else {
            panic!("the LDPC decoder takes floats");
        };
        let (n, k, rank) = (self.code.n, self.code.k(), self.code.rank);
        let mut y = std::mem::take(&mut self.word);
        for (word, out) in input.chunks_exact(n).zip(output.chunks_exact_mut(k)) {
            for (a, b) in y.iter_mut().zip(word) {
                *a = -b;
            }
            self.iterations = self.decode_word(&y);
            for (i, o) in out.iter_mut().enumerate() {
                *o = self.estimate[self.code.permute[i + rank]];
            }
        }
        self.word = y;
    }
    fn rate(&self) -> f64 {
        self.code.k() as f64 / self.code.n as f64
    }
    /// As [`LdpcEncoder`]'s.
    fn set_frame_size(&mut self, bits: usize) -> bool {
        if bits == 0 || !bits.is_multiple_of(self.code.k()) {
            return false;
        }
        self.frame_bits = bits;
        true
    }
    fn iterations(&self) -> i64 {
        self.iterations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The (7, 4) Hamming code's parity checks, as an alist.
    const HAMMING: &str = "7 3\n3 4\n1 1 1 3 2 2 2\n4 4 4\n1\n2\n3\n1 2 3\n1 2\n2 3\n1 3\n1 4 5 7\n2 4 6 7\n3 5 6 7\n";

    #[test]
    fn codewords_satisfy_every_check_and_clean_words_decode_at_once() {
        let code = std::sync::Arc::new(LdpcCode::from_alist(HAMMING).unwrap());
        assert_eq!((code.n(), code.k()), (7, 4));
        let mut enc = LdpcEncoder::new(code.clone());
        let mut dec = LdpcDecoder::new(code.clone(), 0.5, 10);
        for d in 0..16u8 {
            let data: Vec<u8> = (0..4).map(|i| (d >> i) & 1).collect();
            let mut word = [0u8; 7];
            enc.encode(&data, &mut word);
            assert!(code.holds(&word, 3), "{data:?} -> {word:?}");
            let soft: Vec<f32> = word
                .iter()
                .map(|b| if *b == 1 { 1.0 } else { -1.0 })
                .collect();
            let mut out = [9u8; 4];
            dec.decode(Soft::Float(&soft), &mut out);
            assert_eq!(out.as_slice(), data.as_slice());
            assert_eq!(dec.iterations(), 0);
        }
    }

    #[test]
    fn a_bad_alist_is_named() {
        assert!(LdpcCode::from_alist("")
            .unwrap_err()
            .contains("ends before"));
        assert!(LdpcCode::from_alist("7 3\n3 4\n1 1\n4 4 4\n")
            .unwrap_err()
            .contains("fewer"));
        let bad = HAMMING.replace("1 4 5 7", "1 4 5 9");
        assert!(LdpcCode::from_alist(&bad).unwrap_err().contains("row 1"));
    }
}
