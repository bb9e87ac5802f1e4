//! [`EqualizerKernel`]: the adaptive filter both of GNU Radio's equalizers run, one output
//! per `sps` input samples, and [`equalizer_work`], one work call of either block.

use super::training::Training;
use radioflow_runtime::prelude::*;

/// At most this many input samples are equalized per pass (the scratch's size).
const CHUNK_SAMPLES: usize = 1 << 14;

/// The filter: `y = Σ taps[k] · window[k]`, the window `feedback` past decisions (oldest
/// first) then `forward` input samples (oldest first), ending `lag` samples after the
/// symbol's first sample (the linear equalizer: 0; the decision feedback equalizer: `sps -
/// 1`, its symbol's last sample). Before the first sample the input is zeros, as GNU
/// Radio's history.
#[derive(Debug)]
pub(crate) struct EqualizerKernel {
    pub(crate) training: Training,
    sps: usize,
    forward: usize,
    feedback: usize,
    lag: usize,
    /// As applied: `taps[k]` to `window[k]`.
    taps: Vec<Complex32>,
    /// The window: decisions, then forward samples.
    window: Vec<Complex32>,
    /// The last `forward - 1` samples then the chunk being equalized.
    scratch: Vec<Complex32>,
}

impl EqualizerKernel {
    pub(crate) fn new(
        training: Training,
        sps: usize,
        forward: usize,
        feedback: usize,
        lag: usize,
    ) -> Self {
        let mut taps = vec![Complex32::default(); forward + feedback];
        training.alg.initialize_taps(&mut taps);
        let chunk = CHUNK_SAMPLES.max(sps);
        Self {
            training,
            sps,
            forward,
            feedback,
            lag,
            taps,
            window: vec![Complex32::default(); forward + feedback],
            scratch: vec![Complex32::default(); forward - 1 + chunk - chunk % sps],
        }
    }

    /// Outputs per pass at most.
    fn chunk_outputs(&self) -> usize {
        (self.scratch.len() + 1 - self.forward) / self.sps
    }

    /// Equalizes `input` (a whole number of symbols, at most [`chunk_outputs`] of them)
    /// into `out`, one per symbol; `starts(i)` says symbol `i` holds the training start
    /// tag. Writes each symbol's taps (before they adapt to it) and state where given.
    fn process(
        &mut self,
        input: &[Complex32],
        out: &mut [Complex32],
        mut taps_out: Option<&mut [Complex32]>,
        mut state_out: Option<&mut [i16]>,
        mut starts: impl FnMut(usize) -> bool,
    ) {
        let (h, n) = (self.forward - 1, out.len());
        debug_assert_eq!(input.len(), n * self.sps);
        self.scratch[h..h + input.len()].copy_from_slice(input);
        let nt = self.taps.len();
        for (i, y) in out.iter_mut().enumerate() {
            let first = i * self.sps + self.lag;
            self.window[self.feedback..]
                .copy_from_slice(&self.scratch[first..first + self.forward]);
            *y = self
                .taps
                .iter()
                .zip(&self.window)
                .fold(Complex32::default(), |acc, (t, x)| acc + t * x);
            if let Some(t) = taps_out.as_deref_mut() {
                t[i * nt..(i + 1) * nt].copy_from_slice(&self.taps);
            }
            let (state, adapt) = self.training.step(*y, starts(i));
            if let Some(s) = state_out.as_deref_mut() {
                s[i] = state as i16;
            }
            let decision = adapt.map_or(Complex32::default(), |(_, d)| d);
            if let Some((error, _)) = adapt {
                self.training
                    .alg
                    .update_taps(&mut self.taps, &self.window, error);
            }
            if self.feedback > 0 {
                self.window.copy_within(1..self.feedback, 0);
                self.window[self.feedback - 1] = decision;
            }
        }
        // Keep the last `forward - 1` samples for the next pass.
        let end = h + input.len();
        self.scratch.copy_within(end - h..end, 0);
    }
}

/// One work call of an equalizer: as many symbols as the input holds whole and the
/// connected outputs have room for; tags on the training start key start training at their
/// symbol; every tag moves to every connected output at its sample's symbol (rounded to the
/// nearest, halves up, as GNU Radio moves tags through a decimator).
pub(crate) fn equalizer_work(
    kernel: &mut EqualizerKernel,
    start_key: &str,
    input: &mut StreamInput<Complex32>,
    output: &mut StreamOutput<Complex32>,
    taps: &mut StreamOutput<Complex32>,
    state: &mut StreamOutput<i16>,
) {
    let (sps, nt) = (kernel.sps, kernel.taps.len());
    let mut n = (input.slice().len() / sps)
        .min(output.slice().len())
        .min(kernel.chunk_outputs());
    if taps.is_connected() {
        n = n.min(taps.slice().len() / nt);
    }
    if state.is_connected() {
        n = n.min(state.slice().len());
    }
    if n == 0 {
        return;
    }
    // Any start tag among a symbol's samples starts training there. GNU Radio walks its
    // tags with a cursor that only moves past a tag it takes: a second start tag in one
    // symbol stops it taking any later one in the same work call, which depends on how the
    // scheduler cuts the stream; radioflow takes each.
    let from = input.offset();
    let tags = input.tags();
    let mut next_tag = 0;
    let starts = |i: usize| {
        let (lo, hi) = (from + (i * sps) as u64, from + ((i + 1) * sps) as u64);
        let mut hit = false;
        while let Some(t) = tags.get(next_tag) {
            if t.offset >= hi {
                break;
            }
            if t.offset >= lo && t.key.as_symbol() == Some(start_key) {
                hit = true;
            }
            next_tag += 1;
        }
        hit
    };
    let taps_out = if taps.is_connected() {
        Some(&mut taps.slice()[..n * nt])
    } else {
        None
    };
    let state_out = if state.is_connected() {
        Some(&mut state.slice()[..n])
    } else {
        None
    };
    kernel.process(
        &input.slice()[..n * sps],
        &mut output.slice()[..n],
        taps_out,
        state_out,
        starts,
    );
    let consumed = (n * sps) as u64;
    for t in input.tags() {
        if t.offset >= from + consumed {
            break;
        }
        let at = (2 * t.offset + sps as u64) / (2 * sps as u64);
        let tag = |to: u64| Tag {
            offset: at.max(to),
            ..t.clone()
        };
        let to = output.offset();
        output.push_tag(tag(to));
        if taps.is_connected() {
            let to = taps.offset();
            taps.push_tag(tag(to));
        }
        if state.is_connected() {
            let to = state.offset();
            state.push_tag(tag(to));
        }
    }
    input.consume(n * sps);
    output.produce(n);
    if taps.is_connected() {
        taps.produce(n * nt);
    }
    if state.is_connected() {
        state.produce(n);
    }
}
