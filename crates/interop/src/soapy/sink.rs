//! [`SoapySink`]: transmits through a radio with SoapySDR.

use super::channels::Channels;
use super::command::Command;
use super::device::{DeviceConfig, DeviceError, TIMEOUT_US};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use soapysdr::{Device, Direction, ErrorCode, TxStream};

/// Transmits complex samples through a radio with SoapySDR (any device with a SoapySDR
/// module that transmits: HackRF, USRP, LimeSDR, bladeRF, Red Pitaya, ...), like GNU Radio's
/// `soapy.sink`. The input is handed to the device's stream as it is (no copy), as much as
/// the device takes per call.
///
/// The device is opened and set up (sample rate, antenna, gain, frequency) by
/// [`open`](Self::open), or else when the graph starts; its stream is activated when the
/// graph starts. The write that empties a finished input ends the burst (SoapySDR's
/// `END_BURST`); the stream is deactivated when the graph stops. As for
/// [`SoapySource`](crate::SoapySource), a device that does not keep the frequency or the
/// rate asked for is an error.
///
/// The parameters with a default are builder methods of the same name, except `agc`: a
/// [`gain`](Self::gain) of `None` asks for the device's automatic gain.
///
/// Blocking: yes (waits for the device to take the samples in slices of 10 ms, so a stop is
/// seen).
#[library_block(
    id = "soapy_sink",
    summary = "Transmits complex samples through a radio with SoapySDR (HackRF, USRP, \
               LimeSDR, ...), like GNU Radio's soapy.sink.",
    dtypes = [Complex32],
    make = Self::new(args, sample_rate, frequency)
        .nchan(nchan)
        .gain((!agc).then_some(gain))
        .channel(channel)
        .antenna(antenna)
        .commands(&commands)
        .checked()
)]
#[param(
    args: String,
    example = "driver=rtlsdr",
    doc = "SoapySDR device arguments (driver=rtlsdr, driver=hackrf,serial=...)"
)]
#[param(sample_rate: f64, above = 0.0, example = 2.4e6, doc = "samples/s")]
#[param(
    frequency: f64,
    at_least = 0.0,
    example = 100e6,
    settable,
    doc = "centre frequency, Hz"
)]
#[param(
    agc: bool = true,
    doc = "the device's automatic gain, where it has one (else `gain`)"
)]
// The device's range applies (checked when it is opened); dB can be negative.
#[param(gain: f64 = 0.0, settable, doc = "overall gain, dB, when agc is false (set: agc off)")]
#[param(channel: usize = 0, doc = "the device's channel (the first, with nchan > 1)")]
#[param(
    nchan: usize = 1,
    doc = "how many device channels, from channel on, in one stream (1 to 4; one input each)"
)]
#[param(antenna: String = "", doc = "antenna name (empty: the device's default)")]
#[param(
    commands: Vec<Pmt> = [],
    doc = "command dicts as the cmd input takes them, carried out when the device is opened \
           (after rate, antenna, gain, frequency); one the device refuses fails the start"
)]
#[message_input(
    name = "cmd",
    doc = "GNU Radio's command dict: freq, gain (or {name, gain}), rate, bandwidth, antenna, \
           gain_mode, dc_offset_mode, dc_offset, iq_bal, clock_src, time_src, setting ({key, \
           value}); chan: the channel (absent: any). What cannot be applied is logged and skipped"
)]
#[message_input(
    name = "command",
    doc = "GNU Radio's UHD blocks' command dict (the cmd input's keys; gr-uhd's freq, lo_offset, \
           gain, antenna, rate, bandwidth, chan among them): as cmd"
)]
pub struct SoapySink {
    /// The samples to send (SoapySDR's `CF32`: full scale is ±1), one input per channel
    /// (`in0`, `in1`, ...), written together.
    #[input(name = "in")]
    inputs: Vec<StreamInput<Complex32>>,
    channels: Channels,
    device: Option<Device>,
    /// The active stream while the graph runs.
    stream: Option<TxStream<Complex32>>,
    /// Writes the device reported an underflow on (it ran out of samples: the graph did not
    /// keep up); the write is tried again.
    underflows: EventCounter,
    /// Writes the device took nothing of within the timeout.
    timeouts: EventCounter,
}

impl std::fmt::Debug for SoapySink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SoapySink")
            .field("channels", &self.channels)
            .field("open", &self.device.is_some())
            .field("streaming", &self.stream.is_some())
            .field("underflows", &self.underflows.get())
            .finish_non_exhaustive()
    }
}

#[block(blocking, paced)]
impl SoapySink {
    /// A sink for the device `args` at `sample_rate` samples/s tuned to `frequency` Hz, on
    /// channel 0 with automatic gain; nothing is opened yet.
    pub fn new(args: impl Into<String>, sample_rate: f64, frequency: f64) -> Self {
        Self::with_config(DeviceConfig::new(
            "soapy_sink",
            Direction::Tx,
            args.into(),
            sample_rate,
            frequency,
        ))
    }

    fn with_config(config: DeviceConfig) -> Self {
        Self {
            inputs: vec![StreamInput::new()],
            channels: Channels::new(config),
            device: None,
            stream: None,
            underflows: EventCounter::new("underflows"),
            timeouts: EventCounter::new("timeouts"),
        }
    }

    /// The overall gain in dB (`None`: the device's automatic gain, where it has one; else
    /// the gain it has).
    pub fn gain(mut self, db: Option<f64>) -> Self {
        self.channels.each(|c| c.gain = db);
        self
    }

    /// Sends to `n` device channels (1 to 4), from [`channel`](Self::channel) on, one input
    /// each, all with the block's settings (a start command or `cmd` naming a channel, `chan`,
    /// sets that one).
    pub fn nchan(mut self, n: usize) -> Self {
        let first = self.channels.first().channel;
        self.channels.set(first, n);
        self.inputs = (0..self.channels.len())
            .map(|_| StreamInput::new())
            .collect();
        self
    }

    /// Retunes to `hz`: now if the device is open (an error is logged and the stream goes
    /// on), else when it is.
    pub fn set_frequency(&mut self, hz: f64) {
        self.channels
            .applied(self.device.as_ref(), &Command::Frequency(hz));
    }

    /// Sets the overall gain to `db` dB, automatic gain off: now if the device is open (an
    /// error is logged and the stream goes on), else when it is.
    pub fn set_gain(&mut self, db: f64) {
        self.channels
            .applied(self.device.as_ref(), &Command::Gain(db));
    }

    /// GNU Radio's command message (see the `cmd` input).
    #[message_input]
    fn cmd(&mut self, msg: &Pmt) {
        self.channels.on_message(self.device.as_ref(), msg);
    }

    /// GNU Radio's UHD command message (see the `command` input): as [`cmd`](Self::cmd).
    #[message_input]
    fn command(&mut self, msg: &Pmt) {
        self.cmd(msg);
    }

    /// The device's channel (default 0).
    pub fn channel(mut self, channel: usize) -> Self {
        let n = self.channels.len();
        self.channels.set(channel, n);
        self
    }

    /// The antenna by name (empty, the default: the device's).
    pub fn antenna(mut self, antenna: impl Into<String>) -> Self {
        let antenna = antenna.into();
        self.channels.each(|c| c.antenna.clone_from(&antenna));
        self
    }

    /// GNU Radio command dicts (as the `cmd` input takes them: `{bandwidth: 1.5e6}`,
    /// `{dc_offset_mode: false}`) to carry out when the device is opened, after its rate,
    /// antenna, gain and frequency; one the device refuses fails the start, one that is not
    /// a command fails [`open`](Self::open) (and the registry's make).
    pub fn commands(mut self, commands: &[Pmt]) -> Self {
        self.channels.at_start(commands);
        self
    }

    /// The block, if its settings need no device to be refused.
    fn checked(self) -> Result<Self, Refused> {
        self.channels.checked()?;
        Ok(self)
    }

    /// Opens the device and sets it up now, so that a missing device or a setting it
    /// refuses is an error here rather than when the graph starts.
    ///
    /// # Errors
    /// As [`SoapySource::open`](crate::SoapySource::open).
    pub fn open(mut self) -> Result<Self, DeviceError> {
        self.device = Some(self.channels.open()?);
        Ok(self)
    }

    /// Writes the device reported an underflow on (SoapySDR's underflows: it ran out of
    /// samples because the graph did not keep up), this run.
    pub fn underflows(&self) -> u64 {
        self.underflows.get()
    }

    fn start(&mut self) -> Result<(), BlockError> {
        // Made here, the run's counters are listed with the block's (the live page shows them).
        self.underflows = EventCounter::new("underflows");
        self.timeouts = EventCounter::new("timeouts");
        let device = match self.device.take() {
            Some(d) => d,
            None => self.channels.open()?,
        };
        let c = self.channels.first();
        let mut stream = device
            .tx_stream::<Complex32>(&self.channels.numbers())
            .map_err(|e| c.failed("cannot set up a CF32 transmit stream", &e))?;
        stream
            .activate(None)
            .map_err(|e| c.failed("cannot start streaming", &e))?;
        self.device = Some(device);
        self.stream = Some(stream);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        // Dropping the stream deactivates and closes it.
        self.stream = None;
        Ok(())
    }

    /// One write of the input there is, waiting for the device to take some in slices of
    /// the timeout until it does or the graph is stopped: the runtime calls a sink again only
    /// when its input changes, which a device taking samples does not do.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let Some(stream) = self.stream.as_mut() else {
            return Err(self.channels.first().error("work before start").into());
        };
        let ready = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0);
        if ready == 0 {
            // One channel's stream ended, another's goes on: as GNU Radio, the sink ends
            // with the first (the rest cannot be sent together).
            let ended = self
                .inputs
                .iter()
                .any(|i| i.is_finished() && i.slice().is_empty());
            return Ok(if ended && self.inputs.len() > 1 {
                WorkStatus::Done
            } else {
                WorkStatus::Continue
            });
        }
        // The last samples there will be end the burst.
        let last = self
            .inputs
            .iter()
            .all(|i| i.is_finished() && i.slice().len() == ready);
        let n = loop {
            if stop_requested() {
                return Ok(WorkStatus::Continue);
            }
            match write_from(stream, &self.inputs, ready, last) {
                Ok(0) => {}
                Ok(n) => break n,
                Err(e) if e.code == ErrorCode::Timeout => self.timeouts.add(1),
                Err(e) if e.code == ErrorCode::Underflow => {
                    if self.underflows.get() == 0 {
                        tracing::warn!(
                            device = %self.channels.first().args,
                            "soapy_sink: the device ran out of samples (underflow): the graph \
                             does not keep up with its rate; counting them from here"
                        );
                    }
                    self.underflows.add(1);
                }
                Err(e) => {
                    return Err(self
                        .channels
                        .first()
                        .failed("writing the stream", &e)
                        .into());
                }
            }
        };
        for input in &mut self.inputs {
            input.consume(n);
        }
        Ok(WorkStatus::Continue)
    }
}

/// One write of `ready` samples per channel from the inputs (one input per channel, 1 to 4:
/// SoapySDR writes every channel of a stream at once).
fn write_from(
    stream: &mut TxStream<Complex32>,
    inputs: &[StreamInput<Complex32>],
    ready: usize,
    last: bool,
) -> Result<usize, soapysdr::Error> {
    fn s(i: &StreamInput<Complex32>, ready: usize) -> &[Complex32] {
        &i.slice()[..ready]
    }
    let r = ready;
    match inputs {
        [a] => stream.write(&[s(a, r)], None, last, TIMEOUT_US),
        [a, b] => stream.write(&[s(a, r), s(b, r)], None, last, TIMEOUT_US),
        [a, b, c] => stream.write(&[s(a, r), s(b, r), s(c, r)], None, last, TIMEOUT_US),
        [a, b, c, d] => stream.write(
            &[s(a, r), s(b, r), s(c, r), s(d, r)],
            None,
            last,
            TIMEOUT_US,
        ),
        _ => unreachable!("a sink has 1 to MAX_CHANNELS inputs"),
    }
}
