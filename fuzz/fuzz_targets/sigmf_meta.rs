//! SigMF metadata (JSON from other tools and users): any bytes parse or are an error naming
//! the file, never a panic; what parses becomes tags and back, and writes JSON that parses to
//! the same document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_interop::sigmf::{stream_tags, CaptureLog, Metadata};
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let file = Path::new("fuzz.sigmf-meta");
    match Metadata::parse(file, data) {
        Ok(meta) => {
            let mut log = CaptureLog::new(meta.global.datatype, None);
            for tag in stream_tags(&meta) {
                log.add(&tag);
            }
            let _ = log.finish().to_json();
            let again = Metadata::parse(file, meta.to_json().as_bytes()).expect("our JSON parses");
            assert_eq!(again, meta);
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.sigmf-meta: "), "{e}"),
    }
});
