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
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// Power per bin in dB.
    Spectrum(SpectrumOptions),
    /// Real and imaginary parts against the sample index.
    Time,
    /// Imaginary against real part.
    Constellation,
}

impl View {
    /// Parses `spectrum` (with the default [`SpectrumOptions`]), `time` or `constellation`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "spectrum" => Some(Self::Spectrum(SpectrumOptions::default())),
            "time" => Some(Self::Time),
            "constellation" => Some(Self::Constellation),
            _ => None,
        }
    }
}

/// How a spectrum is computed. The default: the whole frame, Blackman window, the bins'
/// powers adding up to the frame's ([`Spectrum::new`]). With a `window`, the scale of GNU
/// Radio's QT frequency and waterfall sinks ([`Spectrum::gnuradio`]), so a flowgraph's
/// displays read the levels they read in GNU Radio.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpectrumOptions {
    /// Bins: the frame's latest `fft` samples (at most the probe's frame size).
    pub fft: Option<usize>,
    /// The window, on GNU Radio's QT sinks' scale.
    pub window: Option<Window>,
    /// The window divided by its root mean square (the sinks' `norm_window`).
    pub normalize: bool,
}

impl SpectrumOptions {
    /// GNU Radio's `fft.window.win_type` number as the QT sinks offer it (their GRC
    /// `wintype`): Hamming 0, Hann 1, Blackman 2, rectangular 3, Kaiser 4 (GNU Radio's shape
    /// 6.76), Blackman-Harris 5, flat-top 7.
    pub fn gnuradio_window(code: i64) -> Option<Window> {
        Some(match code {
            0 => Window::Hamming,
            1 => Window::Hann,
            2 => Window::Blackman,
            3 => Window::Rectangular,
            4 => Window::Kaiser { beta: 6.76 },
            5 => Window::BlackmanHarris,
            7 => Window::FlatTop,
            _ => return None,
        })
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
    /// A waterfall of a PDU: `y` holds this many spectra of `x.len()` bins, row by row (0
    /// otherwise).
    #[serde(skip_serializing_if = "is_zero")]
    pub rows: usize,
    /// Why nothing is plotted (a PDU of another type than the sink takes); empty otherwise.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Time: the stream tags on the frame's samples.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<TagData>,
}

/// A stream tag as the page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TagData {
    /// The tagged sample's index in the frame.
    pub at: usize,
    /// The key, as GNU Radio prints it.
    pub key: String,
    /// The value, as GNU Radio prints it.
    pub value: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Spectrum plans a probe keeps at most (a page asking for many sizes or windows makes new
/// ones, the oldest dropped).
const PLANS: usize = 4;

/// A probe with its spectrum plans and its cached views.
#[derive(Debug)]
pub(crate) struct ProbeState {
    /// The probe.
    pub(crate) probe: Probe,
    plans: Vec<(SpectrumOptions, Spectrum)>,
    cache: Vec<(View, u64, ProbeData)>,
}

impl ProbeState {
    /// The state of `probe`.
    pub(crate) fn new(probe: Probe) -> Self {
        Self {
            probe,
            plans: Vec::new(),
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
        // The frame and its tags together (the probe swaps both only when it holds both).
        let (samples, tags) = {
            let samples = self.probe.frame.samples.lock();
            let tags = self.probe.frame.tags.lock();
            (
                samples.map(|s| s.clone()).unwrap_or_default(),
                tags.map(|t| t.clone()).unwrap_or_default(),
            )
        };
        let mut d = ProbeData {
            id: self.probe.id.clone(),
            frames,
            skipped: self.probe.frame.skipped.load(Relaxed),
            ..ProbeData::default()
        };
        match view {
            View::Spectrum(options) => {
                let fft = options.fft.unwrap_or(samples.len()).min(samples.len());
                let frame = &samples[samples.len() - fft..];
                if let Some(s) = self.plan(options, fft) {
                    let mut db = vec![0.0; fft];
                    s.process(frame, &mut db);
                    let half = (fft / 2) as f32;
                    let (step, unit) = match self.probe.config.sample_rate {
                        Some(rate) => ((rate / fft as f64) as f32, "Hz"),
                        None => (1.0, "bin"),
                    };
                    d.x = (0..db.len()).map(|k| (k as f32 - half) * step).collect();
                    d.x_unit = unit;
                    // JSON has no -inf: an empty bin reads as a very low power.
                    d.y = db.into_iter().map(|v| v.max(-300.0)).collect();
                }
            }
            View::Time => {
                d.tags = tags
                    .iter()
                    .map(|t| TagData {
                        at: t.at,
                        key: t.key.to_string(),
                        value: t.value.to_string(),
                    })
                    .collect();
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
        if self.cache.len() == 2 * PLANS {
            self.cache.remove(0);
        }
        self.cache.push((view, frames, d.clone()));
        d
    }

    /// The spectrum plan for `options` over `fft` bins (`None` for an empty frame).
    fn plan(&mut self, options: SpectrumOptions, fft: usize) -> Option<&mut Spectrum> {
        let key = SpectrumOptions {
            fft: Some(fft),
            ..options
        };
        let at = match self.plans.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let plan = match options.window {
                    Some(w) => Spectrum::gnuradio(fft, w, options.normalize, true),
                    None => Spectrum::new(fft, Window::Blackman, true),
                }
                .ok()?;
                if self.plans.len() == PLANS {
                    self.plans.remove(0);
                }
                self.plans.push((key, plan));
                self.plans.len() - 1
            }
        };
        Some(&mut self.plans[at].1)
    }
}
