//! The ZeroMQ links that replace a connection cut between two hosts: a PUSH socket on the
//! sending host (connecting), a PULL socket on the receiving host (bound to an ephemeral port
//! when the part is built). PUSH/PULL never drops: a full queue holds the sender back, so no
//! item is lost however slow the receiver is.
//!
//! Frames are gr-zeromq's: a stream frame is GNU Radio's tag header (always sent on a link)
//! then whole items; a message frame is `pmt::serialize(msg)`. gr-zeromq has no end of
//! stream, so a link adds one: the two-frame ZeroMQ message [`EOS_MARKER`] + the `u64`
//! (little-endian) count of items or messages sent. Data messages are always one frame, so
//! the marker cannot be mistaken for data; the receiver checks the count against what it
//! received before it ends.
//!
//! A receiving end's port is open to anyone who can reach it. A frame that cannot be a link
//! frame (see [`decode_frame`](radioflow_interop::zmq::tag_header::decode_frame), a message
//! that is not a PMT, several frames that are not the marker) is an error naming the link,
//! or, when the run drops malformed frames (`RunOptions::drop_malformed`), dropped, logged
//! and counted in the host's report. Well-formed frames from a stranger cannot be told from
//! the sender's (the links are not authenticated): the count in the marker then disagrees,
//! which is an error.
//!
//! `end.rs`: one end of a link (its socket, the marker); one block per file for each end of a
//! stream or message link.

mod end;
mod message_sink;
mod message_source;
mod stream_sink;
mod stream_source;

pub use end::EOS_MARKER;
pub(crate) use end::{LinkEnd, LinkFlags};
pub(crate) use message_sink::LinkMessageSink;
pub(crate) use message_source::LinkMessageSource;
pub(crate) use stream_sink::LinkSink;
pub(crate) use stream_source::LinkSource;

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_blocks::VectorSink;
    use radioflow_interop::zmq::tag_header::encode;
    use radioflow_runtime::{
        FlowScheduler, Flowgraph, Pmt, RunError, Scheduler, SingleThread, Tag, ThreadPerBlock,
    };
    use std::net::{IpAddr, Ipv4Addr};
    use std::sync::Arc;

    fn schedulers() -> Vec<Box<dyn Scheduler>> {
        vec![
            Box::new(ThreadPerBlock::new()),
            Box::new(SingleThread::new()),
            Box::new(FlowScheduler::new()),
        ]
    }

    fn frame(first: u64, tags: &[Tag], items: std::ops::Range<i32>) -> Vec<u8> {
        let mut f = Vec::new();
        encode(first, tags, &mut f);
        f.extend(items.flat_map(i32::to_le_bytes));
        f
    }

    /// Runs a receiving stream link end (dropping malformed frames if `drop`) to which a
    /// stranger's PUSH socket sends `frames` then the end-of-stream marker after `count`
    /// items: what arrived, the run's result, the frames dropped.
    fn receive(
        s: &dyn Scheduler,
        flags: LinkFlags,
        messages: &[Vec<Vec<u8>>],
        count: u64,
    ) -> (Result<(), RunError>, Vec<i32>, u64) {
        let context = zmq::Context::new();
        let flags = Arc::new(flags);
        let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let (end, port) = LinkEnd::bind(
            &context,
            loopback,
            "link 0 (a:x.0 -> b:y.0)".into(),
            flags.clone(),
        )
        .unwrap();
        let mut fg = Flowgraph::new();
        let src = fg.add(LinkSource::<i32>::new(end));
        let sink = fg.add(VectorSink::<i32>::new());
        fg.connect(src, sink).unwrap();
        fg.start(s).unwrap();
        let push = context.socket(zmq::PUSH).unwrap();
        push.set_sndtimeo(30_000).unwrap();
        push.connect(&format!("tcp://127.0.0.1:{port}")).unwrap();
        for m in messages {
            push.send_multipart(m, 0).unwrap();
        }
        push.send_multipart([EOS_MARKER, &count.to_le_bytes()[..]], 0)
            .unwrap();
        // Bounded: a hang guard, the link ends by its marker or its error.
        let result = fg.wait_timeout(std::time::Duration::from_secs(60));
        let got = fg.block::<VectorSink<i32>>(sink).unwrap().data().to_vec();
        (result, got, flags.dropped())
    }

    #[test]
    fn a_tag_offset_that_would_wrap_is_an_error_naming_the_link() {
        // One frame from anyone who can reach the port used to panic the block (`here +
        // rel` overflowed), stopping the whole run.
        let wrap = Tag::new(u64::MAX, Pmt::symbol("k"), Pmt::Int(1));
        for s in schedulers() {
            let frames = [
                vec![frame(0, &[], 0..10)],
                vec![frame(0, std::slice::from_ref(&wrap), 0..10)],
            ];
            let (result, _, _) = receive(s.as_ref(), LinkFlags::receiving(false), &frames, 20);
            let err = result.unwrap_err().to_string();
            assert!(
                err.contains("link 0 (a:x.0 -> b:y.0)")
                    && err.contains("tag 0 is at offset 18446744073709551615, outside"),
                "{}: {err}",
                s.name()
            );
        }
    }

    #[test]
    fn a_link_dropping_malformed_frames_delivers_the_sender_s_and_counts_the_rest() {
        let tag = |at: u64| Tag::new(at, Pmt::symbol("k"), Pmt::Int(at as i64));
        for s in schedulers() {
            let messages = [
                vec![frame(0, &[tag(3)], 0..10)],
                vec![frame(0, &[tag(u64::MAX)], 0..1)],
                vec![vec![0u8; 40]],
                vec![frame(10, &[], 0..1)[..21].to_vec()],
                vec![b"not".to_vec(), b"the marker".to_vec(), b"!".to_vec()],
                vec![frame(10, &[tag(19)], 10..20)],
            ];
            let (result, got, dropped) =
                receive(s.as_ref(), LinkFlags::receiving(true), &messages, 20);
            result.unwrap_or_else(|e| panic!("{}: {e}", s.name()));
            assert_eq!(got, (0..20).collect::<Vec<_>>(), "{}", s.name());
            assert_eq!(dropped, 4, "{}", s.name());
        }
    }

    #[test]
    fn a_message_link_dropping_malformed_frames_counts_them() {
        // Not under `single`: the link waits on its socket in `work` until its marker, so on
        // the one thread the store would run only after it.
        for s in schedulers().into_iter().filter(|s| s.name() != "single") {
            let context = zmq::Context::new();
            let flags = Arc::new(LinkFlags::receiving(true));
            let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
            let (end, port) =
                LinkEnd::bind(&context, loopback, "link 1".into(), flags.clone()).unwrap();
            let mut fg = Flowgraph::new();
            let src = fg.add(LinkMessageSource::new(end));
            let store = fg.add(radioflow_blocks::MessageDebug::new());
            fg.connect_message((src, "out"), (store, "store")).unwrap();
            fg.start(s.as_ref()).unwrap();
            let push = context.socket(zmq::PUSH).unwrap();
            push.set_sndtimeo(30_000).unwrap();
            push.connect(&format!("tcp://127.0.0.1:{port}")).unwrap();
            push.send(Pmt::Int(1).to_bytes(), 0).unwrap();
            push.send(&[0xEEu8, 0][..], 0).unwrap();
            push.send(Pmt::Int(2).to_bytes(), 0).unwrap();
            push.send_multipart([EOS_MARKER, &2u64.to_le_bytes()[..]], 0)
                .unwrap();
            fg.wait_timeout(std::time::Duration::from_secs(60)).unwrap();
            let got = fg.block::<radioflow_blocks::MessageDebug>(store).unwrap();
            assert_eq!(got.messages(), [Pmt::Int(1), Pmt::Int(2)], "{}", s.name());
            assert_eq!(flags.dropped(), 1, "{}", s.name());
        }
    }
}
