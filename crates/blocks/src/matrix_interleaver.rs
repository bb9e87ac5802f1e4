//! [`MatrixInterleaver`]: blocks of items written by rows and read by columns.

use crate::tag_map::gr_rate_offset;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Reorders blocks of `rows · cols` items as GNU Radio's `matrix_interleaver`: written into
/// the rows of a matrix and read by its columns (`deint`: written into its columns and read by
/// its rows, which undoes the interleaving). Items may be vectors (`vlen`); a block cut short
/// by the end of the stream makes no output.
///
/// GNU Radio builds it from a deinterleave into `rows` streams and an interleave back: each
/// tag comes out `rows` times, at its offset rounded to a multiple of `rows` (half up); with one
/// row or one column it is a copy, tags as they are. This block places them so.
///
/// # Example
/// ```
/// use radioflow_blocks::{MatrixInterleaver, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0i32, 1, 2, 3, 4, 5]));
/// let mi = fg.add(MatrixInterleaver::<i32>::new(2, 3, false).unwrap());
/// let sink = fg.add(VectorSink::<i32>::new());
/// fg.connect(src, mi)?;
/// fg.connect(mi, sink)?;
/// fg.run()?;
/// // Rows [0 1 2] and [3 4 5], read by columns.
/// assert_eq!(fg.block::<VectorSink<i32>>(sink).unwrap().data(), &[0, 3, 1, 4, 2, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "matrix_interleaver",
    summary = "Blocks of rows x cols items written by rows and read by columns, or back with deint (GNU Radio's matrix_interleaver).",
    dtypes = all,
    make = Self::new(rows, cols, deint)
        .map(|b| b.with_vlen(vlen))
        .map_err(|(name, e)| Refused::param(name, e))
)]
#[param(rows: usize = 1, min = 1, doc = "rows of the matrix")]
#[param(cols: usize = 1, min = 1, doc = "columns of the matrix")]
#[param(deint: bool = false, doc = "deinterleave: write columns, read rows")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct MatrixInterleaver<T: Item> {
    /// Items, in blocks of rows x cols.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The same items reordered.
    #[output(name = "out")]
    output: StreamOutput<T>,
    rows: usize,
    cols: usize,
    deint: bool,
}

#[block]
impl<T: Item> MatrixInterleaver<T> {
    /// Interleaves (or with `deint` deinterleaves) blocks of `rows · cols` items.
    ///
    /// # Errors
    /// If `rows` or `cols` is 0, naming it.
    pub fn new(rows: usize, cols: usize, deint: bool) -> Result<Self, (&'static str, String)> {
        for (name, v) in [("rows", rows), ("cols", cols)] {
            if v == 0 {
                return Err((name, "0: the matrix needs one at least".into()));
            }
        }
        let block = rows.checked_mul(cols).ok_or((
            "cols",
            format!("{rows} x {cols} items do not fit in memory"),
        ))?;
        Ok(Self {
            input: StreamInput::new().with_min_items(block),
            output: StreamOutput::new().with_min_items(block),
            rows,
            cols,
            deint,
        })
    }

    /// Items of `vlen` scalars (GNU Radio's `vlen`).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        let block = self.rows * self.cols;
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self.input.set_min_items(block * vlen);
        self.output.set_min_items(block * vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vlen = self.input.vlen();
        let block = self.rows * self.cols;
        let whole = block * vlen;
        let n = (self.input.slice().len() / whole).min(self.output.slice().len() / whole);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        // Output item m of a block is input item src(m).
        let (r, c) = if self.deint {
            (self.cols, self.rows)
        } else {
            (self.rows, self.cols)
        };
        let copy = self.rows == 1 || self.cols == 1;
        let (from, first) = (self.input.offset(), self.output.offset());
        let end = from + (n * block) as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            if copy {
                self.output.push_tag(t.clone());
            } else {
                let rows = self.rows as u64;
                let at = (rows * gr_rate_offset(t.offset, 1, rows)).max(first);
                for _ in 0..self.rows {
                    self.output.push_tag(Tag {
                        offset: at,
                        ..t.clone()
                    });
                }
            }
        }
        let x = self.input.slice();
        let y = self.output.slice();
        for b in 0..n {
            let (x, y) = (&x[b * whole..][..whole], &mut y[b * whole..][..whole]);
            for m in 0..block {
                let src = (m % r) * c + m / r;
                y[m * vlen..][..vlen].copy_from_slice(&x[src * vlen..][..vlen]);
            }
        }
        self.input.consume(n * whole);
        self.output.produce(n * whole);
        Ok(WorkStatus::Continue)
    }
}
