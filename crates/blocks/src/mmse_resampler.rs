//! [`MmseResampler`]: a stream resampled by any ratio with the 8-tap MMSE interpolator.

use radioflow_dsp::{FirSample, MmseResampler as Kernel, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Resamples a stream by any ratio, `resamp_ratio` inputs per output, each output the 8-tap
/// MMSE interpolator at the current fractional delay (GNU Radio's `mmse_resampler_ff/cc`,
/// over [`radioflow_dsp::MmseResampler`]); `phase_shift` is the first output's delay. As GNU
/// Radio's, the output is 3 inputs earlier than the input (no history), and each output
/// needs the 8 inputs from its own on: the last few inputs make none at the end of the
/// stream. A tag on input `i` goes to output `i / resamp_ratio`, rounded, as GNU Radio's
/// scheduler moves it through the block's rate.
///
/// The ratio can change while the stream flows: the `resamp_ratio` message input (GRC's
/// callback), or a dict on `msg_in` (GNU Radio's own message port) with `resamp_ratio`
/// and/or `mu` (the next output's delay, in [0, 1]). A value out of range, or a message
/// that is not a dict, is ignored with a warning (a bad message must not stop the stream).
/// GNU Radio's optional second stream input (a ratio per input sample) is not there: a
/// flowgraph connecting it is refused when it is wired, naming the port.
///
/// # Example
/// ```
/// use radioflow_blocks::{MmseResampler, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new((0..100).map(|n| n as f32).collect::<Vec<_>>()));
/// let resample = fg.add(MmseResampler::<f32>::new(0.0, 2.0)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, resample)?;
/// fg.connect(resample, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// // Inputs 3, 5, 7, ...: a straight line interpolates exactly.
/// assert!((out[1] - 5.0).abs() < 1e-3);
/// assert_eq!(out.len(), 47);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "mmse_resampler",
    summary = "A stream resampled by any ratio (`resamp_ratio` inputs per output) with the 8-tap MMSE interpolator (GNU Radio's mmse_resampler_ff/cc).",
    dtypes = [Float32, Complex32],
    make = Self::new(phase_shift, resamp_ratio).map_err(|e| Refused::param(param_name(e.name), e.reason))
)]
#[param(phase_shift: f32 = 0.0, doc = "the first output's fractional delay, in [0, 1]")]
#[param(resamp_ratio: f32, above = 0.0, example = 1.5, settable, doc = "inputs per output (above 1 makes fewer outputs)")]
#[message_input(
    name = "msg_in",
    doc = "a dict with `resamp_ratio` and/or `mu` (the next output's delay)"
)]
#[derive(Debug)]
pub struct MmseResampler<T: FirSample + Item> {
    /// The stream at its rate.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The stream resampled.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: Kernel<T>,
}

/// The block's name for a kernel parameter.
fn param_name(kernel: &'static str) -> &'static str {
    match kernel {
        "mu" => "phase_shift",
        _ => "resamp_ratio",
    }
}

#[block]
impl<T: FirSample + Item> MmseResampler<T> {
    /// A resampler starting at delay `phase_shift` (in [0, 1]) taking `resamp_ratio` inputs
    /// per output.
    ///
    /// # Errors
    /// If `phase_shift` is outside [0, 1] or `resamp_ratio` is not finite and above 0; the
    /// error names the kernel's parameter (`mu` or `ratio`).
    pub fn new(phase_shift: f32, resamp_ratio: f32) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(phase_shift, resamp_ratio)?,
        })
    }

    /// Inputs per output.
    pub fn resamp_ratio(&self) -> f32 {
        self.kernel.ratio()
    }

    /// The `resamp_ratio` parameter's setter: a finite number above 0 sets the ratio from the
    /// next output on; anything else is ignored with a warning.
    fn set_resamp_ratio(&mut self, msg: Pmt) {
        match msg.as_f64() {
            Some(r) => {
                if let Err(e) = self.kernel.set_ratio(r as f32) {
                    tracing::warn!("mmse_resampler resamp_ratio: {e}; ignored");
                }
            }
            None => tracing::warn!("mmse_resampler resamp_ratio: {msg} is not a number; ignored"),
        }
    }

    #[message_input(name = "msg_in")]
    fn msg_in(&mut self, msg: Pmt) {
        if !msg.is_dict() {
            tracing::warn!("mmse_resampler msg_in: {msg} is not a dict; ignored");
            return;
        }
        if let Some(r) = msg.dict_get("resamp_ratio") {
            self.set_resamp_ratio(r.clone());
        }
        if let Some(mu) = msg.dict_get("mu") {
            match mu.as_f64().map(|mu| self.kernel.set_mu(mu as f32)) {
                Some(Ok(())) => {}
                Some(Err(e)) => tracing::warn!("mmse_resampler msg_in: {e}; ignored"),
                None => tracing::warn!("mmse_resampler msg_in: mu {mu} is not a number; ignored"),
            }
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (from, to) = (self.input.offset(), self.output.offset());
        let (consumed, produced) = self.kernel.process(self.input.slice(), self.output.slice());
        let ratio = f64::from(self.kernel.ratio());
        for t in self.input.tags() {
            if t.offset >= from + consumed as u64 {
                break;
            }
            // GNU Radio's scheduler: the offset times the block's relative rate, rounded.
            let at = (t.offset as f64 / ratio).round() as u64;
            self.output
                .add_tag(at.max(to), t.key.clone(), t.value.clone());
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    /// A dict on msg_in sets the ratio and the next delay from the next call on (as GNU
    /// Radio's handle_msg: set_resamp_ratio, set_mu); a message that is not a dict, or a
    /// value out of range, is ignored; the resamp_ratio input sets the ratio alike.
    #[test]
    fn messages_set_the_ratio_and_the_delay() {
        let x: Vec<f32> = (0..600).map(|n| (0.05 * n as f32).sin()).collect();
        let mut h = Harness::new(MmseResampler::<f32>::new(0.0, 1.5).unwrap());
        let mut k = Kernel::<f32>::new(0.0, 1.5).unwrap();
        let mut dict = Pmt::Null;
        dict.dict_add(Pmt::symbol("resamp_ratio"), Pmt::Double(0.75));
        dict.dict_add(Pmt::symbol("mu"), Pmt::Double(0.5));
        let mut bad = Pmt::Null;
        bad.dict_add(Pmt::symbol("resamp_ratio"), Pmt::Double(-2.0));
        bad.dict_add(Pmt::symbol("mu"), Pmt::Double(3.0));
        let mut want = vec![0.0; 2000];
        for (i, part) in x.chunks(200).enumerate() {
            match i {
                1 => {
                    h.post("msg_in", dict.clone()).unwrap();
                    h.post("msg_in", bad.clone()).unwrap();
                    h.post("msg_in", Pmt::Double(9.0)).unwrap();
                    k.set_ratio(0.75).unwrap();
                    k.set_mu(0.5).unwrap();
                }
                2 => {
                    h.post("resamp_ratio", Pmt::Double(2.5)).unwrap();
                    h.post("resamp_ratio", Pmt::Double(0.0)).unwrap();
                    k.set_ratio(2.5).unwrap();
                }
                _ => {}
            }
            h.push("in", part);
            h.work().unwrap();
            let (_, made) = k.process(part, &mut want);
            assert_eq!(h.take_output::<f32>("out"), want[..made], "part {i}");
        }
        assert_eq!(h.block().resamp_ratio(), 2.5);
    }

    #[test]
    fn bad_parameters_are_refused_naming_them() {
        let e = MmseResampler::<f32>::new(0.0, 0.0).unwrap_err();
        assert_eq!(param_name(e.name), "resamp_ratio");
        let e = MmseResampler::<f32>::new(1.5, 1.0).unwrap_err();
        assert_eq!(param_name(e.name), "phase_shift");
    }
}
