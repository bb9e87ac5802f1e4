//! Rows for GNU Radio's `fec` module (gr-fec): the generic blocks that run FEC code objects
//! on streams and on PDUs.
//! The objects themselves are GRC variables (`variable_cc_encoder_def` and the like),
//! evaluated by the GRC loader into the text the blocks' `encoder` / `decoder` take.

use super::common::{is_nil, no_effect, only, param, row};
use super::table::GrBlock;

const THREADS: &str = "GNU Radio's choice of threading over a list of code objects; radioflow \
                       runs one object per block (GRC's fec variables give one)";

pub(super) const ROWS: &[GrBlock] = &[
    row(
        "fec_extended_encoder",
        "fec.extended_encoder(encoder_obj_list={encoder_list},threading={threadtype.arg},puncpat={puncpat})",
        "fec_extended_encoder",
        &[],
        &[
            param("encoder_list", "encoder"),
            no_effect("threadtype", THREADS),
            param("puncpat", "puncpat"),
        ],
    ),
    row(
        "fec_extended_decoder",
        "fec.extended_decoder(decoder_obj_list={decoder_list},threading={threadtype.arg},ann={ann},puncpat={puncpat},integration_period=10000)",
        "fec_extended_decoder",
        &[],
        &[
            no_effect("value", "a label GRC shows; GNU Radio's block does not use it"),
            param("decoder_list", "decoder"),
            no_effect("threadtype", THREADS),
            only(
                "ann",
                is_nil,
                "the bit synchronization GNU Radio inserts for an access pattern \
                 (conv_bit_corr_bb) is not built: only None",
            ),
            param("puncpat", "puncpat"),
        ],
    ),
    row(
        "fec_async_encoder",
        "fec.async_encoder({encoder},{packed},{rev_unpack},{rev_pack},{mtu})",
        "fec_async_encoder",
        &[],
        &[
            param("encoder", "encoder"),
            param("mtu", "mtu"),
            param("packed", "packed"),
            param("rev_unpack", "rev_unpack"),
            param("rev_pack", "rev_pack"),
        ],
    ),
    row(
        "fec_async_decoder",
        "fec.async_decoder({decoder},{packed},{rev_pack},{mtu})",
        "fec_async_decoder",
        &[],
        &[
            param("decoder", "decoder"),
            param("mtu", "mtu"),
            param("packed", "packed"),
            param("rev_pack", "rev_pack"),
        ],
    ),
];
