//! DVB-S2 BBFRAMEs off the air (a receiver sees whatever was sent, or noise that passed the
//! LDPC): any bytes as a sequence of frames are headers parsed or refused, and the
//! depacketizer turns them into packets of the signalled length, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_dvbs2::rx::{BbHeader, Depacketizer};

/// Kbch of some codes (bits): QPSK 1/4 short, 8/9 short, 3/5 normal, 9/10 normal.
const KBCH: [usize; 4] = [3072, 14232, 38688, 58192];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let kbch = KBCH[usize::from(pick) % KBCH.len()];
    let len = kbch / 8;
    let mut d = Depacketizer::new();
    let mut frame = vec![0u8; len];
    for (i, chunk) in rest.chunks(64).enumerate() {
        // Each input chunk fills the start of a frame (header and first bytes), the rest is a
        // pattern: whole frames from a short input.
        frame.iter_mut().enumerate().for_each(|(j, b)| *b = (j as u8).wrapping_mul(31) ^ i as u8);
        frame[..chunk.len()].copy_from_slice(chunk);
        let header = BbHeader::parse(&frame, kbch).ok();
        let mut packets = 0usize;
        d.push(header.as_ref(), &frame, pick & 0x80 == 0, &mut |p: &[u8]| {
            // A packet is at most UPL bits (16 bits of it), a continuous stream's field a frame.
            assert!(p.len() <= usize::from(u16::MAX) / 8 + 1 || p.len() <= len);
            packets += 1;
        });
    }
    d.flush(&mut |_| {});
});
