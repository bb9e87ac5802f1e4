//! [`find_devices`]: what SoapySDR finds, and what each device offers (`radioflow devices`).

use super::device::{describe, NO_DEVICE};
use soapysdr::{Device, Direction};
use std::fmt;

/// A device SoapySDR found, with what each of its channels offers.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundDevice {
    /// The arguments that open it (`driver=rtlsdr,serial=...`), as SoapySDR enumerated them.
    pub args: String,
    /// Its driver and hardware keys (`rtlsdr`, `R820T`); empty where the module gives none.
    pub driver: String,
    pub hardware: String,
    /// The receive channels, then the transmit channels.
    pub channels: Vec<ChannelInfo>,
}

/// What one channel of a device offers.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelInfo {
    /// `true` for a receive channel, `false` for a transmit one.
    pub receive: bool,
    pub channel: usize,
    /// Centre frequencies, Hz, as ranges (minimum, maximum).
    pub frequencies: Vec<(f64, f64)>,
    /// Sample rates, samples/s, as ranges.
    pub sample_rates: Vec<(f64, f64)>,
    /// Analog bandwidths, Hz, as ranges (none where the device has no setting).
    pub bandwidths: Vec<(f64, f64)>,
    /// The overall gain range, dB.
    pub gain: (f64, f64),
    /// Each gain element with its range, dB.
    pub gain_elements: Vec<(String, (f64, f64))>,
    pub antennas: Vec<String>,
    /// Whether it has automatic gain and automatic DC offset removal.
    pub automatic_gain: bool,
    pub automatic_dc_removal: bool,
}

/// Why devices could not be listed or asked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ProbeError(String);

/// Every device SoapySDR finds for `args` (empty: any; `driver=rtlsdr`: that kind), each
/// opened and asked what its channels offer. An argument list with a NUL, or a device that
/// cannot be opened or asked, is an error naming it.
pub fn find_devices(args: &str) -> Result<Vec<FoundDevice>, ProbeError> {
    if args.contains('\0') {
        return Err(ProbeError(
            "device arguments cannot hold a NUL character".into(),
        ));
    }
    let found = soapysdr::enumerate(args).map_err(|e| {
        ProbeError(format!(
            "SoapySDR could not look for devices: {}",
            describe(&e)
        ))
    })?;
    found
        .iter()
        .map(|a| {
            let args: Vec<String> = a.iter().map(|(k, v)| format!("{k}={v}")).collect();
            probe(&args.join(","))
        })
        .collect()
}

/// One device opened and asked.
fn probe(args: &str) -> Result<FoundDevice, ProbeError> {
    let fail = |what: &str, e: soapysdr::Error| {
        ProbeError(format!("device '{args}': {what}: {}", describe(&e)))
    };
    let device = Device::new(args).map_err(|e| {
        if e.message.contains("no match") {
            ProbeError(format!("device '{args}': {NO_DEVICE} (it went away?)"))
        } else {
            fail("cannot open it", e)
        }
    })?;
    let mut channels = Vec::new();
    for (dir, receive) in [(Direction::Rx, true), (Direction::Tx, false)] {
        let n = device
            .num_channels(dir)
            .map_err(|e| fail("cannot count its channels", e))?;
        for ch in 0..n {
            let ranges = |r: Vec<soapysdr::Range>| -> Vec<(f64, f64)> {
                r.iter().map(|r| (r.minimum, r.maximum)).collect()
            };
            let gain = device
                .gain_range(dir, ch)
                .map_err(|e| fail("cannot read its gain range", e))?;
            let mut gain_elements = Vec::new();
            for name in device
                .list_gains(dir, ch)
                .map_err(|e| fail("cannot list its gains", e))?
            {
                let r = device
                    .gain_element_range(dir, ch, name.as_str())
                    .map_err(|e| fail("cannot read a gain range", e))?;
                gain_elements.push((name, (r.minimum, r.maximum)));
            }
            channels.push(ChannelInfo {
                receive,
                channel: ch,
                frequencies: ranges(
                    device
                        .frequency_range(dir, ch)
                        .map_err(|e| fail("cannot read its frequency range", e))?,
                ),
                sample_rates: ranges(
                    device
                        .get_sample_rate_range(dir, ch)
                        .map_err(|e| fail("cannot read its sample rates", e))?,
                ),
                bandwidths: ranges(device.bandwidth_range(dir, ch).unwrap_or_default()),
                gain: (gain.minimum, gain.maximum),
                gain_elements,
                antennas: device
                    .antennas(dir, ch)
                    .map_err(|e| fail("cannot list its antennas", e))?,
                automatic_gain: device.has_gain_mode(dir, ch).unwrap_or(false),
                automatic_dc_removal: device.has_dc_offset_mode(dir, ch).unwrap_or(false),
            });
        }
    }
    Ok(FoundDevice {
        args: args.to_owned(),
        driver: device.driver_key().unwrap_or_default(),
        hardware: device.hardware_key().unwrap_or_default(),
        channels,
    })
}

/// Ranges as `a-b` (or `a` where one value), with `unit`, comma separated.
fn spans(ranges: &[(f64, f64)], unit: &str) -> String {
    if ranges.is_empty() {
        return "-".into();
    }
    let each: Vec<String> = ranges
        .iter()
        .map(|&(lo, hi)| {
            if lo == hi {
                format!("{lo} {unit}")
            } else {
                format!("{lo}-{hi} {unit}")
            }
        })
        .collect();
    each.join(", ")
}

impl fmt::Display for FoundDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.args)?;
        writeln!(f, "  driver {}, hardware {}", self.driver, self.hardware)?;
        for c in &self.channels {
            let side = if c.receive { "receive" } else { "transmit" };
            writeln!(f, "  {side} channel {}:", c.channel)?;
            writeln!(f, "    frequency   {}", spans(&c.frequencies, "Hz"))?;
            writeln!(f, "    sample rate {}", spans(&c.sample_rates, "S/s"))?;
            writeln!(f, "    bandwidth   {}", spans(&c.bandwidths, "Hz"))?;
            let elements: Vec<String> = c
                .gain_elements
                .iter()
                .map(|(n, (lo, hi))| format!("{n} {lo}-{hi}"))
                .collect();
            writeln!(
                f,
                "    gain        {}-{} dB{}{}",
                c.gain.0,
                c.gain.1,
                if elements.is_empty() {
                    String::new()
                } else {
                    format!(" (elements: {})", elements.join(", "))
                },
                if c.automatic_gain { ", automatic" } else { "" }
            )?;
            writeln!(
                f,
                "    antennas    {}",
                if c.antennas.is_empty() {
                    "-".to_owned()
                } else {
                    c.antennas.join(", ")
                }
            )?;
            writeln!(
                f,
                "    automatic DC removal {}",
                if c.automatic_dc_removal { "yes" } else { "no" }
            )?;
        }
        Ok(())
    }
}
