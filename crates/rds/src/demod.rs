//! [`Demodulator`]: the 57 kHz RDS subcarrier of an FM multiplex to data bits.
//!
//! 1. Mix 57 kHz to DC and low-pass/decimate to about 19 kHz (Blackman window, so the
//!    L−R band and the pilot aliasing onto the RDS band are 74 dB down).
//! 2. Matched filter: the receiver half of the standard's data shaping ([`crate::shaping`]).
//! 3. Carrier: a Costas loop (BPSK) on the half-symbol samples; it needs no 19 kHz pilot.
//! 4. Timing: Gardner's detector on the half-symbols (2375/s), cubic (Lagrange)
//!    interpolation between samples, a proportional-integral loop.
//! 5. Biphase: the two halves of a bit are opposite; the pairing of half-symbols into bits
//!    is the one whose half-symbol differences are larger on average; the difference gives
//!    the differentially encoded bit.
//! 6. Differential decoding (EN 50067 §1.6): `d[i] = e[i] ⊕ e[i−1]`, which also removes the
//!    carrier's 180° ambiguity.

use crate::error::RdsError;
use crate::shaping::{pulse, HALF_SYMBOL_RATE, SPAN};
use radioflow_dsp::{firdes, Complex32, DecimatingFir, Nco};

/// RDS subcarrier, Hz (EN 50067 §1.2: 3 × 19 kHz).
pub const SUBCARRIER_HZ: f64 = 57_000.0;

/// The lowest multiplex rate accepted, Hz: twice the top of the RDS band with room for the
/// decimating filter.
pub const MIN_RATE_HZ: f64 = 128_000.0;

/// Rate the subcarrier is brought to after the first filter, about.
const INTERMEDIATE_HZ: f64 = 19_000.0;

/// Input samples mixed per pass (the scratch buffers' size).
const CHUNK: usize = 2048;

/// Timing loop gains (per half-symbol, in half-symbol periods per unit of normalised error).
const TIMING_KP: f64 = 0.02;
const TIMING_KI: f64 = 2e-5;
/// Costas loop gains (rad per unit of normalised error, per half-symbol).
const CARRIER_KP: f64 = 0.04;
const CARRIER_KI: f64 = 4e-4;
/// The timing loop's integral stays within ±0.5% of the half-symbol period (5000 ppm, far
/// beyond real clock errors; it also keeps strobes moving forward in pure noise).
const MAX_RATE: f64 = 5e-3;
/// The carrier loop's frequency stays within ±0.2 rad per half-symbol (±76 Hz).
const MAX_CARRIER_OFFSET: f64 = 0.2;
/// Smoothing of the amplitude estimate and of the biphase pairing metric, per half-symbol.
const AGC_ALPHA: f32 = 0.005;
const PAIRING_ALPHA: f32 = 0.01;

/// A streaming RDS subcarrier demodulator: multiplex samples in, data bits out.
#[derive(Clone, Debug)]
pub(crate) struct Demodulator {
    mixer: Nco,
    channel: DecimatingFir<Complex32>,
    matched: DecimatingFir<Complex32>,
    /// `e^{-j·57kHz·n}` for one chunk, then the mixed chunk.
    lo: Vec<Complex32>,
    mixed: Vec<Complex32>,
    /// Channel and matched-filter outputs of one chunk.
    narrow: Vec<Complex32>,
    filtered: Vec<Complex32>,
    /// Costas loop: phase (rad), frequency (rad per intermediate sample).
    phase: f64,
    freq: f64,
    /// The last four derotated samples, oldest first.
    hist: [Complex32; 4],
    /// Time of the next strobe, in samples after `hist[1]`.
    next: f64,
    /// Nominal samples per half-symbol and the timing loop's integral correction.
    half_step: f64,
    rate: f64,
    /// Whether the next strobe is on a half-symbol (else between two).
    on_symbol: bool,
    /// The last on-symbol and mid strobes.
    last: Complex32,
    mid: Complex32,
    /// Mean |strobe|² on half-symbols (for normalisation), 0 until the first.
    power: f32,
    /// Half-symbols seen (parity picks the pairing), and the pairing metrics.
    count: u64,
    pairing: [f32; 2],
    /// The previous differentially encoded bit.
    prev_bit: u8,
}

impl Demodulator {
    /// A demodulator for a multiplex sampled at `mpx_rate_hz`.
    ///
    /// # Errors
    /// [`RdsError::SampleRate`] if the rate is not finite or below [`MIN_RATE_HZ`].
    pub(crate) fn new(mpx_rate_hz: f64) -> Result<Self, RdsError> {
        if !(mpx_rate_hz.is_finite() && mpx_rate_hz >= MIN_RATE_HZ) {
            return Err(RdsError::SampleRate(mpx_rate_hz));
        }
        let decimation = ((mpx_rate_hz / INTERMEDIATE_HZ).floor() as usize).max(1);
        let rate = mpx_rate_hz / decimation as f64;
        // Flat to 3 kHz (RDS is ±2.4 kHz, plus carrier offset); stop where aliases would
        // land on the RDS band.
        let to_param = |e: radioflow_dsp::ParamError| RdsError::Design(e.to_string());
        let channel_taps = firdes::low_pass(
            1.0,
            mpx_rate_hz,
            rate / 2.0,
            rate - 6_000.0,
            firdes::Window::Blackman,
        )
        .map_err(to_param)?;
        let half_step = rate / HALF_SYMBOL_RATE;
        let reach = (SPAN * half_step).floor() as i64;
        let mut matched_taps: Vec<f32> = (-reach..=reach)
            .map(|k| pulse(k as f64 / half_step) as f32)
            .collect();
        let sum: f32 = matched_taps.iter().sum();
        matched_taps.iter_mut().for_each(|t| *t /= sum);
        Ok(Self {
            mixer: Nco::new(-SUBCARRIER_HZ, mpx_rate_hz),
            channel: DecimatingFir::new(&channel_taps, decimation).map_err(to_param)?,
            matched: DecimatingFir::new(&matched_taps, 1).map_err(to_param)?,
            lo: vec![Complex32::default(); CHUNK],
            mixed: vec![Complex32::default(); CHUNK],
            narrow: vec![Complex32::default(); CHUNK / decimation + 1],
            filtered: vec![Complex32::default(); CHUNK / decimation + 1],
            phase: 0.0,
            freq: 0.0,
            hist: [Complex32::default(); 4],
            next: 0.0,
            half_step,
            rate: 0.0,
            on_symbol: true,
            last: Complex32::default(),
            mid: Complex32::default(),
            power: 0.0,
            count: 0,
            pairing: [0.0; 2],
            prev_bit: 0,
        })
    }

    /// The carrier loop's frequency offset from 57 kHz, Hz.
    pub(crate) fn carrier_offset_hz(&self) -> f64 {
        self.freq * self.half_step * HALF_SYMBOL_RATE / (2.0 * std::f64::consts::PI)
    }

    /// The recovered half-symbol rate's deviation from nominal, parts per million.
    pub(crate) fn timing_offset_ppm(&self) -> f64 {
        -self.rate / self.half_step * 1e6
    }

    /// Demodulates `mpx`, calling `on_bit` with every data bit (0 or 1) recovered.
    pub(crate) fn process(&mut self, mpx: &[f32], mut on_bit: impl FnMut(u8)) {
        for chunk in mpx.chunks(CHUNK) {
            let n = chunk.len();
            self.mixer
                .fill_exp(&mut self.lo[..n], 1.0, Complex32::default());
            for ((m, &lo), &x) in self.mixed.iter_mut().zip(&self.lo[..n]).zip(chunk) {
                // A NaN or infinity would stay in the filters and loops for good.
                *m = lo * if x.is_finite() { x } else { 0.0 };
            }
            // The buffers hold all a chunk makes; loop anyway rather than rely on it.
            let mut fed = 0;
            while fed < n {
                let (consumed, produced) =
                    self.channel.process(&self.mixed[fed..n], &mut self.narrow);
                fed += consumed;
                let mut done = 0;
                while done < produced {
                    let (used, filtered) = self
                        .matched
                        .process(&self.narrow[done..produced], &mut self.filtered);
                    done += used;
                    for k in 0..filtered {
                        let z = self.filtered[k];
                        self.sample(z, &mut on_bit);
                    }
                }
            }
        }
    }

    /// One matched-filter output sample.
    #[inline]
    fn sample(&mut self, z: Complex32, on_bit: &mut impl FnMut(u8)) {
        let (s, c) = self.phase.sin_cos();
        let derotated = z * Complex32::new(c as f32, -s as f32);
        self.phase = (self.phase + self.freq) % std::f64::consts::TAU;
        self.hist = [self.hist[1], self.hist[2], self.hist[3], derotated];
        self.next -= 1.0;
        while self.next < 1.0 {
            let mu = self.next.max(0.0) as f32;
            let y = cubic(&self.hist, mu);
            self.strobe(y, on_bit);
            self.next += self.half_step / 2.0;
        }
    }

    /// One interpolated strobe, on a half-symbol or between two.
    fn strobe(&mut self, y: Complex32, on_bit: &mut impl FnMut(u8)) {
        if !self.on_symbol {
            self.mid = y;
            self.on_symbol = true;
            return;
        }
        self.on_symbol = false;
        let p = y.norm_sqr();
        self.power = if self.power == 0.0 {
            p
        } else {
            self.power + AGC_ALPHA * (p - self.power)
        };
        let scale = 1.0 / self.power.sqrt().max(f32::MIN_POSITIVE);
        let (yn, ln, mn) = (y * scale, self.last * scale, self.mid * scale);

        // Gardner: negative when sampling late.
        let timing_err = (((ln.re - yn.re) * mn.re) as f64).clamp(-1.0, 1.0);
        self.rate = (self.rate + TIMING_KI * timing_err * self.half_step)
            .clamp(-MAX_RATE * self.half_step, MAX_RATE * self.half_step);
        self.next += TIMING_KP * timing_err * self.half_step + self.rate;

        // Costas (BPSK): the quadrature part relative to the in-phase sign.
        let carrier_err = ((yn.re.signum() * yn.im) as f64).clamp(-1.0, 1.0);
        let max_freq = MAX_CARRIER_OFFSET / self.half_step;
        self.freq =
            (self.freq + CARRIER_KI * carrier_err / self.half_step).clamp(-max_freq, max_freq);
        self.phase += CARRIER_KP * carrier_err;

        // Biphase: halves k-1 and k are one bit when k has the pairing's parity.
        let diff = self.last.re - y.re;
        let parity = (self.count & 1) as usize;
        self.pairing[parity] += PAIRING_ALPHA * ((diff * scale).abs() - self.pairing[parity]);
        let chosen = usize::from(self.pairing[1] > self.pairing[0]);
        if parity == chosen {
            let bit = u8::from(diff > 0.0);
            on_bit(bit ^ self.prev_bit);
            self.prev_bit = bit;
        }
        self.count += 1;
        self.last = y;
    }
}

/// Cubic Lagrange interpolation at `1 + mu` over four equally spaced samples at 0, 1, 2, 3.
#[inline]
fn cubic(h: &[Complex32; 4], mu: f32) -> Complex32 {
    // Nodes at -1, 0, 1, 2 relative to h[1].
    let (m1, m0, p1) = (mu + 1.0, mu, mu - 1.0);
    let p2 = mu - 2.0;
    let w0 = -m0 * p1 * p2 / 6.0;
    let w1 = m1 * p1 * p2 / 2.0;
    let w2 = -m1 * m0 * p2 / 2.0;
    let w3 = m1 * m0 * p1 / 6.0;
    h[0] * w0 + h[1] * w1 + h[2] * w2 + h[3] * w3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_interpolation_is_exact_on_cubics() {
        let f = |t: f32| 0.5 * t * t * t - t * t + 2.0 * t - 3.0;
        let h = [f(-1.0), f(0.0), f(1.0), f(2.0)].map(|v| Complex32::new(v, -v));
        for mu in [0.0, 0.25, 0.5, 0.9] {
            let y = cubic(&h, mu);
            assert!((y.re - f(mu)).abs() < 1e-5 && (y.im + f(mu)).abs() < 1e-5);
        }
    }

    #[test]
    fn rejects_low_or_bad_rates() {
        assert!(matches!(
            Demodulator::new(100e3),
            Err(RdsError::SampleRate(_))
        ));
        assert!(Demodulator::new(f64::NAN).is_err());
        assert!(Demodulator::new(240e3).is_ok());
    }
}
