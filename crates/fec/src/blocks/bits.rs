//! Bytes to bits and back, as GNU Radio's `unpack_k_bits` / `pack_k_bits` kernels (`rev`:
//! least significant bit first).

/// The bits of `bytes`, most significant first (`rev`: least significant first).
pub(crate) fn unpack(bytes: &[u8], rev: bool, bits: &mut Vec<u8>) {
    bits.clear();
    for b in bytes {
        for j in 0..8 {
            let shift = if rev { j } else { 7 - j };
            bits.push((b >> shift) & 1);
        }
    }
}

/// `n` bytes of `bits` (missing bits 0), the first bit the most significant (`rev`: least).
pub(crate) fn pack(bits: &[u8], n: usize, rev: bool) -> Vec<u8> {
    (0..n)
        .map(|i| {
            (0..8).fold(0u8, |byte, j| {
                let bit = bits.get(8 * i + j).copied().unwrap_or(0) & 1;
                byte | bit << if rev { j } else { 7 - j }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_orders_round_trip() {
        let mut bits = Vec::new();
        unpack(&[0b1000_0011], false, &mut bits);
        assert_eq!(bits, [1, 0, 0, 0, 0, 0, 1, 1]);
        assert_eq!(pack(&bits, 1, false), [0b1000_0011]);
        unpack(&[0b1000_0011], true, &mut bits);
        assert_eq!(bits, [1, 1, 0, 0, 0, 0, 0, 1]);
        assert_eq!(pack(&bits, 1, true), [0b1000_0011]);
    }
}
