//! The reference signals of ETSI EN 300 744 clause 4.5 and the TPS of clause 4.6 placed among
//! a symbol's data cells: [`ReferenceSignals`] fills carriers 0 to K_max of one OFDM symbol
//! after another, counting symbols (68 a frame) and frames (4 a super-frame).

use crate::params::Mode;
use crate::pilot_tables::{CONTINUAL, CONTINUAL_2K, TPS, TPS_2K};
use crate::tps::{tps_bits, TpsSettings};
use num_complex::Complex32;

/// OFDM symbols a frame (clause 4.4).
pub const SYMBOLS_PER_FRAME: usize = 68;
/// Frames a super-frame (clause 4.4).
pub const FRAMES_PER_SUPERFRAME: usize = 4;

/// What a carrier of a symbol holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Carrier {
    Data,
    /// Scattered or continual pilot: boosted, 4/3 · 2(1/2 - w_k) (clause 4.5.5).
    Pilot,
    /// The TPS carrier of this index in the table.
    Tps(usize),
}

/// Pilots and TPS around the data cells of one OFDM symbol after another.
#[derive(Debug, Clone)]
pub struct ReferenceSignals {
    settings: TpsSettings,
    /// w_k for carriers 0 to K_max (clause 4.5.2: x^11 + x^2 + 1, all ones at first).
    wk: Vec<u8>,
    /// Each carrier's role, by the symbol index modulo 4 (the scattered pilots move by 3
    /// carriers a symbol, clause 4.5.3).
    layout: [Vec<Carrier>; 4],
    /// The TPS carriers' last values (DBPSK: each symbol's flips the previous one's).
    tps_values: Vec<f32>,
    /// The frame's TPS bits.
    tps: [u8; 68],
    symbol: usize,
    frame: usize,
}

impl ReferenceSignals {
    /// Frames in `settings.mode` with the TPS of `settings`, from symbol 0 of frame 0.
    pub fn new(settings: TpsSettings) -> Self {
        let mode = settings.mode;
        let carriers = mode.kmax() + 1;
        let mut reg: u16 = 0x7ff;
        let wk: Vec<u8> = (0..carriers)
            .map(|_| {
                let w = (reg & 1) as u8;
                let new = ((reg >> 2) ^ reg) & 1;
                reg = (reg >> 1) | (new << 10);
                w
            })
            .collect();
        let (continual, tps) = match mode {
            Mode::T2k => (&CONTINUAL[..CONTINUAL_2K], &TPS[..TPS_2K]),
            Mode::T8k => (&CONTINUAL[..], &TPS[..]),
        };
        let layout = std::array::from_fn(|l| {
            let mut c = vec![Carrier::Data; carriers];
            for k in (3 * l..carriers).step_by(12) {
                c[k] = Carrier::Pilot;
            }
            for &k in continual {
                c[k as usize] = Carrier::Pilot;
            }
            for (i, &k) in tps.iter().enumerate() {
                c[k as usize] = Carrier::Tps(i);
            }
            c
        });
        let tps_values = vec![0.0; tps.len()];
        let s0 = wk[0];
        Self {
            settings,
            tps: tps_bits(&settings, 0, s0),
            wk,
            layout,
            tps_values,
            symbol: 0,
            frame: 0,
        }
    }

    /// Carriers 0 to K_max.
    pub fn carriers(&self) -> usize {
        self.wk.len()
    }

    /// Writes the next symbol's carriers 0 to K_max into `out`, its data carriers taken from
    /// `cells` in order (N_max of them: 1512 or 6048), and moves on a symbol.
    pub fn next_symbol(&mut self, cells: &[Complex32], out: &mut [Complex32]) {
        debug_assert_eq!(out.len(), self.carriers());
        let layout = &self.layout[self.symbol % 4];
        let mut data = cells.iter();
        for ((y, &c), &w) in out.iter_mut().zip(layout).zip(&self.wk) {
            *y = match c {
                Carrier::Data => *data.next().expect("a symbol's data cells"),
                Carrier::Pilot => {
                    Complex32::new((4.0 * 2.0 * (0.5 - f64::from(w)) / 3.0) as f32, 0.0)
                }
                Carrier::Tps(i) => {
                    let v = &mut self.tps_values[i];
                    if self.symbol == 0 {
                        *v = 2.0 * (0.5 - f32::from(w));
                    } else if self.tps[self.symbol] == 1 {
                        *v = -*v;
                    }
                    Complex32::new(*v, 0.0)
                }
            };
        }
        debug_assert!(data.next().is_none());
        self.symbol += 1;
        if self.symbol == SYMBOLS_PER_FRAME {
            self.symbol = 0;
            self.frame = (self.frame + 1) % FRAMES_PER_SUPERFRAME;
            self.tps = tps_bits(&self.settings, self.frame, self.wk[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{CodeRate, Constellation, GuardInterval, Hierarchy};

    #[test]
    fn every_symbol_has_n_max_data_carriers() {
        for mode in [Mode::T2k, Mode::T8k] {
            let r = ReferenceSignals::new(TpsSettings {
                constellation: Constellation::Qpsk,
                hierarchy: Hierarchy::Nh,
                rate_hp: CodeRate::R1_2,
                rate_lp: CodeRate::R1_2,
                guard: GuardInterval::G1_4,
                mode,
                include_cell_id: false,
                cell_id: 0,
            });
            for l in 0..4 {
                let data = r.layout[l].iter().filter(|&&c| c == Carrier::Data).count();
                assert_eq!(data, mode.payload(), "{mode:?}, symbol {l}");
            }
            // Clause 4.5.2: w_0 to w_15 are 1111 1111 1110 0000... from the all-ones register.
            assert_eq!(r.wk[..12], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
        }
    }
}
