//! GNU Radio Companion flowgraphs (YAML from other tools and users): any text builds a graph
//! or is an error naming the file, never a panic; expressions are evaluated, never run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // A fuzzed file sink or source must not touch real files.
        if text.replace("file_format", "").contains("file") {
            return;
        }
        if let Err(e) = radioflow_graphfile::parse_grc(text, "fuzz.grc") {
            assert!(e.to_string().starts_with("fuzz.grc: "), "{e}");
        }
    }
});
