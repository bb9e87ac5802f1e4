//! [`FllBandEdge`]: GNU Radio's band-edge FLL (`fll_band_edge_cc`).

use radioflow_dsp::FllBandEdge as Kernel;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Coarse carrier frequency recovery by band-edge filters, as GNU Radio's
/// `fll_band_edge_cc` (kernel: [`radioflow_dsp::FllBandEdge`]): the input turned by the
/// loop's phase, `filter_size` samples late as GNU Radio's. The optional outputs give,
/// after each sample, the loop's frequency (rad/sample), phase (rad) and error. Tags pass
/// on the same items (GNU Radio's, which leaves them where they were while the samples come
/// later).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::FllBandEdge;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 100]));
/// let fll = fg.add(FllBandEdge::new(4.0, 0.35, 45, 0.01)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, fll)?;
/// fg.connect(fll, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().to_vec();
/// assert_eq!((y.len(), y[44], y[45]), (100, Complex32::default(), Complex32::new(1.0, 0.0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fll_band_edge",
    summary = "Carrier frequency recovery by band-edge filters (GNU Radio's fll_band_edge_cc).",
    dtypes = [Complex32],
    make = Self::new(samps_per_sym, rolloff, filter_size, loop_bw)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(samps_per_sym: f32, example = 4.0, doc = "samples per symbol")]
#[param(rolloff: f32, example = 0.35, doc = "the pulse's excess bandwidth, in [0, 1]")]
#[param(filter_size: usize, min = 1, example = 45, doc = "taps of each band-edge filter")]
#[param(loop_bw: f32, example = 0.0628, at_least = 0.0, settable, doc = "the loop bandwidth (rad/sample, at least 0; set while running: the loop's gains from the next sample on, its phase and frequency kept)")]
#[derive(Debug)]
pub struct FllBandEdge {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The samples turned by the loop's phase, `filter_size` late.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// The loop's frequency after each sample, rad/sample (optional).
    #[output(name = "freq")]
    frequency: StreamOutput<f32>,
    /// The loop's phase after each sample, radians (optional).
    #[output(name = "phase")]
    phase: StreamOutput<f32>,
    /// The loop's error at each sample (optional).
    #[output(name = "error")]
    error: StreamOutput<f32>,
    kernel: Kernel,
}

#[block]
impl FllBandEdge {
    /// GNU Radio's `fll_band_edge_cc(samps_per_sym, rolloff, filter_size, bandwidth)`.
    ///
    /// # Errors
    /// A parameter the kernel refuses ([`radioflow_dsp::FllBandEdge::new`]), named.
    pub fn new(
        samps_per_sym: f32,
        rolloff: f32,
        filter_size: usize,
        loop_bw: f32,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            frequency: StreamOutput::optional(),
            phase: StreamOutput::optional(),
            error: StreamOutput::optional(),
            kernel: Kernel::new(samps_per_sym, rolloff, filter_size, loop_bw)?,
        })
    }

    /// Sets the loop bandwidth from the next sample on, the phase and frequency kept (GNU
    /// Radio's `set_loop_bandwidth`).
    ///
    /// # Panics
    /// If `loop_bw` is negative or not finite (a running graph's value is checked before).
    pub fn set_loop_bw(&mut self, loop_bw: f32) {
        if let Err(e) = self.kernel.set_loop_bandwidth(loop_bw) {
            panic!("fll_band_edge: {e}");
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
        let cut = |p| slot(p).map(|s: &mut [f32]| &mut s[..n]);
        let (f, p, e) = (
            cut(&mut self.frequency),
            cut(&mut self.phase),
            cut(&mut self.error),
        );
        self.kernel.process(
            &self.input.slice()[..n],
            &mut self.output.slice()[..n],
            f,
            p,
            e,
        );
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

    #[test]
    fn loop_bw_set_while_running_lets_the_loop_move() {
        // A tone near the band edge of 4 samples a symbol: with bandwidth 0 the loop's
        // frequency stays 0; set while running, it moves.
        let tone: Vec<Complex32> = (0..4000)
            .map(|n| Complex32::from_polar(1.0, 0.4 * n as f32))
            .collect();
        let mut h = Harness::new(FllBandEdge::new(4.0, 0.35, 45, 0.0).unwrap());
        h.push("in", &tone[..2000]);
        h.work().unwrap();
        assert!(h.take_output::<f32>("freq").iter().all(|f| *f == 0.0));
        h.post("loop_bw", 0.05f32).unwrap();
        h.push("in", &tone[2000..]);
        h.work().unwrap();
        let f = h.take_output::<f32>("freq");
        assert!(f.last().unwrap().abs() > 1e-3, "{:?}", &f[f.len() - 4..]);
    }
}
