//! The settings gr-dtv's DVB-T2 OFDM blocks share, by the words radioflow's blocks take:
//! FFT size, carrier mode, pilot pattern, guard interval, PAPR reduction, preamble.

use crate::error::SettingsError;

/// Reads word `word` of parameter `name` of `block` as one of `options` (word, value).
fn parse<T: Copy>(
    block: &'static str,
    name: &str,
    word: &str,
    options: &[(&str, T)],
) -> Result<T, SettingsError> {
    options
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let words: Vec<&str> = options.iter().map(|(w, _)| *w).collect();
            SettingsError::param(
                block,
                name,
                format!("must be one of {}, not {word:?}", words.join(", ")),
            )
        })
}

/// The OFDM symbol's FFT size (ETSI EN 302 755 clause 9.5: 1K to 32K). gr-dtv's `_T2GI`
/// variants are the same size here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftSize {
    /// 1024 points.
    K1,
    /// 2048 points.
    K2,
    /// 4096 points.
    K4,
    /// 8192 points.
    K8,
    /// 16384 points.
    K16,
    /// 32768 points.
    K32,
}

/// The words of [`FftSize`], gr-dtv's options in order.
pub const FFT_WORDS: [&str; 9] = [
    "1k", "2k", "4k", "8k", "8k_t2gi", "16k", "16k_t2gi", "32k", "32k_t2gi",
];

impl FftSize {
    /// Reads one of [`FFT_WORDS`] (parameter `name` of `block` in the error).
    ///
    /// # Errors
    /// Another word.
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        use FftSize::*;
        let sizes = [K1, K2, K4, K8, K8, K16, K16, K32, K32];
        let options: Vec<(&str, FftSize)> = FFT_WORDS.iter().copied().zip(sizes).collect();
        parse(block, name, word, &options)
    }

    /// log2 of the size (10 for 1K).
    pub fn log2(self) -> u32 {
        match self {
            FftSize::K1 => 10,
            FftSize::K2 => 11,
            FftSize::K4 => 12,
            FftSize::K8 => 13,
            FftSize::K16 => 14,
            FftSize::K32 => 15,
        }
    }
}

/// Normal or extended carrier mode (clause 9.5: extended exists for 8K, 16K and 32K).
pub(crate) fn parse_extended(
    block: &'static str,
    name: &str,
    word: &str,
) -> Result<bool, SettingsError> {
    parse(block, name, word, &[("normal", false), ("extended", true)])
}

/// The scattered pilot pattern, PP1 to PP8 (clause 9.2.3), as its number.
pub(crate) fn parse_pilot_pattern(
    block: &'static str,
    name: &str,
    word: &str,
) -> Result<u8, SettingsError> {
    let options = [
        ("pp1", 1),
        ("pp2", 2),
        ("pp3", 3),
        ("pp4", 4),
        ("pp5", 5),
        ("pp6", 6),
        ("pp7", 7),
        ("pp8", 8),
    ];
    parse(block, name, word, &options)
}

/// The guard interval as a fraction of the useful symbol (clause 9.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardInterval {
    /// Numerator (1 or 19).
    pub num: u32,
    /// Denominator.
    pub den: u32,
}

impl GuardInterval {
    /// Reads `1/32`, `1/16`, `1/8`, `1/4`, `1/128`, `19/128` or `19/256`.
    ///
    /// # Errors
    /// Another word.
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        let g = |num, den| GuardInterval { num, den };
        let options = [
            ("1/32", g(1, 32)),
            ("1/16", g(1, 16)),
            ("1/8", g(1, 8)),
            ("1/4", g(1, 4)),
            ("1/128", g(1, 128)),
            ("19/128", g(19, 128)),
            ("19/256", g(19, 256)),
        ];
        parse(block, name, word, &options)
    }
}

/// PAPR reduction (clause 9.6): whether tone reservation is on (`tr`, `both`), which keeps
/// carriers from the data. `off` and `ace` reserve none.
pub(crate) fn parse_tone_reservation(
    block: &'static str,
    name: &str,
    word: &str,
) -> Result<bool, SettingsError> {
    let options = [("off", false), ("ace", false), ("tr", true), ("both", true)];
    parse(block, name, word, &options)
}

/// The preamble's transmission (P1's S1 field, clause 7.2.2): whether MISO (`t2_miso`,
/// `t2_lite_miso`) rather than SISO (`t2_siso`, `t2_lite_siso`).
pub(crate) fn parse_miso(
    block: &'static str,
    name: &str,
    word: &str,
) -> Result<bool, SettingsError> {
    let options = [
        ("t2_siso", false),
        ("t2_miso", true),
        ("t2_lite_siso", false),
        ("t2_lite_miso", true),
    ];
    parse(block, name, word, &options)
}

/// P1's S1 field by the preamble (clause 7.2.2.2): 0 T2 SISO, 1 T2 MISO, 3 T2-Lite SISO,
/// 4 T2-Lite MISO.
pub(crate) fn parse_s1(block: &'static str, name: &str, word: &str) -> Result<u8, SettingsError> {
    let options = [
        ("t2_siso", 0),
        ("t2_miso", 1),
        ("t2_lite_siso", 3),
        ("t2_lite_miso", 4),
    ];
    parse(block, name, word, &options)
}

/// Refuses `numdatasyms` 0: a T2 frame has data symbols.
pub(crate) fn require_data_symbols(
    block: &'static str,
    numdatasyms: usize,
) -> Result<(), SettingsError> {
    if numdatasyms == 0 {
        return Err(SettingsError::param(
            block,
            "numdatasyms",
            "0: a T2 frame has data symbols",
        ));
    }
    Ok(())
}
