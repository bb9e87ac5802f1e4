//! Rows for GNU Radio's OFDM blocks (gr-digital's `ofdm_*`).

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

pub(crate) const ROWS: &[GrBlock] = &[GrBlock {
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
}];
