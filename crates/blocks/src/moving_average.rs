//! [`MovingAverage`]: GNU Radio's `moving_average_xx`, bit for bit.

use radioflow_dsp::{Arith, GrMovingAverage};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The sum of the last `length` items times `scale` (`scale = 1/length` for the mean), from
/// zero history, computed as GNU Radio's `moving_average_xx` computes it, so its outputs are
/// GNU Radio's bit for bit (the kernel is [`GrMovingAverage`]: integers wrap, floats recompute
/// their sum every `max_iter` outputs). Tags pass on the same items.
///
/// # Example
/// ```
/// use radioflow_blocks::{MovingAverage, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![3i32, 3, 6, 6]));
/// let avg = fg.add(MovingAverage::<i32>::new(2, 1, 4000).unwrap());
/// let sink = fg.add(VectorSink::<i32>::new());
/// fg.connect(src, avg)?;
/// fg.connect(avg, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<i32>>(sink).unwrap().data(), &[3, 6, 9, 12]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "moving_average",
    summary = "The sum of the last `length` items times `scale`, as GNU Radio computes it.",
    dtypes = [Complex32, Float32, Int32, Int16],
    make = Self::new(length, scale, max_iter).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(length: usize, min = 1, doc = "items summed")]
#[param(scale: T, example = 1, doc = "the factor applied to the sum")]
#[param(max_iter: usize = 4000, min = 1, doc = "outputs between recomputations of the sum")]
#[derive(Debug)]
pub struct MovingAverage<T: Item + Arith + Default> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The scaled sums, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<T>,
    kernel: GrMovingAverage<T>,
}

#[block]
impl<T: Item + Arith + Default> MovingAverage<T> {
    /// Sums of `length` items times `scale`, recomputed every `max_iter` outputs.
    ///
    /// # Errors
    /// If `length` or `max_iter` is 0, naming it.
    pub fn new(
        length: usize,
        scale: T,
        max_iter: usize,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            kernel: GrMovingAverage::new(length, scale, max_iter)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process(x, y);
        });
        Ok(WorkStatus::Continue)
    }
}
