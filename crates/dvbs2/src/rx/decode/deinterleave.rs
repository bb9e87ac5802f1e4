//! Bit deinterleaving: the inverse of the transmitter's column/row interleaver (clause 5.3.3).

use crate::modcod::{CodeRate, Constellation, Modcod};

/// Moves per-symbol values (`bps` per symbol, label MSB first, as the demapper writes them)
/// into FECFRAME order: the value of label bit `c` of symbol `j` is FECFRAME bit
/// `col(c) · rows + j` (QPSK: bit `2j + c`), `col(c) = c` except for 8PSK 3/5 where the
/// columns are read in reverse (Figure 7).
///
/// # Panics
/// If `fec` is shorter than `per_symbol`.
pub fn deinterleave<T: Copy>(modcod: Modcod, per_symbol: &[T], fec: &mut [T]) {
    let bps = modcod.constellation().bits_per_symbol();
    let fec = &mut fec[..per_symbol.len()];
    if bps == 2 {
        fec.copy_from_slice(per_symbol);
        return;
    }
    let rows = per_symbol.len() / bps;
    let reversed = modcod.constellation() == Constellation::Psk8 && modcod.rate() == CodeRate::R3_5;
    for c in 0..bps {
        let col = if reversed { bps - 1 - c } else { c };
        let dst = &mut fec[col * rows..(col + 1) * rows];
        for (d, s) in dst.iter_mut().zip(per_symbol[c..].iter().step_by(bps)) {
            *d = *s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapper::interleave;

    #[test]
    fn inverts_the_transmitter_interleaver_for_every_modcod() {
        for m in Modcod::all() {
            let bps = m.constellation().bits_per_symbol();
            let fec: Vec<u8> = (0..16200u32).map(|i| ((i * 7919) >> 3) as u8 & 1).collect();
            let mut labels = vec![0u8; 16200 / bps];
            interleave(m, &fec, &mut labels);
            let per_symbol: Vec<u8> = labels
                .iter()
                .flat_map(|l| (0..bps).map(move |b| (l >> (bps - 1 - b)) & 1))
                .collect();
            let mut back = vec![9u8; 16200];
            deinterleave(m, &per_symbol, &mut back);
            assert!(back == fec, "{m}");
        }
    }
}
