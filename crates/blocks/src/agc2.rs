//! [`Agc2`]: GNU Radio's automatic gain control with attack and decay rates, `agc2_cc` /
//! `agc2_ff`.

use crate::agc::finite;
use radioflow_dsp::{Agc2 as Kernel, FirSample, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Scales `f32` or `Complex32` samples toward amplitude `reference` as GNU Radio's
/// `agc2_ff` / `agc2_cc`: each sample times the gain, then the gain moves against the error
/// `|output| - reference` by `attack_rate` where the error is large (above the gain) and by
/// `decay_rate` otherwise, back to 1e-4 if it fell below 0, never above `max_gain` (0: no
/// limit) (kernel [`radioflow_dsp::Agc2`], f32 arithmetic in GNU Radio's order). Each
/// parameter has a message input setting it (GNU Radio's `set_attack_rate`,
/// `set_decay_rate`, `set_reference`, `set_gain`, `set_max_gain`); a message that is not a
/// finite number is ignored. One output per input; tags keep their positions.
///
/// # Example
/// ```
/// use radioflow_blocks::{Agc2, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.0, 4.0); 3000]));
/// let agc = fg.add(Agc2::<Complex32>::new(0.1, 0.01, 1.0, 1.0, 65536.0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, agc)?;
/// fg.connect(agc, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert!((y[2999].norm() - 1.0).abs() < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "agc2",
    summary = "Automatic gain control with attack and decay rates (GNU Radio's agc2_cc / agc2_ff).",
    dtypes = [Complex32, Float32],
    make = Self::new(attack_rate, decay_rate, reference, gain, max_gain)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(attack_rate: f32 = 0.1, settable, doc = "the gain's step per unit of error where the error is large")]
#[param(decay_rate: f32 = 0.01, settable, doc = "the gain's step per unit of error otherwise")]
#[param(reference: f32 = 1.0, settable, doc = "the output amplitude aimed at")]
#[param(gain: f32 = 1.0, settable, doc = "the gain to start from")]
#[param(max_gain: f32 = 65536.0, settable, doc = "the largest gain (0 or less: no limit)")]
#[derive(Debug)]
pub struct Agc2<T: FirSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The samples times the gain.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: Kernel,
}

#[block]
impl<T: FirSample + Item> Agc2<T> {
    /// A loop with these rates toward amplitude `reference` from `gain`, at most `max_gain`
    /// (0 or less: no limit).
    ///
    /// # Errors
    /// If a value is not finite; the error names it.
    pub fn new(
        attack_rate: f32,
        decay_rate: f32,
        reference: f32,
        gain: f32,
        max_gain: f32,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(attack_rate, decay_rate, reference, gain, max_gain)?,
        })
    }

    fn set_attack_rate(&mut self, msg: Pmt) {
        if let Some(v) = finite(&msg) {
            self.kernel.set_attack_rate(v);
        }
    }

    fn set_decay_rate(&mut self, msg: Pmt) {
        if let Some(v) = finite(&msg) {
            self.kernel.set_decay_rate(v);
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

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    /// Each setter message changes the loop as GNU Radio's setter does (compared with a
    /// kernel set the same way); a message that is not a finite number is ignored.
    #[test]
    fn setter_messages_change_the_loop_and_bad_ones_are_ignored() {
        let x = vec![0.5f32; 40];
        let mut h = Harness::new(Agc2::<f32>::new(0.1, 0.01, 1.0, 1.0, 0.0).unwrap());
        let mut k = Kernel::new(0.1, 0.01, 1.0, 1.0, 0.0).unwrap();
        let mut want = vec![0.0; x.len()];
        for (port, v) in [
            ("gain", 3.0),
            ("reference", 0.2),
            ("attack_rate", 0.3),
            ("decay_rate", 0.05),
            ("max_gain", 0.5),
        ] {
            h.post(port, Pmt::Double(v)).unwrap();
            h.post(port, Pmt::symbol("x")).unwrap();
            h.post(port, Pmt::Double(f64::NAN)).unwrap();
            match port {
                "gain" => k.set_gain(v as f32),
                "reference" => k.set_reference(v as f32),
                "attack_rate" => k.set_attack_rate(v as f32),
                "decay_rate" => k.set_decay_rate(v as f32),
                _ => k.set_max_gain(v as f32),
            }
            h.push("in", &x);
            h.work().unwrap();
            k.process_samples(&x, &mut want);
            assert_eq!(h.take_output::<f32>("out"), want, "after {port}");
        }
    }
}
