//! [`AudioSource`]: float streams recorded from a sound card.

use super::error::AudioError;
use super::frames::Frames;
use super::pcm::{self, Pcm};
use alsa::Direction;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Records float streams (one per channel, ±1.0 full scale) from an ALSA device, like GNU
/// Radio's `audio.source` on Linux (its ALSA source). `device` is an ALSA PCM name; empty is
/// `RADIOFLOW_AUDIO_DEVICE`, else `default`. The device records at `sample_rate` exactly or
/// the block fails naming the rate it offers.
///
/// With `ok_to_block` (GNU Radio's default) the device is opened blocking, without it
/// non-blocking; either way the block waits for it at most 10 ms at a time, so that a stop is
/// seen however slow the device. An overrun
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
#[param(ok_to_block: bool = true, doc = "open the device blocking (GNU Radio's default)")]
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
    frames: Option<Frames>,
    overruns: u64,
}

impl std::fmt::Debug for AudioSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioSource")
            .field("device", &self.device)
            .field("sample_rate", &self.sample_rate)
            .finish()
    }
}

#[block(blocking, paced)]
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
            frames: None,
            overruns: 0,
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        let p = pcm::open(
            "audio_source",
            &self.device,
            Direction::Capture,
            self.outputs.len(),
            self.sample_rate,
            !self.ok_to_block,
        )?;
        self.frames = Some(Frames::for_device(&p));
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
        // At most 10 ms at a time for the device, so that a stop is seen however slow it is;
        // a device in an overrun fails the wait, and the read below recovers it.
        if !p.pcm.wait(Some(10)).unwrap_or(true) {
            return Ok(WorkStatus::Continue);
        }
        let ch = p.channels;
        let frames = self.frames.as_mut().expect("made at start");
        let read = frames.read(&p.pcm, n * ch);
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
        let frames = self.frames.as_ref().expect("made at start");
        for (c, out) in self.outputs.iter_mut().enumerate() {
            let o = out.slice();
            for (k, y) in o[..got].iter_mut().enumerate() {
                *y = frames.get(k * ch + c);
            }
            out.produce(got);
        }
        Ok(WorkStatus::Continue)
    }
}
