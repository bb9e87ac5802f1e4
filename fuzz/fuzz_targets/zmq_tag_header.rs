//! gr-zeromq's tag header (the start of every ZeroMQ message from a peer): any bytes decode or
//! are an error, never a panic; what decodes encodes to bytes that decode and encode to the
//! same bytes (compared as bytes: a NaN in a PMT is not equal to itself). As a received
//! stream frame (`decode_frame`, at a receiving stream offset taken from the input, up to the
//! last items of a 2^64-item stream): never a panic, and every tag kept falls on one of the
//! frame's items, in order.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_interop::zmq::tag_header::{decode, decode_frame, encode};

fuzz_target!(|data: &[u8]| {
    if let Ok((header, _)) = decode(data) {
        let mut bytes = Vec::new();
        encode(header.offset, &header.tags, &mut bytes);
        let (again, used) = decode(&bytes).expect("our header decodes");
        assert_eq!(used, bytes.len());
        let mut twice = Vec::new();
        encode(again.offset, &again.tags, &mut twice);
        assert_eq!(twice, bytes);
    }
    let Some((&mode, frame)) = data.split_first() else {
        return;
    };
    // The receiving offset: near 0, or near the end of the stream (where sums wrap).
    let here = if mode & 1 == 0 {
        u64::from(mode)
    } else {
        u64::MAX - u64::from(mode)
    };
    let size = usize::from(mode >> 5) + 1;
    let mut tags = Vec::new();
    if let Ok(start) = decode_frame(frame, mode & 2 != 0, size, here, &mut tags) {
        let items = ((frame.len() - start) / size) as u64;
        assert_eq!((frame.len() - start) % size, 0);
        assert!(tags.windows(2).all(|w| w[0].offset <= w[1].offset));
        assert!(tags.iter().all(|t| t.offset >= here && t.offset - here < items));
    }
});
