//! The field sync segment (ATSC A/53 Part 2, 5.4, figure 5.8): the segment sync, PN511, three
//! PN63 (the middle one inverted in the second field), the 24 symbols of the VSB mode, 92
//! reserved symbols (as gr-dtv writes them: PN63 again, from its start, and 29 more), and the
//! last 12 symbols of the previous data segment (the precode symbols). Binary symbols are sent
//! at levels +5 (1) and -5 (0).

use crate::layout::SEGMENT;
use crate::trellis::SEGMENT_SYNC;

/// Symbols the field sync repeats from the previous segment.
pub(crate) const SAVED: usize = 12;

/// The 8-VSB mode symbols (A/53 Part 2, 5.4).
const VSB_MODE: [u8; 24] = [
    0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0,
];

/// `n` bits of the sequence of recurrence s[k + `degree`] = XOR of s[k + t] for t in `taps`,
/// starting with `start` (the shift register's preload, read from its output end).
fn sequence<const N: usize>(start: &[u8], taps: &[usize]) -> [u8; N] {
    let mut s = [0u8; N];
    s[..start.len()].copy_from_slice(start);
    for k in 0..N - start.len() {
        s[k + start.len()] = taps.iter().fold(0, |acc, &t| acc ^ s[k + t]);
    }
    s
}

/// PN511: generator X^9 + X^7 + X^6 + X^4 + X^3 + X + 1, preload 010000000.
pub fn pn511() -> [u8; 511] {
    sequence(&[0, 0, 0, 0, 0, 0, 0, 1, 0], &[0, 1, 3, 4, 6, 7])
}

/// PN63: generator X^6 + X + 1, preload 100111.
pub fn pn63() -> [u8; 63] {
    sequence(&[1, 1, 1, 0, 0, 1], &[0, 1])
}

/// The 828 symbols of a field sync after the segment sync but for the last 12, for field 1
/// or 2, built once.
#[derive(Debug, Clone)]
pub struct FieldSync {
    fields: [[u8; SEGMENT]; 2],
}

impl Default for FieldSync {
    fn default() -> Self {
        Self::new()
    }
}

impl FieldSync {
    /// Both fields' segments.
    pub fn new() -> Self {
        let level = |bit: u8| if bit != 0 { 6 } else { 1 };
        let (p511, p63) = (pn511(), pn63());
        let make = |invert: u8| {
            let mut seg = [0u8; SEGMENT];
            let bits = p511
                .iter()
                .copied()
                .chain(p63.iter().copied())
                .chain(p63.iter().map(|&b| b ^ invert))
                .chain(p63.iter().copied())
                .chain(VSB_MODE)
                .chain((0..92).map(|j| p63[j % 63]));
            seg[..4].copy_from_slice(&SEGMENT_SYNC);
            for (s, b) in seg[4..SEGMENT - SAVED].iter_mut().zip(bits) {
                *s = level(b);
            }
            seg
        };
        Self {
            fields: [make(0), make(1)],
        }
    }

    /// Writes into `out` (832 symbols) the field sync of field 2 or 1 ending with `saved`.
    pub fn write(&self, field2: bool, saved: &[u8; SAVED], out: &mut [u8]) {
        out.copy_from_slice(&self.fields[usize::from(field2)]);
        out[SEGMENT - SAVED..].copy_from_slice(saved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn period(s: &[u8], len: usize) -> bool {
        // A maximal-length sequence: every non-zero window of its degree once a period.
        let degree = (len + 1).trailing_zeros() as usize;
        let mut seen = std::collections::HashSet::new();
        for k in 0..len {
            let w: Vec<u8> = (0..degree).map(|i| s[(k + i) % len]).collect();
            seen.insert(w);
        }
        seen.len() == len
    }

    #[test]
    fn the_sequences_are_maximal_length() {
        assert!(period(&pn511(), 511));
        assert!(period(&pn63(), 63));
        assert_eq!(pn511().iter().filter(|&&b| b == 1).count(), 256);
    }

    #[test]
    fn fields_differ_in_the_middle_pn63_only() {
        let fs = FieldSync::new();
        let saved = [3u8; SAVED];
        let (mut a, mut b) = ([0u8; SEGMENT], [0u8; SEGMENT]);
        fs.write(false, &saved, &mut a);
        fs.write(true, &saved, &mut b);
        let differ: Vec<usize> = (0..SEGMENT).filter(|&k| a[k] != b[k]).collect();
        assert_eq!(differ, (4 + 511 + 63..4 + 511 + 126).collect::<Vec<_>>());
        assert_eq!(a[SEGMENT - SAVED..], saved);
    }
}
