//! What [`SoapySource`](crate::SoapySource) and [`SoapySink`](crate::SoapySink) share: a
//! device channel's settings, opening and configuring the device, and [`DeviceError`], which
//! names the block and the device.

use super::command::{Command, TimeSync};
use soapysdr::{Device, Direction};
use std::fmt;

/// How far the device may tune from the frequency asked for (LO steps): further, and the
/// block fails instead of receiving or sending somewhere else (a Red Pitaya, say, keeps its
/// frequency when asked for one above 60 MHz).
const FREQUENCY_TOLERANCE_HZ: f64 = 1e3;

/// How far, relatively, the device's sample rate may be from the rate asked for: further,
/// and what is downstream (filters designed for the rate) would be wrong.
const RATE_TOLERANCE: f64 = 1e-3;

/// How long one wait for the device lasts before the block looks at the stop flag again.
/// Short, because some modules sleep all of it whenever less than a read is there (the Red
/// Pitaya's): at 1.25 Msps, 10 ms is 100 KB, within a default TCP receive buffer.
pub(crate) const TIMEOUT_US: i64 = 10_000;

/// How the error for a device that is not there begins (after the block and device): what
/// `radioflow grc check` reads as "needs a device that is absent" rather than a failure.
pub const NO_DEVICE: &str = "no SoapySDR device matches";

/// A SoapySDR device that cannot be opened, configured or streamed from: the message names
/// the block and the device's arguments.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{block} (device '{args}'): {message}")]
pub struct DeviceError {
    block: &'static str,
    args: String,
    message: String,
    not_found: bool,
}

impl DeviceError {
    /// No device matches the arguments (no such driver, its module is not installed, or
    /// nothing of that kind is plugged in).
    pub fn is_not_found(&self) -> bool {
        self.not_found
    }

    /// The device's arguments, as given (`driver=rtlsdr,serial=...`).
    pub fn args(&self) -> &str {
        &self.args
    }
}

/// A device's channel, as a source or a sink uses it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DeviceConfig {
    /// The block kind (`soapy_source`), for errors.
    pub(crate) block: &'static str,
    /// SoapySDR's device arguments: `key=value` pairs separated by commas.
    pub(crate) args: String,
    pub(crate) direction: Direction,
    pub(crate) channel: usize,
    /// The channels of the block's stream (this one among them; the first carries out what
    /// is the device's rather than a channel's).
    pub(crate) channels: std::ops::Range<usize>,
    /// Samples/s.
    pub(crate) sample_rate: f64,
    /// The centre frequency, Hz.
    pub(crate) frequency: f64,
    /// The overall gain in dB, or `None`: the device's automatic gain where it has one.
    pub(crate) gain: Option<f64>,
    /// The antenna (empty: the device's default).
    pub(crate) antenna: String,
    /// The LO offset every tune asks for, Hz (SoapySDR's `OFFSET` tune argument; 0: none).
    pub(crate) lo_offset: f64,
    /// Commands given before the device was opened, carried out when it is, after the
    /// settings above (those that change them are kept there too).
    pub(crate) later: Vec<Command>,
    /// Why commands given to be carried out at the start cannot be (checked by
    /// [`check`](Self::check)).
    pub(crate) refused: Vec<String>,
}

impl DeviceConfig {
    pub(crate) fn new(
        block: &'static str,
        direction: Direction,
        args: String,
        sample_rate: f64,
        frequency: f64,
    ) -> Self {
        Self {
            block,
            args,
            direction,
            channel: 0,
            channels: 0..1,
            sample_rate,
            frequency,
            gain: None,
            antenna: String::new(),
            lo_offset: 0.0,
            later: Vec::new(),
            refused: Vec::new(),
        }
    }

    /// GNU Radio command dicts (see [`command`](super::command)) to carry out when the device
    /// is opened, after its rate, antenna, gain and frequency; an entry that is not a command
    /// is refused by [`check`](Self::check).
    pub(crate) fn at_start(&mut self, commands: &[radioflow_runtime::Pmt]) {
        for msg in commands {
            let parsed = super::command::parse(msg, self.channel, self.channels.clone());
            self.refused.extend(parsed.skipped);
            // The block's own settings (frequency, offset, gain, antenna, rate) become these
            // settings, as a command before the device is opened; the rest are carried out
            // after them.
            for c in self.own(parsed.commands) {
                if let Err(e) = self.apply(None, c) {
                    self.refused.push(e.message);
                }
            }
        }
    }

    /// Whether this is the block's first channel, which carries out the device's commands.
    fn is_first(&self) -> bool {
        self.channel == self.channels.start
    }

    /// `commands` without the device's own on channels other than the first.
    fn own(&self, mut commands: Vec<Command>) -> Vec<Command> {
        if !self.is_first() {
            commands.retain(|c| !c.device_wide());
        }
        commands
    }

    /// SoapySDR's tune arguments: the LO offset, where there is one.
    fn tune_args(&self) -> String {
        if self.lo_offset == 0.0 {
            String::new()
        } else {
            format!("OFFSET={}", self.lo_offset)
        }
    }

    /// Tunes `device` to `hz` with the LO offset, and reads back where it went.
    fn tune(&self, device: &Device, hz: f64) -> Result<f64, DeviceError> {
        let (dir, ch) = (self.direction, self.channel);
        let offset = if self.lo_offset == 0.0 {
            String::new()
        } else {
            format!(" (LO offset {} Hz)", self.lo_offset)
        };
        device
            .set_frequency(dir, ch, hz, self.tune_args().as_str())
            .map_err(|e| self.failed(format_args!("cannot tune to {hz} Hz{offset}"), &e))?;
        device
            .frequency(dir, ch)
            .map_err(|e| self.failed("cannot read the frequency back", &e))
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> DeviceError {
        DeviceError {
            block: self.block,
            args: self.args.clone(),
            message: message.into(),
            not_found: false,
        }
    }

    /// An error of SoapySDR while doing `what`.
    pub(crate) fn failed(&self, what: impl fmt::Display, e: &soapysdr::Error) -> DeviceError {
        self.error(format!("{what}: {}", describe(e)))
    }

    /// [`check`](Self::check), as the registry reports a refusal (the block's id added).
    pub(crate) fn checked(&self) -> Result<(), radioflow_runtime::registry::Refused> {
        self.check()
            .map_err(|e| radioflow_runtime::registry::Refused::other(e.message))
    }

    /// Checks the settings that need no device: the arguments' form, the rate, the gain, the
    /// frequency.
    pub(crate) fn check(&self) -> Result<(), DeviceError> {
        if let Some(why) = self.refused.first() {
            return Err(self.error(format!("a command for the start: {why}")));
        }
        // SoapySDR takes C strings (the soapysdr crate would panic on a NUL).
        if self.args.contains('\0') || self.antenna.contains('\0') {
            return Err(self.error("the device arguments and antenna cannot hold a NUL character"));
        }
        if let Some(bad) = self
            .args
            .split(',')
            .map(str::trim)
            .find(|kv| !kv.is_empty() && kv.split_once('=').is_none_or(|(k, _)| k.is_empty()))
        {
            return Err(self.error(format!(
                "'{bad}' is not a key=value pair: device arguments look like \
                 'driver=rtlsdr' or 'driver=hackrf,serial=...' (SoapySDRUtil --find lists them)"
            )));
        }
        if !(self.sample_rate.is_finite() && self.sample_rate > 0.0) {
            return Err(self.error(format!(
                "the sample rate must be a number > 0, not {}",
                self.sample_rate
            )));
        }
        if let Some(db) = self.gain.filter(|g| !g.is_finite()) {
            return Err(self.error(format!("the gain must be a finite number, not {db}")));
        }
        if !self.lo_offset.is_finite() {
            return Err(self.error(format!(
                "the LO offset must be a finite number, not {}",
                self.lo_offset
            )));
        }
        if !self.frequency.is_finite() {
            return Err(self.error(format!(
                "the frequency must be a finite number, not {}",
                self.frequency
            )));
        }
        Ok(())
    }

    /// Opens the device and carries out what comes before its channels are set up with
    /// [`set_up`](Self::set_up) (frontend mapping, clocks, time).
    pub(crate) fn open_device(&self) -> Result<Device, DeviceError> {
        self.check()?;
        let device = Device::new(self.args.as_str()).map_err(|e| {
            if e.message.contains("no match") || e.message.contains("no enumeration results") {
                DeviceError {
                    not_found: true,
                    ..self.error(format!(
                        "{NO_DEVICE} (is it plugged in, and its driver's module installed? \
                         SoapySDRUtil --find lists the devices found)"
                    ))
                }
            } else {
                self.failed("cannot open the device", &e)
            }
        })?;
        // The frontend and the clocks first (GRC's UHD template sets them right after
        // making the device): the mapping decides what the channel is.
        for c in self.later.iter().filter(|c| c.comes_first()) {
            self.carry_out(&device, c)?;
        }
        Ok(device)
    }

    /// Sets this channel of the open `device` up: rate, antenna, gain, frequency (reading back
    /// what the device made of the rate and the frequency), then the start's commands.
    pub(crate) fn set_up(&self, device: &Device) -> Result<(), DeviceError> {
        self.check()?;
        let (dir, ch) = (self.direction, self.channel);
        let side = match dir {
            Direction::Rx => "receive",
            Direction::Tx => "transmit",
        };
        let channels = device
            .num_channels(dir)
            .map_err(|e| self.failed("cannot count its channels", &e))?;
        if ch >= channels {
            return Err(self.error(format!(
                "channel {ch} does not exist: the device has {channels} {side} channel(s)"
            )));
        }
        let rate = self.sample_rate;
        device
            .set_sample_rate(dir, ch, rate)
            .map_err(|e| self.failed(format_args!("cannot set the sample rate to {rate}"), &e))?;
        let got = device
            .sample_rate(dir, ch)
            .map_err(|e| self.failed("cannot read the sample rate back", &e))?;
        if (got - rate).abs() > RATE_TOLERANCE * rate {
            return Err(self.error(format!(
                "the device runs at {got} samples/s, not the {rate} asked for \
                 (use a rate it has)"
            )));
        }
        if !self.antenna.is_empty() {
            device
                .set_antenna(dir, ch, self.antenna.as_str())
                .map_err(|e| {
                    self.failed(format_args!("cannot select antenna '{}'", self.antenna), &e)
                })?;
        }
        let has_agc = device
            .has_gain_mode(dir, ch)
            .map_err(|e| self.failed("cannot ask for automatic gain", &e))?;
        match self.gain {
            Some(db) => {
                if has_agc {
                    device
                        .set_gain_mode(dir, ch, false)
                        .map_err(|e| self.failed("cannot turn automatic gain off", &e))?;
                }
                device
                    .set_gain(dir, ch, db)
                    .map_err(|e| self.failed(format_args!("cannot set the gain to {db} dB"), &e))?;
            }
            None if has_agc => device
                .set_gain_mode(dir, ch, true)
                .map_err(|e| self.failed("cannot turn automatic gain on", &e))?,
            None => {}
        }
        let freq = self.frequency;
        let got = self.tune(device, freq)?;
        if (got - freq).abs() > FREQUENCY_TOLERANCE_HZ {
            let range = device
                .frequency_range(dir, ch)
                .map(|r| {
                    let spans: Vec<String> = r
                        .iter()
                        .map(|r| format!("{}-{} Hz", r.minimum, r.maximum))
                        .collect();
                    format!(" (its range: {})", spans.join(", "))
                })
                .unwrap_or_default();
            return Err(self.error(format!(
                "the device is tuned to {got} Hz, not the {freq} Hz asked for{range}"
            )));
        }
        for c in self.later.iter().filter(|c| !c.comes_first()) {
            self.carry_out(device, c)?;
        }
        Ok(())
    }

    /// Carries `command` out on the open `device`, or keeps it for when the device is opened
    /// (`None`); either way the settings here follow, so that a device opened again (the
    /// graph run again) gets the frequency, gain, rate and antenna last set.
    pub(crate) fn apply(
        &mut self,
        device: Option<&Device>,
        command: Command,
    ) -> Result<(), DeviceError> {
        let mut next = self.clone();
        match &command {
            Command::Frequency(hz) => next.frequency = *hz,
            Command::Gain(db) => next.gain = Some(*db),
            Command::GainMode(true) => next.gain = None,
            Command::SampleRate(rate) => next.sample_rate = *rate,
            Command::Antenna(name) => next.antenna.clone_from(name),
            Command::LoOffset(hz) => next.lo_offset = *hz,
            Command::Tune(hz, lo) => {
                next.frequency = *hz;
                next.lo_offset = *lo;
            }
            _ => {}
        }
        next.check()?;
        match device {
            // The settings follow only what the device did (a retune it refused leaves the
            // frequency the block reports, and tags, as it was).
            Some(device) => {
                next.carry_out(device, &command)?;
                if let Command::NormalizedGain(_) = command {
                    next.gain = device.gain(next.direction, next.channel).ok();
                }
                *self = next;
                Ok(())
            }
            None => {
                *self = next;
                if !matches!(
                    command,
                    Command::Frequency(_)
                        | Command::Gain(_)
                        | Command::GainMode(true)
                        | Command::SampleRate(_)
                        | Command::Antenna(_)
                        | Command::LoOffset(_)
                        | Command::Tune(..)
                ) {
                    self.later.push(command);
                }
                Ok(())
            }
        }
    }

    /// GNU Radio's `cmd` message (see [`command`](super::command)): each command carried
    /// out on `device` (or kept for when it is opened); what cannot be is logged and skipped,
    /// as GNU Radio does.
    pub(crate) fn on_message(&mut self, device: Option<&Device>, msg: &radioflow_runtime::Pmt) {
        let parsed = super::command::parse(msg, self.channel, self.channels.clone());
        // (Each channel of a block reads the message; the first says what it skips.)
        if self.is_first() {
            for why in parsed.skipped {
                tracing::warn!("{}", self.error(format!("cmd skipped: {why}")));
            }
        }
        for c in self.own(parsed.commands) {
            self.applied(device, c);
        }
    }

    /// [`apply`](Self::apply), its error logged (the stream goes on): whether it was.
    pub(crate) fn applied(&mut self, device: Option<&Device>, command: Command) -> bool {
        self.apply(device, command)
            .inspect_err(|e| tracing::warn!("{e}; the stream goes on"))
            .is_ok()
    }

    /// One command on the device, read back where the device says what it made of it (the
    /// frequency and the rate, held to the same tolerances as when it is opened).
    fn carry_out(&self, device: &Device, command: &Command) -> Result<(), DeviceError> {
        let (dir, ch) = (self.direction, self.channel);
        match command {
            // A new offset retunes at once, as gr-uhd's `lo_offset` command does.
            Command::Frequency(_) | Command::LoOffset(_) | Command::Tune(..) => {
                let hz = match command {
                    Command::Frequency(hz) | Command::Tune(hz, _) => *hz,
                    _ => self.frequency,
                };
                let got = self.tune(device, hz)?;
                if (got - hz).abs() > FREQUENCY_TOLERANCE_HZ {
                    return Err(self.error(format!(
                        "the device is tuned to {got} Hz, not the {hz} Hz asked for"
                    )));
                }
            }
            Command::Gain(db) => {
                if device.has_gain_mode(dir, ch).unwrap_or(false) {
                    device
                        .set_gain_mode(dir, ch, false)
                        .map_err(|e| self.failed("cannot turn automatic gain off", &e))?;
                }
                device
                    .set_gain(dir, ch, *db)
                    .map_err(|e| self.failed(format_args!("cannot set the gain to {db} dB"), &e))?;
            }
            // gr-uhd's set_normalized_gain: the fraction of the overall gain range.
            Command::NormalizedGain(fraction) => {
                let range = device
                    .gain_range(dir, ch)
                    .map_err(|e| self.failed("cannot read the gain range", &e))?;
                let db = range.minimum + fraction * (range.maximum - range.minimum);
                self.carry_out(device, &Command::Gain(db))?;
            }
            Command::FrontendMapping(mapping) => device
                .set_frontend_mapping(dir, mapping.as_str())
                .map_err(|e| {
                    self.failed(
                        format_args!(
                            "cannot set the frontend mapping (subdevice spec) '{mapping}'"
                        ),
                        &e,
                    )
                })?,
            Command::TimeSync(sync) => {
                let now = || {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap_or_default()
                };
                let (what, ns) = match sync {
                    TimeSync::UnknownPps => (Some("UNKNOWN_PPS"), 0),
                    TimeSync::PcClock => (None, i64::try_from(now().as_nanos()).unwrap_or(0)),
                    TimeSync::PcClockNextPps => {
                        let next = i64::try_from(now().as_secs()).unwrap_or(0) + 1;
                        (Some("PPS"), next * 1_000_000_000)
                    }
                };
                device
                    .set_hardware_time(what, ns)
                    .map_err(|e| self.failed("cannot set the device's time", &e))?;
            }
            Command::GainElement { name, db } => device
                .set_gain_element(dir, ch, name.as_str(), *db)
                .map_err(|e| self.failed(format_args!("cannot set gain {name} to {db} dB"), &e))?,
            Command::GainMode(on) => {
                // As gr-soapy: asking for what the device does not have is an error, turning
                // it off is not.
                if *on && !device.has_gain_mode(dir, ch).unwrap_or(false) {
                    return Err(self.error("the device has no automatic gain"));
                }
                device
                    .set_gain_mode(dir, ch, *on)
                    .map_err(|e| self.failed("cannot switch automatic gain", &e))?;
            }
            Command::SampleRate(rate) => {
                device.set_sample_rate(dir, ch, *rate).map_err(|e| {
                    self.failed(format_args!("cannot set the sample rate to {rate}"), &e)
                })?;
                let got = device
                    .sample_rate(dir, ch)
                    .map_err(|e| self.failed("cannot read the sample rate back", &e))?;
                if (got - rate).abs() > RATE_TOLERANCE * rate {
                    return Err(self.error(format!(
                        "the device runs at {got} samples/s, not the {rate} asked for"
                    )));
                }
            }
            Command::Bandwidth(hz) => device.set_bandwidth(dir, ch, *hz).map_err(|e| {
                self.failed(format_args!("cannot set the bandwidth to {hz} Hz"), &e)
            })?,
            Command::Antenna(name) => device
                .set_antenna(dir, ch, name.as_str())
                .map_err(|e| self.failed(format_args!("cannot select antenna '{name}'"), &e))?,
            Command::DcOffsetMode(on) => {
                if *on && !device.has_dc_offset_mode(dir, ch).unwrap_or(false) {
                    return Err(self.error("the device has no automatic DC offset removal"));
                }
                device
                    .set_dc_offset_mode(dir, ch, *on)
                    .map_err(|e| self.failed("cannot switch automatic DC offset removal", &e))?;
            }
            // As gr-soapy: a zero offset or balance on a device without the correction is
            // no correction (GRC's default), not an error; a zero offset is not written while
            // the automatic removal is on.
            Command::DcOffset(i, q) => {
                let has = device.has_dc_offset(dir, ch).unwrap_or(false);
                if *i == 0.0 && *q == 0.0 {
                    if !has || device.dc_offset_mode(dir, ch).unwrap_or(false) {
                        return Ok(());
                    }
                } else if !has {
                    return Err(self.error("the device has no DC offset correction"));
                }
                device
                    .set_dc_offset(dir, ch, *i, *q)
                    .map_err(|e| self.failed("cannot set the DC offset", &e))?;
            }
            Command::IqBalance(i, q) => {
                let has = device.has_iq_balance(dir, ch).unwrap_or(false);
                if !has {
                    if *i == 0.0 && *q == 0.0 {
                        return Ok(());
                    }
                    return Err(self.error("the device has no IQ balance correction"));
                }
                device
                    .set_iq_balance(dir, ch, *i, *q)
                    .map_err(|e| self.failed("cannot set the IQ balance", &e))?;
            }
            Command::ClockSource(name) => device.set_clock_source(name.as_str()).map_err(|e| {
                self.failed(format_args!("cannot select clock source '{name}'"), &e)
            })?,
            Command::TimeSource(name) => device
                .set_time_source(name.as_str())
                .map_err(|e| self.failed(format_args!("cannot select time source '{name}'"), &e))?,
            Command::Setting { key, value } => device
                .write_setting(key.as_str(), value.as_str())
                .map_err(|e| {
                self.failed(format_args!("cannot write setting {key}={value}"), &e)
            })?,
        }
        Ok(())
    }
}

/// SoapySDR's message, or its code when it gave none (a stream's reads and writes return
/// codes; the other calls report what their module threw).
pub(crate) fn describe(e: &soapysdr::Error) -> String {
    if e.message.is_empty() {
        format!("{:?}", e.code)
    } else {
        e.message.clone()
    }
}
