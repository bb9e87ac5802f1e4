//! Rows for gr-dtv's DVB-T2 OFDM blocks (`dtv_dvbt2_*_cc`: cells to samples), over
//! `radioflow-dvbt2`'s blocks. Their enumerations are taken as written ([`To::Word`](super::table::To))
//! and turned into the blocks' words as `dtv.rs` does for the coding side.

use super::common::{param, row};
use super::dtv::{frame_word, push, t2_constellation, take, word};
use super::table::{GrBlock, Mapped};

fn cell_interleaver(m: &mut Mapped) -> Result<(), String> {
    let f = take(m, "framesize", "FECFRAME_NORMAL")?;
    push(m, "framesize", frame_word("framesize", &f)?);
    t2_constellation(m)
}

pub(crate) const ROWS: &[GrBlock] = &[GrBlock {
    choose: Some(cell_interleaver),
    ..row(
        "dtv_dvbt2_cellinterleaver_cc",
        "dtv.dvbt2_cellinterleaver_cc({framesize.val},{constellation.val},{fecblocks},{tiblocks})",
        "dvbt2_cellinterleaver",
        &[],
        &[
            word("framesize", "_framesize"),
            word("constellation", "_constellation"),
            param("fecblocks", "fecblocks"),
            param("tiblocks", "tiblocks"),
        ],
    )
}];
