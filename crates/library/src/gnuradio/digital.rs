//! Rows for GNU Radio's `digital` module (gr-digital): constellations and mapping.

use super::common::{is_one, only, param, row};
use super::table::{GrBlock, GrParam, Mapped, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

const ONE_STREAM: &str = "one input and one output stream; GNU Radio maps each of num_ports \
                          streams alike: use one radioflow block per stream";

/// GRC's `in_type` (int, short or byte), turned into the block by [`symbols_of`].
fn in_type(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Symbol(s) if matches!(&**s, "int" | "short" | "byte") => Ok(v.clone()),
        _ => Err("not int, short or byte".into()),
    }
}

/// GRC's `out_type` (complex or float), turned into the item type by [`symbols_of`].
fn out_type(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Symbol(s) if matches!(&**s, "complex" | "float") => Ok(v.clone()),
        _ => Err("not complex or float".into()),
    }
}

/// GRC's `in_type` picks the block (one per chunk type), `out_type` its item type.
fn symbols_of(m: &mut Mapped) -> Result<(), String> {
    let mut take = |name: &str| {
        let at = m.params.iter().position(|(n, _)| n == name)?;
        m.params.remove(at).1.as_symbol().map(str::to_owned)
    };
    // GRC's first options (int, complex) for a file that leaves them out.
    let chunks = take("in_type");
    let symbols = take("out_type");
    m.block = match chunks.as_deref() {
        Some("byte") => "chunks_to_symbols",
        Some("short") => "chunks_to_symbols_short",
        _ => "chunks_to_symbols_int",
    };
    m.dtype = Some(match symbols.as_deref() {
        Some("float") => Dtype::Float32,
        _ => Dtype::Complex32,
    });
    Ok(())
}

const CODING: &[GrParam] = &[
    param("modulus", "modulus"),
    GrParam {
        key: "coding",
        to: To::Convert("coding", coding),
    },
];

/// GNU Radio's `digital.DIFF_DIFFERENTIAL` (0) or `DIFF_NRZI` (1), as radioflow's word.
fn coding(v: &Pmt) -> Result<Pmt, String> {
    Ok(Pmt::symbol(match v {
        Pmt::Int(0) => "differential",
        Pmt::Int(1) => "nrzi",
        Pmt::Symbol(s) if matches!(&**s, "differential" | "nrzi") => return Ok(v.clone()),
        _ => return Err("not digital.DIFF_DIFFERENTIAL or digital.DIFF_NRZI".into()),
    }))
}

/// GNU Radio makes NRZI coders with modulus 2 whatever `modulus` says (GRC hides it).
fn nrzi_modulus(m: &mut Mapped) -> Result<(), String> {
    if matches!(m.param("coding"), Some(Pmt::Symbol(s)) if &**s == "nrzi") {
        m.params.retain(|(n, _)| n != "modulus");
        m.params.push(("modulus".into(), Pmt::Int(2)));
    }
    Ok(())
}

const fn diff_coder(id: &'static str, make: &'static str, block: &'static str) -> GrBlock {
    GrBlock {
        id,
        make,
        block,
        types: &[],
        params: CODING,
        fixed: &[],
        extra: &[],
        choose: Some(nrzi_modulus),
    }
}

const REGISTER: &[GrParam] = &[
    param("mask", "mask"),
    param("seed", "seed"),
    param("len", "len"),
];

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "digital_chunks_to_symbols_xx",
        make: "digital.chunks_to_symbols_{in_type.fcn}{out_type.fcn}({symbol_table},{dimension})",
        block: "chunks_to_symbols",
        types: &[],
        params: &[
            GrParam {
                key: "in_type",
                to: To::Convert("in_type", in_type),
            },
            GrParam {
                key: "out_type",
                to: To::Convert("out_type", out_type),
            },
            param("symbol_table", "symbol_table"),
            param("dimension", "dimension"),
            only("num_ports", is_one, ONE_STREAM),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(symbols_of),
    },
    row(
        "digital_map_bb",
        "digital.map_bb({map})",
        "map_bytes",
        &[],
        &[param("map", "map")],
    ),
    row(
        "digital_constellation_decoder_cb",
        "digital.constellation_decoder_cb({constellation})",
        "constellation_decoder",
        &[],
        &[param("constellation", "constellation")],
    ),
    row(
        "digital_constellation_soft_decoder_cf",
        "digital.constellation_soft_decoder_cf({constellation})",
        "constellation_soft_decoder",
        &[],
        &[param("constellation", "constellation")],
    ),
    diff_coder(
        "digital_diff_encoder_bb",
        "digital.diff_encoder_bb({modulusifcoding.force_modulus=='-1'elsecoding.force_modulus},{coding})",
        "diff_encoder",
    ),
    diff_coder(
        "digital_diff_decoder_bb",
        "digital.diff_decoder_bb({modulusifcoding.force_modulus=='-1'elsecoding.force_modulus},{coding})",
        "diff_decoder",
    ),
    row(
        "digital_binary_slicer_fb",
        "digital.binary_slicer_fb()",
        "binary_slicer",
        &[],
        &[],
    ),
    row(
        "digital_diff_phasor_cc",
        "digital.diff_phasor_cc()",
        "diff_phasor",
        &[],
        &[],
    ),
    row(
        "digital_scrambler_bb",
        "digital.scrambler_bb({mask},{seed},{len})",
        "scrambler",
        &[],
        REGISTER,
    ),
    row(
        "digital_descrambler_bb",
        "digital.descrambler_bb({mask},{seed},{len})",
        "descrambler",
        &[],
        REGISTER,
    ),
    row(
        "digital_additive_scrambler_bb",
        "digital.additive_scrambler_bb({mask},{seed},{len},count={count},bits_per_byte={bits_per_byte},reset_tag_key={reset_tag_key})",
        "additive_scrambler",
        &[],
        &[
            param("mask", "mask"),
            param("seed", "seed"),
            param("len", "len"),
            param("count", "count"),
            param("bits_per_byte", "bits_per_byte"),
            param("reset_tag_key", "reset_tag_key"),
        ],
    ),
];
