//! Scheduler specs (`flow:workers=2,pin`, from the command line, Python and graph files):
//! any string is a spec or an error, and a spec prints as a string that parses back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_runtime::SchedulerSpec;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(spec) = text.parse::<SchedulerSpec>() {
            let printed = spec.to_string();
            let again: SchedulerSpec = printed.parse().expect("a printed spec parses");
            assert_eq!(again, spec, "{text:?} -> {printed:?}");
        }
        let _ = SchedulerSpec::parse_list(text);
    }
});
