//! [`AudioSink`]: float streams played on a sound card.

use super::error::AudioError;
use super::pcm::{self, Pcm, SampleFormat};
use alsa::Direction;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Plays float streams (one per channel, ±1.0 full scale) on an ALSA device, like GNU Radio's
/// `audio.sink` on Linux (its ALSA sink). `device` is an ALSA PCM name (`hw:0,0`,
/// `plughw:1,0`, `pulse`, a PCM of the ALSA configuration); empty is
/// `RADIOFLOW_AUDIO_DEVICE`, else `default`. The device plays at `sample_rate` exactly or the
/// block fails naming the rate it offers (a `plughw:`/`default` device resamples).
///
/// With `ok_to_block` (GNU Radio's default) the block waits for the device: the sound card's
/// clock paces the graph. Without it, what the device has no room for is dropped (counted,
/// and reported when the run stops): the graph runs at its own pace, for a sink beside a
/// radio whose clock must not be slowed. An underrun (the graph too slow for the device;
/// GNU Radio prints `aU`) is counted, and playing goes on.
///
/// A device with more channels than the block has inputs plays the last input on the other
/// channels too (mono on both sides of a stereo card). Samples are written as floats where
/// the device takes them, else as 32- or 16-bit integers (clipped at ±1.0).
///
/// Blocking: yes (the device).
#[library_block(
    id = "audio_sink",
    summary = "Plays float streams (one per channel) on a sound card through ALSA, like GNU Radio's audio.sink.",
    dtypes = [Float32],
    make = Ok::<_, Refused>(Self::new(sample_rate, &device, ok_to_block, num_inputs))
)]
#[param(sample_rate: u32 = 48_000, min = 1, doc = "samples per second of each channel")]
#[param(device: String = "", doc = "an ALSA PCM name; empty: RADIOFLOW_AUDIO_DEVICE, else default")]
#[param(ok_to_block: bool = true, doc = "wait for the device (else drop what it has no room for)")]
#[param(num_inputs: usize = 1, min = 1, doc = "streams (channels)")]
pub struct AudioSink {
    /// One stream per channel (ports in0..).
    #[input(name = "in")]
    inputs: Vec<StreamInput<f32>>,
    device: String,
    sample_rate: u32,
    ok_to_block: bool,
    pcm: Option<Pcm>,
    /// Interleaved frames of one period, in the device's format (made at start).
    frames: Frames,
    underruns: u64,
    dropped: u64,
}

/// A period's interleaved samples, in the format the device takes.
#[derive(Debug, Default)]
enum Frames {
    #[default]
    None,
    F32(Vec<f32>),
    S32(Vec<i32>),
    S16(Vec<i16>),
}

impl std::fmt::Debug for AudioSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioSink")
            .field("device", &self.device)
            .field("sample_rate", &self.sample_rate)
            .finish()
    }
}

#[block(blocking)]
impl AudioSink {
    /// A sink of `num_inputs` streams (at least 1) on `device` (opened when the run starts).
    pub fn new(sample_rate: u32, device: &str, ok_to_block: bool, num_inputs: usize) -> Self {
        Self {
            inputs: (0..num_inputs.max(1)).map(|_| StreamInput::new()).collect(),
            device: pcm::device_or_default(device),
            sample_rate,
            ok_to_block,
            pcm: None,
            frames: Frames::None,
            underruns: 0,
            dropped: 0,
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let p = pcm::open(
            "audio_sink",
            &self.device,
            Direction::Playback,
            self.inputs.len(),
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
            // What was written plays out before the device closes (not when dropping).
            if self.ok_to_block {
                p.pcm.drain().ok();
            }
        }
        if self.underruns > 0 || self.dropped > 0 {
            tracing::warn!(
                device = %self.device,
                "audio_sink: {} underruns (the graph was late for the device), {} frames dropped (no room, ok_to_block off)",
                self.underruns,
                self.dropped
            );
        }
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let Some(p) = self.pcm.as_ref() else {
            return Ok(WorkStatus::Done);
        };
        let n = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0)
            .min(p.period);
        if n == 0 {
            // Ended when an input with nothing left will get nothing more.
            return Ok(
                if self
                    .inputs
                    .iter_mut()
                    .any(|i| i.is_finished() && i.slice().is_empty())
                {
                    WorkStatus::Done
                } else {
                    WorkStatus::Continue
                },
            );
        }
        let ch = p.channels;
        let last = self.inputs.len() - 1;
        // Channel c plays input c, the last input where the device has more channels.
        let sample =
            |inputs: &[StreamInput<f32>], k: usize, c: usize| inputs[c.min(last)].slice()[k];
        match &mut self.frames {
            Frames::F32(buf) => {
                for k in 0..n {
                    for c in 0..ch {
                        buf[k * ch + c] = sample(&self.inputs, k, c);
                    }
                }
            }
            Frames::S32(buf) => {
                for k in 0..n {
                    for c in 0..ch {
                        buf[k * ch + c] = pcm::to_int::<32>(sample(&self.inputs, k, c)) as i32;
                    }
                }
            }
            Frames::S16(buf) => {
                for k in 0..n {
                    for c in 0..ch {
                        buf[k * ch + c] = pcm::to_int::<16>(sample(&self.inputs, k, c)) as i16;
                    }
                }
            }
            Frames::None => unreachable!("made at start"),
        }
        let mut at = 0;
        while at < n {
            let written = match &self.frames {
                Frames::F32(b) => p.pcm.io_f32().and_then(|io| io.writei(&b[at * ch..n * ch])),
                Frames::S32(b) => p.pcm.io_i32().and_then(|io| io.writei(&b[at * ch..n * ch])),
                Frames::S16(b) => p.pcm.io_i16().and_then(|io| io.writei(&b[at * ch..n * ch])),
                Frames::None => unreachable!("made at start"),
            };
            match written {
                Ok(k) => at += k,
                Err(e) if e.errno() == libc::EAGAIN => {
                    self.dropped += (n - at) as u64;
                    break;
                }
                Err(e) if e.errno() == libc::EPIPE => {
                    self.underruns += 1;
                    p.pcm.prepare().map_err(|e| AudioError {
                        block: "audio_sink",
                        device: self.device.clone(),
                        message: format!("after an underrun: {e}"),
                    })?;
                }
                Err(e) => {
                    return Err(AudioError {
                        block: "audio_sink",
                        device: self.device.clone(),
                        message: format!("writing: {e}"),
                    }
                    .into());
                }
            }
        }
        for i in &mut self.inputs {
            i.consume(n);
        }
        Ok(WorkStatus::Continue)
    }
}
