//! [`ConstSource`]: the same value, forever.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::FromMessage;

/// Writes one value forever, like GNU Radio's Constant Source (`analog_const_source_x`,
/// which GNU Radio makes as a `sig_source` of constant waveform: its output is the offset,
/// exactly). `value` can be set while the graph runs (GNU Radio's `set_offset`); a value
/// out of the item type's range is ignored with a warning.
///
/// # Example
/// ```
/// use radioflow_blocks::{ConstSource, Head, VectorSink};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(ConstSource::new(-3i16));
/// let head = fg.add(Head::<i16>::new(3));
/// let sink = fg.add(VectorSink::<i16>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[-3, -3, -3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "const_source",
    summary = "`value` in every item (GNU Radio's analog_const_source_x).",
    dtypes = [Complex32, Float32, Int32, Int16, Int8, Uint8]
)]
#[param(value: T, settable, example = 0, doc = "the value")]
#[derive(Debug)]
pub struct ConstSource<T: Item + FromMessage> {
    /// `value`, again and again.
    #[output(name = "out")]
    output: StreamOutput<T>,
    value: T,
}

#[block]
impl<T: Item + FromMessage> ConstSource<T> {
    /// A source of `value`.
    pub fn new(value: T) -> Self {
        Self {
            output: StreamOutput::new(),
            value,
        }
    }

    /// Changes the value.
    pub fn set_value(&mut self, value: T) {
        self.value = value;
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = out.len();
        out.fill(self.value);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn writes_the_value_as_set() {
        let mut h = Harness::new(ConstSource::new(Complex32::new(1.0, -2.0)));
        h.set_space("out", 3);
        h.work().unwrap();
        assert_eq!(
            h.take_output::<Complex32>("out"),
            [Complex32::new(1.0, -2.0); 3]
        );
        h.post("value", Pmt::Double(0.5)).unwrap();
        h.work().unwrap();
        assert_eq!(
            h.take_output::<Complex32>("out"),
            [Complex32::new(0.5, 0.0); 3]
        );

        let mut h = Harness::new(ConstSource::new(7i8));
        h.post("value", Pmt::Int(300)).unwrap();
        h.set_space("out", 2);
        h.work().unwrap();
        assert_eq!(h.take_output::<i8>("out"), [7, 7], "out of range: ignored");
        h.post("value", Pmt::Int(-128)).unwrap();
        h.work().unwrap();
        assert_eq!(h.take_output::<i8>("out"), [-128, -128]);
    }
}
