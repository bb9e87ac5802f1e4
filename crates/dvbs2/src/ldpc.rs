//! LDPC inner code (clause 5.3.2) with the parity address tables of Annexes B and C.

use crate::ldpc_tables as t;
use crate::modcod::{CodeRate, FecParams, FrameSize};

/// The Annex B / C table of a code, in the format of [`crate::ldpc_tables`].
pub(crate) fn table(frame: FrameSize, rate: CodeRate) -> &'static [u16] {
    use CodeRate::*;
    match (frame, rate) {
        (FrameSize::Normal, R1_4) => t::NORMAL_1_4,
        (FrameSize::Normal, R1_3) => t::NORMAL_1_3,
        (FrameSize::Normal, R2_5) => t::NORMAL_2_5,
        (FrameSize::Normal, R1_2) => t::NORMAL_1_2,
        (FrameSize::Normal, R3_5) => t::NORMAL_3_5,
        (FrameSize::Normal, R2_3) => t::NORMAL_2_3,
        (FrameSize::Normal, R3_4) => t::NORMAL_3_4,
        (FrameSize::Normal, R4_5) => t::NORMAL_4_5,
        (FrameSize::Normal, R5_6) => t::NORMAL_5_6,
        (FrameSize::Normal, R8_9) => t::NORMAL_8_9,
        (FrameSize::Normal, R9_10) => t::NORMAL_9_10,
        (FrameSize::Short, R1_4) => t::SHORT_1_4,
        (FrameSize::Short, R1_3) => t::SHORT_1_3,
        (FrameSize::Short, R2_5) => t::SHORT_2_5,
        (FrameSize::Short, R1_2) => t::SHORT_1_2,
        (FrameSize::Short, R3_5) => t::SHORT_3_5,
        (FrameSize::Short, R2_3) => t::SHORT_2_3,
        (FrameSize::Short, R3_4) => t::SHORT_3_4,
        (FrameSize::Short, R4_5) => t::SHORT_4_5,
        (FrameSize::Short, R5_6) => t::SHORT_5_6,
        (FrameSize::Short, R8_9) => t::SHORT_8_9,
        (FrameSize::Short, R9_10) => unreachable!("FecParams rejects 9/10 short"),
    }
}

/// The table of a DVB-T2 code (EN 302 755): DVB-S2's, except normal 2/3 and short 3/5.
pub(crate) fn t2_table(frame: FrameSize, rate: CodeRate) -> &'static [u16] {
    match (frame, rate) {
        (FrameSize::Normal, CodeRate::R2_3) => crate::ldpc_tables_t2::T2_NORMAL_2_3,
        (FrameSize::Short, CodeRate::R3_5) => crate::ldpc_tables_t2::T2_SHORT_3_5,
        _ => table(frame, rate),
    }
}

/// Iterates the rows of a table: the parity addresses of information bits 0, 360, 720, ...
pub(crate) fn rows(table: &'static [u16]) -> impl Iterator<Item = &'static [u16]> {
    let mut rest = table;
    std::iter::from_fn(move || {
        let (&n, tail) = rest.split_first()?;
        let (row, tail) = tail.split_at(usize::from(n));
        rest = tail;
        Some(row)
    })
}

/// LDPC encoder of one code: Nldpc − Kldpc parity bits appended to Kldpc information bits.
///
/// With M = Nldpc − Kldpc = 360 q, information bit 360 r + m of an address x = c + q s
/// (c < q) lands on parity bit c + q ((s + m) mod 360). So in the layout `acc[c][k]` =
/// p[c + q k], each table entry XORs the 360 bits of group r, rotated by s, into one
/// contiguous row: two slice XORs the compiler vectorizes, instead of 360 scattered updates.
#[derive(Clone)]
pub(crate) struct LdpcEncoder {
    kldpc: usize,
    nparity: usize,
    /// q of clause 5.3.2: (Nldpc − Kldpc) / 360.
    q: usize,
    table: &'static [u16],
    /// q rows of 360 accumulators, `acc[c * 360 + k]` = p[c + q k] before the final XOR chain.
    acc: Vec<u8>,
}

impl LdpcEncoder {
    pub(crate) fn new(fec: &FecParams) -> Self {
        Self::with_table(fec, table(fec.frame, fec.rate))
    }

    /// The encoder of `fec`'s sizes with parity table `table` (a DVB-T2 code of its own).
    pub(crate) fn with_table(fec: &FecParams, table: &'static [u16]) -> Self {
        let nparity = fec.nldpc - fec.kldpc();
        debug_assert_eq!(rows(table).count() * 360, fec.kldpc());
        debug_assert_eq!(nparity % 360, 0);
        LdpcEncoder {
            kldpc: fec.kldpc(),
            nparity,
            q: nparity / 360,
            table,
            acc: vec![0; nparity],
        }
    }

    /// Writes the parity of `bits[..Kldpc]` into `bits[Kldpc..Nldpc]` (one bit per byte).
    pub(crate) fn encode(&mut self, bits: &mut [u8]) {
        let (info, parity) = bits.split_at_mut(self.kldpc);
        let parity = &mut parity[..self.nparity];
        let q = self.q;
        self.acc.fill(0);
        for (row, group) in rows(self.table).zip(info.chunks_exact(360)) {
            for &x in row {
                let (c, s) = (usize::from(x) % q, usize::from(x) / q);
                let acc = &mut self.acc[c * 360..(c + 1) * 360];
                // acc[(s + m) mod 360] ^= group[m]
                xor_into(&mut acc[s..], &group[..360 - s]);
                xor_into(&mut acc[..s], &group[360 - s..]);
            }
        }
        // p_j = acc(j) XOR p_{j-1} (clause 5.3.2's final running XOR), j = c + q k.
        let mut prev = 0u8;
        for (k, out) in parity.chunks_exact_mut(q).enumerate() {
            for (c, p) in out.iter_mut().enumerate() {
                prev ^= self.acc[c * 360 + k];
                *p = prev;
            }
        }
    }
}

#[inline]
fn xor_into(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Clause 5.3.2 word for word: accumulate every information bit at its addresses, then
    /// the running XOR.
    fn slow_encode(fec: &FecParams, bits: &mut [u8]) {
        let k = fec.kldpc();
        let m = fec.nldpc - k;
        let q = m / 360;
        let mut p = vec![0u8; m];
        for (r, row) in rows(table(fec.frame, fec.rate)).enumerate() {
            for mm in 0..360 {
                for &x in row {
                    p[(usize::from(x) + mm * q) % m] ^= bits[r * 360 + mm];
                }
            }
        }
        for i in 1..m {
            p[i] ^= p[i - 1];
        }
        bits[k..].copy_from_slice(&p);
    }

    /// Checks H·c = 0 with H written out from clause 5.3.2 as sparse rows: row j holds p_j,
    /// p_{j-1} (j > 0) and every information bit i with an address equal to j.
    fn parity_checks_hold(fec: &FecParams, c: &[u8]) -> bool {
        let k = fec.kldpc();
        let m = fec.nldpc - k;
        let q = m / 360;
        let mut h_rows: Vec<Vec<usize>> = (0..m)
            .map(|j| {
                if j == 0 {
                    vec![k]
                } else {
                    vec![k + j, k + j - 1]
                }
            })
            .collect();
        for (r, row) in rows(table(fec.frame, fec.rate)).enumerate() {
            for mm in 0..360 {
                for &x in row {
                    h_rows[(usize::from(x) + mm * q) % m].push(r * 360 + mm);
                }
            }
        }
        h_rows
            .iter()
            .all(|cols| cols.iter().fold(0u8, |acc, &i| acc ^ c[i]) == 0)
    }

    #[test]
    fn every_code_satisfies_its_parity_check_matrix() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for frame in [FrameSize::Normal, FrameSize::Short] {
            for rate in CodeRate::ALL {
                let Ok(fec) = FecParams::new(frame, rate) else {
                    continue;
                };
                let mut enc = LdpcEncoder::new(&fec);
                let mut c = vec![0u8; fec.nldpc];
                for b in &mut c[..fec.kldpc()] {
                    *b = rng.gen_range(0..2);
                }
                let mut slow = c.clone();
                enc.encode(&mut c);
                slow_encode(&fec, &mut slow);
                assert!(
                    c == slow,
                    "{frame:?} {rate}: differs from the clause 5.3.2 encoder"
                );
                assert!(parity_checks_hold(&fec, &c), "{frame:?} {rate}");
                // Encoding twice gives the same (the accumulators are reset).
                let again = c.clone();
                enc.encode(&mut c);
                assert!(c == again);
                // A flipped parity bit must break a check (the test can fail).
                c[fec.nldpc - 1] ^= 1;
                assert!(!parity_checks_hold(&fec, &c));
            }
        }
    }

    #[test]
    fn tables_have_the_row_count_and_address_range_of_the_code() {
        for frame in [FrameSize::Normal, FrameSize::Short] {
            for rate in CodeRate::ALL {
                let Ok(fec) = FecParams::new(frame, rate) else {
                    continue;
                };
                let tab = table(frame, rate);
                assert_eq!(rows(tab).count() * 360, fec.kldpc(), "{frame:?} {rate}");
                let m = fec.nldpc - fec.kldpc();
                assert!(rows(tab).flatten().all(|&x| usize::from(x) < m));
                assert!(rows(tab).all(|r| r.len() <= 32 && !r.is_empty()));
                let t2 = t2_table(frame, rate);
                assert_eq!(rows(t2).count() * 360, fec.kldpc(), "T2 {frame:?} {rate}");
                assert!(rows(t2).flatten().all(|&x| usize::from(x) < m));
            }
        }
    }
}
