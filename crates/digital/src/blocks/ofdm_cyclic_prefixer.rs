//! [`OfdmCyclicPrefixer`]: OFDM symbols out as samples with their cyclic prefixes.

use super::pending_output::send_pending;
use radioflow_dsp::CyclicPrefixer;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Prefixes each OFDM symbol (a vector item of `fft_len` time-domain samples) with its
/// cyclic prefix and sends the samples on as a stream, like GNU Radio's
/// `ofdm_cyclic_prefixer` (kernel [`radioflow_dsp::CyclicPrefixer`]): prefix lengths taken
/// in turn from `cp_lengths`, raised-cosine flanks of `rolloff` samples overlapping
/// neighbouring symbols.
///
/// With a `len_tag_key`, the input is frames of symbols, each starting with a length tag
/// (its symbols); each frame's output starts with a length tag of its samples and, with a
/// rolloff, ends with the last symbol's `rolloff - 1` flank samples, and the flanks of one
/// frame do not reach the next. A frame cut by the end of the stream is dropped, as GNU
/// Radio drops it. Other tags move to the first sample (the prefix) of their symbol. Without
/// a key, symbols follow one another with no end (GNU Radio 3.10 then also puts a second
/// copy of each tag at the symbol's index times a symbol's length; radioflow puts one).
///
/// # Example
/// ```
/// use radioflow_digital::OfdmCyclicPrefixer;
/// use radioflow_runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
///
/// let x: Vec<Complex32> = (1..=8).map(|k| Complex32::new(k as f32, 0.0)).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x).with_vlen(4)?);
/// let cp = fg.add(OfdmCyclicPrefixer::new(4, &[1], 0, "")?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, cp)?;
/// fg.connect(cp, sink)?;
/// fg.run()?;
/// let re: Vec<f32> = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().iter().map(|z| z.re).collect();
/// assert_eq!(re, [4.0, 1.0, 2.0, 3.0, 4.0, 8.0, 5.0, 6.0, 7.0, 8.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "ofdm_cyclic_prefixer",
    summary = "OFDM symbols (vectors of `fft_len`) out as samples with their cyclic prefixes (lengths in turn), raised-cosine flanks, framed by a length tag.",
    make = Self::new(fft_len, &lengths(&cp_lengths)?, rolloff, &len_tag_key)
        .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(fft_len: usize, min = 1, example = 64, doc = "samples per symbol")]
#[param(cp_lengths: Vec<Pmt>, doc = "the prefix lengths, taken in turn (one: a uniform prefix)")]
#[param(rolloff: usize = 0, doc = "samples of the raised-cosine flanks (0 or 1: none); at most every prefix length")]
#[param(len_tag_key: String = "", doc = "the length tag of frames of symbols (empty: no frames)")]
#[derive(Debug)]
pub struct OfdmCyclicPrefixer {
    /// Symbols: vectors of `fft_len` samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The samples, prefixes included.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    kernel: CyclicPrefixer,
    /// The length tag's key, where frames are tagged.
    key: Option<Pmt>,
    /// The current frame's symbols read so far (one symbol at a time without frames).
    held: Vec<Complex32>,
    /// Symbols of the current frame still to read.
    left: usize,
    /// The current frame's tags, their offsets the symbol's index in the frame.
    tags: Vec<Tag>,
    /// Output made and not yet sent.
    pending: Vec<Complex32>,
    sent: usize,
}

/// The prefix lengths of a list of whole numbers >= 0.
fn lengths(values: &[Pmt]) -> Result<Vec<usize>, Refused> {
    values
        .iter()
        .map(|v| {
            v.as_i64()
                .and_then(|i| usize::try_from(i).ok())
                .ok_or_else(|| Refused::param("cp_lengths", format!("{v} is not a length >= 0")))
        })
        .collect()
}

#[block]
impl OfdmCyclicPrefixer {
    /// Symbols of `fft_len` samples, prefixes of `cp_lengths` in turn, flanks of `rolloff`
    /// samples, frames tagged `len_tag_key` (empty: none).
    ///
    /// # Errors
    /// As [`CyclicPrefixer::new`]: the error names the parameter.
    pub fn new(
        fft_len: usize,
        cp_lengths: &[usize],
        rolloff: usize,
        len_tag_key: &str,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        let kernel = CyclicPrefixer::new(fft_len, cp_lengths, rolloff)?;
        let longest = fft_len + cp_lengths.iter().max().copied().unwrap_or(0);
        Ok(Self {
            input: StreamInput::new().with_vlen(fft_len),
            output: StreamOutput::new(),
            kernel,
            key: (!len_tag_key.is_empty()).then(|| Pmt::symbol(len_tag_key)),
            held: Vec::with_capacity(fft_len),
            left: 0,
            tags: Vec::new(),
            pending: Vec::with_capacity(longest + rolloff),
            sent: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while send_pending(&mut self.output, &self.pending, &mut self.sent) && self.gather()? {
            self.emit();
        }
        Ok(WorkStatus::Continue)
    }
}

impl OfdmCyclicPrefixer {
    /// Reads symbols of the current frame (one symbol without frames); whether it is whole.
    fn gather(&mut self) -> Result<bool, BlockError> {
        let fft_len = self.kernel.fft_len();
        let symbols = self.input.slice().len() / fft_len;
        if symbols == 0 {
            return Ok(false);
        }
        let start = self.input.offset();
        if self.left == 0 {
            self.held.clear();
            self.tags.clear();
            self.left = match &self.key {
                None => 1,
                Some(key) => {
                    let len = self
                        .input
                        .tags()
                        .iter()
                        .rfind(|t| t.offset == start && t.key == *key)
                        .map(|t| t.value.as_i64());
                    match len {
                        Some(Some(n)) if n > 0 => n as usize,
                        _ => {
                            return Err(BlockError::msg(format!(
                                "ofdm_cyclic_prefixer in: symbol {start} is in no frame: it has \
                                 no length tag '{key}' with a whole number of symbols above 0"
                            )))
                        }
                    }
                }
            };
        }
        let n = self.left.min(symbols);
        let first = start - (self.held.len() / fft_len) as u64;
        for t in self.input.tags() {
            if (start..start + n as u64).contains(&t.offset)
                && self.key.as_ref().is_none_or(|k| t.key != *k)
            {
                self.tags.push(Tag {
                    offset: t.offset - first,
                    ..t.clone()
                });
            }
        }
        self.held
            .extend_from_slice(&self.input.slice()[..n * fft_len]);
        self.input.consume(n * fft_len);
        self.left -= n;
        Ok(self.left == 0)
    }

    /// The held frame's samples into `pending`, its tags onto the output.
    fn emit(&mut self) {
        let fft_len = self.kernel.fft_len();
        let symbols = self.held.len() / fft_len;
        let tail = if self.key.is_some() {
            self.kernel.tail_len()
        } else {
            0
        };
        let total = self.kernel.len_of(symbols) + tail;
        let at = self.output.offset();
        if let Some(key) = &self.key {
            let len = i64::try_from(total).unwrap_or(i64::MAX);
            self.output.add_tag(at, key.clone(), Pmt::Int(len));
        }
        for t in self.tags.drain(..) {
            let start = self.kernel.len_of(t.offset as usize) as u64;
            self.output.push_tag(Tag {
                offset: at + start,
                ..t
            });
        }
        self.pending.clear();
        self.pending.resize(total, Complex32::default());
        let mut o = 0;
        for x in self.held.chunks_exact(fft_len) {
            let n = self.kernel.next_len();
            self.kernel.symbol(x, &mut self.pending[o..o + n]);
            o += n;
        }
        if tail > 0 {
            self.kernel.flush(&mut self.pending[o..]);
        }
        self.sent = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn symbols(n: usize, fft_len: usize) -> Vec<Complex32> {
        (1..=n * fft_len)
            .map(|k| Complex32::new(k as f32, 0.0))
            .collect()
    }

    #[test]
    fn frames_through_little_room_keep_their_tags() {
        let mut h = Harness::new(OfdmCyclicPrefixer::new(4, &[2, 1], 0, "len").unwrap());
        h.set_space("out", 3);
        h.push_tag("in", 0, "len", 3i64);
        h.push_tag("in", 2, "x", 7i64);
        h.push_tag("in", 3, "len", 1i64);
        h.push("in", &symbols(4, 4));
        for _ in 0..20 {
            h.work().unwrap();
        }
        let (y, tags) = h.take_output_with_tags::<Complex32>("out");
        assert_eq!(y.len(), 17 + 5);
        let re: Vec<f32> = y[11..17].iter().map(|z| z.re).collect();
        assert_eq!(re, [11.0, 12.0, 9.0, 10.0, 11.0, 12.0]);
        let tags: Vec<(u64, String)> = tags.iter().map(|t| (t.offset, t.key.to_string())).collect();
        assert_eq!(
            tags,
            [(0, "len".into()), (11, "x".into()), (17, "len".into())]
        );
    }

    #[test]
    fn a_frame_cut_by_the_end_is_dropped_and_untagged_input_is_refused() {
        let mut h = Harness::new(OfdmCyclicPrefixer::new(4, &[2], 0, "len").unwrap());
        h.push_tag("in", 0, "len", 1i64);
        h.push_tag("in", 1, "len", 2i64);
        h.push("in", &symbols(2, 4));
        h.finish_input("in");
        for _ in 0..4 {
            h.work().unwrap();
        }
        assert_eq!(h.take_output::<Complex32>("out").len(), 6);
        let mut h = Harness::new(OfdmCyclicPrefixer::new(4, &[2], 0, "len").unwrap());
        h.push("in", &symbols(1, 4));
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("no length tag 'len'"), "{e}");
    }
}
