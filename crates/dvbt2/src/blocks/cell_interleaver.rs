//! [`Dvbt2CellInterleaver`]: gr-dtv's `dvbt2_cellinterleaver_cc`, DVB-T2's cell and time
//! interleaver.

use crate::cell_interleaver::CellInterleaver;
use crate::error::SettingsError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// DVB-T2's cell interleaver and time interleaver (ETSI EN 302 755 clauses 6.4 and 6.5) as
/// gr-dtv's `dvbt2_cellinterleaver_cc`: cells in, the same cells reordered out, one
/// interleaving frame (`fecblocks` FEC blocks) at a time; see [`CellInterleaver`]. Tags keep
/// their offsets (GNU Radio's default for a block of one item out per item in). A frame cut
/// by the end of the stream makes no output.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2CellInterleaver;
///
/// let cells: Vec<Complex32> = (0..2 * 2025).map(|k| Complex32::new(k as f32, 0.0)).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(cells));
/// let ti = fg.add(Dvbt2CellInterleaver::new("short", "256qam", 2, 1)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, ti)?;
/// fg.connect(ti, sink)?;
/// fg.run()?;
/// let mut out: Vec<u32> = fg.block::<VectorSink<Complex32>>(sink).unwrap().data()
///     .iter().map(|c| c.re as u32).collect();
/// assert_ne!(out, (0..4050).collect::<Vec<_>>());
/// out.sort_unstable();
/// assert_eq!(out, (0..4050).collect::<Vec<_>>()); // the same cells, reordered
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_cellinterleaver",
    summary = "DVB-T2 cell and time interleaver as gr-dtv's dvbt2_cellinterleaver_cc: cells in, the same cells reordered out, one interleaving frame of FEC blocks at a time.",
    make = Self::new(&framesize, &constellation, fecblocks, tiblocks).map_err(Refused::from)
)]
#[param(
    framesize: String = "normal",
    words = ["normal", "short"],
    doc = "FECFRAME size: 64800 (normal) or 16200 (short) bits"
)]
#[param(
    constellation: String = "qpsk",
    words = ["qpsk", "16qam", "64qam", "256qam"],
    doc = "constellation of the cells (with the frame size, the cells of a FEC block)"
)]
#[param(fecblocks: usize = 168, min = 1, doc = "FEC blocks per interleaving frame")]
#[param(tiblocks: usize = 3, min = 0, doc = "TI blocks per interleaving frame (0: no time interleaving)")]
pub struct Dvbt2CellInterleaver {
    /// Cells, FEC block after FEC block.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The same cells interleaved.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    interleaver: CellInterleaver,
}

impl std::fmt::Debug for Dvbt2CellInterleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2CellInterleaver")
            .field("frame_cells", &self.interleaver.frame_cells())
            .finish()
    }
}

#[block(type_name = "dvbt2_cellinterleaver")]
impl Dvbt2CellInterleaver {
    /// The interleaver of [`CellInterleaver::new`].
    ///
    /// # Errors
    /// Those of [`CellInterleaver::new`].
    pub fn new(
        framesize: &str,
        constellation: &str,
        fecblocks: usize,
        tiblocks: usize,
    ) -> Result<Self, SettingsError> {
        let interleaver = CellInterleaver::new(framesize, constellation, fecblocks, tiblocks)?;
        let frame = interleaver.frame_cells();
        Ok(Self {
            input: StreamInput::new().with_min_items(frame),
            output: StreamOutput::new().with_min_items(frame),
            interleaver,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let frame = self.interleaver.frame_cells();
        let n = (self.input.slice().len() / frame).min(self.output.slice().len() / frame);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + (n * frame) as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            self.output.push_tag(t.clone());
        }
        let (x, y) = (self.input.slice(), self.output.slice());
        for (x, y) in x.chunks_exact(frame).zip(y.chunks_exact_mut(frame)).take(n) {
            self.interleaver.interleave(x, y);
        }
        self.input.consume(n * frame);
        self.output.produce(n * frame);
        Ok(WorkStatus::Continue)
    }
}
