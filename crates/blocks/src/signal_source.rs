//! [`SignalSource`]: sine, cosine, complex exponential, constant, square, triangle and
//! sawtooth signals.

use radioflow_dsp::Nco;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::FromMessage;

/// The shape of a [`SignalSource`]'s output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waveform {
    /// `amplitude · sin(φ) + offset`; for complex output the same as [`Cosine`](Self::Cosine).
    Sine,
    /// `amplitude · cos(φ) + offset`; for complex output `amplitude · (cos φ + j sin φ) + offset`.
    Cosine,
    /// `amplitude + offset` in every sample.
    Constant,
    /// `amplitude + offset` while the phase is in `[-π, 0)`, `offset` in `[0, π)` (GNU
    /// Radio's `GR_SQR_WAVE`); complex: the imaginary part leads by a quarter period.
    Square,
    /// Rising from `offset` at `-π` to `amplitude + offset` at 0 and falling back at `π`
    /// (`GR_TRI_WAVE`); complex: the imaginary part leads by a quarter period.
    Triangle,
    /// Rising from `offset` at `-π` to `amplitude + offset` at `π` (`GR_SAW_WAVE`); complex:
    /// the imaginary part leads by a quarter period.
    Sawtooth,
}

impl std::str::FromStr for Waveform {
    type Err = String;

    /// `sine`, `cosine`, `constant`, `square`, `triangle` or `sawtooth`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "sine" => Ok(Self::Sine),
            "cosine" => Ok(Self::Cosine),
            "constant" => Ok(Self::Constant),
            "square" => Ok(Self::Square),
            "triangle" => Ok(Self::Triangle),
            "sawtooth" => Ok(Self::Sawtooth),
            other => Err(format!(
                "no waveform '{other}' (sine, cosine, constant, square, triangle, sawtooth)"
            )),
        }
    }
}

impl FromMessage for Waveform {
    const EXPECTS: &'static str = "a waveform (sine, cosine, constant, square, triangle, sawtooth)";

    /// A name, as the `waveform` parameter takes it.
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_symbol().and_then(|s| s.parse().ok())
    }
}

/// An item type a [`SignalSource`] can produce: `f32` or `Complex32`.
pub trait SignalItem: Item + FromMessage {
    /// Fills `out` with `waveform` from `nco`, following GNU Radio's `sig_source` semantics.
    fn generate(nco: &mut Nco, waveform: Waveform, amplitude: f32, offset: Self, out: &mut [Self]);

    /// A number of a message as this type (GNU Radio's `to_double`, or `to_complex` for
    /// complex items); `None` for what is not one.
    fn from_pmt(value: &Pmt) -> Option<Self>;
}

impl SignalItem for f32 {
    fn from_pmt(value: &Pmt) -> Option<f32> {
        value.as_f64().map(|v| v as f32)
    }

    fn generate(nco: &mut Nco, waveform: Waveform, amplitude: f32, offset: f32, out: &mut [f32]) {
        match waveform {
            Waveform::Sine => nco.fill_sin(out, amplitude, offset),
            Waveform::Cosine => nco.fill_cos(out, amplitude, offset),
            Waveform::Constant => out.fill(amplitude + offset),
            Waveform::Square | Waveform::Triangle | Waveform::Sawtooth => {
                let a = f64::from(amplitude);
                per_phase(nco, out, |p| {
                    (real_wave(waveform, a, p) + f64::from(offset)) as f32
                });
            }
        }
    }
}

/// Fills `out` with `f(φ)` of each sample's phase `φ` in `[-π, π)`, advancing the NCO: the
/// waves GNU Radio computes from its phase sample by sample.
fn per_phase<T>(nco: &mut Nco, out: &mut [T], mut f: impl FnMut(f64) -> T) {
    for o in out {
        *o = f(nco.phase());
        nco.skip(1);
    }
}

/// The real square, triangle or sawtooth wave of amplitude `a` at phase `p` in `[-π, π)`, as
/// GNU Radio's `sig_source_f` computes it.
fn real_wave(waveform: Waveform, a: f64, p: f64) -> f64 {
    use std::f64::consts::PI;
    match waveform {
        Waveform::Square => {
            if p < 0.0 {
                a
            } else {
                0.0
            }
        }
        Waveform::Triangle => {
            let t = a * p / PI;
            if p < 0.0 {
                t + a
            } else {
                -t + a
            }
        }
        Waveform::Sawtooth => a * p / (2.0 * PI) + a / 2.0,
        Waveform::Sine | Waveform::Cosine | Waveform::Constant => {
            unreachable!("computed by the NCO")
        }
    }
}

/// The complex square, triangle or sawtooth wave of amplitude `a` at phase `p` in `[-π, π)`:
/// the real wave, and the imaginary part leading it by a quarter period, piecewise as GNU
/// Radio's `sig_source_c` computes it.
fn complex_wave(waveform: Waveform, a: f64, p: f64) -> (f64, f64) {
    use std::f64::consts::{FRAC_PI_2, PI};
    match waveform {
        Waveform::Square => {
            if p < -FRAC_PI_2 {
                (a, 0.0)
            } else if p < 0.0 {
                (a, a)
            } else if p < FRAC_PI_2 {
                (0.0, a)
            } else {
                (0.0, 0.0)
            }
        }
        Waveform::Triangle => {
            let t = a * p / PI;
            if p < -FRAC_PI_2 {
                (t + a, -t - a / 2.0)
            } else if p < 0.0 {
                (t + a, t + a / 2.0)
            } else if p < FRAC_PI_2 {
                (-t + a, t + a / 2.0)
            } else {
                (-t + a, -t + 3.0 * a / 2.0)
            }
        }
        Waveform::Sawtooth => {
            let t = a * p / (2.0 * PI);
            if p < -FRAC_PI_2 {
                (t + a / 2.0, t + 5.0 * a / 4.0)
            } else {
                (t + a / 2.0, t + a / 4.0)
            }
        }
        Waveform::Sine | Waveform::Cosine | Waveform::Constant => {
            unreachable!("computed by the NCO")
        }
    }
}

impl SignalItem for Complex32 {
    fn from_pmt(value: &Pmt) -> Option<Complex32> {
        value
            .as_complex()
            .map(|c| Complex32::new(c.re as f32, c.im as f32))
    }

    fn generate(
        nco: &mut Nco,
        waveform: Waveform,
        amplitude: f32,
        offset: Complex32,
        out: &mut [Complex32],
    ) {
        match waveform {
            Waveform::Sine | Waveform::Cosine => nco.fill_exp(out, amplitude, offset),
            Waveform::Constant => out.fill(Complex32::new(amplitude, 0.0) + offset),
            Waveform::Square | Waveform::Triangle | Waveform::Sawtooth => {
                let a = f64::from(amplitude);
                per_phase(nco, out, |p| {
                    let (re, im) = complex_wave(waveform, a, p);
                    Complex32::new(re as f32, im as f32) + offset
                });
            }
        }
    }
}

/// Generates a periodic or constant signal, forever, like GNU Radio's `sig_source_f` and
/// `sig_source_c`. The first sample is at the initial phase (0 unless set with
/// [`phase`](Self::phase)); the phase runs on a drift-free [`Nco`].
///
/// For `f32`, [`Waveform::Sine`] and [`Waveform::Cosine`] give `amplitude · sin(φ) + offset`
/// and `amplitude · cos(φ) + offset`. For `Complex32` both give the complex exponential
/// `amplitude · (cos φ + j sin φ) + offset`, as GNU Radio's `GR_SIN_WAVE` and `GR_COS_WAVE` do.
/// [`Waveform::Constant`] gives `amplitude + offset`.
///
/// Every parameter can be set while the graph runs (e.g. from the control port, `radioflow
/// run --control`), as GNU Radio's setters do: the phase runs on without a jump when the
/// frequency, sample rate, waveform, amplitude or offset changes; setting `phase` moves the
/// phase of the next sample to it.
/// [`phase`](Self::phase) sets the phase of the first sample. The `cmd` message input is GNU
/// Radio 3.10's: a dict (or one `(key . value)` pair) of `freq` (Hz), `ampl`, `phase` (radians)
/// and `offset`, applied in the dict's order; a value that is not a number, an unknown key or
/// a message that is neither a dict nor a pair is logged and skipped, as GNU Radio does.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, SignalSource, VectorSink, Waveform};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// // A quarter turn per sample: 1, 0, -1, 0, ...
/// let src = fg.add(SignalSource::<f32>::new(Waveform::Cosine, 250.0, 1000.0, 1.0, 0.0));
/// let head = fg.add(Head::<f32>::new(4));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let got = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert!(got.iter().zip([1.0, 0.0, -1.0, 0.0]).all(|(g, w)| (g - w).abs() < 1e-6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "signal_source",
    summary = "A sine, cosine, constant, square, triangle or sawtooth wave at `frequency` Hz for `sample_rate` samples per second (GNU Radio's analog.sig_source_c/f).",
    dtypes = [Complex32, Float32],
    make = Self::new(waveform, frequency, sample_rate, amplitude, offset).phase(phase)
)]
#[param(sample_rate: f64, above = 0.0, settable, doc = "samples per second")]
#[param(waveform: Waveform, settable, words = ["sine", "cosine", "constant", "square", "triangle", "sawtooth"], doc = "the waveform")]
// Any: beyond ±sample_rate/2 a frequency aliases, as after sampling (GNU Radio's too).
#[param(frequency: f64, settable, doc = "in Hz (aliases beyond ±sample_rate/2)")]
#[param(amplitude: f32 = 1.0, settable, doc = "peak amplitude")]
#[param(offset: T = 0.0, settable, doc = "added to every sample")]
#[param(phase: f64 = 0.0, settable, doc = "of the first sample, in radians (set while running: the phase now)")]
#[message_input(
    name = "cmd",
    doc = "GNU Radio's command: a dict (or one pair) of freq, ampl, phase, offset"
)]
#[derive(Debug)]
pub struct SignalSource<T: SignalItem> {
    /// The signal (`f32` or `Complex32`).
    #[output(name = "out")]
    output: StreamOutput<T>,
    nco: Nco,
    /// Hz, as last set.
    frequency: f64,
    sample_rate: f64,
    waveform: Waveform,
    amplitude: f32,
    offset: T,
}

#[block]
impl<T: SignalItem> SignalSource<T> {
    /// A source of `waveform` at `frequency` Hz for `sample_rate` samples per second.
    ///
    /// # Panics
    /// If `sample_rate` is not finite and positive or `frequency` is not finite.
    pub fn new(
        waveform: Waveform,
        frequency: f64,
        sample_rate: f64,
        amplitude: f32,
        offset: T,
    ) -> Self {
        Self {
            output: StreamOutput::new(),
            nco: Nco::new(frequency, sample_rate),
            frequency,
            sample_rate,
            waveform,
            amplitude,
            offset,
        }
    }

    /// Sets the phase of the first sample, in radians.
    ///
    /// # Panics
    /// If `radians` is not finite.
    pub fn phase(mut self, radians: f64) -> Self {
        self.nco.set_phase(radians);
        self
    }

    /// Retunes to `hz`; the phase runs on without a jump.
    ///
    /// # Panics
    /// If `hz` is not finite.
    pub fn set_frequency(&mut self, hz: f64) {
        self.nco.set_frequency(hz, self.sample_rate);
        self.frequency = hz;
    }

    /// Sets the amplitude.
    pub fn set_amplitude(&mut self, amplitude: f32) {
        self.amplitude = amplitude;
    }

    /// Sets the sample rate; the frequency in Hz stays, the phase runs on (GNU Radio's
    /// `set_sampling_freq`).
    ///
    /// # Panics
    /// If `rate` is not finite and positive (the `sample_rate` message input checks first).
    pub fn set_sample_rate(&mut self, rate: f64) {
        assert!(
            rate.is_finite() && rate > 0.0,
            "signal_source: sample rate {rate} is not positive"
        );
        self.sample_rate = rate;
        self.nco.set_frequency(self.frequency, rate);
    }

    /// Changes the waveform; the phase runs on (GNU Radio's `set_waveform`).
    pub fn set_waveform(&mut self, waveform: Waveform) {
        self.waveform = waveform;
    }

    /// Sets the offset added to every sample.
    pub fn set_offset(&mut self, offset: T) {
        self.offset = offset;
    }

    /// Moves the phase of the next sample to `radians` (GNU Radio's `set_phase`, which takes a
    /// float: the value is rounded to `f32` as there).
    ///
    /// # Panics
    /// If `radians` is not finite.
    pub fn set_phase(&mut self, radians: f64) {
        self.nco.set_phase(f64::from(radians as f32));
    }

    /// GNU Radio's command message: `freq`, `ampl`, `phase` and `offset` from a dict or a pair.
    #[message_input]
    fn cmd(&mut self, msg: &Pmt) {
        if let Some(entries) = msg.as_dict() {
            for (key, value) in entries {
                self.command(key, value);
            }
        } else if let Some((key, value)) = msg.as_pair() {
            self.command(key, value);
        } else {
            tracing::warn!("signal_source cmd: neither a dict nor a pair, skipped: {msg}");
        }
    }

    fn command(&mut self, key: &Pmt, value: &Pmt) {
        let number = |what: &str| {
            let v = value.as_f64();
            if v.is_none() {
                tracing::warn!("signal_source cmd: {what} must be a number, not {value}");
            }
            v
        };
        match key.as_symbol() {
            Some("freq") => {
                if let Some(hz) = number("freq").filter(|hz| hz.is_finite()) {
                    self.set_frequency(hz);
                }
            }
            Some("ampl") => {
                if let Some(a) = number("ampl") {
                    self.amplitude = a as f32;
                }
            }
            // GNU Radio's phase is a float.
            Some("phase") => {
                if let Some(p) = number("phase").filter(|p| p.is_finite()) {
                    self.nco.set_phase(f64::from(p as f32));
                }
            }
            Some("offset") => match T::from_pmt(value) {
                Some(offset) => self.offset = offset,
                None => tracing::warn!("signal_source cmd: offset must be a number, not {value}"),
            },
            _ => tracing::warn!("signal_source cmd: unsupported key {key}, skipped"),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = out.len();
        T::generate(
            &mut self.nco,
            self.waveform,
            self.amplitude,
            self.offset,
            out,
        );
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    /// Eight samples a period from phase 0: the phases 0, π/4, ..., 3π/4, -π, ..., -π/4.
    fn eight<T: SignalItem>(waveform: Waveform, offset: T) -> Vec<T> {
        let mut h = Harness::new(SignalSource::<T>::new(waveform, 1.0, 8.0, 2.0, offset));
        h.set_space("out", 8);
        h.work().unwrap();
        h.take_output::<T>("out")
    }

    /// `n` samples of `h`'s block.
    fn next<T: SignalItem>(h: &mut Harness<SignalSource<T>>, n: usize) -> Vec<T> {
        h.set_space("out", n);
        h.work().unwrap();
        h.take_output::<T>("out")
    }

    fn close<T: SignalItem + Into<Complex32>>(got: &[T], want: &[T]) -> bool {
        got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(g, w)| ((*g).into() - (*w).into()).norm() < 1e-5)
    }

    /// Each parameter set through its message input, as a running graph gets it: what follows
    /// is a fresh source made with the new values, started at the phase the old one had
    /// reached (GNU Radio's setters keep the phase), except `phase`, which moves it.
    fn settable_as_gnu_radio_s<T: SignalItem + Into<Complex32>>(offset: T) {
        let mut h = Harness::new(SignalSource::<T>::new(
            Waveform::Cosine,
            100.0,
            1000.0,
            1.0,
            T::from_message(&Pmt::Double(0.0)).unwrap(),
        ));
        let _ = next(&mut h, 37);
        let reached = h.block().nco.phase();
        h.post("sample_rate", Pmt::Double(1500.0)).unwrap();
        h.post("waveform", Pmt::symbol("triangle")).unwrap();
        h.post("offset", Pmt::Double(0.25)).unwrap();
        // Refused by the declaration: ignored, the block as it was.
        h.post("sample_rate", Pmt::Double(-1.0)).unwrap();
        h.post("waveform", Pmt::symbol("noise")).unwrap();
        let got = next(&mut h, 50);
        let mut fresh = Harness::new(
            SignalSource::<T>::new(Waveform::Triangle, 100.0, 1500.0, 1.0, offset).phase(reached),
        );
        assert!(close(&got, &next(&mut fresh, 50)));
        h.post("phase", Pmt::Double(0.5)).unwrap();
        h.post("waveform", Pmt::symbol("cosine")).unwrap();
        let got = next(&mut h, 20);
        let mut fresh = Harness::new(
            SignalSource::<T>::new(Waveform::Cosine, 100.0, 1500.0, 1.0, offset)
                .phase(f64::from(0.5f32)),
        );
        assert!(close(&got, &next(&mut fresh, 20)));
    }

    #[test]
    fn sample_rate_waveform_offset_and_phase_set_while_running_as_gnu_radio_s() {
        settable_as_gnu_radio_s::<f32>(0.25);
        settable_as_gnu_radio_s::<Complex32>(Complex32::new(0.25, 0.0));
    }

    #[test]
    fn cmd_sets_what_gnu_radio_s_sets() {
        let mut h = Harness::new(SignalSource::<f32>::new(
            Waveform::Cosine,
            100.0,
            1000.0,
            1.0,
            0.0,
        ));
        let state = |h: &Harness<SignalSource<f32>>| {
            let b = h.block();
            (b.frequency, b.amplitude, b.offset, b.nco.phase())
        };
        let dict = |entries: &[(&str, Pmt)]| {
            Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
        };
        // What GNU Radio 3.10's sig_source_f did with the same messages on its cmd port.
        h.post(
            "cmd",
            dict(&[("freq", Pmt::Int(2000)), ("ampl", Pmt::Double(1.5))]),
        )
        .unwrap();
        h.post("cmd", dict(&[("phase", Pmt::Double(0.5))])).unwrap();
        h.post("cmd", dict(&[("offset", Pmt::Double(0.25))]))
            .unwrap();
        let (f, a, o, p) = state(&h);
        assert!((f - 2000.0).abs() < 1e-9 && a == 1.5 && o == 0.25);
        assert!((p - 0.5).abs() < 1e-7, "{p}");
        h.post("cmd", Pmt::pair(Pmt::symbol("freq"), Pmt::Double(300.0)))
            .unwrap();
        // Neither dict nor pair; a value that is not a number; an unknown key: skipped, the
        // rest of the dict applied.
        h.post("cmd", Pmt::Double(42.0)).unwrap();
        h.post("cmd", dict(&[("freq", Pmt::symbol("x"))])).unwrap();
        h.post(
            "cmd",
            dict(&[("bogus", Pmt::Int(1)), ("ampl", Pmt::Int(3))]),
        )
        .unwrap();
        let (f, a, o, _) = state(&h);
        assert!(
            (f - 300.0).abs() < 1e-9 && a == 3.0 && o == 0.25,
            "{f} {a} {o}"
        );
    }

    #[test]
    fn square_triangle_and_sawtooth_follow_the_phase_as_gnu_radio_s() {
        let close = |got: &[f32], want: &[f32]| {
            got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-5) && got.len() == want.len()
        };
        let got = eight::<f32>(Waveform::Square, 1.0);
        assert!(
            close(&got, &[1.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0]),
            "{got:?}"
        );
        let got = eight::<f32>(Waveform::Triangle, 0.0);
        assert!(
            close(&got, &[2.0, 1.5, 1.0, 0.5, 0.0, 0.5, 1.0, 1.5]),
            "{got:?}"
        );
        let got = eight::<f32>(Waveform::Sawtooth, 0.0);
        assert!(
            close(&got, &[1.0, 1.25, 1.5, 1.75, 0.0, 0.25, 0.5, 0.75]),
            "{got:?}"
        );
        // Complex: the imaginary part leads by a quarter period.
        let got = eight::<Complex32>(Waveform::Square, Complex32::new(0.0, 0.0));
        let im: Vec<f32> = got.iter().map(|z| z.im).collect();
        let re: Vec<f32> = got.iter().map(|z| z.re).collect();
        assert!(
            close(&re, &[0.0, 0.0, 0.0, 0.0, 2.0, 2.0, 2.0, 2.0]),
            "{re:?}"
        );
        assert!(
            close(&im, &[2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0]),
            "{im:?}"
        );
        let got = eight::<Complex32>(Waveform::Sawtooth, Complex32::new(0.0, 0.0));
        let im: Vec<f32> = got.iter().map(|z| z.im).collect();
        assert!(
            close(&im, &[0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 0.0, 0.25]),
            "{im:?}"
        );
    }

    #[test]
    fn the_phase_runs_on_across_calls() {
        let tone =
            || SignalSource::<Complex32>::new(Waveform::Sine, 1_000.0, 8_000.0, 2.0, 0.0.into());
        let mut whole = Harness::new(tone().phase(0.25));
        whole.set_space("out", 12);
        whole.work().unwrap();
        let want = whole.take_output::<Complex32>("out");
        let mut parts = Harness::new(tone().phase(0.25));
        let mut got = Vec::new();
        for space in [1, 4, 7] {
            parts.set_space("out", space);
            assert_eq!(parts.work().unwrap(), WorkStatus::Continue);
            assert_eq!(parts.produced("out") as usize, got.len() + space);
            got.extend(parts.take_output::<Complex32>("out"));
        }
        assert_eq!(got, want);
        assert!(
            (want[2] - Complex32::from_polar(2.0, 0.25 + std::f32::consts::FRAC_PI_2)).norm()
                < 1e-5
        );
    }

    #[test]
    fn frequency_and_amplitude_messages_retune_without_a_phase_jump() {
        let mut h = Harness::new(SignalSource::<f32>::new(
            Waveform::Constant,
            5.0,
            1.0,
            2.0,
            0.0,
        ));
        h.post("amplitude", Pmt::Double(3.0)).unwrap();
        h.set_space("out", 2);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [3.0; 2]);

        let mut h = Harness::new(SignalSource::<Complex32>::new(
            Waveform::Sine,
            0.0,
            8.0,
            1.0,
            0.0.into(),
        ));
        h.post("frequency", Pmt::Double(2.0)).unwrap();
        h.post("frequency", Pmt::Double(f64::NAN)).unwrap();
        h.set_space("out", 3);
        h.work().unwrap();
        let got = h.take_output::<Complex32>("out");
        for (k, g) in got.iter().enumerate() {
            let want = Complex32::from_polar(1.0, k as f32 * std::f32::consts::FRAC_PI_2);
            assert!((g - want).norm() < 1e-5, "sample {k}: {g} != {want}");
        }
    }

    #[test]
    fn a_setting_its_declaration_does_not_take_is_ignored() {
        let mut h = Harness::new(SignalSource::<f32>::new(
            Waveform::Constant,
            5.0,
            1.0,
            2.0,
            0.0,
        ));
        // Beyond what an f32 holds (amplitude's declared range), not a number, infinite.
        h.post("amplitude", Pmt::Double(1e39)).unwrap();
        h.post("amplitude", Pmt::symbol("loud")).unwrap();
        h.post("frequency", Pmt::Double(f64::INFINITY)).unwrap();
        h.post("frequency", Pmt::symbol("high")).unwrap();
        h.set_space("out", 2);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [2.0; 2]);
        h.post("amplitude", Pmt::Int(4)).unwrap();
        h.work().unwrap();
        assert_eq!(
            h.take_output::<f32>("out"),
            [4.0; 2],
            "a value it takes is set"
        );
        let mut fg = Flowgraph::new();
        let id = fg.add(SignalSource::<f32>::new(Waveform::Sine, 1.0, 8.0, 1.0, 0.0));
        // sample_rate, waveform, frequency, amplitude, offset, phase.
        let types: Vec<_> = (0..6)
            .map(|i| fg.message_input_type(id, i).map(|t| t.expects()))
            .collect();
        let number = Some("a number");
        assert_eq!(
            types,
            [
                number,
                Some(Waveform::EXPECTS),
                number,
                number,
                number,
                number
            ],
            "typed as their setters' arguments"
        );
    }

    #[test]
    fn constant_is_amplitude_plus_offset() {
        let mut h = Harness::new(SignalSource::<f32>::new(
            Waveform::Constant,
            5.0,
            1.0,
            2.0,
            0.5,
        ));
        h.set_space("out", 3);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [2.5; 3]);
    }
}
