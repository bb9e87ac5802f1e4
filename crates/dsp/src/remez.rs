//! [`pm_remez`]: the Parks-McClellan (Remez exchange) equiripple FIR design, as GNU Radio's
//! `filter.pm_remez` computes it.
//!
//! Written here rather than taken from the `pm-remez` crate (0.4.1, checked): that crate
//! solves the same minimax problem by another method (Chebyshev proxy root finding over an
//! adaptive grid, with its own stopping rule, and `nalgebra` behind it). Both reach the
//! optimum only to their stopping rules, so their taps differ in the fourth or fifth digit;
//! GNU Radio's taps (and so the outputs of flowgraphs that design filters with `optfir`)
//! are those of its dense grid of 16 points per extremal, its exchange rule and its 10⁻⁴
//! convergence test, which this module follows step for step.

use crate::error::{check, ParamError};
use std::f64::consts::PI;

/// The most exchange iterations before the design is said not to converge (GNU Radio's).
const MAX_ITERATIONS: usize = 40;

/// The most taps designed: each iteration costs about `8·taps²` operations, so a design
/// beyond this (GNU Radio sets no limit) would run for minutes; the polyphase filters
/// GNU Radio designs with `optfir` have hundreds.
pub const MAX_REMEZ_TAPS: usize = 4096;

/// The symmetry and kind of filter [`pm_remez`] designs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemezType {
    /// Symmetric taps, a piecewise-linear desired amplitude (`"bandpass"`).
    Bandpass,
    /// Antisymmetric taps, amplitude proportional to frequency (`"differentiator"`).
    Differentiator,
    /// Antisymmetric taps, a 90° phase shifter (`"hilbert"`).
    Hilbert,
}

impl RemezType {
    /// GNU Radio's name for it (`"bandpass"`, `"differentiator"`, `"hilbert"`), if it is one.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "bandpass" => Some(Self::Bandpass),
            "differentiator" => Some(Self::Differentiator),
            "hilbert" => Some(Self::Hilbert),
            _ => None,
        }
    }
}

/// The equiripple FIR filter of `order + 1` taps (GNU Radio's `filter.pm_remez`) closest, in
/// the weighted minimax sense, to amplitude `response` over bands `bands`.
///
/// `bands` holds band edges in pairs, in `[0, 1]` where 1 is half the sample rate (Nyquist),
/// nondecreasing; `response` has one amplitude per edge (linear between a band's two);
/// `weight` one weight per band (empty: all 1); `grid_density` points per extremal of the
/// dense grid (GNU Radio's default is 16, its least).
///
/// # Errors
/// If the parameters are not as above (fewer than 4 taps, an odd number of band edges,
/// edges out of order or outside `[0, 1]`, a `response` or `weight` of the wrong length,
/// `grid_density` below 16, more than [`MAX_REMEZ_TAPS`] taps), or the exchange does not converge in 40 iterations or finds
/// too few or too many extremal frequencies (GNU Radio's "failed to converge",
/// "insufficient extremals", "too many extremals").
///
/// ```
/// use radioflow_dsp::optfir::{pm_remez, RemezType};
/// // A 33-tap half-band-ish low-pass: pass to 0.4, stop from 0.5 (of Nyquist).
/// let h = pm_remez(32, &[0.0, 0.4, 0.5, 1.0], &[1.0, 1.0, 0.0, 0.0], &[], RemezType::Bandpass, 16)?;
/// assert_eq!(h.len(), 33);
/// assert!((h[0] - h[32]).abs() < 1e-12); // linear phase
/// assert!((h.iter().sum::<f64>() - 1.0).abs() < 0.05); // about unit gain at DC
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
pub fn pm_remez(
    order: usize,
    bands: &[f64],
    response: &[f64],
    weight: &[f64],
    kind: RemezType,
    grid_density: usize,
) -> Result<Vec<f64>, ParamError> {
    let numtaps = order + 1;
    check((4..=MAX_REMEZ_TAPS).contains(&numtaps), "order", || {
        format!("{order} gives {numtaps} taps; the design needs 4 to {MAX_REMEZ_TAPS}")
    })?;
    check(
        !bands.is_empty() && bands.len().is_multiple_of(2),
        "bands",
        || format!("{} band edges: must be a nonzero even number", bands.len()),
    )?;
    check(bands.windows(2).all(|w| w[0] <= w[1]), "bands", || {
        "band edges must be nondecreasing".to_owned()
    })?;
    check(
        bands.iter().all(|b| (0.0..=1.0).contains(b)),
        "bands",
        || "band edges must be in [0, 1] (1 is half the sample rate)".to_owned(),
    )?;
    check(response.len() == bands.len(), "response", || {
        format!(
            "{} amplitudes for {} band edges: must be one per edge",
            response.len(),
            bands.len()
        )
    })?;
    let numband = bands.len() / 2;
    check(
        weight.is_empty() || weight.len() == numband,
        "weight",
        || {
            format!(
                "{} weights for {numband} bands: must be one per band",
                weight.len()
            )
        },
    )?;
    check(grid_density >= 16, "grid_density", || {
        format!("{grid_density} is too low; must be at least 16")
    })?;
    let bands: Vec<f64> = bands.iter().map(|b| b / 2.0).collect();
    let weight = if weight.is_empty() {
        vec![1.0; numband]
    } else {
        weight.to_vec()
    };
    remez(numtaps, &bands, response, &weight, kind, grid_density).map_err(|e| {
        ParamError::new(
            "bands",
            match e {
                Failure::NoConvergence => "the design failed to converge",
                Failure::TooFewExtremals => "insufficient extremals: the design cannot continue",
                Failure::TooManyExtremals => "too many extremals: the design cannot continue",
            },
        )
    })
}

/// Why an exchange stopped without a filter.
enum Failure {
    NoConvergence,
    TooFewExtremals,
    TooManyExtremals,
}

/// The dense grid: frequencies (in cycles per sample, to 0.5), desired amplitudes, weights.
struct Grid {
    freq: Vec<f64>,
    des: Vec<f64>,
    wt: Vec<f64>,
}

/// The Remez exchange over bands in cycles per sample (`[0, 0.5]`).
fn remez(
    numtaps: usize,
    bands: &[f64],
    des: &[f64],
    weight: &[f64],
    kind: RemezType,
    density: usize,
) -> Result<Vec<f64>, Failure> {
    let positive = kind == RemezType::Bandpass;
    let mut r = numtaps / 2;
    if numtaps % 2 == 1 && positive {
        r += 1;
    }
    let mut grid = dense_grid(r, numtaps, bands, des, weight, positive, density);
    // The weighting Parks and McClellan give the four cases, so that the problem is one of
    // approximating by a cosine polynomial.
    if kind == RemezType::Differentiator {
        for i in 0..grid.freq.len() {
            if grid.des[i] > 0.0001 {
                grid.wt[i] /= grid.freq[i];
            }
        }
    }
    for i in 0..grid.freq.len() {
        let f = grid.freq[i];
        let c = match (positive, numtaps % 2 == 1) {
            (true, true) => continue,
            (true, false) => (PI * f).cos(),
            (false, true) => (2.0 * PI * f).sin(),
            (false, false) => (PI * f).sin(),
        };
        grid.des[i] /= c;
        grid.wt[i] *= c;
    }
    let gridsize = grid.freq.len();
    let mut ext: Vec<usize> = (0..=r).map(|i| i * (gridsize - 1) / r).collect();
    let mut parms = Parms::new(r);
    let mut err = vec![0.0; gridsize];
    let mut converged = false;
    for _ in 0..MAX_ITERATIONS {
        parms.compute(&ext, &grid);
        for (i, e) in err.iter_mut().enumerate() {
            *e = grid.wt[i] * (grid.des[i] - parms.amplitude(grid.freq[i]));
        }
        search(r, &mut ext, &err)?;
        if done(&ext, &err) {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(Failure::NoConvergence);
    }
    parms.compute(&ext, &grid);
    let n = numtaps as f64;
    let a: Vec<f64> = (0..=numtaps / 2)
        .map(|i| {
            let f = i as f64 / n;
            let c = match (positive, numtaps % 2 == 1) {
                (true, true) => 1.0,
                (true, false) => (PI * f).cos(),
                (false, true) => (2.0 * PI * f).sin(),
                (false, false) => (PI * f).sin(),
            };
            parms.amplitude(f) * c
        })
        .collect();
    Ok(freq_sample(numtaps, &a, positive))
}

/// The dense grid of `density` points per extremal over the bands, each band's last point
/// on its upper edge.
fn dense_grid(
    r: usize,
    numtaps: usize,
    bands: &[f64],
    des: &[f64],
    weight: &[f64],
    positive: bool,
    density: usize,
) -> Grid {
    let delf = 0.5 / (density * r) as f64;
    // An antisymmetric filter is zero at 0: the grid starts one step above it.
    let grid0 = if !positive && delf > bands[0] {
        delf
    } else {
        bands[0]
    };
    let mut grid = Grid {
        freq: Vec::new(),
        des: Vec::new(),
        wt: Vec::new(),
    };
    for band in 0..bands.len() / 2 {
        let mut lowf = if band == 0 { grid0 } else { bands[2 * band] };
        let highf = bands[2 * band + 1];
        let k = ((highf - lowf) / delf + 0.5) as usize;
        let rise = des[2 * band + 1] - des[2 * band];
        for i in 0..k {
            // GNU Radio's rounding: the rise times `i`, then divided.
            let d = if k > 1 {
                des[2 * band] + i as f64 * rise / (k - 1) as f64
            } else {
                des[2 * band]
            };
            grid.des.push(d);
            grid.wt.push(weight[band]);
            grid.freq.push(lowf);
            lowf += delf;
        }
        if let Some(last) = grid.freq.last_mut() {
            *last = highf;
        }
    }
    // An antisymmetric filter of odd length is zero at 0.5 too.
    if let Some(last) = grid.freq.last_mut()
        && !positive
        && *last > 0.5 - delf
        && numtaps % 2 == 1
    {
        *last = 0.5 - delf;
    }
    grid
}

/// The interpolation at the current extremals (Oppenheim & Schafer 7.131-7.133).
struct Parms {
    ad: Vec<f64>,
    x: Vec<f64>,
    y: Vec<f64>,
}

impl Parms {
    fn new(r: usize) -> Self {
        Self {
            ad: vec![0.0; r + 1],
            x: vec![0.0; r + 1],
            y: vec![0.0; r + 1],
        }
    }

    fn compute(&mut self, ext: &[usize], grid: &Grid) {
        let r = ext.len() - 1;
        for (x, &e) in self.x.iter_mut().zip(ext) {
            *x = (2.0 * PI * grid.freq[e]).cos();
        }
        // The products are taken in strides to keep them from over- or underflowing.
        let ld = (r - 1) / 15 + 1;
        for i in 0..=r {
            let mut denom = 1.0;
            let xi = self.x[i];
            for j in 0..ld {
                for k in (j..=r).step_by(ld) {
                    if k != i {
                        denom *= 2.0 * (xi - self.x[k]);
                    }
                }
            }
            if f64::abs(denom) < 0.00001 {
                denom = 0.00001;
            }
            self.ad[i] = 1.0 / denom;
        }
        let (mut numer, mut denom, mut sign) = (0.0, 0.0, 1.0);
        for (&ad, &e) in self.ad.iter().zip(ext) {
            numer += ad * grid.des[e];
            denom += sign * ad / grid.wt[e];
            sign = -sign;
        }
        let delta = numer / denom;
        sign = 1.0;
        for (y, &e) in self.y.iter_mut().zip(ext) {
            *y = grid.des[e] - sign * delta / grid.wt[e];
            sign = -sign;
        }
    }

    /// The amplitude at `freq` (barycentric Lagrange interpolation).
    fn amplitude(&self, freq: f64) -> f64 {
        let xc = (2.0 * PI * freq).cos();
        let (mut numer, mut denom) = (0.0, 0.0);
        for i in 0..self.x.len() {
            let c = xc - self.x[i];
            if f64::abs(c) < 1.0e-7 {
                return self.y[i];
            }
            let c = self.ad[i] / c;
            denom += c;
            numer += c * self.y[i];
        }
        numer / denom
    }
}

/// The next `r + 1` extremal frequencies of the error `e`, alternating in sign.
fn search(r: usize, ext: &mut [usize], e: &[f64]) -> Result<(), Failure> {
    let n = e.len();
    let mut found: Vec<usize> = Vec::with_capacity(2 * r);
    if (e[0] > 0.0 && e[0] > e[1]) || (e[0] < 0.0 && e[0] < e[1]) {
        found.push(0);
    }
    for i in 1..n - 1 {
        if (e[i] >= e[i - 1] && e[i] > e[i + 1] && e[i] > 0.0)
            || (e[i] <= e[i - 1] && e[i] < e[i + 1] && e[i] < 0.0)
        {
            if found.len() >= 2 * r {
                return Err(Failure::TooManyExtremals);
            }
            found.push(i);
        }
    }
    let j = n - 1;
    if (e[j] > 0.0 && e[j] > e[j - 1]) || (e[j] < 0.0 && e[j] < e[j - 1]) {
        if found.len() >= 2 * r {
            return Err(Failure::TooManyExtremals);
        }
        found.push(j);
    }
    if found.len() < r + 1 {
        return Err(Failure::TooFewExtremals);
    }
    // Drop extremals one at a time: the smallest overall where two neighbours do not
    // alternate, else (one too many) the smaller of the first and the last.
    let mut extra = found.len() - (r + 1);
    while extra > 0 {
        let mut up = e[found[0]] > 0.0;
        let mut l = 0;
        let mut alternating = true;
        for j in 1..found.len() {
            if e[found[j]].abs() < e[found[l]].abs() {
                l = j;
            }
            if up && e[found[j]] < 0.0 {
                up = false;
            } else if !up && e[found[j]] > 0.0 {
                up = true;
            } else {
                alternating = false;
                break;
            }
        }
        if alternating && extra == 1 {
            let k = found.len();
            l = if e[found[k - 1]].abs() < e[found[0]].abs() {
                k - 1
            } else {
                0
            };
        }
        found.remove(l);
        extra -= 1;
    }
    ext.copy_from_slice(&found[..=r]);
    Ok(())
}

/// Whether the errors at the extremals are equal to within 10⁻⁴ of the largest.
fn done(ext: &[usize], e: &[f64]) -> bool {
    let mut min = e[ext[0]].abs();
    let mut max = min;
    for &i in &ext[1..] {
        let c = e[i].abs();
        min = min.min(c);
        max = max.max(c);
    }
    (max - min) / max < 0.0001
}

/// The taps from samples `a` of the amplitude at `k / N` (frequency sampling).
fn freq_sample(n: usize, a: &[f64], positive: bool) -> Vec<f64> {
    let nf = n as f64;
    let m = (nf - 1.0) / 2.0;
    // Summed in GNU Radio's order, term after term, for the same rounding.
    (0..n)
        .map(|i| {
            let x = 2.0 * PI * (i as f64 - m) / nf;
            let (mut val, top) = match (positive, n % 2 == 1) {
                (true, true) => (a[0], m as usize),
                (true, false) => (a[0], n / 2 - 1),
                (false, true) => (0.0, m as usize),
                (false, false) => (a[n / 2] * (PI * (i as f64 - m)).sin(), n / 2 - 1),
            };
            for (k, &ak) in a.iter().enumerate().take(top + 1).skip(1) {
                let arg = x * k as f64;
                val += 2.0 * ak * if positive { arg.cos() } else { arg.sin() };
            }
            val / nf
        })
        .collect()
}
