//! Rows for GNU Radio's OFDM blocks (gr-digital's `ofdm_*`) and the packet header
//! generator of its OFDM transmitter.

use super::common::param;
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// `cp_len`: one length (GRC's `fft_len/4`, GNU Radio then makes `input_size + cp_len` its
/// output size) or a list of lengths taken in turn (GNU Radio 3.10's other constructor).
fn cp_lengths(v: &Pmt) -> Result<Pmt, String> {
    let whole = |v: &Pmt| match v {
        Pmt::Int(_) => Ok(v.clone()),
        Pmt::Double(x) if x.fract() == 0.0 => Ok(Pmt::Int(*x as i64)),
        _ => Err("needs whole numbers of samples".to_string()),
    };
    match v {
        Pmt::Tuple(items) | Pmt::Vector(items) => Ok(Pmt::Vector(
            items
                .iter()
                .map(whole)
                .collect::<Result<Vec<_>, _>>()?
                .into(),
        )),
        _ => Ok(Pmt::Vector(vec![whole(v)?].into())),
    }
}

/// A list of lists (GRC's `((1, 2), (3,))`, `((),)`), as radioflow's list of lists.
fn sets(v: &Pmt) -> Result<Pmt, String> {
    let list = |v: &Pmt| match v {
        Pmt::Tuple(items) | Pmt::Vector(items) => Ok(Pmt::Vector(items.clone())),
        Pmt::Null => Ok(Pmt::Vector(Vec::new().into())),
        Pmt::S64Vector(_)
        | Pmt::S32Vector(_)
        | Pmt::F32Vector(_)
        | Pmt::F64Vector(_)
        | Pmt::C32Vector(_)
        | Pmt::C64Vector(_) => Ok(v.clone()),
        _ => Err("needs a list of lists".to_string()),
    };
    match v {
        Pmt::Tuple(items) | Pmt::Vector(items) => Ok(Pmt::Vector(
            items
                .iter()
                .map(list)
                .collect::<Result<Vec<_>, _>>()?
                .into(),
        )),
        Pmt::Null => Ok(Pmt::Vector(Vec::new().into())),
        _ => Err("needs a list of lists".to_string()),
    }
}

const fn lists(key: &'static str) -> GrParam {
    GrParam {
        key,
        to: To::Convert(key, sets),
    }
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "digital_ofdm_carrier_allocator_cvc",
        make: "digital.ofdm_carrier_allocator_cvc({fft_len},{occupied_carriers},{pilot_carriers},{pilot_symbols},{sync_words},{len_tag_key},{output_is_shifted})",
        block: "ofdm_carrier_allocator",
        types: &[],
        params: &[
            param("fft_len", "fft_len"),
            lists("occupied_carriers"),
            lists("pilot_carriers"),
            lists("pilot_symbols"),
            lists("sync_words"),
            param("len_tag_key", "len_tag_key"),
            param("output_is_shifted", "output_is_shifted"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
    id: "digital_ofdm_cyclic_prefixer",
    make: "digital.ofdm_cyclic_prefixer({input_size},",
    block: "ofdm_cyclic_prefixer",
    types: &[],
    params: &[
        param("input_size", "fft_len"),
        GrParam {
            key: "cp_len",
            to: To::Convert("cp_lengths", cp_lengths),
        },
        param("rolloff", "rolloff"),
        param("tagname", "len_tag_key"),
    ],
    fixed: &[],
    extra: &[],
    choose: None,
},
    GrBlock {
        id: "digital_packet_headergenerator_bb_default",
        make: "digital.packet_headergenerator_bb({header_len},{len_tag_key})",
        block: "packet_header_generator",
        types: &[],
        params: &[
            param("header_len", "header_len"),
            param("len_tag_key", "len_tag_key"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
];
