//! [`AtscDeinterleaver`]: gr-dtv's `atsc_deinterleaver`, the receiver's data deinterleaver.

use super::plinfo_ports::{from_shorts, tags_to_both, to_shorts};
use crate::deinterleaver::Deinterleaver;
use crate::layout::{Plinfo, CODEWORD, SEGMENTS_PER_FIELD};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Segments between a byte's entering the transmitter's interleaver and its leaving the
/// deinterleaver.
const DELAY: usize = 52;

/// gr-dtv's `atsc_deinterleaver`: codewords (vectors of 207 bytes) and their pipeline
/// information (vectors of two shorts: flags, segment number) in and out, the bytes through
/// the deinterleaver (ATSC A/53 Part 2 5.3.4; its commutator restarts at each segment 0 of
/// the input), the segment numbers moved 52 segments back across fields (the codewords the
/// bytes came from), flags made anew for them. Tags on either input go to the same item of
/// both outputs (GNU Radio's).
#[library_block(
    id = "atsc_deinterleaver",
    summary = "ATSC data deinterleaver (A/53 Part 2 5.3.4) as gr-dtv's atsc_deinterleaver: codewords and pipeline info in and out, segment numbers 52 segments back.",
    make = Self::new()
)]
#[derive(Debug)]
pub struct AtscDeinterleaver {
    /// Interleaved codewords, vectors of 207 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Their pipeline information, vectors of two shorts.
    #[input(name = "plinfo_in")]
    plinfo: StreamInput<i16>,
    /// Codewords, vectors of 207 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// Their pipeline information, vectors of two shorts.
    #[output(name = "plinfo_out")]
    plinfo_out: StreamOutput<i16>,
    deinterleaver: Deinterleaver,
}

impl Default for AtscDeinterleaver {
    fn default() -> Self {
        Self::new()
    }
}

/// Data segment `p` moved `DELAY` segments back, over the two fields of a frame.
fn delayed(p: Plinfo) -> Plinfo {
    let both = 2 * SEGMENTS_PER_FIELD as i64;
    let mut s = i64::from(p.segno)
        + if p.field2() {
            SEGMENTS_PER_FIELD as i64
        } else {
            0
        };
    s -= DELAY as i64;
    if s < 0 {
        s += both;
    }
    let s = s as usize;
    if s < SEGMENTS_PER_FIELD {
        Plinfo::regular(false, s)
    } else {
        Plinfo::regular(true, s - SEGMENTS_PER_FIELD)
    }
}

#[block(type_name = "atsc_deinterleaver")]
impl AtscDeinterleaver {
    /// The deinterleaver, its delay lines zeros.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(CODEWORD),
            plinfo: StreamInput::new().with_vlen(2),
            output: StreamOutput::new().with_vlen(CODEWORD),
            plinfo_out: StreamOutput::new().with_vlen(2),
            deinterleaver: Deinterleaver::new(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = (self.input.slice().len() / CODEWORD)
            .min(self.plinfo.slice().len() / 2)
            .min(self.output.slice().len() / CODEWORD)
            .min(self.plinfo_out.slice().len() / 2);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * CODEWORD];
        let plinfo = &self.plinfo.slice()[..n * 2];
        let output = &mut self.output.slice()[..n * CODEWORD];
        let plinfo_out = &mut self.plinfo_out.slice()[..n * 2];
        for (((i, p), o), q) in input
            .chunks_exact(CODEWORD)
            .zip(plinfo.chunks_exact(2))
            .zip(output.chunks_exact_mut(CODEWORD))
            .zip(plinfo_out.chunks_exact_mut(2))
        {
            let pli = from_shorts(p);
            if pli.first() {
                self.deinterleaver.restart();
            }
            to_shorts(delayed(pli), q);
            self.deinterleaver.deinterleave(i, o);
        }
        tags_to_both(
            (&self.input, &self.plinfo),
            (&mut self.output, &mut self.plinfo_out),
            n,
        );
        self.input.consume(n * CODEWORD);
        self.plinfo.consume(n * 2);
        self.output.produce(n * CODEWORD);
        self.plinfo_out.produce(n * 2);
        Ok(WorkStatus::Continue)
    }
}
