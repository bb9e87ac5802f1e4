//! [`Fft`]: the FFT of vector items.

use radioflow_dsp::{FftSample, VectorFft};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The forward or reverse FFT of each vector item of `size` samples, like GNU Radio's
/// `fft_vcc` (complex input) and `fft_vfc` (real input): not normalized, the input
/// multiplied by `window` first (empty: no window), DC moved to the middle of the output
/// (forward) or read from the middle of the input (reverse) where `shift` is set (kernel
/// [`radioflow_dsp::VectorFft`]). Tags stay on their vector.
///
/// # Example
/// ```
/// use radioflow_blocks::{Fft, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 1.0, 1.0, 1.0]).with_vlen(4)?);
/// let fft = fg.add(Fft::<f32>::new(4, true, &[], false)?);
/// let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(4));
/// fg.connect(src, fft)?;
/// fg.connect(fft, sink)?;
/// fg.run()?;
/// let zero = Complex32::default();
/// let dc = Complex32::new(4.0, 0.0);
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data(), &[dc, zero, zero, zero]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fft",
    summary = "The forward or reverse FFT of vector items of `size` samples (window, shift).",
    dtypes = [Complex32, Float32],
    make = Self::new(size, forward, &window, shift).map_err(|e| Refused::param(e.name, e.reason))
)]
// The example size is the length of the example list front ends give `window`.
#[param(size: usize, min = 1, example = 3, doc = "samples per vector item and transform")]
#[param(forward: bool, example = true, doc = "forward transform (e^-j); false: reverse (e^+j)")]
#[param(window: &[f32], doc = "the `size` coefficients the input is multiplied by (all 1: no window)")]
#[param(shift: bool = false, doc = "DC in the middle: of the output (forward), of the input (reverse)")]
#[derive(Debug)]
pub struct Fft<T: FftSample + Item> {
    /// Vectors of `size` samples (complex or real).
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Their transforms: vectors of `size` complex bins.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    kernel: VectorFft,
}

#[block]
impl<T: FftSample + Item> Fft<T> {
    /// The FFT of `size` samples, forward or reverse, with this window (empty: none), DC in
    /// the middle if `shift`.
    ///
    /// # Errors
    /// If `size` is 0 or the window is neither empty nor `size` long; the error names the
    /// parameter.
    pub fn new(
        size: usize,
        forward: bool,
        window: &[f32],
        shift: bool,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        let kernel = VectorFft::new(size, forward, window, shift)?;
        Ok(Self {
            input: StreamInput::new().with_vlen(size),
            output: StreamOutput::new().with_vlen(size),
            kernel,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let kernel = &mut self.kernel;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            kernel.process(x, y)
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn transforms_each_vector_and_keeps_its_tags() {
        let mut h = Harness::new(Fft::<Complex32>::new(2, true, &[], false).unwrap());
        h.push_tag("in", 1, "t", 1i64);
        let x: Vec<Complex32> = [1.0, 2.0, 3.0, 5.0]
            .iter()
            .map(|&r| Complex32::new(r, 0.0))
            .collect();
        h.push("in", &x);
        h.work().unwrap();
        let (y, tags) = h.take_output_with_tags::<Complex32>("out");
        let re: Vec<f32> = y.iter().map(|z| z.re).collect();
        assert_eq!(re, [3.0, -1.0, 8.0, -2.0]);
        assert_eq!(tags.iter().map(|t| t.offset).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn bad_parameters_are_refused_by_name() {
        assert_eq!(
            Fft::<f32>::new(0, true, &[], false).unwrap_err().name,
            "size"
        );
        let e = Fft::<f32>::new(4, true, &[1.0, 2.0], false).unwrap_err();
        assert_eq!(e.name, "window");
    }
}
