//! [`BinarySlicer`]: floats to bits by their sign.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each float as a bit: 1 where it is `>= 0` (so -0.0 too), else 0 (NaN too), as GNU
/// Radio's `binary_slicer_fb` (VOLK's `volk_32f_binary_slicer_8i`). Tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::BinarySlicer;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.5f32, -0.1, 0.0]));
/// let slicer = fg.add(BinarySlicer::new());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, slicer)?;
/// fg.connect(slicer, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 0, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "binary_slicer",
    summary = "Floats to bits: 1 where >= 0, else 0 (GNU Radio's binary_slicer_fb).",
    make = Self::new()
)]
#[derive(Debug, Default)]
pub struct BinarySlicer {
    /// Soft values.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// One bit per byte, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
}

#[block]
impl BinarySlicer {
    /// A slicer.
    pub fn new() -> Self {
        Self::default()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, i) in y.iter_mut().zip(x) {
                *o = u8::from(*i >= 0.0);
            }
        });
        Ok(WorkStatus::Continue)
    }
}
