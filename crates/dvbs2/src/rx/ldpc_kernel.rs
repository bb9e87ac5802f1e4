//! One iteration of layered normalized min-sum on i8 LLRs, 360 checks of a layer at once
//! (intra-frame parallelism over the quasi-cyclic structure), compiled for AVX2, SSE4.1 or
//! the baseline and chosen at run time.
//!
//! The kernel is written once over 32-lane chunks of plain arrays that LLVM vectorizes; each
//! instruction set gets its own copy through `#[target_feature]` wrappers around the same
//! `#[inline(always)]` body. A layer's 360 rows are padded to [`PADDED`] lanes (12 AVX2
//! vectors); lanes 360.. carry junk that never reaches the variables or the parity test.
//!
//! Per layer: (1) each circulant's 360 posteriors L are copied, rotated by its shift, into a
//! row of `t`; (2) per chunk of 32 rows, extrinsic x = L − R for every circulant, min1, min2,
//! the index of min1 and the sign product; (3) new messages R = sign · 7/8 · min(others),
//! L = x + R (or, for a second circulant of the same block, the update R_new − R_old);
//! (4) rows rotated back into L. The parity of the hard decisions of L read in (2) and any
//! sign change in (4) are accumulated: an iteration with every check satisfied and no sign
//! change means the hard decisions satisfy H·c = 0.

use super::ldpc_code::{Edge, LdpcCode, Z};

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

/// Runs one iteration over every layer; returns true if every check was satisfied by the
/// hard decisions read and no hard decision changed.
///
/// `l` holds the code's posteriors (`code.blocks() * 360`), `r` one row per edge, `t` at
/// least `code.max_degree()` rows. `isa` must be supported ([`Isa::is_supported`]); an
/// unsupported one runs the portable code.
pub(crate) fn iteration(
    isa: Isa,
    code: &LdpcCode,
    l: &mut [i8],
    r: &mut [Row],
    t: &mut [Row],
) -> bool {
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
unsafe fn iteration_avx2(code: &LdpcCode, l: &mut [i8], r: &mut [Row], t: &mut [Row]) -> bool {
    // Safe to call: AVX2 is enabled in this function.
    iteration_with(code, l, r, t, |edges, r, t, base| {
        avx2::update_chunk(edges, r, t, base)
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
unsafe fn iteration_sse41(code: &LdpcCode, l: &mut [i8], r: &mut [Row], t: &mut [Row]) -> bool {
    // Safe to call: SSE4.1 is enabled in this function.
    iteration_with(code, l, r, t, |edges, r, t, base| {
        sse41::update_chunk(edges, r, t, base) | sse41::update_chunk(edges, r, t, base + 16)
    })
}

#[inline(always)]
fn iteration_body(code: &LdpcCode, l: &mut [i8], r: &mut [Row], t: &mut [Row]) -> bool {
    iteration_with(code, l, r, t, update_chunk)
}

#[inline(always)]
fn iteration_with(
    code: &LdpcCode,
    l: &mut [i8],
    r: &mut [Row],
    t: &mut [Row],
    update_chunk: impl Fn(&[Edge], &mut [Row], &mut [Row], usize) -> u8,
) -> bool {
    let mut unsat = 0u8;
    let mut flips = 0u8;
    for layer in code.layers() {
        let edges = &code.edges()[layer.clone()];
        let rows = &mut r[layer.clone()];
        let t = &mut t[..edges.len()];
        for (e, row) in edges.iter().zip(t.iter_mut()) {
            rotate_in(block(l, e), usize::from(e.shift), row);
            if e.hole {
                // Neutral for the minima, the sign product and the parity.
                row[0] = i8::MAX;
            }
        }
        for v in 0..CHUNKS {
            unsat |= update_chunk(edges, rows, t, v * LANES);
        }
        for (e, (row, msg)) in edges.iter().zip(t.iter().zip(rows.iter_mut())) {
            if e.hole {
                msg[0] = 0;
            }
            flips |= rotate_out(row, e, block_mut(l, e));
        }
    }
    (unsat | flips) & 0x80 == 0
}

#[inline(always)]
fn block<'a>(l: &'a [i8], e: &Edge) -> &'a [i8; Z] {
    let b = usize::from(e.block) * Z;
    l[b..b + Z].try_into().expect("block inside l")
}

#[inline(always)]
fn block_mut<'a>(l: &'a mut [i8], e: &Edge) -> &'a mut [i8; Z] {
    let b = usize::from(e.block) * Z;
    (&mut l[b..b + Z]).try_into().expect("block inside l")
}

/// row[k] = block[(k − s) mod 360].
#[inline(always)]
fn rotate_in(block: &[i8; Z], s: usize, row: &mut Row) {
    row[s..Z].copy_from_slice(&block[..Z - s]);
    row[..s].copy_from_slice(&block[Z - s..]);
}

/// block[m] = row[(m + s) mod 360] (or += for an accumulating edge); the hole's row 0 is not
/// written. Returns the OR of the sign changes.
#[inline(always)]
fn rotate_out(row: &Row, e: &Edge, block: &mut [i8; Z]) -> u8 {
    let s = usize::from(e.shift);
    let (lo, hi) = block.split_at_mut(Z - s);
    let mut flips = store(&row[s..Z], lo, e.accumulate);
    if !e.hole {
        flips |= store(&row[..s], hi, e.accumulate);
    }
    flips
}

#[inline(always)]
fn store(src: &[i8], dst: &mut [i8], accumulate: bool) -> u8 {
    let mut flips = 0u8;
    if accumulate {
        for (d, &s) in dst.iter_mut().zip(src) {
            let new = d.saturating_add(s);
            flips |= (*d ^ new) as u8;
            *d = new;
        }
    } else {
        for (d, &s) in dst.iter_mut().zip(src) {
            flips |= (*d ^ s) as u8;
            *d = s;
        }
    }
    flips
}

/// Check node update of 32 rows of a layer starting at `base`; returns the OR of the parity
/// (sign bit) of the valid rows' hard decisions.
#[inline(always)]
fn update_chunk(edges: &[Edge], r: &mut [Row], t: &mut [Row], base: usize) -> u8 {
    let mut min1 = [i8::MAX as u8; LANES];
    let mut min2 = [i8::MAX as u8; LANES];
    let mut idx = [0u8; LANES];
    let mut sgn = [0u8; LANES];
    let mut par = [0u8; LANES];
    for (i, (tr, rr)) in t.iter().zip(r.iter()).enumerate() {
        let tl = chunk(tr, base);
        let rl = chunk(rr, base);
        for j in 0..LANES {
            let x = tl[j].saturating_sub(rl[j]).max(-i8::MAX);
            let a = x.unsigned_abs();
            min2[j] = min2[j].min(min1[j].max(a));
            idx[j] = if a < min1[j] { i as u8 } else { idx[j] };
            min1[j] = min1[j].min(a);
            sgn[j] ^= x as u8;
            par[j] ^= tl[j] as u8;
        }
    }
    // Normalized min-sum, factor 7/8: with 0.75 the low-rate codes (check degrees 4 to 7)
    // lose more than 1 dB; 7/8 is as good or better for every rate (f64 flooding trials).
    for j in 0..LANES {
        min1[j] -= min1[j] >> 3;
        min2[j] -= min2[j] >> 3;
    }
    for (i, ((tr, rr), e)) in t.iter_mut().zip(r.iter_mut()).zip(edges).enumerate() {
        let tl = chunk_mut(tr, base);
        let rl = chunk_mut(rr, base);
        if e.accumulate {
            for j in 0..LANES {
                let x = tl[j].saturating_sub(rl[j]).max(-i8::MAX);
                let new = new_message(x, i as u8, idx[j], min1[j], min2[j], sgn[j]);
                tl[j] = new.saturating_sub(rl[j]);
                rl[j] = new;
            }
        } else {
            for j in 0..LANES {
                let x = tl[j].saturating_sub(rl[j]).max(-i8::MAX);
                let new = new_message(x, i as u8, idx[j], min1[j], min2[j], sgn[j]);
                tl[j] = x.saturating_add(new);
                rl[j] = new;
            }
        }
    }
    let valid = (Z - base).min(LANES);
    par[..valid].iter().fold(0, |a, &p| a | p)
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

    use super::{Edge, Row, LANES, Z};

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

    /// m − (m >> 3) on bytes 0..=127.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn normalize(m: __m256i) -> __m256i {
        let eighth = _mm256_and_si256(_mm256_srli_epi16(m, 3), _mm256_set1_epi8(0x1F));
        _mm256_sub_epi8(m, eighth)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn update_chunk(edges: &[Edge], r: &mut [Row], t: &mut [Row], base: usize) -> u8 {
        let floor = _mm256_set1_epi8(-i8::MAX);
        let mut min1 = _mm256_set1_epi8(i8::MAX);
        let mut min2 = min1;
        let mut idx = _mm256_setzero_si256();
        let mut sgn = _mm256_setzero_si256();
        let mut par = _mm256_setzero_si256();
        for (i, (tr, rr)) in t.iter().zip(r.iter()).enumerate() {
            let tl = load(tr, base);
            let x = _mm256_max_epi8(_mm256_subs_epi8(tl, load(rr, base)), floor);
            let a = _mm256_abs_epi8(x);
            min2 = _mm256_min_epu8(min2, _mm256_max_epu8(min1, a));
            let lt = _mm256_cmpgt_epi8(min1, a);
            idx = _mm256_blendv_epi8(idx, _mm256_set1_epi8(i as i8), lt);
            min1 = _mm256_min_epu8(min1, a);
            sgn = _mm256_xor_si256(sgn, x);
            par = _mm256_xor_si256(par, tl);
        }
        let min1 = normalize(min1);
        let min2 = normalize(min2);
        let one = _mm256_set1_epi8(1);
        for (i, ((tr, rr), e)) in t.iter_mut().zip(r.iter_mut()).zip(edges).enumerate() {
            let tl = load(tr, base);
            let old = load(rr, base);
            let x = _mm256_max_epi8(_mm256_subs_epi8(tl, old), floor);
            let is_min = _mm256_cmpeq_epi8(idx, _mm256_set1_epi8(i as i8));
            let m = _mm256_blendv_epi8(min1, min2, is_min);
            // sign_epi8 negates where the (never zero) second operand is negative.
            let new = _mm256_sign_epi8(m, _mm256_or_si256(_mm256_xor_si256(x, sgn), one));
            let out = if e.accumulate {
                _mm256_subs_epi8(new, old)
            } else {
                _mm256_adds_epi8(x, new)
            };
            store(rr, base, new);
            store(tr, base, out);
        }
        let valid = (Z - base).min(LANES);
        let mask = _mm256_movemask_epi8(par) as u32;
        let valid_mask = if valid == LANES {
            u32::MAX
        } else {
            (1 << valid) - 1
        };
        if mask & valid_mask != 0 {
            0x80
        } else {
            0
        }
    }
}

/// The check node update of [`update_chunk`] in SSE4.1 intrinsics on 16 lanes, bit-exact
/// with it (two calls cover a 32-lane chunk).
#[cfg(target_arch = "x86_64")]
mod sse41 {
    use std::arch::x86_64::*;

    use super::{Edge, Row, Z};

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

    /// m − (m >> 3) on bytes 0..=127.
    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn normalize(m: __m128i) -> __m128i {
        let eighth = _mm_and_si128(_mm_srli_epi16(m, 3), _mm_set1_epi8(0x1F));
        _mm_sub_epi8(m, eighth)
    }

    #[inline]
    #[target_feature(enable = "sse4.1")]
    pub(super) fn update_chunk(edges: &[Edge], r: &mut [Row], t: &mut [Row], base: usize) -> u8 {
        let floor = _mm_set1_epi8(-i8::MAX);
        let mut min1 = _mm_set1_epi8(i8::MAX);
        let mut min2 = min1;
        let mut idx = _mm_setzero_si128();
        let mut sgn = _mm_setzero_si128();
        let mut par = _mm_setzero_si128();
        for (i, (tr, rr)) in t.iter().zip(r.iter()).enumerate() {
            let tl = load(tr, base);
            let x = _mm_max_epi8(_mm_subs_epi8(tl, load(rr, base)), floor);
            let a = _mm_abs_epi8(x);
            min2 = _mm_min_epu8(min2, _mm_max_epu8(min1, a));
            let lt = _mm_cmpgt_epi8(min1, a);
            idx = _mm_blendv_epi8(idx, _mm_set1_epi8(i as i8), lt);
            min1 = _mm_min_epu8(min1, a);
            sgn = _mm_xor_si128(sgn, x);
            par = _mm_xor_si128(par, tl);
        }
        let min1 = normalize(min1);
        let min2 = normalize(min2);
        let one = _mm_set1_epi8(1);
        for (i, ((tr, rr), e)) in t.iter_mut().zip(r.iter_mut()).zip(edges).enumerate() {
            let tl = load(tr, base);
            let old = load(rr, base);
            let x = _mm_max_epi8(_mm_subs_epi8(tl, old), floor);
            let is_min = _mm_cmpeq_epi8(idx, _mm_set1_epi8(i as i8));
            let m = _mm_blendv_epi8(min1, min2, is_min);
            let new = _mm_sign_epi8(m, _mm_or_si128(_mm_xor_si128(x, sgn), one));
            let out = if e.accumulate {
                _mm_subs_epi8(new, old)
            } else {
                _mm_adds_epi8(x, new)
            };
            store(rr, base, new);
            store(tr, base, out);
        }
        let valid = Z.saturating_sub(base).min(LANES);
        let mask = _mm_movemask_epi8(par) as u32;
        if mask & ((1u32 << valid) - 1) != 0 {
            0x80
        } else {
            0
        }
    }
}
