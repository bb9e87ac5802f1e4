//! GNU Radio's `cmd` message for its SoapySDR blocks: a dict of settings to change while the
//! graph runs (`{freq: 101e6, gain: 30}`), read into [`Command`]s that
//! [`DeviceConfig::apply`](super::device::DeviceConfig::apply) carries out.
//!
//! The keys and value types are GNU Radio 3.10's (gr-soapy's block): `freq`, `gain` (a number
//! for the overall gain, or a dict `{name, gain}` for one element), `rate`, `bandwidth`,
//! `antenna`, `gain_mode`, `dc_offset_mode`, `dc_offset`, `iq_bal`, `clock_src`, `time_src`,
//! `setting` (a dict `{key, value}`), with `chan` naming the channel (absent: every channel
//! of the block). As there, a command that cannot be applied is logged and skipped: a radio
//! keeps receiving after a bad value from a slider.

use radioflow_runtime::Pmt;

/// One setting a `cmd` message asks for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Command {
    /// The centre frequency, Hz.
    Frequency(f64),
    /// The overall gain, dB (automatic gain off).
    Gain(f64),
    /// One gain element's gain, dB.
    GainElement {
        name: String,
        db: f64,
    },
    /// Samples/s.
    SampleRate(f64),
    /// The analog filter's bandwidth, Hz.
    Bandwidth(f64),
    Antenna(String),
    /// Automatic gain on or off.
    GainMode(bool),
    /// Automatic DC offset removal on or off.
    DcOffsetMode(bool),
    /// A DC offset to correct, as a complex value.
    DcOffset(f64, f64),
    /// An IQ balance correction, as a complex value.
    IqBalance(f64, f64),
    ClockSource(String),
    TimeSource(String),
    /// A device setting by key (SoapySDR's `writeSetting`).
    Setting {
        key: String,
        value: String,
    },
}

/// What a `cmd` message asks for: the commands in the message's order, and a line for each
/// entry that is not one (logged by the block; GNU Radio logs and skips them too).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Parsed {
    pub(crate) commands: Vec<Command>,
    pub(crate) skipped: Vec<String>,
}

/// Reads a `cmd` message for a block whose device channel is `channel`.
pub(crate) fn parse(msg: &Pmt, channel: usize) -> Parsed {
    let mut parsed = Parsed::default();
    let Some(entries) = msg.as_dict() else {
        parsed
            .skipped
            .push(format!("a command must be a dict, not {msg}"));
        return parsed;
    };
    if let Some(chan) = msg.dict_get("chan") {
        match chan.as_u64() {
            Some(c) if c == channel as u64 => {}
            Some(c) => {
                parsed.skipped.push(format!(
                    "the command is for channel {c}; this block streams channel {channel}"
                ));
                return parsed;
            }
            None => {
                parsed
                    .skipped
                    .push(format!("chan must be a channel number, not {chan}"));
                return parsed;
            }
        }
    }
    // A dict's entries come most recently added first: apply them in the order given.
    for (key, value) in entries.iter().rev() {
        let Some(key) = key.as_symbol() else {
            parsed.skipped.push(format!("key {key} is not a symbol"));
            continue;
        };
        match command(key, value) {
            Ok(Some(c)) => parsed.commands.push(c),
            Ok(None) => {}
            Err(e) => parsed.skipped.push(e),
        }
    }
    parsed
}

/// The command for one entry; `None` for `chan` (read before).
fn command(key: &str, value: &Pmt) -> Result<Option<Command>, String> {
    let real = |what: &str| {
        value
            .as_f64()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{what} must be a finite number, not {value}"))
    };
    let boolean = |what: &str| {
        value
            .as_bool()
            .ok_or_else(|| format!("{what} must be a bool, not {value}"))
    };
    let text = |what: &str| {
        value
            .as_symbol()
            .filter(|s| !s.contains('\0'))
            .map(str::to_owned)
            .ok_or_else(|| format!("{what} must be a string without NUL, not {value}"))
    };
    let complex = |what: &str| {
        value
            .as_complex()
            .filter(|c| c.re.is_finite() && c.im.is_finite())
            .map(|c| (c.re, c.im))
            .ok_or_else(|| format!("{what} must be a number, not {value}"))
    };
    Ok(Some(match key {
        "chan" => return Ok(None),
        "freq" => Command::Frequency(real("freq")?),
        "gain" if value.is_dict() && !matches!(value, Pmt::Null) => {
            let db = value
                .dict_get("gain")
                .and_then(Pmt::as_f64)
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("a gain dict needs a finite number under gain: {value}"))?;
            match value.dict_get("name").and_then(Pmt::as_symbol) {
                Some(name) if name.contains('\0') => {
                    return Err(format!("a gain element's name cannot hold a NUL: {value}"));
                }
                Some(name) if !name.is_empty() => Command::GainElement {
                    name: name.to_owned(),
                    db,
                },
                _ => Command::Gain(db),
            }
        }
        "gain" => Command::Gain(real("gain")?),
        "rate" => Command::SampleRate(real("rate")?).checked_positive("rate")?,
        "bandwidth" => Command::Bandwidth(real("bandwidth")?),
        "antenna" => Command::Antenna(text("antenna")?),
        "gain_mode" => Command::GainMode(boolean("gain_mode")?),
        "dc_offset_mode" => Command::DcOffsetMode(boolean("dc_offset_mode")?),
        "dc_offset" => {
            let (re, im) = complex("dc_offset")?;
            Command::DcOffset(re, im)
        }
        "iq_bal" => {
            let (re, im) = complex("iq_bal")?;
            Command::IqBalance(re, im)
        }
        "clock_src" => Command::ClockSource(text("clock_src")?),
        "time_src" => Command::TimeSource(text("time_src")?),
        "setting" => {
            let key = value
                .dict_get("key")
                .and_then(Pmt::as_symbol)
                .ok_or_else(|| format!("a setting dict needs a string under key: {value}"))?;
            let v = value
                .dict_get("value")
                .ok_or_else(|| format!("a setting dict needs a value: {value}"))?;
            let v = setting_text(v);
            if key.contains('\0') || v.contains('\0') {
                return Err(format!("a setting cannot hold a NUL: {value}"));
            }
            Command::Setting {
                key: key.to_owned(),
                value: v,
            }
        }
        "freq_corr" | "iq_bal_mode" | "master_clock_rate" | "ref_clock_rate" | "hw_time"
        | "reg" | "regs" | "gpio" | "gpio_dir" | "i2c" | "uart" => {
            return Err(format!(
                "{key} is a command of GNU Radio's soapy blocks that radioflow's do not carry \
                 out (yet)"
            ));
        }
        _ => return Err(format!("unknown command key {key}")),
    }))
}

impl Command {
    fn checked_positive(self, what: &str) -> Result<Self, String> {
        match self {
            Command::SampleRate(r) if r <= 0.0 => Err(format!("{what} must be > 0, not {r}")),
            c => Ok(c),
        }
    }
}

/// A setting's value as SoapySDR's settings take it: "true"/"false", a number, a string.
fn setting_text(v: &Pmt) -> String {
    if let Some(b) = v.as_bool() {
        b.to_string()
    } else if let Some(s) = v.as_symbol() {
        s.to_owned()
    } else if let Some(x) = v.as_f64() {
        x.to_string()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(entries: &[(&str, Pmt)]) -> Pmt {
        Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
    }

    #[test]
    fn gnu_radio_s_keys_become_commands_in_the_order_given() {
        let p = parse(
            &dict(&[
                ("freq", Pmt::Double(101e6)),
                ("gain", Pmt::Int(30)),
                ("antenna", Pmt::symbol("RX2")),
                ("rate", Pmt::Double(2e6)),
                ("bandwidth", Pmt::Double(1.5e6)),
                ("gain_mode", Pmt::Bool(true)),
                ("dc_offset_mode", Pmt::Bool(false)),
                (
                    "dc_offset",
                    Pmt::Complex(radioflow_runtime::pmt::Complex64::new(0.1, -0.2)),
                ),
                ("iq_bal", Pmt::Double(0.5)),
                ("clock_src", Pmt::symbol("external")),
                ("time_src", Pmt::symbol("gpsdo")),
            ]),
            0,
        );
        assert_eq!(p.skipped, Vec::<String>::new());
        assert_eq!(
            p.commands,
            [
                Command::Frequency(101e6),
                Command::Gain(30.0),
                Command::Antenna("RX2".into()),
                Command::SampleRate(2e6),
                Command::Bandwidth(1.5e6),
                Command::GainMode(true),
                Command::DcOffsetMode(false),
                Command::DcOffset(0.1, -0.2),
                Command::IqBalance(0.5, 0.0),
                Command::ClockSource("external".into()),
                Command::TimeSource("gpsdo".into()),
            ]
        );
    }

    #[test]
    fn gain_and_setting_dicts() {
        let element = dict(&[("name", Pmt::symbol("LNA")), ("gain", Pmt::Double(12.5))]);
        let overall = dict(&[("gain", Pmt::Int(7))]);
        let setting = dict(&[("key", Pmt::symbol("biastee")), ("value", Pmt::Bool(true))]);
        let p = parse(&dict(&[("gain", element)]), 0);
        assert_eq!(
            p.commands,
            [Command::GainElement {
                name: "LNA".into(),
                db: 12.5
            }]
        );
        assert_eq!(
            parse(&dict(&[("gain", overall)]), 0).commands,
            [Command::Gain(7.0)]
        );
        assert_eq!(
            parse(&dict(&[("setting", setting)]), 0).commands,
            [Command::Setting {
                key: "biastee".into(),
                value: "true".into()
            }]
        );
    }

    #[test]
    fn the_channel_key_selects_the_block_s_channel() {
        let for_1 = dict(&[("chan", Pmt::Int(1)), ("freq", Pmt::Double(5e6))]);
        assert_eq!(parse(&for_1, 1).commands, [Command::Frequency(5e6)]);
        let p = parse(&for_1, 0);
        assert!(p.commands.is_empty());
        assert_eq!(
            p.skipped,
            ["the command is for channel 1; this block streams channel 0"]
        );
    }

    #[test]
    fn what_cannot_be_applied_is_skipped_with_the_reason() {
        let p = parse(
            &dict(&[
                ("freq", Pmt::symbol("high")),
                ("gain", Pmt::Double(f64::NAN)),
                ("rate", Pmt::Double(-1.0)),
                ("freq_corr", Pmt::Double(1.0)),
                ("volume", Pmt::Int(3)),
                ("antenna", Pmt::Int(2)),
                ("bandwidth", Pmt::Double(7e6)),
            ]),
            0,
        );
        assert_eq!(p.commands, [Command::Bandwidth(7e6)]);
        assert_eq!(
            p.skipped,
            [
                "freq must be a finite number, not high",
                "gain must be a finite number, not nan",
                "rate must be > 0, not -1",
                "freq_corr is a command of GNU Radio's soapy blocks that radioflow's do not \
                 carry out (yet)",
                "unknown command key volume",
                "antenna must be a string without NUL, not 2",
            ]
        );
        assert_eq!(
            parse(&Pmt::Double(1.0), 0).skipped,
            ["a command must be a dict, not 1"]
        );
    }
}
