//! The block test harness: `work` called on chosen inputs and output space, tags, messages and
//! the end of an input, with no flowgraph or scheduler.

use radioflow_runtime::prelude::*;
use radioflow_runtime::testing::{Harness, Reframe};

/// Doubles items, passes tags, posts the count of items seen on `count` every call, and
/// ends after `limit` items.
#[derive(Ports)]
struct Doubler {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    #[message_output]
    count: MessageOutput,
    seen: u64,
    limit: u64,
}

#[block]
impl Doubler {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
            for (o, i) in o.iter_mut().zip(i) {
                *o = 2 * i;
            }
        });
        self.seen += n as u64;
        self.count.post(Pmt::Uint64(self.seen));
        if self.seen >= self.limit || self.input.is_finished() && self.input.slice().is_empty() {
            return Ok(WorkStatus::Done);
        }
        Ok(WorkStatus::Continue)
    }

    #[message_input]
    fn limit(&mut self, n: u64) {
        self.limit = n;
    }
}

fn doubler() -> Harness<Doubler> {
    Harness::new(Doubler {
        input: StreamInput::new(),
        output: StreamOutput::new(),
        count: MessageOutput::new(),
        seen: 0,
        limit: u64::MAX,
    })
}

#[test]
fn output_space_per_call_tags_and_messages() {
    let mut h = doubler();
    h.push_tag("in", 3, "burst", 7i64);
    h.push("in", &[1u32, 2, 3, 4, 5]);
    h.set_space("out", 2);
    assert_eq!(h.work().unwrap(), WorkStatus::Continue);
    assert_eq!((h.consumed("in"), h.produced("out")), (2, 2));
    assert_eq!(h.take_output::<u32>("out"), [2, 4]);
    assert!(h.output_tags("out").is_empty());
    h.set_space("out", 10);
    h.work().unwrap();
    assert_eq!((h.consumed("in"), h.produced("out")), (5, 5));
    let tags = h.output_tags("out");
    assert_eq!(tags.len(), 1);
    assert_eq!((tags[0].offset, tags[0].value.as_i64()), (3, Some(7)));
    assert_eq!(h.take_output::<u32>("out"), [6, 8, 10]);
    assert_eq!(
        h.take_messages("count"),
        [Pmt::Uint64(2), Pmt::Uint64(5)],
        "one message per call"
    );
}

#[test]
fn message_inputs_and_the_end_of_an_input() {
    let mut h = doubler();
    h.post("limit", 3u64).unwrap();
    let e = h.post("limit", "three").unwrap_err().to_string();
    assert!(e.contains("takes a non-negative integer"), "{e}");
    h.push("in", &[1u32, 1, 1, 1]);
    assert_eq!(
        h.work().unwrap(),
        WorkStatus::Done,
        "the limit of 3 was reached"
    );
    let mut h = doubler();
    h.push("in", &[9u32]);
    h.finish_input("in");
    assert_eq!(h.work().unwrap(), WorkStatus::Done, "the input ended");
    assert_eq!(h.take_output::<u32>("out"), [18]);
}

#[test]
fn declared_windows_size_the_harness_buffers() {
    // Frames of 100,000 items: more than the harness's default buffer.
    let mut h = Harness::new(Reframe::<u32>::declared(100_000, 3));
    let frame: Vec<u32> = (0..100_000).collect();
    h.push("in", &frame);
    h.push("in", &frame[..10]);
    h.work().unwrap();
    assert_eq!(h.consumed("in"), 100_000);
    assert_eq!(h.take_output::<u32>("out"), [0, 1, 2]);
}

#[test]
#[should_panic(expected = "port 'in' carries u32 (4 bytes), not float32")]
fn a_wrong_item_type_is_named() {
    doubler().push("in", &[1.0f32]);
}

#[test]
#[should_panic(expected = "the block has no stream input 'input' (it has: in)")]
fn an_unknown_port_is_named() {
    doubler().push("input", &[1u32]);
}
