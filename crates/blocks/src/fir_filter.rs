//! [`FirFilter`]: an FIR filter with real taps.

use radioflow_dsp::{Fir, FirSample};
use radioflow_runtime::prelude::*;

/// Filters a stream of `f32` or `Complex32` samples with real taps,
/// `y[n] = Σ_k taps[k] · x[n - k]`, like GNU Radio's `fir_filter_fff`/`fir_filter_ccf` with
/// decimation 1. One output per input: the history starts as zeros (as GNU Radio's) and is
/// carried across work calls, so the output does not depend on how the stream is chunked.
/// The kernel is [`radioflow_dsp::Fir`] (SIMD); tags keep their sample positions.
///
/// # Stream inputs
/// - `in`: `T` (`f32` or `Complex32`).
///
/// # Stream outputs
/// - `out`: `T`, the filtered samples.
///
/// # Message ports
/// None.
///
/// # Parameters
/// - `taps`: the impulse response (`taps[0]` weighs the newest sample), at least one tap.
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
pub struct FirFilter<T: FirSample + Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    fir: Fir<T>,
    /// The last `taps - 1` inputs, oldest first.
    history: Vec<T>,
    /// `history` followed by the first `taps - 1` inputs of a call (preallocated).
    scratch: Vec<T>,
}

impl<T: FirSample + Item> std::fmt::Debug for FirFilter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirFilter")
            .field("taps", &self.fir.taps().len())
            .finish()
    }
}

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
        }
    }

    /// The taps.
    pub fn taps(&self) -> &[f32] {
        self.fir.taps()
    }
}

impl<T: FirSample + Item> Block for FirFilter<T> {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.stream_input("in", &mut self.input);
        p.stream_output("out", &mut self.output);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (fir, history, scratch) = (&self.fir, &mut self.history, &mut self.scratch);
        sync_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
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
        });
        Ok(WorkStatus::Continue)
    }
}
