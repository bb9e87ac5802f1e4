//! The element-wise family (GNU Radio's math and conversion blocks): every member against a
//! naive scalar reference, on inputs with the edge cases (ties at .5, saturation, NaN, ±inf,
//! integer extremes, zero divisors), in a real graph under every scheduler.

#[path = "support/element_wise.rs"]
mod support;

use radioflow_blocks::runtime::testing::Harness;
use radioflow_blocks::runtime::{
    Complex32, FlowScheduler, Flowgraph, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{ComplexToFloat, ComplexToInterleavedShort, InterleavedShortToComplex};
use std::sync::mpsc;
use std::time::Duration;
use support::{cases, compare};

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

/// Runs `fg` to completion on `scheduler` (a 60 s guard against a hang only).
fn run(fg: &mut Flowgraph, scheduler: &dyn Scheduler) {
    fg.start(scheduler).unwrap();
    let stop = fg.stop_handle().unwrap();
    let (done, timer) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let hung = timer.recv_timeout(Duration::from_secs(60)).is_err();
        if hung {
            stop.stop();
        }
        hung
    });
    let result = fg.wait();
    let _ = done.send(());
    assert!(!watchdog.join().unwrap(), "hung ({})", scheduler.name());
    result.unwrap();
}

#[test]
fn every_member_matches_its_naive_reference_under_every_scheduler() {
    let mut failures = Vec::new();
    for s in schedulers() {
        for case in cases() {
            let got = case.run(|fg| run(fg, s.as_ref()));
            for (port, (g, w)) in got.iter().zip(&case.want).enumerate() {
                if let Err(e) = compare(g, w, case.naive) {
                    failures.push(format!("{} on {}: output {port}: {e}", case.name, s.name()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn interleaving_moves_tags_to_the_items_made_from_theirs() {
    let mut h = Harness::new(ComplexToInterleavedShort::new(1.0));
    h.push_tag("in", 1, "k", 1i64);
    h.push("in", &[Complex32::new(1.0, 2.0), Complex32::new(3.0, 4.0)]);
    h.set_space("out", 3);
    h.work().unwrap();
    assert_eq!(h.consumed("in"), 1, "whole samples only");
    h.set_space("out", 8);
    h.work().unwrap();
    assert_eq!(h.output_tags("out"), [Tag::new(2, "k", 1i64)]);
    assert_eq!(h.take_output::<i16>("out"), [1, 2, 3, 4]);

    let mut h = Harness::new(InterleavedShortToComplex::new(2.0, true));
    h.push_tag("in", 3, "k", 1i64);
    h.push("in", &[2i16, 4, 6]);
    h.work().unwrap();
    assert_eq!(h.consumed("in"), 2, "a lone part waits for its pair");
    h.push("in", &[8i16]);
    h.work().unwrap();
    assert_eq!(h.output_tags("out"), [Tag::new(1, "k", 1i64)]);
    assert_eq!(
        h.take_output::<Complex32>("out"),
        [Complex32::new(2.0, 1.0), Complex32::new(4.0, 3.0)],
        "swapped"
    );
}

#[test]
fn settable_parameters_change_the_conversion_while_running() {
    let mut h = Harness::new(InterleavedShortToComplex::new(1.0, false));
    h.push("in", &[2i16, 4]);
    h.work().unwrap();
    h.post("scale", 2.0f64).unwrap();
    h.post("swap", true).unwrap();
    h.push("in", &[2i16, 4]);
    h.work().unwrap();
    assert_eq!(
        h.take_output::<Complex32>("out"),
        [Complex32::new(2.0, 4.0), Complex32::new(2.0, 1.0)]
    );
}

#[test]
fn an_optional_output_left_unconnected_is_not_written_and_the_graph_runs() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(radioflow_blocks::VectorSource::new(vec![
            Complex32::new(
                1.0, 2.0
            );
            5000
        ]));
        let op = fg.add(ComplexToFloat::new());
        let re = fg.add(radioflow_blocks::VectorSink::<f32>::new());
        fg.connect(src, op).unwrap();
        fg.connect((op, 0), re).unwrap();
        run(&mut fg, s.as_ref());
        let data = fg
            .block::<radioflow_blocks::VectorSink<f32>>(re)
            .unwrap()
            .data();
        assert!(
            data.len() == 5000 && data.iter().all(|&x| x == 1.0),
            "{}: {} items",
            s.name(),
            data.len()
        );
    }
}

#[test]
fn a_required_second_port_is_still_required() {
    let mut fg = Flowgraph::new();
    let src = fg.add(radioflow_blocks::VectorSource::new(vec![Complex32::new(
        1.0, 2.0,
    )]));
    let op = fg.add(radioflow_blocks::ComplexToMagphase::new());
    let mag = fg.add(radioflow_blocks::VectorSink::<f32>::new());
    fg.connect(src, op).unwrap();
    fg.connect((op, 0), mag).unwrap();
    let err = fg.run().unwrap_err().to_string();
    assert!(
        err.contains("phase") && err.contains("not connected"),
        "{err}"
    );
}

/// The constant of add_const / multiply_const is settable while running (GNU Radio's
/// `set_k`), for every item type; a value out of the type's range is ignored, never wrapped.
#[test]
fn the_constant_is_settable_while_running_and_checked_against_the_type() {
    use radioflow_blocks::{AddConst, MultiplyConst};
    let mut h = Harness::new(MultiplyConst::<i16>::new(2));
    h.push("in", &[3i16]);
    h.work().unwrap();
    h.post("k", 5i64).unwrap();
    h.push("in", &[3i16]);
    h.work().unwrap();
    assert_eq!(h.take_output::<i16>("out"), [6, 15]);
    // Out of i16's range: ignored (with a warning), as a bad value from a control port is.
    h.post("k", 40_000i64).unwrap();
    h.push("in", &[3i16]);
    h.work().unwrap();
    assert_eq!(h.take_output::<i16>("out"), [15]);
    let mut h = Harness::new(AddConst::<Complex32>::new(Complex32::new(1.0, 0.0)));
    h.post("k", Complex32::new(0.0, 2.0)).unwrap();
    h.push("in", &[Complex32::new(1.0, 1.0)]);
    h.work().unwrap();
    assert_eq!(
        h.take_output::<Complex32>("out"),
        [Complex32::new(1.0, 3.0)]
    );
    let mut h = Harness::new(AddConst::<u8>::new(1));
    h.post("k", 255i64).unwrap();
    h.push("in", &[1u8]);
    h.work().unwrap();
    assert_eq!(
        h.take_output::<u8>("out"),
        [0],
        "wraps as GNU Radio's unsigned char"
    );
}
