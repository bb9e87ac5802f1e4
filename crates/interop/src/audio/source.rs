//! [`AudioSource`]: float streams recorded from a sound card.

use super::error::AudioError;
use super::pcm::{self, Pcm, SampleFormat};
use alsa::Direction;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Records float streams (one per channel, ±1.0 full scale) from an ALSA device, like GNU
/// Radio's `audio.source` on Linux (its ALSA source). `device` is an ALSA PCM name; empty is
/// `RADIOFLOW_AUDIO_DEVICE`, else `default`. The device records at `sample_rate` exactly or
/// the block fails naming the rate it offers.
///
/// With `ok_to_block` (GNU Radio's default) the block waits for the device; without it, it
/// waits at most 10 ms at a time, so that a stop is seen however slow the device. An overrun
/// (the graph too slow: the device lost samples; GNU Radio prints `aO`) is counted, reported
/// when the run stops, and recording goes on. A device with more channels than the block has
/// outputs records them all and the block keeps the first ones.
///
/// Blocking: yes (the device).
#[library_block(
    id = "audio_source",
    summary = "Records float streams (one per channel) from a sound card through ALSA, like GNU Radio's audio.source.",
    dtypes = [Float32],
    make = Ok::<_, Refused>(Self::new(sample_rate, &device, ok_to_block, num_outputs))
)]
#[param(sample_rate: u32 = 48_000, min = 1, doc = "samples per second of each channel")]
#[param(device: String = "", doc = "an ALSA PCM name; empty: RADIOFLOW_AUDIO_DEVICE, else default")]
#[param(ok_to_block: bool = true, doc = "wait for the device as long as it takes")]
#[param(num_outputs: usize = 1, min = 1, doc = "streams (channels)")]
pub struct AudioSource {
    /// One stream per channel (ports out0..).
    #[output(name = "out")]
    outputs: Vec<StreamOutput<f32>>,
    device: String,
    sample_rate: u32,
    ok_to_block: bool,
    pcm: Option<Pcm>,
    /// Interleaved frames of one period, in the device's format (made at start).
    frames: Frames,
    overruns: u64,
}

/// A period's interleaved samples, in the format the device gives.
#[derive(Debug, Default)]
enum Frames {
    #[default]
    None,
    F32(Vec<f32>),
    S32(Vec<i32>),
    S16(Vec<i16>),
}

impl std::fmt::Debug for AudioSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioSource")
            .field("device", &self.device)
            .field("sample_rate", &self.sample_rate)
            .finish()
    }
}

#[block(blocking)]
impl AudioSource {
    /// A source of `num_outputs` streams (at least 1) from `device` (opened when the run
    /// starts).
    pub fn new(sample_rate: u32, device: &str, ok_to_block: bool, num_outputs: usize) -> Self {
        Self {
            outputs: (0..num_outputs.max(1))
                .map(|_| StreamOutput::new())
                .collect(),
            device: pcm::device_or_default(device),
            sample_rate,
            ok_to_block,
            pcm: None,
            frames: Frames::None,
            overruns: 0,
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        // Without ok_to_block the device is opened non-blocking and each read waits at most 10 ms
        // for it (below), so that a stop is seen.
        let p = pcm::open(
            "audio_source",
            &self.device,
            Direction::Capture,
            self.outputs.len(),
            self.sample_rate,
            !self.ok_to_block,
        )?;
        let n = p.period * p.channels;
        self.frames = match p.format {
            SampleFormat::F32 => Frames::F32(vec![0.0; n]),
            SampleFormat::S32 => Frames::S32(vec![0; n]),
            SampleFormat::S16 => Frames::S16(vec![0; n]),
        };
        self.pcm = Some(p);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some(p) = self.pcm.take() {
            p.pcm.drop().ok();
        }
        if self.overruns > 0 {
            tracing::warn!(
                device = %self.device,
                "audio_source: {} overruns (the graph was late: the device lost samples)",
                self.overruns
            );
        }
        Ok(())
    }

    fn error(&self, message: String) -> AudioError {
        AudioError {
            block: "audio_source",
            device: self.device.clone(),
            message,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let Some(p) = self.pcm.as_ref() else {
            return Ok(WorkStatus::Done);
        };
        if self.outputs.iter().all(|o| o.readers_gone()) {
            return Ok(WorkStatus::Done);
        }
        let n = self
            .outputs
            .iter_mut()
            .map(|o| o.slice().len())
            .min()
            .unwrap_or(0)
            .min(p.period);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        if !self.ok_to_block {
            let ready = p
                .pcm
                .wait(Some(10))
                .map_err(|e| self.error(format!("waiting: {e}")))?;
            if !ready {
                return Ok(WorkStatus::Continue);
            }
        }
        let ch = p.channels;
        let read = match &mut self.frames {
            Frames::F32(b) => p.pcm.io_f32().and_then(|io| io.readi(&mut b[..n * ch])),
            Frames::S32(b) => p.pcm.io_i32().and_then(|io| io.readi(&mut b[..n * ch])),
            Frames::S16(b) => p.pcm.io_i16().and_then(|io| io.readi(&mut b[..n * ch])),
            Frames::None => unreachable!("made at start"),
        };
        let got = match read {
            Ok(k) => k,
            Err(e) if e.errno() == libc::EAGAIN => 0,
            Err(e) if e.errno() == libc::EPIPE => {
                self.overruns += 1;
                p.pcm
                    .prepare()
                    .map_err(|e| self.error(format!("after an overrun: {e}")))?;
                0
            }
            Err(e) => return Err(self.error(format!("reading: {e}")).into()),
        };
        for (c, out) in self.outputs.iter_mut().enumerate() {
            let o = out.slice();
            match &self.frames {
                Frames::F32(b) => (0..got).for_each(|k| o[k] = b[k * ch + c]),
                Frames::S32(b) => {
                    (0..got).for_each(|k| o[k] = pcm::from_int::<32>(i64::from(b[k * ch + c])))
                }
                Frames::S16(b) => {
                    (0..got).for_each(|k| o[k] = pcm::from_int::<16>(i64::from(b[k * ch + c])))
                }
                Frames::None => unreachable!("made at start"),
            }
            out.produce(got);
        }
        Ok(WorkStatus::Continue)
    }
}
