//! Rows for GNU Radio's `fec` module (gr-fec): the generic blocks that run FEC code objects
//! on streams and on PDUs, and the bit error rate block.
//! The objects themselves are GRC variables (`variable_cc_encoder_def` and the like),
//! evaluated by the GRC loader into the text the blocks' `encoder` / `decoder` take.

use super::common::{is_nil, no_effect, only, param, row};
use super::table::{GrBlock, GrParam, Mapped, To};
use radioflow_runtime::registry::Dtype;
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

/// GRC's `itype`/`otype` of the generic blocks: the option's name (a `.grc` file) or its item
/// size (GNU Radio's Python, `gr.sizeof_float`), under `name` (`_itype`) for `choose` only.
const fn item_word(key: &'static str, name: &'static str) -> GrParam {
    GrParam {
        key,
        to: To::Word(name),
    }
}

/// The item type `key` names, taken out of the parameters: `byte` (size 1) or `float`
/// (size 4, which `int` shares: GNU Radio's block knows only the size); `None` for the others
/// (complex, short, int) and where it is not given.
fn item_type(m: &mut Mapped, key: &str) -> Result<Option<Dtype>, String> {
    let Some(i) = m.params.iter().position(|(n, _)| n == key) else {
        return Ok(None);
    };
    let (_, v) = m.params.remove(i);
    Ok(match &v {
        Pmt::Int(1) => Some(Dtype::Uint8),
        Pmt::Int(4) => Some(Dtype::Float32),
        Pmt::Int(2 | 8) => None,
        v => match v.as_symbol() {
            Some("byte") => Some(Dtype::Uint8),
            Some("float") => Some(Dtype::Float32),
            Some("complex" | "int" | "short") => None,
            _ => {
                let key = key.trim_start_matches('_');
                return Err(format!("{key} = {v} is not one of GRC's item types"));
            }
        },
    })
}

/// `fec_generic_decoder`: floats in (`fec_generic_decoder`) or bytes (`fec_generic_decoder_b`,
/// for a convolutional decoder; each block checks the decoder reads its items), bytes out.
fn generic_decoder(m: &mut Mapped) -> Result<(), String> {
    let itype = item_type(m, "_itype")?;
    if item_type(m, "_otype")? != Some(Dtype::Uint8) {
        return Err(
            "otype: every decoder writes one byte per bit, and GNU Radio's fec.decoder \
                    leaves the rest of a wider output item unwritten: radioflow takes byte only"
                .to_string(),
        );
    }
    match itype {
        Some(Dtype::Float32) => Ok(()),
        Some(_) => {
            m.block = "fec_generic_decoder_b";
            Ok(())
        }
        None => Err(
            "itype: GNU Radio's fec.decoder hands the decoder the raw bytes of its \
                     input items, and every decoder reads floats (or bytes: cc_decoder): \
                     radioflow takes float or byte"
                .to_string(),
        ),
    }
}

/// `fec_generic_encoder`: bytes in and out (every encoder reads and writes bytes).
fn generic_encoder(m: &mut Mapped) -> Result<(), String> {
    for key in ["itype", "otype"] {
        if item_type(m, &format!("_{key}"))? != Some(Dtype::Uint8) {
            return Err(format!(
                "{key}: every encoder of GNU Radio's FEC API reads and writes bytes (one bit \
                 each), and fec.encoder hands it the raw bytes of its items: radioflow takes \
                 byte only"
            ));
        }
    }
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
    GrBlock {
        choose: Some(generic_decoder),
        ..row(
            "fec_generic_decoder",
            "fec.decoder({decoder},{itype.size},{otype.size})",
            "fec_generic_decoder",
            &[],
            &[
                param("decoder", "decoder"),
                item_word("itype", "_itype"),
                item_word("otype", "_otype"),
            ],
        )
    },
    GrBlock {
        choose: Some(generic_encoder),
        ..row(
            "fec_generic_encoder",
            "fec.encoder({encoder},{itype.size},{otype.size})",
            "fec_generic_encoder",
            &[],
            &[
                param("encoder", "encoder"),
                item_word("itype", "_itype"),
                item_word("otype", "_otype"),
            ],
        )
    },
];
