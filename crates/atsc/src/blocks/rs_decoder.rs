//! [`AtscRsDecoder`]: gr-dtv's `atsc_rs_decoder`, the outer code's decoder.

use super::plinfo_ports::{from_shorts, tags_to_both, to_shorts};
use crate::layout::{Plinfo, CODEWORD, PACKET, PAYLOAD};
use radioflow_dvbt::ReedSolomon;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Zeros before a codeword make the code's 255 bytes.
const SHORTENED: usize = 255 - CODEWORD;

/// gr-dtv's `atsc_rs_decoder`: codewords (vectors of 207 bytes) and their pipeline
/// information (two shorts) in; out the first 188 bytes of each corrected codeword (the 187
/// data bytes and the first parity byte, as gr-dtv copies them) and the pipeline information
/// with its transport error flag set where the codeword was beyond correction (then the
/// bytes are as received, as GNU Radio's decoder leaves them). RS(207, 187) of ATSC A/53
/// Part 2 5.3.3 corrects up to 10 bytes. Tags on either input go to the same item of both
/// outputs.
#[library_block(
    id = "atsc_rs_decoder",
    summary = "ATSC Reed-Solomon RS(207, 187) decoder (A/53 Part 2 5.3.3) as gr-dtv's atsc_rs_decoder: codewords and pipeline info in, corrected packets (188 bytes) and pipeline info with the transport error flag out.",
    make = Self::new()
)]
pub struct AtscRsDecoder {
    /// Codewords, vectors of 207 bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Their pipeline information, vectors of two shorts.
    #[input(name = "plinfo_in")]
    plinfo: StreamInput<i16>,
    /// Corrected data, vectors of 188 bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// Their pipeline information, vectors of two shorts.
    #[output(name = "plinfo_out")]
    plinfo_out: StreamOutput<i16>,
    rs: ReedSolomon,
}

impl std::fmt::Debug for AtscRsDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtscRsDecoder").finish_non_exhaustive()
    }
}

impl Default for AtscRsDecoder {
    fn default() -> Self {
        Self::new()
    }
}

#[block(type_name = "atsc_rs_decoder")]
impl AtscRsDecoder {
    /// The decoder.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new().with_vlen(CODEWORD),
            plinfo: StreamInput::new().with_vlen(2),
            output: StreamOutput::new().with_vlen(PACKET),
            plinfo_out: StreamOutput::new().with_vlen(2),
            rs: ReedSolomon::new(0x11d, CODEWORD - PAYLOAD).expect("0x11D is primitive, 20 roots"),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = (self.input.slice().len() / CODEWORD)
            .min(self.plinfo.slice().len() / 2)
            .min(self.output.slice().len() / PACKET)
            .min(self.plinfo_out.slice().len() / 2);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * CODEWORD];
        let plinfo = &self.plinfo.slice()[..n * 2];
        let output = &mut self.output.slice()[..n * PACKET];
        let plinfo_out = &mut self.plinfo_out.slice()[..n * 2];
        let mut word = [0u8; 255];
        for (((i, p), o), q) in input
            .chunks_exact(CODEWORD)
            .zip(plinfo.chunks_exact(2))
            .zip(output.chunks_exact_mut(PACKET))
            .zip(plinfo_out.chunks_exact_mut(2))
        {
            word[..SHORTENED].fill(0);
            word[SHORTENED..].copy_from_slice(i);
            let corrected = self.rs.decode(&mut word);
            o.copy_from_slice(&word[SHORTENED..SHORTENED + PACKET]);
            let mut pli = from_shorts(p);
            if corrected.is_none() {
                pli.flags |= Plinfo::TRANSPORT_ERROR;
            } else {
                pli.flags &= !Plinfo::TRANSPORT_ERROR;
            }
            to_shorts(pli, q);
        }
        tags_to_both(
            (&self.input, &self.plinfo),
            (&mut self.output, &mut self.plinfo_out),
            n,
        );
        self.input.consume(n * CODEWORD);
        self.plinfo.consume(n * 2);
        self.output.produce(n * PACKET);
        self.plinfo_out.produce(n * 2);
        Ok(WorkStatus::Continue)
    }
}
