//! [`Receiver`]: the FM receiver's graph, built and run.

use crate::error::FmError;
use crate::plan::Plan;
use crate::{FmStereoDecoder, RdsDecoder};
use radioflow_blocks::dsp::firdes::{self, Window};
use radioflow_blocks::dsp::Num;
use radioflow_blocks::{
    DecimatingFirFilter, FileSource, FreqXlatingFirFilter, IirFilter, IqToComplex, NullSink,
    QuadratureDemod, RationalResampler, SampleFormat, Throttle,
};
use radioflow_interop::sigmf::{Recording, SigmfError};
use radioflow_interop::{SigmfSource, WavEncoding, WavSink};
use radioflow_rds::Station;
use radioflow_runtime::{BlockId, Complex32, Flowgraph, Pmt, Scheduler};
use std::os::unix::fs::FileTypeExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Peak deviation of FM broadcast (ITU-R BS.450): the multiplex is scaled to ±1 at it.
pub const DEVIATION: f64 = 75e3;

/// What to receive and where to put it.
#[derive(Clone, Debug)]
pub struct ReceiverConfig {
    /// The IQ recording.
    pub input: PathBuf,
    /// Its sample format.
    pub format: SampleFormat,
    /// Its sample rate, samples/s.
    pub sample_rate: f64,
    /// The station's frequency relative to the recording's centre, Hz.
    pub offset: f64,
    /// The WAV file to write (16-bit PCM), or none (the audio is dropped: for a benchmark,
    /// or when only the multiplex is used).
    pub wav: Option<PathBuf>,
    /// Decode stereo (a two-channel WAV; mono `L+R` in both while no pilot is found).
    pub stereo: bool,
    /// The de-emphasis time constant in seconds (75 µs in the Americas, 50 µs elsewhere),
    /// or none.
    pub deemphasis: Option<f64>,
    /// Decode RDS from the multiplex (station name, RadioText, ...).
    pub rds: bool,
    /// The input is a SigMF recording (any complex datatype, read by
    /// [`SigmfSource`](radioflow_interop::SigmfSource)); `format` is then not used. Made by
    /// [`ReceiverConfig::sigmf`].
    pub sigmf: bool,
    /// Pace the recording at its sample rate (a [`Throttle`] after the source), as a radio
    /// would deliver it, instead of as fast as the machine allows: for watching and steering
    /// a run in the live view.
    pub realtime: bool,
    /// Read the recording again from its start at its end, until the graph is stopped
    /// ([`FileSource::repeat`]).
    pub repeat: bool,
    /// Receive from this radio instead of a recording (`input` and `format` are then not
    /// used). Made by [`ReceiverConfig::device`].
    pub device: Option<DeviceInput>,
    /// Play the audio on this ALSA device (`default`, `hw:0`, a PulseAudio or PipeWire
    /// device through ALSA's plugins) as well as writing the WAV file, if any. The sound card
    /// paces a recording (its sink blocks when the card is full, as gr-audio's with
    /// `ok_to_block`); underruns are counted and logged, not fatal. Needs the `audio` feature.
    pub audio: Option<String>,
}

/// A radio to receive from, through SoapySDR (radioflow-blocks'
/// [`SoapySource`](radioflow_interop::SoapySource); this crate's `soapysdr` feature, on by
/// default).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceInput {
    /// SoapySDR's device arguments (`driver=rtlsdr`, `driver=hackrf,serial=...`).
    pub args: String,
    /// The frequency the device is tuned to (the centre of what it receives), Hz.
    pub frequency: f64,
    /// The gain in dB, or `None`: the device's automatic gain, where it has one.
    pub gain: Option<f64>,
    /// Samples to receive before the run ends; `None`: until it is stopped
    /// ([`Observer::should_stop`]).
    pub samples: Option<u64>,
}

impl ReceiverConfig {
    /// A mono receiver of `input` with 50 µs de-emphasis and no output file.
    pub fn new(
        input: impl Into<PathBuf>,
        format: SampleFormat,
        sample_rate: f64,
        offset: f64,
    ) -> Self {
        Self {
            input: input.into(),
            format,
            sample_rate,
            offset,
            wav: None,
            stereo: false,
            deemphasis: Some(50e-6),
            rds: false,
            sigmf: false,
            realtime: false,
            repeat: false,
            device: None,
            audio: None,
        }
    }

    /// A mono receiver of the radio `device` at `sample_rate`, with the station at `offset`
    /// Hz from the frequency it is tuned to (so at `device.frequency + offset`).
    pub fn device(device: DeviceInput, sample_rate: f64, offset: f64) -> Self {
        Self {
            device: Some(device),
            ..Self::new(PathBuf::new(), SampleFormat::Cf32, sample_rate, offset)
        }
    }

    /// A mono receiver of the SigMF recording `input` (`X.sigmf-meta`, `X.sigmf-data` or an
    /// archive `X.sigmf`), whose sample rate comes from its metadata.
    ///
    /// # Errors
    /// The recording cannot be read, is real, or has no `core:sample_rate`; the error names
    /// the file and the field.
    pub fn sigmf(input: impl Into<PathBuf>, offset: f64) -> Result<Self, FmError> {
        let input = input.into();
        let rec = Recording::open(&input)?;
        let field = |field: &str, message: String| SigmfError::Field {
            file: rec.meta_file.clone(),
            field: field.into(),
            message,
        };
        let global = &rec.meta.global;
        if !global.datatype.complex {
            return Err(field(
                "global.core:datatype",
                format!(
                    "{} is real: the receiver needs complex (IQ) samples",
                    global.datatype
                ),
            )
            .into());
        }
        let Some(rate) = global.sample_rate else {
            return Err(field(
                "global.core:sample_rate",
                "missing: the receiver needs the sample rate".into(),
            )
            .into());
        };
        let mut config = Self::new(input, SampleFormat::Cf32, rate, offset);
        config.sigmf = true;
        Ok(config)
    }

    /// The source reads complex samples as they are (no conversion block).
    fn reads_complex(&self) -> bool {
        self.sigmf
            || self.device.is_some()
            || (self.format == SampleFormat::Cf32 && cfg!(target_endian = "little"))
    }
}

/// The blocks of a built receiver that callers attach to or look at.
#[derive(Clone, Copy, Debug)]
pub struct ReceiverGraph {
    /// The recording's source (its `out` counts the samples read).
    pub source: BlockId,
    /// The channel filter (a [`FreqXlatingFirFilter`]): its `out` is the station at DC at
    /// [`Plan::mpx_rate`]; its message input `centre` retunes the station's offset, Hz,
    /// while the graph runs.
    pub channel: BlockId,
    /// The FM demodulator: its `out` is the multiplex (`f32`, ±1 at 75 kHz deviation, at
    /// [`Plan::mpx_rate`]) — connect an RDS decoder there.
    pub mpx: BlockId,
    /// The stereo decoder, when decoding stereo.
    pub stereo: Option<BlockId>,
    /// The WAV sink, when writing one.
    pub wav: Option<BlockId>,
    /// The sound card's sink, when the audio is played.
    pub audio: Option<BlockId>,
    /// The RDS decoder, when decoding RDS (its `station` output posts each change).
    pub rds: Option<BlockId>,
}

/// What a caller sees of a run besides its [`Summary`]: each method is called on the thread
/// that runs the receiver, and does nothing unless implemented.
pub trait Observer {
    /// The graph is built and not started yet: add blocks to it (probes, say).
    ///
    /// # Errors
    /// What the caller's additions fail with; the run does not start.
    fn prepare(
        &mut self,
        fg: &mut Flowgraph,
        graph: &ReceiverGraph,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let _ = (fg, graph);
        Ok(())
    }

    /// The graph has started (attach a control port to it, say).
    ///
    /// # Errors
    /// What the caller fails with; the graph is stopped and the run ends with it.
    fn started(&mut self, fg: &Flowgraph) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let _ = fg;
        Ok(())
    }

    /// About every `every` of [`Receiver::run_observed`] while the graph runs.
    fn progress(&mut self, progress: Progress) {
        let _ = progress;
    }

    /// An RDS change (a dict: `pi`, `pty`, `ps`, `radiotext` or `sync`), when decoding RDS.
    fn rds(&mut self, message: &Pmt) {
        let _ = message;
    }

    /// Asked about every 20 ms while the graph runs: `true` ends the run as the end of the
    /// input would (the WAV file is finished, the summary made). How a run from a device
    /// without a sample count ends (Ctrl-C, say).
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// [`Receiver::run_with_rds`]'s two closures as an [`Observer`].
struct Closures<P, R>(P, R);

impl<P: FnMut(Progress), R: FnMut(&Pmt)> Observer for Closures<P, R> {
    fn progress(&mut self, progress: Progress) {
        (self.0)(progress);
    }

    fn rds(&mut self, message: &Pmt) {
        (self.1)(message);
    }
}

/// Progress of a run: input samples read of the total.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Samples read so far (counting every pass when repeating).
    pub samples: u64,
    /// Samples in the recording (one pass).
    pub total: u64,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Input samples processed (every pass when repeating; all of the recording when the
    /// graph's counters are compiled out).
    pub samples: u64,
    /// Their duration, seconds (samples / rate).
    pub signal_seconds: f64,
    /// Wall-clock time of the run, seconds.
    pub wall_seconds: f64,
    /// Audio frames written (0 without a WAV file).
    pub audio_frames: u64,
    /// Audio samples beyond full scale, clipped in the WAV file.
    pub clipped: u64,
    /// Whether the end was decoded in stereo (a pilot was tracked); `None` in mono.
    pub stereo: Option<bool>,
    /// The RDS station as decoded by the end (with its block counts); `None` without RDS.
    pub rds: Option<Station>,
    /// Reads the device lost because the receiver did not keep up (0 from a recording).
    pub overflows: u64,
}

impl Summary {
    /// How many times faster than real time the run was.
    pub fn speed(&self) -> f64 {
        self.signal_seconds / self.wall_seconds.max(1e-9)
    }
}

/// An FM broadcast receiver over an IQ recording: channel filter, demodulator, mono or
/// stereo audio, de-emphasis, WAV file, as a radioflow [`Flowgraph`].
///
/// The graph: file source (`cf32` read as is, other formats through [`IqToComplex`]) ->
/// [`Throttle`] when [`realtime`](ReceiverConfig::realtime) -> [`FreqXlatingFirFilter`] (station to DC, ±100 kHz, decimated to [`Plan::mpx_rate`]) ->
/// [`QuadratureDemod`] (the multiplex) -> mono: [`DecimatingFirFilter`] (15 kHz, to the
/// audio rate) or stereo: [`FmStereoDecoder`] -> [`IirFilter::fm_deemphasis`] per channel ->
/// [`RationalResampler`] to 48 kHz where needed -> [`WavSink`].
#[derive(Clone, Debug)]
pub struct Receiver {
    config: ReceiverConfig,
    plan: Plan,
    samples: u64,
    /// The input is a FIFO or a character device: read until it ends, length unknown.
    stream: bool,
}

impl Receiver {
    /// Checks the configuration and the input file (a device is opened by
    /// [`build`](Self::build)).
    ///
    /// # Errors
    /// The input is missing or unreadable, empty, or not whole samples of its format; the
    /// rate is too low for the offset; the de-emphasis is not positive; a device in a build
    /// without SoapySDR, or to repeat, or a stream (a FIFO, a character device) to repeat.
    /// Each names the file or option.
    pub fn new(config: ReceiverConfig) -> Result<Self, FmError> {
        let plan = Plan::new(config.sample_rate, config.offset, config.stereo)?;
        let nonempty = |samples: u64| {
            if samples == 0 {
                return Err(FmError::Empty {
                    path: config.input.clone(),
                });
            }
            Ok(samples)
        };
        let mut stream = false;
        let samples = if let Some(device) = &config.device {
            if !cfg!(feature = "soapysdr") {
                return Err(FmError::option(
                    "device",
                    "this radioflow was built without SoapySDR (radioflow-fm's `soapysdr` \
                     feature, on by default)",
                ));
            }
            if config.repeat {
                return Err(FmError::option(
                    "repeat",
                    "a device is not a recording to read again",
                ));
            }
            match device.samples {
                Some(0) => return Err(FmError::option("seconds", "receive at least one sample")),
                n => n.unwrap_or(0),
            }
        } else if config.sigmf {
            nonempty(Recording::open(&config.input)?.samples)?
        } else {
            let meta = std::fs::metadata(&config.input).map_err(|source| FmError::Input {
                path: config.input.clone(),
                source,
            })?;
            if meta.is_dir() {
                return Err(FmError::Input {
                    path: config.input.clone(),
                    source: std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory"),
                });
            }
            let kind = meta.file_type();
            // A FIFO or a device (`rtl_sdr - | ...` through a named pipe, /dev/zero) has no
            // length: it is read as it comes, until it ends or the run is stopped.
            stream = kind.is_fifo() || kind.is_char_device() || kind.is_socket();
            if stream && config.repeat {
                return Err(FmError::option(
                    "repeat",
                    format!(
                        "'{}' is a stream (a FIFO or a device), which cannot be read again \
                         from its start",
                        config.input.display()
                    ),
                ));
            }
            let size = config.format.bytes_per_sample() as u64;
            if stream {
                0
            } else if meta.len() % size != 0 {
                return Err(FmError::PartialSample {
                    path: config.input.clone(),
                    len: meta.len(),
                    format: config.format,
                });
            } else {
                nonempty(meta.len() / size)?
            }
        };
        if let Some(tau) = config.deemphasis {
            // The corner must sit below half the audio rate.
            if !(tau.is_finite() && tau > 0.0)
                || IirFilter::fm_deemphasis(plan.audio_rate, tau).is_err()
            {
                return Err(FmError::option(
                    "deemphasis",
                    format!("{} µs is not a usable time constant", Num(tau * 1e6)),
                ));
            }
        }
        Ok(Self {
            samples,
            stream,
            config,
            plan,
        })
    }

    /// The rates.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The configuration.
    pub fn config(&self) -> &ReceiverConfig {
        &self.config
    }

    /// Samples in the recording; from a device, the samples to receive (0: until stopped);
    /// 0 for a stream.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Whether the input is a stream (a FIFO, a character device), read until it ends or the
    /// run is stopped; its length is not known.
    pub fn is_stream(&self) -> bool {
        self.stream
    }

    /// Adds the receiver's blocks to `fg` (opening and setting up the device, if it receives
    /// from one).
    ///
    /// # Errors
    /// The input cannot be opened or the WAV file created (named), the device is not there
    /// or refuses a setting ([`FmError::Device`], naming it), or a filter design fails.
    pub fn build(&self, fg: &mut Flowgraph) -> Result<ReceiverGraph, FmError> {
        let (c, p) = (&self.config, &self.plan);
        let design = |e: radioflow_blocks::dsp::ParamError| FmError::option("rate", e.to_string());
        let input = |e: radioflow_blocks::FileError| FmError::Input {
            path: c.input.clone(),
            source: e.into(),
        };
        let (source, mut iq) = if let Some(device) = &c.device {
            let s = fg.add_named("source", device_source(device, p.sample_rate)?);
            (s, s)
        } else if c.sigmf {
            let s = fg.add_named("source", SigmfSource::<Complex32>::new(&c.input)?);
            (s, s)
        } else if c.reads_complex() {
            let s = fg.add_named(
                "source",
                FileSource::<Complex32>::new(&c.input)
                    .map_err(input)?
                    .repeat(c.repeat),
            );
            (s, s)
        } else {
            let s = fg.add_named(
                "source",
                FileSource::<u8>::new(&c.input)
                    .map_err(input)?
                    .repeat(c.repeat),
            );
            let conv = fg.add_named("iq_to_complex", IqToComplex::new(c.format));
            fg.connect(s, conv)?;
            (s, conv)
        };
        // A device delivers at its rate by itself.
        if c.realtime && c.device.is_none() {
            let throttle = fg.add_named("throttle", Throttle::<Complex32>::new(p.sample_rate));
            fg.connect(iq, throttle)?;
            iq = throttle;
        }
        let channel_taps = firdes::low_pass(
            1.0,
            p.sample_rate,
            p.channel_cutoff,
            p.channel_transition,
            Window::Hamming,
        )
        .map_err(design)?;
        let xlate = fg.add_named(
            "channel",
            FreqXlatingFirFilter::new(&channel_taps, p.channel_decimation, p.offset, p.sample_rate)
                .map_err(design)?,
        );
        let demod = fg.add_named(
            "fm_demod",
            QuadratureDemod::for_deviation(p.mpx_rate, DEVIATION),
        );
        fg.connect(iq, xlate)?;
        fg.connect(xlate, demod)?;
        let rds = if c.rds {
            let dec = RdsDecoder::new(p.mpx_rate)
                .map_err(|e| FmError::option("rate", format!("RDS: {e}")))?;
            let dec = fg.add_named("rds", dec);
            fg.connect(demod, dec)?;
            Some(dec)
        } else {
            None
        };

        // Audio channels at the audio rate, before de-emphasis.
        let (channels, stereo): (Vec<(BlockId, &str)>, _) = if c.stereo {
            let dec = fg.add_named(
                "stereo",
                FmStereoDecoder::new(p.mpx_rate, p.audio_decimation).map_err(design)?,
            );
            fg.connect(demod, dec)?;
            (vec![(dec, "left"), (dec, "right")], Some(dec))
        } else {
            // 15 kHz audio, the 19 kHz pilot in the stop band.
            let taps =
                firdes::low_pass(1.0, p.mpx_rate, 16e3, 4e3, Window::Blackman).map_err(design)?;
            let audio = fg.add_named(
                "audio_filter",
                DecimatingFirFilter::<f32>::new(&taps, p.audio_decimation).map_err(design)?,
            );
            fg.connect(demod, audio)?;
            (vec![(audio, "out")], None)
        };
        let names = ["left", "right"];
        let mut outs = Vec::new();
        for (k, mut at) in channels.into_iter().enumerate() {
            let name = |stage: &str| {
                if c.stereo {
                    format!("{stage}_{}", names[k])
                } else {
                    stage.to_owned()
                }
            };
            if let Some(tau) = c.deemphasis {
                let de = fg.add_named(
                    &name("deemphasis"),
                    IirFilter::fm_deemphasis(p.audio_rate, tau).map_err(design)?,
                );
                fg.connect(at, de)?;
                at = (de, "out");
            }
            if let Some((i, d)) = p.resample {
                let rs = fg.add_named(
                    &name("resampler"),
                    RationalResampler::<f32>::new(i, d).map_err(design)?,
                );
                fg.connect(at, rs)?;
                at = (rs, "out");
            }
            outs.push(at);
        }
        // The sound card reads the same streams as the WAV file.
        let audio = match &c.audio {
            Some(device) => Some(self.audio_sink(fg, device, &outs)?),
            None => None,
        };
        let wav = match &c.wav {
            Some(path) => {
                let sink = fg.add_named(
                    "wav",
                    WavSink::new(path, outs.len(), p.wav_rate, WavEncoding::Pcm16)?,
                );
                for (k, at) in outs.into_iter().enumerate() {
                    fg.connect(at, (sink, k))?;
                }
                Some(sink)
            }
            None if audio.is_some() => None,
            None => {
                for (k, at) in outs.into_iter().enumerate() {
                    let sink = fg.add_named(&format!("audio_sink{k}"), NullSink::<f32>::new());
                    fg.connect(at, sink)?;
                }
                None
            }
        };
        Ok(ReceiverGraph {
            source,
            channel: xlate,
            mpx: demod,
            stereo,
            wav,
            audio,
            rds,
        })
    }

    /// The sound card's sink on ALSA device `device`, reading `outs` (one per channel).
    #[cfg(feature = "audio")]
    fn audio_sink(
        &self,
        fg: &mut Flowgraph,
        device: &str,
        outs: &[(BlockId, &'static str)],
    ) -> Result<BlockId, FmError> {
        let sink = fg.add_named(
            "audio",
            radioflow_interop::AudioSink::new(self.plan.wav_rate, device, true, outs.len()),
        );
        for (k, &at) in outs.iter().enumerate() {
            fg.connect(at, (sink, k))?;
        }
        Ok(sink)
    }

    #[cfg(not(feature = "audio"))]
    fn audio_sink(
        &self,
        _: &mut Flowgraph,
        _: &str,
        _: &[(BlockId, &'static str)],
    ) -> Result<BlockId, FmError> {
        Err(FmError::Option {
            option: "audio",
            reason: "this build has no sound (radioflow-fm's `audio` feature: ALSA)".into(),
        })
    }

    /// Builds the receiver and runs it to the end of the recording on `scheduler`, calling
    /// `progress` about every `every` while it runs.
    ///
    /// # Errors
    /// As [`build`](Self::build), or a block failing while it runs (named).
    pub fn run(
        &self,
        scheduler: &dyn Scheduler,
        every: Duration,
        progress: impl FnMut(Progress),
    ) -> Result<Summary, FmError> {
        self.run_with_rds(scheduler, every, progress, |_| {})
    }

    /// As [`run`](Self::run), also calling `rds` with every RDS change (a dict: `pi`, `pty`,
    /// `ps`, `radiotext` or `sync`) as it is decoded, on the calling thread.
    ///
    /// # Errors
    /// As [`run`](Self::run).
    pub fn run_with_rds(
        &self,
        scheduler: &dyn Scheduler,
        every: Duration,
        progress: impl FnMut(Progress),
        rds: impl FnMut(&Pmt),
    ) -> Result<Summary, FmError> {
        self.run_observed(scheduler, every, &mut Closures(progress, rds))
    }

    /// As [`run`](Self::run), with `observer` called before the start, once started, with
    /// the progress about every `every` and with every RDS change.
    ///
    /// # Errors
    /// As [`run`](Self::run), or what the observer fails with ([`FmError::Observer`]).
    pub fn run_observed(
        &self,
        scheduler: &dyn Scheduler,
        every: Duration,
        observer: &mut dyn Observer,
    ) -> Result<Summary, FmError> {
        let mut fg = Flowgraph::new();
        let ids = self.build(&mut fg)?;
        let (tx, rx) = std::sync::mpsc::channel();
        if let Some(dec) = ids.rds {
            let fwd = fg.add_named("rds_messages", crate::rds_forward::RdsForward::new(tx));
            fg.connect_message((dec, "station"), (fwd, "in"))?;
        }
        observer.prepare(&mut fg, &ids).map_err(FmError::Observer)?;
        let started = Instant::now();
        fg.start(scheduler)?;
        if let Err(e) = observer.started(&fg) {
            fg.stop();
            let _ = fg.wait();
            return Err(FmError::Observer(e));
        }
        let stats = fg.stats_handle();
        let (mut last, mut stopping) = (Instant::now(), false);
        while !fg.is_finished() {
            std::thread::sleep(Duration::from_millis(20));
            rx.try_iter().for_each(|m| observer.rds(&m));
            if !stopping && observer.should_stop() {
                stopping = true;
                fg.stop();
            }
            if let Some(stats) = &stats
                && last.elapsed() >= every
            {
                last = Instant::now();
                let items = stats.get(ids.source).map_or(0, |s| s.items_produced);
                observer.progress(Progress {
                    samples: self.items_to_samples(items),
                    total: self.samples,
                });
            }
        }
        fg.wait()?;
        let wall_seconds = started.elapsed().as_secs_f64();
        rx.try_iter().for_each(|m| observer.rds(&m));
        let samples = fg
            .stats(ids.source)
            .map_or(self.samples, |s| self.items_to_samples(s.items_produced));
        let (audio_frames, clipped) = ids
            .wav
            .and_then(|w| fg.block::<WavSink>(w))
            .map_or((0, 0), |w| (w.frames(), w.clipped()));
        let stereo = ids
            .stereo
            .and_then(|s| fg.block::<FmStereoDecoder>(s))
            .map(FmStereoDecoder::is_stereo);
        let rds = ids
            .rds
            .and_then(|r| fg.block::<RdsDecoder>(r))
            .map(|r| r.station().clone());
        #[cfg(feature = "soapysdr")]
        let overflows = fg
            .block::<radioflow_interop::SoapySource>(ids.source)
            .map_or(0, radioflow_interop::SoapySource::overflows);
        #[cfg(not(feature = "soapysdr"))]
        let overflows = 0;
        Ok(Summary {
            samples,
            signal_seconds: samples as f64 / self.plan.sample_rate,
            wall_seconds,
            audio_frames,
            clipped,
            stereo,
            rds,
            overflows,
        })
    }

    /// Samples for `items` produced by the source (bytes unless the format is read as is).
    fn items_to_samples(&self, items: u64) -> u64 {
        if self.config.reads_complex() {
            items
        } else {
            items / self.config.format.bytes_per_sample() as u64
        }
    }
}

/// The source of `device`'s samples, opened and set up.
#[cfg(feature = "soapysdr")]
fn device_source(
    device: &DeviceInput,
    sample_rate: f64,
) -> Result<radioflow_interop::SoapySource, FmError> {
    let mut source =
        radioflow_interop::SoapySource::new(&device.args, sample_rate, device.frequency)
            .gain(device.gain);
    if let Some(n) = device.samples {
        source = source.limit(n);
    }
    Ok(source.open()?)
}

/// Not reached: [`Receiver::new`] refuses a device without the `soapysdr` feature.
#[cfg(not(feature = "soapysdr"))]
fn device_source(
    _: &DeviceInput,
    _: f64,
) -> Result<radioflow_blocks::NullSource<Complex32>, FmError> {
    Err(FmError::option(
        "device",
        "this radioflow was built without SoapySDR",
    ))
}
