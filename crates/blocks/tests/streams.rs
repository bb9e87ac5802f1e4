//! The everyday stream blocks under every scheduler: each case (`support/streams.rs`, the
//! cases `gnuradio_streams.rs` checks against GNU Radio single-threaded) gives the same items
//! and tags on thread-per-block, on the flow scheduler (with tiny buffers and chunks too, so
//! the blocks' state crosses many calls and buffer wraps) as on one thread.

#[path = "support/streams.rs"]
mod support;

use radioflow_blocks::runtime::{FlowScheduler, Scheduler, SingleThread, ThreadPerBlock};
use support::{math_cases, routing_cases};

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new()),
        Box::new(
            FlowScheduler::new()
                .workers(3)
                .chunk_bytes(64)
                .buffer_bytes(4096),
        ),
    ]
}

#[test]
fn every_case_gives_the_same_on_every_scheduler() {
    for case in routing_cases().into_iter().chain(math_cases()) {
        let want = case.run(&SingleThread::new());
        for s in schedulers() {
            assert!(
                case.run(&*s) == want,
                "{} on {}: differs from one thread",
                case.name,
                s.name()
            );
        }
    }
}

#[test]
fn bad_parameters_are_refused_naming_the_block_and_the_parameter() {
    use radioflow_blocks::runtime::registry::{self, Dtype};
    use radioflow_blocks::runtime::Pmt;
    let list = |v: &[i64]| Pmt::Vector(v.iter().map(|&i| Pmt::Int(i)).collect::<Vec<_>>().into());
    // (block, parameters given, the parameter at fault)
    type Refusal = (&'static str, Vec<(&'static str, Pmt)>, &'static str);
    let cases: [Refusal; 11] = [
        (
            "keep_m_in_n",
            vec![
                ("m", Pmt::Int(2)),
                ("n", Pmt::Int(5)),
                ("offset", Pmt::Int(4)),
            ],
            "offset",
        ),
        ("keep_one_in_n", vec![("n", Pmt::Int(0))], "n"),
        ("repeat", vec![("interp", Pmt::Int(0))], "interp"),
        ("stream_mux", vec![("lengths", list(&[0, 0]))], "lengths"),
        ("stream_demux", vec![("lengths", list(&[2, -1]))], "lengths"),
        ("interleave", vec![("blocksize", Pmt::Int(0))], "blocksize"),
        (
            "selector",
            vec![("input_index", Pmt::Int(2))],
            "input_index",
        ),
        ("delay", vec![("dly", Pmt::Int(-1))], "dly"),
        (
            "moving_average",
            vec![("length", Pmt::Int(0)), ("scale", Pmt::Double(1.0))],
            "length",
        ),
        (
            "moving_average",
            vec![
                ("length", Pmt::Int(3)),
                ("scale", Pmt::Double(1.0)),
                ("max_iter", Pmt::Int(0)),
            ],
            "max_iter",
        ),
        ("integrate", vec![("decim", Pmt::Int(0))], "decim"),
    ];
    for (id, given, param) in cases {
        let d = registry::find(id).unwrap_or_else(|| panic!("{id} is registered"));
        let given = given.into_iter().map(|(k, v)| (k.to_owned(), v));
        let err = registry::make(d, Some(Dtype::Float32), given)
            .err()
            .unwrap_or_else(|| panic!("{id}: {param} accepted"))
            .to_string();
        assert!(err.contains(id) && err.contains(param), "{id}: {err}");
    }
}

/// The FFT of vector items (real and complex, shifted, windowed) gives the same bins and
/// tags on every scheduler as on one thread, whatever the buffer sizes.
#[test]
fn fft_is_the_same_on_every_scheduler() {
    use radioflow_blocks::runtime::{Complex32, Flowgraph, Tag};
    use radioflow_blocks::{Fft, VectorSink, VectorSource};
    type Bins = (Vec<Complex32>, Vec<(u64, String)>);
    fn run(real: bool, s: &dyn Scheduler) -> Bins {
        let size = 6;
        let x: Vec<f32> = (0..600)
            .map(|k| ((k * 37) % 101) as f32 * 0.1 - 5.0)
            .collect();
        let tags: Vec<Tag> = [0u64, 7, 41, 99]
            .iter()
            .map(|&o| Tag::new(o, "t", 0i64))
            .collect();
        let window = [0.5, 1.0, 1.5, 1.5, 1.0, 0.5];
        let mut fg = Flowgraph::new();
        let (src, fft) = if real {
            let src = VectorSource::new(x).with_vlen(size).unwrap().tags(tags);
            let fft = Fft::<f32>::new(size, false, &window, true).unwrap();
            (fg.add(src), fg.add(fft))
        } else {
            let c: Vec<Complex32> = x.chunks(2).map(|p| Complex32::new(p[0], p[1])).collect();
            let src = VectorSource::new(c)
                .with_vlen(size)
                .unwrap()
                .tags(tags[..3].to_vec());
            let fft = Fft::<Complex32>::new(size, true, &window, true).unwrap();
            (fg.add(src), fg.add(fft))
        };
        let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(size));
        fg.connect(src, fft).unwrap();
        fg.connect(fft, sink).unwrap();
        fg.run_with(s).unwrap();
        let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        let tags = sink
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.to_string()))
            .collect();
        (sink.data().to_vec(), tags)
    }
    for real in [false, true] {
        let want = run(real, &SingleThread::new());
        assert_eq!(want.0.len(), if real { 600 } else { 300 });
        for s in schedulers() {
            assert!(run(real, &*s) == want, "fft (real {real}) on {}", s.name());
        }
    }
}
