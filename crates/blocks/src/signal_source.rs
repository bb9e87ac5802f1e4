//! [`SignalSource`]: sine, cosine, complex exponential or constant signals.

use radioflow_dsp::Nco;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The shape of a [`SignalSource`]'s output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waveform {
    /// `amplitude · sin(φ) + offset`; for complex output the same as [`Cosine`](Self::Cosine).
    Sine,
    /// `amplitude · cos(φ) + offset`; for complex output `amplitude · (cos φ + j sin φ) + offset`.
    Cosine,
    /// `amplitude + offset` in every sample.
    Constant,
}

/// An item type a [`SignalSource`] can produce: `f32` or `Complex32`.
pub trait SignalItem: Item {
    /// Fills `out` with `waveform` from `nco`, following GNU Radio's `sig_source` semantics.
    fn generate(nco: &mut Nco, waveform: Waveform, amplitude: f32, offset: Self, out: &mut [Self]);
}

impl SignalItem for f32 {
    fn generate(nco: &mut Nco, waveform: Waveform, amplitude: f32, offset: f32, out: &mut [f32]) {
        match waveform {
            Waveform::Sine => nco.fill_sin(out, amplitude, offset),
            Waveform::Cosine => nco.fill_cos(out, amplitude, offset),
            Waveform::Constant => out.fill(amplitude + offset),
        }
    }
}

impl SignalItem for Complex32 {
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
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// - `out`: `T` (`f32` or `Complex32`), the signal.
///
/// # Message ports
/// - input `frequency`: a number, the new frequency in Hz (non-finite values are ignored);
///   the phase runs on without a jump.
/// - input `amplitude`: a number, the new amplitude.
///
/// Both are the parameters of the same name, settable while the graph runs (e.g. from the
/// control port, `radioflow run --control`).
///
/// # Parameters
/// - `waveform`: see [`Waveform`].
/// - `frequency`: Hz; negative frequencies turn the complex exponential clockwise.
/// - `sample_rate`: samples per second, finite and positive.
/// - `amplitude`, `offset`: scale and shift, as above.
/// - [`phase`](Self::phase): phase of the first sample, radians (default 0).
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
#[derive(Debug, Ports)]
pub struct SignalSource<T: SignalItem> {
    #[output(name = "out")]
    output: StreamOutput<T>,
    nco: Nco,
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

    #[message_input]
    fn frequency(&mut self, hz: f64) {
        if hz.is_finite() {
            self.nco.set_frequency(hz, self.sample_rate);
        }
    }

    #[message_input]
    fn amplitude(&mut self, amplitude: f64) {
        self.amplitude = amplitude as f32;
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

register_block!(BlockDescription {
    id: "signal_source",
    summary: "A sine, cosine or constant at `frequency` Hz for `sample_rate` samples per second (GNU Radio's analog.sig_source_c/f).",
    dtypes: &[Dtype::Complex64, Dtype::Float32],
    params: &[
        ParamDescription::required("sample_rate", ParamKind::Float(FloatRange::POSITIVE), "samples per second"),
        ParamDescription::required("waveform", ParamKind::Choice(&["sine", "cosine", "constant"]), "the waveform"),
        // Any: beyond ±sample_rate/2 a frequency aliases, as after sampling (GNU Radio's too).
        ParamDescription::required("frequency", ParamKind::Float(FloatRange::FINITE), "in Hz (aliases beyond ±sample_rate/2)"),
        ParamDescription::optional("amplitude", ParamKind::Float(FloatRange::F32), DefaultValue::Float(1.0), "peak amplitude"),
        ParamDescription::optional("offset", ParamKind::Item, DefaultValue::Float(0.0), "added to every sample"),
        ParamDescription::optional("phase", ParamKind::Float(FloatRange::FINITE), DefaultValue::Float(0.0), "of the first sample, in radians"),
    ],
    ports: declared_ports::<SignalSource<f32>>,
    make: |a| {
        let waveform = match a.word("waveform")? {
            "sine" => Waveform::Sine,
            "cosine" => Waveform::Cosine,
            _ => Waveform::Constant,
        };
        let (f, rate, amp, phase) = (a.float("frequency")?, a.float("sample_rate")?, a.float("amplitude")?, a.float("phase")?);
        with_dtype!(a.item_dtype()?, T in [Float32, Complex64] =>
            Ok(Box::new(SignalSource::<T>::new(waveform, f, rate, amp as f32, a.item("offset")?).phase(phase)) as Box<dyn Block>),
            other d => Err(a.error("dtype", format!("{d} is not made"))))
    },
});

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

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
