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
