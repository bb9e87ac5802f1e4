//! [`Impairments`]: a radio's hardware impairments (GNU Radio's `channels.impairments`).

use radioflow_dsp::{GrRandom, Nco, ParamError, SinglePoleIir};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Samples of the oscillator made per step (its scratch buffer's size: nothing allocates
/// while data flows).
const CHUNK: usize = 1024;
/// GNU Radio's phase noise generator: its Gaussian source's seed and its filter's weight.
const PHASE_NOISE_SEED: u64 = 42;
const PHASE_NOISE_ALPHA: f64 = 0.01;

/// A radio's hardware impairments, as GNU Radio 3.10's hierarchical
/// `channels.impairments` strings its blocks (the same operations in the same order and
/// precision), on each sample `x` with `lo = e^{j2π·freq_offset·n}` (an oscillator at
/// sample rate 1):
///
/// 1. `a = conj(lo) · x` (the frequency offset removed);
/// 2. phase noise: `b = a · (cos θ + j sin θ)`, `θ` Gaussian noise of deviation
///    `10^(phase_noise_mag/20)` (GNU Radio's generator, seed 42) through a single-pole
///    low-pass of weight 0.01 (so 0 dB is a deviation of 1 before the filter);
/// 3. third-order distortion: `c = b + beta · (b · |b|²)`;
/// 4. second-order distortion: `d = c + gamma · (c·c + c·conj(c))`;
/// 5. IQ imbalance (GNU Radio's transmitter model): `m = re(d) · 10^(magbal/20)`,
///    `e = m·cos(phasebal°) + j (m·sin(phasebal°) + im(d))`;
/// 6. DC offset: `f = e + (i_ofs + j q_ofs)`;
/// 7. `y = lo · f` (the frequency offset put back).
///
/// GNU Radio makes its oscillator with a fixed-point table (`fxpt_nco`): the output is
/// within that table's precision (about 1e-5) of GNU Radio's; with `freq_offset` 0 the
/// oscillator is exactly 1 in both. Tags pass through on the same samples.
///
/// Every parameter can be set while the graph runs, as GNU Radio's `set_phase_noise_mag`,
/// `set_magbal`, ... do: the new value applies from the next work call and nothing else
/// changes (the oscillator's phase, the noise generator and the phase-noise filter run on).
///
/// # Errors
/// A parameter that is not finite, naming it.
#[library_block(
    id = "impairments",
    summary = "A radio's hardware impairments: phase noise, third- and second-order distortion, IQ imbalance, DC offset and a frequency offset (GNU Radio's channels.impairments).",
    make = Self::new(phase_noise_mag, magbal, phasebal, q_ofs, i_ofs, freq_offset, gamma, beta).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(phase_noise_mag: f64 = 0.0, settable, doc = "the phase noise's deviation in dB before its low-pass (0 dB: 1 rad)")]
#[param(magbal: f64 = 0.0, settable, doc = "the IQ magnitude imbalance, in dB (the in-phase branch's gain)")]
#[param(phasebal: f64 = 0.0, settable, doc = "the IQ phase imbalance, in degrees")]
#[param(q_ofs: f64 = 0.0, settable, doc = "the quadrature DC offset")]
#[param(i_ofs: f64 = 0.0, settable, doc = "the in-phase DC offset")]
#[param(freq_offset: f64 = 0.0, settable, doc = "the frequency offset, in cycles per sample")]
#[param(gamma: f64 = 0.0, settable, doc = "the second-order distortion's weight")]
#[param(beta: f64 = 0.0, settable, doc = "the third-order distortion's weight")]
#[derive(Debug)]
pub struct Impairments {
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    lo: Nco,
    scratch: Vec<Complex32>,
    rng: GrRandom,
    noise_mag: f32,
    phase_filter: SinglePoleIir,
    beta: Complex32,
    gamma: Complex32,
    magbal: f32,
    cos_phase: f32,
    sin_phase: f32,
    dc: Complex32,
}

#[block]
impl Impairments {
    /// The impairments with GNU Radio's parameters, in its order.
    ///
    /// # Errors
    /// A parameter that is not finite.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        phase_noise_mag: f64,
        magbal: f64,
        phasebal: f64,
        q_ofs: f64,
        i_ofs: f64,
        freq_offset: f64,
        gamma: f64,
        beta: f64,
    ) -> Result<Self, ParamError> {
        for (name, v) in [
            ("phase_noise_mag", phase_noise_mag),
            ("magbal", magbal),
            ("phasebal", phasebal),
            ("q_ofs", q_ofs),
            ("i_ofs", i_ofs),
            ("freq_offset", freq_offset),
            ("gamma", gamma),
            ("beta", beta),
        ] {
            if !v.is_finite() {
                return Err(ParamError::new(
                    name,
                    format!("is {v}, not a finite number"),
                ));
            }
        }
        // GNU Radio's Python computes the constants in f64; its blocks take them as floats.
        let phase = phasebal * std::f64::consts::PI / 180.0;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            lo: Nco::new(freq_offset, 1.0),
            scratch: vec![Complex32::default(); CHUNK],
            rng: GrRandom::new(PHASE_NOISE_SEED),
            noise_mag: 10f64.powf(phase_noise_mag / 20.0) as f32,
            phase_filter: SinglePoleIir::new(PHASE_NOISE_ALPHA)?,
            beta: Complex32::new(beta as f32, 0.0),
            gamma: Complex32::new(gamma as f32, 0.0),
            magbal: 10f64.powf(magbal / 20.0) as f32,
            cos_phase: phase.cos() as f32,
            sin_phase: phase.sin() as f32,
            dc: Complex32::new(i_ofs as f32, q_ofs as f32),
        })
    }

    /// The phase noise's deviation in dB (GNU Radio's noise source `set_amplitude`: the
    /// generator and the filter run on).
    pub fn set_phase_noise_mag(&mut self, db: f64) {
        self.noise_mag = 10f64.powf(db / 20.0) as f32;
    }

    /// The IQ magnitude imbalance in dB.
    pub fn set_magbal(&mut self, db: f64) {
        self.magbal = 10f64.powf(db / 20.0) as f32;
    }

    /// The IQ phase imbalance in degrees.
    pub fn set_phasebal(&mut self, degrees: f64) {
        let phase = degrees * std::f64::consts::PI / 180.0;
        self.cos_phase = phase.cos() as f32;
        self.sin_phase = phase.sin() as f32;
    }

    /// The quadrature DC offset.
    pub fn set_q_ofs(&mut self, q_ofs: f64) {
        self.dc.im = q_ofs as f32;
    }

    /// The in-phase DC offset.
    pub fn set_i_ofs(&mut self, i_ofs: f64) {
        self.dc.re = i_ofs as f32;
    }

    /// The frequency offset in cycles per sample; the oscillator's phase runs on (GNU Radio's
    /// `sig_source` `set_frequency`).
    pub fn set_freq_offset(&mut self, freq_offset: f64) {
        self.lo.set_frequency(freq_offset, 1.0);
    }

    /// The second-order distortion's weight.
    pub fn set_gamma(&mut self, gamma: f64) {
        self.gamma = Complex32::new(gamma as f32, 0.0);
    }

    /// The third-order distortion's weight.
    pub fn set_beta(&mut self, beta: f64) {
        self.beta = Complex32::new(beta as f32, 0.0);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self
            .input
            .slice()
            .len()
            .min(self.output.slice().len())
            .min(CHUNK);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let lo = &mut self.scratch[..n];
        self.lo.fill_exp(lo, 1.0, Complex32::default());
        let input = &self.input.slice()[..n];
        let output = &mut self.output.slice()[..n];
        for ((o, &x), &lo) in output.iter_mut().zip(input).zip(lo.iter()) {
            let a = lo.conj() * x;
            let theta =
                self.phase_filter
                    .step(f64::from(self.noise_mag * self.rng.gaussian())) as f32;
            let b = a * Complex32::new(theta.cos(), theta.sin());
            let c = b + (b * Complex32::new(b.norm_sqr(), 0.0)) * self.beta;
            let d = c + (c * c + c * c.conj()) * self.gamma;
            let m = d.re * self.magbal;
            let e = Complex32::new(m * self.cos_phase, m * self.sin_phase + d.im);
            *o = lo * (e + self.dc);
        }
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    const OLD: [f64; 8] = [-20.0, 0.5, 3.0, 0.01, -0.02, 0.001, 0.05, 0.1];
    const NEW: [f64; 8] = [-10.0, -1.0, -6.0, 0.1, 0.2, -0.003, 0.2, -0.05];
    const NAMES: [&str; 8] = [
        "phase_noise_mag",
        "magbal",
        "phasebal",
        "q_ofs",
        "i_ofs",
        "freq_offset",
        "gamma",
        "beta",
    ];

    fn made(p: [f64; 8]) -> Impairments {
        Impairments::new(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]).unwrap()
    }

    fn run(h: &mut Harness<Impairments>, x: &[Complex32]) -> Vec<Complex32> {
        let target = h.consumed("in") + x.len() as u64;
        h.push("in", x);
        h.set_space("out", x.len());
        while h.consumed("in") < target {
            h.work().unwrap();
        }
        h.take_output::<Complex32>("out")
    }

    #[test]
    fn every_parameter_set_while_running_applies_on_with_the_state_kept_as_gnu_radio_s() {
        let x: Vec<Complex32> = (0..3000)
            .map(|n| Complex32::from_polar(0.8, n as f32 * 0.37))
            .collect();
        let mut h = Harness::new(made(OLD));
        let _ = run(&mut h, &x[..1000]);
        // The state at the change: GNU Radio's setters keep the oscillator's phase, the
        // noise generator and the phase-noise filter.
        let (lo, rng, filter) = {
            let b = h.block();
            (b.lo.clone(), b.rng.clone(), b.phase_filter.clone())
        };
        // Through the message inputs, as a running graph gets them; a value the declaration
        // refuses (not finite) after them is ignored.
        for (name, v) in NAMES.iter().zip(NEW) {
            h.post(name, Pmt::Double(v)).unwrap();
        }
        h.post("beta", Pmt::Double(f64::NAN)).unwrap();
        assert_eq!(h.block().lo.phase(), lo.phase(), "the phase runs on");
        let got = run(&mut h, &x[1000..]);
        // A block made with the new values, in the state the old one had reached.
        let mut fresh = made(NEW);
        fresh.lo = lo;
        fresh.lo.set_frequency(NEW[5], 1.0);
        fresh.rng = rng;
        fresh.phase_filter = filter;
        let want = run(&mut Harness::new(fresh), &x[1000..]);
        assert_eq!(got.len(), 2000);
        assert!(got == want, "not the fresh block's output");
        // And not what the old values give.
        let old = run(&mut Harness::new(made(OLD)), &x);
        assert!(got[..] != old[1000..]);
    }
}
