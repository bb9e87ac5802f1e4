//! [`PeakDetector`]: GNU Radio's `peak_detector_xb`.

use radioflow_dsp::{PeakDetector as Kernel, PeakSample};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Marks the peaks of a signal with 1 (every other item 0), like GNU Radio's
/// `peak_detector_fb`, `_ib` and `_sb` given the whole signal at once (the kernel,
/// [`radioflow_dsp::PeakDetector`], says how): a sample above `avg ·
/// threshold_factor_rise` starts a search for the largest sample, which ends at a sample
/// neither larger nor above `avg · threshold_factor_fall`; `avg` follows the signal with
/// weight `alpha`. An item is written once no later sample can change its mark. Tags pass
/// on the same items.
///
/// # Example
/// ```
/// use radioflow_blocks::{PeakDetector, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32, 1.0, 3.0, 2.0, 0.0, 0.0]));
/// let pd = fg.add(PeakDetector::<f32>::new(0.25, 0.4, 0.001).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, pd)?;
/// fg.connect(pd, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0, 0, 1, 0, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "peak_detector",
    summary = "1 on the peaks of a signal, 0 elsewhere (GNU Radio's peak_detector_xb).",
    dtypes = [Float32, Int32, Int16],
    make = Self::new(threshold_factor_rise, threshold_factor_fall, alpha)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(threshold_factor_rise: f32 = 0.25, doc = "a search starts above avg times this")]
#[param(threshold_factor_fall: f32 = 0.4, doc = "a search ends at or below avg times this")]
#[param(alpha: f32 = 0.001, doc = "the running average's weight of each new sample")]
#[derive(Debug)]
pub struct PeakDetector<T: Item + PeakSample> {
    /// The signal.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Bytes: 1 on a peak, else 0; the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    kernel: Kernel<T>,
}

#[block]
impl<T: Item + PeakSample> PeakDetector<T> {
    /// A detector with GNU Radio's thresholds and average weight.
    ///
    /// # Errors
    /// If a value is not finite, naming it.
    pub fn new(
        threshold_factor_rise: f32,
        threshold_factor_fall: f32,
        alpha: f32,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: Kernel::new(threshold_factor_rise, threshold_factor_fall, alpha)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let ended = self.input.is_finished();
        let n = self
            .kernel
            .process(self.input.slice(), self.output.slice(), ended);
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
