//! PMT deserialization (GNU Radio's wire format, as read from ZeroMQ, files and other
//! programs): any bytes are a value or an error, never a panic, a hang or a stack overflow;
//! a value read back from its own serialization serializes to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_pmt::Pmt;

fuzz_target!(|data: &[u8]| {
    if let Ok((value, used)) = Pmt::deserialize(data) {
        assert!(used <= data.len());
        let bytes = value.to_bytes();
        let again = Pmt::from_bytes(&bytes).expect("our own serialization reads back");
        // Compared as bytes: a NaN double is not equal to itself.
        assert_eq!(again.to_bytes(), bytes);
        let _ = value.to_string();
    }
    let _ = Pmt::from_bytes(data);
});
