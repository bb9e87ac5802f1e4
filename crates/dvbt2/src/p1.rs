//! [`p1_symbol`]: DVB-T2's P1 preamble symbol, as gr-dtv's `dvbt2_p1insertion_cc` makes it.

use crate::p1_tables::{ACTIVE_CARRIERS, S1_PATTERNS, S2_PATTERNS};
use num_complex::Complex32;

/// Samples of the P1 symbol: C (542), A (1024), B (482).
pub const P1_LEN: usize = 2048;

/// P1's scrambling sequence (ETSI EN 302 755 clause 7.2.2.3): ±1 by the bits of the PRBS
/// 1 + x^14 + x^15 started at 0x4E46.
fn randomizer() -> [f32; 384] {
    let mut sr = 0x4e46u32;
    std::array::from_fn(|_| {
        let b = (sr ^ (sr >> 1)) & 1;
        sr = (sr >> 1) | (b << 14);
        if b == 0 {
            1.0
        } else {
            -1.0
        }
    })
}

/// A 1024-point inverse FFT of `carriers` (carrier 512 at DC), divided by √384 as gr-dtv's.
fn to_time(carriers: &[Complex32; 1024]) -> Vec<Complex32> {
    let mut x: Vec<Complex32> = carriers[512..]
        .iter()
        .chain(&carriers[..512])
        .copied()
        .collect();
    radioflow_fftplan::inverse(1024).process(&mut x);
    let norm = 384f64.sqrt() as f32;
    x.iter_mut().for_each(|v| *v /= norm);
    x
}

/// The P1 symbol of S1 value `s1` (0: T2 SISO, 1: T2 MISO, 2: non-T2, 3: T2-Lite SISO,
/// 4: T2-Lite MISO) and S2 field 1 `s2` (the FFT size's code, 0 to 7; S2's last bit, "mixed",
/// is 0 as gr-dtv sends it): the 384 bits of S1, S2, S1 differentially BPSK-modulated and
/// scrambled on P1's active carriers, A their 1K inverse FFT, C and B A shifted by one carrier
/// (clause 7.2.2), sent as C, A, B.
///
/// # Panics
/// If `s1` > 7 or `s2` > 7.
pub fn p1_symbol(s1: u8, s2: u8) -> [Complex32; P1_LEN] {
    let (s1, s2) = (
        &S1_PATTERNS[usize::from(s1)],
        &S2_PATTERNS[usize::from(s2) << 1],
    );
    let bits = s1
        .iter()
        .chain(s2)
        .chain(s1)
        .flat_map(|&byte| (0..8).rev().map(move |j| (byte >> j) & 1));
    let scramble = randomizer();
    let mut carriers = [Complex32::new(0.0, 0.0); 1024];
    let mut level = 1.0f32;
    for ((bit, &k), r) in bits.zip(&ACTIVE_CARRIERS).zip(scramble) {
        if bit == 1 {
            level = -level;
        }
        carriers[usize::from(k) + 86] = Complex32::new(level * r, 0.0);
    }
    let a = to_time(&carriers);
    let mut shifted = [Complex32::new(0.0, 0.0); 1024];
    shifted[1..].copy_from_slice(&carriers[..1023]);
    shifted[0] = carriers[1023];
    let b = to_time(&shifted);
    let mut p1 = [Complex32::new(0.0, 0.0); P1_LEN];
    p1[..542].copy_from_slice(&b[..542]);
    p1[542..1566].copy_from_slice(&a);
    p1[1566..].copy_from_slice(&b[542..]);
    p1
}
