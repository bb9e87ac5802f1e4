//! [`ToneReservation`]: DVB-T2's PAPR reduction by reserved carriers (ETSI EN 302 755 clause
//! 9.6.2), on a T2 frame's OFDM symbols in the time domain, as gr-dtv's `dvbt2_paprtr_cc`
//! computes it.

use crate::params::FftSize;
use crate::pilot_tables::*;
use num_complex::Complex32;

/// What the reduction does to one symbol of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Treatment {
    /// Copied unchanged.
    Copy,
    /// Peaks reduced on the P2 reserved carriers (clause 9.6.2.1's P2 table).
    P2,
    /// Peaks reduced on the P2 reserved carriers, where gr-dtv puts the frame closing
    /// symbol's.
    Closing,
    /// Peaks reduced on the data symbols' reserved carriers, shifted with the scattered
    /// pilots.
    Data,
}

/// The tone reservation of a T2 frame's OFDM symbols (vectors of `size` time samples).
///
/// Each symbol treated goes through up to `iterations` rounds of clause 9.6.2.2's algorithm:
/// find the sample of largest magnitude y (of the symbol plus the correction so far); stop
/// when y is below V_clip + 0.01 (gr-dtv's early exit); else subtract the time-domain kernel
/// (the inverse FFT of ones on the reserved carriers, divided by their count N_TR), moved to
/// that sample and scaled by (y - V_clip) in the peak's phase, the reserved carriers' values
/// kept within 5 N_TR sqrt(10 / (27 C_PS)) of magnitude. The output is the symbol plus the
/// correction. The arithmetic is gr-dtv's, in its precision and order (f32 samples, the
/// carriers' phases in f64); the kernels come from `fftplan`'s inverse FFT.
#[derive(Debug, Clone)]
pub(crate) struct ToneReservation {
    /// Samples of a symbol (gr-dtv's vlength: the FFT size).
    size: usize,
    /// Symbols of a frame (N_P2 + data symbols).
    symbols: usize,
    p2_symbols: usize,
    /// Whether the last symbol is a frame closing symbol treated as one.
    closing: bool,
    /// Whether the data symbols are treated (tone reservation on).
    data: bool,
    /// Whether the P2 symbols are treated.
    p2: bool,
    v_clip: f64,
    iterations: usize,
    extended_shift: usize,
    dx: usize,
    dy: usize,
    /// (C_PS - 1) / 2, the centre carrier.
    center: i64,
    /// The reserved carriers' bound, 5 N_TR sqrt(10 / (27 C_PS)).
    a_max: f32,
    p2_map: &'static [u16],
    tr_map: &'static [u16],
    p2_kernel: Vec<Complex32>,
    closing_kernel: Vec<Complex32>,
    /// The data symbols' kernels, by (symbol + K_EXT / D_X) modulo D_Y.
    data_kernels: Vec<Vec<Complex32>>,
    /// The correction of the symbol being treated (time domain).
    correction: Vec<Complex32>,
    /// The reserved carriers' values so far, the next, and the step's direction.
    r: Vec<Complex32>,
    r_new: Vec<Complex32>,
    v: Vec<Complex32>,
    phase: Vec<Complex32>,
}

impl ToneReservation {
    /// The reduction of T2 frames of FFT size `fft`, extended carriers or not, scattered
    /// pilot pattern `pp` (1 to 8), `data_symbols` data symbols, the last a frame closing
    /// symbol if `closing`; symbols of `size` samples (even, above the carriers). `tr`: tone
    /// reservation on (every symbol treated); `p2_only`: only the P2 symbols, at V_clip 3
    /// and one iteration (gr-dtv's version 1.3.1 with PAPR off); neither: every symbol copied.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        fft: FftSize,
        extended: bool,
        pp: u8,
        data_symbols: usize,
        closing: bool,
        size: usize,
        tr: bool,
        p2_only: bool,
        v_clip: f32,
        iterations: usize,
    ) -> Self {
        use FftSize::*;
        // N_P2 (clause 8.3.1), C_PS and K_EXT (clause 9.5, table 67); gr-dtv takes the
        // normal carriers at 1K to 4K whatever the carrier mode.
        let (p2_symbols, carriers, k_ext) = match (fft, extended) {
            (K1, _) => (16, 853, 0),
            (K2, _) => (8, 1705, 0),
            (K4, _) => (4, 3409, 0),
            (K8, false) => (2, 6817, 0),
            (K8, true) => (2, 6913, 48),
            (K16, false) => (1, 13633, 0),
            (K16, true) => (1, 13921, 144),
            (K32, false) => (1, 27265, 0),
            (K32, true) => (1, 27841, 288),
        };
        // D_X, D_Y (clause 9.2.3.1, table 51).
        let (dx, dy) = match pp {
            1 => (3, 4),
            2 => (6, 2),
            3 => (6, 4),
            4 => (12, 2),
            5 => (12, 4),
            6 => (24, 2),
            7 => (24, 4),
            _ => (6, 16),
        };
        // Reserved carriers (clause 9.6.2.1's tables for P2 and for data symbols).
        let (p2_map, tr_map): (&'static [u16], &'static [u16]) = match fft {
            K1 => (&P2_PAPR_MAP_1K, &TR_PAPR_MAP_1K),
            K2 => (&P2_PAPR_MAP_2K, &TR_PAPR_MAP_2K),
            K4 => (&P2_PAPR_MAP_4K, &TR_PAPR_MAP_4K),
            K8 => (&P2_PAPR_MAP_8K, &TR_PAPR_MAP_8K),
            K16 => (&P2_PAPR_MAP_16K, &TR_PAPR_MAP_16K),
            K32 => (&P2_PAPR_MAP_32K, &TR_PAPR_MAP_32K),
        };
        let n_tr = tr_map.len();
        let (v_clip, iterations) = if p2_only && !tr {
            (3.0, 1)
        } else {
            (f64::from(v_clip), iterations)
        };
        let left_nulls = (size - carriers) / 2 + 1;
        let plan = radioflow_fftplan::inverse(size);
        let normalization = (1.0 / n_tr as f64) as f32;
        // The inverse FFT of ones on `reserved` (carrier indices), centred as the symbols'
        // carriers are, divided by N_TR.
        let kernel = |reserved: &mut dyn Iterator<Item = usize>| {
            let mut ones = vec![Complex32::new(0.0, 0.0); size];
            for k in reserved {
                ones[left_nulls + k] = Complex32::new(1.0, 0.0);
            }
            let half = size / 2;
            let mut x: Vec<Complex32> = ones[half..].iter().chain(&ones[..half]).copied().collect();
            plan.process(&mut x);
            for s in &mut x {
                *s = Complex32::new(s.re * normalization, s.im * normalization);
            }
            x
        };
        let treat_p2 = tr || p2_only;
        let p2_kernel = if treat_p2 {
            kernel(&mut p2_map.iter().map(|&k| usize::from(k) + k_ext))
        } else {
            Vec::new()
        };
        let closing = closing && tr;
        // gr-dtv reserves the P2 carriers in the closing symbol.
        let closing_kernel = if closing {
            p2_kernel.clone()
        } else {
            Vec::new()
        };
        // gr-dtv's data symbols' reserved carriers are the table's shifted by D_X times
        // ((symbol + K_EXT / D_X) mod D_Y), without K_EXT.
        let data_kernels = if tr {
            (0..dy)
                .map(|s| kernel(&mut tr_map.iter().map(|&k| usize::from(k) + dx * s)))
                .collect()
        } else {
            Vec::new()
        };
        let zeros = vec![Complex32::new(0.0, 0.0); n_tr];
        Self {
            size,
            symbols: p2_symbols + data_symbols,
            p2_symbols,
            closing,
            data: tr,
            p2: treat_p2,
            v_clip,
            iterations,
            extended_shift: k_ext / dx,
            dx,
            dy,
            center: (carriers as i64 - 1) / 2,
            a_max: (5.0 * n_tr as f64 * (10.0 / (27.0 * carriers as f64)).sqrt()) as f32,
            p2_map,
            tr_map,
            p2_kernel,
            closing_kernel,
            data_kernels,
            correction: vec![Complex32::new(0.0, 0.0); size],
            r: zeros.clone(),
            r_new: zeros.clone(),
            v: zeros.clone(),
            phase: zeros,
        }
    }

    /// Symbols of a frame.
    pub(crate) fn symbols(&self) -> usize {
        self.symbols
    }

    fn treatment(&self, j: usize) -> Treatment {
        if j < self.p2_symbols {
            if self.p2 {
                Treatment::P2
            } else {
                Treatment::Copy
            }
        } else if self.closing && j == self.symbols - 1 {
            Treatment::Closing
        } else if self.data {
            Treatment::Data
        } else {
            Treatment::Copy
        }
    }

    /// Symbol `j` of a frame (`size` samples) from `x` into `y`.
    pub(crate) fn symbol(&mut self, j: usize, x: &[Complex32], y: &mut [Complex32]) {
        // The scattered pilots' shift of symbol j (clause 9.2.3.1), as gr-dtv counts it.
        let residue = (j + self.extended_shift) % self.dy;
        let shift = self.dx * residue;
        let (kernel, map) = match self.treatment(j) {
            Treatment::Copy => {
                y.copy_from_slice(x);
                return;
            }
            Treatment::P2 => (&self.p2_kernel, self.p2_map),
            Treatment::Closing => (&self.closing_kernel, self.p2_map),
            Treatment::Data => (&self.data_kernels[residue], self.tr_map),
        };
        let zero = Complex32::new(0.0, 0.0);
        let (c, r, r_new, v, phase) = (
            &mut self.correction,
            &mut self.r,
            &mut self.r_new,
            &mut self.v,
            &mut self.phase,
        );
        r.fill(zero);
        c.fill(zero);
        let magnitude = |z: Complex32| (z.re * z.re + z.im * z.im).sqrt();
        let a_max = self.a_max;
        let mut m = 0;
        for _ in 0..self.iterations {
            // The peak: the first sample of largest magnitude (gr-dtv's: the square root of
            // each squared magnitude compared). A sample whose squared magnitude is not above
            // the peak's has no larger root, so the root is only taken for those that are.
            let (mut peak, mut peak_sq) = (0.0f32, 0.0f32);
            for (n, (&a, &b)) in x.iter().zip(c.iter()).enumerate() {
                let z = a + b;
                let sq = z.re * z.re + z.im * z.im;
                if sq > peak_sq {
                    let s = sq.sqrt();
                    if s > peak {
                        (peak, peak_sq, m) = (s, sq, n);
                    }
                }
            }
            if f64::from(peak) < self.v_clip + 0.01 {
                break;
            }
            let u = (x[m] + c[m]) / peak;
            let mut alpha = (f64::from(peak) - self.v_clip) as f32;
            for ((p, vn), &k) in phase.iter_mut().zip(v.iter_mut()).zip(map) {
                let d = (i64::from(k) + shift as i64 - self.center) as f64;
                let t = -2.0 * std::f64::consts::PI * m as f64 * d / self.size as f64;
                *p = Complex32::new(t.cos() as f32, t.sin() as f32);
                *vn = *p * u;
            }
            // The step, limited where a reserved carrier would exceed A_max.
            let mut limit = 1.0e30f32;
            let mut limited = false;
            for ((rn, &rr), &vn) in r_new.iter_mut().zip(r.iter()).zip(v.iter()) {
                *rn = rr - Complex32::new(vn.re * alpha, vn.im * alpha);
                if magnitude(*rn) > a_max {
                    let t = rr * vn.conj();
                    let l = (a_max * a_max - t.im * t.im).sqrt() + t.re;
                    if l < limit {
                        limit = l;
                    }
                    limited = true;
                }
            }
            if limited {
                alpha = limit;
                for ((rn, &rr), &vn) in r_new.iter_mut().zip(r.iter()).zip(v.iter()) {
                    *rn = rr - Complex32::new(vn.re * alpha, vn.im * alpha);
                }
            }
            // The kernel moved to the peak, scaled.
            let step = Complex32::new(u.re * alpha, u.im * alpha);
            let (head, tail) = c.split_at_mut(m);
            for (cn, &k) in tail.iter_mut().zip(kernel.iter()) {
                *cn -= k * step;
            }
            for (cn, &k) in head.iter_mut().zip(&kernel[self.size - m..]) {
                *cn -= k * step;
            }
            r.copy_from_slice(r_new);
        }
        for ((out, &a), &b) in y.iter_mut().zip(x).zip(c.iter()) {
            *out = a + b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Complex samples of magnitude below 0.71 but one of 4.
    fn symbol(size: usize, seed: u64) -> Vec<Complex32> {
        let mut s = seed;
        let mut uniform = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let mut x: Vec<Complex32> = (0..size)
            .map(|_| Complex32::new(uniform(), uniform()))
            .collect();
        x[size / 3] = Complex32::new(0.0, 4.0);
        x
    }

    /// Tone reservation changes only the reserved carriers of each kind of symbol (the
    /// correction's spectrum is zero elsewhere) and lowers the peak.
    #[test]
    fn reduces_peaks_on_the_reserved_carriers_only() {
        let size = 2048;
        // 2K PP1: 8 P2 symbols, 3 data symbols, the last a closing symbol.
        let mut tr =
            ToneReservation::new(FftSize::K2, false, 1, 3, true, size, true, false, 2.0, 20);
        let left = (size - 1705) / 2 + 1;
        let fft = radioflow_fftplan::forward(size);
        for j in [0, 8, 9, 10] {
            let x = symbol(size, j as u64 + 1);
            let mut y = vec![Complex32::new(0.0, 0.0); size];
            tr.symbol(j, &x, &mut y);
            let peak = |s: &[Complex32]| s.iter().map(|z| z.norm()).fold(0.0f32, f32::max);
            assert!(
                peak(&y) < peak(&x) - 0.5,
                "symbol {j}: {} to {}",
                peak(&x),
                peak(&y)
            );
            // The correction's carriers, centred as the symbol's.
            let mut d: Vec<Complex32> = y.iter().zip(&x).map(|(a, b)| a - b).collect();
            fft.process(&mut d);
            d.rotate_left(size / 2);
            let reserved: Vec<usize> = match j {
                0 | 10 => P2_PAPR_MAP_2K.iter().map(|&k| usize::from(k)).collect(),
                // PP1's shift: D_X (symbol mod D_Y).
                _ => TR_PAPR_MAP_2K
                    .iter()
                    .map(|&k| usize::from(k) + 3 * (j % 4))
                    .collect(),
            };
            let energy = |k: usize| d[k].norm_sqr();
            let on: f32 = reserved.iter().map(|&k| energy(left + k)).sum();
            let total: f32 = (0..size).map(energy).sum();
            assert!(on > 1.0, "symbol {j}: a correction");
            assert!(
                total - on < 1e-6 * total,
                "symbol {j}: {on} of {total} on the reserved carriers"
            );
        }
    }

    /// Off copies; version 1.3.1's P2 only changes the P2 symbols alone.
    #[test]
    fn copies_what_it_does_not_treat() {
        let size = 1024;
        let mut off =
            ToneReservation::new(FftSize::K1, false, 1, 2, true, size, false, false, 2.0, 5);
        let mut p2 =
            ToneReservation::new(FftSize::K1, false, 1, 2, true, size, false, true, 2.0, 5);
        for j in [0, 15, 16, 17] {
            let x = symbol(size, j as u64 + 7);
            let mut y = vec![Complex32::new(0.0, 0.0); size];
            off.symbol(j, &x, &mut y);
            assert_eq!(y, x, "off, symbol {j}");
            p2.symbol(j, &x, &mut y);
            assert_eq!(y == x, j >= 16, "P2 only, symbol {j}");
        }
    }
}
