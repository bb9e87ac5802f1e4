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
//!
//! gr-uhd's `lo_offset` (Hz: the local oscillator this far from the centre frequency, the
//! rest done in the device's DSP, as `uhd.tune_request(freq, lo_off)`) is read too: it goes
//! to SoapySDR as the tune argument `OFFSET` of every later tune (SoapyUHD makes it UHD's tune
//! request), and retunes at once. Three keys are radioflow's own, for what GRC's UHD blocks
//! set when they are made: `normalized_gain` (0 to 1 across the device's overall gain range,
//! gr-uhd's `set_normalized_gain`), `frontend_mapping` (SoapySDR's frontend mapping: UHD's
//! subdevice spec, `A:0 B:0`) and `time_sync` (`unknown_pps`, `pc_clock`,
//! `pc_clock_next_pps`: the device's time set as GRC's `sync` option sets it).

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
    /// The LO offset for this and later tunes, Hz (SoapySDR's `OFFSET` tune argument; 0: none),
    /// retuning at the centre frequency.
    LoOffset(f64),
    /// A tune to a centre frequency with an LO offset (both Hz), as gr-uhd's tune request:
    /// a message's `freq` with its `lo_offset`.
    Tune(f64, f64),
    /// The overall gain as a fraction (0 to 1) of the device's gain range.
    NormalizedGain(f64),
    /// SoapySDR's frontend mapping (UHD's subdevice spec) for the block's direction.
    FrontendMapping(String),
    /// The device's time set, as GRC's UHD blocks' `sync` option does.
    TimeSync(TimeSync),
    /// A device setting by key (SoapySDR's `writeSetting`).
    Setting {
        key: String,
        value: String,
    },
}

/// How the device's time is set when it is opened (GRC's `sync` of the UHD blocks), through
/// SoapySDR's `setHardwareTime` (SoapyUHD: `PPS` is UHD's `set_time_next_pps`, `UNKNOWN_PPS`
/// its `set_time_unknown_pps`, none its `set_time_now`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeSync {
    /// Time 0 at a PPS edge whose time is unknown (GRC's "Unknown PPS").
    UnknownPps,
    /// The computer's clock now (GRC's "PC Clock").
    PcClock,
    /// The computer's clock's next whole second at the next PPS edge ("PC Clock on Next PPS").
    PcClockNextPps,
}

impl Command {
    /// Whether the command is the device's rather than a channel's (carried out once for a
    /// block of several channels).
    pub(crate) fn device_wide(&self) -> bool {
        self.comes_first() || matches!(self, Command::Setting { .. })
    }

    /// Whether the command is carried out when the device is opened before its channel is
    /// set up (rate, antenna, gain, frequency): what chooses the channel's frontend and the
    /// device's clocks, as GRC's UHD template sets them first.
    pub(crate) fn comes_first(&self) -> bool {
        matches!(
            self,
            Command::FrontendMapping(_)
                | Command::ClockSource(_)
                | Command::TimeSource(_)
                | Command::TimeSync(_)
        )
    }
}

/// What a `cmd` message asks for: the commands in the message's order, and a line for each
/// entry that is not one (logged by the block; GNU Radio logs and skips them too).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Parsed {
    pub(crate) commands: Vec<Command>,
    pub(crate) skipped: Vec<String>,
}

/// Reads a `cmd` message for device channel `channel` of a block that streams `channels`: a
/// message for another of the block's channels is none of this one's (and not skipped).
pub(crate) fn parse(msg: &Pmt, channel: usize, channels: std::ops::Range<usize>) -> Parsed {
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
            Some(c) if usize::try_from(c).is_ok_and(|c| channels.contains(&c)) => return parsed,
            Some(c) => {
                let streams = if channels.len() == 1 {
                    format!("channel {}", channels.start)
                } else {
                    format!("channels {} to {}", channels.start, channels.end - 1)
                };
                parsed.skipped.push(format!(
                    "the command is for channel {c}; this block streams {streams}"
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
    // gr-uhd tunes once to the message's frequency with its LO offset, wherever they are in
    // the dict.
    let lo = parsed.commands.iter().find_map(|c| match c {
        Command::LoOffset(lo) => Some(*lo),
        _ => None,
    });
    if let Some(lo) = lo
        && let Some(at) = parsed
            .commands
            .iter()
            .position(|c| matches!(c, Command::Frequency(_)))
    {
        let Command::Frequency(hz) = parsed.commands[at] else {
            unreachable!("found above")
        };
        parsed.commands[at] = Command::Tune(hz, lo);
        parsed
            .commands
            .retain(|c| !matches!(c, Command::LoOffset(_)));
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
        "lo_offset" => Command::LoOffset(real("lo_offset")?),
        "normalized_gain" => {
            let g = real("normalized_gain")?;
            if !(0.0..=1.0).contains(&g) {
                return Err(format!(
                    "normalized_gain must be between 0 and 1 (as gr-uhd's), not {g}"
                ));
            }
            Command::NormalizedGain(g)
        }
        "frontend_mapping" => Command::FrontendMapping(text("frontend_mapping")?),
        "time_sync" => Command::TimeSync(match text("time_sync")?.as_str() {
            "unknown_pps" => TimeSync::UnknownPps,
            "pc_clock" => TimeSync::PcClock,
            "pc_clock_next_pps" => TimeSync::PcClockNextPps,
            other => {
                return Err(format!(
                    "time_sync must be unknown_pps, pc_clock or pc_clock_next_pps, not {other}"
                ));
            }
        }),
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
        "power_dbm" | "lo_freq" | "dsp_freq" | "direction" | "mboard" | "time" | "tune"
        | "mtune" | "lo_source" | "lo_export" | "pc_clock_resync" => {
            return Err(format!(
                "{key} is a command of GNU Radio's UHD blocks that SoapySDR does not express \
                 (radioflow's soapy blocks carry out freq, lo_offset, gain, antenna, rate, \
                 bandwidth and chan of theirs)"
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
            0..1,
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
        let p = parse(&dict(&[("gain", element)]), 0, 0..1);
        assert_eq!(
            p.commands,
            [Command::GainElement {
                name: "LNA".into(),
                db: 12.5
            }]
        );
        assert_eq!(
            parse(&dict(&[("gain", overall)]), 0, 0..1).commands,
            [Command::Gain(7.0)]
        );
        assert_eq!(
            parse(&dict(&[("setting", setting)]), 0, 0..1).commands,
            [Command::Setting {
                key: "biastee".into(),
                value: "true".into()
            }]
        );
    }

    #[test]
    fn gr_uhd_s_frequency_and_lo_offset_are_one_tune() {
        // Wherever the offset is in the dict (a dict's entries come newest first).
        let both = dict(&[
            ("lo_offset", Pmt::Double(1e6)),
            ("gain", Pmt::Int(3)),
            ("freq", Pmt::Double(915e6)),
        ]);
        assert_eq!(
            parse(&both, 0, 0..1).commands,
            [Command::Gain(3.0), Command::Tune(915e6, 1e6)]
        );
        let alone = dict(&[("lo_offset", Pmt::Double(-2e5))]);
        assert_eq!(parse(&alone, 0, 0..1).commands, [Command::LoOffset(-2e5)]);
        let p = parse(
            &dict(&[
                ("normalized_gain", Pmt::Double(0.25)),
                ("frontend_mapping", Pmt::symbol("A:0 B:0")),
                ("time_sync", Pmt::symbol("pc_clock_next_pps")),
            ]),
            0,
            0..1,
        );
        assert_eq!(
            p.commands,
            [
                Command::NormalizedGain(0.25),
                Command::FrontendMapping("A:0 B:0".into()),
                Command::TimeSync(TimeSync::PcClockNextPps),
            ]
        );
        let p = parse(
            &dict(&[
                ("time_sync", Pmt::symbol("gps")),
                ("normalized_gain", Pmt::Double(1.5)),
                ("mtune", Pmt::Int(1)),
            ]),
            0,
            0..1,
        );
        assert!(p.commands.is_empty());
        assert_eq!(p.skipped.len(), 3, "{:?}", p.skipped);
        assert!(p.skipped[0].starts_with("time_sync must be unknown_pps"));
        assert!(p.skipped[1].starts_with("normalized_gain must be between 0 and 1"));
        assert!(p.skipped[2].starts_with("mtune is a command of GNU Radio's UHD blocks"));
    }

    #[test]
    fn the_channel_key_selects_the_block_s_channel() {
        let for_1 = dict(&[("chan", Pmt::Int(1)), ("freq", Pmt::Double(5e6))]);
        assert_eq!(parse(&for_1, 1, 1..2).commands, [Command::Frequency(5e6)]);
        // A block of channels 0 and 1: channel 0's reading of it is empty, not skipped.
        assert_eq!(parse(&for_1, 0, 0..2), Parsed::default());
        let for_2 = dict(&[("chan", Pmt::Int(2)), ("freq", Pmt::Double(5e6))]);
        assert_eq!(
            parse(&for_2, 0, 0..2).skipped,
            ["the command is for channel 2; this block streams channels 0 to 1"]
        );
        let p = parse(&for_1, 0, 0..1);
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
            0..1,
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
            parse(&Pmt::Double(1.0), 0, 0..1).skipped,
            ["a command must be a dict, not 1"]
        );
    }
}
