//! What `radioflow dvbs2 tx` and `rx` parse alike.

use clap::ValueEnum;

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum OnOff {
    On,
    Off,
}

/// `--rolloff`: one of the standard's three (clause 5.6).
pub(super) fn rolloff(s: &str) -> Result<f64, String> {
    match s.trim() {
        "0.35" => Ok(0.35),
        "0.25" => Ok(0.25),
        "0.2" | "0.20" => Ok(0.2),
        _ => Err(format!(
            "'{s}': DVB-S2 defines the roll-offs 0.35, 0.25 and 0.2"
        )),
    }
}
