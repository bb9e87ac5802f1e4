//! Rows for GNU Radio's `dtv` module (gr-dtv): the DVB-S2/T2 FEC chain (`dvb_bbheader_bb`,
//! `dvb_bbscrambler_bb`, `dvb_bch_bb`, `dvb_ldpc_bb`), the DVB-S2 transmitter's
//! interleaver, mapper and physical layer framer, and DVB-T2's bit interleaver and QAM
//! mapper, over `radioflow-dvbs2`'s blocks (DVB-T2's OFDM blocks have rows of their own).
//!
//! gr-dtv's parameters are GRC enumerations (`FECFRAME_NORMAL`, `C3_5`), taken as written
//! ([`To::Word`]); a row's `choose` picks the ones the standard and frame size make visible
//! (GRC writes the hidden ones too) and turns them into the block's words. DVB-S2X's code
//! rates, constellations and medium FECFRAME (ETSI EN 302 307-2) are refused by name: radioflow
//! has no LDPC tables for them.

use super::common::{param, row};
use super::table::{GrBlock, GrParam, Mapped, To};
use radioflow_runtime::Pmt;

/// An enumeration read by the row's `choose` only (under `_` and its key).
pub(super) const fn word(key: &'static str, name: &'static str) -> GrParam {
    GrParam {
        key,
        to: To::Word(name),
    }
}

/// Removes GRC parameter `key` from the mapping: its option's name, or GRC's default
/// (the first option) where the file leaves it out.
pub(super) fn take(m: &mut Mapped, key: &str, default: &'static str) -> Result<String, String> {
    let Some(i) = m
        .params
        .iter()
        .position(|(n, _)| n.strip_prefix('_') == Some(key))
    else {
        return Ok(default.to_owned());
    };
    let (_, v) = m.params.remove(i);
    v.as_symbol()
        .map(str::to_owned)
        .ok_or_else(|| format!("{key} = {v} is not one of GNU Radio's options"))
}

pub(super) fn push(m: &mut Mapped, name: &str, v: Pmt) {
    m.params.push((name.to_owned(), v));
}

/// EN 302 307-1's code rates by gr-dtv's names.
const RATES: [(&str, &str); 11] = [
    ("C1_4", "1/4"),
    ("C1_3", "1/3"),
    ("C2_5", "2/5"),
    ("C1_2", "1/2"),
    ("C3_5", "3/5"),
    ("C2_3", "2/3"),
    ("C3_4", "3/4"),
    ("C4_5", "4/5"),
    ("C5_6", "5/6"),
    ("C8_9", "8/9"),
    ("C9_10", "9/10"),
];

fn rate_word(key: &str, option: &str) -> Result<Pmt, String> {
    RATES
        .iter()
        .find(|(o, _)| *o == option)
        .map(|(_, w)| Pmt::symbol(*w))
        .ok_or_else(|| {
            format!(
                "{key} = {option} is not supported (a DVB-S2X code rate of ETSI EN 302 307-2: \
                 radioflow has neither its LDPC code nor its MODCOD's framing and radii)"
            )
        })
}

pub(super) fn frame_word(key: &str, option: &str) -> Result<Pmt, String> {
    match option {
        "FECFRAME_NORMAL" => Ok(Pmt::symbol("normal")),
        "FECFRAME_SHORT" => Ok(Pmt::symbol("short")),
        "FECFRAME_MEDIUM" => Err(format!(
            "{key} = FECFRAME_MEDIUM is not supported (DVB-S2X's medium FECFRAME of ETSI EN 302 \
             307-2, whose LDPC codes radioflow does not have)"
        )),
        _ => Err(format!(
            "{key} = {option} is not one of GNU Radio's frame sizes"
        )),
    }
}

/// The standard, frame size and code rate of gr-dtv's FEC blocks: `framesize1` and
/// `rate1`/`rate2` for DVB-T2, `framesize2` and `rate3`/`rate4`/`rate5` for DVB-S2.
fn standard_fec(m: &mut Mapped) -> Result<(), String> {
    let standard = take(m, "standard", "STANDARD_DVBS2")?;
    let f1 = take(m, "framesize1", "FECFRAME_NORMAL")?;
    let f2 = take(m, "framesize2", "FECFRAME_NORMAL")?;
    let r1 = take(m, "rate1", "C1_2")?;
    let r2 = take(m, "rate2", "C1_3")?;
    let r3 = take(m, "rate3", "C1_4")?;
    let r4 = take(m, "rate4", "C1_5_MEDIUM")?;
    let r5 = take(m, "rate5", "C1_4")?;
    let (word, frame, rate) = match standard.as_str() {
        "STANDARD_DVBT2" => {
            let frame = frame_word("framesize1", &f1)?;
            let rate = if f1 == "FECFRAME_NORMAL" {
                rate_word("rate1", &r1)?
            } else {
                rate_word("rate2", &r2)?
            };
            ("dvb-t2", frame, rate)
        }
        "STANDARD_DVBS2" => {
            let frame = frame_word("framesize2", &f2)?;
            let rate = match f2.as_str() {
                "FECFRAME_NORMAL" => rate_word("rate3", &r3)?,
                "FECFRAME_MEDIUM" => rate_word("rate4", &r4)?,
                _ => rate_word("rate5", &r5)?,
            };
            ("dvb-s2", frame, rate)
        }
        other => {
            return Err(format!(
                "standard = {other} is not one of GNU Radio's standards"
            ))
        }
    };
    push(m, "standard", Pmt::symbol(word));
    push(m, "frame", frame);
    push(m, "rate", rate);
    Ok(())
}

/// The frame size and code rate of gr-dtv's DVB-S2-only blocks: `framesize` and
/// `rate1`/`rate2`/`rate3` (normal, medium, short).
fn s2_fec(m: &mut Mapped) -> Result<(), String> {
    let f = take(m, "framesize", "FECFRAME_NORMAL")?;
    let r1 = take(m, "rate1", "C1_4")?;
    let r2 = take(m, "rate2", "C1_5_MEDIUM")?;
    let r3 = take(m, "rate3", "C1_4")?;
    let frame = frame_word("framesize", &f)?;
    let rate = match f.as_str() {
        "FECFRAME_NORMAL" => rate_word("rate1", &r1)?,
        "FECFRAME_MEDIUM" => rate_word("rate2", &r2)?,
        _ => rate_word("rate3", &r3)?,
    };
    push(m, "frame", frame);
    push(m, "rate", rate);
    let c = take(m, "constellation", "MOD_QPSK")?;
    let word = match c.as_str() {
        "MOD_QPSK" => "qpsk",
        "MOD_8PSK" => "8psk",
        "MOD_16APSK" => "16apsk",
        "MOD_32APSK" => "32apsk",
        "MOD_64QAM" | "MOD_256QAM" | "MOD_8VSB" => {
            return Err(format!(
                "constellation = {c} is not supported (ITU-T J.83B's and ATSC's mappings, which \
                 radioflow's DVB-S2 mapper does not have)"
            ))
        }
        _ => {
            return Err(format!(
                "constellation = {c} is not supported (a DVB-S2X constellation of ETSI EN 302 \
                 307-2, which radioflow does not have)"
            ))
        }
    };
    push(m, "constellation", Pmt::symbol(word));
    Ok(())
}

fn flag(m: &mut Mapped, key: &str, name: &str, off: &'static str, on: &str) -> Result<(), String> {
    let v = take(m, key, off)?;
    let b = match v.as_str() {
        o if o == off => false,
        o if o == on => true,
        other => return Err(format!("{key} = {other} is not {off} or {on}")),
    };
    push(m, name, Pmt::Bool(b));
    Ok(())
}

fn bbheader(m: &mut Mapped) -> Result<(), String> {
    standard_fec(m)?;
    let ro = take(m, "rolloff", "RO_0_35")?;
    let word = match ro.as_str() {
        "RO_0_35" => "0.35",
        "RO_0_25" => "0.25",
        "RO_0_20" => "0.20",
        "RO_0_15" => "0.15",
        "RO_0_10" => "0.10",
        "RO_0_05" => "0.05",
        other => {
            return Err(format!(
                "rolloff = {other} is not one of GNU Radio's roll-offs"
            ))
        }
    };
    push(m, "rolloff", Pmt::symbol(word));
    flag(
        m,
        "mode",
        "high_efficiency",
        "INPUTMODE_NORMAL",
        "INPUTMODE_HIEFF",
    )?;
    flag(m, "inband", "inband", "INBAND_OFF", "INBAND_ON")
}

fn ldpc(m: &mut Mapped) -> Result<(), String> {
    standard_fec(m)?;
    match take(m, "constellation", "MOD_OTHER")?.as_str() {
        "MOD_OTHER" => Ok(()),
        other => Err(format!(
            "constellation = {other} is not supported (DVB-S2X's 128APSK framing of ETSI EN 302 \
             307-2, which radioflow does not have)"
        )),
    }
}

/// The modulator also takes gr-dtv's `MOD_8VSB` (ATSC's 8 levels and pilot, A/53 Part 2
/// 5.3.6 and 5.5), which no other DVB-S2 block has.
fn modulator(m: &mut Mapped) -> Result<(), String> {
    let vsb = m
        .params
        .iter()
        .any(|(n, v)| n == "_constellation" && v.as_symbol() == Some("MOD_8VSB"));
    if vsb {
        take(m, "constellation", "MOD_QPSK")?;
        for key in ["framesize", "rate1", "rate2", "rate3"] {
            take(m, key, "")?;
        }
        push(m, "constellation", Pmt::symbol("8vsb"));
    } else {
        s2_fec(m)?;
    }
    flag(
        m,
        "interpolation",
        "interpolation",
        "INTERPOLATION_OFF",
        "INTERPOLATION_ON",
    )
}

fn physical(m: &mut Mapped) -> Result<(), String> {
    s2_fec(m)?;
    flag(m, "pilots", "pilots", "PILOTS_OFF", "PILOTS_ON")
}

/// DVB-T2's constellations by gr-dtv's names.
pub(super) fn t2_constellation(m: &mut Mapped) -> Result<(), String> {
    let c = take(m, "constellation", "MOD_QPSK")?;
    let word = match c.as_str() {
        "MOD_QPSK" => "qpsk",
        "MOD_16QAM" => "16qam",
        "MOD_64QAM" => "64qam",
        "MOD_256QAM" => "256qam",
        other => return Err(format!("constellation = {other} is not one of DVB-T2's")),
    };
    push(m, "constellation", Pmt::symbol(word));
    Ok(())
}

fn t2_interleaver(m: &mut Mapped) -> Result<(), String> {
    let f = take(m, "framesize", "FECFRAME_NORMAL")?;
    push(m, "frame", frame_word("framesize", &f)?);
    let r = take(m, "rate", "C1_3")?;
    push(m, "rate", rate_word("rate", &r)?);
    t2_constellation(m)
}

fn t2_modulator(m: &mut Mapped) -> Result<(), String> {
    let f = take(m, "framesize", "FECFRAME_NORMAL")?;
    push(m, "frame", frame_word("framesize", &f)?);
    t2_constellation(m)?;
    flag(m, "rotation", "rotation", "ROTATION_OFF", "ROTATION_ON")
}

const FEC: &[GrParam] = &[
    word("standard", "_standard"),
    word("framesize1", "_framesize1"),
    word("framesize2", "_framesize2"),
    word("rate1", "_rate1"),
    word("rate2", "_rate2"),
    word("rate3", "_rate3"),
    word("rate4", "_rate4"),
    word("rate5", "_rate5"),
];

const S2: [GrParam; 5] = [
    word("framesize", "_framesize"),
    word("rate1", "_rate1"),
    word("rate2", "_rate2"),
    word("rate3", "_rate3"),
    word("constellation", "_constellation"),
];

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        choose: Some(bbheader),
        ..row(
            "dtv_dvb_bbheader_bb",
            "dtv.dvb_bbheader_bb(",
            "dvb_bbheader",
            &[],
            &[
                word("standard", "_standard"),
                word("framesize1", "_framesize1"),
                word("framesize2", "_framesize2"),
                word("rate1", "_rate1"),
                word("rate2", "_rate2"),
                word("rate3", "_rate3"),
                word("rate4", "_rate4"),
                word("rate5", "_rate5"),
                word("rolloff", "_rolloff"),
                word("mode", "_mode"),
                word("inband", "_inband"),
                param("fecblocks", "fecblocks"),
                param("tsrate", "tsrate"),
            ],
        )
    },
    GrBlock {
        choose: Some(standard_fec),
        ..row(
            "dtv_dvb_bbscrambler_bb",
            "dtv.dvb_bbscrambler_bb(",
            "dvb_bbscrambler",
            &[],
            FEC,
        )
    },
    GrBlock {
        choose: Some(standard_fec),
        ..row("dtv_dvb_bch_bb", "dtv.dvb_bch_bb(", "dvb_bch", &[], FEC)
    },
    GrBlock {
        choose: Some(ldpc),
        ..row(
            "dtv_dvb_ldpc_bb",
            "dtv.dvb_ldpc_bb(",
            "dvb_ldpc",
            &[],
            &[
                word("standard", "_standard"),
                word("framesize1", "_framesize1"),
                word("framesize2", "_framesize2"),
                word("rate1", "_rate1"),
                word("rate2", "_rate2"),
                word("rate3", "_rate3"),
                word("rate4", "_rate4"),
                word("rate5", "_rate5"),
                word("constellation", "_constellation"),
            ],
        )
    },
    GrBlock {
        choose: Some(s2_fec),
        ..row(
            "dtv_dvbs2_interleaver_bb",
            "dtv.dvbs2_interleaver_bb(",
            "dvbs2_interleaver",
            &[],
            &S2,
        )
    },
    GrBlock {
        choose: Some(modulator),
        ..row(
            "dtv_dvbs2_modulator_bc",
            "dtv.dvbs2_modulator_bc(",
            "dvbs2_modulator",
            &[],
            &[
                S2[0],
                S2[1],
                S2[2],
                S2[3],
                S2[4],
                word("interpolation", "_interpolation"),
            ],
        )
    },
    GrBlock {
        choose: Some(physical),
        ..row(
            "dtv_dvbs2_physical_cc",
            "dtv.dvbs2_physical_cc(",
            "dvbs2_physical",
            &[],
            &[
                S2[0],
                S2[1],
                S2[2],
                S2[3],
                S2[4],
                word("pilots", "_pilots"),
                param("goldcode", "goldcode"),
            ],
        )
    },
    GrBlock {
        choose: Some(t2_interleaver),
        ..row(
            "dtv_dvbt2_interleaver_bb",
            "dtv.dvbt2_interleaver_bb({framesize.val},{rate.val},{constellation.val})",
            "dvbt2_interleaver",
            &[],
            &[
                word("framesize", "_framesize"),
                word("rate", "_rate"),
                word("constellation", "_constellation"),
            ],
        )
    },
    GrBlock {
        choose: Some(t2_modulator),
        ..row(
            "dtv_dvbt2_modulator_bc",
            "dtv.dvbt2_modulator_bc({framesize.val},{constellation.val},{rotation.val})",
            "dvbt2_modulator",
            &[],
            &[
                word("framesize", "_framesize"),
                word("constellation", "_constellation"),
                word("rotation", "_rotation"),
            ],
        )
    },
];
