//! [`Integrate`]: sums of consecutive groups of `decim` items.

use crate::tag_map::{gr_rate_offset, move_tags};
use radioflow_dsp::Arith;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// One output per `decim` inputs, their sum (in the item type: floats round at every step,
/// integers wrap), like GNU Radio's `integrate_xx` ([`integrate`](radioflow_dsp::integrate));
/// items of an unfinished group at the end of the stream make no output. A tag on input item
/// `i` goes to output item `i / decim` rounded half up, where GNU Radio's scheduler puts it.
///
/// # Example
/// ```
/// use radioflow_blocks::{Integrate, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1i16, 2, 3, 4, 5, 6, 7]));
/// let int = fg.add(Integrate::<i16>::new(3).unwrap());
/// let sink = fg.add(VectorSink::<i16>::new());
/// fg.connect(src, int)?;
/// fg.connect(int, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[6, 15]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "integrate",
    summary = "The sum of every `decim` consecutive items.",
    dtypes = [Complex32, Float32, Int32, Int16],
    make = Self::new(decim).map_err(|e| Refused::param("decim", e))
)]
#[param(decim: usize, min = 1, doc = "items summed per output")]
#[derive(Debug)]
pub struct Integrate<T: Item + Arith + Default> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The sums.
    #[output(name = "out")]
    output: StreamOutput<T>,
    decim: usize,
}

#[block]
impl<T: Item + Arith + Default> Integrate<T> {
    /// Sums of `decim` items.
    ///
    /// # Errors
    /// If `decim` is 0.
    pub fn new(decim: usize) -> Result<Self, String> {
        if decim == 0 {
            return Err("must be at least 1".into());
        }
        Ok(Self {
            input: StreamInput::new().with_min_items(decim),
            output: StreamOutput::new(),
            decim,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let decim = self.decim;
        let n = radioflow_dsp::integrate(self.input.slice(), decim, self.output.slice());
        move_tags(&self.input, &mut self.output, 0..n * decim, |o| {
            gr_rate_offset(o, 1, decim as u64)
        });
        self.input.consume(n * decim);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
