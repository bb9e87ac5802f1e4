//! ZeroMQ blocks talking to each other over loopback TCP: items, tags, keys and messages
//! arrive intact for every pattern, and a mismatch between the two ends is an error naming
//! the block, not garbage.

use radioflow_blocks::runtime::{
    default_scheduler, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{Head, MessageBurstSource, MessageDebug, VectorSink, VectorSource};
use radioflow_interop::{ZmqMessageSink, ZmqMessageSource, ZmqPattern, ZmqSink, ZmqSource};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

/// Waits for a started graph to end by itself; stops it and fails the test if it has not
/// within a minute (a hang guard, not a measurement).
fn wait_or_fail(fg: &mut Flowgraph, what: &str) {
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
    assert!(
        !watchdog.join().unwrap(),
        "{what}: the graph did not end by itself"
    );
    result.unwrap();
}

/// A REQ socket of the test's own, as GNU Radio's `req_source` would ask: every receive
/// bounded (a hang guard).
fn requester(address: &str) -> (zmq::Context, zmq::Socket) {
    let context = zmq::Context::new();
    let req = context.socket(zmq::REQ).unwrap();
    req.set_rcvtimeo(30_000).unwrap();
    req.set_linger(0).unwrap();
    req.connect(address).unwrap();
    (context, req)
}

/// A TCP port free on loopback now.
fn free_address() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("tcp://127.0.0.1:{}", l.local_addr().unwrap().port())
}

fn counter(n: i32) -> Vec<i32> {
    (0..n).collect()
}

/// Sends `data` with `tags` through `sink`, receives `n` items with `source`; one graph.
fn through(
    sink: ZmqSink<i32>,
    source: ZmqSource<i32>,
    data: Vec<i32>,
    tags: Vec<Tag>,
    n: u64,
) -> (Vec<i32>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data).tags(tags));
    let snk = fg.add(sink);
    fg.connect(src, snk).unwrap();
    let zsrc = fg.add(source);
    let head = fg.add(Head::<i32>::new(n));
    let out = fg.add(VectorSink::<i32>::new());
    fg.connect(zsrc, head).unwrap();
    fg.connect(head, out).unwrap();
    fg.run().unwrap();
    let v = fg.block::<VectorSink<i32>>(out).unwrap();
    (v.data().to_vec(), v.tags().to_vec())
}

#[test]
fn push_pull_delivers_every_item_and_tag_in_order() {
    let addr = free_address();
    let tags = vec![
        Tag::new(0, Pmt::symbol("first"), Pmt::Int(0)),
        Tag::new(70_000, Pmt::symbol("rx_freq"), Pmt::Double(1e9)),
        Tag::new(199_999, Pmt::symbol("last"), Pmt::symbol("x")),
    ];
    let (data, got) = through(
        ZmqSink::new(&*addr, ZmqPattern::PushPull).pass_tags(true),
        ZmqSource::new(&*addr, ZmqPattern::PushPull).pass_tags(true),
        counter(200_000),
        tags.clone(),
        200_000,
    );
    assert_eq!(data, counter(200_000));
    assert_eq!(got, tags);
}

#[test]
fn push_pull_without_tags_carries_bare_items() {
    let addr = free_address();
    let (data, got) = through(
        ZmqSink::new(&*addr, ZmqPattern::PushPull),
        ZmqSource::new(&*addr, ZmqPattern::PushPull),
        counter(50_000),
        vec![Tag::new(5, Pmt::symbol("dropped"), Pmt::Int(1))],
        50_000,
    );
    assert_eq!(data, counter(50_000));
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn req_rep_delivers_every_item_and_tag_in_order() {
    let addr = free_address();
    let tags = vec![Tag::new(12_345, Pmt::symbol("k"), Pmt::Int(-1))];
    let (data, got) = through(
        ZmqSink::new(&*addr, ZmqPattern::ReqRep).pass_tags(true),
        ZmqSource::new(&*addr, ZmqPattern::ReqRep).pass_tags(true),
        counter(100_000),
        tags.clone(),
        100_000,
    );
    assert_eq!(data, counter(100_000));
    assert_eq!(got, tags);
}

#[test]
fn pub_sub_with_a_key_puts_every_tag_on_its_item() {
    // A subscriber joins late and may lose whole messages at its high-water mark, so what
    // arrives is some of the stream; each message's header keeps tags on their items.
    let addr = free_address();
    let n = 400_000;
    let tags: Vec<Tag> = (0..n as u64)
        .step_by(1000)
        .map(|i| Tag::new(i, Pmt::symbol("i"), Pmt::Int(i as i64)))
        .collect();
    let mut sender = Flowgraph::new();
    let src = sender.add(VectorSource::new(counter(n)).tags(tags).repeat(true));
    let snk = sender.add(
        ZmqSink::<i32>::new(&*addr, ZmqPattern::PubSub)
            .pass_tags(true)
            .key("topic"),
    );
    sender.connect(src, snk).unwrap();
    sender.start(default_scheduler().as_ref()).unwrap();
    let mut fg = Flowgraph::new();
    let zsrc = fg.add(
        ZmqSource::<i32>::new(&*addr, ZmqPattern::PubSub)
            .pass_tags(true)
            .key("topic"),
    );
    let head = fg.add(Head::<i32>::new(200_000));
    let out = fg.add(VectorSink::<i32>::new());
    fg.connect(zsrc, head).unwrap();
    fg.connect(head, out).unwrap();
    fg.run().unwrap();
    // The sender repeats forever: stop it; it must end promptly.
    sender.stop();
    sender.wait_timeout(Duration::from_secs(30)).unwrap();
    let v = fg.block::<VectorSink<i32>>(out).unwrap();
    assert_eq!(v.data().len(), 200_000);
    assert!(!v.tags().is_empty());
    for t in v.tags() {
        assert_eq!(t.key, Pmt::symbol("i"));
        assert_eq!(
            Pmt::Int(v.data()[t.offset as usize] as i64),
            t.value,
            "{t:?}"
        );
    }
}

fn messages() -> Vec<Pmt> {
    vec![
        Pmt::Int(1),
        Pmt::symbol("two"),
        Pmt::Pair(std::sync::Arc::new((
            Pmt::symbol("meta"),
            Pmt::F32Vector(vec![1.0, 2.5].into()),
        ))),
        Pmt::Double(-0.5),
    ]
}

/// Sends `messages()` through `sink`, then waits until `source` has posted them all.
fn messages_through(sink: ZmqMessageSink, source: ZmqMessageSource) -> Vec<Pmt> {
    let want = messages();
    let mut receiver = Flowgraph::new();
    let src = receiver.add(source);
    let dbg = receiver.add(MessageDebug::new());
    receiver
        .connect_message((src, "out"), (dbg, "store"))
        .unwrap();
    receiver.start(default_scheduler().as_ref()).unwrap();
    let mut sender = Flowgraph::new();
    let burst = sender.add(MessageBurstSource::new(want.clone()));
    let snk = sender.add(sink);
    sender.connect_message((burst, "out"), (snk, "in")).unwrap();
    sender.run().unwrap();
    // The source never ends by itself: stop it once the store has every message (or after a
    // minute, and then the comparison below fails).
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while receiver.live_stats(dbg).map_or(0, |s| s.messages) < want.len() as u64
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    receiver.stop();
    receiver.wait_timeout(Duration::from_secs(30)).unwrap();
    receiver
        .block::<MessageDebug>(dbg)
        .unwrap()
        .messages()
        .to_vec()
}

#[test]
fn push_pull_messages_arrive_equal_and_in_order() {
    let addr = free_address();
    let got = messages_through(
        ZmqMessageSink::new(&*addr, ZmqPattern::PushPull),
        ZmqMessageSource::new(&*addr, ZmqPattern::PushPull),
    );
    assert_eq!(got, messages());
}

#[test]
fn req_rep_messages_arrive_equal_and_in_order() {
    let addr = free_address();
    let got = messages_through(
        ZmqMessageSink::new(&*addr, ZmqPattern::ReqRep),
        ZmqMessageSource::new(&*addr, ZmqPattern::ReqRep),
    );
    assert_eq!(got, messages());
}

#[test]
fn a_source_expecting_tags_names_itself_when_none_come() {
    let addr = free_address();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(counter(1000)));
    let snk = fg.add(ZmqSink::<i32>::new(&*addr, ZmqPattern::PushPull));
    fg.connect(src, snk).unwrap();
    let zsrc = fg.add(ZmqSource::<i32>::new(&*addr, ZmqPattern::PushPull).pass_tags(true));
    let out = fg.add(VectorSink::<i32>::new());
    fg.connect(zsrc, out).unwrap();
    let err = fg.run().unwrap_err().to_string();
    assert!(err.contains("zmq_source") && err.contains(&addr), "{err}");
    assert!(err.contains("tag header"), "{err}");
}

#[test]
fn a_payload_that_is_not_whole_items_is_an_error_naming_the_block() {
    let addr = free_address();
    let mut fg = Flowgraph::new();
    // Three-byte messages of u8 items, received as 4-byte i32.
    let src = fg.add(VectorSource::new(vec![1u8, 2, 3]));
    let snk = fg.add(ZmqSink::<u8>::new(&*addr, ZmqPattern::PushPull));
    fg.connect(src, snk).unwrap();
    let zsrc = fg.add(ZmqSource::<i32>::new(&*addr, ZmqPattern::PushPull));
    let out = fg.add(VectorSink::<i32>::new());
    fg.connect(zsrc, out).unwrap();
    let err = fg.run().unwrap_err().to_string();
    assert!(err.contains("zmq_source") && err.contains(&addr), "{err}");
    assert!(err.contains("not a whole number of 4-byte items"), "{err}");
}

#[test]
fn a_port_in_use_is_a_start_error_naming_the_address() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = format!("tcp://127.0.0.1:{}", l.local_addr().unwrap().port());
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(counter(10)));
    let snk = fg.add(ZmqSink::<i32>::new(&*addr, ZmqPattern::PushPull));
    fg.connect(src, snk).unwrap();
    let err = fg.run().unwrap_err().to_string();
    assert!(err.contains("bind") && err.contains(&addr), "{err}");
}

#[test]
fn a_rep_sink_answers_requests_for_zero_items_and_keeps_serving() {
    // GNU Radio's rep_sink answers a request for 0 items with a message of 0 items; the sink
    // used to stop answering after two of them (its work call moved nothing, so nothing woke
    // it again).
    for s in schedulers() {
        let addr = free_address();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(counter(1000)));
        let snk = fg.add(ZmqSink::<i32>::new(&*addr, ZmqPattern::ReqRep));
        fg.connect(src, snk).unwrap();
        fg.start(s.as_ref()).unwrap();
        let (_context, req) = requester(&addr);
        for i in 0..5 {
            req.send(&0u32.to_le_bytes()[..], 0).unwrap();
            let answer = req.recv_bytes(0).unwrap_or_else(|e| {
                panic!("{}: no answer to zero-item request {i}: {e}", s.name())
            });
            assert!(answer.is_empty(), "{}: {} bytes", s.name(), answer.len());
        }
        let mut got = Vec::new();
        while got.len() < 1000 {
            req.send(&1000u32.to_le_bytes()[..], 0).unwrap();
            let answer = req.recv_bytes(0).unwrap_or_else(|e| {
                panic!("{}: no answer after the zero-item requests: {e}", s.name())
            });
            assert!(!answer.is_empty(), "{}", s.name());
            got.extend(
                answer
                    .chunks(4)
                    .map(|c| i32::from_le_bytes(c.try_into().unwrap())),
            );
        }
        assert_eq!(got, counter(1000), "{}", s.name());
        wait_or_fail(&mut fg, s.name());
    }
}

/// A frame as gr-zeromq's stream sinks send it: the tag header (first item at the sender's
/// offset `first`, `tags`), then `items`.
fn tagged_frame(first: u64, tags: &[Tag], items: &[i32]) -> Vec<u8> {
    let mut frame = Vec::new();
    radioflow_interop::zmq::tag_header::encode(first, tags, &mut frame);
    frame.extend(items.iter().flat_map(|i| i.to_le_bytes()));
    frame
}

/// A PUSH socket of the test's own, bound at a free address, that a PULL source connects to.
fn pusher() -> (zmq::Context, zmq::Socket, String) {
    let context = zmq::Context::new();
    let push = context.socket(zmq::PUSH).unwrap();
    push.set_sndtimeo(30_000).unwrap();
    push.set_linger(1000).unwrap();
    let addr = free_address();
    push.bind(&addr).unwrap();
    (context, push, addr)
}

#[test]
fn a_tag_offset_that_would_wrap_is_an_error_naming_the_block() {
    // Sender offset 0, a tag at 2^64 - 1: moved to the receiver's stream after 10 items it
    // would be past 2^64 (it used to panic the block: `here + rel` overflowed).
    for s in schedulers() {
        let (_context, push, addr) = pusher();
        let mut fg = Flowgraph::new();
        let src = fg.add(ZmqSource::<i32>::new(&*addr, ZmqPattern::PushPull).pass_tags(true));
        let out = fg.add(VectorSink::<i32>::new());
        fg.connect(src, out).unwrap();
        fg.start(s.as_ref()).unwrap();
        push.send(tagged_frame(0, &[], &counter(10)), 0).unwrap();
        let wrap = Tag::new(u64::MAX, Pmt::symbol("k"), Pmt::Int(1));
        push.send(tagged_frame(0, &[wrap], &counter(10)), 0)
            .unwrap();
        let err = fg.wait().unwrap_err().to_string();
        assert!(
            err.contains("zmq_source") && err.contains(&addr),
            "{}: {err}",
            s.name()
        );
        assert!(
            err.contains("tag 0 is at offset 18446744073709551615, outside the frame's 10 items"),
            "{}: {err}",
            s.name()
        );
    }
}

#[test]
fn a_source_told_to_drop_malformed_messages_drops_and_counts_them() {
    for s in schedulers() {
        let (_context, push, addr) = pusher();
        let mut fg = Flowgraph::new();
        let src = fg.add(
            ZmqSource::<i32>::new(&*addr, ZmqPattern::PushPull)
                .pass_tags(true)
                .drop_malformed(true),
        );
        let head = fg.add(Head::<i32>::new(20));
        let out = fg.add(VectorSink::<i32>::new());
        fg.connect(src, head).unwrap();
        fg.connect(head, out).unwrap();
        fg.start(s.as_ref()).unwrap();
        let tag = |at: u64| Tag::new(at, Pmt::symbol("k"), Pmt::Int(at as i64));
        push.send(tagged_frame(100, &[tag(103)], &counter(10)), 0)
            .unwrap();
        // Each malformed in its own way: a tag that would wrap, a tag before the items, a
        // tag after them, no header, half an item.
        push.send(tagged_frame(0, &[tag(u64::MAX)], &[1]), 0)
            .unwrap();
        push.send(tagged_frame(5, &[tag(4)], &[1]), 0).unwrap();
        push.send(tagged_frame(5, &[tag(6)], &[1]), 0).unwrap();
        push.send(&[0u8; 40][..], 0).unwrap();
        push.send(&tagged_frame(5, &[], &[1])[..21], 0).unwrap();
        let rest: Vec<i32> = (10..20).collect();
        push.send(tagged_frame(110, &[tag(119)], &rest), 0).unwrap();
        wait_or_fail(&mut fg, s.name());
        let got = fg.block::<VectorSink<i32>>(out).unwrap();
        assert_eq!(got.data(), counter(20), "{}", s.name());
        assert_eq!(
            got.tags(),
            [tag(103), tag(119)].map(|mut t| {
                t.offset -= 100;
                t
            }),
            "{}",
            s.name()
        );
        let src = fg.block::<ZmqSource<i32>>(src).unwrap();
        assert_eq!(src.dropped_frames(), 5, "{}", s.name());
    }
}

#[test]
fn a_message_source_told_to_drop_malformed_frames_drops_and_counts_them() {
    // Not under `single`: a message source waits on its socket in `work` until a stop, so
    // on the one thread the store would never run (as for every blocking message source).
    for s in schedulers().into_iter().filter(|s| s.name() != "single") {
        let (_context, push, addr) = pusher();
        let mut fg = Flowgraph::new();
        let src = fg.add(ZmqMessageSource::new(&*addr, ZmqPattern::PushPull).drop_malformed(true));
        let debug = fg.add(MessageDebug::new());
        fg.connect_message((src, "out"), (debug, "store")).unwrap();
        fg.start(s.as_ref()).unwrap();
        push.send(Pmt::Int(1).to_bytes(), 0).unwrap();
        push.send(&[0xEEu8, 1, 2][..], 0).unwrap();
        push.send(Pmt::Int(2).to_bytes(), 0).unwrap();
        // The source never ends by itself: stop it once the store has both messages (or
        // after a minute, and then the comparison below fails).
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while fg.live_stats(debug).map_or(0, |s| s.messages) < 2
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        fg.stop();
        fg.wait_timeout(Duration::from_secs(30)).unwrap();
        let d = fg.block::<MessageDebug>(debug).unwrap();
        assert_eq!(d.messages(), [Pmt::Int(1), Pmt::Int(2)], "{}", s.name());
        let src = fg.block::<ZmqMessageSource>(src).unwrap();
        assert_eq!(src.dropped_frames(), 1, "{}", s.name());
    }
}
