//! [`SoapySource`]: receives from a radio through SoapySDR.

use super::channels::Channels;
use super::command::Command;
use super::device::{DeviceConfig, DeviceError, TIMEOUT_US};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use soapysdr::{Device, Direction, ErrorCode, RxStream};

/// Receives complex samples from a radio through SoapySDR (any device with a SoapySDR
/// module: RTL-SDR, HackRF, Airspy, USRP, LimeSDR, Red Pitaya, ...), like GNU Radio's
/// `soapy.source`. The device's reads go straight into the output buffer, at most one
/// stream MTU per call. A read that times out is asked again for half as many samples, and
/// reads grow back by doubling once they come whole: some modules return samples only once
/// a whole read is queued (SoapySDR's Red Pitaya module, over TCP), and after the graph fell
/// behind, what is queued can stay shorter than a read for good.
///
/// The device is opened and set up (sample rate, antenna, gain, frequency) by
/// [`open`](Self::open), or else when the graph starts; its stream is activated when the
/// graph starts and deactivated when it stops. A device that tunes more than 1 kHz away
/// from the frequency asked for, or runs more than 0.1% off the sample rate asked for, is an
/// error rather than a radio listening elsewhere. Samples the device lost (an overflow: the
/// graph did not keep up) are counted ([`overflows`](Self::overflows), and live as the
/// block's `overflows` event counter, which the live page shows) and logged once; the stream
/// goes on.
///
/// The first sample read after the start, after an overflow, and after each retune or rate
/// change carried out while running, has the tags `rx_freq` (Hz) and `rx_rate` (samples/s),
/// as UHD's source tags its stream (samples the device had queued before a retune may still
/// be from the old frequency: SoapySDR does not say where the change took effect). On a device
/// that keeps time (SoapySDR's `hasHardwareTime`: SoapyUHD's USRPs), each such sample also has
/// `rx_time`, the read's timestamp in UHD's form (whole seconds as a uint64, the fraction as a
/// double), so that the samples' times follow from it (gr-uhd tags the three together).
///
/// It never ends by itself unless given a [`limit`](Self::limit): stop the graph, or end it
/// downstream (a [`Head`](radioflow_blocks::Head)).
///
/// The parameters with a default are builder methods of the same name, except `agc`: a
/// [`gain`](Self::gain) of `None` asks for the device's automatic gain. [`limit`](Self::limit)
/// makes it finish after a number of samples.
///
/// Blocking: yes (waits for the device in slices of 10 ms, so a stop is seen).
///
/// # Example
/// ```no_run
/// use radioflow_blocks::{Head, VectorSink};
/// use radioflow_interop::SoapySource;
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// // An RTL-SDR at 100 MHz, 2.4 Msps, 30 dB of gain; errors now if it is not there.
/// let src = fg.add(SoapySource::new("driver=rtlsdr", 2.4e6, 100e6).gain(Some(30.0)).open()?);
/// let head = fg.add(Head::<Complex32>::new(2_400_000));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "soapy_source",
    summary = "Complex samples received from a radio through SoapySDR (RTL-SDR, HackRF, \
               Airspy, USRP, LimeSDR, ...), like GNU Radio's soapy.source.",
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
    doc = "how many device channels, from channel on, in one stream (1 to 4; one output each)"
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
pub struct SoapySource {
    /// The samples as received (SoapySDR's `CF32`: full scale is ±1), one output per channel
    /// (`out0`, `out1`, ...), read together.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<Complex32>>,
    channels: Channels,
    /// Samples still to produce before finishing (`u64::MAX`: no limit).
    remaining: u64,
    device: Option<Device>,
    /// The active stream while the graph runs.
    stream: Option<RxStream<Complex32>>,
    /// The most samples one read asks for (the stream's MTU).
    mtu: usize,
    /// How many samples the next read asks for at most: halved after a timeout, doubled
    /// back (up to the MTU) after a read that came whole.
    read_size: usize,
    overflows: EventCounter,
    /// Reads that found nothing within the timeout.
    timeouts: EventCounter,
    /// The next samples read get `rx_freq` and `rx_rate` tags (set at the start, after an
    /// overflow and when a retune or a rate change was carried out).
    tag_tuning: bool,
    /// The device keeps time (SoapySDR's `hasHardwareTime`): its reads' timestamps become
    /// `rx_time` tags, with `rx_freq` and `rx_rate`.
    has_time: bool,
}

impl std::fmt::Debug for SoapySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SoapySource")
            .field("channels", &self.channels)
            .field("open", &self.device.is_some())
            .field("streaming", &self.stream.is_some())
            .field("overflows", &self.overflows)
            .finish_non_exhaustive()
    }
}

#[block(blocking, paced)]
impl SoapySource {
    /// A source for the device `args` at `sample_rate` samples/s tuned to `frequency` Hz,
    /// on channel 0 with automatic gain; nothing is opened yet.
    pub fn new(args: impl Into<String>, sample_rate: f64, frequency: f64) -> Self {
        Self::with_config(DeviceConfig::new(
            "soapy_source",
            Direction::Rx,
            args.into(),
            sample_rate,
            frequency,
        ))
    }

    fn with_config(config: DeviceConfig) -> Self {
        Self {
            outputs: vec![StreamOutput::new()],
            channels: Channels::new(config),
            remaining: u64::MAX,
            device: None,
            stream: None,
            mtu: 0,
            read_size: 0,
            overflows: EventCounter::new("overflows"),
            timeouts: EventCounter::new("timeouts"),
            tag_tuning: false,
            has_time: false,
        }
    }

    /// The overall gain in dB (`None`: the device's automatic gain, where it has one; else
    /// the gain it has).
    pub fn gain(mut self, db: Option<f64>) -> Self {
        self.channels.each(|c| c.gain = db);
        self
    }

    /// Streams `n` device channels (1 to 4), from [`channel`](Self::channel) on, one output
    /// each, all with the block's settings (a start command or `cmd` naming a channel, `chan`,
    /// sets that one).
    pub fn nchan(mut self, n: usize) -> Self {
        let first = self.channels.first().channel;
        self.channels.set(first, n);
        self.outputs = (0..self.channels.len())
            .map(|_| StreamOutput::new())
            .collect();
        self
    }

    /// Retunes to `hz`: now if the device is open (an error is logged and the stream goes
    /// on), else when it is.
    pub fn set_frequency(&mut self, hz: f64) {
        self.tag_tuning |= self
            .channels
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
        self.tag_tuning |= self.channels.on_message(self.device.as_ref(), msg);
    }

    /// GNU Radio's UHD command message (see the `command` input): as [`cmd`](Self::cmd).
    #[message_input]
    fn command(&mut self, msg: &Pmt) {
        self.cmd(msg);
    }

    /// The device's channel (default 0; the first of [`nchan`](Self::nchan)).
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

    /// Finish after `samples` samples (a recording of a known length).
    pub fn limit(mut self, samples: u64) -> Self {
        self.remaining = samples;
        self
    }

    /// Opens the device and sets it up now, so that a missing device or a setting it
    /// refuses is an error here rather than when the graph starts.
    ///
    /// # Errors
    /// Device arguments that are not `key=value` pairs, no device matching them, or a
    /// setting the device refuses or does not keep (the rate, the frequency: the error says
    /// what it did instead); each names the block and the device's arguments.
    pub fn open(mut self) -> Result<Self, DeviceError> {
        self.device = Some(self.channels.open()?);
        Ok(self)
    }

    /// The centre frequency, Hz: as given, or as last retuned (a retune the device refused
    /// leaves it as it was).
    pub fn frequency(&self) -> f64 {
        self.channels.first().frequency
    }

    /// Reads the device lost because the graph did not keep up (SoapySDR's overflows).
    pub fn overflows(&self) -> u64 {
        self.overflows.get()
    }

    fn start(&mut self) -> Result<(), BlockError> {
        // Made here, the run's counters are listed with the block's (the live page shows them).
        self.overflows = EventCounter::new("overflows");
        self.timeouts = EventCounter::new("timeouts");
        let device = match self.device.take() {
            Some(d) => d,
            None => self.channels.open()?,
        };
        let c = self.channels.first();
        let mut stream = device
            .rx_stream::<Complex32>(&self.channels.numbers())
            .map_err(|e| c.failed("cannot set up a CF32 receive stream", &e))?;
        self.mtu = stream
            .mtu()
            .map_err(|e| c.failed("cannot read the stream's MTU", &e))?
            .max(1);
        self.read_size = self.mtu;
        stream
            .activate(None)
            .map_err(|e| c.failed("cannot start streaming", &e))?;
        self.has_time = device.has_hardware_time(None).unwrap_or(false);
        self.device = Some(device);
        self.stream = Some(stream);
        self.tag_tuning = true;
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        // Dropping the stream deactivates and closes it.
        self.stream = None;
        Ok(())
    }

    /// One read of what the output has room for (at most an MTU), waiting for it in slices
    /// of the timeout until it comes, the graph is stopped or every reader is gone: the
    /// runtime calls a source again only when its output changes, which a device does not do.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.remaining == 0 {
            return Ok(WorkStatus::Done);
        }
        let Some(stream) = self.stream.as_mut() else {
            return Err(self.channels.first().error("work before start").into());
        };
        let limit = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        let room = self
            .outputs
            .iter_mut()
            .map(|o| o.slice().len())
            .min()
            .unwrap_or(0)
            .min(limit);
        if room == 0 {
            return Ok(WorkStatus::Continue);
        }
        let n = loop {
            if stop_requested() || self.outputs.iter().all(StreamOutput::readers_gone) {
                return Ok(WorkStatus::Continue);
            }
            let want = room.min(self.read_size);
            match read_into(stream, &mut self.outputs, want) {
                Ok(0) => {}
                Ok(n) => {
                    if n == want {
                        self.read_size = (self.read_size * 2).min(self.mtu);
                    }
                    break n;
                }
                Err(e) if e.code == ErrorCode::Timeout => {
                    self.timeouts.add(1);
                    self.read_size = (self.read_size / 2).max(1);
                }
                Err(e) if e.code == ErrorCode::Overflow => {
                    if self.overflows.get() == 0 {
                        tracing::warn!(
                            device = %self.channels.first().args,
                            "soapy_source: the device lost samples (overflow): the graph does \
                             not keep up with its rate; counting them from here"
                        );
                    }
                    self.overflows.add(1);
                    // As gr-uhd's source: the samples after the gap tagged anew.
                    self.tag_tuning = true;
                }
                Err(e) => {
                    return Err(self
                        .channels
                        .first()
                        .failed("reading the stream", &e)
                        .into());
                }
            }
        };
        let time = (self.tag_tuning && self.has_time).then(|| {
            // UHD's form: (whole seconds as uint64, fractional seconds as double), the time
            // of the read's first sample as the device stamped it.
            let ns = stream.time_ns().max(0);
            Pmt::Tuple(
                [
                    Pmt::Uint64(ns.div_euclid(1_000_000_000) as u64),
                    Pmt::Double(ns.rem_euclid(1_000_000_000) as f64 * 1e-9),
                ]
                .into(),
            )
        });
        for (output, config) in self.outputs.iter_mut().zip(self.channels.iter()) {
            let at = output.offset();
            if self.tag_tuning {
                // As UHD's source tags its stream (GNU Radio users' flowgraphs read them):
                // the first sample read after the start, an overflow or a retune.
                output.add_tag(at, Pmt::symbol("rx_freq"), Pmt::Double(config.frequency));
                output.add_tag(at, Pmt::symbol("rx_rate"), Pmt::Double(config.sample_rate));
            }
            if let Some(time) = &time {
                output.add_tag(at, Pmt::symbol("rx_time"), time.clone());
            }
            output.produce(n);
        }
        self.tag_tuning = false;
        self.remaining -= n as u64;
        Ok(if self.remaining == 0 {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

/// One read of `want` samples per channel into the outputs' free space (one output per
/// channel, 1 to 4: SoapySDR reads every channel of a stream at once).
fn read_into(
    stream: &mut RxStream<Complex32>,
    outputs: &mut [StreamOutput<Complex32>],
    want: usize,
) -> Result<usize, soapysdr::Error> {
    match outputs {
        [a] => stream.read(&mut [&mut a.slice()[..want]], TIMEOUT_US),
        [a, b] => stream.read(
            &mut [&mut a.slice()[..want], &mut b.slice()[..want]],
            TIMEOUT_US,
        ),
        [a, b, c] => stream.read(
            &mut [
                &mut a.slice()[..want],
                &mut b.slice()[..want],
                &mut c.slice()[..want],
            ],
            TIMEOUT_US,
        ),
        [a, b, c, d] => stream.read(
            &mut [
                &mut a.slice()[..want],
                &mut b.slice()[..want],
                &mut c.slice()[..want],
                &mut d.slice()[..want],
            ],
            TIMEOUT_US,
        ),
        _ => unreachable!("a source has 1 to MAX_CHANNELS outputs"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_before_any_device_is_looked_for() {
        let e = SoapySource::new("driver=rtlsdr,serial", 2.4e6, 100e6)
            .open()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "soapy_source (device 'driver=rtlsdr,serial'): 'serial' is not a key=value pair: \
             device arguments look like 'driver=rtlsdr' or 'driver=hackrf,serial=...' \
             (SoapySDRUtil --find lists them)"
        );
        let e = SoapySource::new("driver=rtlsdr", -1.0, 100e6)
            .open()
            .unwrap_err();
        assert!(
            e.to_string().contains("sample rate must be a number > 0"),
            "{e}"
        );
        // SoapySDR's strings are C strings: a NUL is an error, not a panic in the bindings.
        let e = SoapySource::new("driver=rtl\0sdr", 2.4e6, 100e6)
            .open()
            .unwrap_err();
        assert!(e.to_string().contains("NUL"), "{e}");
    }
}
