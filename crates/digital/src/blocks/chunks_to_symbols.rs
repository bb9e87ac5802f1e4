//! [`ChunksToSymbols`]: each byte as `dimension` symbols of a table.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Pmt;

/// The tag that changes the table from its item on (GNU Radio's `set_symbol_table`).
const SET_TABLE: &str = "set_symbol_table";

/// A symbol type the table may hold, and how a `set_symbol_table` tag's vector is read.
pub trait Symbol: Item {
    /// The symbols of a tag's value, if it is a vector of this type.
    fn from_vector(value: &Pmt) -> Option<&[Self]>;
}

impl Symbol for Complex32 {
    fn from_vector(value: &Pmt) -> Option<&[Self]> {
        match value {
            Pmt::C32Vector(v) => Some(v),
            _ => None,
        }
    }
}

impl Symbol for f32 {
    fn from_vector(value: &Pmt) -> Option<&[Self]> {
        match value {
            Pmt::F32Vector(v) => Some(v),
            _ => None,
        }
    }
}

/// Maps each input byte `k` to the `dimension` symbols `table[k·D .. k·D + D]` (GNU Radio's
/// `chunks_to_symbols_bc` / `_bf`). A `set_symbol_table` tag on an input item (a `c32vector`
/// or `f32vector`) replaces the table from that item on, as in GNU Radio; tags move to the
/// first symbol made from their item. A byte beyond the table is an error naming the block.
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
    summary = "Each byte k as the `dimension` symbols table[k·D .. k·D + D] (GNU Radio's chunks_to_symbols_bc/_bf).",
    dtypes = [Complex32, Float32],
    make = Self::new(symbol_table, dimension).map_err(|e| Refused::param("symbol_table", e))
)]
#[param(symbol_table: Vec<T>, doc = "the symbols, `dimension` per byte value")]
#[param(dimension: usize = 1, min = 1, doc = "symbols per byte")]
#[derive(Debug)]
pub struct ChunksToSymbols<T: Symbol> {
    /// Symbol indices, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// `dimension` symbols per byte.
    #[output(name = "out")]
    output: StreamOutput<T>,
    table: Vec<T>,
    dimension: usize,
}

#[block]
impl<T: Symbol> ChunksToSymbols<T> {
    /// Maps bytes through `table`, `dimension` symbols each.
    ///
    /// # Errors
    /// An empty table, a dimension of 0, or a table whose length is not a multiple of it
    /// (the message follows the name `symbol_table`).
    pub fn new(table: Vec<T>, dimension: usize) -> Result<Self, String> {
        if dimension == 0 || table.is_empty() || !table.len().is_multiple_of(dimension) {
            return Err(format!(
                "has {} symbols, not a whole number of groups of dimension {dimension}",
                table.len()
            ));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(dimension),
            table,
            dimension,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let d = self.dimension;
        let n = self.input.slice().len().min(self.output.slice().len() / d);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let (from, to) = (self.input.offset(), self.output.offset());
        let mut done = 0;
        for t in self.input.tags() {
            if t.offset >= from + n as u64 {
                break;
            }
            let at = (t.offset - from) as usize;
            self.output
                .add_tag(to + (at * d) as u64, t.key.clone(), t.value.clone());
            if t.key.as_symbol() == Some(SET_TABLE) {
                // The items before the tag use the table they had.
                map(
                    &self.table,
                    d,
                    &self.input.slice()[done..at],
                    &mut self.output.slice()[done * d..at * d],
                )?;
                done = at;
                let symbols = T::from_vector(&t.value).ok_or_else(|| {
                    BlockError::msg(format!(
                        "chunks_to_symbols: a {SET_TABLE} tag's value is not a vector of the item type: {}",
                        t.value
                    ))
                })?;
                self.table.clear();
                self.table.extend_from_slice(symbols);
            }
        }
        map(
            &self.table,
            d,
            &self.input.slice()[done..n],
            &mut self.output.slice()[done * d..n * d],
        )?;
        self.input.consume(n);
        self.output.produce(n * d);
        Ok(WorkStatus::Continue)
    }
}

/// `y` = the `d` symbols of each byte of `x`.
fn map<T: Item>(table: &[T], d: usize, x: &[u8], y: &mut [T]) -> Result<(), BlockError> {
    for (k, out) in x.iter().zip(y.chunks_exact_mut(d)) {
        let at = usize::from(*k) * d;
        let symbols = table.get(at..at + d).ok_or_else(|| {
            BlockError::msg(format!(
                "chunks_to_symbols: byte {k} is beyond the symbol table ({} symbols of dimension {d})",
                table.len()
            ))
        })?;
        out.copy_from_slice(symbols);
    }
    Ok(())
}
