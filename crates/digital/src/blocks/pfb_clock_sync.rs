//! [`PfbClockSync`]: GNU Radio's polyphase clock sync (`pfb_clock_sync_ccf`/`_fff`).

use radioflow_dsp::{ClockSample, PfbClockSync as Kernel};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Symbol timing recovery by a bank of matched filters at fractional delays, as GNU Radio's
/// `pfb_clock_sync_ccf` (complex samples) and `pfb_clock_sync_fff` (real): `osps` outputs
/// per symbol from the filter the loop points at, the loop steered by the output times the
/// derivative filter's output (kernel: [`radioflow_dsp::PfbClockSync`], which says how and
/// where it rounds unlike GNU Radio). The optional outputs give, for each output, the
/// loop's error (of the symbol before), its fractional rate and its phase in filter steps
/// (GNU Radio writes them on a symbol's first output only, leaving the other `osps - 1`
/// unwritten: here each output of the symbol has the symbol's values). A `time_est` tag
/// (a number of samples, from `corr_est`) resets the phase at the symbol it falls in. Every
/// tag moves to output `⌊i · osps / ⌊sps⌋⌋` on each connected output, as GNU Radio's
/// relative rate puts it, or the next output not yet made.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::PfbClockSync;
/// use radioflow_dsp::firdes;
/// use radioflow_runtime::Flowgraph;
///
/// let taps = firdes::root_raised_cosine(32.0, 64.0, 1.0, 0.35, 11 * 2 * 32)?;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.5f32; 400]));
/// let sync = fg.add(PfbClockSync::<f32>::new(2.0, 0.01, &taps, 32, 16.0, 1.5, 1)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, sync)?;
/// fg.connect(sync, sink)?;
/// fg.run()?;
/// // One output per 2 inputs, less the filter's history at the end.
/// assert!(fg.block::<VectorSink<f32>>(sink).unwrap().data().len() > 150);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pfb_clock_sync",
    summary = "Symbol timing recovery by a polyphase bank of matched filters (GNU Radio's pfb_clock_sync_ccf/_fff).",
    dtypes = [Complex32, Float32],
    make = Self::new(sps, loop_bw, &taps, filter_size, init_phase, max_rate_deviation, osps)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(sps: f32, example = 4.0, doc = "input samples per symbol (1 to 1e6; its fraction makes a rate offset)")]
#[param(loop_bw: f32, example = 0.0628, doc = "the loop bandwidth (rad/symbol, at least 0; 2π/100 is usual)")]
#[param(taps: &[f32], doc = "the prototype filter at filter_size times the sample rate (an RRC matched filter, usually)")]
#[param(filter_size: usize = 32, min = 1, doc = "filters in the bank")]
#[param(init_phase: f32 = 16.0, doc = "the initial phase, in filter steps")]
#[param(max_rate_deviation: f32 = 1.5, doc = "the largest fractional rate, in filter steps")]
#[param(osps: usize = 1, min = 1, doc = "outputs per symbol")]
pub struct PfbClockSync<T: ClockSample + Item> {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// `osps` samples per symbol, at the symbols' best timing.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// The loop error, per output (optional).
    #[output(name = "err")]
    err: StreamOutput<f32>,
    /// The fractional rate, per output (optional).
    #[output(name = "rate")]
    rate: StreamOutput<f32>,
    /// The phase in filter steps, per output (optional).
    #[output(name = "phase")]
    phase: StreamOutput<f32>,
    kernel: Kernel<T>,
    osps: u64,
    sps: u64,
    /// Input offset up to which `time_est` tags went to the kernel.
    given: u64,
}

impl<T: ClockSample + Item> std::fmt::Debug for PfbClockSync<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PfbClockSync")
            .field("osps", &self.osps)
            .field("sps", &self.sps)
            .finish()
    }
}

#[block]
impl<T: ClockSample + Item> PfbClockSync<T> {
    /// GNU Radio's `pfb_clock_sync_xxx(sps, loop_bw, taps, filter_size, init_phase,
    /// max_rate_deviation, osps)`.
    ///
    /// # Errors
    /// A parameter the kernel refuses ([`radioflow_dsp::PfbClockSync::new`]), named.
    pub fn new(
        sps: f32,
        loop_bw: f32,
        taps: &[f32],
        filter_size: usize,
        init_phase: f32,
        max_rate_deviation: f32,
        osps: usize,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        let kernel = Kernel::new(
            sps,
            loop_bw,
            taps,
            filter_size,
            init_phase,
            max_rate_deviation,
            osps,
        )?;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(osps),
            err: StreamOutput::optional().with_min_items(osps),
            rate: StreamOutput::optional().with_min_items(osps),
            phase: StreamOutput::optional().with_min_items(osps),
            kernel,
            osps: osps as u64,
            sps: sps.floor() as u64,
            given: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        // The kernel needs each `time_est` before the input it is on: hand over those of the
        // whole readable window (the kernel takes at most that much).
        let from = self.input.offset();
        let window = self.input.slice().len() as u64;
        for t in self.input.tags() {
            if t.offset >= from + window {
                break;
            }
            if t.offset >= self.given
                && t.key.as_symbol() == Some("time_est")
                && let Some(center) = t.value.as_f64()
            {
                self.kernel.time_est(t.offset, center as f32);
            }
        }
        self.given = self.given.max(from + window);
        let (err, rate, phase) = (
            slot(&mut self.err),
            slot(&mut self.rate),
            slot(&mut self.phase),
        );
        let out = self.output.slice();
        let room = [err.as_deref(), rate.as_deref(), phase.as_deref()]
            .into_iter()
            .flatten()
            .fold(out.len(), |n, s| n.min(s.len()));
        let (consumed, produced) =
            self.kernel
                .process(self.input.slice(), &mut out[..room], err, rate, phase);
        if !self.input.tags().is_empty() {
            for t in self.input.tags() {
                if t.offset >= from + consumed as u64 {
                    break;
                }
                let at =
                    (u128::from(t.offset) * u128::from(self.osps) / u128::from(self.sps)) as u64;
                for port in [&mut self.err, &mut self.rate, &mut self.phase] {
                    if port.is_connected() {
                        port.add_tag_at(at.max(port.offset()), t);
                    }
                }
                self.output.add_tag_at(at.max(self.output.offset()), t);
            }
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        for port in [&mut self.err, &mut self.rate, &mut self.phase] {
            if port.is_connected() {
                port.produce(produced);
            }
        }
        Ok(WorkStatus::Continue)
    }
}

/// An optional output's free space, if it is connected.
fn slot(p: &mut StreamOutput<f32>) -> Option<&mut [f32]> {
    if p.is_connected() {
        Some(p.slice())
    } else {
        None
    }
}
