//! SigMF archives (tar files from other tools and users, GNU, pax and ustar formats): any
//! bytes give the span of the recording's data or an error naming the archive, never a panic;
//! the span lies inside the archive (the data is read in place from it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_interop::sigmf::archive_data_span;

fuzz_target!(|data: &[u8]| {
    match archive_data_span(data) {
        Ok((offset, len)) => {
            let end = offset.checked_add(len).expect("the span does not overflow");
            assert!(end <= data.len() as u64, "{offset} + {len} > {}", data.len());
        }
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains("fuzz.sigmf"), "{text}");
            assert!(text.len() < 1500, "a long echo: {} bytes", text.len());
        }
    }
});
