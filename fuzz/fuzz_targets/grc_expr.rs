//! GRC parameter expressions (Python written by users and other tools), with the flowgraph's
//! variables: every line `name = expression` but the last is a variable, the last line is
//! evaluated. Any text is a value or an error, never a panic or a stack overflow (it runs on
//! a 2 MiB stack, a spawned thread's), never a value past the limits of depth and size,
//! never an error that repeats a long text whole; memory and time are bounded by the
//! limits (scripts/fuzz.sh runs it under libFuzzer's RSS limit and timeout).
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_graphfile::grc::{evaluate, Value, MAX_DEPTH, MAX_ITEMS};

/// Items (list elements at every depth, string bytes) and depth of a value.
fn measure(v: &Value) -> (usize, usize) {
    match v {
        Value::List(items) => items.iter().fold((items.len(), 1), |(n, d), x| {
            let (a, b) = measure(x);
            (n + a, d.max(b + 1))
        }),
        Value::Str(s) => (s.len(), 0),
        _ => (0, 0),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = text.to_owned();
    let run = move || {
        let mut lines: Vec<&str> = text.lines().collect();
        let expression = lines.pop().unwrap_or("");
        let variables: Vec<(&str, &str)> = lines
            .iter()
            .filter_map(|l| l.split_once('='))
            .map(|(n, v)| (n.trim(), v))
            .collect();
        match evaluate(expression, &variables) {
            Ok(v) => {
                let (items, depth) = measure(&v);
                assert!(items <= MAX_ITEMS && depth <= MAX_DEPTH, "{items} items, depth {depth}");
                let _ = (v.to_string(), v.to_pmt());
            }
            // Texts echoed in errors are cut (a variable's error names it and its text).
            Err(e) => assert!(e.to_string().len() < 2000, "{} bytes", e.to_string().len()),
        }
    };
    let thread = std::thread::Builder::new().stack_size(2 << 20).spawn(run).unwrap();
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
});
