//! [`CarrierAllocator`]: data and pilot symbols placed on the carriers of OFDM symbols.

use crate::error::{check, ParamError};
use num_complex::Complex32;

/// Places a frame of data symbols onto the carriers of OFDM symbols, as GNU Radio's
/// `ofdm_carrier_allocator_cvc`: data symbols fill the carriers of `occupied[0]` in order,
/// then of `occupied[1]`, and so on in turn (a new OFDM symbol for each set); the pilots of
/// set `i % pilot_carriers.len()` with the values of set `i % pilot_symbols.len()` go onto
/// OFDM symbol `i` of the frame (after the data, so a pilot wins over data on the same
/// carrier); the sync words go first, as they are. Carrier `k` is the `k`-th above DC, `-k`
/// (or `fft_len - k`) the `k`-th below; with `shifted` the output has DC in the middle
/// (carrier `k` at `(k + fft_len/2) mod fft_len`). Carriers not given are 0.
///
/// ```
/// use radioflow_dsp::{CarrierAllocator, Complex32};
/// let one = Complex32::new(1.0, 0.0);
/// let a = CarrierAllocator::new(4, &[vec![1, -1]], &[vec![2]], &[vec![one * 9.0]], &[], false)?;
/// assert_eq!(a.frame_len(3), 2);
/// let mut y = vec![Complex32::default(); 8];
/// a.allocate(&[one, one * 2.0, one * 3.0], &mut y);
/// let re: Vec<f32> = y.iter().map(|z| z.re).collect();
/// assert_eq!(re, [0.0, 1.0, 9.0, 2.0, 0.0, 3.0, 9.0, 0.0]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CarrierAllocator {
    fft_len: usize,
    /// Output positions of each set's data carriers.
    occupied: Vec<Vec<usize>>,
    /// Output positions of each set's pilots.
    pilots: Vec<Vec<usize>>,
    pilot_symbols: Vec<Vec<Complex32>>,
    /// Sync words, flattened (`fft_len` each).
    sync: Vec<Complex32>,
}

impl CarrierAllocator {
    /// An allocator of OFDM symbols of `fft_len` carriers.
    ///
    /// # Errors
    /// If `fft_len` is 0; a set of `occupied` is empty or no set is given; a carrier is
    /// not in `-fft_len..fft_len`; a pilot set's length differs from its symbols' (sets
    /// taken in turn as the OFDM symbols use them); a sync word is not `fft_len` long. The
    /// error names the parameter.
    pub fn new(
        fft_len: usize,
        occupied: &[Vec<i64>],
        pilot_carriers: &[Vec<i64>],
        pilot_symbols: &[Vec<Complex32>],
        sync_words: &[Vec<Complex32>],
        shifted: bool,
    ) -> Result<Self, ParamError> {
        check(fft_len > 0, "fft_len", || "must be at least 1".into())?;
        check(
            !occupied.is_empty() && occupied.iter().all(|s| !s.is_empty()),
            "occupied_carriers",
            || "every OFDM symbol needs at least one occupied carrier".into(),
        )?;
        let n = fft_len as i64;
        let offset = if shifted { fft_len / 2 } else { 0 };
        let place = |name: &'static str, sets: &[Vec<i64>]| {
            sets.iter()
                .map(|set| {
                    set.iter()
                        .map(|&k| {
                            check((-n..n).contains(&k), name, || {
                                format!("carrier {k} is outside -{n}..{n}")
                            })?;
                            Ok((k.rem_euclid(n) as usize + offset) % fft_len)
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, ParamError>>()
        };
        let occupied = place("occupied_carriers", occupied)?;
        let pilots = place("pilot_carriers", pilot_carriers)?;
        let (np, ns) = (pilots.len(), pilot_symbols.len());
        check(
            (0..np.max(ns)).all(|i| {
                let carriers = if np == 0 { 0 } else { pilots[i % np].len() };
                let symbols = if ns == 0 {
                    0
                } else {
                    pilot_symbols[i % ns].len()
                };
                carriers == symbols
            }),
            "pilot_symbols",
            || "each set of pilot symbols must have as many symbols as its pilot carriers".into(),
        )?;
        check(
            sync_words.iter().all(|w| w.len() == fft_len),
            "sync_words",
            || format!("each sync word is {fft_len} values (fft_len)"),
        )?;
        Ok(Self {
            fft_len,
            occupied,
            pilots,
            pilot_symbols: pilot_symbols.to_vec(),
            sync: sync_words.concat(),
        })
    }

    /// Carriers per OFDM symbol.
    pub fn fft_len(&self) -> usize {
        self.fft_len
    }

    /// The sync words of a frame.
    pub fn sync_words(&self) -> usize {
        self.sync.len() / self.fft_len
    }

    /// The OFDM symbol (counted from the first after the sync words) that data symbol `k`
    /// of a frame goes onto.
    pub fn symbol_of(&self, k: usize) -> usize {
        let per_turn: usize = self.occupied.iter().map(Vec::len).sum();
        let mut symbol = k / per_turn * self.occupied.len();
        let mut rest = k % per_turn;
        for set in &self.occupied {
            if rest < set.len() {
                break;
            }
            rest -= set.len();
            symbol += 1;
        }
        symbol
    }

    /// OFDM symbols (sync words included) for a frame of `n` data symbols.
    pub fn frame_len(&self, n: usize) -> usize {
        let data = if n == 0 { 0 } else { self.symbol_of(n - 1) + 1 };
        self.sync_words() + data
    }

    /// The frame of data symbols `x` into the first [`frame_len`](Self::frame_len)` ·
    /// fft_len` values of `y`.
    ///
    /// # Panics
    /// If `y` is shorter.
    pub fn allocate(&self, x: &[Complex32], y: &mut [Complex32]) {
        let symbols = self.frame_len(x.len());
        let y = &mut y[..symbols * self.fft_len];
        y.fill(Complex32::default());
        let (sync, data) = y.split_at_mut(self.sync.len());
        sync.copy_from_slice(&self.sync);
        let mut x = x.iter();
        for (i, out) in data.chunks_exact_mut(self.fft_len).enumerate() {
            for (&at, &v) in self.occupied[i % self.occupied.len()].iter().zip(&mut x) {
                out[at] = v;
            }
            if !self.pilots.is_empty() && !self.pilot_symbols.is_empty() {
                let values = &self.pilot_symbols[i % self.pilot_symbols.len()];
                for (&at, &v) in self.pilots[i % self.pilots.len()].iter().zip(values) {
                    out[at] = v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(re: f32, im: f32) -> Complex32 {
        Complex32::new(re, im)
    }

    #[test]
    fn frames_as_gnu_radio_places_them() {
        // GNU Radio 3.10: ofdm_carrier_allocator_cvc(8, ((1,2,3),(1,2,-1)), ((-2,),(-3,)),
        // ((100,),(200j,)), ((1,)*8, (2,)*8), "len", True) on 1..=7.
        let a = CarrierAllocator::new(
            8,
            &[vec![1, 2, 3], vec![1, 2, -1]],
            &[vec![-2], vec![-3]],
            &[vec![c(100.0, 0.0)], vec![c(0.0, 200.0)]],
            &[vec![c(1.0, 0.0); 8], vec![c(2.0, 0.0); 8]],
            true,
        )
        .unwrap();
        let x: Vec<Complex32> = (1..=7).map(|k| c(k as f32, 0.0)).collect();
        assert_eq!(a.frame_len(7), 5);
        assert_eq!((a.symbol_of(0), a.symbol_of(4), a.symbol_of(6)), (0, 1, 2));
        let mut y = vec![Complex32::default(); 40];
        a.allocate(&x, &mut y);
        let row = |i: usize| y[i * 8..(i + 1) * 8].to_vec();
        let r = |v: &[f32]| v.iter().map(|&x| c(x, 0.0)).collect::<Vec<_>>();
        assert_eq!(row(0), r(&[1.0; 8]));
        assert_eq!(row(2), r(&[0.0, 0.0, 100.0, 0.0, 0.0, 1.0, 2.0, 3.0]));
        let mut want = r(&[0.0, 0.0, 0.0, 6.0, 0.0, 4.0, 5.0, 0.0]);
        want[1] = c(0.0, 200.0);
        assert_eq!(row(3), want);
        assert_eq!(row(4), r(&[0.0, 0.0, 100.0, 0.0, 0.0, 7.0, 0.0, 0.0]));
    }

    #[test]
    fn bad_parameters_are_named() {
        let name =
            |occ: &[Vec<i64>], pc: &[Vec<i64>], ps: &[Vec<Complex32>], sw: &[Vec<Complex32>]| {
                CarrierAllocator::new(8, occ, pc, ps, sw, false)
                    .unwrap_err()
                    .name
            };
        let one = vec![c(1.0, 0.0)];
        assert_eq!(name(&[], &[], &[], &[]), "occupied_carriers");
        assert_eq!(name(&[vec![1], vec![]], &[], &[], &[]), "occupied_carriers");
        assert_eq!(name(&[vec![8]], &[], &[], &[]), "occupied_carriers");
        assert_eq!(
            name(&[vec![1]], &[vec![-9]], std::slice::from_ref(&one), &[]),
            "pilot_carriers"
        );
        assert_eq!(
            name(
                &[vec![1]],
                &[vec![4]],
                &[one.clone(), vec![c(1.0, 0.0); 2]],
                &[]
            ),
            "pilot_symbols"
        );
        assert_eq!(
            name(&[vec![1]], &[], &[], &[vec![c(1.0, 0.0); 7]]),
            "sync_words"
        );
        assert!(CarrierAllocator::new(8, &[vec![-8, 7]], &[vec![]], &[vec![]], &[], true).is_ok());
    }
}
