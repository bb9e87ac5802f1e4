//! The element-wise family's cases, shared by `element_wise.rs` (each block against a naive
//! scalar reference, under every scheduler) and `gnuradio_element_wise.rs` (each block against
//! GNU Radio 3.10 on the same inputs): per block, its GNU Radio constructor, the radioflow block,
//! inputs with the edge cases, and the naive reference's outputs.

#![allow(dead_code)]

use radioflow_blocks::runtime::{Block, BlockId, Complex32, Flowgraph};
use radioflow_blocks::*;

/// A stream of one of the family's item types.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Data {
    F(Vec<f32>),
    C(Vec<Complex32>),
    S(Vec<i16>),
    I(Vec<i32>),
    B(Vec<i8>),
    U(Vec<u8>),
}

/// Applies `$body` to the vector inside `$data`, with `$T` its item type.
macro_rules! each {
    ($data:expr, $v:ident, $T:ident => $body:expr) => {
        match $data {
            Data::F($v) => {
                type $T = f32;
                $body
            }
            Data::C($v) => {
                type $T = Complex32;
                $body
            }
            Data::S($v) => {
                type $T = i16;
                $body
            }
            Data::I($v) => {
                type $T = i32;
                $body
            }
            Data::B($v) => {
                type $T = i8;
                $body
            }
            Data::U($v) => {
                type $T = u8;
                $body
            }
        }
    };
}

impl Data {
    pub(crate) fn len(&self) -> usize {
        each!(self, v, T => v.len())
    }

    /// The raw bytes (native endianness, as GNU Radio's file blocks read and write them).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        each!(self, v, T => bytemuck::cast_slice::<T, u8>(v).to_vec())
    }

    /// The same kind of stream from raw bytes.
    pub(crate) fn same_kind_from(&self, bytes: &[u8]) -> Data {
        each!(self, _v, T => Data::of(bytemuck::pod_collect_to_vec::<u8, T>(bytes)))
    }

    /// GNU Radio's item size.
    pub(crate) fn item_size(&self) -> usize {
        each!(self, _v, T => std::mem::size_of::<T>())
    }

    fn of<T: 'static>(v: Vec<T>) -> Data {
        let any: Box<dyn std::any::Any> = Box::new(v);
        let any = match any.downcast::<Vec<f32>>() {
            Ok(v) => return Data::F(*v),
            Err(a) => a,
        };
        let any = match any.downcast::<Vec<Complex32>>() {
            Ok(v) => return Data::C(*v),
            Err(a) => a,
        };
        let any = match any.downcast::<Vec<i16>>() {
            Ok(v) => return Data::S(*v),
            Err(a) => a,
        };
        let any = match any.downcast::<Vec<i32>>() {
            Ok(v) => return Data::I(*v),
            Err(a) => a,
        };
        let any = match any.downcast::<Vec<i8>>() {
            Ok(v) => return Data::B(*v),
            Err(a) => a,
        };
        Data::U(*any.downcast::<Vec<u8>>().expect("a family item type"))
    }

    /// A `VectorSource` of this stream in `fg`.
    pub(crate) fn source(&self, fg: &mut Flowgraph) -> BlockId {
        each!(self, v, T => fg.add(VectorSource::<T>::new(v.clone())))
    }

    /// A `VectorSink` for a stream of this kind in `fg`.
    pub(crate) fn sink(&self, fg: &mut Flowgraph) -> BlockId {
        each!(self, _v, T => fg.add(VectorSink::<T>::new()))
    }

    /// What the sink `id` (made by [`sink`](Self::sink) on this kind) received.
    pub(crate) fn received(&self, fg: &Flowgraph, id: BlockId) -> Data {
        each!(self, _v, T => Data::of(fg.block::<VectorSink<T>>(id).unwrap().data().to_vec()))
    }

    /// The items as `f64` pairs (a real item's second part is 0), for comparisons.
    pub(crate) fn parts(&self) -> Vec<(f64, f64)> {
        match self {
            Data::F(v) => v.iter().map(|&x| (x.into(), 0.0)).collect(),
            Data::C(v) => v.iter().map(|z| (z.re.into(), z.im.into())).collect(),
            Data::S(v) => v.iter().map(|&x| (x.into(), 0.0)).collect(),
            Data::I(v) => v.iter().map(|&x| (x.into(), 0.0)).collect(),
            Data::B(v) => v.iter().map(|&x| (x.into(), 0.0)).collect(),
            Data::U(v) => v.iter().map(|&x| (x.into(), 0.0)).collect(),
        }
    }
}

/// How close a result must be to the reference.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tol {
    /// Bit for bit (NaN equal to NaN).
    Exact,
    /// Within `rel · |want| + abs` in each part (NaN equal to NaN, infinities exact).
    Near { rel: f64, abs: f64 },
    /// Each part within `rel` times the modulus of the wanted complex item (NaN equal to NaN,
    /// infinities exact): for a part that is the small difference of large products.
    Modulus { rel: f64 },
}

/// A part as its bits: exact comparisons see -0.0 and NaN as what they are.
fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// `Ok` if `got` is `want` within `tol`, else the first item that is not.
pub(crate) fn compare(got: &Data, want: &Data, tol: Tol) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} items, not {}", got.len(), want.len()));
    }
    for (i, (g, w)) in got.parts().iter().zip(want.parts()).enumerate() {
        let modulus = w.0.hypot(w.1);
        let ok = |g: f64, w: f64| match tol {
            Tol::Exact => same(g, w),
            Tol::Near { rel, abs } => {
                same(g, w) || (w.is_finite() && (g - w).abs() <= rel * w.abs() + abs)
            }
            Tol::Modulus { rel } => {
                same(g, w) || (modulus.is_finite() && (g - w).abs() <= rel * modulus)
            }
        };
        if !(ok(g.0, w.0) && ok(g.1, w.1)) {
            return Err(format!("item {i}: {g:?}, not {w:?} ({tol:?})"));
        }
    }
    Ok(())
}

/// One block on given inputs: what GNU Radio builds, what radioflow builds, the naive
/// reference's outputs (with the tolerance against it) and the tolerance against GNU Radio.
pub(crate) struct Case {
    /// A name for messages: the GNU Radio constructor and the input set.
    pub(crate) name: String,
    /// The GNU Radio Python constructor (`blocks.float_to_short(1, 3.0)`).
    pub(crate) gr: String,
    pub(crate) make: Box<dyn Fn() -> Box<dyn Block>>,
    pub(crate) inputs: Vec<Data>,
    pub(crate) want: Vec<Data>,
    pub(crate) naive: Tol,
    /// `None`: not run in GNU Radio (inputs where GNU Radio's result is not defined, or where
    /// its process would die).
    pub(crate) gr_tol: Option<Tol>,
}

impl Case {
    /// Runs the radioflow block on the inputs with `run`; returns its outputs.
    pub(crate) fn run(&self, run: impl FnOnce(&mut Flowgraph)) -> Vec<Data> {
        let mut fg = Flowgraph::new();
        let block = fg.add_boxed(None, (self.make)());
        for (port, data) in self.inputs.iter().enumerate() {
            let src = data.source(&mut fg);
            fg.connect(src, (block, port)).unwrap();
        }
        let sinks: Vec<BlockId> = self
            .want
            .iter()
            .enumerate()
            .map(|(port, data)| {
                let sink = data.sink(&mut fg);
                fg.connect((block, port), sink).unwrap();
                sink
            })
            .collect();
        run(&mut fg);
        self.want
            .iter()
            .zip(sinks)
            .map(|(d, s)| d.received(&fg, s))
            .collect()
    }
}

fn boxed<B: Block>(b: B) -> Box<dyn Block> {
    Box::new(b)
}

// ---- Inputs --------------------------------------------------------------------------------

/// A small fixed-seed generator (xorshift), so both tests and GNU Radio see the same inputs.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in `[lo, hi)`.
    pub(crate) fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// Floats where rounding and saturation are decided: ties at .5, the limits of every integer
/// type and beyond, signed zeros, a subnormal; then random values.
pub(crate) fn edge_floats(seed: u64, random: usize, spread: f32) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        1.5,
        2.5,
        -0.5,
        -1.5,
        -2.5,
        0.49999997,
        3.7,
        -3.7,
        126.5,
        127.5,
        128.0,
        -128.5,
        -129.0,
        254.5,
        255.5,
        256.0,
        -0.6,
        32766.5,
        32767.5,
        32768.0,
        -32768.5,
        -32769.0,
        1e9,
        -1e9,
        16777217.0,
        2147483520.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        3e9,
        -3e9,
        1e-40,
        1e30,
        -1e30,
    ];
    let mut rng = Rng::new(seed);
    v.extend((0..random).map(|_| rng.f(-spread, spread)));
    v
}

/// What GNU Radio does not define for a float to integer conversion: NaN and infinities.
pub(crate) const UNDEFINED_FLOATS: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

pub(crate) fn edge_shorts(seed: u64, random: usize) -> Vec<i16> {
    let mut v = vec![
        0,
        1,
        -1,
        2,
        -2,
        7,
        -7,
        255,
        256,
        -256,
        -255,
        i16::MIN,
        i16::MAX,
        -i16::MAX,
    ];
    let mut rng = Rng::new(seed);
    v.extend((0..random).map(|_| rng.next() as i16));
    v
}

pub(crate) fn edge_ints(seed: u64, random: usize) -> Vec<i32> {
    let mut v = vec![
        0,
        1,
        -1,
        2,
        -2,
        7,
        -7,
        16_777_217,
        -16_777_217,
        i32::MIN,
        i32::MAX,
        -i32::MAX,
        65536,
        -65536,
    ];
    let mut rng = Rng::new(seed);
    v.extend((0..random).map(|_| rng.next() as i32));
    v
}

pub(crate) fn all_chars() -> Vec<i8> {
    (i8::MIN..=i8::MAX).collect()
}

pub(crate) fn all_uchars() -> Vec<u8> {
    (0..=u8::MAX).collect()
}

/// Complex items from `parts`, paired in order, and each part with zeros of both signs.
pub(crate) fn complexes(parts: &[f32]) -> Vec<Complex32> {
    let mut v: Vec<Complex32> = parts
        .chunks_exact(2)
        .map(|p| Complex32::new(p[0], p[1]))
        .collect();
    for &x in parts.iter().take(24) {
        v.push(Complex32::new(x, 0.0));
        v.push(Complex32::new(x, -0.0));
        v.push(Complex32::new(0.0, x));
    }
    v
}

/// Bounded random complex items (for arithmetic where huge values only overflow).
pub(crate) fn random_complexes(seed: u64, n: usize, spread: f32) -> Vec<Complex32> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| Complex32::new(rng.f(-spread, spread), rng.f(-spread, spread)))
        .collect()
}

pub(crate) fn random_floats(seed: u64, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.f(lo, hi)).collect()
}

// ---- Naive references ----------------------------------------------------------------------

/// `x` rounded half to even, saturated to `[lo, hi]`, NaN to 0: written out in `f64` (every
/// `f32` and every bound is exact there).
fn round_saturate(x: f32, lo: f64, hi: f64) -> f64 {
    let x = f64::from(x);
    if x.is_nan() {
        return 0.0;
    }
    if x >= hi {
        return hi;
    }
    if x <= lo {
        return lo;
    }
    let floor = x.floor();
    let frac = x - floor;
    if frac > 0.5 || (frac == 0.5 && floor % 2.0 != 0.0) {
        floor + 1.0
    } else {
        floor
    }
}

/// `1/scale` as VOLK's kernels compute it: in `f64`, then rounded to `f32`.
fn reciprocal(scale: f32) -> f32 {
    (1.0 / f64::from(scale)) as f32
}

/// Integer quotient, truncated; 0 for a zero divisor; `MIN / -1` wraps (in `i64`: no trap).
fn int_div(a: i64, b: i64, bits: u32) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a / b;
    // Wrap into `bits` bits, two's complement.
    let m = 1i64 << bits;
    let q = q.rem_euclid(m);
    if q >= m / 2 {
        q - m
    } else {
        q
    }
}

// ---- The cases -----------------------------------------------------------------------------

/// Every member of the family on its inputs. `gr_safe` leaves out of GNU Radio's inputs
/// what it does not define (NaN or infinite floats to integers, integer division by zero and
/// `i32::MIN / -1`, which end its process): those are checked against the naive reference only.
pub(crate) fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let floats = edge_floats(1, 64, 1e4);
    let mut floats_all = floats.clone();
    floats_all.extend(UNDEFINED_FLOATS);

    // Between streams: every GNU Radio type of add, sub, multiply, divide.
    let fa = {
        let mut v = random_floats(2, 96, -100.0, 100.0);
        v.extend([1.0, -1.0, 0.0, -0.0, 5.0, f32::INFINITY, f32::NAN, 1e30]);
        v
    };
    let fb = {
        let mut v = random_floats(3, 96, -100.0, 100.0);
        v.extend([0.0, -0.0, 0.0, 3.0, -0.0, 2.0, 1.0, 1e30]);
        v
    };
    // Finite complex operands, the divisors not zero: on infinities, NaN and zero divisors C's
    // complex arithmetic (GNU Radio's scalar kernels) recovers infinities where the plain
    // formula (its vector kernels, and radioflow) gives NaN.
    let ca = {
        let mut v = random_complexes(13, 100, 100.0);
        v.extend([
            Complex32::new(0.0, 0.0),
            Complex32::new(-0.0, 1.0),
            Complex32::new(1e15, -1e15),
        ]);
        v
    };
    let cb = {
        let mut v = random_complexes(14, 100, 100.0);
        v.extend([
            Complex32::new(1.0, 0.0),
            Complex32::new(0.0, -1.0),
            Complex32::new(1e-15, 1e-15),
        ]);
        v
    };
    let ia = edge_ints(4, 64);
    let ib: Vec<i32> = edge_ints(5, 64).iter().rev().copied().collect();
    let sa = edge_shorts(6, 64);
    let sb: Vec<i16> = edge_shorts(7, 64).iter().rev().copied().collect();
    let f2 = |f: fn(f32, f32) -> f32| -> Data {
        Data::F(fa.iter().zip(&fb).map(|(&a, &b)| f(a, b)).collect())
    };
    let c2 = |f: fn(Complex32, Complex32) -> Complex32| -> Data {
        Data::C(ca.iter().zip(&cb).map(|(&a, &b)| f(a, b)).collect())
    };
    let i2 = |f: fn(i32, i32) -> i32| -> Data {
        Data::I(ia.iter().zip(&ib).map(|(&a, &b)| f(a, b)).collect())
    };
    let s2 = |f: fn(i16, i16) -> i16| -> Data {
        Data::S(sa.iter().zip(&sb).map(|(&a, &b)| f(a, b)).collect())
    };
    let ff = || vec![Data::F(fa.clone()), Data::F(fb.clone())];
    let cc = || vec![Data::C(ca.clone()), Data::C(cb.clone())];
    let ii = || vec![Data::I(ia.clone()), Data::I(ib.clone())];
    let ss = || vec![Data::S(sa.clone()), Data::S(sb.clone())];
    macro_rules! streams {
        ($gr:literal, $block:ident, $f:expr, $c:expr, $i:expr, $s:expr) => {
            cases.push(Case {
                name: concat!($gr, "ff").into(),
                gr: concat!("blocks.", $gr, "ff(1)").into(),
                make: Box::new(|| boxed($block::<f32>::new(2))),
                inputs: ff(),
                want: vec![f2($f)],
                naive: Tol::Exact,
                gr_tol: Some(Tol::Exact),
            });
            cases.push(Case {
                name: concat!($gr, "cc").into(),
                gr: concat!("blocks.", $gr, "cc(1)").into(),
                make: Box::new(|| boxed($block::<Complex32>::new(2))),
                inputs: cc(),
                want: vec![c2($c)],
                naive: Tol::Exact,
                gr_tol: Some(COMPLEX_ARITH),
            });
            cases.push(Case {
                name: concat!($gr, "ii").into(),
                gr: concat!("blocks.", $gr, "ii(1)").into(),
                make: Box::new(|| boxed($block::<i32>::new(2))),
                inputs: ii(),
                want: vec![i2($i)],
                naive: Tol::Exact,
                gr_tol: Some(Tol::Exact),
            });
            cases.push(Case {
                name: concat!($gr, "ss").into(),
                gr: concat!("blocks.", $gr, "ss(1)").into(),
                make: Box::new(|| boxed($block::<i16>::new(2))),
                inputs: ss(),
                want: vec![s2($s)],
                naive: Tol::Exact,
                gr_tol: Some(Tol::Exact),
            });
        };
    }
    streams!(
        "add_",
        Add,
        |a, b| a + b,
        |a, b| a + b,
        i32::wrapping_add,
        i16::wrapping_add
    );
    streams!(
        "sub_",
        Subtract,
        |a, b| a - b,
        |a, b| a - b,
        i32::wrapping_sub,
        i16::wrapping_sub
    );
    streams!(
        "multiply_",
        Multiply,
        |a, b| a * b,
        |a, b| Complex32::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re),
        i32::wrapping_mul,
        i16::wrapping_mul
    );
    streams!(
        "divide_",
        Divide,
        |a, b| a / b,
        |a, b| {
            let d = b.re * b.re + b.im * b.im;
            Complex32::new(
                (a.re * b.re + a.im * b.im) / d,
                (a.im * b.re - a.re * b.im) / d,
            )
        },
        |a, b| int_div(a.into(), b.into(), 32) as i32,
        |a, b| int_div(a.into(), b.into(), 16) as i16
    );
    // GNU Radio's process dies on an integer divided by zero (and on i32::MIN / -1).
    for c in cases
        .iter_mut()
        .filter(|c| c.name == "divide_ii" || c.name == "divide_ss")
    {
        c.gr_tol = None;
    }
    let nonzero_i: (Vec<i32>, Vec<i32>) = ia
        .iter()
        .zip(&ib)
        .filter(|&(&a, &b)| b != 0 && !(a == i32::MIN && b == -1))
        .map(|(&a, &b)| (a, b))
        .unzip();
    let nonzero_s: (Vec<i16>, Vec<i16>) = sa
        .iter()
        .zip(&sb)
        .filter(|&(_, &b)| b != 0)
        .map(|(&a, &b)| (a, b))
        .unzip();
    cases.push(Case {
        name: "divide_ii (no zero divisor)".into(),
        gr: "blocks.divide_ii(1)".into(),
        make: Box::new(|| boxed(Divide::<i32>::new(2))),
        want: vec![Data::I(
            nonzero_i
                .0
                .iter()
                .zip(&nonzero_i.1)
                .map(|(&a, &b)| a / b)
                .collect(),
        )],
        inputs: vec![Data::I(nonzero_i.0), Data::I(nonzero_i.1)],
        naive: Tol::Exact,
        gr_tol: Some(Tol::Exact),
    });
    cases.push(Case {
        name: "divide_ss (no zero divisor)".into(),
        gr: "blocks.divide_ss(1)".into(),
        make: Box::new(|| boxed(Divide::<i16>::new(2))),
        want: vec![Data::S(
            nonzero_s
                .0
                .iter()
                .zip(&nonzero_s.1)
                .map(|(&a, &b)| a.wrapping_div(b))
                .collect(),
        )],
        inputs: vec![Data::S(nonzero_s.0), Data::S(nonzero_s.1)],
        naive: Tol::Exact,
        gr_tol: Some(Tol::Exact),
    });
    cases.push(Case {
        name: "multiply_conjugate_cc".into(),
        gr: "blocks.multiply_conjugate_cc(1)".into(),
        make: Box::new(|| boxed(MultiplyConjugate::new())),
        inputs: cc(),
        want: vec![c2(|a, b| {
            Complex32::new(a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im)
        })],
        naive: Tol::Exact,
        gr_tol: Some(COMPLEX_ARITH),
    });

    // One stream to one stream.
    let cplx = complexes(&floats);
    let cplx_all = {
        let mut v = cplx.clone();
        v.extend([
            Complex32::new(f32::NAN, 1.0),
            Complex32::new(f32::INFINITY, -2.0),
            Complex32::new(-1.0, f32::NEG_INFINITY),
        ]);
        v
    };
    let c2f = |v: &[Complex32], f: fn(Complex32) -> f32| Data::F(v.iter().map(|&z| f(z)).collect());
    let unary = |name: &str,
                 gr: &str,
                 make: Box<dyn Fn() -> Box<dyn Block>>,
                 input: Data,
                 want: Data,
                 naive: Tol,
                 gr_tol: Option<Tol>| Case {
        name: name.into(),
        gr: gr.into(),
        make,
        inputs: vec![input],
        want: vec![want],
        naive,
        gr_tol,
    };
    cases.push(unary(
        "conjugate_cc",
        "blocks.conjugate_cc()",
        Box::new(|| boxed(Conjugate::new())),
        Data::C(cplx_all.clone()),
        Data::C(
            cplx_all
                .iter()
                .map(|z| Complex32::new(z.re, -z.im))
                .collect(),
        ),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "abs_ff",
        "blocks.abs_ff(1)",
        Box::new(|| boxed(Abs::<f32>::new())),
        Data::F(floats_all.clone()),
        Data::F(
            floats_all
                .iter()
                .map(|&x| if x < 0.0 { -x } else { x })
                .collect(),
        ),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    let shorts = edge_shorts(8, 64);
    let ints = edge_ints(9, 64);
    cases.push(unary(
        "abs_ss",
        "blocks.abs_ss(1)",
        Box::new(|| boxed(Abs::<i16>::new())),
        Data::S(shorts.clone()),
        Data::S(
            shorts
                .iter()
                .map(|&x| if x < 0 { x.wrapping_neg() } else { x })
                .collect(),
        ),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "abs_ii",
        "blocks.abs_ii(1)",
        Box::new(|| boxed(Abs::<i32>::new())),
        Data::I(ints.clone()),
        Data::I(
            ints.iter()
                .map(|&x| if x < 0 { x.wrapping_neg() } else { x })
                .collect(),
        ),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    // With `k` other than 0, GNU Radio takes `x·10^(k/n)` first: where that leaves the normal
    // range (overflows, or underflows for inputs at or near the smallest normal), VOLK's `log2`
    // is not defined for it; those inputs are checked against the reference with `k` = 0.
    let normal = {
        let mut v = random_floats(10, 64, 0.0, 1e6);
        v.extend([1.0, 10.0, 100.0, 1e-3, 1e-30, 1e30]);
        v
    };
    let mut edges = normal.clone();
    edges.extend([
        3.4e38,
        0.0,
        -1.0,
        -0.0,
        f32::NEG_INFINITY,
        1e-40,
        f32::MIN_POSITIVE,
    ]);
    for (n, k) in [(10.0f32, 0.0f32), (20.0, -30.0), (1.0, 5.0)] {
        let positive = if k == 0.0 {
            edges.clone()
        } else {
            normal.clone()
        };
        let want = positive
            .iter()
            .map(|&x| {
                let x = f64::from(if x < f32::MIN_POSITIVE {
                    f32::MIN_POSITIVE
                } else {
                    x
                });
                (f64::from(n) * x.log10() + f64::from(k)) as f32
            })
            .collect();
        cases.push(unary(
            &format!("nlog10_ff n={n} k={k}"),
            &format!("blocks.nlog10_ff({n:?}, 1, {k:?})"),
            Box::new(move || boxed(Nlog10::new(n, k))),
            Data::F(positive.clone()),
            Data::F(want),
            // f32 log10 and one multiply-add against the f64 value: a few ulps.
            Tol::Near {
                rel: 4e-7,
                abs: 4e-6 * n as f64,
            },
            // VOLK's log2 is a polynomial: within 1e-5 of log2, times n/log2(10).
            Some(Tol::Near {
                rel: 1e-6,
                abs: 1e-5 * n as f64,
            }),
        ));
    }
    cases.push(unary(
        "complex_to_real",
        "blocks.complex_to_real(1)",
        Box::new(|| boxed(ComplexToReal::new())),
        Data::C(cplx_all.clone()),
        c2f(&cplx_all, |z| z.re),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "complex_to_imag",
        "blocks.complex_to_imag(1)",
        Box::new(|| boxed(ComplexToImag::new())),
        Data::C(cplx_all.clone()),
        c2f(&cplx_all, |z| z.im),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "complex_to_mag",
        "blocks.complex_to_mag(1)",
        Box::new(|| boxed(ComplexToMag::new())),
        Data::C(cplx.clone()),
        c2f(&cplx, |z| (z.re * z.re + z.im * z.im).sqrt()),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "complex_to_mag_squared",
        "blocks.complex_to_mag_squared(1)",
        Box::new(|| boxed(ComplexToMagSquared::new())),
        Data::C(cplx.clone()),
        c2f(&cplx, |z| z.re * z.re + z.im * z.im),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    let naive_arg = |z: Complex32| -> f32 {
        if z.re == 0.0 && z.im == 0.0 {
            0.0
        } else if z.im == 0.0 && z.re < 0.0 {
            std::f32::consts::PI
        } else {
            f64::from(z.im).atan2(f64::from(z.re)) as f32
        }
    };
    cases.push(unary(
        "complex_to_arg",
        "blocks.complex_to_arg(1)",
        Box::new(|| boxed(ComplexToArg::new())),
        Data::C(cplx.clone()),
        c2f(&cplx, naive_arg),
        // libm's atan2f against f64 atan2 rounded: within 2 ulps of π.
        Tol::Near {
            rel: 0.0,
            abs: 5e-7,
        },
        // GNU Radio's fast_atan2f interpolates a table: within about 2e-6 rad.
        Some(Tol::Near {
            rel: 0.0,
            abs: 1e-5,
        }),
    ));

    // Conversions.
    let scaled: [(f32, &str); 3] = [(1.0, "1.0"), (3.0, "3.0"), (32767.0, "32767.0")];
    for (scale, s) in scaled {
        // Floats to integers; GNU Radio gets the inputs it defines.
        macro_rules! to_int {
            ($gr:literal, $block:ident, $t:ty, $variant:ident) => {{
                let want = |v: &[f32]| {
                    Data::$variant(
                        v.iter()
                            .map(|&x| {
                                round_saturate(x * scale, <$t>::MIN.into(), <$t>::MAX.into()) as $t
                            })
                            .collect(),
                    )
                };
                // C's `llrintf`/`lrint` (float_to_int, float_to_uchar) are not defined
                // beyond the 64-bit range either.
                let (defined, mut undefined): (Vec<f32>, Vec<f32>) =
                    floats.iter().partition(|&&x| (x * scale).abs() < 9.2e18);
                undefined.extend(UNDEFINED_FLOATS);
                cases.push(unary(
                    &format!("{} scale {s}", $gr),
                    &format!("blocks.{}(1, {s})", $gr),
                    Box::new(move || boxed($block::new(scale))),
                    Data::F(defined.clone()),
                    want(&defined),
                    Tol::Exact,
                    Some(Tol::Exact),
                ));
                cases.push(unary(
                    &format!("{} scale {s}, NaN, infinities, beyond 2^63", $gr),
                    "",
                    Box::new(move || boxed($block::new(scale))),
                    Data::F(undefined.clone()),
                    want(&undefined),
                    Tol::Exact,
                    None,
                ));
            }};
        }
        to_int!("float_to_char", FloatToChar, i8, B);
        to_int!("float_to_short", FloatToShort, i16, S);
        to_int!("float_to_int", FloatToInt, i32, I);

        // Integers to floats.
        let r = reciprocal(scale);
        let chars = all_chars();
        cases.push(unary(
            &format!("char_to_float scale {s}"),
            &format!("blocks.char_to_float(1, {s})"),
            Box::new(move || boxed(CharToFloat::new(scale))),
            Data::B(chars.clone()),
            Data::F(chars.iter().map(|&x| f32::from(x) * r).collect()),
            Tol::Exact,
            Some(Tol::Exact),
        ));
        cases.push(unary(
            &format!("short_to_float scale {s}"),
            &format!("blocks.short_to_float(1, {s})"),
            Box::new(move || boxed(ShortToFloat::new(scale))),
            Data::S(shorts.clone()),
            Data::F(shorts.iter().map(|&x| f32::from(x) * r).collect()),
            Tol::Exact,
            Some(SHORT_TO_FLOAT),
        ));
        cases.push(unary(
            &format!("int_to_float scale {s}"),
            &format!("blocks.int_to_float(1, {s})"),
            Box::new(move || boxed(IntToFloat::new(scale))),
            Data::I(ints.clone()),
            Data::F(ints.iter().map(|&x| (f64::from(x) as f32) * r).collect()),
            Tol::Exact,
            Some(Tol::Exact),
        ));

        // Interleaved.
        let parts: Vec<f32> = cplx.iter().flat_map(|z| [z.re, z.im]).collect();
        let sat = |lo: f64, hi: f64| -> Vec<f64> {
            parts
                .iter()
                .map(|&x| round_saturate(x * scale, lo, hi))
                .collect()
        };
        cases.push(unary(
            &format!("complex_to_interleaved_short scale {s}"),
            &format!("blocks.complex_to_interleaved_short(False, {s})"),
            Box::new(move || boxed(ComplexToInterleavedShort::new(scale))),
            Data::C(cplx.clone()),
            Data::S(sat(-32768.0, 32767.0).iter().map(|&x| x as i16).collect()),
            Tol::Exact,
            Some(Tol::Exact),
        ));
        cases.push(unary(
            &format!("complex_to_interleaved_char scale {s}"),
            &format!("blocks.complex_to_interleaved_char(False, {s})"),
            Box::new(move || boxed(ComplexToInterleavedChar::new(scale))),
            Data::C(cplx.clone()),
            Data::B(sat(-128.0, 127.0).iter().map(|&x| x as i8).collect()),
            Tol::Exact,
            Some(Tol::Exact),
        ));
        for swap in [false, true] {
            let want: Vec<Complex32> = shorts
                .chunks_exact(2)
                .map(|p| {
                    let (a, b) = (f32::from(p[0]) * r, f32::from(p[1]) * r);
                    if swap {
                        Complex32::new(b, a)
                    } else {
                        Complex32::new(a, b)
                    }
                })
                .collect();
            let py = if swap { "True" } else { "False" };
            cases.push(unary(
                &format!("interleaved_short_to_complex scale {s} swap {py}"),
                &format!("blocks.interleaved_short_to_complex(False, {py}, {s})"),
                Box::new(move || {
                    let mut b = InterleavedShortToComplex::new(scale, false);
                    b.set_swap(swap);
                    boxed(b)
                }),
                Data::S(shorts.clone()),
                Data::C(want),
                Tol::Exact,
                Some(SHORT_TO_FLOAT),
            ));
        }
        cases.push(unary(
            &format!("interleaved_char_to_complex scale {s}"),
            &format!("blocks.interleaved_char_to_complex(False, {s})"),
            Box::new(move || boxed(InterleavedCharToComplex::new(scale))),
            Data::B(chars.clone()),
            Data::C(
                chars
                    .chunks_exact(2)
                    .map(|p| Complex32::new(f32::from(p[0]) * r, f32::from(p[1]) * r))
                    .collect(),
            ),
            Tol::Exact,
            Some(Tol::Exact),
        ));
    }
    let (defined, huge): (Vec<f32>, Vec<f32>) = floats.iter().partition(|&&x| x.abs() < 9.2e18);
    cases.push(unary(
        "float_to_uchar",
        "blocks.float_to_uchar()",
        Box::new(|| boxed(FloatToUchar::new())),
        Data::F(defined.clone()),
        Data::U(
            defined
                .iter()
                .map(|&x| round_saturate(x, 0.0, 255.0) as u8)
                .collect(),
        ),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    let mut undefined = UNDEFINED_FLOATS.to_vec();
    undefined.extend(&huge);
    cases.push(unary(
        "float_to_uchar, NaN, infinities, beyond 2^63",
        "",
        Box::new(|| boxed(FloatToUchar::new())),
        Data::F(undefined.clone()),
        Data::U(
            undefined
                .iter()
                .map(|&x| round_saturate(x, 0.0, 255.0) as u8)
                .collect(),
        ),
        Tol::Exact,
        None,
    ));
    cases.push(unary(
        "uchar_to_float",
        "blocks.uchar_to_float()",
        Box::new(|| boxed(UcharToFloat::new())),
        Data::U(all_uchars()),
        Data::F(all_uchars().iter().map(|&x| f32::from(x)).collect()),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "char_to_short",
        "blocks.char_to_short(1)",
        Box::new(|| boxed(CharToShort::new())),
        Data::B(all_chars()),
        Data::S(all_chars().iter().map(|&x| i16::from(x) * 256).collect()),
        Tol::Exact,
        Some(Tol::Exact),
    ));
    cases.push(unary(
        "short_to_char",
        "blocks.short_to_char(1)",
        Box::new(|| boxed(ShortToChar::new())),
        Data::S(shorts.clone()),
        Data::B(
            shorts
                .iter()
                .map(|&x| (f64::from(x) / 256.0).floor() as i8)
                .collect(),
        ),
        Tol::Exact,
        Some(Tol::Exact),
    ));

    // Two outputs, two inputs.
    let re: Vec<f32> = cplx_all.iter().map(|z| z.re).collect();
    let im: Vec<f32> = cplx_all.iter().map(|z| z.im).collect();
    cases.push(Case {
        name: "complex_to_float (re, im)".into(),
        gr: "blocks.complex_to_float(1)".into(),
        make: Box::new(|| boxed(ComplexToFloat::new())),
        inputs: vec![Data::C(cplx_all.clone())],
        want: vec![Data::F(re.clone()), Data::F(im.clone())],
        naive: Tol::Exact,
        gr_tol: Some(Tol::Exact),
    });
    cases.push(Case {
        name: "complex_to_float (re only)".into(),
        gr: "blocks.complex_to_float(1)".into(),
        make: Box::new(|| boxed(ComplexToFloat::new())),
        inputs: vec![Data::C(cplx_all.clone())],
        want: vec![Data::F(re.clone())],
        naive: Tol::Exact,
        gr_tol: Some(Tol::Exact),
    });
    cases.push(Case {
        name: "float_to_complex (re, im)".into(),
        gr: "blocks.float_to_complex(1)".into(),
        make: Box::new(|| boxed(FloatToComplex::new())),
        inputs: vec![Data::F(re.clone()), Data::F(im.clone())],
        want: vec![Data::C(cplx_all.clone())],
        naive: Tol::Exact,
        gr_tol: Some(Tol::Exact),
    });
    cases.push(Case {
        name: "float_to_complex (re only)".into(),
        gr: "blocks.float_to_complex(1)".into(),
        make: Box::new(|| boxed(FloatToComplex::new())),
        inputs: vec![Data::F(re.clone())],
        want: vec![Data::C(
            re.iter().map(|&r| Complex32::new(r, 0.0)).collect(),
        )],
        naive: Tol::Exact,
        gr_tol: Some(Tol::Exact),
    });
    cases.push(Case {
        name: "complex_to_magphase".into(),
        gr: "blocks.complex_to_magphase(1)".into(),
        make: Box::new(|| boxed(ComplexToMagphase::new())),
        inputs: vec![Data::C(cplx.clone())],
        want: vec![
            c2f(&cplx, |z| (z.re * z.re + z.im * z.im).sqrt()),
            c2f(&cplx, naive_arg),
        ],
        naive: Tol::Near {
            rel: 0.0,
            abs: 5e-7,
        },
        gr_tol: Some(Tol::Near {
            rel: 0.0,
            abs: 1e-5,
        }),
    });
    let mags = random_floats(11, 128, 0.0, 10.0);
    let phases = {
        let mut v = random_floats(12, 120, -7.0, 7.0);
        v.extend([
            0.0,
            -0.0,
            std::f32::consts::PI,
            -std::f32::consts::PI,
            1e4,
            -1e4,
            0.5,
            100.0,
        ]);
        v
    };
    cases.push(Case {
        name: "magphase_to_complex".into(),
        gr: "blocks.magphase_to_complex(1)".into(),
        make: Box::new(|| boxed(MagphaseToComplex::new())),
        want: vec![Data::C(
            mags.iter()
                .zip(&phases)
                .map(|(&m, &p)| {
                    let (m, p) = (f64::from(m), f64::from(p));
                    Complex32::new((m * p.cos()) as f32, (m * p.sin()) as f32)
                })
                .collect(),
        )],
        inputs: vec![Data::F(mags), Data::F(phases)],
        // f32 sin/cos (within an ulp) times a magnitude up to 10, against f64.
        naive: Tol::Near {
            rel: 3e-7,
            abs: 3e-6,
        },
        gr_tol: Some(Tol::Near {
            rel: 3e-7,
            abs: 3e-6,
        }),
    });
    cases
}

/// Complex products and quotients against GNU Radio: VOLK's AVX2 kernels fuse each
/// multiply-add (one rounding where radioflow rounds twice) and its scalar kernel for the last
/// items of a call is C's complex arithmetic (scaled in the quotient), so a part differs in
/// its last bits relative to the size of the products it is the sum of: the item's modulus.
/// Where the parts cancel (a small imaginary part of a large product) that is many ulps of
/// the part itself.
pub(crate) const COMPLEX_ARITH: Tol = Tol::Modulus { rel: 1e-6 };

/// `short_to_float` (and interleaved shorts) against GNU Radio: VOLK's vector kernel multiplies
/// by `1/scale` as radioflow does, its scalar kernel for the last items of a call divides by
/// `scale`: one ulp apart for a scale that is not a power of two.
pub(crate) const SHORT_TO_FLOAT: Tol = Tol::Near {
    rel: 1.2e-7,
    abs: 0.0,
};
