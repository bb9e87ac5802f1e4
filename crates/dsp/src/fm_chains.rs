//! [`FmReceiver`] and [`FmTransmitter`]: GNU Radio's FM hier blocks (`wfm_rcv`, `nbfm_rx`,
//! `wfm_tx`, `nbfm_tx`) as one streaming kernel each, their filters designed with GNU Radio's
//! numbers.

use crate::decimating_fir::DecimatingFir;
use crate::error::{check, positive, Num, ParamError};
use crate::firdes::{self, Window};
use crate::frequency_modulator::FrequencyModulator;
use crate::history::CHUNK;
use crate::iir::Iir;
use crate::interpolating_fir::InterpolatingFir;
use crate::optfir;
use crate::quadrature_demod::QuadratureDemod;
use num_complex::Complex32;
use std::f64::consts::PI;

/// FM demodulation to audio: a quadrature demodulator, a decimating low-pass and a
/// de-emphasis filter, in GNU Radio's order for `wfm_rcv` (demodulate, filter, de-emphasise
/// at the audio rate) or `nbfm_rx` (demodulate, de-emphasise at the quadrature rate,
/// filter).
///
/// ```
/// use radioflow_dsp::{Complex32, FmReceiver, Nco};
/// // A steady carrier 15 kHz above centre at 240 kHz: 15/75 of full deviation.
/// let mut rx = FmReceiver::wfm_rcv(240e3, 5)?;
/// let mut x = vec![Complex32::default(); 24_000];
/// Nco::new(15e3, 240e3).fill_exp(&mut x, 1.0, Complex32::default());
/// let mut y = vec![0.0; 4_800];
/// assert_eq!(rx.process(&x, &mut y), (24_000, 4_800));
/// assert!((y[4_000] - 0.2).abs() < 1e-3);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct FmReceiver {
    demod: QuadratureDemod,
    quad_rate: f64,
    filter: DecimatingFir<f32>,
    deemph: Iir,
    /// De-emphasis before the low-pass (`nbfm_rx`), not after (`wfm_rcv`).
    deemph_first: bool,
}

impl FmReceiver {
    /// GNU Radio's `wfm_rcv(quad_rate, audio_decimation)`: 75 kHz deviation gives ±1; a
    /// Hamming low-pass to `audio_rate/2 - audio_rate/32` with an `audio_rate/32` transition
    /// (`audio_rate = quad_rate / audio_decimation`), then 75 µs de-emphasis at the audio
    /// rate.
    ///
    /// # Errors
    /// If `quad_rate` is not positive or `audio_decimation` is 0 (the error names it).
    pub fn wfm_rcv(quad_rate: f64, audio_decimation: usize) -> Result<Self, ParamError> {
        positive("quad_rate", quad_rate)?;
        check(audio_decimation > 0, "audio_decimation", || {
            "must be at least 1".into()
        })?;
        let audio_rate = quad_rate / audio_decimation as f64;
        let transition = audio_rate / 32.0;
        let taps = firdes::low_pass(
            1.0,
            quad_rate,
            audio_rate / 2.0 - transition,
            transition,
            Window::Hamming,
        )?;
        Ok(Self {
            demod: QuadratureDemod::new(gain(quad_rate, 75e3)),
            quad_rate,
            filter: DecimatingFir::new(&taps, audio_decimation)?,
            deemph: Iir::fm_deemphasis(audio_rate, 75e-6)?,
            deemph_first: false,
        })
    }

    /// GNU Radio's `nbfm_rx(audio_rate, quad_rate, tau, max_dev)`: `max_dev` Hz gives ±1,
    /// de-emphasis with `tau` at `quad_rate`, then a Hamming low-pass to 2.7 kHz (0.5 kHz
    /// transition) keeping one sample in `quad_rate / audio_rate`.
    ///
    /// # Errors
    /// If a rate is not positive, `quad_rate` is not a multiple of `audio_rate`, `max_dev`
    /// is not positive or `tau` is out of range (the error names it).
    pub fn nbfm_rx(
        audio_rate: u64,
        quad_rate: u64,
        tau: f64,
        max_dev: f64,
    ) -> Result<Self, ParamError> {
        let decimation = multiple(audio_rate, quad_rate)?;
        positive("max_dev", max_dev)?;
        let fs = quad_rate as f64;
        let taps = firdes::low_pass(1.0, fs, 2.7e3, 0.5e3, Window::Hamming)?;
        Ok(Self {
            demod: QuadratureDemod::new(gain(fs, max_dev)),
            quad_rate: fs,
            filter: DecimatingFir::new(&taps, decimation)?,
            deemph: Iir::fm_deemphasis(fs, tau)?,
            deemph_first: true,
        })
    }

    /// The demodulator's gain (`quad_rate / (2π·max_dev)`).
    pub fn gain(&self) -> f32 {
        self.demod.gain()
    }

    /// Sets the deviation giving ±1 (GNU Radio's `nbfm_rx.set_max_deviation`), the last
    /// sample kept.
    pub fn set_max_deviation(&mut self, max_dev: f64) {
        self.demod.set_gain(gain(self.quad_rate, max_dev));
    }

    /// The decimation (`quad_rate / audio_rate`).
    pub fn decimation(&self) -> usize {
        self.filter.decimation()
    }

    /// The low-pass filter's taps.
    pub fn taps(&self) -> &[f32] {
        self.filter.taps()
    }

    /// Demodulates `input` into `output`: returns `(consumed, produced)`, as
    /// [`DecimatingFir::process`].
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let (demod, deemph, first) = (&mut self.demod, &mut self.deemph, self.deemph_first);
        let (consumed, produced) = self.filter.process_with(input, output, |x, y| {
            demod.process(x, y);
            if first {
                deemph.process_in_place(y);
            }
        });
        if !first {
            self.deemph.process_in_place(&mut output[..produced]);
        }
        (consumed, produced)
    }
}

/// `quad_rate / (2π·max_dev)` as GNU Radio computes it (in f64, then to the f32 its block
/// keeps).
fn gain(quad_rate: f64, max_dev: f64) -> f32 {
    (quad_rate / (2.0 * PI * max_dev)) as f32
}

/// `quad_rate / audio_rate`, refused unless a whole number.
fn multiple(audio_rate: u64, quad_rate: u64) -> Result<usize, ParamError> {
    check(audio_rate > 0, "audio_rate", || "must be positive".into())?;
    check(quad_rate > 0, "quad_rate", || "must be positive".into())?;
    check(quad_rate.is_multiple_of(audio_rate), "quad_rate", || {
        format!("{quad_rate} is not a multiple of audio_rate {audio_rate}")
    })?;
    Ok((quad_rate / audio_rate) as usize)
}

/// FM modulation of audio: an interpolating low-pass (where the rates differ), a
/// pre-emphasis filter and a frequency modulator, as GNU Radio's `wfm_tx` and `nbfm_tx`.
///
/// ```
/// use radioflow_dsp::FmTransmitter;
/// // Silence is a steady carrier.
/// let mut tx = FmTransmitter::wfm_tx(48_000, 240_000, 75e-6, 75e3, -1.0)?;
/// let mut y = vec![Default::default(); 500];
/// let (used, made) = tx.process(&[0.0; 100], &mut y);
/// assert_eq!((used, made), (100, 500));
/// assert!(y.iter().all(|z| (z.re - 1.0).abs() < 1e-6));
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct FmTransmitter {
    interp: Option<InterpolatingFir<f32>>,
    preemph: Iir,
    modulator: FrequencyModulator,
    quad_rate: f64,
    /// The interpolated, pre-emphasised audio before modulation.
    scratch: Vec<f32>,
}

impl FmTransmitter {
    /// GNU Radio's `wfm_tx(audio_rate, quad_rate, tau, max_dev, fh)`: interpolation by
    /// `quad_rate / audio_rate` through an equiripple low-pass (16 kHz pass, 18 kHz stop,
    /// 0.1 dB ripple, 40 dB), pre-emphasis (`tau`, `fh`), and ±1 swinging `max_dev` Hz.
    ///
    /// # Errors
    /// As [`nbfm_tx`](Self::nbfm_tx).
    pub fn wfm_tx(
        audio_rate: u64,
        quad_rate: u64,
        tau: f64,
        max_dev: f64,
        fh: f64,
    ) -> Result<Self, ParamError> {
        Self::new(audio_rate, quad_rate, tau, max_dev, fh, (16e3, 18e3))
    }

    /// GNU Radio's `nbfm_tx(audio_rate, quad_rate, tau, max_dev, fh)`: as
    /// [`wfm_tx`](Self::wfm_tx) with a 4.5 kHz pass band and 7 kHz stop band.
    ///
    /// # Errors
    /// If a rate is not positive, `quad_rate` is not a multiple of `audio_rate`, `max_dev`
    /// is not finite, `tau` or `fh` is out of range, or the low-pass cannot be designed at
    /// `quad_rate` (the error names the parameter).
    pub fn nbfm_tx(
        audio_rate: u64,
        quad_rate: u64,
        tau: f64,
        max_dev: f64,
        fh: f64,
    ) -> Result<Self, ParamError> {
        Self::new(audio_rate, quad_rate, tau, max_dev, fh, (4.5e3, 7e3))
    }

    fn new(
        audio_rate: u64,
        quad_rate: u64,
        tau: f64,
        max_dev: f64,
        fh: f64,
        (pass, stop): (f64, f64),
    ) -> Result<Self, ParamError> {
        let factor = multiple(audio_rate, quad_rate)?;
        check(max_dev.is_finite(), "max_dev", || {
            format!("{} must be finite", Num(max_dev))
        })?;
        let fs = quad_rate as f64;
        let interp = if factor == 1 {
            None
        } else {
            let taps = optfir::low_pass(factor as f64, fs, pass, stop, 0.1, 40.0, 2)
                .map_err(|e| ParamError::new("quad_rate", e.reason))?;
            let taps: Vec<f32> = taps.iter().map(|&t| t as f32).collect();
            Some(InterpolatingFir::new(&taps, factor)?)
        };
        let (b, a) = Iir::fm_preemphasis_taps(fs, tau, fh)?;
        Ok(Self {
            interp,
            preemph: Iir::new(&b, &a)?,
            modulator: FrequencyModulator::new(sensitivity(fs, max_dev)),
            quad_rate: fs,
            scratch: vec![0.0; CHUNK],
        })
    }

    /// The interpolation (`quad_rate / audio_rate`).
    pub fn interpolation(&self) -> usize {
        self.interp.as_ref().map_or(1, |f| f.interpolation())
    }

    /// The interpolating low-pass filter's taps (none where the rates are equal).
    pub fn taps(&self) -> &[f32] {
        self.interp.as_ref().map_or(&[], |f| f.taps())
    }

    /// Sets the deviation (GNU Radio's `nbfm_tx.set_max_deviation`), the phase kept.
    pub fn set_max_deviation(&mut self, max_dev: f64) {
        self.modulator
            .set_sensitivity(sensitivity(self.quad_rate, max_dev));
    }

    /// Modulates `input` into `output`: returns `(consumed, produced)`; outputs come in
    /// whole input samples (`interpolation` at a time).
    pub fn process(&mut self, input: &[f32], output: &mut [Complex32]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let room = (output.len() - produced).min(self.scratch.len());
            let (took, made) = match &mut self.interp {
                Some(f) => f.process(&input[consumed..], &mut self.scratch[..room]),
                None => {
                    let n = room.min(input.len() - consumed);
                    self.scratch[..n].copy_from_slice(&input[consumed..consumed + n]);
                    (n, n)
                }
            };
            let s = &mut self.scratch[..made];
            self.preemph.process_in_place(s);
            self.modulator
                .process(s, &mut output[produced..produced + made]);
            consumed += took;
            produced += made;
            if took == 0 && made == 0 {
                break;
            }
        }
        (consumed, produced)
    }
}

/// `2π·max_dev / quad_rate`, in f64 then f32 as GNU Radio.
fn sensitivity(quad_rate: f64, max_dev: f64) -> f32 {
    (2.0 * PI * max_dev / quad_rate) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    /// The receiver equals its parts run one after the other on the whole input (the
    /// reference), however the input and output are split; and GNU Radio's order (filter
    /// before or after de-emphasis) is kept.
    #[test]
    fn the_receivers_equal_their_parts_in_gnu_radio_s_order() {
        let x = random_complex(1, 3000);
        for (mut rx, first) in [
            (FmReceiver::wfm_rcv(250e3, 5).unwrap(), false),
            (
                FmReceiver::nbfm_rx(8_000, 40_000, 50e-6, 3e3).unwrap(),
                true,
            ),
        ] {
            let d = rx.decimation();
            let rate = if first { 40e3 } else { 50e3 };
            let mut demod = QuadratureDemod::new(rx.gain());
            let mut fir = DecimatingFir::<f32>::new(rx.taps(), d).unwrap();
            let mut deemph = Iir::fm_deemphasis(
                if first { rate } else { 250e3 / 5.0 },
                if first { 50e-6 } else { 75e-6 },
            )
            .unwrap();
            let mut y = vec![0.0; x.len()];
            demod.process(&x, &mut y);
            if first {
                deemph.process_in_place(&mut y);
            }
            let mut want = vec![0.0; x.len() / d];
            assert_eq!(fir.process(&y, &mut want), (x.len(), x.len() / d));
            if !first {
                deemph.process_in_place(&mut want);
            }
            let got = run_split(2, &x, 300, |i, o| rx.process(i, o));
            assert_close_real(&got, &want, 1e-6, "receiver");
        }
    }

    #[test]
    fn the_transmitters_equal_their_parts_however_split() {
        let x = random_real(3, 600);
        for (mut tx, fh) in [
            (
                FmTransmitter::wfm_tx(48_000, 240_000, 75e-6, 75e3, -1.0).unwrap(),
                -1.0,
            ),
            (
                FmTransmitter::nbfm_tx(40_000, 40_000, 50e-6, 5e3, 9e3).unwrap(),
                9e3,
            ),
        ] {
            let i = tx.interpolation();
            let (fs, tau, dev) = if i == 5 {
                (240e3, 75e-6, 75e3)
            } else {
                (40e3, 50e-6, 5e3)
            };
            let mut up = vec![0.0; x.len() * i];
            if i == 1 {
                up.copy_from_slice(&x);
                assert!(tx.taps().is_empty());
            } else {
                let mut fir = InterpolatingFir::<f32>::new(tx.taps(), i).unwrap();
                assert_eq!(fir.process(&x, &mut up), (x.len(), up.len()));
            }
            let (b, a) = Iir::fm_preemphasis_taps(fs, tau, fh).unwrap();
            Iir::new(&b, &a).unwrap().process_in_place(&mut up);
            let mut want = vec![Complex32::default(); up.len()];
            FrequencyModulator::new(sensitivity(fs, dev)).process(&up, &mut want);
            let got = run_split(4, &x, 700, |a, b| tx.process(a, b));
            assert_close_complex(&got, &want, 1e-5, "transmitter");
        }
    }

    #[test]
    fn the_pre_emphasis_has_unit_gain_at_dc_and_a_default_corner() {
        let (b, a) = Iir::fm_preemphasis_taps(48e3, 75e-6, -1.0).unwrap();
        assert!(((b[0] + b[1]) / (a[0] + a[1]) - 1.0).abs() < 1e-12);
        // fh at or above Nyquist means GNU Radio's default, 0.925·fs/2.
        assert_eq!(
            Iir::fm_preemphasis_taps(48e3, 75e-6, 24e3).unwrap(),
            Iir::fm_preemphasis_taps(48e3, 75e-6, 0.925 * 24e3).unwrap()
        );
    }

    #[test]
    fn bad_parameters_are_named() {
        let name = |e: ParamError| e.name;
        assert_eq!(name(FmReceiver::wfm_rcv(0.0, 5).unwrap_err()), "quad_rate");
        assert_eq!(
            name(FmReceiver::wfm_rcv(250e3, 0).unwrap_err()),
            "audio_decimation"
        );
        assert_eq!(
            name(FmReceiver::nbfm_rx(7_000, 40_000, 75e-6, 5e3).unwrap_err()),
            "quad_rate"
        );
        assert_eq!(
            name(FmReceiver::nbfm_rx(0, 40_000, 75e-6, 5e3).unwrap_err()),
            "audio_rate"
        );
        assert_eq!(
            name(FmReceiver::nbfm_rx(8_000, 40_000, 75e-6, 0.0).unwrap_err()),
            "max_dev"
        );
        assert_eq!(
            name(FmReceiver::nbfm_rx(8_000, 40_000, -1.0, 5e3).unwrap_err()),
            "tau"
        );
        let tx = FmTransmitter::wfm_tx(48_000, 240_000, 75e-6, f64::NAN, -1.0);
        assert_eq!(name(tx.unwrap_err()), "max_dev");
        let tx = FmTransmitter::nbfm_tx(8_000, 40_000, 75e-6, 5e3, f64::INFINITY);
        assert_eq!(name(tx.unwrap_err()), "fh");
    }
}
