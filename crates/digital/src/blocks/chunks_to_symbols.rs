//! [`ChunksToSymbols`]: each byte as `dimension` symbols of a table.

use super::symbol_mapper::{Symbol, SymbolMapper};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Pmt;

/// Maps each input byte `k` to the `dimension` symbols `table[k·D .. k·D + D]` (GNU Radio's
/// `chunks_to_symbols_bc / _bf`). A `set_symbol_table` tag on an input item, or message to the
/// `set_symbol_table` port (a `c32vector` or `f32vector` of the item type), replaces the table
/// from then on, as in GNU Radio; tags move to the first symbol made from their item. A
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
#[param(symbol_table: Vec<T>, doc = "the symbols, `dimension` per chunk value")]
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
    fn set_symbol_table(&mut self, table: Pmt) -> Result<(), BlockError> {
        self.mapper.set_table(&table, "message")
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        self.mapper.work(&mut self.input, &mut self.output)
    }
}
