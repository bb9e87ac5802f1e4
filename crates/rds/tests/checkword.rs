//! The block code of IEC 62106-1 / EN 50067 (§2.3, Annexes A–C) against a naive polynomial
//! division written here, and against the standard's published offset-word syndromes.

use radioflow_rds::{
    checkword, encode_block, syndrome, BurstCorrector, Offset, BLOCK_BITS, MAX_BURST,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// g(x) = x^10 + x^8 + x^7 + x^5 + x^4 + x^3 + 1, coefficients from x^10 down to x^0.
const G: [u8; 11] = [1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1];

/// Remainder of the polynomial `dividend` (coefficients from the highest power down) divided
/// by `divisor` (same order, leading 1), over GF(2), by schoolbook long division.
fn remainder(dividend: &[u8], divisor: &[u8]) -> Vec<u8> {
    let mut r = dividend.to_vec();
    let d = divisor.len();
    for i in 0..=r.len() - d {
        if r[i] == 1 {
            for j in 0..d {
                r[i + j] ^= divisor[j];
            }
        }
    }
    r[r.len() - (d - 1)..].to_vec()
}

fn bits(value: u32, n: usize) -> Vec<u8> {
    (0..n).rev().map(|i| ((value >> i) & 1) as u8).collect()
}

fn value(bits: &[u8]) -> u32 {
    bits.iter().fold(0, |v, &b| (v << 1) | u32::from(b))
}

/// The checkword by the standard's definition: m(x)·x^10 mod g(x).
fn naive_checkword(info: u16) -> u16 {
    let mut m = bits(u32::from(info), 16);
    m.extend([0; 10]);
    value(&remainder(&m, &G)) as u16
}

/// The syndrome with the standard's parity-check matrix H (Annex B), whose row for the
/// i-th transmitted bit is x^i mod g*(x), g* = reciprocal of g, written x^0 first: the
/// block read first-bit-as-x^0, reduced mod g*, written x^0 first.
fn naive_syndrome(block: u32) -> u16 {
    let g_star: Vec<u8> = G.iter().rev().copied().collect(); // reciprocal, highest first
                                                             // Block as a polynomial with the first transmitted bit as x^0: highest power first is
                                                             // the last transmitted bit first.
    let y: Vec<u8> = bits(block, BLOCK_BITS as usize).into_iter().rev().collect();
    let r = remainder(&y, &g_star); // x^9 .. x^0
    let x0_first: Vec<u8> = r.into_iter().rev().collect();
    value(&x0_first) as u16
}

#[test]
fn checkwords_match_naive_division() {
    let mut rng = StdRng::seed_from_u64(62106);
    let mut infos: Vec<u16> = (0..2000).map(|_| rng.r#gen()).collect();
    infos.extend([0, 1, 0x8000, 0xFFFF]);
    for info in infos {
        assert_eq!(checkword(info), naive_checkword(info), "info {info:04X}");
    }
}

#[test]
fn syndromes_match_naive_division() {
    let mut rng = StdRng::seed_from_u64(50067);
    for _ in 0..2000 {
        let block = rng.r#gen::<u32>() & ((1 << BLOCK_BITS) - 1);
        assert_eq!(syndrome(block), naive_syndrome(block), "block {block:07X}");
    }
    // Row 10 of H as printed in the standard: 1011011100.
    assert_eq!(syndrome(1 << (BLOCK_BITS - 1 - 10)), 0b10_1101_1100);
}

#[test]
fn codewords_have_zero_syndrome_and_offsets_their_own() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..500 {
        let info: u16 = rng.r#gen();
        let codeword = (u32::from(info) << 10) | u32::from(checkword(info));
        assert_eq!(syndrome(codeword), 0);
        for offset in Offset::ALL {
            assert_eq!(syndrome(encode_block(info, offset)), offset.syndrome());
            assert_eq!(Offset::from_syndrome(offset.syndrome()), Some(offset));
        }
    }
}

/// EN 50067:1998 Annex A, Table A.1 (offset words) and Annex C, Table C.1 (their syndromes
/// with the matrix H of Annex B); the same values are in IEC 62106:2015.
#[test]
fn offset_words_and_syndromes_as_published() {
    let table = [
        (Offset::A, 0b0011111100, 0b1111011000),
        (Offset::B, 0b0110011000, 0b1111010100),
        (Offset::C, 0b0101101000, 0b1001011100),
        (Offset::CPrime, 0b1101010000, 0b1111001100),
        (Offset::D, 0b0110110100, 0b1001011000),
    ];
    for (offset, word, published_syndrome) in table {
        assert_eq!(offset.word(), word, "{offset:?}");
        assert_eq!(offset.syndrome(), published_syndrome, "{offset:?}");
        assert_eq!(
            naive_syndrome(u32::from(word)),
            published_syndrome,
            "{offset:?}"
        );
    }
}

#[test]
fn every_burst_up_to_five_bits_is_corrected_and_distinct() {
    let corrector = BurstCorrector::new(MAX_BURST);
    let mut seen = std::collections::HashMap::new();
    let mut rng = StdRng::seed_from_u64(11);
    for len in 1..=u32::from(MAX_BURST) {
        for start in 0..=BLOCK_BITS - len {
            // Bursts of exactly `len` bits: first and last set, the inner ones any.
            for inner in 0..(1u32 << len.saturating_sub(2)) {
                let pattern = if len == 1 {
                    1
                } else {
                    (1 << (len - 1)) | (inner << 1) | 1
                } << start;
                if let Some(other) = seen.insert(syndrome(pattern), pattern) {
                    panic!("bursts {other:07X} and {pattern:07X} share a syndrome");
                }
                let info: u16 = rng.r#gen();
                let block = encode_block(info, Offset::D);
                assert_eq!(
                    corrector.correct(block ^ pattern, Offset::D),
                    Some((block, true)),
                    "pattern {pattern:07X}"
                );
            }
        }
    }
    assert!(seen.len() > 300);
}

#[test]
fn conservative_corrector_leaves_longer_bursts_alone() {
    let corrector = BurstCorrector::new(2);
    let block = encode_block(0xBEEF, Offset::B);
    assert_eq!(corrector.correct(block, Offset::B), Some((block, false)));
    assert_eq!(
        corrector.correct(block ^ 0b11 << 7, Offset::B),
        Some((block, true))
    );
    // A 3-bit burst is not corrected by the 2-bit corrector (but by the 5-bit one).
    let burst3 = 0b101 << 12;
    assert_ne!(
        corrector.correct(block ^ burst3, Offset::B),
        Some((block, true))
    );
    assert_eq!(
        BurstCorrector::new(5).correct(block ^ burst3, Offset::B),
        Some((block, true))
    );
    // Detection only.
    assert_eq!(BurstCorrector::new(0).correct(block ^ 1, Offset::B), None);
}
