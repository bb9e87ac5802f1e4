//! The RDS decoder on any multiplex (recordings and receivers it did not make): any samples,
//! NaN and infinities included, at any supported rate and in any call sizes, decode to
//! events or nothing, never a panic; the station it reports holds printable text only.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_rds::Decoder;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let rate = 128_000.0 + f64::from(u16::from_le_bytes([data[0], data[1]])) * 4.0;
    let call = 1 + data[2] as usize;
    let samples: Vec<f32> = data[3..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut decoder = Decoder::new(rate).expect("rates from 128 kHz are supported");
    for chunk in samples.chunks(call) {
        let _ = decoder.process(chunk);
    }
    let station = decoder.station();
    let _ = format!("{station:?}");
});
