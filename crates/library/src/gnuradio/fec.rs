//! Rows for GNU Radio's `fec` module (gr-fec): the generic blocks that run FEC code objects
//! on streams and on PDUs, and the bit error rate block.
//! The objects themselves are GRC variables (`variable_cc_encoder_def` and the like),
//! evaluated by the GRC loader into the text the blocks' `encoder` / `decoder` take.

use super::common::{is_nil, no_effect, only, param, row};
use super::table::{GrBlock, Mapped};
use radioflow_runtime::Pmt;

const THREADS: &str = "GNU Radio's choice of threading over a list of code objects; radioflow \
                       runs one object per block (GRC's fec variables give one)";

/// GNU Radio's Python treats a length tag name of `None`, `'None'` (any case) or `''` as none
/// and builds the untagged encoder or decoder, which has no MTU.
fn untagged_without_tag_name(m: &mut Mapped, untagged: &'static str) {
    let none = match m.param("lentagname") {
        None | Some(Pmt::Null) => true,
        Some(v) => v
            .as_symbol()
            .is_some_and(|s| s.is_empty() || s.eq_ignore_ascii_case("none")),
    };
    if none {
        m.block = untagged;
        m.params.retain(|(n, _)| n != "lentagname" && n != "mtu");
    }
}

fn tagged_encoder(m: &mut Mapped) -> Result<(), String> {
    untagged_without_tag_name(m, "fec_extended_encoder");
    Ok(())
}

fn tagged_decoder(m: &mut Mapped) -> Result<(), String> {
    untagged_without_tag_name(m, "fec_extended_decoder");
    Ok(())
}

const ANN: &str = "the bit synchronization GNU Radio inserts for an access pattern \
                   (conv_bit_corr_bb) is not built: only None";

pub(super) const ROWS: &[GrBlock] = &[
    row(
        "fec_ber_bf",
        "fec.ber_bf({test_mode},{berminerrors},{berlimit})",
        "fec_ber_bf",
        &[],
        &[
            param("test_mode", "test_mode"),
            param("berminerrors", "berminerrors"),
            param("berlimit", "berlimit"),
        ],
    ),
    GrBlock {
        choose: Some(tagged_encoder),
        ..row(
            "fec_extended_tagged_encoder",
            "fec.extended_tagged_encoder(encoder_obj_list={encoder_list},puncpat={puncpat},lentagname={lentagname},mtu={mtu})",
            "fec_tagged_encoder",
            &[],
            &[
                param("encoder_list", "encoder"),
                param("mtu", "mtu"),
                param("puncpat", "puncpat"),
                param("lentagname", "lentagname"),
            ],
        )
    },
    GrBlock {
        choose: Some(tagged_decoder),
        ..row(
            "fec_extended_tagged_decoder",
            "self.{id}={id}=fec.extended_tagged_decoder(decoder_obj_list={decoder_list},ann={ann},puncpat={puncpat},integration_period=10000,lentagname={lentagname},mtu={mtu})",
            "fec_tagged_decoder",
            &[],
            &[
                no_effect("value", "a label GRC shows; GNU Radio's block does not use it"),
                param("decoder_list", "decoder"),
                param("mtu", "mtu"),
                only("ann", is_nil, ANN),
                param("puncpat", "puncpat"),
                param("lentagname", "lentagname"),
            ],
        )
    },
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
            only("ann", is_nil, ANN),
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
