//! The control connection of graphs across hosts (`radioflow serve` and the coordinator): any
//! bytes from a peer are read as length-prefixed JSON messages, a part is described and its
//! blocks checked against the library; an error ends the stream, never a panic, and every
//! message read sends again as the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    radioflow_hosts::fuzz::control_stream(data);
});
