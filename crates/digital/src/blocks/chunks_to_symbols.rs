//! [`ChunksToSymbols`]: each byte as `dimension` symbols of a table.

use super::symbol_mapper::{Symbol, SymbolMapper};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Pmt;

/// Maps each input byte `k` to the `dimension` symbols `table[k·D .. k·D + D]` (GNU Radio's
/// `chunks_to_symbols_bc / _bf`). A `set_symbol_table` tag on an input item, or message to the
/// `set_symbol_table` port (a `c32vector` or `f32vector` of the item type), replaces the table
/// from then on, as in GNU Radio; so does setting the `symbol_table` parameter while the graph
/// runs (its message input takes a list of numbers too), from the next work call on, as GNU
/// Radio's `set_symbol_table`; tags move to the first symbol made from their item. A
/// byte beyond the table is an error naming the block.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::ChunksToSymbols;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 0]));
/// let table = vec![Complex32::new(-1.0, 0.0), Complex32::new(1.0, 0.0)];
/// let map = fg.add(ChunksToSymbols::new(table, 1).unwrap());
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, map)?;
/// fg.connect(map, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data()[0].re, 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "chunks_to_symbols",
    summary = "Each byte k as the `dimension` symbols table[k·D .. k·D + D] (GNU Radio's chunks_to_symbols_bc / _bf).",
    dtypes = [Complex32, Float32],
    make = Self::new(symbol_table, dimension).map_err(|e| Refused::param("symbol_table", e))
)]
#[param(symbol_table: Vec<T>, settable, doc = "the symbols, `dimension` per chunk value (set while running: from the next work call on, as GNU Radio's set_symbol_table)")]
#[param(dimension: usize = 1, min = 1, doc = "symbols per chunk")]
#[message_input(
    name = "set_symbol_table",
    doc = "a vector of the item type (c32vector or f32vector): the table from then on"
)]
#[derive(Debug)]
pub struct ChunksToSymbols<T: Symbol> {
    /// Symbol indices, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// `dimension` symbols per byte.
    #[output(name = "out")]
    output: StreamOutput<T>,
    mapper: SymbolMapper<T>,
}

#[block]
impl<T: Symbol> ChunksToSymbols<T> {
    /// Maps chunks through `table`, `dimension` symbols each.
    ///
    /// # Errors
    /// An empty table, a dimension of 0, or a table whose length is not a multiple of it
    /// (the message follows the name `symbol_table`).
    pub fn new(table: Vec<T>, dimension: usize) -> Result<Self, String> {
        let mapper = SymbolMapper::new("chunks_to_symbols", table, dimension)?;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(dimension),
            mapper,
        })
    }

    /// The `set_symbol_table` message input: the table from the next work call on.
    #[message_input(name = "set_symbol_table")]
    fn symbol_table_message(&mut self, table: Pmt) -> Result<(), BlockError> {
        self.mapper.set_table(&table, "message")
    }

    /// Maps with `table` (a vector of the item type or a list of numbers) from the next work
    /// call on (GNU Radio's `set_symbol_table`); a value that is neither is ignored with a
    /// warning, leaving the running graph as it was.
    pub fn set_symbol_table(&mut self, table: Pmt) {
        if self.mapper.set_symbols(&table).is_none() {
            tracing::warn!(
                "chunks_to_symbols: symbol_table set to {table}, not a vector of the item type \
                 or a list of numbers: the table is unchanged"
            );
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        self.mapper.work(&mut self.input, &mut self.output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;
    use radioflow_runtime::Complex32;

    #[test]
    fn symbol_table_set_while_running_maps_from_the_next_call_as_gnu_radio_s() {
        let mut h = Harness::new(ChunksToSymbols::<f32>::new(vec![-1.0, 1.0], 1).unwrap());
        h.push("in", &[0u8, 1, 1]);
        h.work().unwrap();
        // Through the settable parameter's message input, as a running graph gets it: a
        // GRC list of numbers; a value that is not a list is ignored.
        h.post("symbol_table", Pmt::symbol("no")).unwrap();
        h.post(
            "symbol_table",
            Pmt::Vector(vec![Pmt::Double(-3.0), Pmt::Int(3)].into()),
        )
        .unwrap();
        h.push("in", &[1u8, 0]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [-1.0, 1.0, 1.0, 3.0, -3.0]);
        // Complex symbols from a list of complex numbers, and GNU Radio's message form.
        let table = vec![Complex32::new(1.0, 0.0), Complex32::new(-1.0, 0.0)];
        let mut h = Harness::new(ChunksToSymbols::<Complex32>::new(table, 1).unwrap());
        let j = Complex32::new(0.0, 1.0);
        h.post(
            "symbol_table",
            Pmt::Vector(vec![Pmt::from(j), Pmt::from(-j)].into()),
        )
        .unwrap();
        h.push("in", &[1u8, 0]);
        h.work().unwrap();
        assert_eq!(h.take_output::<Complex32>("out"), [-j, j]);
        h.post(
            "set_symbol_table",
            Pmt::C32Vector(vec![j * 2.0, -j * 2.0].into()),
        )
        .unwrap();
        h.push("in", &[0u8]);
        h.work().unwrap();
        assert_eq!(h.take_output::<Complex32>("out"), [j * 2.0]);
    }
}
