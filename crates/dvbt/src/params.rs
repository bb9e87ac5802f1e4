//! The settings gr-dtv's DVB-T blocks share, by the words radioflow's blocks take:
//! constellation, hierarchy, code rate, transmission mode, guard interval. Each knows the
//! value ETSI EN 300 744's TPS (clause 4.6.2) sends for it, which is also gr-dtv's
//! enumeration value.

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

/// The carriers' constellation (clause 4.3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constellation {
    /// 2 bits a carrier.
    Qpsk,
    /// 4 bits a carrier.
    Qam16,
    /// 6 bits a carrier.
    Qam64,
}

/// The words of [`Constellation`].
pub(crate) const CONSTELLATION_WORDS: [&str; 3] = ["qpsk", "16qam", "64qam"];

impl Constellation {
    /// Reads its word: `qpsk`, `16qam`, `64qam`.
    ///
    /// # Errors
    /// Another word (naming `block` and parameter `name`).
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        use Constellation::*;
        let options: Vec<_> = CONSTELLATION_WORDS
            .into_iter()
            .zip([Qpsk, Qam16, Qam64])
            .collect();
        parse(block, name, word, &options)
    }

    /// Bits a carrier (v of clause 4.3.4.1).
    pub fn bits(self) -> usize {
        match self {
            Constellation::Qpsk => 2,
            Constellation::Qam16 => 4,
            Constellation::Qam64 => 6,
        }
    }

    /// TPS bits s25, s26 (clause 4.6.2.5).
    pub(crate) fn tps(self) -> u32 {
        self as u32
    }
}

/// Hierarchical transmission (clause 4.3.5): none, or the distance α between the
/// constellation's quadrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hierarchy {
    /// Non-hierarchical.
    Nh,
    /// α = 1.
    Alpha1,
    /// α = 2.
    Alpha2,
    /// α = 4.
    Alpha4,
}

/// The words of [`Hierarchy`].
pub(crate) const HIERARCHY_WORDS: [&str; 4] = ["nh", "alpha1", "alpha2", "alpha4"];

impl Hierarchy {
    /// Reads its word: `nh`, `alpha1`, `alpha2`, `alpha4`.
    ///
    /// # Errors
    /// Another word (naming `block` and parameter `name`).
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        use Hierarchy::*;
        let options: Vec<_> = HIERARCHY_WORDS
            .into_iter()
            .zip([Nh, Alpha1, Alpha2, Alpha4])
            .collect();
        parse(block, name, word, &options)
    }

    /// α (1 where non-hierarchical).
    pub fn alpha(self) -> i32 {
        match self {
            Hierarchy::Nh | Hierarchy::Alpha1 => 1,
            Hierarchy::Alpha2 => 2,
            Hierarchy::Alpha4 => 4,
        }
    }

    /// TPS bits s27 to s29 (clause 4.6.2.6).
    pub(crate) fn tps(self) -> u32 {
        self as u32
    }
}

/// The inner code's rate (clause 4.3.3, table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRate {
    /// 1/2.
    R1_2,
    /// 2/3.
    R2_3,
    /// 3/4.
    R3_4,
    /// 5/6.
    R5_6,
    /// 7/8.
    R7_8,
}

/// The words of [`CodeRate`].
pub(crate) const CODE_RATE_WORDS: [&str; 5] = ["1/2", "2/3", "3/4", "5/6", "7/8"];

impl CodeRate {
    /// Reads its word: `1/2`, `2/3`, `3/4`, `5/6`, `7/8`.
    ///
    /// # Errors
    /// Another word (naming `block` and parameter `name`).
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        use CodeRate::*;
        let options: Vec<_> = CODE_RATE_WORDS
            .into_iter()
            .zip([R1_2, R2_3, R3_4, R5_6, R7_8])
            .collect();
        parse(block, name, word, &options)
    }

    /// (k, n): k bits in, n bits out.
    pub fn k_n(self) -> (usize, usize) {
        match self {
            CodeRate::R1_2 => (1, 2),
            CodeRate::R2_3 => (2, 3),
            CodeRate::R3_4 => (3, 4),
            CodeRate::R5_6 => (5, 6),
            CodeRate::R7_8 => (7, 8),
        }
    }

    /// TPS bits s30 to s32 or s33 to s35 (clause 4.6.2.7).
    pub(crate) fn tps(self) -> u32 {
        self as u32
    }
}

/// The transmission mode (clause 4.4): 2K or 8K carriers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// 1705 carriers, an FFT of 2048 points.
    T2k,
    /// 6817 carriers, an FFT of 8192 points.
    T8k,
}

/// The words of [`Mode`].
pub(crate) const MODE_WORDS: [&str; 2] = ["2k", "8k"];

impl Mode {
    /// Reads its word: `2k`, `8k`.
    ///
    /// # Errors
    /// Another word (naming `block` and parameter `name`).
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        let options: Vec<_> = MODE_WORDS.into_iter().zip([Mode::T2k, Mode::T8k]).collect();
        parse(block, name, word, &options)
    }

    /// Points of the OFDM symbol's FFT.
    pub fn fft_len(self) -> usize {
        match self {
            Mode::T2k => 2048,
            Mode::T8k => 8192,
        }
    }

    /// Data carriers a symbol (clause 4.3.4.2's N_max).
    pub fn payload(self) -> usize {
        match self {
            Mode::T2k => 1512,
            Mode::T8k => 6048,
        }
    }

    /// The highest carrier, K_max (clause 4.4, table 1): carriers 0 to K_max.
    pub fn kmax(self) -> usize {
        match self {
            Mode::T2k => 1704,
            Mode::T8k => 6816,
        }
    }

    /// TPS bits s38, s39 (clause 4.6.2.9).
    pub(crate) fn tps(self) -> u32 {
        self as u32
    }
}

/// The guard interval (clause 4.4): a fraction of the useful symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardInterval {
    /// 1/32.
    G1_32,
    /// 1/16.
    G1_16,
    /// 1/8.
    G1_8,
    /// 1/4.
    G1_4,
}

/// The words of [`GuardInterval`].
pub(crate) const GUARD_WORDS: [&str; 4] = ["1/32", "1/16", "1/8", "1/4"];

impl GuardInterval {
    /// Reads its word: `1/32`, `1/16`, `1/8`, `1/4`.
    ///
    /// # Errors
    /// Another word (naming `block` and parameter `name`).
    pub fn parse(block: &'static str, name: &str, word: &str) -> Result<Self, SettingsError> {
        use GuardInterval::*;
        let options: Vec<_> = GUARD_WORDS
            .into_iter()
            .zip([G1_32, G1_16, G1_8, G1_4])
            .collect();
        parse(block, name, word, &options)
    }

    /// TPS bits s36, s37 (clause 4.6.2.8).
    pub(crate) fn tps(self) -> u32 {
        self as u32
    }
}
