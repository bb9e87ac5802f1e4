//! The sources of GNU Radio's gr-analog beside radioflow's, on GNU Radio's own output (one
//! `/usr/bin/python3` process runs Debian's GNU Radio 3.10 for every block, item type and
//! noise type). Noise and fast noise: for the same seed the same numbers, and for other seeds
//! the same moments within bounds derived from the distribution; constants: equal; random
//! source (GNU Radio draws with unseeded numpy): range and moments. SKIPPED where GNU Radio
//! is not installed.

use radioflow_blocks::{
    ConstSource, FastNoiseSource, NoiseItem, NoiseSource, NoiseType, RandomSource,
};
use radioflow_runtime::testing::Harness;
use radioflow_runtime::{Block, Complex32, Item};
use std::path::Path;
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";
/// Items per block and type.
const N: usize = 100_000;
const SEED: i64 = 7;
const AMPLITUDE: f32 = 1000.0;

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.analog"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Writes `{block}_{fcn}_{noise}.bin` (seed `SEED`, amplitude `AMPLITUDE`), `const_{fcn}.bin`
/// and `random_{fcn}.bin` into the folder given.
const SCRIPT: &str = r#"
import sys, numpy
from gnuradio import analog, blocks, gr
out, n, seed, amp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
size = {'c': 8, 'f': 4, 'i': 4, 's': 2, 'b': 1}
def run(src, fcn, name):
    tb = gr.top_block()
    head = blocks.head(size[fcn], n)
    sink = blocks.file_sink(size[fcn], out + '/' + name + '.bin')
    tb.connect(src, head, sink)
    tb.run()
    sink.close()
kinds = {200: 'uniform', 201: 'gaussian', 202: 'laplacian', 203: 'impulse'}
for fcn in 'cfis':
    for k, name in kinds.items():
        if fcn == 'c' and k > 201:
            continue  # GNU Radio's complex noise sources throw on these
        run(getattr(analog, 'noise_source_' + fcn)(k, amp, seed), fcn, f'noise_{fcn}_{name}')
        for pool in (8192, 1000):
            run(getattr(analog, 'fastnoise_source_' + fcn)(k, amp, seed, pool), fcn,
                f'fastnoise{pool}_{fcn}_{name}')
consts = {'c': 1.5 - 2.25j, 'f': -0.125, 'i': -70000, 's': -300, 'b': -7}
for fcn, v in consts.items():
    run(getattr(analog, 'sig_source_' + fcn)(0, analog.GR_CONST_WAVE, 0, 0, v), fcn, 'const_' + fcn)
for fcn, (lo, hi) in {'i': (-1000, 1000), 's': (-5, 5), 'b': (0, 256)}.items():
    src = getattr(blocks, 'vector_source_' + fcn)(list(map(int, numpy.random.randint(lo, hi, n))), False)
    run(src, fcn, 'random_' + fcn)
"#;

fn read<T: Item>(dir: &Path, name: &str) -> Vec<T> {
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).unwrap();
    bytemuck::pod_collect_to_vec(&bytes)
}

/// The first `n` items of `block`.
fn take<T: Item, B: Block + 'static>(block: B, n: usize) -> Vec<T> {
    let mut h = Harness::new(block);
    let mut items = Vec::with_capacity(n);
    while items.len() < n {
        h.set_space("out", (n - items.len()).min(4096));
        h.work().unwrap();
        items.extend(h.take_output::<T>("out"));
    }
    items
}

/// The real parts of the items, as `f64` (complex items: real and imaginary parts apart).
trait Parts: Item {
    fn parts(items: &[Self]) -> Vec<f64>;
}
impl Parts for f32 {
    fn parts(items: &[Self]) -> Vec<f64> {
        items.iter().map(|&x| f64::from(x)).collect()
    }
}
impl Parts for i32 {
    fn parts(items: &[Self]) -> Vec<f64> {
        items.iter().map(|&x| f64::from(x)).collect()
    }
}
impl Parts for i16 {
    fn parts(items: &[Self]) -> Vec<f64> {
        items.iter().map(|&x| f64::from(x)).collect()
    }
}
impl Parts for Complex32 {
    fn parts(items: &[Self]) -> Vec<f64> {
        items
            .iter()
            .flat_map(|c| [f64::from(c.re), f64::from(c.im)])
            .collect()
    }
}

/// Mean, variance and the share of values that are not 0.
fn moments(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    let nonzero = xs.iter().filter(|&&x| x != 0.0).count() as f64 / n;
    (mean, var, nonzero)
}

/// Checks that radioflow's `ours` (another seed) and GNU Radio's `theirs` are samples of one
/// distribution: each moment's difference within 6 standard deviations of the difference of
/// two independent estimates from `n` draws each (from the distribution's variance and fourth
/// moment at scale `a`), so a fixed seed never fails by chance.
fn same_distribution(what: &str, kind: NoiseType, a: f64, n: f64, ours: &[f64], theirs: &[f64]) {
    let (m1, v1, z1) = moments(ours);
    let (m2, v2, z2) = moments(theirs);
    let p = (-9.0 / std::f64::consts::SQRT_2).exp();
    // (variance, fourth central moment) at scale `a`.
    let (var, m4) = match kind {
        NoiseType::Uniform => (a * a / 3.0, a.powi(4) / 5.0),
        NoiseType::Gaussian => (a * a, 3.0 * a.powi(4)),
        NoiseType::Laplacian => (2.0 * a * a, 24.0 * a.powi(4)),
        NoiseType::Impulse => {
            let spread = 6.0 * (2.0 * p * (1.0 - p) / n).sqrt();
            assert!((z1 - z2).abs() < spread, "{what}: impulses {z1} vs {z2}");
            assert!(
                (z1 - p).abs() < spread,
                "{what}: impulse rate {z1}, not {p}"
            );
            return;
        }
    };
    let mean_spread = 6.0 * (2.0 * var / n).sqrt();
    let var_spread = 6.0 * (2.0 * (m4 - var * var) / n).sqrt();
    assert!((m1 - m2).abs() < mean_spread, "{what}: means {m1} vs {m2}");
    assert!(
        (v1 - v2).abs() < var_spread,
        "{what}: variances {v1} vs {v2}"
    );
    // Truncation to integers moves the variance by less than one unit squared.
    assert!(
        (v1 - var).abs() < var_spread + 1.0,
        "{what}: variance {v1}, not {var}"
    );
}

/// GNU Radio's numbers for seed `SEED`, item for item.
fn assert_same<T: PartialEq + std::fmt::Debug>(what: &str, ours: &[T], theirs: &[T]) {
    assert_eq!(ours.len(), theirs.len(), "{what}: lengths");
    if let Some(i) = (0..ours.len()).find(|&i| ours[i] != theirs[i]) {
        panic!(
            "{what}: not GNU Radio's numbers for seed {SEED}: item {i} is {:?}, GNU Radio's {:?}",
            ours[i], theirs[i]
        );
    }
}

fn noise_of<T: NoiseItem + Parts + PartialEq + std::fmt::Debug>(dir: &Path, fcn: &str) {
    for kind in [
        NoiseType::Uniform,
        NoiseType::Gaussian,
        NoiseType::Laplacian,
        NoiseType::Impulse,
    ] {
        if T::check(kind).is_err() {
            continue;
        }
        // The scale of each real part (complex: a/√2).
        let a = f64::from(T::scale(AMPLITUDE));
        let name = format!("noise_{fcn}_{kind}");
        let theirs = read::<T>(dir, &name);
        let same = take::<T, _>(NoiseSource::<T>::new(kind, AMPLITUDE, SEED).unwrap(), N);
        assert_same(&name, &same, &theirs);
        let other = take::<T, _>(NoiseSource::<T>::new(kind, AMPLITUDE, SEED + 1).unwrap(), N);
        let n = T::parts(&other).len() as f64;
        same_distribution(&name, kind, a, n, &T::parts(&other), &T::parts(&theirs));
        for pool in [8192, 1000] {
            let name = format!("fastnoise{pool}_{fcn}_{kind}");
            let theirs = read::<T>(dir, &name);
            let make = |seed| FastNoiseSource::<T>::new(kind, AMPLITUDE, seed, pool).unwrap();
            assert_same(&name, &take::<T, _>(make(SEED), N), &theirs);
            let other = take::<T, _>(make(SEED + 1), N);
            // The output samples a pool that samples the distribution: an estimate's
            // variance is the pool's plus the output's.
            let parts = T::parts(&other).len() as f64;
            let pool_parts = parts / N as f64 * pool as f64;
            let n = 1.0 / (1.0 / pool_parts + 1.0 / parts);
            same_distribution(&name, kind, a, n, &T::parts(&other), &T::parts(&theirs));
        }
    }
}

#[test]
fn gnu_radio_s_sources_and_radioflow_s_agree() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(PYTHON)
        .args(["-c", SCRIPT])
        .arg(dir.path())
        .args([N.to_string(), SEED.to_string(), AMPLITUDE.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "GNU Radio's script failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = dir.path();
    noise_of::<Complex32>(dir, "c");
    noise_of::<f32>(dir, "f");
    noise_of::<i32>(dir, "i");
    noise_of::<i16>(dir, "s");

    assert_eq!(
        take::<Complex32, _>(ConstSource::new(Complex32::new(1.5, -2.25)), N),
        read::<Complex32>(dir, "const_c")
    );
    assert_eq!(
        take::<f32, _>(ConstSource::new(-0.125f32), N),
        read::<f32>(dir, "const_f")
    );
    assert_eq!(
        take::<i32, _>(ConstSource::new(-70_000i32), N),
        read::<i32>(dir, "const_i")
    );
    assert_eq!(
        take::<i16, _>(ConstSource::new(-300i16), N),
        read::<i16>(dir, "const_s")
    );
    assert_eq!(
        take::<i8, _>(ConstSource::new(-7i8), N),
        read::<i8>(dir, "const_b")
    );

    // Uniform integers in [lo, hi): the range reached, the mean within 6 standard
    // deviations of the difference of two means, every value's share within 6 of its own.
    fn random<T: Item + Into<i64>>(ours: &[T], theirs: &[T], lo: i64, hi: i64, what: &str) {
        let (ours, theirs): (Vec<i64>, Vec<i64>) = (
            ours.iter().map(|&x| x.into()).collect(),
            theirs.iter().map(|&x| x.into()).collect(),
        );
        for xs in [&ours, &theirs] {
            assert_eq!(xs.iter().min(), Some(&lo), "{what}");
            assert_eq!(xs.iter().max(), Some(&(hi - 1)), "{what}");
        }
        let width = (hi - lo) as f64;
        let var = (width * width - 1.0) / 12.0;
        let mean = |xs: &[i64]| xs.iter().sum::<i64>() as f64 / xs.len() as f64;
        let spread = 6.0 * (2.0 * var / N as f64).sqrt();
        assert!(
            (mean(&ours) - mean(&theirs)).abs() < spread,
            "{what}: means"
        );
        if width <= 16.0 {
            let p = 1.0 / width;
            let share = |xs: &[i64], v| xs.iter().filter(|&&x| x == v).count() as f64 / N as f64;
            for v in lo..hi {
                let d = (share(&ours, v) - share(&theirs, v)).abs();
                assert!(
                    d < 6.0 * (2.0 * p * (1.0 - p) / N as f64).sqrt(),
                    "{what}: {v}"
                );
            }
        }
    }
    let ours = take::<i32, _>(
        RandomSource::<i32>::new(-1000, 1000, N, false, 1).unwrap(),
        N,
    );
    random(
        &ours,
        &read::<i32>(dir, "random_i"),
        -1000,
        1000,
        "random int",
    );
    let ours = take::<i16, _>(RandomSource::<i16>::new(-5, 5, N, false, 1).unwrap(), N);
    random(&ours, &read::<i16>(dir, "random_s"), -5, 5, "random short");
    let ours = take::<u8, _>(RandomSource::<u8>::new(0, 256, N, false, 1).unwrap(), N);
    random(&ours, &read::<u8>(dir, "random_b"), 0, 256, "random byte");
}

/// GNU Radio's tags_strobe (through a head) beside ours under every scheduler: the same
/// zeros, tags on the same items (vectors too) with the same key and value, and a source id
/// that is GNU Radio's without its unique number.
#[test]
fn tags_strobe_equals_gnu_radio_s() {
    use radioflow_blocks::{Head, TagsStrobe, VectorSink};
    use radioflow_runtime::{
        FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, ThreadPerBlock,
    };
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.analog)");
        return;
    }
    // (nsamps, items, vlen)
    let cases: [(u64, usize, usize); 4] = [(1000, 2500, 1), (1, 5, 1), (7, 7, 1), (4, 10, 3)];
    let script = format!(
        "import json, pmt\nfrom gnuradio import gr, blocks\nout = []\n\
         for nsamps, n, vlen in {cases:?}:\n\
         \x20   tb = gr.top_block()\n\
         \x20   s = blocks.tags_strobe(4 * vlen, pmt.from_long(5), nsamps, pmt.intern('strobe'))\n\
         \x20   h = blocks.head(4 * vlen, n)\n\
         \x20   v = blocks.vector_sink_f(vlen)\n\
         \x20   tb.connect(s, h, v)\n\
         \x20   tb.run()\n\
         \x20   out.append([list(v.data()), [t.offset for t in v.tags()],\n\
         \x20               [pmt.symbol_to_string(t.srcid) for t in v.tags()]])\n\
         print(json.dumps(out))\n"
    );
    let o = Command::new(PYTHON).args(["-c", &script]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let gr: Vec<(Vec<f32>, Vec<u64>, Vec<String>)> = serde_json::from_slice(&o.stdout).unwrap();
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in &schedulers {
        for ((nsamps, n, vlen), (data, offsets, srcids)) in cases.iter().zip(&gr) {
            let mut fg = Flowgraph::new();
            let src = fg.add(
                TagsStrobe::<f32>::new(Pmt::symbol("strobe"), Pmt::Int(5), *nsamps)
                    .with_vlen(*vlen),
            );
            let head = fg.add(Head::<f32>::new(*n as u64).with_vlen(*vlen));
            let sink = fg.add(VectorSink::<f32>::new().with_vlen(*vlen));
            fg.connect(src, head).unwrap();
            fg.connect(head, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let v = fg.block::<VectorSink<f32>>(sink).unwrap();
            assert_eq!(v.data(), data.as_slice(), "nsamps {nsamps}");
            let ours: Vec<u64> = v.tags().iter().map(|t| t.offset).collect();
            assert_eq!(&ours, offsets, "nsamps {nsamps}");
            assert!(v
                .tags()
                .iter()
                .all(|t| t.key == Pmt::symbol("strobe") && t.value == Pmt::Int(5)));
            for (ours, gr) in v.tags().iter().zip(srcids) {
                let gr = gr.trim_end_matches(|c: char| c.is_ascii_digit());
                assert_eq!(ours.srcid, Pmt::symbol(gr), "nsamps {nsamps}");
            }
        }
    }
}
