//! MODCOD and FECFRAME parameters: ETSI EN 302 307-1 clauses 5.3 and 5.5.2.2.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// FECFRAME length (clause 5.3): 64 800 bits (normal) or 16 200 bits (short).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameSize {
    /// Nldpc = 64 800.
    Normal,
    /// Nldpc = 16 200.
    Short,
}

impl FrameSize {
    /// Nldpc, the FECFRAME length in bits.
    pub const fn nldpc(self) -> usize {
        match self {
            FrameSize::Normal => 64_800,
            FrameSize::Short => 16_200,
        }
    }
}

impl FromStr for FrameSize {
    type Err = ModcodError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "normal" | "n" | "64800" => Ok(FrameSize::Normal),
            "short" | "s" | "16200" => Ok(FrameSize::Short),
            _ => Err(ModcodError::UnknownFrameSize(s.to_string())),
        }
    }
}

/// LDPC code rate (identification, Table 5a/5b); `R3_5` is 3/5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeRate {
    R1_4,
    R1_3,
    R2_5,
    R1_2,
    R3_5,
    R2_3,
    R3_4,
    R4_5,
    R5_6,
    R8_9,
    R9_10,
}

impl CodeRate {
    /// Every code rate of the standard, lowest first.
    pub const ALL: [CodeRate; 11] = [
        CodeRate::R1_4,
        CodeRate::R1_3,
        CodeRate::R2_5,
        CodeRate::R1_2,
        CodeRate::R3_5,
        CodeRate::R2_3,
        CodeRate::R3_4,
        CodeRate::R4_5,
        CodeRate::R5_6,
        CodeRate::R8_9,
        CodeRate::R9_10,
    ];

    const fn index(self) -> usize {
        self as usize
    }

    /// The rate as written in the standard, e.g. `"3/5"`.
    pub const fn as_str(self) -> &'static str {
        [
            "1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10",
        ][self as usize]
    }
}

impl fmt::Display for CodeRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CodeRate {
    type Err = ModcodError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CodeRate::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| ModcodError::UnknownCodeRate(s.to_string()))
    }
}

/// Constellation (clause 5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Constellation {
    /// 2 bits per symbol (5.4.1).
    Qpsk,
    /// 3 bits per symbol (5.4.2).
    Psk8,
    /// 4 bits per symbol, rings 4 + 12 (5.4.3).
    Apsk16,
    /// 5 bits per symbol, rings 4 + 12 + 16 (5.4.4).
    Apsk32,
}

impl Constellation {
    /// Bits per symbol, η_MOD.
    pub const fn bits_per_symbol(self) -> usize {
        match self {
            Constellation::Qpsk => 2,
            Constellation::Psk8 => 3,
            Constellation::Apsk16 => 4,
            Constellation::Apsk32 => 5,
        }
    }

    const fn as_str(self) -> &'static str {
        match self {
            Constellation::Qpsk => "qpsk",
            Constellation::Psk8 => "8psk",
            Constellation::Apsk16 => "16apsk",
            Constellation::Apsk32 => "32apsk",
        }
    }
}

/// Why a MODCOD or frame size could not be parsed or is not defined by the standard.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModcodError {
    /// Not of the form `<constellation>-<rate>`, e.g. `qpsk-8/9`.
    #[error("malformed MODCOD {0:?}: expected <qpsk|8psk|16apsk|32apsk>-<rate>, e.g. qpsk-8/9")]
    Malformed(String),
    /// Unknown constellation name.
    #[error("unknown constellation {0:?}: expected qpsk, 8psk, 16apsk or 32apsk")]
    UnknownConstellation(String),
    /// Unknown code rate.
    #[error(
        "unknown code rate {0:?}: expected one of 1/4 1/3 2/5 1/2 3/5 2/3 3/4 4/5 5/6 8/9 9/10"
    )]
    UnknownCodeRate(String),
    /// Unknown frame size.
    #[error("unknown frame size {0:?}: expected normal or short")]
    UnknownFrameSize(String),
    /// The constellation is not defined with this code rate (Table 12).
    #[error("DVB-S2 defines no MODCOD {0} (ETSI EN 302 307-1 Table 12)")]
    UndefinedModcod(String),
    /// The code rate has no short FECFRAME (9/10, Table 5b).
    #[error("code rate {0} is not defined for short FECFRAMEs (ETSI EN 302 307-1 Table 5b)")]
    UndefinedForShortFrame(CodeRate),
}

/// A constellation with a code rate, one of the 28 MODCODs of Table 12.
///
/// ```
/// use radioflow_dvbs2::{Modcod, Constellation, CodeRate};
/// let m: Modcod = "8psk-3/5".parse().unwrap();
/// assert_eq!(m.constellation(), Constellation::Psk8);
/// assert_eq!(m.rate(), CodeRate::R3_5);
/// assert_eq!(m.pls_modcod(), 12);
/// assert!("16apsk-1/2".parse::<Modcod>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Modcod {
    constellation: Constellation,
    rate: CodeRate,
}

impl Modcod {
    /// The MODCOD, if Table 12 defines it.
    ///
    /// # Errors
    /// [`ModcodError::UndefinedModcod`] for pairs such as 16APSK 1/2.
    pub fn new(constellation: Constellation, rate: CodeRate) -> Result<Self, ModcodError> {
        let m = Modcod {
            constellation,
            rate,
        };
        if m.pls_modcod_opt().is_some() {
            Ok(m)
        } else {
            Err(ModcodError::UndefinedModcod(m.to_string()))
        }
    }

    /// The Es/N0 (dB) at which EN 302 307-1 Table 13 gives quasi-error-free reception
    /// (PER 10^-7 after BCH, normal FECFRAMEs, AWGN, ideal synchronisation).
    pub fn qef_esn0_db(self) -> f64 {
        const T: [f64; 28] = [
            -2.35, -1.24, -0.30, 1.00, 2.23, 3.10, 4.03, 4.68, 5.18, 6.20, 6.42, // QPSK
            5.50, 6.62, 7.91, 9.35, 10.69, 10.98, // 8PSK
            8.97, 10.21, 11.03, 11.61, 12.89, 13.13, // 16APSK
            12.73, 13.64, 14.28, 15.69, 16.05, // 32APSK
        ];
        T[usize::from(self.pls_modcod()) - 1]
    }

    /// Every MODCOD of Table 12, in MODCOD-number order.
    pub fn all() -> impl Iterator<Item = Modcod> {
        [
            Constellation::Qpsk,
            Constellation::Psk8,
            Constellation::Apsk16,
            Constellation::Apsk32,
        ]
        .into_iter()
        .flat_map(|c| {
            CodeRate::ALL
                .into_iter()
                .filter_map(move |r| Modcod::new(c, r).ok())
        })
    }

    /// The constellation.
    pub const fn constellation(self) -> Constellation {
        self.constellation
    }

    /// The LDPC code rate.
    pub const fn rate(self) -> CodeRate {
        self.rate
    }

    fn pls_modcod_opt(self) -> Option<u8> {
        // Table 12, indexed by constellation and code rate (1/4 .. 9/10); 0: not defined.
        const PLS: [[u8; 11]; 4] = [
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            [0, 0, 0, 0, 12, 13, 14, 0, 15, 16, 17],
            [0, 0, 0, 0, 0, 18, 19, 20, 21, 22, 23],
            [0, 0, 0, 0, 0, 0, 24, 25, 26, 27, 28],
        ];
        let n = PLS[self.constellation as usize][self.rate.index()];
        (n != 0).then_some(n)
    }

    /// The MODCOD field of the PLS code, 1..=28 (clause 5.5.2.2, Table 12).
    pub fn pls_modcod(self) -> u8 {
        self.pls_modcod_opt()
            .expect("constructed through Modcod::new")
    }

    /// The FEC parameters of this MODCOD's code rate in a frame size.
    ///
    /// # Errors
    /// [`ModcodError::UndefinedForShortFrame`] for 9/10 short.
    pub fn fec(self, frame: FrameSize) -> Result<FecParams, ModcodError> {
        FecParams::new(frame, self.rate)
    }
}

impl fmt::Display for Modcod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.constellation.as_str(), self.rate)
    }
}

impl FromStr for Modcod {
    type Err = ModcodError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        let (c, r) = lower
            .split_once(['-', '_', ' '])
            .ok_or_else(|| ModcodError::Malformed(s.to_string()))?;
        let constellation = match c {
            "qpsk" => Constellation::Qpsk,
            "8psk" => Constellation::Psk8,
            "16apsk" => Constellation::Apsk16,
            "32apsk" => Constellation::Apsk32,
            _ => return Err(ModcodError::UnknownConstellation(c.to_string())),
        };
        Modcod::new(constellation, r.parse()?)
    }
}

/// FEC parameters of one code rate and frame size (Tables 5a and 5b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FecParams {
    /// Frame size.
    pub frame: FrameSize,
    /// Code rate.
    pub rate: CodeRate,
    /// Uncoded BCH block (the BBFRAME length), bits.
    pub kbch: usize,
    /// BCH coded block = LDPC uncoded block Kldpc, bits.
    pub nbch: usize,
    /// LDPC coded block, bits.
    pub nldpc: usize,
    /// BCH error correction capability t.
    pub t: usize,
}

const KBCH_NORMAL: [usize; 11] = [
    16008, 21408, 25728, 32208, 38688, 43040, 48408, 51648, 53840, 57472, 58192,
];
const NBCH_NORMAL: [usize; 11] = [
    16200, 21600, 25920, 32400, 38880, 43200, 48600, 51840, 54000, 57600, 58320,
];
const T_NORMAL: [usize; 11] = [12, 12, 12, 12, 12, 10, 12, 12, 10, 8, 8];
const KBCH_SHORT: [usize; 10] = [
    3072, 5232, 6312, 7032, 9552, 10632, 11712, 12432, 13152, 14232,
];
const NBCH_SHORT: [usize; 10] = [
    3240, 5400, 6480, 7200, 9720, 10800, 11880, 12600, 13320, 14400,
];

impl FecParams {
    /// Parameters of Table 5a (normal) or 5b (short).
    ///
    /// # Errors
    /// [`ModcodError::UndefinedForShortFrame`] for 9/10 short.
    pub fn new(frame: FrameSize, rate: CodeRate) -> Result<Self, ModcodError> {
        let i = rate.index();
        let (kbch, nbch, t) = match frame {
            FrameSize::Normal => (KBCH_NORMAL[i], NBCH_NORMAL[i], T_NORMAL[i]),
            FrameSize::Short => {
                if i >= KBCH_SHORT.len() {
                    return Err(ModcodError::UndefinedForShortFrame(rate));
                }
                (KBCH_SHORT[i], NBCH_SHORT[i], 12)
            }
        };
        Ok(FecParams {
            frame,
            rate,
            kbch,
            nbch,
            nldpc: frame.nldpc(),
            t,
        })
    }

    /// Kldpc (= Nbch).
    pub const fn kldpc(&self) -> usize {
        self.nbch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_eight_modcods_numbered_in_order() {
        let numbers: Vec<u8> = Modcod::all().map(Modcod::pls_modcod).collect();
        assert_eq!(numbers, (1..=28).collect::<Vec<_>>());
        for m in Modcod::all() {
            assert_eq!(m.to_string().parse::<Modcod>(), Ok(m));
        }
    }

    #[test]
    fn parse_errors_say_what_is_wrong() {
        assert_eq!(
            "qpsk".parse::<Modcod>(),
            Err(ModcodError::Malformed("qpsk".into()))
        );
        assert_eq!(
            "64apsk-3/4".parse::<Modcod>(),
            Err(ModcodError::UnknownConstellation("64apsk".into()))
        );
        assert_eq!(
            "qpsk-7/8".parse::<Modcod>(),
            Err(ModcodError::UnknownCodeRate("7/8".into()))
        );
        assert_eq!(
            "32apsk-2/3".parse::<Modcod>(),
            Err(ModcodError::UndefinedModcod("32apsk-2/3".into()))
        );
        let m: Modcod = "QPSK-9/10".parse().unwrap();
        assert_eq!(
            m.fec(FrameSize::Short),
            Err(ModcodError::UndefinedForShortFrame(CodeRate::R9_10))
        );
        assert_eq!(m.fec(FrameSize::Normal).unwrap().kbch, 58192);
        assert_eq!(
            "medium".parse::<FrameSize>(),
            Err(ModcodError::UnknownFrameSize("medium".into()))
        );
    }
}
