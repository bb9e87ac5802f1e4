//! gr-zeromq's tag header on messages from the network (a GNU Radio peer, or anything that
//! connects): any bytes are a header decoded or refused with a reason, never a panic, and a
//! header decoded encodes back to the same bytes when its source ids are GNU Radio's default.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_blocks::zmq_tag_header::{decode, encode};

fuzz_target!(|data: &[u8]| {
    let Ok((header, used)) = decode(data) else {
        return;
    };
    assert!(used <= data.len());
    let mut again = Vec::new();
    encode(header.offset, &header.tags, &mut again);
    // Decoding what we encode gives the same header (source ids aside: we write #f), compared
    // as bytes (a NaN value is not equal to itself).
    let (back, n) = decode(&again).expect("our own header decodes");
    assert_eq!(n, again.len());
    assert_eq!((back.offset, back.tags.len()), (header.offset, header.tags.len()));
    let mut third = Vec::new();
    encode(back.offset, &back.tags, &mut third);
    assert_eq!(third, again);
});
