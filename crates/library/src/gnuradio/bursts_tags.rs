//! Rows for GNU Radio's burst and tag blocks: PDUs played as tagged bursts
//! (`pdu.pdu_to_stream`), bursts cut out of a stream by tags or by counts (`pdu.tags_to_pdu`,
//! `pdu.take_skip_to_pdu`), the tags that mark them (`blocks.burst_tagger`), tags stopped
//! (`blocks.tag_gate`), samples times a tag's value (`blocks.multiply_by_tag_value_cc`),
//! and the rotator whose increment changes at a tagged item (`blocks.rotator_cc`); and `blocks.var_to_msg_pair`, which watches a flowgraph variable.

use super::common::{no_effect, param, row, ty, ANY_TYPE, VLEN};
use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// GRC's `type` of the templated gr-pdu blocks (`complex` ... `byte`).
const PDU_TYPES: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
    ty("byte", Dtype::Uint8),
];

/// GNU Radio's `pdu.early_pdu_behavior_t` (`pdu.EARLY_BURST_APPEND` is 0, `DROP` 1, `BALK`
/// 2; radioflow's GRC evaluator names them `early_burst_append`...) as pdu_to_stream's word.
fn early_behavior(v: &Pmt) -> Result<Pmt, String> {
    const WORDS: [&str; 3] = ["append", "drop", "balk"];
    let word = match v {
        Pmt::Int(n @ 0..=2) => WORDS[*n as usize],
        Pmt::Symbol(s) => WORDS
            .iter()
            .find(|w| s.strip_prefix("early_burst_").unwrap_or(s) == **w)
            .ok_or("not pdu.EARLY_BURST_APPEND, EARLY_BURST_DROP or EARLY_BURST_BALK")?,
        _ => return Err("not pdu.EARLY_BURST_APPEND, EARLY_BURST_DROP or EARLY_BURST_BALK".into()),
    };
    Ok(Pmt::symbol(word))
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "pdu_pdu_to_stream_x",
        "pdu.pdu_to_stream_{type.shortform}({early_behavior},{depth})",
        "pdu_to_stream",
        PDU_TYPES,
        &[
            GrParam {
                key: "early_behavior",
                to: To::Convert("early_behavior", early_behavior),
            },
            param("depth", "max_queue_size"),
        ],
    ),
    row(
        "pdu_take_skip_to_pdu",
        "pdu.take_skip_to_pdu_{type.t}({take},{skip})",
        "take_skip_to_pdu",
        PDU_TYPES,
        &[param("take", "take"), param("skip", "skip")],
    ),
    row(
        "pdu_tags_to_pdu_x",
        "pdu.tags_to_pdu_{type}(pmt.intern({start_tag}),pmt.intern({end_tag}),{max_pdu_size},{rate},{prepend},{pub_det},{tail_size},{start_time})",
        "tags_to_pdu",
        &[
            ty("c", Dtype::Complex32),
            ty("f", Dtype::Float32),
            ty("i", Dtype::Int32),
            ty("s", Dtype::Int16),
            ty("b", Dtype::Uint8),
        ],
        &[
            param("start_tag", "start_tag"),
            param("end_tag", "end_tag"),
            param("max_pdu_size", "max_pdu_size"),
            param("rate", "samp_rate"),
            param("prepend", "prepend"),
            no_effect(
                "cfg_port",
                "only shows the `conf` message input in GRC; GNU Radio's block and radioflow's \
                 always have it",
            ),
            param("pub_det", "publish_detections"),
            param("tail_size", "tail_size"),
            param("eob_alignment", "eob_alignment"),
            param("eob_offset", "eob_offset"),
            param("start_time", "start_time"),
            param("boost_time", "time_debug"),
        ],
    ),
    row(
        "blocks_burst_tagger",
        "blocks.burst_tagger({type.size})",
        "burst_tagger",
        ANY_TYPE,
        &[
            param("true_key", "true_key"),
            param("true_value", "true_value"),
            param("false_key", "false_key"),
            param("false_value", "false_value"),
        ],
    ),
    row(
        "blocks_tag_gate",
        "blocks.tag_gate({type.size}*{vlen},{propagate_tags})",
        "tag_gate",
        ANY_TYPE,
        &[
            VLEN,
            param("propagate_tags", "propagate_tags"),
            param("single_key", "single_key"),
        ],
    ),
    row(
        "blocks_var_to_msg",
        "blocks.var_to_msg_pair({msgname})",
        "var_to_msg",
        &[],
        &[
            no_effect(
                "target",
                "the variable watched: GNU Radio sends a pair when it changes while the \
                 flowgraph runs; radioflow's flowgraph variables do not change at run time \
                 yet, so none is sent, as GNU Radio sends none while the variable stays",
            ),
            param("msgname", "msgname"),
        ],
    ),
    row(
        "blocks_multiply_by_tag_value_cc",
        "blocks.multiply_by_tag_value_cc({tagname},{vlen})",
        "multiply_by_tag_value",
        &[],
        &[param("tagname", "tag_name"), VLEN],
    ),
    row(
        "blocks_rotator_cc",
        "blocks.rotator_cc({phase_inc},{tag_inc_update})",
        "rotator_cc",
        &[],
        &[
            param("phase_inc", "phase_inc"),
            param("tag_inc_update", "tag_inc_update"),
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn early_behaviors_are_gnu_radio_s() {
        assert_eq!(
            early_behavior(&Pmt::symbol("early_burst_balk")),
            Ok(Pmt::symbol("balk"))
        );
        assert_eq!(early_behavior(&Pmt::Int(1)), Ok(Pmt::symbol("drop")));
        assert!(early_behavior(&Pmt::Int(3)).is_err());
        assert!(early_behavior(&Pmt::symbol("later")).is_err());
    }
}
