//! What [`SoapySource`](crate::SoapySource) and [`SoapySink`](crate::SoapySink) share: a
//! device channel's settings, opening and configuring the device, the registry's parameters,
//! and [`DeviceError`], which names the block and the device.

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
    /// Samples/s.
    pub(crate) sample_rate: f64,
    /// The centre frequency, Hz.
    pub(crate) frequency: f64,
    /// The overall gain in dB, or `None`: the device's automatic gain where it has one.
    pub(crate) gain: Option<f64>,
    /// The antenna (empty: the device's default).
    pub(crate) antenna: String,
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
            sample_rate,
            frequency,
            gain: None,
            antenna: String::new(),
        }
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

    /// Checks the settings that need no device: the arguments' form, the rate, the gain, the
    /// frequency.
    pub(crate) fn check(&self) -> Result<(), DeviceError> {
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
        if !self.frequency.is_finite() {
            return Err(self.error(format!(
                "the frequency must be a finite number, not {}",
                self.frequency
            )));
        }
        Ok(())
    }

    /// Opens the device and sets its channel up (rate, antenna, gain, frequency), reading back
    /// what the device made of the rate and the frequency.
    pub(crate) fn open(&self) -> Result<Device, DeviceError> {
        self.check()?;
        let device = Device::new(self.args.as_str()).map_err(|e| {
            if e.message.contains("no match") || e.message.contains("no enumeration results") {
                DeviceError {
                    not_found: true,
                    ..self.error(
                        "no SoapySDR device matches (is it plugged in, and its driver's module \
                         installed? SoapySDRUtil --find lists the devices found)",
                    )
                }
            } else {
                self.failed("cannot open the device", &e)
            }
        })?;
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
        device
            .set_frequency(dir, ch, freq, "")
            .map_err(|e| self.failed(format_args!("cannot tune to {freq} Hz"), &e))?;
        let got = device
            .frequency(dir, ch)
            .map_err(|e| self.failed("cannot read the frequency back", &e))?;
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
        Ok(device)
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

/// The parameters both blocks take in the registry, and reading them.
pub(crate) mod params {
    use super::DeviceConfig;
    use radioflow_runtime::registry::{
        Arguments, DefaultValue, FloatRange, ParamDescription, ParamError, ParamKind,
    };

    pub(crate) const ARGS: ParamDescription = ParamDescription::required(
        "args",
        ParamKind::Text,
        "SoapySDR device arguments (driver=rtlsdr, driver=hackrf,serial=...)",
    )
    .with_example(DefaultValue::Word("driver=rtlsdr"));
    pub(crate) const SAMPLE_RATE: ParamDescription = ParamDescription::required(
        "sample_rate",
        ParamKind::Float(FloatRange::POSITIVE),
        "samples/s",
    )
    .with_example(DefaultValue::Float(2.4e6));
    pub(crate) const FREQUENCY: ParamDescription = ParamDescription::required(
        "frequency",
        ParamKind::Float(FloatRange::at_least(0.0)),
        "centre frequency, Hz",
    )
    .with_example(DefaultValue::Float(100e6));
    pub(crate) const AGC: ParamDescription = ParamDescription::optional(
        "agc",
        ParamKind::Bool,
        DefaultValue::Bool(true),
        "the device's automatic gain, where it has one (else `gain`)",
    );
    pub(crate) const GAIN: ParamDescription = ParamDescription::optional(
        "gain",
        // The device's range applies (checked when it is opened); dB can be negative.
        ParamKind::Float(FloatRange::FINITE),
        DefaultValue::Float(0.0),
        "overall gain, dB, when agc is false",
    );
    pub(crate) const CHANNEL: ParamDescription = ParamDescription::optional(
        "channel",
        ParamKind::Int { min: 0 },
        DefaultValue::Int(0),
        "the device's channel",
    );
    pub(crate) const ANTENNA: ParamDescription = ParamDescription::optional(
        "antenna",
        ParamKind::Text,
        DefaultValue::Word(""),
        "antenna name (empty: the device's default)",
    );

    /// The settings given to a block made by the registry (checked, not opened).
    pub(crate) fn config(
        a: &Arguments,
        mut config: impl FnMut(String, f64, f64) -> DeviceConfig,
    ) -> Result<DeviceConfig, ParamError> {
        let mut c = config(
            a.word("args")?.to_owned(),
            a.float("sample_rate")?,
            a.float("frequency")?,
        );
        c.gain = if a.bool("agc")? {
            None
        } else {
            Some(a.float("gain")?)
        };
        c.channel = a.usize("channel")?;
        c.antenna = a.word("antenna")?.to_owned();
        c.check()
            .map_err(|e| ParamError::new(a.block(), e.message))?;
        Ok(c)
    }
}
