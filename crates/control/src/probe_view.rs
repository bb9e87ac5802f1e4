//! What the page plots from a probe's frame: the spectrum (dB per bin, DC in the middle,
//! radioflow-dsp's [`Spectrum`]), the time plot (real and imaginary parts) or the
//! constellation (the same points as x/y). Computed on the control port's thread, at most once
//! per probe interval however many clients ask (the result is cached).

use crate::probe::Probe;
use radioflow_dsp::firdes::Window;
use radioflow_dsp::Spectrum;
use serde::Serialize;
use std::sync::atomic::Ordering::Relaxed;

/// The views a probe has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Power per bin in dB.
    Spectrum,
    /// Real and imaginary parts against the sample index.
    Time,
    /// Imaginary against real part.
    Constellation,
}

impl View {
    /// Parses `spectrum`, `time` or `constellation`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "spectrum" => Some(Self::Spectrum),
            "time" => Some(Self::Time),
            "constellation" => Some(Self::Constellation),
            _ => None,
        }
    }
}

/// One view of a probe's latest frame.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProbeData {
    /// The probe.
    pub id: String,
    /// Frames the probe has published so far.
    pub frames: u64,
    /// Frames skipped because the control port held the previous one.
    pub skipped: u64,
    /// Spectrum: frequency from `-size/2` bins (in Hz when the probe's rate is known, see
    /// `x_unit`); time: sample index; constellation: real parts.
    pub x: Vec<f32>,
    /// What `x` counts: `Hz` or `bin` (spectrum), `sample` (time), `I` (constellation).
    pub x_unit: &'static str,
    /// Spectrum: dB; time and constellation: real (time) or imaginary (constellation) parts.
    pub y: Vec<f32>,
    /// Time: imaginary parts; empty otherwise.
    pub y2: Vec<f32>,
}

/// A probe with its spectrum plan and its cached views.
#[derive(Debug)]
pub(crate) struct ProbeState {
    /// The probe.
    pub(crate) probe: Probe,
    spectrum: Option<Spectrum>,
    cache: Vec<(View, u64, ProbeData)>,
}

impl ProbeState {
    /// The state of `probe`.
    pub(crate) fn new(probe: Probe) -> Self {
        Self {
            spectrum: Spectrum::new(probe.config.size, Window::Blackman, true).ok(),
            probe,
            cache: Vec::new(),
        }
    }

    /// `view` of the latest frame (cached until a new frame arrives).
    pub(crate) fn view(&mut self, view: View) -> ProbeData {
        let frames = self.probe.frame.frames.load(Relaxed);
        if let Some((_, _, d)) = self
            .cache
            .iter()
            .find(|(v, f, _)| *v == view && *f == frames)
        {
            return d.clone();
        }
        let samples = self
            .probe
            .frame
            .samples
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default();
        let mut d = ProbeData {
            id: self.probe.id.clone(),
            frames,
            skipped: self.probe.frame.skipped.load(Relaxed),
            ..ProbeData::default()
        };
        match view {
            View::Spectrum => {
                if let Some(s) = self.spectrum.as_mut().filter(|s| s.size() == samples.len()) {
                    let mut db = vec![0.0; samples.len()];
                    s.process(&samples, &mut db);
                    let half = (samples.len() / 2) as f32;
                    let (step, unit) = match self.probe.config.sample_rate {
                        Some(rate) => ((rate / samples.len() as f64) as f32, "Hz"),
                        None => (1.0, "bin"),
                    };
                    d.x = (0..db.len()).map(|k| (k as f32 - half) * step).collect();
                    d.x_unit = unit;
                    // JSON has no -inf: an empty bin reads as a very low power.
                    d.y = db.into_iter().map(|v| v.max(-300.0)).collect();
                }
            }
            View::Time => {
                d.x_unit = "sample";
                d.x = (0..samples.len()).map(|k| k as f32).collect();
                d.y = samples.iter().map(|c| c.re).collect();
                d.y2 = samples.iter().map(|c| c.im).collect();
            }
            View::Constellation => {
                d.x_unit = "I";
                d.x = samples.iter().map(|c| c.re).collect();
                d.y = samples.iter().map(|c| c.im).collect();
            }
        }
        self.cache.retain(|(v, _, _)| *v != view);
        self.cache.push((view, frames, d.clone()));
        d
    }
}
