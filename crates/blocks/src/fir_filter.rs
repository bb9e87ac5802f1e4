//! [`FirFilter`]: an FIR filter with real taps.

use radioflow_dsp::{Fir, FirSample};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Filters a stream of `f32` or `Complex32` samples with real taps,
/// `y[n] = Σ_k taps[k] · x[n - k]`, like GNU Radio's `fir_filter_fff`/`fir_filter_ccf`. The
/// history starts as zeros (as GNU Radio's) and is carried across work calls, so the output
/// does not depend on how the stream is chunked. With [`new`](Self::new) there is one output
/// per input (SIMD kernel, [`radioflow_dsp::Fir`]) and tags keep their sample positions; with
/// [`decimating`](Self::decimating) output `k` is `y[k·decimation]` and a tag on input `i`
/// moves to output `⌈i / decimation⌉`, the first output that input is part of (the registry's
/// decimating filter is [`DecimatingFirFilter`](crate::DecimatingFirFilter)).
///
/// # Example
/// ```
/// use radioflow_blocks::{FirFilter, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 0.0, 0.0, 2.0]));
/// let fir = fg.add(FirFilter::<f32>::new(&[1.0, 0.5]));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, fir)?;
/// fg.connect(fir, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[1.0, 0.5, 0.0, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fir_filter",
    summary = "A FIR filter with real `taps` (y[n] = sum_k taps[k] x[n-k]); SIMD where the CPU has it.",
    dtypes = [Complex32, Float32],
    make = Self::new(&taps).with_delay(delay)
)]
#[param(taps: &[f32], doc = "the filter's taps")]
#[param(delay: u64 = 0, doc = "the sample delay tags are moved by, in input samples (GNU Radio's declare_sample_delay)")]
pub struct FirFilter<T: FirSample + Item> {
    /// The samples (`f32` or `Complex32`).
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The filtered samples.
    #[output(name = "out")]
    output: StreamOutput<T>,
    fir: Fir<T>,
    /// The last `taps - 1` inputs, oldest first.
    history: Vec<T>,
    /// `history` followed by the first `taps - 1` inputs of a call (preallocated).
    scratch: Vec<T>,
    decimation: usize,
    /// Where the next output's window starts, counted from the start of `history`.
    next: usize,
    /// Input samples tags are moved by.
    delay: u64,
}

impl<T: FirSample + Item> std::fmt::Debug for FirFilter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirFilter")
            .field("taps", &self.fir.taps().len())
            .finish()
    }
}

#[block]
impl<T: FirSample + Item> FirFilter<T> {
    /// A filter with these taps.
    ///
    /// # Panics
    /// If `taps` is empty.
    pub fn new(taps: &[f32]) -> Self {
        let h = taps.len().saturating_sub(1);
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            fir: Fir::new(taps),
            history: vec![T::default(); h],
            scratch: vec![T::default(); 2 * h],
            decimation: 1,
            next: 0,
            delay: 0,
        }
    }

    /// Tags moved as if the input came `delay` samples later (GNU Radio's
    /// `declare_sample_delay`, its `samp_delay` parameter): a tag on input `i` goes to output
    /// `i + delay` (`⌈(i + delay) / decimation⌉` when decimating).
    pub fn with_delay(self, delay: u64) -> Self {
        Self { delay, ..self }
    }

    /// A filter keeping every `decimation`-th output: `y[0]`, `y[decimation]`, ...
    ///
    /// # Panics
    /// If `taps` is empty or `decimation` is 0.
    pub fn decimating(taps: &[f32], decimation: usize) -> Self {
        assert!(decimation > 0, "decimation must be at least 1");
        Self {
            decimation,
            ..Self::new(taps)
        }
    }

    /// One work call of the decimating filter. Input and history form one sequence `e`
    /// (history first); outputs are the windows of `e` starting at `next`, `next + d`, ...
    fn work_decimating(&mut self) {
        let (h, d) = (self.history.len(), self.decimation);
        let taps = h + 1;
        let n = self.input.slice().len();
        let fit = if self.next + taps <= h + n {
            (h + n - taps - self.next) / d + 1
        } else {
            0
        };
        let count = fit.min(self.output.slice().len());
        let consumed = n.min(self.next + count * d);
        // Tags: input i -> output ceil(i / d), the first output computed from it. Inputs are
        // consumed only up to the next output's newest sample, so that output is never
        // published before its tags (clamped anyway, for safety).
        let (from, to) = (self.input.offset(), self.output.offset());
        for t in self.input.tags() {
            if t.offset >= from + consumed as u64 {
                break;
            }
            let offset = (t.offset + self.delay).div_ceil(d as u64).max(to);
            self.output.push_tag(Tag {
                offset,
                ..t.clone()
            });
        }
        let x = self.input.slice();
        let y = &mut self.output.slice()[..count];
        // Windows starting in the history come from history + the first inputs.
        let head = n.min(h);
        self.scratch[..h].copy_from_slice(&self.history);
        self.scratch[h..h + head].copy_from_slice(&x[..head]);
        let in_history = if self.next < h {
            ((h - 1 - self.next) / d + 1).min(count)
        } else {
            0
        };
        if in_history > 0 {
            self.fir
                .filter_decimated(&self.scratch[self.next..h + head], &mut y[..in_history], d);
        }
        if count > in_history {
            let start = self.next + in_history * d - h;
            self.fir
                .filter_decimated(&x[start..], &mut y[in_history..], d);
        }
        // The new history: the last h items of history + consumed inputs.
        if consumed >= h {
            self.history.copy_from_slice(&x[consumed - h..consumed]);
        } else {
            self.scratch[h..h + consumed].copy_from_slice(&x[..consumed]);
            self.history
                .copy_from_slice(&self.scratch[consumed..consumed + h]);
        }
        self.next = self.next + count * d - consumed;
        self.input.consume(consumed);
        self.output.produce(count);
    }

    /// The taps.
    pub fn taps(&self) -> &[f32] {
        self.fir.taps()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.decimation > 1 {
            self.work_decimating();
            return Ok(WorkStatus::Continue);
        }
        let (fir, history, scratch) = (&self.fir, &mut self.history, &mut self.scratch);
        let mut filter = |x: &[T], y: &mut [T]| {
            let h = history.len();
            let n = x.len();
            // The first outputs need the history: filter them from history + first inputs.
            let head = n.min(h);
            scratch[..h].copy_from_slice(history);
            scratch[h..h + head].copy_from_slice(&x[..head]);
            fir.filter(&scratch[..h + head], &mut y[..head]);
            // The rest straight from the input window.
            if n > h {
                fir.filter(x, &mut y[h..]);
                history.copy_from_slice(&x[n - h..]);
            } else {
                history.copy_from_slice(&scratch[n..n + h]);
            }
        };
        if self.delay == 0 {
            one_to_one_work(&mut self.input, &mut self.output, usize::MAX, filter);
        } else {
            crate::rate_work::rate_work_delayed(
                &mut self.input,
                &mut self.output,
                1,
                1,
                self.delay,
                |x, y| {
                    let n = x.len().min(y.len());
                    filter(&x[..n], &mut y[..n]);
                    (n, n)
                },
            );
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    /// `y[n] = Σ_k taps[k] · x[n - k]`, zeros before the first input.
    fn naive(taps: &[f32], x: &[f32]) -> Vec<f64> {
        (0..x.len())
            .map(|n| {
                (0..taps.len().min(n + 1))
                    .map(|k| taps[k] as f64 * x[n - k] as f64)
                    .sum()
            })
            .collect()
    }

    /// Runs `fir` on `x` (tagged at `tagged`), `push` items in and at most `space` out per call.
    fn run(
        mut fir: Harness<FirFilter<f32>>,
        x: &[f32],
        tagged: &[u64],
        push: usize,
        space: usize,
    ) -> (Vec<f32>, Vec<u64>) {
        for &t in tagged {
            fir.push_tag("in", t, "t", t);
        }
        fir.set_space("out", space);
        let (mut y, mut tags) = (Vec::new(), Vec::new());
        for chunk in x.chunks(push) {
            fir.push("in", chunk);
            // Calls until this chunk is used up: the output space is the limit.
            loop {
                let before = fir.consumed("in");
                fir.work().unwrap();
                tags.extend(fir.output_tags("out").iter().map(|t| t.offset));
                let got = fir.take_output::<f32>("out");
                y.extend_from_slice(&got);
                if got.is_empty() && fir.consumed("in") == before {
                    break;
                }
            }
        }
        (y, tags)
    }

    fn input() -> (Vec<f32>, Vec<f32>) {
        let taps: Vec<f32> = (0..13).map(|k| 1.0 / (k as f32 + 1.0)).collect();
        let x: Vec<f32> = (0..500).map(|i| ((i * 37) % 17) as f32 - 8.0).collect();
        (taps, x)
    }

    fn assert_close(got: &[f32], want: impl Iterator<Item = f64>, what: &str) {
        let want: Vec<f64> = want.collect();
        assert_eq!(got.len(), want.len(), "{what}");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            // Sums of 13 terms of magnitude <= 8: f32 is good to well within 1e-3.
            assert!((*g as f64 - w).abs() < 1e-3, "{what}: item {i}: {g} vs {w}");
        }
    }

    #[test]
    fn history_carries_across_calls_with_little_output_space() {
        let (taps, x) = input();
        let want = naive(&taps, &x);
        for (push, space) in [(500, 500), (1, 1), (7, 3), (5, 64), (64, 5)] {
            let (y, tags) = run(
                Harness::new(FirFilter::new(&taps)),
                &x,
                &[0, 11, 12, 499],
                push,
                space,
            );
            assert_close(&y, want.iter().copied(), &format!("{push}/{space}"));
            assert_eq!(tags, [0, 11, 12, 499], "tags keep their positions");
        }
    }

    #[test]
    fn decimating_keeps_every_dth_output_whatever_the_calls() {
        let (taps, x) = input();
        let want = naive(&taps, &x);
        for d in [2, 3, 13, 20] {
            for (push, space) in [(500, 500), (1, 1), (7, 3), (64, 5)] {
                let fir = Harness::new(FirFilter::decimating(&taps, d));
                let (y, tags) = run(fir, &x, &[0, 1, 5, 26, 499], push, space);
                let what = format!("decimation {d}, {push}/{space}");
                assert_close(&y, want.iter().step_by(d).copied(), &what);
                let moved: Vec<u64> = [0u64, 1, 5, 26, 499]
                    .iter()
                    .map(|i| i.div_ceil(d as u64))
                    .filter(|&o| o < y.len() as u64)
                    .collect();
                assert_eq!(tags, moved, "{what}: a tag moves to output ⌈i / d⌉");
            }
        }
    }
}
