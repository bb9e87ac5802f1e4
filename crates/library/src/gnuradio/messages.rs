//! Rows for gr-blocks' message blocks: the message strobes.

use super::common::{param, row};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// GNU Radio's `message_strobe_random_distribution_t` (`blocks.STROBE_POISSON` is 1,
/// `GAUSSIAN` 2, `UNIFORM` 3, `EXPONENTIAL` 4; a `.grc` file's name of one is evaluated to
/// `strobe_poisson`...) as radioflow's word.
fn distribution(v: &Pmt) -> Result<Pmt, String> {
    const WORDS: [&str; 4] = ["poisson", "gaussian", "uniform", "exponential"];
    let word = match v {
        Pmt::Int(n @ 1..=4) => WORDS[(n - 1) as usize],
        Pmt::Symbol(s) => match WORDS
            .iter()
            .find(|w| s.strip_prefix("strobe_").unwrap_or(s) == **w)
        {
            Some(w) => w,
            None => return Err(NOT_A_DISTRIBUTION.into()),
        },
        _ => return Err(NOT_A_DISTRIBUTION.into()),
    };
    Ok(Pmt::symbol(word))
}

const NOT_A_DISTRIBUTION: &str = "not a distribution (blocks.STROBE_EXPONENTIAL, \
                                  STROBE_UNIFORM, STROBE_GAUSSIAN or STROBE_POISSON)";

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "blocks_message_strobe",
        "blocks.message_strobe({msg},{period})",
        "message_strobe",
        &[],
        &[param("msg", "msg"), param("period", "period_ms")],
    ),
    row(
        "blocks_message_strobe_random",
        "blocks.message_strobe_random({msg},{dist},{mean},{std})",
        "message_strobe_random",
        &[],
        &[
            param("msg", "msg"),
            GrParam {
                key: "dist",
                to: To::Convert("dist", distribution),
            },
            param("mean", "mean_ms"),
            param("std", "std_ms"),
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_are_gnu_radio_s_numbers_or_names() {
        assert_eq!(distribution(&Pmt::Int(1)), Ok(Pmt::symbol("poisson")));
        assert_eq!(distribution(&Pmt::Int(4)), Ok(Pmt::symbol("exponential")));
        assert_eq!(
            distribution(&Pmt::symbol("strobe_gaussian")),
            Ok(Pmt::symbol("gaussian"))
        );
        assert_eq!(
            distribution(&Pmt::symbol("uniform")),
            Ok(Pmt::symbol("uniform"))
        );
        assert!(distribution(&Pmt::Int(0)).is_err());
        assert!(distribution(&Pmt::symbol("strobe_pink")).is_err());
    }
}
