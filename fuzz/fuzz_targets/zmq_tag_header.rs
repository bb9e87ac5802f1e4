//! gr-zeromq's tag header (the start of every ZeroMQ message from a peer): any bytes decode or
//! are an error, never a panic; what decodes encodes to bytes that decode and encode to the
//! same bytes (compared as bytes: a NaN in a PMT is not equal to itself).
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_interop::zmq::tag_header::{decode, encode};

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
});
