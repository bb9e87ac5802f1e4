//! Rows for gr-dtv's DVB-T transmitter blocks (`dtv_dvbt_*`: transport stream to OFDM
//! symbols) and the receiver's demapper, bit deinterleaver, Viterbi decoder, convolutional
//! deinterleaver, Reed-Solomon decoder and energy descrambler, over `radioflow-dvbt`'s
//! blocks. Their enumerations (`64qam`, `C2_3`, `T2k`, `GI_1_32`) are taken as written
//! ([`To::Word`](super::table::To)) and turned into the blocks' words here.

use super::common::{no_effect, no_ty, param, row, ty};
use super::dtv::{push, take, word};
use super::table::{GrBlock, GrParam, GrType, Mapped, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// Takes GRC enumeration `key` (GRC's first option where the file leaves it out) as the
/// block's word of the same name: the option as written, in lower case, after `prefix`,
/// `_` as `/` where `fraction` (`C2_3` as `2/3`, `GI_1_32` as `1/32`).
fn option_word(
    m: &mut Mapped,
    key: &str,
    default: &'static str,
    options: &[&str],
    prefix: &str,
    fraction: bool,
) -> Result<(), String> {
    let option = take(m, key, default)?;
    if !options.contains(&option.as_str()) {
        return Err(format!(
            "{key} = {option} is not one of GNU Radio's options ({})",
            options.join(", ")
        ));
    }
    let rest = option
        .strip_prefix(prefix)
        .unwrap_or(&option)
        .to_lowercase();
    let word = if fraction {
        rest.replacen('_', "/", 1)
    } else {
        rest
    };
    push(m, key, Pmt::symbol(word.as_str()));
    Ok(())
}

fn constellation(m: &mut Mapped) -> Result<(), String> {
    option_word(
        m,
        "constellation",
        "qpsk",
        &["qpsk", "16qam", "64qam"],
        "",
        false,
    )
}

fn hierarchy(m: &mut Mapped) -> Result<(), String> {
    option_word(
        m,
        "hierarchy",
        "nh",
        &["nh", "alpha1", "alpha2", "alpha4"],
        "",
        false,
    )
}

const RATES: [&str; 5] = ["C1_2", "C2_3", "C3_4", "C5_6", "C7_8"];

fn code_rate(m: &mut Mapped, key: &str) -> Result<(), String> {
    option_word(m, key, "C1_2", &RATES, "C", true)
}

fn transmission_mode(m: &mut Mapped) -> Result<(), String> {
    option_word(m, "transmission_mode", "T2k", &["T2k", "T8k"], "T", false)
}

/// The inner coder's and the Viterbi decoder's words.
fn inner_code(m: &mut Mapped) -> Result<(), String> {
    constellation(m)?;
    hierarchy(m)?;
    code_rate(m, "code_rate")
}

/// The bit interleaver's and deinterleaver's settings: non-hierarchical only.
fn bit_inner_interleaver(m: &mut Mapped) -> Result<(), String> {
    constellation(m)?;
    hierarchy(m)?;
    if m.param("hierarchy").and_then(Pmt::as_symbol) != Some("nh") {
        return Err(
            "hierarchy is not supported but nh: gr-dtv's hierarchical bit interleaver and \
             deinterleaver divide by zero (QPSK) or read and write their bit arrays out of their \
             bounds (16QAM, 64QAM), so their output is not defined"
                .to_owned(),
        );
    }
    transmission_mode(m)
}

fn symbol_inner_interleaver(m: &mut Mapped) -> Result<(), String> {
    transmission_mode(m)?;
    option_word(
        m,
        "direction",
        "Interleave",
        &["Interleave", "Deinterleave"],
        "",
        false,
    )
}

fn map(m: &mut Mapped) -> Result<(), String> {
    constellation(m)?;
    hierarchy(m)?;
    transmission_mode(m)
}

fn reference_signals(m: &mut Mapped) -> Result<(), String> {
    constellation(m)?;
    hierarchy(m)?;
    code_rate(m, "code_rate_hp")?;
    code_rate(m, "code_rate_lp")?;
    option_word(
        m,
        "guard_interval",
        "GI_1_32",
        &["GI_1_32", "GI_1_16", "GI_1_8", "GI_1_4"],
        "GI_",
        true,
    )?;
    transmission_mode(m)?;
    let include = take(m, "include_cell_id", "call_id_yes")?;
    let include = match include.as_str() {
        // GRC's option names, misspelling included.
        "call_id_yes" => true,
        "cell_id_no" => false,
        other => {
            return Err(format!(
            "include_cell_id = {other} is not one of GNU Radio's options (call_id_yes, cell_id_no)"
        ))
        }
    };
    push(m, "include_cell_id", Pmt::Bool(include));
    Ok(())
}

/// GRC's `gain` (a complex parameter) as the float gr-dtv's constructors (map, demap) take.
fn real_gain(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(i) => Ok(Pmt::Double(*i as f64)),
        Pmt::Double(x) => Ok(Pmt::Double(*x)),
        Pmt::Complex(z) if z.im == 0.0 => Ok(Pmt::Double(z.re)),
        _ => Err(
            "gr-dtv's dvbt_map and dvbt_demap take a float gain; GNU Radio's Python refuses a complex one"
                .to_owned(),
        ),
    }
}

const GAIN: GrParam = GrParam {
    key: "gain",
    to: To::Convert("gain", real_gain),
};

/// The reference signals' `type`: gr-dtv reads and writes complex cells whatever it says;
/// another size makes its ports' item size disagree with the complex streams GRC connects.
const REFERENCE_TYPES: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    no_ty(
        "float",
        "gr-dtv's block reads complex cells whatever its item size says: only complex connects",
    ),
    no_ty(
        "int",
        "gr-dtv's block reads complex cells whatever its item size says: only complex connects",
    ),
    no_ty(
        "short",
        "gr-dtv's block reads complex cells whatever its item size says: only complex connects",
    ),
    no_ty(
        "byte",
        "gr-dtv's block reads complex cells whatever its item size says: only complex connects",
    ),
];

/// The Viterbi decoder's `type`: gr-dtv writes bytes whatever it says; another size makes
/// its output's item size disagree with what GRC connects.
const VITERBI_TYPES: &[GrType] = &[
    no_ty(
        "i",
        "gr-dtv's dvbt_viterbi_decoder writes bytes whatever its type says: only Byte connects",
    ),
    no_ty(
        "s",
        "gr-dtv's dvbt_viterbi_decoder writes bytes whatever its type says: only Byte connects",
    ),
    ty("b", Dtype::Uint8),
];

/// The Reed-Solomon encoder's and decoder's parameters.
const RS_PARAMS: &[GrParam] = &[
    no_effect("p", "gr-dtv's block does not use it: the field is GF(2^8)"),
    no_effect(
        "m",
        "gr-dtv's block does not use it: its symbols are bytes (8 bits)",
    ),
    param("gfpoly", "gfpoly"),
    param("n", "n"),
    param("k", "k"),
    no_effect(
        "t",
        "gr-dtv's block does not use it: its n - k parity bytes correct (n - k) / 2 errors",
    ),
    param("s", "s"),
    param("blocks", "blocks"),
];

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "dtv_dvbt_energy_dispersal",
        "dtv.dvbt_energy_dispersal({nsize})",
        "dvbt_energy_dispersal",
        &[],
        &[param("nsize", "nsize")],
    ),
    row(
        "dtv_dvbt_energy_descramble",
        "dtv.dvbt_energy_descramble({nsize})",
        "dvbt_energy_descramble",
        &[],
        &[param("nsize", "nsize")],
    ),
    row(
        "dtv_dvbt_reed_solomon_enc",
        "dtv.dvbt_reed_solomon_enc({p},{m},{gfpoly},{n},{k},{t},{s},{blocks})",
        "dvbt_reed_solomon_enc",
        &[],
        RS_PARAMS,
    ),
    row(
        "dtv_dvbt_reed_solomon_dec",
        "dtv.dvbt_reed_solomon_dec({p},{m},{gfpoly},{n},{k},{t},{s},{blocks})",
        "dvbt_reed_solomon_dec",
        &[],
        RS_PARAMS,
    ),
    row(
        "dtv_dvbt_convolutional_interleaver",
        "dtv.dvbt_convolutional_interleaver({blocks},{I},{M})",
        "dvbt_convolutional_interleaver",
        &[],
        &[param("blocks", "blocks"), param("I", "i"), param("M", "m")],
    ),
    GrBlock {
        choose: Some(inner_code),
        ..row(
            "dtv_dvbt_viterbi_decoder",
            "dtv.dvbt_viterbi_decoder({constellation.val},{hierarchy.val},{code_rate.val},{block_size})",
            "dvbt_viterbi_decoder",
            VITERBI_TYPES,
            &[
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("code_rate", "_code_rate"),
                param("block_size", "block_size"),
            ],
        )
    },
    row(
        "dtv_dvbt_convolutional_deinterleaver",
        "dtv.dvbt_convolutional_deinterleaver({blocks},{I},{M})",
        "dvbt_convolutional_deinterleaver",
        &[],
        &[param("blocks", "blocks"), param("I", "i"), param("M", "m")],
    ),
    GrBlock {
        choose: Some(inner_code),
        ..row(
            "dtv_dvbt_inner_coder",
            "dtv.dvbt_inner_coder({ninput},{noutput},{constellation.val},{hierarchy.val},{code_rate.val})",
            "dvbt_inner_coder",
            &[],
            &[
                param("ninput", "ninput"),
                param("noutput", "noutput"),
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("code_rate", "_code_rate"),
            ],
        )
    },
    GrBlock {
        choose: Some(bit_inner_interleaver),
        ..row(
            "dtv_dvbt_bit_inner_interleaver",
            "dtv.dvbt_bit_inner_interleaver({transmission_mode.payload_length},{constellation.val},{hierarchy.val},{transmission_mode.val})",
            "dvbt_bit_inner_interleaver",
            &[],
            &[
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("transmission_mode", "_transmission_mode"),
            ],
        )
    },
    GrBlock {
        choose: Some(bit_inner_interleaver),
        ..row(
            "dtv_dvbt_bit_inner_deinterleaver",
            "dtv.dvbt_bit_inner_deinterleaver({transmission_mode.payload_length},{constellation.val},{hierarchy.val},{transmission_mode.val})",
            "dvbt_bit_inner_deinterleaver",
            &[],
            &[
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("transmission_mode", "_transmission_mode"),
            ],
        )
    },
    GrBlock {
        choose: Some(symbol_inner_interleaver),
        ..row(
            "dtv_dvbt_symbol_inner_interleaver",
            "dtv.dvbt_symbol_inner_interleaver({transmission_mode.payload_length},{transmission_mode.val},{direction.val})",
            "dvbt_symbol_inner_interleaver",
            &[],
            &[
                word("transmission_mode", "_transmission_mode"),
                word("direction", "_direction"),
            ],
        )
    },
    GrBlock {
        choose: Some(map),
        ..row(
            "dtv_dvbt_map",
            "dtv.dvbt_map({transmission_mode.payload_length},{constellation.val},{hierarchy.val},{transmission_mode.val},{gain})",
            "dvbt_map",
            &[],
            &[
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("transmission_mode", "_transmission_mode"),
                GAIN,
            ],
        )
    },
    GrBlock {
        choose: Some(map),
        ..row(
            "dtv_dvbt_demap",
            "dtv.dvbt_demap({transmission_mode.payload_length},{constellation.val},{hierarchy.val},{transmission_mode.val},{gain})",
            "dvbt_demap",
            &[],
            &[
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("transmission_mode", "_transmission_mode"),
                GAIN,
            ],
        )
    },
    GrBlock {
        choose: Some(reference_signals),
        ..row(
            "dtv_dvbt_reference_signals",
            "dtv.dvbt_reference_signals(",
            "dvbt_reference_signals",
            REFERENCE_TYPES,
            &[
                word("constellation", "_constellation"),
                word("hierarchy", "_hierarchy"),
                word("code_rate_hp", "_code_rate_hp"),
                word("code_rate_lp", "_code_rate_lp"),
                word("guard_interval", "_guard_interval"),
                word("transmission_mode", "_transmission_mode"),
                word("include_cell_id", "_include_cell_id"),
                param("cell_id", "cell_id"),
            ],
        )
    },
];
