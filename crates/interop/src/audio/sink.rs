//! [`AudioSink`]: float streams played on a sound card.

use super::error::AudioError;
use super::frames::Frames;
use super::pcm::{self, Pcm};
use alsa::Direction;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Plays float streams (one per channel, ±1.0 full scale) on an ALSA device, like GNU Radio's
/// `audio.sink` on Linux (its ALSA sink). `device` is an ALSA PCM name (`hw:0,0`,
/// `plughw:1,0`, `pulse`, a PCM of the ALSA configuration); empty is
/// `RADIOFLOW_AUDIO_DEVICE`, else `default`. The device plays at `sample_rate` exactly or the
/// block fails naming the rate it offers (a `plughw:`/`default` device resamples).
///
/// With `ok_to_block` (GNU Radio's default) the block waits for the device (at most 10 ms at a
/// time, so that a stop is seen): the sound card's clock paces the graph. Without it, what the device has no room for is dropped (counted,
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
    frames: Option<Frames>,
    underruns: u64,
    dropped: u64,
}

impl std::fmt::Debug for AudioSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioSink")
            .field("device", &self.device)
            .field("sample_rate", &self.sample_rate)
            .finish()
    }
}

#[block(blocking, paced)]
impl AudioSink {
    /// A sink of `num_inputs` streams (at least 1) on `device` (opened when the run starts).
    pub fn new(sample_rate: u32, device: &str, ok_to_block: bool, num_inputs: usize) -> Self {
        Self {
            inputs: (0..num_inputs.max(1)).map(|_| StreamInput::new()).collect(),
            device: pcm::device_or_default(device),
            sample_rate,
            ok_to_block,
            pcm: None,
            frames: None,
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
        self.frames = Some(Frames::for_device(&p));
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
        let frames = self.frames.as_mut().expect("made at start");
        // Channel c plays input c, the last input where the device has more channels.
        for k in 0..n {
            for c in 0..ch {
                frames.set(k * ch + c, self.inputs[c.min(last)].slice()[k]);
            }
        }
        // Frames played or dropped: the inputs' items taken.
        let mut at = 0;
        while at < n {
            // At most 10 ms at a time for room in the device, so that a stop is seen however
            // slow it is: what is not written yet is taken again next call. A device in an
            // underrun fails the wait: the write below recovers it.
            let ready = p.pcm.wait(Some(10)).unwrap_or(true);
            if !ready && self.ok_to_block {
                break;
            }
            match frames.write(&p.pcm, at * ch..n * ch) {
                Ok(k) => at += k,
                Err(e) if e.errno() == libc::EAGAIN => {
                    self.dropped += (n - at) as u64;
                    at = n;
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
            i.consume(at);
        }
        Ok(WorkStatus::Continue)
    }
}
