//! One iteration of layered min-sum (offset or normalized, [`CheckRule`]), 360 checks of a
//! layer at once (intra-frame parallelism over the quasi-cyclic structure), compiled for
//! AVX2, SSE4.1 or the baseline and chosen at run time.
//!
//! Posteriors L are i16, messages R and extrinsics i8. Keeping L wide matters: with i8
//! posteriors a variable of degree 12 saturates at 127, a single disagreeing check then
//! drops it to a small value, and the low-rate codes stop converging unless the channel LLRs
//! are scaled down to a few levels, which costs the high-rate codes up to 0.5 dB.
//!
//! A layer's 360 rows are padded to [`PADDED`] lanes (12 AVX2 vectors); lanes 360.. carry
//! junk that never reaches the variables or the parity test. Per layer: (1) for each
//! circulant, the extrinsics x = sat8(L − R) of its 360 variables, rotated by its shift, into
//! a row of `t`, and the parity of the hard decisions of L per check; (2) per chunk of 32
//! rows, min1, min2, the index of min1 and the sign product over the circulants, then the
//! new messages R = sign · rule(min(others)) into `t`; (3) L += R_new − R_old, rotated
//! back, and R = R_new (two circulants of the same block in a layer both add their
//! change). An iteration with every check satisfied by the L it read and no sign of L
//! changed means the hard decisions satisfy H·c = 0.
//!
//! The check node update is written three times: portable Rust over 32-lane arrays (the
//! reference the others are tested against bit for bit), AVX2 and SSE4.1 intrinsics; the
//! rotations are plain loops that LLVM vectorizes in each `#[target_feature]` copy.

use super::ldpc_code::{Edge, LdpcCode, Z};
use crate::modcod::CodeRate;

/// Lanes of one chunk (an AVX2 register of i8).
const LANES: usize = 32;
/// A layer's rows padded to whole chunks.
pub(crate) const PADDED: usize = 384;
const CHUNKS: usize = PADDED / LANES;

/// A row of messages or rotated posteriors of one circulant.
pub(crate) type Row = [i8; PADDED];

/// The instruction set the kernel runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    /// 256-bit AVX2.
    Avx2,
    /// 128-bit SSE4.1.
    Sse41,
    /// Whatever the compilation target offers (SSE2 on x86-64).
    Portable,
}

impl Isa {
    /// The best instruction set this CPU has.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                return Isa::Avx2;
            }
            if is_x86_feature_detected!("sse4.1") {
                return Isa::Sse41;
            }
        }
        Isa::Portable
    }

    /// Every instruction set this CPU can run, best first.
    pub fn available() -> Vec<Isa> {
        [Isa::Avx2, Isa::Sse41, Isa::Portable]
            .into_iter()
            .filter(|i| i.is_supported())
            .collect()
    }

    /// Whether this CPU can run `self`.
    pub fn is_supported(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => is_x86_feature_detected!("sse4.1"),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Avx2 | Isa::Sse41 => false,
            Isa::Portable => true,
        }
    }
}

/// What one iteration saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sweep {
    /// Every check was satisfied by the hard decisions read and none changed: H·c = 0.
    pub(crate) clean: bool,
    /// Checks unsatisfied by the hard decisions as each layer read them.
    pub(crate) unsatisfied: u32,
}

/// Runs one iteration over every layer.
///
/// `l` holds the code's posteriors (`code.blocks() * 360`), `r` one row per edge, `t` at
/// least `code.max_degree()` rows. `isa` must be supported ([`Isa::is_supported`]); an
/// unsupported one runs the portable code.
pub(crate) fn iteration(
    isa: Isa,
    code: &LdpcCode,
    l: &mut [i16],
    r: &mut [Row],
    t: &mut [Row],
) -> Sweep {
    debug_assert!(l.len() >= code.blocks() * Z && r.len() >= code.edges().len());
    debug_assert!(t.len() >= code.max_degree());
    #[cfg(target_arch = "x86_64")]
    {
        if isa == Isa::Avx2 && isa.is_supported() {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { iteration_avx2(code, l, r, t) };
        }
        if isa == Isa::Sse41 && isa.is_supported() {
            // SAFETY: the CPU supports SSE4.1 (checked just above).
            return unsafe { iteration_sse41(code, l, r, t) };
        }
    }
    let _ = isa;
    iteration_body(code, l, r, t)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn iteration_avx2(code: &LdpcCode, l: &mut [i16], r: &mut [Row], t: &mut [Row]) -> Sweep {
    // Safe to call: AVX2 is enabled in this function.
    let rule = CheckRule::for_code(code);
    iteration_with(code, l, r, t, |t, base| avx2::update_chunk(t, base, rule))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
unsafe fn iteration_sse41(code: &LdpcCode, l: &mut [i16], r: &mut [Row], t: &mut [Row]) -> Sweep {
    // Safe to call: SSE4.1 is enabled in this function.
    let rule = CheckRule::for_code(code);
    iteration_with(code, l, r, t, |t, base| {
        sse41::update_chunk(t, base, rule);
        sse41::update_chunk(t, base + 16, rule);
    })
}

#[inline(always)]
fn iteration_body(code: &LdpcCode, l: &mut [i16], r: &mut [Row], t: &mut [Row]) -> Sweep {
    let rule = CheckRule::for_code(code);
    iteration_with(code, l, r, t, |t, base| update_chunk(t, base, rule))
}

#[inline(always)]
fn iteration_with(
    code: &LdpcCode,
    l: &mut [i16],
    r: &mut [Row],
    t: &mut [Row],
    update_chunk: impl Fn(&mut [Row], usize),
) -> Sweep {
    let mut unsatisfied = 0u32;
    let mut flips = 0u16;
    let mut par = [0i16; Z];
    for layer in code.layers() {
        let edges = &code.edges()[layer.clone()];
        let rows = &mut r[layer.clone()];
        let t = &mut t[..edges.len()];
        par.fill(0);
        for (e, (row, msg)) in edges.iter().zip(t.iter_mut().zip(rows.iter())) {
            rotate_in(block(l, e), e, msg, row, &mut par);
        }
        unsatisfied += par.iter().map(|&p| u32::from(p < 0)).sum::<u32>();
        for v in 0..CHUNKS {
            update_chunk(t, v * LANES);
        }
        for (e, (row, msg)) in edges.iter().zip(t.iter().zip(rows.iter_mut())) {
            flips |= rotate_out(row, msg, e, block_mut(l, e));
        }
    }
    Sweep {
        clean: unsatisfied == 0 && flips & 0x8000 == 0,
        unsatisfied,
    }
}

/// H·c = 0 for the hard decisions of `l` (same instruction set choice as [`iteration`]).
pub(crate) fn syndrome_ok(isa: Isa, code: &LdpcCode, l: &[i16]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if isa == Isa::Avx2 && isa.is_supported() {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { syndrome_avx2(code, l) };
        }
    }
    let _ = isa;
    syndrome_body(code, l)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn syndrome_avx2(code: &LdpcCode, l: &[i16]) -> bool {
    syndrome_body(code, l)
}

#[inline(always)]
fn syndrome_body(code: &LdpcCode, l: &[i16]) -> bool {
    let mut par = [0i16; Z];
    for layer in code.layers() {
        par.fill(0);
        for e in &code.edges()[layer.clone()] {
            let b = block(l, e);
            let s = usize::from(e.shift);
            for (p, &v) in par[s..].iter_mut().zip(&b[..Z - s]) {
                *p ^= v;
            }
            if !e.hole {
                for (p, &v) in par[..s].iter_mut().zip(&b[Z - s..]) {
                    *p ^= v;
                }
            }
        }
        if par.iter().fold(0, |a, &p| a | p) < 0 {
            return false;
        }
    }
    true
}

#[inline(always)]
fn block<'a>(l: &'a [i16], e: &Edge) -> &'a [i16; Z] {
    let b = usize::from(e.block) * Z;
    l[b..b + Z].try_into().expect("block inside l")
}

#[inline(always)]
fn block_mut<'a>(l: &'a mut [i16], e: &Edge) -> &'a mut [i16; Z] {
    let b = usize::from(e.block) * Z;
    (&mut l[b..b + Z]).try_into().expect("block inside l")
}

/// row[k] = sat8(block[(k − s) mod 360] − msg[k]) and par[k] ^= its hard decision; the
/// hole's row 0 gets +127, neutral for the minima, the signs and the parity.
#[inline(always)]
fn rotate_in(block: &[i16; Z], e: &Edge, msg: &Row, row: &mut Row, par: &mut [i16; Z]) {
    let s = usize::from(e.shift);
    extrinsic(&block[..Z - s], &msg[s..Z], &mut row[s..Z], &mut par[s..Z]);
    if e.hole {
        row[0] = i8::MAX;
    } else {
        extrinsic(&block[Z - s..], &msg[..s], &mut row[..s], &mut par[..s]);
    }
}

#[inline(always)]
fn extrinsic(l: &[i16], msg: &[i8], x: &mut [i8], par: &mut [i16]) {
    for (((&l, &m), x), p) in l.iter().zip(msg).zip(x.iter_mut()).zip(par.iter_mut()) {
        *x = l
            .saturating_sub(i16::from(m))
            .clamp(-i16::from(i8::MAX), i16::from(i8::MAX)) as i8;
        *p ^= l;
    }
}

/// block[m] += new[k] − msg[k] and msg[k] = new[k], k = (m + s) mod 360; the hole's row 0
/// is left alone (its message stays 0). Returns the OR of the sign changes (bit 15).
#[inline(always)]
fn rotate_out(new: &Row, msg: &mut Row, e: &Edge, block: &mut [i16; Z]) -> u16 {
    let s = usize::from(e.shift);
    let (lo, hi) = block.split_at_mut(Z - s);
    let (msg_hi, msg_lo) = msg.split_at_mut(s);
    let mut flips = apply(&new[s..Z], &mut msg_lo[..Z - s], lo);
    if !e.hole {
        flips |= apply(&new[..s], msg_hi, hi);
    }
    flips
}

#[inline(always)]
fn apply(new: &[i8], msg: &mut [i8], l: &mut [i16]) -> u16 {
    let mut flips = 0u16;
    for ((l, &n), m) in l.iter_mut().zip(new).zip(msg.iter_mut()) {
        let updated = l.saturating_add(i16::from(n) - i16::from(*m));
        flips |= (*l ^ updated) as u16;
        *l = updated;
        *m = n;
    }
    flips
}

/// How a check node scales the magnitudes it sends: m − (m >> shift), then minus `offset`
/// (saturating at 0), on the i8 scale of [`llr_target_mean`](super::llr_target_mean).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CheckRule {
    /// Normalization 1 − 2^−shift, 1..=7 (7 leaves magnitudes 0..=127 unchanged).
    pub(crate) shift: u8,
    /// Offset subtracted after normalization.
    pub(crate) offset: u8,
}

impl CheckRule {
    /// The rule for `code`'s rate.
    ///
    /// Measured with ideal synchronisation (AWGN, 30 iterations, 100-300 frames at each
    /// code's Table 13 Es/N0, the LLR scales of `quantize.rs`): offset min-sum (6, no
    /// normalization) decodes 2/5 to 2/3 far better than 7/8-normalized min-sum (8PSK 3/5
    /// at 5.5 dB: short FER 0.99 → 0.19, normal 1.00 → 0.04; QPSK 2/5 normal at −0.3 dB
    /// 0.95 → 0, short 0.73 → 0.13; QPSK 1/2 normal at 1 dB 0.88 → 0; 8PSK 2/3 short at
    /// 6.62 dB 0.23 → 0.015; never worse on those rates), but costs the higher ones (QPSK 8/9
    /// short at 6.2 dB: 0.045 → 0.10; 16APSK 3/4 short at 10.21 dB: 0.06 → 0.33 even with
    /// 7/8 kept and an offset of 4). 3/4 and above and the 1/4 and 1/3 codes keep 7/8 (with
    /// 0.75 the low rates lose more than 1 dB, f64 flooding trials).
    pub(crate) fn for_code(code: &LdpcCode) -> Self {
        match code.fec().rate {
            CodeRate::R2_5 | CodeRate::R1_2 | CodeRate::R3_5 | CodeRate::R2_3 => CheckRule {
                shift: 7,
                offset: 6,
            },
            _ => CheckRule {
                shift: 3,
                offset: 0,
            },
        }
    }

    #[inline(always)]
    pub(crate) fn apply(self, m: u8) -> u8 {
        (m - (m >> self.shift)).saturating_sub(self.offset)
    }
}

/// Check node update of the 32 rows of a layer starting at `base`: `t` holds the
/// extrinsics on entry and the new messages on exit.
#[inline(always)]
fn update_chunk(t: &mut [Row], base: usize, rule: CheckRule) {
    let mut min1 = [i8::MAX as u8; LANES];
    let mut min2 = [i8::MAX as u8; LANES];
    let mut idx = [0u8; LANES];
    let mut sgn = [0u8; LANES];
    for (i, tr) in t.iter().enumerate() {
        let x = chunk(tr, base);
        for j in 0..LANES {
            let a = x[j].unsigned_abs();
            min2[j] = min2[j].min(min1[j].max(a));
            idx[j] = if a < min1[j] { i as u8 } else { idx[j] };
            min1[j] = min1[j].min(a);
            sgn[j] ^= x[j] as u8;
        }
    }
    for j in 0..LANES {
        min1[j] = rule.apply(min1[j]);
        min2[j] = rule.apply(min2[j]);
    }
    for (i, tr) in t.iter_mut().enumerate() {
        let x = chunk_mut(tr, base);
        for j in 0..LANES {
            x[j] = new_message(x[j], i as u8, idx[j], min1[j], min2[j], sgn[j]);
        }
    }
}

#[inline(always)]
fn new_message(x: i8, i: u8, idx: u8, min1: u8, min2: u8, sgn: u8) -> i8 {
    let m = if idx == i { min2 } else { min1 } as i8;
    if (x as u8 ^ sgn) & 0x80 != 0 {
        -m
    } else {
        m
    }
}

#[inline(always)]
fn chunk(row: &Row, base: usize) -> &[i8; LANES] {
    row[base..base + LANES]
        .try_into()
        .expect("chunk inside row")
}

#[inline(always)]
fn chunk_mut(row: &mut Row, base: usize) -> &mut [i8; LANES] {
    (&mut row[base..base + LANES])
        .try_into()
        .expect("chunk inside row")
}

/// The check node update of [`update_chunk`] in AVX2 intrinsics, bit-exact with it.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{CheckRule, Row, LANES};

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(row: &Row, base: usize) -> __m256i {
        let c = &row[base..base + LANES];
        // SAFETY: `c` holds 32 readable bytes; loadu has no alignment requirement.
        unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(row: &mut Row, base: usize, v: __m256i) {
        let c = &mut row[base..base + LANES];
        // SAFETY: `c` holds 32 writable bytes; storeu has no alignment requirement.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
    }

    /// [`CheckRule::apply`] on bytes 0..=127.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn apply(m: __m256i, rule: CheckRule) -> __m256i {
        let shifted = _mm256_srl_epi16(m, _mm_cvtsi32_si128(i32::from(rule.shift)));
        let part = _mm256_and_si256(shifted, _mm256_set1_epi8((0xFF >> rule.shift) as i8));
        _mm256_subs_epu8(
            _mm256_sub_epi8(m, part),
            _mm256_set1_epi8(rule.offset as i8),
        )
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn update_chunk(t: &mut [Row], base: usize, rule: CheckRule) {
        let mut min1 = _mm256_set1_epi8(i8::MAX);
        let mut min2 = min1;
        let mut idx = _mm256_setzero_si256();
        let mut sgn = _mm256_setzero_si256();
        for (i, tr) in t.iter().enumerate() {
            let x = load(tr, base);
            let a = _mm256_abs_epi8(x);
            min2 = _mm256_min_epu8(min2, _mm256_max_epu8(min1, a));
            let lt = _mm256_cmpgt_epi8(min1, a);
            idx = _mm256_blendv_epi8(idx, _mm256_set1_epi8(i as i8), lt);
            min1 = _mm256_min_epu8(min1, a);
            sgn = _mm256_xor_si256(sgn, x);
        }
        let min1 = apply(min1, rule);
        let min2 = apply(min2, rule);
        let one = _mm256_set1_epi8(1);
        for (i, tr) in t.iter_mut().enumerate() {
            let x = load(tr, base);
            let is_min = _mm256_cmpeq_epi8(idx, _mm256_set1_epi8(i as i8));
            let m = _mm256_blendv_epi8(min1, min2, is_min);
            // sign_epi8 negates where the (never zero) second operand is negative.
            let new = _mm256_sign_epi8(m, _mm256_or_si256(_mm256_xor_si256(x, sgn), one));
            store(tr, base, new);
        }
    }
}

/// The check node update of [`update_chunk`] in SSE4.1 intrinsics on 16 lanes, bit-exact
/// with it (two calls cover a 32-lane chunk).
#[cfg(target_arch = "x86_64")]
mod sse41 {
    use std::arch::x86_64::*;

    use super::{CheckRule, Row};

    const LANES: usize = 16;

    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn load(row: &Row, base: usize) -> __m128i {
        let c = &row[base..base + LANES];
        // SAFETY: `c` holds 16 readable bytes; loadu has no alignment requirement.
        unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
    }

    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn store(row: &mut Row, base: usize, v: __m128i) {
        let c = &mut row[base..base + LANES];
        // SAFETY: `c` holds 16 writable bytes; storeu has no alignment requirement.
        unsafe { _mm_storeu_si128(c.as_mut_ptr().cast(), v) }
    }

    /// [`CheckRule::apply`] on bytes 0..=127.
    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn apply(m: __m128i, rule: CheckRule) -> __m128i {
        let shifted = _mm_srl_epi16(m, _mm_cvtsi32_si128(i32::from(rule.shift)));
        let part = _mm_and_si128(shifted, _mm_set1_epi8((0xFF >> rule.shift) as i8));
        _mm_subs_epu8(_mm_sub_epi8(m, part), _mm_set1_epi8(rule.offset as i8))
    }

    #[inline]
    #[target_feature(enable = "sse4.1")]
    pub(super) fn update_chunk(t: &mut [Row], base: usize, rule: CheckRule) {
        let mut min1 = _mm_set1_epi8(i8::MAX);
        let mut min2 = min1;
        let mut idx = _mm_setzero_si128();
        let mut sgn = _mm_setzero_si128();
        for (i, tr) in t.iter().enumerate() {
            let x = load(tr, base);
            let a = _mm_abs_epi8(x);
            min2 = _mm_min_epu8(min2, _mm_max_epu8(min1, a));
            let lt = _mm_cmpgt_epi8(min1, a);
            idx = _mm_blendv_epi8(idx, _mm_set1_epi8(i as i8), lt);
            min1 = _mm_min_epu8(min1, a);
            sgn = _mm_xor_si128(sgn, x);
        }
        let min1 = apply(min1, rule);
        let min2 = apply(min2, rule);
        let one = _mm_set1_epi8(1);
        for (i, tr) in t.iter_mut().enumerate() {
            let x = load(tr, base);
            let is_min = _mm_cmpeq_epi8(idx, _mm_set1_epi8(i as i8));
            let m = _mm_blendv_epi8(min1, min2, is_min);
            let new = _mm_sign_epi8(m, _mm_or_si128(_mm_xor_si128(x, sgn), one));
            store(tr, base, new);
        }
    }
}
