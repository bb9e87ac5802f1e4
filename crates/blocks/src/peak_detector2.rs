//! [`PeakDetector2`]: GNU Radio's `peak_detector2_fb`.

use radioflow_dsp::PeakDetector2 as Kernel;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Marks with 1 the largest sample of each window of `look_ahead` samples that starts where
/// the signal rises above its running average times `1 + threshold_factor_rise` (every
/// other item 0), like GNU Radio's `peak_detector2_fb` (the kernel,
/// [`radioflow_dsp::PeakDetector2`], says how); the optional `avg` output gives the running
/// average at every sample. A window the stream ends in is not given out. Tags pass on the
/// same items.
///
/// # Example
/// ```
/// use radioflow_blocks::{PeakDetector2, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32, 1.0, 3.0, 2.0, 0.0, 0.0, 0.0]));
/// let pd = fg.add(PeakDetector2::new(2.0, 5, 0.1).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, pd)?;
/// fg.connect(pd, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0, 0, 1, 0, 0, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "peak_detector2",
    summary = "1 on the largest sample of each window that rises above the running average (GNU Radio's peak_detector2_fb).",
    make = Self::new(threshold_factor_rise, look_ahead, alpha)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(threshold_factor_rise: f32 = 7.0, doc = "a window starts above avg times 1 + this")]
#[param(look_ahead: usize = 1000, min = 1, doc = "samples per window")]
#[param(alpha: f32 = 0.001, doc = "the running average's weight of each new sample")]
#[derive(Debug)]
pub struct PeakDetector2 {
    /// The signal.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// Bytes: 1 on a peak, else 0; the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// The running average at each sample (optional).
    #[output(name = "avg")]
    avg: StreamOutput<f32>,
    kernel: Kernel,
}

#[block]
impl PeakDetector2 {
    /// A detector with GNU Radio's threshold factor, window and average weight.
    ///
    /// # Errors
    /// If `look_ahead` is 0 or a factor is not finite, naming it.
    pub fn new(
        threshold_factor_rise: f32,
        look_ahead: usize,
        alpha: f32,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        let kernel = Kernel::new(threshold_factor_rise, look_ahead, alpha)?;
        Ok(Self {
            input: StreamInput::new().with_min_items(look_ahead),
            output: StreamOutput::new().with_min_items(look_ahead),
            avg: StreamOutput::optional().with_min_items(look_ahead),
            kernel,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let avgs = self.avg.is_connected().then(|| self.avg.slice());
        let n = self
            .kernel
            .process(self.input.slice(), self.output.slice(), avgs);
        propagate_tags(&self.input, &mut self.output, n);
        propagate_tags(&self.input, &mut self.avg, n);
        self.input.consume(n);
        self.output.produce(n);
        self.avg
            .produce(if self.avg.is_connected() { n } else { 0 });
        Ok(WorkStatus::Continue)
    }
}
