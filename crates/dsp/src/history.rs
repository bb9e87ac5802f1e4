//! [`History`]: the input a streaming filter keeps between calls.

/// A buffer of input samples for a filter that reads windows of consecutive samples: the
/// samples not yet passed over plus newly loaded input, so a window may span two calls.
///
/// It starts with `zeros` zero samples (the filter's initial history, as GNU Radio's blocks
/// have), and `load` moves what is still needed to the front before appending, so memory is
/// fixed at construction and nothing allocates afterwards.
#[derive(Clone, Debug)]
pub(crate) struct History<T> {
    buf: Vec<T>,
    /// Index in `buf` of the next window's first sample. May pass `end`: the filter then skips
    /// `start - end` samples of input not loaded yet (a decimation larger than the window).
    start: usize,
    /// Samples loaded into `buf`; `end <= buf.len()`.
    end: usize,
}

impl<T: Copy + Default> History<T> {
    /// `zeros` zero samples of initial history and room for `capacity` more.
    pub(crate) fn new(zeros: usize, capacity: usize) -> Self {
        Self {
            buf: vec![T::default(); zeros + capacity],
            start: 0,
            end: zeros,
        }
    }

    /// The loaded samples from the next window's first on (empty while skipping).
    pub(crate) fn pending(&self) -> &[T] {
        &self.buf[self.start.min(self.end)..self.end]
    }

    /// Moves the next window `n` samples on.
    pub(crate) fn advance(&mut self, n: usize) {
        self.start += n;
    }

    /// Drops the samples before the next window, then loads as much of `input` as fits
    /// through `load(input, slots)` (which fills `slots` from `input`, of equal length).
    /// Returns how many samples of `input` it took.
    pub(crate) fn load<S>(&mut self, input: &[S], load: impl FnOnce(&[S], &mut [T])) -> usize {
        let drop = self.start.min(self.end);
        self.buf.copy_within(drop..self.end, 0);
        self.start -= drop;
        self.end -= drop;
        let take = input.len().min(self.buf.len() - self.end);
        load(&input[..take], &mut self.buf[self.end..self.end + take]);
        self.end += take;
        debug_assert!(self.end <= self.buf.len());
        take
    }

    /// [`load`](Self::load) with the samples copied as they are.
    pub(crate) fn extend(&mut self, input: &[T]) -> usize {
        self.load(input, |x, s| s.copy_from_slice(x))
    }

    /// Back to the initial state: `zeros` zeros loaded.
    pub(crate) fn reset(&mut self, zeros: usize) {
        self.buf[..zeros].fill(T::default());
        self.start = 0;
        self.end = zeros;
    }
}

/// How many windows of `len` samples, `step` apart, fit in `available` samples.
pub(crate) fn windows(available: usize, len: usize, step: usize) -> usize {
    if available < len {
        0
    } else {
        (available - len) / step + 1
    }
}

/// Samples a streaming filter loads at a time, beyond its window and step.
pub(crate) const CHUNK: usize = 4096;
