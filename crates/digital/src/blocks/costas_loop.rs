//! [`CostasLoop`]: GNU Radio's Costas loop (`costas_loop_cc`).

use radioflow_dsp::CostasLoop as Kernel;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Carrier phase and frequency recovery for BPSK (`order` 2), QPSK (4) and 8PSK (8), as GNU
/// Radio's `costas_loop_cc` (kernel: [`radioflow_dsp::CostasLoop`]): the input turned by the
/// loop's phase. The optional outputs give, after each sample, the loop's frequency
/// (rad/sample), phase (rad) and error. A `phase_est` tag (radians, from `corr_est`) sets
/// the phase at its sample; the `noise` message (a number, dB) sets the noise floor the
/// `use_snr` detectors weigh by. Tags pass on the same samples, to every output.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::CostasLoop;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// // BPSK turned by 0.3 rad: the loop turns it back.
/// let x: Vec<Complex32> = (0..500)
///     .map(|n| Complex32::from_polar(if n % 2 == 0 { 1.0 } else { -1.0 }, 0.3))
///     .collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x));
/// let costas = fg.add(CostasLoop::new(0.1, 2, false)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, costas)?;
/// fg.connect(costas, sink)?;
/// fg.run()?;
/// assert!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data()[499].im.abs() < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "costas_loop",
    summary = "Carrier recovery for BPSK, QPSK and 8PSK (GNU Radio's costas_loop_cc).",
    make = Self::new(loop_bw, order, use_snr).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(loop_bw: f32, at_least = 0.0, settable, doc = "the loop bandwidth (rad/sample, at least 0; 2π/100 is usual; set while running: the loop's gains from the next sample on, its phase and frequency kept)")]
#[param(order: u32, example = 4, doc = "the constellation's order: 2 (BPSK), 4 (QPSK) or 8 (8PSK)")]
#[param(use_snr: bool = false, doc = "weigh the decisions by tanh(SNR·x), the noise floor from the `noise` message")]
#[message_input(name = "noise", doc = "the noise floor in dB (a number), for use_snr")]
#[derive(Debug)]
pub struct CostasLoop {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The samples, turned by the loop's phase.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// The loop's frequency after each sample, rad/sample (optional).
    #[output(name = "frequency")]
    frequency: StreamOutput<f32>,
    /// The loop's phase after each sample, radians (optional).
    #[output(name = "phase")]
    phase: StreamOutput<f32>,
    /// The phase error of each sample (optional).
    #[output(name = "error")]
    error: StreamOutput<f32>,
    kernel: Kernel,
}

#[block]
impl CostasLoop {
    /// GNU Radio's `costas_loop_cc(loop_bw, order, use_snr)`.
    ///
    /// # Errors
    /// If `order` is not 2, 4 or 8 or `loop_bw` is negative, naming the parameter.
    pub fn new(loop_bw: f32, order: u32, use_snr: bool) -> Result<Self, radioflow_dsp::ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            frequency: StreamOutput::optional(),
            phase: StreamOutput::optional(),
            error: StreamOutput::optional(),
            kernel: Kernel::new(loop_bw, order, use_snr)?,
        })
    }

    /// Sets the loop bandwidth from the next sample on, the phase and frequency kept (GNU
    /// Radio's `set_loop_bandwidth`).
    ///
    /// # Panics
    /// If `loop_bw` is negative or not finite (a running graph's value is checked before).
    pub fn set_loop_bw(&mut self, loop_bw: f32) {
        if let Err(e) = self.kernel.set_loop_bandwidth(loop_bw) {
            panic!("costas_loop: {e}");
        }
    }

    /// Sets the noise floor, in dB (GNU Radio's `noise` port; other messages are ignored, as
    /// there).
    #[message_input]
    pub fn noise(&mut self, db: Pmt) {
        if let Some(db) = db.as_f64() {
            self.kernel.set_noise_db(db as f32);
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let mut n = self.input.slice().len().min(self.output.slice().len());
        for p in [&mut self.frequency, &mut self.phase, &mut self.error] {
            if p.is_connected() {
                n = n.min(p.slice().len());
            }
        }
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let from = self.input.offset();
        let mut at = 0;
        // Runs between `phase_est` tags, each setting the phase at its sample.
        while at < n {
            let mut end = n;
            for t in self.input.tags() {
                let i = t.offset.saturating_sub(from) as usize;
                if t.offset < from + at as u64 || t.key.as_symbol() != Some("phase_est") {
                    continue;
                }
                if i >= n {
                    break;
                }
                if i == at {
                    if let Some(p) = t.value.as_f64() {
                        self.kernel.set_phase(p as f32);
                    }
                } else {
                    end = i;
                    break;
                }
            }
            let slot = |p| slot(p).map(|s: &mut [f32]| &mut s[at..end]);
            let (f, p, e) = (
                slot(&mut self.frequency),
                slot(&mut self.phase),
                slot(&mut self.error),
            );
            self.kernel.process(
                &self.input.slice()[at..end],
                &mut self.output.slice()[at..end],
                f,
                p,
                e,
            );
            at = end;
        }
        propagate_tags(&self.input, &mut self.output, n);
        for p in [&mut self.frequency, &mut self.phase, &mut self.error] {
            if p.is_connected() {
                propagate_tags(&self.input, p, n);
                p.produce(n);
            }
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

/// An optional output's free space, if it is connected.
fn slot(p: &mut StreamOutput<f32>) -> Option<&mut [f32]> {
    if p.is_connected() {
        Some(p.slice())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;
    use std::f32::consts::FRAC_PI_4;

    #[test]
    fn loop_bw_set_while_running_starts_the_loop_from_its_state() {
        // A QPSK symbol 0.3 rad off its place: a loop of bandwidth 0 leaves it there.
        let x = Complex32::from_polar(1.0, FRAC_PI_4 + 0.3);
        let mut h = Harness::new(CostasLoop::new(0.0, 4, false).unwrap());
        h.push("in", &[x; 200]);
        h.work().unwrap();
        assert!(h.take_output::<Complex32>("out").iter().all(|y| *y == x));
        // Through the settable parameter's message input: the loop pulls it to its place.
        h.post("loop_bw", 0.2f32).unwrap();
        h.push("in", &[x; 2000]);
        h.work().unwrap();
        let y = *h.take_output::<Complex32>("out").last().unwrap();
        assert!((y.arg() - FRAC_PI_4).abs() < 1e-3, "{}", y.arg());
    }
}
