//! What gr-dtv's blocks share: their settings' errors ([`DtvSettingsError`]), the standard,
//! the FEC frame parameters of a standard, frame size and rate, whole frames of a stream, and
//! tags carried across a frame block.

use crate::modcod::{CodeRate, FecParams, FrameSize, Modcod};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::Refused;
use std::fmt::Display;

/// Why a gr-dtv block refuses its settings: a rate, frame size or constellation the standard
/// does not define for the others, or a value out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{block}: {message}")]
pub struct DtvSettingsError {
    /// The block's registry id (`dvb_ldpc`).
    pub block: &'static str,
    /// What is wrong, naming the parameter.
    pub message: String,
}

impl DtvSettingsError {
    pub(crate) fn new(block: &'static str, message: impl Display) -> Self {
        Self {
            block,
            message: message.to_string(),
        }
    }

    /// Parameter `name` refused: `problem` follows its name.
    pub(crate) fn param(block: &'static str, name: &str, problem: impl Display) -> Self {
        Self::new(block, format!("{name} {problem}"))
    }
}

/// The registry names the block itself.
impl From<DtvSettingsError> for Refused {
    fn from(e: DtvSettingsError) -> Self {
        Refused::other(e.message)
    }
}

/// The standards of gr-dtv's FEC blocks (`dtv.STANDARD_DVBS2`, `dtv.STANDARD_DVBT2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Standard {
    /// ETSI EN 302 307-1.
    DvbS2,
    /// ETSI EN 302 755.
    DvbT2,
}

impl Standard {
    pub(crate) fn parse(block: &'static str, word: &str) -> Result<Self, DtvSettingsError> {
        match word {
            "dvb-s2" => Ok(Standard::DvbS2),
            "dvb-t2" => Ok(Standard::DvbT2),
            _ => Err(DtvSettingsError::param(
                block,
                "standard",
                format!("must be dvb-s2 or dvb-t2, not {word:?}"),
            )),
        }
    }
}

/// The FEC parameters of a code rate and frame size in a standard, or why the block refuses
/// them (`block` names it in the error).
pub(crate) fn fec_params(
    block: &'static str,
    standard: Standard,
    frame: FrameSize,
    rate: &str,
) -> Result<FecParams, DtvSettingsError> {
    let rate: CodeRate = rate
        .parse()
        .map_err(|e| DtvSettingsError::param(block, "rate", e))?;
    if standard == Standard::DvbT2 {
        // EN 302 755 tables 6a and 6b: normal 1/2 .. 5/6, short 1/3 .. 5/6 (1/4 is T2-Lite's).
        use CodeRate::*;
        let defined = match frame {
            FrameSize::Normal => matches!(rate, R1_2 | R3_5 | R2_3 | R3_4 | R4_5 | R5_6),
            FrameSize::Short => {
                matches!(rate, R1_3 | R2_5 | R1_2 | R3_5 | R2_3 | R3_4 | R4_5 | R5_6)
            }
        };
        if !defined {
            return Err(DtvSettingsError::new(
                block,
                format!(
                    "rate {rate} is not a DVB-T2 code rate of {} FECFRAMEs (ETSI EN 302 755 \
                 tables 6a and 6b)",
                    frame_word(frame)
                ),
            ));
        }
    }
    FecParams::new(frame, rate).map_err(|e| DtvSettingsError::new(block, e))
}

/// The MODCOD of a constellation word (`qpsk`, `8psk`, `16apsk`, `32apsk`) and a code rate,
/// or why the block refuses it.
pub(crate) fn modcod(
    block: &'static str,
    constellation: &str,
    frame: FrameSize,
    rate: &str,
) -> Result<(Modcod, FecParams), DtvSettingsError> {
    let m: Modcod = format!("{constellation}-{rate}")
        .parse()
        .map_err(|e| DtvSettingsError::new(block, e))?;
    let fec = m.fec(frame).map_err(|e| DtvSettingsError::new(block, e))?;
    Ok((m, fec))
}

pub(crate) fn frame_word(frame: FrameSize) -> &'static str {
    match frame {
        FrameSize::Normal => "normal",
        FrameSize::Short => "short",
    }
}

/// One work call of a block that turns every `n_in` input items into `n_out` output items,
/// frame by frame, as many whole frames as the input and the output room hold.
pub(crate) fn frames<A: Item, B: Item>(
    input: &mut StreamInput<A>,
    output: &mut StreamOutput<B>,
    n_in: usize,
    n_out: usize,
    mut frame: impl FnMut(&[A], &mut [B]),
) -> WorkStatus {
    let i = input.slice();
    let o = output.slice();
    let k = (i.len() / n_in).min(o.len() / n_out);
    for (a, b) in i.chunks_exact(n_in).zip(o.chunks_exact_mut(n_out)).take(k) {
        frame(a, b);
    }
    propagate_tags_at_rate(input, output, k * n_in, 1, 1);
    input.consume(k * n_in);
    output.produce(k * n_out);
    WorkStatus::Continue
}
