//! [`PfbArbResampler`]: changes the sample rate by any ratio, as GNU Radio's polyphase
//! arbitrary resampler does.

use radioflow_dsp::{FirSample, ParamError, PfbArbResampler as Kernel};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Resamples `f32` or `Complex32` samples by any `rate` (outputs per input) with a bank of
/// `filters` polyphase filters and linear interpolation between adjacent ones, like GNU
/// Radio's `pfb.arb_resampler_ccf`/`_fff` (kernel [`radioflow_dsp::PfbArbResampler`], which
/// steps as GNU Radio's does: outputs equal GNU Radio's to float rounding).
///
/// The prototype `taps` are designed at `filters` times the input rate with gain `filters`;
/// [`new`](Self::new) given none designs GNU Radio's
/// ([`PfbArbResampler::default_taps`](radioflow_dsp::PfbArbResampler::default_taps), with
/// `atten` dB of stop band; the GNU Radio table designs them so for a `.grc` file without
/// taps). A tag on input `i` moves to output `(i + delay) · rate`
/// rounded to the nearest (GNU Radio's rule for a block of relative rate `rate` that
/// declares a sample delay of `delay`, with `rate` rounded to `f32` as GNU Radio keeps it),
/// or the next output if that one is out already.
///
/// # Example
/// ```
/// use radioflow_blocks::{PfbArbResampler, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// // 44.1 kHz -> 48 kHz of a constant: the constant, about 1.088 outputs per input.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32; 4410]));
/// let rs = fg.add(PfbArbResampler::<f32>::new(48e3 / 44.1e3, &[], 32, 100.0)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, rs)?;
/// fg.connect(rs, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert!(y.len() > 4750 && (y[4000] - 1.0).abs() < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pfb_arb_resampler",
    summary = "Resamples by any `rate` (polyphase bank with interpolation; GNU Radio's pfb_arb_resampler).",
    dtypes = [Complex32, Float32],
    make = Self::new(rate, &taps, filters, 100.0)
        .map(|b| b.with_delay(delay))
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(rate: f64, above = 0.0, settable, doc = "outputs per input (set while running: from the next output on, the filter state kept)")]
#[param(taps: Vec<f32>, doc = "the prototype low-pass at `filters` × the input rate, gain `filters`")]
#[param(filters: usize = 32, min = 1, doc = "the number of polyphase filters")]
#[param(delay: u64 = 0, doc = "the sample delay tags are moved by, in input samples (GNU Radio's declare_sample_delay)")]
#[derive(Debug)]
pub struct PfbArbResampler<T: FirSample + Item> {
    /// The samples (`f32` or `Complex32`).
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The samples at the input's rate · `rate`.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: Kernel<T>,
    /// The rate tags are moved by (the kernel's `f32` rate).
    rate: f64,
    delay: u64,
}

#[block]
impl<T: FirSample + Item> PfbArbResampler<T> {
    /// A resampler by `rate` with `filters` branches of `taps` (GNU Radio's default design,
    /// `atten` dB down, where `taps` is empty).
    ///
    /// # Errors
    /// A parameter out of range (rate not positive, no filters, a default design that does
    /// not converge); the error names it.
    pub fn new(rate: f64, taps: &[f32], filters: usize, atten: f64) -> Result<Self, ParamError> {
        let designed;
        let taps = if taps.is_empty() {
            designed = Kernel::<T>::default_taps(rate, filters, atten)?;
            &designed
        } else {
            taps
        };
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(taps, filters, rate)?,
            rate: f64::from(rate as f32),
            delay: 0,
        })
    }

    /// Tags moved as if the input came `delay` samples later (GNU Radio's
    /// `declare_sample_delay`).
    pub fn with_delay(self, delay: u64) -> Self {
        Self { delay, ..self }
    }

    /// Resamples by `rate` from the next output on, as GNU Radio's `set_rate` (the filter
    /// index, its fraction and the history run on; tags that follow are placed at the new
    /// rate, as GNU Radio's relative rate places them).
    ///
    /// # Errors
    /// If `rate` is not finite and positive (the `rate` message input checks first).
    pub fn set_rate(&mut self, rate: f64) -> Result<(), BlockError> {
        self.kernel
            .set_rate(rate)
            .map_err(|e| BlockError::msg(format!("pfb_arb_resampler: {e}")))?;
        self.rate = f64::from(rate as f32);
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (consumed, produced) = self.kernel.process(self.input.slice(), self.output.slice());
        if !self.input.tags().is_empty() {
            let (from, to) = (self.input.offset(), self.output.offset());
            for t in self.input.tags() {
                if t.offset >= from + consumed as u64 {
                    break;
                }
                let at = ((t.offset + self.delay) as f64 * self.rate).round() as u64;
                self.output.push_tag(Tag {
                    offset: at.max(to),
                    ..t.clone()
                });
            }
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{random_real, run_chunked};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn equals_the_kernel_in_one_call_whatever_the_calls() {
        let x = random_real(8, 3000);
        let taps = Kernel::<f32>::default_taps(1.37, 16, 80.0).unwrap();
        let mut kernel = Kernel::<f32>::new(&taps, 16, 1.37).unwrap();
        let mut want = vec![0.0f32; 5000];
        let (c, p) = kernel.process(&x, &mut want);
        assert_eq!(c, 3000);
        want.truncate(p);
        for (push, space) in [(3000, 8000), (7, 3), (1, 3), (100, 33)] {
            let mut h = Harness::new(PfbArbResampler::<f32>::new(1.37, &[], 16, 80.0).unwrap());
            h.push_tag("in", 105, "t", 1i64);
            let (y, tags) = run_chunked::<_, _, f32>(&mut h, &x, push, space);
            assert_eq!(y, want, "{push}/{space}");
            assert_eq!(tags.len(), 1);
            assert!(tags[0] >= 144, "{tags:?}");
            if space == 8000 {
                // GNU Radio: 105 · 1.37 = 143.85 -> 144.
                assert_eq!(tags, [144], "input 105 -> output 144");
            }
        }
    }

    #[test]
    fn a_declared_delay_moves_tags_as_gnu_radios() {
        let x = random_real(9, 1000);
        let rs = PfbArbResampler::<f32>::new(1.37, &[], 32, 100.0).unwrap();
        let mut h = Harness::new(rs.with_delay(10));
        for at in [100, 105, 200, 333] {
            h.push_tag("in", at, "t", 1i64);
        }
        let (_, tags) = run_chunked::<_, _, f32>(&mut h, &x, 1000, 4000);
        // GNU Radio 3.10: pfb.arb_resampler_ccf(1.37) with declare_sample_delay(10).
        assert_eq!(tags, [151, 158, 288, 470]);
    }

    #[test]
    fn rate_set_through_its_message_input_is_the_kernel_s_set_rate() {
        let x = random_real(10, 2000);
        let taps = Kernel::<f32>::default_taps(1.37, 16, 80.0).unwrap();
        let mut kernel = Kernel::<f32>::new(&taps, 16, 1.37).unwrap();
        let mut want = vec![0.0f32; 8000];
        let (_, p1) = kernel.process(&x[..1000], &mut want);
        kernel.set_rate(0.61).unwrap();
        let (_, p2) = kernel.process(&x[1000..], &mut want[p1..]);
        want.truncate(p1 + p2);
        let mut h = Harness::new(PfbArbResampler::<f32>::new(1.37, &taps, 16, 80.0).unwrap());
        h.push("in", &x[..1000]);
        h.set_space("out", 8000);
        h.work().unwrap();
        // A rate the declaration refuses is ignored; then the new one.
        h.post("rate", Pmt::Double(0.0)).unwrap();
        h.post("rate", Pmt::Double(0.61)).unwrap();
        h.push("in", &x[1000..]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), want);
    }

    #[test]
    fn refuses_bad_parameters() {
        let e = PfbArbResampler::<f32>::new(0.0, &[], 32, 100.0).unwrap_err();
        assert_eq!(e.name, "rate");
        let e = PfbArbResampler::<f32>::new(1.0, &[1.0], 0, 100.0).unwrap_err();
        assert_eq!(e.name, "filters");
    }
}
