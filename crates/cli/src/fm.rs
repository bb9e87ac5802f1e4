//! `radioflow fm`: an FM broadcast station from an IQ recording or a radio (SoapySDR) to a
//! WAV file (the receiver is `radioflow_fm`; this parses the options, prints progress and the
//! summary, and turns Ctrl-C into the end of the run).

use crate::interrupt::Interrupt;
use anyhow::bail;
use clap::Args;
use radioflow_blocks::dsp::Num;
use radioflow_blocks::runtime::registry::PathUse;
use radioflow_blocks::SampleFormat;
use radioflow_control::{ControlHandle, Probe};
use radioflow_fm::synth::{write_station, Station};
use radioflow_fm::{DeviceInput, Observer, Progress, Receiver, ReceiverConfig, ReceiverGraph};
use radioflow_library::RunFiles;
use radioflow_runtime::{Flowgraph, Pmt, SchedulerSpec};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub(crate) struct FmArgs {
    /// The IQ recording: a raw file (with --format and --rate) or a SigMF recording
    /// (X.sigmf-meta, X.sigmf-data or a X.sigmf archive; format and rate from its metadata).
    #[arg(long, required_unless_present_any = ["demo", "device"])]
    input: Option<PathBuf>,
    /// Receive from a radio instead: SoapySDR's device arguments ("driver=rtlsdr",
    /// "driver=hackrf,serial=..."; `SoapySDRUtil --find` lists them), with --rate, --freq and
    /// --offset; until Ctrl-C or for --seconds.
    #[arg(long, conflicts_with_all = ["input", "format", "demo", "repeat"], requires_all = ["rate", "freq"])]
    device: Option<String>,
    /// The frequency to tune the device to, Hz (100.2e6): the station is at --freq + --offset.
    #[arg(long, requires = "device", value_parser = crate::values::positive)]
    freq: Option<f64>,
    /// The device's gain in dB (default: its automatic gain, where it has one).
    #[arg(long, requires = "device", allow_negative_numbers = true)]
    gain: Option<f64>,
    /// Stop after this many seconds of signal from the device (default: at Ctrl-C).
    #[arg(long, requires = "device", value_parser = crate::values::positive)]
    seconds: Option<f64>,
    /// Its sample format: cf32, cs16, cu8 (rtl_sdr) or cs8 (not for SigMF).
    #[arg(long, value_parser = clap::value_parser!(SampleFormat))]
    format: Option<SampleFormat>,
    /// Its sample rate in samples/s (2.4e6 accepted; not for SigMF), or the rate to run the
    /// device at.
    #[arg(long, value_parser = crate::values::positive, allow_negative_numbers = true)]
    rate: Option<f64>,
    /// The station's frequency relative to the recording's centre (or the device's --freq),
    /// Hz (negative below).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "demo")]
    offset: Option<f64>,
    /// Receive radioflow's built-in station instead of a recording: 5 s of stereo tones
    /// (1 kHz left, 1.5 kHz right), pilot and RDS, at +200 kHz in a 2.4 Msps cu8 recording
    /// written next to the WAV file (or in the temporary directory); implies --rds.
    #[arg(long, conflicts_with_all = ["input", "format", "rate", "offset"])]
    demo: bool,
    /// Write the audio to this WAV file (16-bit, 48 kHz); without it (and --audio) the audio
    /// is dropped.
    #[arg(long)]
    wav: Option<PathBuf>,
    /// Play the audio on this ALSA sound device (`default` when none is named: PulseAudio or
    /// PipeWire through ALSA's plugins where they run). The sound card paces a recording;
    /// underruns are counted and logged.
    #[arg(long, value_name = "DEVICE", num_args = 0..=1, default_missing_value = "default")]
    audio: Option<String>,
    /// Mono (L+R only) instead of stereo.
    #[arg(long)]
    mono: bool,
    /// Decode RDS (station name, radio text) and print it.
    #[arg(long)]
    rds: bool,
    /// De-emphasis time constant in µs: 50 (Europe and most of the world) or 75 (the
    /// Americas, South Korea); 0 for none.
    #[arg(long, default_value_t = 50)]
    deemphasis: u32,
    /// Scheduler: flow, tpb or single, with options (`flow:workers=2,pin`).
    #[arg(long, default_value = "flow")]
    scheduler: String,
    /// Read the recording at its sample rate, as a radio delivers it, instead of as fast as
    /// the machine allows (implied by --control).
    #[arg(long)]
    realtime: bool,
    /// Read the recording again from its start at its end, until stopped (Ctrl-C, or the
    /// live view's Stop button).
    #[arg(long)]
    repeat: bool,
    // The live view also gets probes on `channel.out` (the station at DC) and `fm_demod.out`
    // (the multiplex: audio, 19 kHz pilot, RDS at 57 kHz), and the station's offset as the
    // settable parameter `channel.centre`.
    #[command(flatten)]
    control: crate::control::ControlArgs,
}

/// The probes `radioflow fm --control` always adds (both at the multiplex rate).
const PROBES: [&str; 2] = ["channel.out", "fm_demod.out"];

pub(crate) fn main(a: FmArgs) -> anyhow::Result<()> {
    let deemphasis = match a.deemphasis {
        0 => None,
        50 | 75 => Some(f64::from(a.deemphasis) * 1e-6),
        other => bail!("invalid --deemphasis: {other} (use 50, 75 or 0 for none)"),
    };
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    // The built-in station is a recording written next to the WAV file.
    let demo = a.demo.then(|| {
        a.wav
            .as_ref()
            .and_then(|w| w.parent())
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(std::env::temp_dir, PathBuf::from)
            .join("radioflow-demo-station.cu8")
    });
    let mut files = RunFiles::new();
    if let Some(input) = &a.input {
        files.add("--input", input, crate::values::reads(input));
    }
    if let Some(station) = &demo {
        files.add("the built-in station", station, PathUse::Write);
    }
    if let Some(wav) = &a.wav {
        files.add("--wav", wav, PathUse::Write);
    }
    files.check()?;
    let mut config = if let Some(path) = demo {
        eprintln!(
            "writing the built-in station (5 s, 2.4 Msps cu8, +200 kHz) to {}",
            path.display()
        );
        write_station(
            &path,
            SampleFormat::Cu8,
            2.4e6,
            200e3,
            5.0,
            &Station::default(),
        )?;
        ReceiverConfig::new(path, SampleFormat::Cu8, 2.4e6, 200e3)
    } else if let Some(args) = &a.device {
        let rate = a
            .rate
            .ok_or_else(|| anyhow::anyhow!("--rate is required with --device"))?;
        let device = DeviceInput {
            args: args.clone(),
            frequency: a
                .freq
                .ok_or_else(|| anyhow::anyhow!("--freq is required with --device"))?,
            gain: a.gain,
            samples: a.seconds.map(|s| (s * rate).round() as u64),
        };
        let offset = a
            .offset
            .ok_or_else(|| anyhow::anyhow!("--offset is required"))?;
        ReceiverConfig::device(device, rate, offset)
    } else {
        let input = a
            .input
            .clone()
            .ok_or_else(|| anyhow::anyhow!("--input is required"))?;
        let offset = a
            .offset
            .ok_or_else(|| anyhow::anyhow!("--offset is required"))?;
        if radioflow_interop::sigmf::is_sigmf(&input) {
            if a.format.is_some() || a.rate.is_some() {
                bail!(
                    "--format and --rate are taken from the SigMF metadata of {}",
                    input.display()
                );
            }
            ReceiverConfig::sigmf(&input, offset)?
        } else {
            let missing = || {
                anyhow::anyhow!("--format and --rate are required for a raw recording (not SigMF)")
            };
            ReceiverConfig::new(
                &input,
                a.format.ok_or_else(missing)?,
                a.rate.ok_or_else(missing)?,
                offset,
            )
        }
    };
    let input = config.input.clone();
    let device = config.device.clone();
    config.wav = a.wav.clone();
    config.audio = a.audio.clone();
    config.stereo = !a.mono;
    config.deemphasis = deemphasis;
    config.rds = a.rds || a.demo;
    config.realtime = a.realtime || a.control.enabled();
    if a.repeat && config.sigmf {
        bail!(
            "--repeat reads raw recordings again from their start; {} is a SigMF recording",
            input.display()
        );
    }
    config.repeat = a.repeat;
    let rx = Receiver::new(config)?;
    let plan = rx.plan();
    let stereo = if a.mono { "mono" } else { "stereo" };
    let offset = if plan.offset < 0.0 { "" } else { "+" };
    match &device {
        Some(d) => eprintln!(
            "device '{}': {} samples/s at {} Hz, station at {} Hz ({offset}{} Hz), {}; \
             multiplex at {} Hz, audio at {} Hz, {stereo} (Ctrl-C stops)",
            d.args,
            Num(plan.sample_rate),
            Num(d.frequency),
            Num(d.frequency + plan.offset),
            Num(plan.offset),
            match a.seconds {
                Some(s) => format!("for {} s", Num(s)),
                None => "until stopped".to_owned(),
            },
            Num(plan.mpx_rate),
            plan.wav_rate,
        ),
        None if rx.is_stream() => eprintln!(
            "{}: a stream, read until it ends (Ctrl-C stops), station at {offset}{} Hz; \
             multiplex at {} Hz, audio at {} Hz, {stereo}",
            input.display(),
            Num(plan.offset),
            Num(plan.mpx_rate),
            plan.wav_rate,
        ),
        None => eprintln!(
            "{}: {} samples ({:.1} s), station at {offset}{} Hz; multiplex at {} Hz, audio at \
             {} Hz, {stereo}",
            input.display(),
            rx.samples(),
            rx.samples() as f64 / plan.sample_rate,
            Num(plan.offset),
            Num(plan.mpx_rate),
            plan.wav_rate,
        ),
    }
    let interrupt = Interrupt::catch()?;
    let mut watch = Watch {
        interrupt: &interrupt,
        control: &a.control,
        offset: plan.offset,
        probes: Vec::new(),
        handle: None,
        sample_rate: plan.sample_rate,
        mpx_rate: plan.mpx_rate,
        open_ended: a.repeat || rx.samples() == 0,
        shown: false,
        last: 0,
    };
    let summary = rx.run_observed(scheduler.as_ref(), Duration::from_secs(1), &mut watch)?;
    if watch.shown {
        eprintln!();
    }
    drop(watch.handle.take());
    println!(
        "{} samples, {:.2} s of signal in {:.2} s: {:.1}x real time",
        summary.samples,
        summary.signal_seconds,
        summary.wall_seconds,
        summary.speed()
    );
    if let Some(stereo) = summary.stereo {
        println!(
            "stereo: {}",
            if stereo {
                "pilot found"
            } else {
                "no pilot at the end (mono sum in both channels)"
            }
        );
    }
    if let Some(st) = &summary.rds {
        println!(
            "RDS: PI {}, PS {:?}, RadioText {:?}, PTY {}; {} good blocks ({} corrected), {} bad",
            st.pi.map_or("-".into(), |p| format!("{p:04X}")),
            st.ps.map(|p| p.to_string()).unwrap_or_default(),
            st.radiotext
                .map(|r| r.to_string().trim_end().to_owned())
                .unwrap_or_default(),
            st.pty.map_or("-".into(), |p| p.to_string()),
            st.good_blocks,
            st.corrected_blocks,
            st.bad_blocks
        );
    }
    if summary.overflows > 0 {
        println!(
            "{} overflows: the device lost samples while the receiver did not keep up",
            summary.overflows
        );
    }
    if let Some(device) = &a.audio {
        println!(
            "played the audio on ALSA device '{device}' at {} Hz",
            plan.wav_rate
        );
    }
    if let Some(wav) = &a.wav {
        println!(
            "wrote {} ({} frames at {} Hz{})",
            wav.display(),
            summary.audio_frames,
            plan.wav_rate,
            if summary.clipped > 0 {
                format!(", {} samples clipped", summary.clipped)
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// What `radioflow fm` does around the receiver's run: probes and the control port when
/// asked for, the progress line, the RDS lines.
struct Watch<'a> {
    /// Ctrl-C and SIGTERM end the run as the end of its input would.
    interrupt: &'a Interrupt,
    control: &'a crate::control::ControlArgs,
    /// The station's offset: the initial value of `channel.centre` on the page.
    offset: f64,
    probes: Vec<Probe>,
    handle: Option<ControlHandle>,
    sample_rate: f64,
    /// The rate of both probed outputs (the channel and the multiplex).
    mpx_rate: f64,
    /// The run has no known length (a recording read again and again, a device until
    /// stopped): the progress is in seconds only.
    open_ended: bool,
    /// Whether a progress line was printed (and needs its newline).
    shown: bool,
    last: u64,
}

impl Observer for Watch<'_> {
    fn prepare(&mut self, fg: &mut Flowgraph, _: &ReceiverGraph) -> Result<(), BoxError> {
        if self.control.enabled() {
            let probes = PROBES.map(|p| (p, self.mpx_rate));
            self.probes = self.control.add_probes_with(fg, &probes)?;
            // Shares of time on the page (two TSC reads per work call).
            fg.set_counters(radioflow_runtime::Counters::Timed);
        }
        Ok(())
    }

    fn started(&mut self, fg: &Flowgraph) -> Result<(), BoxError> {
        let params = vec![(
            "channel".to_owned(),
            "centre".to_owned(),
            serde_json::json!(self.offset),
        )];
        self.handle = self
            .control
            .serve(fg, std::mem::take(&mut self.probes), params)?;
        Ok(())
    }

    fn progress(&mut self, p: Progress) {
        if p.samples == self.last {
            return; // the input is read; the rest of the graph is finishing
        }
        self.last = p.samples;
        let seconds = p.samples as f64 / self.sample_rate;
        if self.open_ended {
            eprint!("\r  {seconds:.1} s");
        } else {
            eprint!(
                "\r  {:5.1}%  {seconds:.1} s of {:.1} s",
                100.0 * p.samples as f64 / p.total.max(1) as f64,
                p.total as f64 / self.sample_rate
            );
        }
        std::io::stderr().flush().ok();
        self.shown = true;
    }

    fn should_stop(&mut self) -> bool {
        self.interrupt.caught()
    }

    fn rds(&mut self, m: &Pmt) {
        if let Some(line) = rds_line(m) {
            // On its own line, after the progress line ("\r..." on stderr).
            eprint!("\r");
            println!("{line}");
        }
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One RDS change as a line (`RDS PS: "RADIOFLW"`), or nothing for sync changes.
fn rds_line(m: &Pmt) -> Option<String> {
    let (key, value) = m.as_dict()?.first()?;
    let value = match (key.as_symbol()?, value) {
        ("pi", v) => format!("{:04X}", v.as_i64()?),
        ("pty", v) => v.as_i64()?.to_string(),
        ("ps" | "radiotext", v) => format!("{:?}", v.as_symbol()?),
        ("sync", v) => if v.as_bool()? { "acquired" } else { "lost" }.to_owned(),
        _ => return None,
    };
    Some(format!("RDS {}: {value}", key.as_symbol()?.to_uppercase()))
}
