//! One iteration of layered min-sum over a batch of [`LANES`] frames of one code, one frame
//! per SIMD lane (inter-frame parallelism), written once over a small set of lane-wise
//! operations ([`Simd`]) that exist for AVX2 and in portable Rust (the reference, also
//! compiled with SSE4.1 enabled); the instruction sets give identical results and are
//! tested against each other.
//!
//! A variable's posteriors in the 32 frames are 32 i16 (a cache line, two AVX2 registers),
//! a message row is 32 i8 (one register); extrinsics and the check node update are i8, 32
//! frames per instruction.
//!
//! The arithmetic per frame is that of [`ldpc_kernel`](super::ldpc_kernel): i16
//! posteriors, i8 messages, extrinsics sat8(L − R) clamped to ±127, the same
//! [`CheckRule`], layers in order, every check of a layer reading the posteriors the layer
//! started with, the same parity count and sign-change test for early termination.
//! Differences in how, not what:
//!
//! - Instead of the index of min1, an edge whose |x| equals min1 gets min2: the first such
//!   edge is the intra-frame decoder's index, and if another one has |x| = min1 too, then
//!   min2 = min1 and the message is the same.
//! - A check (layer c, row k) is done at once, its extrinsics on the stack. Rows are
//!   walked in runs in which no circulant wraps around its block, so that every circulant
//!   of the run reads consecutive variables and messages.
//! - A variable reached by one circulant of the layer is updated at once, L = (L − R) + R'
//!   from the unclamped i16 extrinsic: exact, because |L| ≤ 128 + 13·127 never saturates
//!   (L is the channel value plus the messages of at most 13 checks,
//!   `posteriors_cannot_saturate`). A variable of a block with two circulants in the layer
//!   is updated after the layer's last row, circulant by circulant in the layer's order, as
//!   the intra-frame decoder does: both of its checks read the layer's old posterior, and
//!   its sign changes are seen in the same order.
//!
//! Frames are masked per lane: a lane whose frame has stopped (early termination) keeps its
//! posteriors; its messages may still change but nothing reads them any more.

use std::ops::Range;

use super::ldpc_code::{Edge, LdpcCode, Z};
use super::ldpc_decoder::MAX_DEGREE;
use super::ldpc_kernel::{CheckRule, Isa};

/// Frames decoded together: i8 lanes of an AVX2 register.
pub(crate) const LANES: usize = 32;

/// Posteriors of one variable in every frame of the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Posteriors(pub(crate) [i16; LANES]);

/// One check-to-variable message in every frame of the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Messages(pub(crate) [i8; LANES]);

/// LLRs of 16 consecutive bits in every frame: `[frame][bit]`.
pub(crate) type LlrRows<'a> = [&'a [i8; 16]; LANES];

/// Lane-wise operations on [`LANES`] lanes of i16 posteriors (`P`) and of i8 extrinsics and
/// messages (`V`); a value of an implementing type proves that the CPU can run them.
pub(crate) trait Simd: Copy {
    /// [`LANES`] i16.
    type P: Copy;
    /// [`LANES`] i8.
    type V: Copy;
    fn load(self, p: &Posteriors) -> Self::P;
    fn store(self, p: &mut Posteriors, v: Self::P);
    fn p_splat(self, x: i16) -> Self::P;
    fn p_xor(self, a: Self::P, b: Self::P) -> Self::P;
    fn p_or(self, a: Self::P, b: Self::P) -> Self::P;
    /// `b` where `mask` (all ones or zero per lane) is set, else `a`.
    fn p_blend(self, a: Self::P, b: Self::P, mask: Self::P) -> Self::P;
    fn p_to_array(self, v: Self::P) -> [i16; LANES];
    /// `count` plus one where `par` is negative (wrapping).
    fn count_negative(self, count: Self::P, par: Self::P) -> Self::P;
    /// sat16(l − m) and its clamp to ±127 in i8.
    fn extrinsic(self, l: Self::P, m: Self::V) -> (Self::P, Self::V);
    /// sat16(x + new).
    fn update(self, x: Self::P, new: Self::V) -> Self::P;
    /// sat16(l + (new − m)).
    fn apply(self, l: Self::P, m: Self::V, new: Self::V) -> Self::P;
    fn load_msg(self, p: &Messages) -> Self::V;
    fn store_msg(self, p: &mut Messages, v: Self::V);
    fn splat(self, x: i8) -> Self::V;
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// All ones in the lanes where `p` is negative.
    fn negative(self, p: Self::P) -> Self::V;
    fn min(self, a: Self::V, b: Self::V) -> Self::V;
    fn max(self, a: Self::V, b: Self::V) -> Self::V;
    /// On −127..=127.
    fn abs(self, a: Self::V) -> Self::V;
    /// All ones where a == b.
    fn cmpeq(self, a: Self::V, b: Self::V) -> Self::V;
    /// `b` where `mask` (all ones or zero per lane) is set, else `a`.
    fn blend(self, a: Self::V, b: Self::V, mask: Self::V) -> Self::V;
    /// `a` negated where `b` < 0 (`b` is never zero here).
    fn sign(self, a: Self::V, b: Self::V) -> Self::V;
    /// [`CheckRule`]'s scaling of magnitudes 0..=127.
    fn scale(self, m: Self::V, rule: CheckRule) -> Self::V;
    /// `out[v].0[f] = rows[f][v]`, sign-extended.
    #[inline(always)]
    fn transpose(self, rows: &LlrRows<'_>, out: &mut [Posteriors; 16]) {
        for (v, p) in out.iter_mut().enumerate() {
            p.0 = std::array::from_fn(|f| i16::from(rows[f][v]));
        }
    }
}

/// What one iteration saw, per lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LaneSweep {
    /// Checks unsatisfied by the hard decisions as each layer read them (mod 2^16; no code
    /// has 2^16 checks).
    pub(crate) unsatisfied: [u16; LANES],
    /// Bit 15 set where a hard decision changed.
    pub(crate) flips: [i16; LANES],
}

/// The variables, messages and scratch of a batch.
pub(crate) struct State<'a> {
    /// Posteriors in the code's layout ([`LdpcCode::position`]).
    pub(crate) l: &'a mut [Posteriors],
    /// Messages, `Z` rows per circulant.
    pub(crate) r: &'a mut [Messages],
    /// New messages of the circulants whose block appears twice in a layer, until the
    /// layer's end: `Z` rows per such circulant.
    pub(crate) deferred: &'a mut [Messages],
}

/// A bit mask of lanes: bit f for frame f.
pub(crate) type LaneMask = u32;

/// Runs one iteration over every layer; lanes with `active[f] == false` keep their
/// posteriors. With `first`, the messages are taken as zero and only written (no need to
/// clear them before a batch).
pub(crate) fn iteration(
    isa: Isa,
    code: &LdpcCode,
    state: &mut State<'_>,
    active: &[bool; LANES],
    first: bool,
) -> LaneSweep {
    debug_assert!(state.l.len() >= code.blocks() * Z);
    debug_assert!(state.r.len() >= code.edges().len() * Z);
    debug_assert!(state.deferred.len() >= code.max_degree() * Z);
    debug_assert!(code.max_degree() <= MAX_DEGREE);
    let mask = Posteriors(active.map(|a| -i16::from(a)));
    let masked = active.contains(&false);
    #[cfg(target_arch = "x86_64")]
    {
        if let (Isa::Avx2, Some(s)) = (isa, x86::Avx2::new()) {
            // SAFETY: `s` exists, so the CPU supports AVX2.
            return unsafe { x86::iteration_avx2(s, code, state, &mask, masked, first) };
        }
        if let (Isa::Sse41, Some(s)) = (isa, x86::Sse41::new()) {
            // SAFETY: `s` exists, so the CPU supports SSE4.1.
            return unsafe { x86::iteration_sse41(s, code, state, &mask, masked, first) };
        }
    }
    let _ = isa;
    iteration_variant(Portable, code, state, &mask, masked, first)
}

/// [`iteration_with`] compiled for each combination of its flags.
#[inline(always)]
fn iteration_variant<S: Simd>(
    s: S,
    code: &LdpcCode,
    state: &mut State<'_>,
    mask: &Posteriors,
    masked: bool,
    first: bool,
) -> LaneSweep {
    match (masked, first) {
        (false, false) => iteration_with::<_, false, false>(s, code, state, mask),
        (false, true) => iteration_with::<_, false, true>(s, code, state, mask),
        (true, false) => iteration_with::<_, true, false>(s, code, state, mask),
        (true, true) => iteration_with::<_, true, true>(s, code, state, mask),
    }
}

/// Lanes among `wanted` whose hard decisions satisfy H·c = 0.
pub(crate) fn syndrome_ok(
    isa: Isa,
    code: &LdpcCode,
    l: &[Posteriors],
    wanted: LaneMask,
) -> LaneMask {
    #[cfg(target_arch = "x86_64")]
    {
        if let (Isa::Avx2, Some(s)) = (isa, x86::Avx2::new()) {
            // SAFETY: `s` exists, so the CPU supports AVX2.
            return unsafe { x86::syndrome_avx2(s, code, l, wanted) };
        }
        if let (Isa::Sse41, Some(s)) = (isa, x86::Sse41::new()) {
            // SAFETY: `s` exists, so the CPU supports SSE4.1.
            return unsafe { x86::syndrome_sse41(s, code, l, wanted) };
        }
    }
    let _ = isa;
    syndrome_with(Portable, code, l, wanted)
}

/// The LLRs of `llrs` (frame f in lane f, the unused lanes get 0) into the posteriors in
/// the code's layout ([`LdpcCode::position`]), through blocks of 16 LLRs of every frame.
pub(crate) fn load_llrs(isa: Isa, code: &LdpcCode, llrs: &[&[i8]], l: &mut [Posteriors]) {
    #[cfg(target_arch = "x86_64")]
    {
        if let (Isa::Avx2, Some(s)) = (isa, x86::Avx2::new()) {
            // SAFETY: `s` exists, so the CPU supports AVX2.
            return unsafe { x86::load_avx2(s, code, llrs, l) };
        }
        if let (Isa::Sse41, Some(s)) = (isa, x86::Sse41::new()) {
            // SAFETY: `s` exists, so the CPU supports SSE4.1.
            return unsafe { x86::load_sse41(s, code, llrs, l) };
        }
    }
    let _ = isa;
    load_with(Portable, code, llrs, l);
}

#[inline(always)]
fn load_with<S: Simd>(s: S, code: &LdpcCode, llrs: &[&[i8]], l: &mut [Posteriors]) {
    const ZEROS: [i8; 16] = [0; 16];
    let fec = code.fec();
    let (k, n, q) = (fec.kldpc(), fec.nldpc, code.q());
    // Parity p_{c + q kk} goes to block c, position kk.
    let (mut c, mut kk) = (0, 0);
    let mut tail = [[0i8; 16]; LANES];
    for start in (0..n).step_by(16) {
        let len = 16.min(n - start);
        if len < 16 {
            for (row, llr) in tail.iter_mut().zip(llrs) {
                row[..len].copy_from_slice(&llr[start..]);
            }
        }
        let rows: LlrRows<'_> = std::array::from_fn(|f| match llrs.get(f) {
            _ if len < 16 => &tail[f],
            Some(llr) => llr[start..start + 16].try_into().expect("16 LLRs"),
            None => &ZEROS,
        });
        if start + 16 <= k {
            let out = (&mut l[start..start + 16])
                .try_into()
                .expect("16 variables");
            s.transpose(&rows, out);
            continue;
        }
        let mut columns = [Posteriors([0; LANES]); 16];
        s.transpose(&rows, &mut columns);
        for (i, column) in (start..start + len).zip(columns) {
            let p = if i < k {
                i
            } else {
                let p = k + c * Z + kk;
                c += 1;
                if c == q {
                    (c, kk) = (0, kk + 1);
                }
                p
            };
            l[p] = column;
        }
    }
}

/// The first Kldpc hard decisions of each of the first `frames` lanes, packed MSB first:
/// lane f's into `out[f * stride..][..Kldpc / 8]`.
///
/// # Panics
/// If `out` is too short or `stride` < Kldpc / 8.
pub(crate) fn pack_info(
    isa: Isa,
    code: &LdpcCode,
    l: &[Posteriors],
    frames: usize,
    out: &mut [u8],
    stride: usize,
) {
    let bytes = code.fec().kldpc() / 8;
    assert!(stride >= bytes && out.len() >= frames.saturating_sub(1) * stride + bytes);
    #[cfg(target_arch = "x86_64")]
    {
        if let (Isa::Avx2, Some(s)) = (isa, x86::Avx2::new()) {
            // SAFETY: `s` exists, so the CPU supports AVX2.
            return unsafe { x86::pack_avx2(s, code, l, frames, out, stride) };
        }
        if let (Isa::Sse41, Some(s)) = (isa, x86::Sse41::new()) {
            // SAFETY: `s` exists, so the CPU supports SSE4.1.
            return unsafe { x86::pack_sse41(s, code, l, frames, out, stride) };
        }
    }
    let _ = isa;
    pack_with(Portable, code, l, frames, out, stride);
}

#[inline(always)]
fn pack_with<S: Simd>(
    s: S,
    code: &LdpcCode,
    l: &[Posteriors],
    frames: usize,
    out: &mut [u8],
    stride: usize,
) {
    let k = code.fec().kldpc();
    let bit: [S::V; 8] = std::array::from_fn(|v| s.splat((0x80u8 >> v) as i8));
    for (j, group) in l[..k].chunks_exact(8).enumerate() {
        let mut byte = s.splat(0);
        for (p, &bit) in group.iter().zip(&bit) {
            byte = s.or(byte, s.and(s.negative(s.load(p)), bit));
        }
        let mut lanes = Messages([0; LANES]);
        s.store_msg(&mut lanes, byte);
        for (f, &b) in lanes.0[..frames].iter().enumerate() {
            out[f * stride + j] = b as u8;
        }
    }
}

/// One circulant of a layer over a run of rows in which it does not wrap around its block:
/// row `k0 + i` of the run reads posterior `var + i` and message `msg + i`.
#[derive(Clone, Copy, Default)]
struct RunEdge {
    var: usize,
    msg: usize,
    /// Index in `deferred` of row 0 of the circulant (deferred circulants only).
    slot: usize,
}

/// A run of rows `k0..k0 + rows` of a layer in which no circulant wraps around its block.
struct Run<'a> {
    k0: usize,
    rows: usize,
    /// The circulants applied at once, then those deferred to the layer's end (the order of
    /// a check's edges does not matter to the check node update).
    edges: &'a [RunEdge],
    /// How many of `edges` are applied at once.
    immediate: usize,
}

/// Calls `f` for the runs of layer `layer`: cut at every shift, and at row 1 after the
/// hole, whose circulant the run of row 0 leaves out. `slots[j]` is circulant j's row 0 in
/// `deferred`, if it is deferred.
#[inline(always)]
fn for_each_run(
    code: &LdpcCode,
    layer: Range<usize>,
    slots: &[Option<usize>; MAX_DEGREE],
    mut f: impl FnMut(Run<'_>),
) {
    let edges = &code.edges()[layer.clone()];
    let mut cuts = [Z; MAX_DEGREE + 2];
    cuts[0] = 0;
    cuts[1] = 1;
    for (c, e) in cuts[2..].iter_mut().zip(edges) {
        *c = usize::from(e.shift);
    }
    let cuts = &mut cuts[..edges.len() + 2];
    cuts.sort_unstable();
    let mut run = [RunEdge::default(); MAX_DEGREE];
    let mut k0 = 0;
    for &k1 in cuts.iter().chain(&[Z]) {
        if k1 <= k0 {
            continue;
        }
        let (mut front, mut back) = (0, edges.len());
        for (j, e) in edges.iter().enumerate() {
            if e.hole && k0 == 0 {
                continue;
            }
            let edge = RunEdge {
                var: variable(e, k0),
                msg: (layer.start + j) * Z + k0,
                slot: slots[j].unwrap_or(0),
            };
            if slots[j].is_none() {
                run[front] = edge;
                front += 1;
            } else {
                back -= 1;
                run[back] = edge;
            }
        }
        // Close the gap the hole may have left.
        run.copy_within(back..edges.len(), front);
        let n = front + edges.len() - back;
        f(Run {
            k0,
            rows: k1 - k0,
            edges: &run[..n],
            immediate: front,
        });
        k0 = k1;
    }
}

/// The variable of row `k` of circulant `e`: position (k − shift) mod 360 of its block.
#[inline(always)]
fn variable(e: &Edge, k: usize) -> usize {
    usize::from(e.block) * Z + (k + Z - usize::from(e.shift)) % Z
}

/// Lanes set in `mask` are updated; with `MASKED` false every lane is (and `mask` unused).
/// With `FIRST`, the messages are all zero and not read.
#[inline(always)]
fn iteration_with<S: Simd, const MASKED: bool, const FIRST: bool>(
    s: S,
    code: &LdpcCode,
    state: &mut State<'_>,
    mask: &Posteriors,
) -> LaneSweep {
    let rule = CheckRule::for_code(code);
    let active = s.load(mask);
    let (zero, one, max) = (s.splat(0), s.splat(1), s.splat(i8::MAX));
    let mut unsatisfied = s.p_splat(0);
    let mut flips = s.p_splat(0);
    // Per edge of a check: the extrinsic before (i16) and after (i8) the clamp.
    let mut xw = [s.p_splat(0); MAX_DEGREE];
    let mut x = [zero; MAX_DEGREE];
    let State { l, r, deferred } = state;
    for layer in code.layers() {
        let edges = &code.edges()[layer.clone()];
        // Circulants of a block that has two in this layer are applied at the layer's end.
        let mut slots = [None; MAX_DEGREE];
        let mut deferred_count = 0;
        for (j, e) in edges.iter().enumerate() {
            if edges.iter().filter(|o| o.block == e.block).count() > 1 {
                slots[j] = Some(deferred_count * Z);
                deferred_count += 1;
            }
        }
        for_each_run(code, layer.clone(), &slots, |run| {
            let rows = run.rows;
            for e in run.edges {
                assert!(e.var + rows <= l.len() && e.msg + rows <= r.len());
            }
            let deferred = &mut deferred[..deferred_count * Z];
            for e in &run.edges[run.immediate..] {
                assert!(e.slot + run.k0 + rows <= deferred.len());
            }
            // Byte offsets from row pointers: one addition per access in the loops below.
            let (lsize, rsize) = (size_of::<Posteriors>(), size_of::<Messages>());
            let mut offsets = [(0, 0, 0); MAX_DEGREE];
            for (o, e) in offsets.iter_mut().zip(run.edges) {
                *o = (e.var * lsize, e.msg * rsize, (e.slot + run.k0) * rsize);
            }
            let n = run.edges.len();
            let offsets = &offsets[..n];
            let (lp, rp, dp) = (
                l.as_mut_ptr().cast::<u8>(),
                r.as_mut_ptr().cast::<u8>(),
                deferred.as_mut_ptr().cast::<u8>(),
            );
            let (xw, x) = (&mut xw[..n], &mut x[..n]);
            for i in 0..rows {
                let (lp, rp, dp) = (
                    lp.wrapping_add(i * lsize),
                    rp.wrapping_add(i * rsize),
                    dp.wrapping_add(i * rsize),
                );
                let mut par = s.p_splat(0);
                let mut min1 = max;
                let mut min2 = max;
                let mut sgn = zero;
                for ((&(lo, ro, _), xw), x) in offsets.iter().zip(xw.iter_mut()).zip(x.iter_mut()) {
                    // SAFETY: lo and ro address row i of this circulant, inside l and r
                    // (asserted for this run above); no reference into l or r is alive.
                    let (lv, m) = unsafe {
                        (
                            s.load(&*lp.add(lo).cast::<Posteriors>()),
                            if FIRST {
                                zero
                            } else {
                                s.load_msg(&*rp.add(ro).cast::<Messages>())
                            },
                        )
                    };
                    (*xw, *x) = s.extrinsic(lv, m);
                    par = s.p_xor(par, lv);
                    let a = s.abs(*x);
                    min2 = s.min(min2, s.max(min1, a));
                    min1 = s.min(min1, a);
                    sgn = s.xor(sgn, *x);
                }
                unsatisfied = s.count_negative(unsatisfied, par);
                let check = Check {
                    small: min1,
                    min1: s.scale(min1, rule),
                    min2: s.scale(min2, rule),
                    sgn,
                    one,
                };
                let now = offsets.iter().zip(xw.iter()).zip(x.iter());
                for ((&(lo, ro, _), &xw), &x) in now.take(run.immediate) {
                    let new = check.message(s, x);
                    // SAFETY: as above.
                    let (lv, msg) = unsafe {
                        (
                            &mut *lp.add(lo).cast::<Posteriors>(),
                            &mut *rp.add(ro).cast::<Messages>(),
                        )
                    };
                    let old = s.load(lv);
                    // (L − R) + R': no saturation (see the module's docs).
                    let mut updated = s.update(xw, new);
                    if MASKED {
                        updated = s.p_blend(old, updated, active);
                    }
                    flips = s.p_or(flips, s.p_xor(old, updated));
                    s.store(lv, updated);
                    s.store_msg(msg, new);
                }
                for (&(_, _, d), &x) in offsets.iter().zip(x.iter()).skip(run.immediate) {
                    let new = check.message(s, x);
                    // SAFETY: d addresses row k0 + i of this circulant's deferred slot
                    // (asserted above).
                    s.store_msg(unsafe { &mut *dp.add(d).cast::<Messages>() }, new);
                }
            }
        });
        // The deferred circulants in the layer's order.
        for (j, e) in edges.iter().enumerate() {
            let Some(slot) = slots[j] else {
                continue;
            };
            let msgs = &mut r[(layer.start + j) * Z..][..Z];
            let news = &deferred[slot..][..Z];
            // Row k reads position k − shift, or k − shift + 360 before row `shift`.
            let shift = usize::from(e.shift);
            let block = &mut l[usize::from(e.block) * Z..][..Z];
            let (low, high) = block.split_at_mut(Z - shift);
            let vars = high.iter_mut().chain(low.iter_mut());
            let skip = usize::from(e.hole);
            for ((lv, msg), new) in vars.zip(msgs.iter_mut()).zip(news).skip(skip) {
                let old = s.load(lv);
                let m = if FIRST { zero } else { s.load_msg(msg) };
                let mut updated = s.apply(old, m, s.load_msg(new));
                if MASKED {
                    updated = s.p_blend(old, updated, active);
                }
                flips = s.p_or(flips, s.p_xor(old, updated));
                s.store(lv, updated);
                *msg = *new;
            }
        }
    }
    LaneSweep {
        unsatisfied: s.p_to_array(unsatisfied).map(|u| u as u16),
        flips: s.p_to_array(flips),
    }
}

/// A check's update, from the minima of |x| over its edges and the product of their signs.
#[derive(Clone, Copy)]
struct Check<V> {
    /// min1 as found.
    small: V,
    /// min1 and min2 scaled by the check rule.
    min1: V,
    min2: V,
    /// Sign bits of the product of the extrinsics.
    sgn: V,
    one: V,
}

impl<V: Copy> Check<V> {
    /// The new message of an edge with extrinsic `x`: an edge whose |x| is min1 gets min2
    /// (the first such one as in the intra-frame decoder, and any other one too, since then
    /// min2 = min1), with the sign of the other edges' product.
    #[inline(always)]
    fn message<S: Simd<V = V>>(&self, s: S, x: V) -> V {
        let m = s.blend(self.min1, self.min2, s.cmpeq(s.abs(x), self.small));
        s.sign(m, s.or(s.xor(x, self.sgn), self.one))
    }
}

#[inline(always)]
fn syndrome_with<S: Simd>(s: S, code: &LdpcCode, l: &[Posteriors], wanted: LaneMask) -> LaneMask {
    let mut failed = s.p_splat(0);
    let mut done = false;
    for layer in code.layers() {
        for_each_run(code, layer.clone(), &[None; MAX_DEGREE], |run| {
            // Stop as soon as every lane asked about has failed.
            done = done || negative_lanes(s.p_to_array(failed)) & wanted == wanted;
            if done {
                return;
            }
            for i in 0..run.rows {
                let mut par = s.p_splat(0);
                for e in run.edges {
                    par = s.p_xor(par, s.load(&l[e.var + i]));
                }
                failed = s.p_or(failed, par);
            }
        });
    }
    !negative_lanes(s.p_to_array(failed)) & wanted
}

/// Bit f set where lane f is negative.
fn negative_lanes(v: [i16; LANES]) -> LaneMask {
    v.iter()
        .enumerate()
        .fold(0, |acc, (f, &x)| acc | (LaneMask::from(x < 0) << f))
}

/// Plain Rust over arrays: the reference, with the semantics of the AVX2 instructions.
#[derive(Clone, Copy)]
struct Portable;

impl Portable {
    #[inline(always)]
    fn map2<T: Copy>(a: [T; LANES], b: [T; LANES], f: impl Fn(T, T) -> T) -> [T; LANES] {
        std::array::from_fn(|i| f(a[i], b[i]))
    }
}

impl Simd for Portable {
    type P = [i16; LANES];
    type V = [i8; LANES];

    #[inline(always)]
    fn load(self, p: &Posteriors) -> Self::P {
        p.0
    }
    #[inline(always)]
    fn store(self, p: &mut Posteriors, v: Self::P) {
        p.0 = v;
    }
    #[inline(always)]
    fn p_splat(self, x: i16) -> Self::P {
        [x; LANES]
    }
    #[inline(always)]
    fn p_xor(self, a: Self::P, b: Self::P) -> Self::P {
        Self::map2(a, b, |a, b| a ^ b)
    }
    #[inline(always)]
    fn p_or(self, a: Self::P, b: Self::P) -> Self::P {
        Self::map2(a, b, |a, b| a | b)
    }
    #[inline(always)]
    fn p_blend(self, a: Self::P, b: Self::P, mask: Self::P) -> Self::P {
        std::array::from_fn(|i| if mask[i] < 0 { b[i] } else { a[i] })
    }
    #[inline(always)]
    fn p_to_array(self, v: Self::P) -> [i16; LANES] {
        v
    }
    #[inline(always)]
    fn count_negative(self, count: Self::P, par: Self::P) -> Self::P {
        Self::map2(count, par, |c, p| c.wrapping_add(i16::from(p < 0)))
    }
    #[inline(always)]
    fn extrinsic(self, l: Self::P, m: Self::V) -> (Self::P, Self::V) {
        let xw: [i16; LANES] = std::array::from_fn(|i| l[i].saturating_sub(i16::from(m[i])));
        let max = i16::from(i8::MAX);
        (xw, xw.map(|x| x.clamp(-max, max) as i8))
    }
    #[inline(always)]
    fn update(self, x: Self::P, new: Self::V) -> Self::P {
        std::array::from_fn(|i| x[i].saturating_add(i16::from(new[i])))
    }
    #[inline(always)]
    fn apply(self, l: Self::P, m: Self::V, new: Self::V) -> Self::P {
        std::array::from_fn(|i| l[i].saturating_add(i16::from(new[i]) - i16::from(m[i])))
    }
    #[inline(always)]
    fn load_msg(self, p: &Messages) -> Self::V {
        p.0
    }
    #[inline(always)]
    fn store_msg(self, p: &mut Messages, v: Self::V) {
        p.0 = v;
    }
    #[inline(always)]
    fn splat(self, x: i8) -> Self::V {
        [x; LANES]
    }
    #[inline(always)]
    fn xor(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, |a, b| a ^ b)
    }
    #[inline(always)]
    fn or(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, |a, b| a | b)
    }
    #[inline(always)]
    fn and(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, |a, b| a & b)
    }
    #[inline(always)]
    fn negative(self, p: Self::P) -> Self::V {
        p.map(|x| -i8::from(x < 0))
    }
    #[inline(always)]
    fn min(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, i8::min)
    }
    #[inline(always)]
    fn max(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, i8::max)
    }
    #[inline(always)]
    fn abs(self, a: Self::V) -> Self::V {
        a.map(i8::wrapping_abs)
    }
    #[inline(always)]
    fn cmpeq(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, |a, b| -i8::from(a == b))
    }
    #[inline(always)]
    fn blend(self, a: Self::V, b: Self::V, mask: Self::V) -> Self::V {
        std::array::from_fn(|i| if mask[i] < 0 { b[i] } else { a[i] })
    }
    #[inline(always)]
    fn sign(self, a: Self::V, b: Self::V) -> Self::V {
        Self::map2(a, b, |a, b| if b < 0 { a.wrapping_neg() } else { a })
    }
    #[inline(always)]
    fn scale(self, m: Self::V, rule: CheckRule) -> Self::V {
        m.map(|m| rule.apply(m as u8) as i8)
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{
        iteration_variant, load_with, pack_with, syndrome_with, LaneMask, LaneSweep, LlrRows,
        Messages, Posteriors, Simd, State, LANES,
    };
    use crate::rx::decode::ldpc_code::LdpcCode;
    use crate::rx::decode::ldpc_kernel::CheckRule;

    /// Proof that the CPU has AVX2: only [`Avx2::new`] makes one.
    #[derive(Clone, Copy)]
    pub(super) struct Avx2(());

    impl Avx2 {
        pub(super) fn new() -> Option<Self> {
            is_x86_feature_detected!("avx2").then_some(Avx2(()))
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn iteration_avx2(
        s: Avx2,
        code: &LdpcCode,
        state: &mut State<'_>,
        mask: &Posteriors,
        masked: bool,
        first: bool,
    ) -> LaneSweep {
        iteration_variant(s, code, state, mask, masked, first)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn syndrome_avx2(
        s: Avx2,
        code: &LdpcCode,
        l: &[Posteriors],
        wanted: LaneMask,
    ) -> LaneMask {
        syndrome_with(s, code, l, wanted)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn pack_avx2(
        s: Avx2,
        code: &LdpcCode,
        l: &[Posteriors],
        frames: usize,
        out: &mut [u8],
        stride: usize,
    ) {
        pack_with(s, code, l, frames, out, stride)
    }

    #[target_feature(enable = "sse4.1")]
    pub(super) fn pack_sse41(
        s: Sse41,
        code: &LdpcCode,
        l: &[Posteriors],
        frames: usize,
        out: &mut [u8],
        stride: usize,
    ) {
        pack_with(s, code, l, frames, out, stride)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn load_avx2(s: Avx2, code: &LdpcCode, llrs: &[&[i8]], l: &mut [Posteriors]) {
        load_with(s, code, llrs, l)
    }

    /// Proof that the CPU has SSE4.1: only [`Sse41::new`] makes one.
    #[derive(Clone, Copy)]
    pub(super) struct Sse41(());

    impl Sse41 {
        pub(super) fn new() -> Option<Self> {
            is_x86_feature_detected!("sse4.1").then_some(Sse41(()))
        }
    }

    #[target_feature(enable = "sse4.1")]
    pub(super) fn iteration_sse41(
        s: Sse41,
        code: &LdpcCode,
        state: &mut State<'_>,
        mask: &Posteriors,
        masked: bool,
        first: bool,
    ) -> LaneSweep {
        iteration_variant(s, code, state, mask, masked, first)
    }

    #[target_feature(enable = "sse4.1")]
    pub(super) fn syndrome_sse41(
        s: Sse41,
        code: &LdpcCode,
        l: &[Posteriors],
        wanted: LaneMask,
    ) -> LaneMask {
        syndrome_with(s, code, l, wanted)
    }

    #[target_feature(enable = "sse4.1")]
    pub(super) fn load_sse41(s: Sse41, code: &LdpcCode, llrs: &[&[i8]], l: &mut [Posteriors]) {
        load_with(s, code, llrs, l)
    }

    /// Every AVX2 operation below: an `Avx2` value exists, so the CPU supports AVX2, and
    /// the loads and stores go through references to 64 (posteriors) or 32 (messages)
    /// bytes without an alignment requirement.
    macro_rules! avx2 {
        ($e:expr) => {{
            // SAFETY: see the comment on the macro: `self` proves AVX2, the pointers come
            // from references of the accessed size.
            unsafe { $e }
        }};
    }

    /// Lane-wise on both halves of the posteriors.
    macro_rules! halves {
        ($f:ident, $a:expr, $b:expr) => {
            [avx2!($f($a[0], $b[0])), avx2!($f($a[1], $b[1]))]
        };
    }

    impl Avx2 {
        /// Frames 0..16 and 16..32 of `v`, sign-extended.
        #[inline(always)]
        fn widen(self, v: __m256i) -> [__m256i; 2] {
            avx2!([
                _mm256_cvtepi8_epi16(_mm256_castsi256_si128(v)),
                _mm256_cvtepi8_epi16(_mm256_extracti128_si256(v, 1)),
            ])
        }
    }

    /// SSE2, part of x86-64.
    macro_rules! sse2 {
        ($e:expr) => {{
            // SAFETY: SSE2 is part of every x86-64 CPU; no memory is accessed.
            unsafe { $e }
        }};
    }

    /// A 16×16 byte transpose in four rounds of unpacks (1, 2, 4, 8 rows together):
    /// column v of the result holds byte v of every row.
    #[inline(always)]
    fn transpose16(r: [__m128i; 16]) -> [__m128i; 16] {
        use std::array::from_fn;
        // a[h·8 + p]: rows 2p, 2p + 1 of columns h·8 .. h·8 + 8, in byte pairs.
        let a: [__m128i; 16] = from_fn(|k| {
            let (x, y) = (r[2 * (k % 8)], r[2 * (k % 8) + 1]);
            if k < 8 {
                sse2!(_mm_unpacklo_epi8(x, y))
            } else {
                sse2!(_mm_unpackhi_epi8(x, y))
            }
        });
        // b[g·4 + q]: rows 4q .. 4q + 4 of columns g·4 .. g·4 + 4, in 32-bit groups.
        let b: [__m128i; 16] = from_fn(|k| {
            let (h, lo, q) = (k / 8, (k / 4) % 2 == 0, k % 4);
            let (x, y) = (a[h * 8 + 2 * q], a[h * 8 + 2 * q + 1]);
            if lo {
                sse2!(_mm_unpacklo_epi16(x, y))
            } else {
                sse2!(_mm_unpackhi_epi16(x, y))
            }
        });
        // c[g·4 + m·2 + u]: rows 8u .. 8u + 8 of columns g·4 + m·2, + 1, in 64-bit groups.
        let c: [__m128i; 16] = from_fn(|k| {
            let (g, lo, u) = (k / 4, (k / 2) % 2 == 0, k % 2);
            let (x, y) = (b[g * 4 + 2 * u], b[g * 4 + 2 * u + 1]);
            if lo {
                sse2!(_mm_unpacklo_epi32(x, y))
            } else {
                sse2!(_mm_unpackhi_epi32(x, y))
            }
        });
        from_fn(|col| {
            let (x, y) = (c[col & !1], c[col | 1]);
            if col % 2 == 0 {
                sse2!(_mm_unpacklo_epi64(x, y))
            } else {
                sse2!(_mm_unpackhi_epi64(x, y))
            }
        })
    }

    impl Simd for Avx2 {
        type P = [__m256i; 2];
        type V = __m256i;

        #[inline(always)]
        fn load(self, p: &Posteriors) -> Self::P {
            let q = p.0.as_ptr();
            avx2!([
                _mm256_loadu_si256(q.cast()),
                _mm256_loadu_si256(q.add(16).cast())
            ])
        }
        #[inline(always)]
        fn store(self, p: &mut Posteriors, v: Self::P) {
            let q = p.0.as_mut_ptr();
            avx2!(_mm256_storeu_si256(q.cast(), v[0]));
            avx2!(_mm256_storeu_si256(q.add(16).cast(), v[1]));
        }
        #[inline(always)]
        fn p_splat(self, x: i16) -> Self::P {
            let v = avx2!(_mm256_set1_epi16(x));
            [v, v]
        }
        #[inline(always)]
        fn p_xor(self, a: Self::P, b: Self::P) -> Self::P {
            halves!(_mm256_xor_si256, a, b)
        }
        #[inline(always)]
        fn p_or(self, a: Self::P, b: Self::P) -> Self::P {
            halves!(_mm256_or_si256, a, b)
        }
        #[inline(always)]
        fn p_blend(self, a: Self::P, b: Self::P, mask: Self::P) -> Self::P {
            avx2!([
                _mm256_blendv_epi8(a[0], b[0], mask[0]),
                _mm256_blendv_epi8(a[1], b[1], mask[1]),
            ])
        }
        #[inline(always)]
        fn p_to_array(self, v: Self::P) -> [i16; LANES] {
            let mut p = Posteriors([0; LANES]);
            self.store(&mut p, v);
            p.0
        }
        #[inline(always)]
        fn count_negative(self, count: Self::P, par: Self::P) -> Self::P {
            avx2!([
                _mm256_sub_epi16(count[0], _mm256_srai_epi16(par[0], 15)),
                _mm256_sub_epi16(count[1], _mm256_srai_epi16(par[1], 15)),
            ])
        }
        #[inline(always)]
        fn extrinsic(self, l: Self::P, m: Self::V) -> (Self::P, Self::V) {
            let m = self.widen(m);
            let xw = halves!(_mm256_subs_epi16, l, m);
            // packs interleaves the 128-bit halves: quadwords 0, 2, 1, 3 restore the order.
            let x = avx2!(_mm256_permute4x64_epi64(
                _mm256_packs_epi16(xw[0], xw[1]),
                0b11_01_10_00
            ));
            (xw, avx2!(_mm256_max_epi8(x, _mm256_set1_epi8(-i8::MAX))))
        }
        #[inline(always)]
        fn update(self, x: Self::P, new: Self::V) -> Self::P {
            let new = self.widen(new);
            halves!(_mm256_adds_epi16, x, new)
        }
        #[inline(always)]
        fn apply(self, l: Self::P, m: Self::V, new: Self::V) -> Self::P {
            let change = halves!(_mm256_sub_epi16, self.widen(new), self.widen(m));
            halves!(_mm256_adds_epi16, l, change)
        }
        #[inline(always)]
        fn load_msg(self, p: &Messages) -> Self::V {
            avx2!(_mm256_loadu_si256(p.0.as_ptr().cast()))
        }
        #[inline(always)]
        fn store_msg(self, p: &mut Messages, v: Self::V) {
            avx2!(_mm256_storeu_si256(p.0.as_mut_ptr().cast(), v))
        }
        #[inline(always)]
        fn splat(self, x: i8) -> Self::V {
            avx2!(_mm256_set1_epi8(x))
        }
        #[inline(always)]
        fn xor(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_xor_si256(a, b))
        }
        #[inline(always)]
        fn or(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_or_si256(a, b))
        }
        #[inline(always)]
        fn and(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_and_si256(a, b))
        }
        #[inline(always)]
        fn negative(self, p: Self::P) -> Self::V {
            avx2!({
                let packed =
                    _mm256_permute4x64_epi64(_mm256_packs_epi16(p[0], p[1]), 0b11_01_10_00);
                _mm256_cmpgt_epi8(_mm256_setzero_si256(), packed)
            })
        }
        #[inline(always)]
        fn min(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_min_epi8(a, b))
        }
        #[inline(always)]
        fn max(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_max_epi8(a, b))
        }
        #[inline(always)]
        fn abs(self, a: Self::V) -> Self::V {
            avx2!(_mm256_abs_epi8(a))
        }
        #[inline(always)]
        fn cmpeq(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_cmpeq_epi8(a, b))
        }
        #[inline(always)]
        fn blend(self, a: Self::V, b: Self::V, mask: Self::V) -> Self::V {
            avx2!(_mm256_blendv_epi8(a, b, mask))
        }
        #[inline(always)]
        fn sign(self, a: Self::V, b: Self::V) -> Self::V {
            avx2!(_mm256_sign_epi8(a, b))
        }
        #[inline(always)]
        fn scale(self, m: Self::V, rule: CheckRule) -> Self::V {
            // m − (m >> shift) bytewise through a 16-bit shift and a mask, then − offset
            // saturating at 0, as the intra-frame AVX2 kernel does.
            avx2!({
                let shifted = _mm256_srl_epi16(m, _mm_cvtsi32_si128(i32::from(rule.shift)));
                let part = _mm256_and_si256(shifted, _mm256_set1_epi8((0xFF >> rule.shift) as i8));
                _mm256_subs_epu8(
                    _mm256_sub_epi8(m, part),
                    _mm256_set1_epi8(rule.offset as i8),
                )
            })
        }
        #[inline(always)]
        fn transpose(self, rows: &LlrRows<'_>, out: &mut [Posteriors; 16]) {
            let half = |h: usize| -> [__m128i; 16] {
                std::array::from_fn(|f| avx2!(_mm_loadu_si128(rows[h * 16 + f].as_ptr().cast())))
            };
            let (lo, hi) = (transpose16(half(0)), transpose16(half(1)));
            for (v, p) in out.iter_mut().enumerate() {
                let wide = avx2!([_mm256_cvtepi8_epi16(lo[v]), _mm256_cvtepi8_epi16(hi[v])]);
                self.store(p, wide);
            }
        }
    }

    /// Every SSE4.1 operation below: an `Sse41` value exists, so the CPU supports SSE4.1,
    /// and the loads and stores go through references to 64 (posteriors) or 32 (messages)
    /// bytes without an alignment requirement.
    macro_rules! sse41 {
        ($e:expr) => {{
            // SAFETY: see the comment on the macro: `self` proves SSE4.1, the pointers come
            // from references of the accessed size.
            unsafe { $e }
        }};
    }

    /// Lane-wise on every 128-bit part.
    macro_rules! parts {
        ($f:ident, $a:expr, $b:expr) => {
            std::array::from_fn(|i| sse41!($f($a[i], $b[i])))
        };
    }

    impl Sse41 {
        /// Frames 0..8, 8..16, 16..24, 24..32 of `v`, sign-extended.
        #[inline(always)]
        fn widen(self, v: [__m128i; 2]) -> [__m128i; 4] {
            std::array::from_fn(|i| {
                let h = v[i / 2];
                if i % 2 == 0 {
                    sse41!(_mm_cvtepi8_epi16(h))
                } else {
                    sse41!(_mm_cvtepi8_epi16(_mm_srli_si128(h, 8)))
                }
            })
        }
    }

    impl Simd for Sse41 {
        type P = [__m128i; 4];
        type V = [__m128i; 2];

        #[inline(always)]
        fn load(self, p: &Posteriors) -> Self::P {
            std::array::from_fn(|i| sse41!(_mm_loadu_si128(p.0[8 * i..].as_ptr().cast())))
        }
        #[inline(always)]
        fn store(self, p: &mut Posteriors, v: Self::P) {
            for (i, v) in v.into_iter().enumerate() {
                sse41!(_mm_storeu_si128(p.0[8 * i..].as_mut_ptr().cast(), v));
            }
        }
        #[inline(always)]
        fn p_splat(self, x: i16) -> Self::P {
            [sse41!(_mm_set1_epi16(x)); 4]
        }
        #[inline(always)]
        fn p_xor(self, a: Self::P, b: Self::P) -> Self::P {
            parts!(_mm_xor_si128, a, b)
        }
        #[inline(always)]
        fn p_or(self, a: Self::P, b: Self::P) -> Self::P {
            parts!(_mm_or_si128, a, b)
        }
        #[inline(always)]
        fn p_blend(self, a: Self::P, b: Self::P, mask: Self::P) -> Self::P {
            std::array::from_fn(|i| sse41!(_mm_blendv_epi8(a[i], b[i], mask[i])))
        }
        #[inline(always)]
        fn p_to_array(self, v: Self::P) -> [i16; LANES] {
            let mut p = Posteriors([0; LANES]);
            self.store(&mut p, v);
            p.0
        }
        #[inline(always)]
        fn count_negative(self, count: Self::P, par: Self::P) -> Self::P {
            std::array::from_fn(|i| sse41!(_mm_sub_epi16(count[i], _mm_srai_epi16(par[i], 15))))
        }
        #[inline(always)]
        fn extrinsic(self, l: Self::P, m: Self::V) -> (Self::P, Self::V) {
            let xw: [__m128i; 4] = parts!(_mm_subs_epi16, l, self.widen(m));
            let x = std::array::from_fn(|i| {
                sse41!(_mm_max_epi8(
                    _mm_packs_epi16(xw[2 * i], xw[2 * i + 1]),
                    _mm_set1_epi8(-i8::MAX)
                ))
            });
            (xw, x)
        }
        #[inline(always)]
        fn update(self, x: Self::P, new: Self::V) -> Self::P {
            parts!(_mm_adds_epi16, x, self.widen(new))
        }
        #[inline(always)]
        fn apply(self, l: Self::P, m: Self::V, new: Self::V) -> Self::P {
            let change: [__m128i; 4] = parts!(_mm_sub_epi16, self.widen(new), self.widen(m));
            parts!(_mm_adds_epi16, l, change)
        }
        #[inline(always)]
        fn load_msg(self, p: &Messages) -> Self::V {
            std::array::from_fn(|i| sse41!(_mm_loadu_si128(p.0[16 * i..].as_ptr().cast())))
        }
        #[inline(always)]
        fn store_msg(self, p: &mut Messages, v: Self::V) {
            for (i, v) in v.into_iter().enumerate() {
                sse41!(_mm_storeu_si128(p.0[16 * i..].as_mut_ptr().cast(), v));
            }
        }
        #[inline(always)]
        fn splat(self, x: i8) -> Self::V {
            [sse41!(_mm_set1_epi8(x)); 2]
        }
        #[inline(always)]
        fn xor(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_xor_si128, a, b)
        }
        #[inline(always)]
        fn or(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_or_si128, a, b)
        }
        #[inline(always)]
        fn and(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_and_si128, a, b)
        }
        #[inline(always)]
        fn negative(self, p: Self::P) -> Self::V {
            std::array::from_fn(|i| {
                sse41!(_mm_cmpgt_epi8(
                    _mm_setzero_si128(),
                    _mm_packs_epi16(p[2 * i], p[2 * i + 1])
                ))
            })
        }
        #[inline(always)]
        fn min(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_min_epi8, a, b)
        }
        #[inline(always)]
        fn max(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_max_epi8, a, b)
        }
        #[inline(always)]
        fn abs(self, a: Self::V) -> Self::V {
            a.map(|a| sse41!(_mm_abs_epi8(a)))
        }
        #[inline(always)]
        fn cmpeq(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_cmpeq_epi8, a, b)
        }
        #[inline(always)]
        fn blend(self, a: Self::V, b: Self::V, mask: Self::V) -> Self::V {
            std::array::from_fn(|i| sse41!(_mm_blendv_epi8(a[i], b[i], mask[i])))
        }
        #[inline(always)]
        fn sign(self, a: Self::V, b: Self::V) -> Self::V {
            parts!(_mm_sign_epi8, a, b)
        }
        #[inline(always)]
        fn scale(self, m: Self::V, rule: CheckRule) -> Self::V {
            m.map(|m| {
                sse41!({
                    let shifted = _mm_srl_epi16(m, _mm_cvtsi32_si128(i32::from(rule.shift)));
                    let part = _mm_and_si128(shifted, _mm_set1_epi8((0xFF >> rule.shift) as i8));
                    _mm_subs_epu8(_mm_sub_epi8(m, part), _mm_set1_epi8(rule.offset as i8))
                })
            })
        }
        #[inline(always)]
        fn transpose(self, rows: &LlrRows<'_>, out: &mut [Posteriors; 16]) {
            let half = |h: usize| -> [__m128i; 16] {
                std::array::from_fn(|f| sse41!(_mm_loadu_si128(rows[h * 16 + f].as_ptr().cast())))
            };
            let (lo, hi) = (transpose16(half(0)), transpose16(half(1)));
            for (v, p) in out.iter_mut().enumerate() {
                self.store(p, self.widen([lo[v], hi[v]]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modcod::{CodeRate, FrameSize};

    #[test]
    fn every_instruction_set_transposes_like_the_portable_code() {
        let t: [[i8; 16]; LANES] =
            std::array::from_fn(|f| std::array::from_fn(|v| (f * 37 + v * 11 + f * v) as i8));
        let rows: LlrRows<'_> = std::array::from_fn(|f| &t[f]);
        let transposed = |s: &dyn Fn(&mut [Posteriors; 16])| {
            let mut out = [Posteriors([0; LANES]); 16];
            s(&mut out);
            out
        };
        let want = transposed(&|out| Portable.transpose(&rows, out));
        assert_eq!(want[3].0[25], i16::from(t[25][3]));
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(s) = x86::Avx2::new() {
                assert_eq!(transposed(&|out| s.transpose(&rows, out)), want);
            }
            if let Some(s) = x86::Sse41::new() {
                assert_eq!(transposed(&|out| s.transpose(&rows, out)), want);
            }
        }
    }

    #[test]
    fn posteriors_cannot_saturate() {
        // The module relies on L = channel + messages never reaching i16's limits: at most
        // 13 circulants per variable block (each gives each of its variables one edge).
        for frame in [FrameSize::Short, FrameSize::Normal] {
            for rate in CodeRate::ALL {
                let Ok(code) = LdpcCode::new(frame, rate) else {
                    continue;
                };
                let mut weight = vec![0i32; code.blocks()];
                for e in code.edges() {
                    weight[usize::from(e.block)] += 1;
                }
                let max = weight.iter().copied().max().unwrap();
                assert!(max <= 13, "{frame:?} {rate}: column weight {max}");
                assert!(128 + max * 127 < i32::from(i16::MAX));
            }
        }
    }
}
