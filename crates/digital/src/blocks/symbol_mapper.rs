//! [`SymbolMapper`]: the work of the chunks_to_symbols blocks, whatever their chunk type.

use radioflow_runtime::prelude::*;
use radioflow_runtime::{FromMessage, Pmt};

/// The tag and the message port that change the table (GNU Radio's `set_symbol_table`).
pub(super) const SET_TABLE: &str = "set_symbol_table";

/// A symbol type the table may hold, and how a `set_symbol_table` vector is read.
pub trait Symbol: Item + FromMessage {
    /// The symbols of a tag's or message's value, if it is a vector of this type.
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

/// The symbols of a list of numbers (what the settable `symbol_table` parameter is set with:
/// a GRC expression's list, a numpy array), each converted as a message's number is.
fn numbers<T: Symbol>(value: &Pmt) -> Option<Vec<T>> {
    match value {
        Pmt::Vector(xs) | Pmt::Tuple(xs) => xs.iter().map(T::from_message).collect(),
        Pmt::F32Vector(xs) => xs
            .iter()
            .map(|&x| T::from_message(&Pmt::Double(x.into())))
            .collect(),
        Pmt::F64Vector(xs) => xs
            .iter()
            .map(|&x| T::from_message(&Pmt::Double(x)))
            .collect(),
        Pmt::Pair(_) => {
            let mut symbols = Vec::new();
            let mut cell = value;
            while let Some((car, cdr)) = cell.as_pair() {
                symbols.push(T::from_message(car)?);
                cell = cdr;
            }
            matches!(cell, Pmt::Null).then_some(symbols)
        }
        _ => None,
    }
}

/// A chunk type: an index into the table (GNU Radio's `unsigned char`, `short`, `int`).
pub trait Chunk: Item + std::fmt::Display {
    /// The index, if it is one (GNU Radio casts a negative chunk to a huge index).
    fn index(self) -> Option<usize>;
}

impl Chunk for u8 {
    fn index(self) -> Option<usize> {
        Some(self.into())
    }
}

impl Chunk for i16 {
    fn index(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

impl Chunk for i32 {
    fn index(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

/// The table and the dimension of a chunks_to_symbols block named `block`.
#[derive(Debug)]
pub(super) struct SymbolMapper<T> {
    block: &'static str,
    table: Vec<T>,
    dimension: usize,
}

impl<T: Symbol> SymbolMapper<T> {
    /// A mapper through `table`, `dimension` symbols per chunk.
    ///
    /// # Errors
    /// An empty table, a dimension of 0, or a table whose length is not a multiple of it (the
    /// message follows the name `symbol_table`).
    pub(super) fn new(
        block: &'static str,
        table: Vec<T>,
        dimension: usize,
    ) -> Result<Self, String> {
        if dimension == 0 || table.is_empty() || !table.len().is_multiple_of(dimension) {
            return Err(format!(
                "has {} symbols, not a whole number of groups of dimension {dimension}",
                table.len()
            ));
        }
        Ok(Self {
            block,
            table,
            dimension,
        })
    }

    /// Replaces the table by a `set_symbol_table` tag's or message's vector (`from` says
    /// which, for the error).
    pub(super) fn set_table(&mut self, value: &Pmt, from: &str) -> Result<(), BlockError> {
        let symbols = T::from_vector(value).ok_or_else(|| {
            BlockError::msg(format!(
                "{}: a {SET_TABLE} {from}'s value is not a vector of the item type: {value}",
                self.block
            ))
        })?;
        // A control event, not the data path: the table may grow.
        self.table.clear();
        self.table.extend_from_slice(symbols);
        Ok(())
    }

    /// Replaces the table by the settable `symbol_table` parameter's value: a vector of the
    /// item type or a list of numbers (a GRC expression's list, a numpy array). `None` (the
    /// table unchanged) for anything else.
    pub(super) fn set_symbols(&mut self, value: &Pmt) -> Option<()> {
        if T::from_vector(value).is_some() {
            return self.set_table(value, "setting").ok();
        }
        self.table = numbers(value)?;
        Some(())
    }

    /// One work call: each chunk as its symbols; a `set_symbol_table` tag changes the table
    /// from its item on; every tag goes to the first symbol of its item.
    pub(super) fn work<I: Chunk>(
        &mut self,
        input: &mut StreamInput<I>,
        output: &mut StreamOutput<T>,
    ) -> Result<WorkStatus, BlockError> {
        let d = self.dimension;
        let n = input.slice().len().min(output.slice().len() / d);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let (from, to) = (input.offset(), output.offset());
        let mut done = 0;
        for t in input.tags() {
            if t.offset >= from + n as u64 {
                break;
            }
            let at = (t.offset - from) as usize;
            output.add_tag_at(to + (at * d) as u64, t);
            if t.key.as_symbol() == Some(SET_TABLE) {
                // The items before the tag use the table they had.
                self.map(
                    &input.slice()[done..at],
                    &mut output.slice()[done * d..at * d],
                )?;
                done = at;
                self.set_table(&t.value, "tag")?;
            }
        }
        self.map(
            &input.slice()[done..n],
            &mut output.slice()[done * d..n * d],
        )?;
        input.consume(n);
        output.produce(n * d);
        Ok(WorkStatus::Continue)
    }

    /// `y` = the symbols of each chunk of `x`.
    fn map<I: Chunk>(&self, x: &[I], y: &mut [T]) -> Result<(), BlockError> {
        let d = self.dimension;
        for (k, out) in x.iter().zip(y.chunks_exact_mut(d)) {
            let symbols = k
                .index()
                .and_then(|i| self.table.get(i * d..i * d + d))
                .ok_or_else(|| {
                    BlockError::msg(format!(
                        "{}: chunk {k} is beyond the symbol table ({} symbols of dimension {d})",
                        self.block,
                        self.table.len()
                    ))
                })?;
            out.copy_from_slice(symbols);
        }
        Ok(())
    }
}
