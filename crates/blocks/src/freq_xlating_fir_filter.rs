//! [`FreqXlatingFirFilter`]: moves a channel to DC, filters and decimates.

use crate::rate_work::rate_work;
use radioflow_dsp::{FreqXlatingFir, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Moves the signal at `centre` Hz to DC, low-pass filters it with real taps and keeps one
/// sample in `decimation`, like GNU Radio's `freq_xlating_fir_filter_ccf` (same phase
/// convention and zero start-up history; kernel [`radioflow_dsp::FreqXlatingFir`]). A tag on
/// input `i` moves to output `i / decimation` rounded (halves up, as GNU Radio), or later
/// when that output was made already (the kernel takes input ahead of the output space it
/// is given).
///
/// The `centre` can be moved while the graph runs (an FM receiver's station offset from the
/// control port, `radioflow fm --control`): the mixer's phase runs on without a jump, and a
/// message that is not a finite number is ignored.
///
/// # Example
/// ```
/// use radioflow_blocks::{FreqXlatingFirFilter, SignalSource, Head, VectorSink, Waveform};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// // A tone 12 kHz above centre at 48 kHz comes out at DC, 4 times fewer samples.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(SignalSource::<Complex32>::new(Waveform::Cosine, 12e3, 48e3, 1.0, Complex32::default()));
/// let head = fg.add(Head::<Complex32>::new(4800));
/// let xlate = fg.add(FreqXlatingFirFilter::new(&[0.25; 4], 4, 12e3, 48e3)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, xlate)?;
/// fg.connect(xlate, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert_eq!(y.len(), 1200);
/// assert!((y[600].norm() - 1.0).abs() < 1e-4 && (y[600] - y[601]).norm() < 1e-4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "freq_xlating_fir_filter",
    summary = "Moves `centre` Hz to DC, low-pass filters with real `taps` and decimates (GNU Radio's freq_xlating_fir_filter_ccf).",
    dtypes = [Complex32],
    make = Self::new(&taps, decimation, centre, sample_rate)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(taps: &[f32], doc = "the low-pass's taps")]
#[param(decimation: usize = 1, min = 1, doc = "inputs per output")]
// Any: beyond ±sample_rate/2 the centre aliases (GNU Radio's too).
#[param(centre: f64, settable, doc = "the frequency moved to DC, Hz")]
#[param(sample_rate: f64, above = 0.0, doc = "the input's rate, Hz")]
#[message_input(
    name = "freq",
    doc = "GNU Radio's: a pair (any key) or a dict's `freq` holding a double sets the centre, Hz"
)]
#[derive(Debug)]
pub struct FreqXlatingFirFilter {
    /// The samples, at `sample_rate`.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The channel at DC, at `sample_rate / decimation`.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    kernel: FreqXlatingFir,
    decimation: u64,
}

#[block]
impl FreqXlatingFirFilter {
    /// A filter moving `centre` Hz to DC, filtering with `taps` and keeping one output in
    /// `decimation`.
    ///
    /// # Errors
    /// A parameter out of range (empty taps, decimation 0, rate not positive, centre not
    /// finite); the error names it.
    pub fn new(
        taps: &[f32],
        decimation: usize,
        centre: f64,
        sample_rate: f64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: FreqXlatingFir::new(taps, decimation, centre, sample_rate)?,
            decimation: decimation as u64,
        })
    }

    /// The `centre` parameter's setter. It takes any message, so that a control port hands
    /// it a name typed where a number belongs; the declaration's check ignores anything but a
    /// finite number (a bad value must not stop a running receiver).
    fn set_centre(&mut self, msg: Pmt) {
        if let Some(hz) = msg.as_f64() {
            let _ = self.kernel.set_centre(hz);
        }
    }

    /// GNU Radio's `freq` message (`handle_set_center_freq`): a dict with a `freq` key, or a
    /// pair of any key, whose value is a double (`pmt::is_real`: not a long) sets the centre;
    /// anything else is ignored, as there. (A QT frequency sink's double click, a message edit
    /// box.)
    #[message_input]
    fn freq(&mut self, msg: &Pmt) {
        let value = if msg.is_dict() {
            msg.dict_get("freq")
        } else {
            msg.as_pair().map(|(_, v)| v)
        };
        if let Some(Pmt::Double(hz)) = value {
            let _ = self.kernel.set_centre(*hz);
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        rate_work(
            &mut self.input,
            &mut self.output,
            1,
            self.decimation,
            |x, y| kernel.process(x, y),
        );
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{random_complex, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn equals_the_kernel_whatever_the_calls_and_moves_tags() {
        let taps: Vec<f32> = (0..21).map(|k| 1.0 / (k as f32 + 2.0)).collect();
        let x = random_complex(1, 3000);
        let mut kernel = FreqXlatingFir::new(&taps, 5, 3e3, 48e3).unwrap();
        let mut want = vec![Complex32::default(); 600];
        assert_eq!(kernel.process(&x, &mut want), (3000, 600));
        for (push, space) in [(3000, 4096), (7, 3), (1, 1), (64, 5)] {
            let mut h = Harness::new(FreqXlatingFirFilter::new(&taps, 5, 3e3, 48e3).unwrap());
            h.push_tag("in", 12, "t", 1i64);
            let (y, tags) = run_chunked::<_, _, Complex32>(&mut h, &x, push, space);
            assert_eq!(y, want, "{push}/{space}");
            assert_eq!(tags.len(), 1);
            assert!(tags[0] >= 2, "{tags:?}");
            if space == 4096 {
                assert_eq!(tags, [2], "input 12 -> output 2");
            }
        }
    }

    #[test]
    fn a_centre_message_retunes() {
        // A tone at +3 kHz: at DC while tuned to it, turning at -3 kHz once tuned to +6 kHz.
        let fs = 48e3;
        let tone: Vec<Complex32> = (0..4000)
            .map(|k| {
                Complex32::from_polar(
                    1.0,
                    (2.0 * std::f64::consts::PI * 3e3 * k as f64 / fs) as f32,
                )
            })
            .collect();
        let mut h = Harness::new(FreqXlatingFirFilter::new(&[1.0], 1, 3e3, fs).unwrap());
        h.push("in", &tone[..2000]);
        h.set_space("out", 2000);
        h.work().unwrap();
        let y = h.take_output::<Complex32>("out");
        assert!(
            (y[1000] - y[1999]).norm() < 1e-3,
            "at DC: {} {}",
            y[1000],
            y[1999]
        );
        h.post("centre", Pmt::Double(6e3)).unwrap();
        h.post("centre", Pmt::Double(f64::NAN)).unwrap();
        h.post("centre", Pmt::symbol("abc")).unwrap();
        // GNU Radio's `freq` port ignores a long, a bare number and a dict without `freq`.
        h.post("freq", Pmt::pair(Pmt::symbol("freq"), Pmt::Int(1000)))
            .unwrap();
        h.post("freq", Pmt::Double(1e3)).unwrap();
        h.post("freq", Pmt::dict_from([("gain", Pmt::Double(1e3))]))
            .unwrap();
        retuned(&mut h, &tone);
        // It takes a pair of any key, or a dict's `freq`.
        for msg in [
            Pmt::pair(Pmt::symbol("x"), Pmt::Double(6e3)),
            Pmt::dict_from([("freq", Pmt::Double(6e3))]),
        ] {
            let mut h = Harness::new(FreqXlatingFirFilter::new(&[1.0], 1, 3e3, fs).unwrap());
            h.push("in", &tone[..2000]);
            h.set_space("out", 2000);
            h.work().unwrap();
            let _ = h.take_output::<Complex32>("out");
            h.post("freq", msg).unwrap();
            retuned(&mut h, &tone);
        }
    }

    /// The rest of the tone at +3 kHz through `h` tuned to +6 kHz: turning at -3 kHz.
    fn retuned(h: &mut Harness<FreqXlatingFirFilter>, tone: &[Complex32]) {
        h.push("in", &tone[2000..]);
        h.set_space("out", 2000);
        h.work().unwrap();
        let y = h.take_output::<Complex32>("out");
        // 16 samples of -3 kHz at 48 kHz: a full turn backwards.
        let turn = y[117] * y[100].conj();
        assert!(
            (turn.arg() + 2.0 * std::f32::consts::PI * 3e3 / 48e3).abs() < 1e-3,
            "{turn}"
        );
        assert!((y[100] - y[116]).norm() < 1e-3);
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = FreqXlatingFirFilter::new(&[], 2, 0.0, 48e3).unwrap_err();
        assert_eq!(e.name, "taps");
        let e = FreqXlatingFirFilter::new(&[1.0], 2, f64::NAN, 48e3).unwrap_err();
        assert_eq!(e.name, "centre");
    }
}
