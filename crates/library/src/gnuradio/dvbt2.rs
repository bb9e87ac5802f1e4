//! Rows for gr-dtv's DVB-T2 OFDM blocks (`dtv_dvbt2_*_cc`: cells to samples), over
//! `radioflow-dvbt2`'s blocks. Their enumerations are taken as written ([`To::Word`](super::table::To))
//! and turned into the blocks' words as `dtv.rs` does for the coding side.

use super::common::{no_effect, param, row};
use super::dtv::{frame_word, push, t2_constellation, take, word};
use super::table::{GrBlock, Mapped};
use radioflow_runtime::Pmt;

/// Takes GRC enumeration `key` (GRC's `default` where the file leaves it out) as the block's
/// word: the option's name after `prefix`, in lower case, `GI_1_32` as `1/32`.
fn option_word(
    m: &mut Mapped,
    key: &str,
    default: &'static str,
    prefix: &str,
) -> Result<Pmt, String> {
    let option = take(m, key, default)?;
    let rest = option
        .strip_prefix(prefix)
        .ok_or_else(|| format!("{key} = {option} is not one of GNU Radio's options"))?;
    let word = if prefix == "GI_" {
        rest.replacen('_', "/", 1)
    } else {
        rest.to_lowercase()
    };
    Ok(Pmt::symbol(word.as_str()))
}

/// Takes the version and the one of a pair of fields (`paprmode1`/`paprmode2`) that it makes
/// GRC show (1.1.1: the first), as word `name`.
fn by_version(
    m: &mut Mapped,
    version: &str,
    name: &str,
    default: &'static str,
    prefix: &str,
) -> Result<(), String> {
    let (first, second) = (
        option_word(m, &format!("{name}1"), default, prefix)?,
        option_word(m, &format!("{name}2"), default, prefix)?,
    );
    push(
        m,
        name,
        if version == "VERSION_111" {
            first
        } else {
            second
        },
    );
    Ok(())
}

/// The carrier mode, FFT size, pilot pattern and guard interval as the blocks' words.
fn symbol_words(m: &mut Mapped) -> Result<(), String> {
    for (key, default, prefix) in [
        ("carriermode", "CARRIERS_NORMAL", "CARRIERS_"),
        ("fftsize", "FFTSIZE_1K", "FFTSIZE_"),
        ("pilotpattern", "PILOT_PP1", "PILOT_"),
        ("guardinterval", "GI_1_32", "GI_"),
    ] {
        let w = option_word(m, key, default, prefix)?;
        push(m, key, w);
    }
    Ok(())
}

fn freq_interleaver(m: &mut Mapped) -> Result<(), String> {
    let version = take(m, "version", "VERSION_111")?;
    symbol_words(m)?;
    by_version(m, &version, "paprmode", "PAPR_OFF", "PAPR_")?;
    by_version(m, &version, "preamble", "PREAMBLE_T2_SISO", "PREAMBLE_")
}

/// Takes the preamble and FFT size of `version` as GRC's template chooses them (1.3.1 with a
/// T2-Lite preamble takes the second FFT size), as words `preamble` and `fftsize`.
fn preamble_and_fft(m: &mut Mapped, version: &str) -> Result<(), String> {
    let (p1, p2) = (
        option_word(m, "preamble1", "PREAMBLE_T2_SISO", "PREAMBLE_")?,
        option_word(m, "preamble2", "PREAMBLE_T2_SISO", "PREAMBLE_")?,
    );
    let (f1, f2) = (
        option_word(m, "fftsize1", "FFTSIZE_1K", "FFTSIZE_")?,
        option_word(m, "fftsize2", "FFTSIZE_2K", "FFTSIZE_")?,
    );
    let (preamble, fft) = if version == "VERSION_111" {
        (p1, f1)
    } else {
        let lite = p2.as_symbol().is_some_and(|p| p.starts_with("t2_lite"));
        (p2, if lite { f2 } else { f1 })
    };
    push(m, "fftsize", fft);
    push(m, "preamble", preamble);
    Ok(())
}

fn p1_insertion(m: &mut Mapped) -> Result<(), String> {
    let version = take(m, "version", "VERSION_111")?;
    // gr-dtv's P1 insertion takes the carrier mode and does nothing with it (P1's S2 says
    // the FFT size alone; its mixed bit is 0).
    take(m, "carriermode", "CARRIERS_NORMAL")?;
    let levels = take(m, "showlevels", "SHOWLEVELS_OFF")?;
    if levels != "SHOWLEVELS_OFF" {
        return Err(format!(
            "showlevels = {levels} is not supported (gr-dtv prints each frame's peak levels \
             and clip counts to stdout; radioflow's block does not print from its work)"
        ));
    }
    preamble_and_fft(m, &version)?;
    let gi = option_word(m, "guardinterval", "GI_1_32", "GI_")?;
    push(m, "guardinterval", gi);
    Ok(())
}

/// Takes GRC's two-option enumeration `key` as boolean `key` (`on` true).
fn flag(m: &mut Mapped, key: &str, off: &'static str, on: &str) -> Result<(), String> {
    let v = take(m, key, off)?;
    let b = match v.as_str() {
        o if o == off => false,
        o if o == on => true,
        other => return Err(format!("{key} = {other} is not {off} or {on}")),
    };
    push(m, key, Pmt::Bool(b));
    Ok(())
}

fn frame_mapper(m: &mut Mapped) -> Result<(), String> {
    let version = take(m, "version", "VERSION_111")?;
    let f = take(m, "framesize", "FECFRAME_NORMAL")?;
    push(m, "framesize", frame_word("framesize", &f)?);
    // C1_3 as 1/3.
    let rate = take(m, "rate", "C1_3")?;
    let r = rate
        .strip_prefix('C')
        .filter(|r| r.len() == 3)
        .ok_or_else(|| format!("rate = {rate} is not one of GNU Radio's DVB-T2 code rates"))?;
    push(m, "rate", Pmt::symbol(r.replacen('_', "/", 1).as_str()));
    t2_constellation(m)?;
    flag(m, "rotation", "ROTATION_OFF", "ROTATION_ON")?;
    for (key, default, prefix) in [
        ("carriermode", "CARRIERS_NORMAL", "CARRIERS_"),
        ("pilotpattern", "PILOT_PP1", "PILOT_"),
        ("guardinterval", "GI_1_32", "GI_"),
        ("l1constellation", "L1_MOD_BPSK", "L1_MOD_"),
        ("inputmode", "INPUTMODE_NORMAL", "INPUTMODE_"),
    ] {
        let w = option_word(m, key, default, prefix)?;
        push(m, key, w);
    }
    preamble_and_fft(m, &version)?;
    by_version(m, &version, "paprmode", "PAPR_OFF", "PAPR_")?;
    let v = match version.as_str() {
        "VERSION_111" => "1.1.1",
        "VERSION_131" => "1.3.1",
        other => {
            return Err(format!(
                "version = {other} is not VERSION_111 or VERSION_131"
            ))
        }
    };
    push(m, "version", Pmt::symbol(v));
    flag(m, "reservedbiasbits", "RESERVED_OFF", "RESERVED_ON")?;
    flag(m, "l1scrambled", "L1_SCRAMBLED_OFF", "L1_SCRAMBLED_ON")?;
    flag(m, "inband", "INBAND_OFF", "INBAND_ON")
}

fn miso(m: &mut Mapped) -> Result<(), String> {
    let version = take(m, "version", "VERSION_111")?;
    symbol_words(m)?;
    by_version(m, &version, "paprmode", "PAPR_OFF", "PAPR_")
}

fn pilot_generator(m: &mut Mapped) -> Result<(), String> {
    let version = take(m, "version", "VERSION_111")?;
    symbol_words(m)?;
    by_version(m, &version, "paprmode", "PAPR_OFF", "PAPR_")?;
    by_version(m, &version, "preamble", "PREAMBLE_T2_SISO", "PREAMBLE_")?;
    let group = option_word(m, "misogroup", "MISO_TX1", "MISO_")?;
    push(m, "misogroup", group);
    let eq = option_word(m, "equalization", "EQUALIZATION_OFF", "EQUALIZATION_")?;
    push(m, "equalization", eq);
    // BANDWIDTH_1_7_MHZ as 1.7, BANDWIDTH_8_0_MHZ as 8.
    let bw = take(m, "bandwidth", "BANDWIDTH_8_0_MHZ")?;
    let mhz = bw
        .strip_prefix("BANDWIDTH_")
        .and_then(|b| b.strip_suffix("_MHZ"))
        .ok_or_else(|| format!("bandwidth = {bw} is not one of GNU Radio's options"))?;
    let mhz = mhz
        .strip_suffix("_0")
        .map_or_else(|| mhz.replace('_', "."), str::to_owned);
    push(m, "bandwidth", Pmt::symbol(mhz.as_str()));
    fft_vlength(m)
}

/// GRC's vector length, the FFT size (the `fftsize` option's `vlength`), as `vlength`.
fn fft_vlength(m: &mut Mapped) -> Result<(), String> {
    let fft = m
        .param("fftsize")
        .and_then(Pmt::as_symbol)
        .map(str::to_owned)
        .unwrap_or_default();
    let vlength: i64 = match fft.trim_end_matches("_t2gi") {
        "1k" => 1024,
        "2k" => 2048,
        "4k" => 4096,
        "8k" => 8192,
        "16k" => 16384,
        "32k" => 32768,
        other => {
            return Err(format!(
                "fftsize = {other} is not one of GNU Radio's options"
            ))
        }
    };
    push(m, "vlength", Pmt::Int(vlength));
    Ok(())
}

fn paprtr(m: &mut Mapped) -> Result<(), String> {
    let version = take(m, "version", "VERSION_111")?;
    symbol_words(m)?;
    by_version(m, &version, "paprmode", "PAPR_OFF", "PAPR_")?;
    let v = match version.as_str() {
        "VERSION_111" => "1.1.1",
        "VERSION_131" => "1.3.1",
        other => {
            return Err(format!(
                "version = {other} is not VERSION_111 or VERSION_131"
            ))
        }
    };
    push(m, "version", Pmt::symbol(v));
    fft_vlength(m)
}

fn cell_interleaver(m: &mut Mapped) -> Result<(), String> {
    let f = take(m, "framesize", "FECFRAME_NORMAL")?;
    push(m, "framesize", frame_word("framesize", &f)?);
    t2_constellation(m)
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        choose: Some(cell_interleaver),
        ..row(
            "dtv_dvbt2_cellinterleaver_cc",
            "dtv.dvbt2_cellinterleaver_cc({framesize.val},{constellation.val},{fecblocks},{tiblocks})",
            "dvbt2_cellinterleaver",
            &[],
            &[
                word("framesize", "_framesize"),
                word("constellation", "_constellation"),
                param("fecblocks", "fecblocks"),
                param("tiblocks", "tiblocks"),
            ],
        )
    },
    GrBlock {
        choose: Some(frame_mapper),
        ..row(
            "dtv_dvbt2_framemapper_cc",
            "dtv.dvbt2_framemapper_cc(",
            "dvbt2_framemapper",
            &[],
            &[
                word("framesize", "_framesize"),
                word("rate", "_rate"),
                word("constellation", "_constellation"),
                word("rotation", "_rotation"),
                param("fecblocks", "fecblocks"),
                param("tiblocks", "tiblocks"),
                word("carriermode", "_carriermode"),
                word("fftsize1", "_fftsize1"),
                word("fftsize2", "_fftsize2"),
                word("guardinterval", "_guardinterval"),
                word("l1constellation", "_l1constellation"),
                word("pilotpattern", "_pilotpattern"),
                param("t2frames", "t2frames"),
                param("numdatasyms", "numdatasyms"),
                word("paprmode1", "_paprmode1"),
                word("paprmode2", "_paprmode2"),
                word("version", "_version"),
                word("preamble1", "_preamble1"),
                word("preamble2", "_preamble2"),
                word("inputmode", "_inputmode"),
                word("reservedbiasbits", "_reservedbiasbits"),
                word("l1scrambled", "_l1scrambled"),
                word("inband", "_inband"),
            ],
        )
    },
    GrBlock {
        choose: Some(freq_interleaver),
        ..row(
            "dtv_dvbt2_freqinterleaver_cc",
            "dtv.dvbt2_freqinterleaver_cc(",
            "dvbt2_freqinterleaver",
            &[],
            &[
                word("carriermode", "_carriermode"),
                word("fftsize", "_fftsize"),
                word("pilotpattern", "_pilotpattern"),
                word("guardinterval", "_guardinterval"),
                param("numdatasyms", "numdatasyms"),
                word("paprmode1", "_paprmode1"),
                word("paprmode2", "_paprmode2"),
                word("version", "_version"),
                word("preamble1", "_preamble1"),
                word("preamble2", "_preamble2"),
            ],
        )
    },
    GrBlock {
        choose: Some(p1_insertion),
        ..row(
            "dtv_dvbt2_p1insertion_cc",
            "dtv.dvbt2_p1insertion_cc(",
            "dvbt2_p1insertion",
            &[],
            &[
                word("carriermode", "_carriermode"),
                word("fftsize1", "_fftsize1"),
                word("fftsize2", "_fftsize2"),
                word("guardinterval", "_guardinterval"),
                param("numdatasyms", "numdatasyms"),
                word("version", "_version"),
                word("preamble1", "_preamble1"),
                word("preamble2", "_preamble2"),
                word("showlevels", "_showlevels"),
                no_effect(
                    "vclip",
                    "the clip level of showlevels' counts, which are refused (SHOWLEVELS_OFF only)",
                ),
            ],
        )
    },
    GrBlock {
        choose: Some(pilot_generator),
        ..row(
            "dtv_dvbt2_pilotgenerator_cc",
            "dtv.dvbt2_pilotgenerator_cc(",
            "dvbt2_pilotgenerator",
            &[],
            &[
                word("carriermode", "_carriermode"),
                word("fftsize", "_fftsize"),
                word("pilotpattern", "_pilotpattern"),
                word("guardinterval", "_guardinterval"),
                param("numdatasyms", "numdatasyms"),
                word("paprmode1", "_paprmode1"),
                word("paprmode2", "_paprmode2"),
                word("version", "_version"),
                word("preamble1", "_preamble1"),
                word("preamble2", "_preamble2"),
                word("misogroup", "_misogroup"),
                word("equalization", "_equalization"),
                word("bandwidth", "_bandwidth"),
            ],
        )
    },
    GrBlock {
        choose: Some(paprtr),
        ..row(
            "dtv_dvbt2_paprtr_cc",
            "dtv.dvbt2_paprtr_cc(",
            "dvbt2_paprtr",
            &[],
            &[
                word("carriermode", "_carriermode"),
                word("fftsize", "_fftsize"),
                word("pilotpattern", "_pilotpattern"),
                word("guardinterval", "_guardinterval"),
                param("numdatasyms", "numdatasyms"),
                word("paprmode1", "_paprmode1"),
                word("paprmode2", "_paprmode2"),
                word("version", "_version"),
                param("vclip", "vclip"),
                param("iterations", "iterations"),
            ],
        )
    },
    GrBlock {
        choose: Some(miso),
        ..row(
            "dtv_dvbt2_miso_cc",
            "dtv.dvbt2_miso_cc(",
            "dvbt2_miso",
            &[],
            &[
                word("carriermode", "_carriermode"),
                word("fftsize", "_fftsize"),
                word("pilotpattern", "_pilotpattern"),
                word("guardinterval", "_guardinterval"),
                param("numdatasyms", "numdatasyms"),
                word("paprmode1", "_paprmode1"),
                word("paprmode2", "_paprmode2"),
                word("version", "_version"),
            ],
        )
    },
];
