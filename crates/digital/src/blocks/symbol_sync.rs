//! [`SymbolSync`]: GNU Radio's symbol synchronizer (`symbol_sync_cc`/`_ff`).

use crate::Constellation;
use num_complex::Complex32;
use radioflow_dsp::{
    ResamplerKind, SymbolSync as Kernel, SymbolSyncConfig, SyncSample, SyncState, SyncTag, TedKind,
};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Symbol timing recovery by an interpolating resampler steered by a timing error detector
/// and a second-order loop, as GNU Radio's `symbol_sync_cc` (complex samples) and
/// `symbol_sync_ff` (real): `osps` outputs per symbol, the detector any of GNU Radio's
/// (`ted_gardner`, `ted_mueller_and_muller`, …; the decision-directed ones slice with
/// `constellation`), the resampler the 8-tap MMSE interpolator, a bank of `nfilters` MMSE
/// filters or a bank of `nfilters` arms of the matched filter `pfb_mf_taps` (kernel:
/// [`radioflow_dsp::SymbolSync`]). The optional outputs give, for each output, the
/// detector's error, the instantaneous and the average clock period (samples per symbol).
/// Every tag moves, on each connected output, to the first output whose interpolation
/// instant (plus half an output period, past the filter's delay) it does not follow, as GNU
/// Radio places it.
/// A `time_est` tag (the symbol instant, in samples from the tagged one, within ±1) or a
/// `clock_est` tag (a tuple: that instant and the clock period) restarts the loop there,
/// as GNU Radio does (GNU Radio sees such a tag only while it is before the last `ntaps`
/// samples of its work call's input, so near its buffer boundaries it may act an
/// interpolant later or not at all; here it always acts where it falls).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::SymbolSync;
/// use radioflow_runtime::Flowgraph;
///
/// let x: Vec<f32> = (0..400).map(|n| if (n / 4) % 2 == 0 { 1.0 } else { -1.0 }).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x));
/// let sync = fg.add(SymbolSync::<f32>::new(
///     "ted_gardner".parse()?, 4.0, 0.045, 1.0, 1.0, 1.5, 1,
///     "bpsk".parse()?, "ir_mmse_8tap".parse()?, 128, &[],
/// )?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, sync)?;
/// fg.connect(sync, sink)?;
/// fg.run()?;
/// // One output per 4 inputs, less the interpolator's window at the end.
/// assert!(fg.block::<VectorSink<f32>>(sink).unwrap().data().len() > 95);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "symbol_sync",
    summary = "Symbol timing recovery by a timing error detector and an interpolating resampler (GNU Radio's symbol_sync_cc/_ff).",
    dtypes = [Complex32, Float32],
    make = Self::new(ted_type, sps, loop_bw, damping, ted_gain, max_dev, osps, constellation, resamp_type, nfilters, &pfb_mf_taps)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(ted_type: TedKind, words = ["ted_mueller_and_muller", "ted_mod_mueller_and_muller", "ted_zero_crossing", "ted_gardner", "ted_early_late", "ted_dandrea_and_mengali_gen_msk", "ted_mengali_and_dandrea_gmsk", "ted_signal_times_slope_ml", "ted_signum_times_slope_ml"], doc = "the timing error detector")]
#[param(sps: f32, example = 4.0, doc = "nominal input samples per symbol (above 1)")]
#[param(loop_bw: f32 = 0.045, doc = "the loop's normalized natural frequency ω_n·T (at least 0)")]
#[param(damping: f32 = 1.0, doc = "the loop's damping factor (at least 0; 1 is critical)")]
#[param(ted_gain: f32 = 1.0, doc = "the detector's expected gain, its S-curve's slope (above 0)")]
#[param(max_dev: f32 = 1.5, doc = "the largest deviation of the average period from sps, in samples")]
#[param(osps: usize = 1, min = 1, doc = "outputs per symbol")]
#[param(constellation: Constellation = "bpsk", doc = "the decision-directed detectors' slicer (one complex number per symbol)")]
#[param(resamp_type: ResamplerKind = "ir_mmse_8tap", doc = "the interpolating resampler: ir_mmse_8tap, ir_pfb_no_mf (nfilters MMSE filters) or ir_pfb_mf (nfilters arms of pfb_mf_taps, which it needs)")]
#[param(nfilters: usize = 128, doc = "arms of a filter-bank resampler (at least 2)")]
#[param(pfb_mf_taps: &[f32] = [], doc = "the matched filter's prototype at nfilters times the sample rate (for ir_pfb_mf)")]
pub struct SymbolSync<T: SyncSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// `osps` samples per symbol, at the symbols' timing.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// The detector's error, per output (optional).
    #[output(name = "error")]
    error: StreamOutput<f32>,
    /// The instantaneous clock period, per output (optional).
    #[output(name = "t_inst")]
    t_inst: StreamOutput<f32>,
    /// The average clock period, per output (optional).
    #[output(name = "t_avg")]
    t_avg: StreamOutput<f32>,
    kernel: Kernel<T>,
    /// Each output's diagnostics, before they go to the optional outputs.
    state: Vec<SyncState>,
    /// Input offset below which every tag is placed.
    tags_done: u64,
    /// The current window's `time_est` and `clock_est` tags.
    sync: Vec<SyncTag>,
}

impl<T: SyncSample + Item> std::fmt::Debug for SymbolSync<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SymbolSync")
            .field("kernel", &self.kernel)
            .finish()
    }
}

/// Outputs one work call makes at most (the diagnostics' scratch length).
const CHUNK: usize = 4096;

#[block]
impl<T: SyncSample + Item> SymbolSync<T> {
    /// GNU Radio's `symbol_sync_xx(ted_type, sps, loop_bw, damping, ted_gain, max_dev,
    /// osps, constellation, resamp_type, nfilters, pfb_mf_taps)`.
    ///
    /// # Errors
    /// A parameter out of range, named: `sps` not above 1, `loop_bw` or `damping` negative,
    /// `ted_gain` not above 0, `nfilters` below 2 for a bank, fewer `pfb_mf_taps` than
    /// `nfilters`, or a `constellation` of more than one number per symbol.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ted_type: TedKind,
        sps: f32,
        loop_bw: f32,
        damping: f32,
        ted_gain: f32,
        max_dev: f32,
        osps: usize,
        constellation: Constellation,
        resamp_type: ResamplerKind,
        nfilters: usize,
        pfb_mf_taps: &[f32],
    ) -> Result<Self, radioflow_dsp::ParamError> {
        if constellation.dimensionality() != 1 {
            return Err(radioflow_dsp::ParamError::new(
                "constellation",
                format!(
                    "has {} complex numbers per symbol, the detectors slice one",
                    constellation.dimensionality()
                ),
            ));
        }
        let slicer: radioflow_dsp::Slicer = Box::new(move |x: Complex32| {
            constellation.points()[constellation.decision(&[x]) as usize]
        });
        let kernel = Kernel::new(SymbolSyncConfig {
            ted: ted_type,
            sps,
            loop_bw,
            damping,
            ted_gain,
            max_deviation: max_dev,
            osps,
            slicer: Some(slicer),
            resampler: resamp_type,
            nfilters,
            taps: pfb_mf_taps.to_vec(),
        })
        .map_err(|e| {
            // The kernel's names for two of GNU Radio's parameters.
            let name = match e.name {
                "taps" => "pfb_mf_taps",
                "max_deviation" => "max_dev",
                n => n,
            };
            radioflow_dsp::ParamError::new(name, e.reason)
        })?;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(1),
            error: StreamOutput::optional(),
            t_inst: StreamOutput::optional(),
            t_avg: StreamOutput::optional(),
            kernel,
            state: vec![SyncState::default(); CHUNK],
            tags_done: 0,
            sync: Vec::with_capacity(16),
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let from = self.input.offset();
        let mut room = self.output.slice().len().min(CHUNK);
        for port in [&mut self.error, &mut self.t_inst, &mut self.t_avg] {
            if port.is_connected() {
                room = room.min(port.slice().len());
            }
        }
        // The window's resynchronization tags (capacity kept across calls).
        self.sync.clear();
        let window = self.input.slice().len() as u64;
        for t in self.input.tags() {
            if t.offset >= from + window {
                break;
            }
            if let Some(tag) = sync_tag(t, from) {
                self.sync.push(tag);
            }
        }
        let (consumed, produced) = self.kernel.process(
            self.input.slice(),
            &mut self.output.slice()[..room],
            Some(&mut self.state[..room]),
            &self.sync,
        );
        let s = &self.state[..produced];
        for (port, pick) in [
            (
                &mut self.error,
                (|s: &SyncState| s.error) as fn(&SyncState) -> f32,
            ),
            (&mut self.t_inst, |s| s.inst_period),
            (&mut self.t_avg, |s| s.avg_period),
        ] {
            if port.is_connected() {
                for (o, s) in port.slice().iter_mut().zip(s) {
                    *o = pick(s);
                }
            }
        }
        // GNU Radio's rule: a tag goes on the first output whose interpolation instant
        // (plus half an output period) it does not follow; tags past this call's last
        // output but consumed go on the next output.
        // A tag not consumed yet may belong on an output made already: `tags_done` keeps
        // the next call from placing it again.
        let mut j = 0;
        for t in self.input.tags() {
            if t.offset < self.tags_done {
                continue;
            }
            while j < produced && (from as i64 + s[j].tags_until) < t.offset as i64 {
                j += 1;
            }
            if t.offset >= from + consumed as u64 {
                if j == produced {
                    break;
                }
                self.tags_done = t.offset + 1;
            }
            for port in [&mut self.error, &mut self.t_inst, &mut self.t_avg] {
                if port.is_connected() {
                    let at = port.offset() + j as u64;
                    port.add_tag_at(at, t);
                }
            }
            let at = self.output.offset() + j as u64;
            self.output.add_tag_at(at, t);
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        for port in [&mut self.error, &mut self.t_inst, &mut self.t_avg] {
            if port.is_connected() {
                port.produce(produced);
            }
        }
        // Done only when the input, not the outputs' room, is what is missing.
        if room > 0 && produced == 0 && consumed == 0 && self.input.is_finished() {
            return Ok(WorkStatus::Done);
        }
        Ok(WorkStatus::Continue)
    }
}

/// A `time_est` (a number) or `clock_est` (a tuple of two numbers) tag, relative to `from`.
fn sync_tag(t: &Tag, from: u64) -> Option<SyncTag> {
    let offset = t.offset.checked_sub(from)? as i64;
    match t.key.as_symbol()? {
        "time_est" => Some(SyncTag {
            offset,
            timing: t.value.as_f64()? as f32,
            period: None,
        }),
        "clock_est" => match &t.value {
            Pmt::Tuple(v) if v.len() >= 2 => Some(SyncTag {
                offset,
                timing: v[0].as_f64()? as f32,
                period: Some(v[1].as_f64()? as f32),
            }),
            _ => None,
        },
        _ => None,
    }
}
