//! Layered min-sum LDPC decoder (offset or normalized per code rate) on i8 LLRs, for every DVB-S2 code.

use super::ldpc_code::{LdpcCode, Z};
use super::ldpc_kernel::{iteration, syndrome_ok, Isa, Row, PADDED};

/// The most edges (circulants) of any code and the most per layer; sizes the scratch.
pub(crate) const MAX_EDGES: usize = 792;
pub(crate) const MAX_DEGREE: usize = 32;

/// What a decoding did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LdpcStatus {
    /// Iterations run.
    pub iterations: u32,
    /// The hard decisions satisfy every parity check (H·c = 0).
    pub converged: bool,
}

/// Layered min-sum decoder (offset min-sum for rates 2/5 to 2/3, 7/8-normalized for the
/// others: `CheckRule::for_code`) with early termination; scratch for the largest
/// code, so one decoder serves every code without allocating.
///
/// LLRs are `ln P(0)/P(1)` quantized to i8 (±127), posteriors are kept in i16 and
/// messages in i8; the 360 checks of a layer are updated
/// together (intra-frame SIMD, [`Isa`] chosen at construction). Cloning gives an independent
/// decoder.
#[derive(Clone)]
pub struct LdpcDecoder {
    isa: Isa,
    /// Posteriors in the code's layout ([`LdpcCode::position`]).
    l: Vec<i16>,
    /// Check-to-variable messages, one row per circulant.
    r: Vec<Row>,
    /// A layer's rotated posteriors.
    t: Vec<Row>,
    /// Stop at the first iteration that satisfies every check.
    early_termination: bool,
}

impl Default for LdpcDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl LdpcDecoder {
    /// A decoder using the best instruction set of this CPU.
    pub fn new() -> Self {
        Self::with_isa(Isa::detect())
    }

    /// A decoder using `isa`, or the portable code if this CPU lacks it.
    pub fn with_isa(isa: Isa) -> Self {
        LdpcDecoder {
            isa: if isa.is_supported() {
                isa
            } else {
                Isa::Portable
            },
            l: vec![0i16; 64_800],
            r: vec![[0; PADDED]; MAX_EDGES],
            t: vec![[0; PADDED]; MAX_DEGREE],
            early_termination: true,
        }
    }

    /// With `false`, every decoding runs `max_iterations` (for measurements); on by default.
    pub fn set_early_termination(&mut self, on: bool) {
        self.early_termination = on;
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes `llr` (Nldpc LLRs in FECFRAME order) with at most `max_iterations` iterations,
    /// stopping at the first iteration that leaves every check satisfied and no decision
    /// changed. The decisions are then read with [`hard_bits`](Self::hard_bits) or
    /// [`pack_info`](Self::pack_info).
    ///
    /// # Panics
    /// If `llr` is shorter than the code's Nldpc.
    pub fn decode(&mut self, code: &LdpcCode, llr: &[i8], max_iterations: u32) -> LdpcStatus {
        let fec = code.fec();
        let k = fec.kldpc();
        let q = code.q();
        let llr = &llr[..fec.nldpc];
        for (l, &v) in self.l[..k].iter_mut().zip(&llr[..k]) {
            *l = i16::from(v);
        }
        // Parity p_{c + q k} to block c, position k.
        let parity = &mut self.l[k..fec.nldpc];
        for (kk, group) in llr[k..].chunks_exact(q).enumerate() {
            for (c, &v) in group.iter().enumerate() {
                parity[c * Z + kk] = i16::from(v);
            }
        }
        let nedges = code.edges().len();
        for row in &mut self.r[..nedges] {
            row.fill(0);
        }
        let mut status = LdpcStatus {
            iterations: 0,
            converged: false,
        };
        while status.iterations < max_iterations {
            status.iterations += 1;
            let sweep = iteration(self.isa, code, &mut self.l, &mut self.r, &mut self.t);
            if !self.early_termination {
                continue;
            }
            // A clean sweep proves H·c = 0 but takes one iteration more than convergence;
            // when few checks were still failing as the layers were read, the decisions at
            // the end of this iteration may already be a codeword: check directly (about a
            // third of an iteration).
            let few = sweep.unsatisfied as usize <= code.fec().nldpc / 2000;
            if sweep.clean || (few && syndrome_ok(self.isa, code, &self.l)) {
                status.converged = true;
                return status;
            }
        }
        status.converged = syndrome_ok(self.isa, code, &self.l);
        status
    }

    /// Writes the hard decisions of the whole codeword in FECFRAME order, one bit per byte.
    ///
    /// # Panics
    /// If `out` is shorter than Nldpc.
    pub fn hard_bits(&self, code: &LdpcCode, out: &mut [u8]) {
        for (i, o) in out[..code.fec().nldpc].iter_mut().enumerate() {
            *o = u8::from(self.l[code.position(i)] < 0);
        }
    }

    /// Writes the first Kldpc decisions (the BCH codeword) packed MSB first into
    /// `out[..Kldpc / 8]`.
    ///
    /// # Panics
    /// If `out` is shorter than Kldpc / 8.
    pub fn pack_info(&self, code: &LdpcCode, out: &mut [u8]) {
        let k = code.fec().kldpc();
        for (o, bits) in out[..k / 8].iter_mut().zip(self.l[..k].chunks_exact(8)) {
            *o = bits
                .iter()
                .fold(0u8, |acc, &b| (acc << 1) | u8::from(b < 0));
        }
    }
}
