//! [`Agc`]: GNU Radio's automatic gain control, `agc_cc` / `agc_ff`.

use radioflow_dsp::{Agc as Kernel, FirSample, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Scales `f32` or `Complex32` samples toward amplitude `reference` as GNU Radio's
/// `agc_ff` / `agc_cc`: each sample times the gain, then the gain moves by `rate ·
/// (reference - |output|)`, never above `max_gain` (0 or less: no limit) (kernel
/// [`radioflow_dsp::Agc`], f32 arithmetic in GNU Radio's order). Each parameter has a
/// message input setting it (GNU Radio's `set_rate`, `set_reference`, `set_gain`,
/// `set_max_gain`); a message that is not a finite number is ignored. One output per input;
/// tags keep their positions.
///
/// # Example
/// ```
/// use radioflow_blocks::{Agc, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.25f32; 5000]));
/// let agc = fg.add(Agc::<f32>::new(1e-2, 1.0, 1.0, 65536.0)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, agc)?;
/// fg.connect(agc, sink)?;
/// fg.run()?;
/// assert!((fg.block::<VectorSink<f32>>(sink).unwrap().data()[4999] - 1.0).abs() < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "agc",
    summary = "Automatic gain control toward an amplitude (GNU Radio's agc_cc / agc_ff).",
    dtypes = [Complex32, Float32],
    make = Self::new(rate, reference, gain, max_gain).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(rate: f32 = 1e-4, settable, doc = "the gain's step per unit of error, in (0, 1]")]
#[param(reference: f32 = 1.0, settable, doc = "the output amplitude aimed at")]
#[param(gain: f32 = 1.0, settable, doc = "the gain to start from")]
#[param(max_gain: f32 = 65536.0, settable, doc = "the largest gain (0 or less: no limit)")]
#[derive(Debug)]
pub struct Agc<T: FirSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The samples times the gain.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: Kernel,
}

#[block]
impl<T: FirSample + Item> Agc<T> {
    /// A loop adapting at `rate` toward amplitude `reference` from `gain`, at most
    /// `max_gain` (0 or less: no limit).
    ///
    /// # Errors
    /// If `rate` is not in `(0, 1]`, `reference` or `gain` not finite and positive, or
    /// `max_gain` not finite; the error names it.
    pub fn new(rate: f32, reference: f32, gain: f32, max_gain: f32) -> Result<Self, ParamError> {
        // GNU Radio limits the gain only where max_gain is positive.
        let max = if max_gain.is_finite() && max_gain <= 0.0 {
            None
        } else {
            Some(max_gain)
        };
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(rate, reference, gain, max)?,
        })
    }

    fn set_rate(&mut self, msg: Pmt) {
        if let Some(v) = finite(&msg) {
            self.kernel.set_rate(v);
        }
    }

    fn set_reference(&mut self, msg: Pmt) {
        if let Some(v) = finite(&msg) {
            self.kernel.set_reference(v);
        }
    }

    fn set_gain(&mut self, msg: Pmt) {
        if let Some(v) = finite(&msg) {
            self.kernel.set_gain(v);
        }
    }

    fn set_max_gain(&mut self, msg: Pmt) {
        if let Some(v) = finite(&msg) {
            self.kernel.set_max_gain(v);
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process_samples(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}

/// A message's finite number as the f32 GNU Radio's setters take.
pub(crate) fn finite(msg: &Pmt) -> Option<f32> {
    msg.as_f64().filter(|v| v.is_finite()).map(|v| v as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn setter_messages_change_the_loop_and_a_non_positive_max_gain_is_no_limit() {
        let x = vec![Complex32::new(0.0, 0.5); 40];
        let mut h = Harness::new(Agc::<Complex32>::new(0.1, 1.0, 1.0, -1.0).unwrap());
        let mut k = Kernel::new(0.1, 1.0, 1.0, None).unwrap();
        let mut want = vec![Complex32::default(); x.len()];
        for (port, v) in [
            ("gain", 3.0),
            ("reference", 0.2),
            ("rate", 0.3),
            ("max_gain", 0.5),
        ] {
            h.post(port, Pmt::Double(v)).unwrap();
            h.post(port, Pmt::Double(f64::INFINITY)).unwrap();
            match port {
                "gain" => k.set_gain(v as f32),
                "reference" => k.set_reference(v as f32),
                "rate" => k.set_rate(v as f32),
                _ => k.set_max_gain(v as f32),
            }
            h.push("in", &x);
            h.work().unwrap();
            k.process_samples(&x, &mut want);
            assert_eq!(h.take_output::<Complex32>("out"), want, "after {port}");
        }
        let e = Agc::<f32>::new(0.0, 1.0, 1.0, 0.0).unwrap_err();
        assert_eq!(e.name, "rate");
    }
}
