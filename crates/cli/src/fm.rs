//! `radioflow fm`: an FM broadcast station from an IQ recording to a WAV file (the receiver
//! is `radioflow_fm`; this parses the options and prints progress and the summary).

use anyhow::bail;
use clap::Args;
use radioflow_blocks::SampleFormat;
use radioflow_fm::{Receiver, ReceiverConfig};
use radioflow_runtime::SchedulerSpec;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub(crate) struct FmArgs {
    /// The IQ recording.
    #[arg(long)]
    input: PathBuf,
    /// Its sample format: cf32, cs16, cu8 (rtl_sdr) or cs8.
    #[arg(long, value_parser = clap::value_parser!(SampleFormat))]
    format: SampleFormat,
    /// Its sample rate in samples/s (2.4e6 accepted).
    #[arg(long)]
    rate: f64,
    /// The station's frequency relative to the recording's centre, Hz (negative below).
    #[arg(long, allow_hyphen_values = true)]
    offset: f64,
    /// Write the audio to this WAV file (16-bit, 48 kHz); without it the audio is dropped.
    #[arg(long)]
    wav: Option<PathBuf>,
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
}

pub(crate) fn main(a: FmArgs) -> anyhow::Result<()> {
    let deemphasis = match a.deemphasis {
        0 => None,
        50 | 75 => Some(f64::from(a.deemphasis) * 1e-6),
        other => bail!("invalid --deemphasis: {other} (use 50, 75 or 0 for none)"),
    };
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    let mut config = ReceiverConfig::new(&a.input, a.format, a.rate, a.offset);
    config.wav = a.wav.clone();
    config.stereo = !a.mono;
    config.deemphasis = deemphasis;
    let rx = Receiver::new(config)?;
    if a.rds {
        eprintln!("RDS decoder not available yet: decoding audio only");
    }
    let plan = rx.plan();
    eprintln!(
        "{}: {} samples ({:.1} s), station at {:+} Hz; multiplex at {} Hz, audio at {} Hz, {}",
        a.input.display(),
        rx.samples(),
        rx.samples() as f64 / plan.sample_rate,
        plan.offset,
        plan.mpx_rate,
        plan.wav_rate,
        if a.mono { "mono" } else { "stereo" }
    );
    let mut shown = false;
    let mut last = 0;
    let summary = rx.run(scheduler.as_ref(), Duration::from_secs(1), |p| {
        if p.samples == last {
            return; // the input is read; the rest of the graph is finishing
        }
        last = p.samples;
        let seconds = p.samples as f64 / plan.sample_rate;
        eprint!(
            "\r  {:5.1}%  {seconds:.1} s of {:.1} s",
            100.0 * p.samples as f64 / p.total.max(1) as f64,
            p.total as f64 / plan.sample_rate
        );
        std::io::stderr().flush().ok();
        shown = true;
    })?;
    if shown {
        eprintln!();
    }
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
