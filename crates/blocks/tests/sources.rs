//! The noise, fast noise, constant and random sources under every scheduler: a seeded source
//! gives the same items whatever runs it and however its output is cut into calls.

use radioflow_blocks::{
    ConstSource, FastNoiseSource, Head, NoiseSource, NoiseType, RandomSource, VectorSink,
};
use radioflow_runtime::testing::Harness;
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Item, Scheduler, SingleThread, ThreadPerBlock,
};

const N: usize = 20_000;

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
        Box::new(
            FlowScheduler::new()
                .workers(3)
                .chunk_bytes(64)
                .buffer_bytes(4096),
        ),
    ]
}

/// The first `N` items of `block` in one call after another of 1000.
fn reference<T: Item, B: Block + 'static>(block: B) -> Vec<T> {
    let mut h = Harness::new(block);
    let mut items = Vec::new();
    while items.len() < N {
        h.set_space("out", 1000);
        h.work().unwrap();
        items.extend(h.take_output::<T>("out"));
    }
    items
}

/// The first `N` items of the block `make` gives, on `s`.
fn run<T: Item, B: Block + 'static>(make: &dyn Fn() -> B, s: &dyn Scheduler) -> Vec<T> {
    let mut fg = Flowgraph::new();
    let src = fg.add(make());
    let head = fg.add(Head::<T>::new(N as u64));
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    fg.run_with(s).unwrap();
    fg.block::<VectorSink<T>>(sink).unwrap().data().to_vec()
}

fn same_everywhere<T: Item + PartialEq + std::fmt::Debug, B: Block + 'static>(
    what: &str,
    make: &dyn Fn() -> B,
) {
    let want = reference::<T, B>(make());
    for s in schedulers() {
        assert!(run::<T, B>(make, &*s) == want, "{what} under {}", s.name());
    }
}

#[test]
fn seeded_sources_give_the_same_items_under_every_scheduler() {
    same_everywhere::<Complex32, _>("gaussian complex noise", &|| {
        NoiseSource::<Complex32>::new(NoiseType::Gaussian, 2.0, 5).unwrap()
    });
    same_everywhere::<i16, _>("laplacian short noise", &|| {
        NoiseSource::<i16>::new(NoiseType::Laplacian, 100.0, 5).unwrap()
    });
    same_everywhere::<f32, _>("uniform fast noise", &|| {
        FastNoiseSource::<f32>::new(NoiseType::Uniform, 1.0, 5, 1000).unwrap()
    });
    same_everywhere::<i32, _>("a constant", &|| ConstSource::new(-9i32));
    same_everywhere::<u8, _>("random bytes", &|| {
        RandomSource::<u8>::new(0, 256, 777, true, 5).unwrap()
    });
}

#[test]
fn complex_gaussian_noise_has_the_amplitude_as_its_power() {
    // Power a² split evenly: each part's variance a²/2 = 2, estimated from 20 000 items with
    // a standard deviation of 2·sqrt(2/20 000) = 0.02 (the sum's: 0.028); 0.2 is 7 of them.
    let items = reference::<Complex32, _>(
        NoiseSource::<Complex32>::new(NoiseType::Gaussian, 2.0, 1).unwrap(),
    );
    let power = |f: fn(&Complex32) -> f32| {
        items.iter().map(|c| f64::from(f(c)).powi(2)).sum::<f64>() / N as f64
    };
    let (re, im) = (power(|c| c.re), power(|c| c.im));
    assert!((re + im - 4.0).abs() < 0.2, "power {}", re + im);
    assert!(
        (re - 2.0).abs() < 0.2 && (im - 2.0).abs() < 0.2,
        "{re} and {im}"
    );
}
