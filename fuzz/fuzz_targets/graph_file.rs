//! Graph files (TOML written by users): any text builds a graph or is an error naming the
//! file, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // Paths in a fuzzed file must not touch real files: refuse the ones that would.
        if text.contains("path") {
            return;
        }
        match radioflow_graphfile::parse(text, "fuzz.toml") {
            Ok(graph) => {
                // Validation (buffer sizes, unconnected ports) must also only ever refuse.
                let _ = graph.flowgraph.validate();
            }
            Err(e) => assert!(e.to_string().starts_with("fuzz.toml: "), "{e}"),
        }
    }
});
