//! [`VectorSource`]: plays a vector of items, once or repeatedly.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Writes the items of a vector, with optional tags, once or over and over, like GNU Radio's
/// `vector_source`.
///
/// An empty vector finishes at once, even when repeating. Any storage that derefs to a slice
/// can hold the data ([`from_storage`](Self::from_storage)): the Python package streams a
/// numpy array in place this way. [`repeat`](Self::repeat) starts over at the end instead of
/// finishing; [`tags`](Self::tags) are emitted at offsets into the data, again at each
/// repetition (shifted by the data's length per repetition).
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt, Tag};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(
///     VectorSource::new(vec![1i16, 2, 3])
///         .repeat(true)
///         .tags(vec![Tag::new(0, Pmt::Symbol("start".into()), Pmt::Bool(true))]),
/// );
/// let head = fg.add(Head::<i16>::new(7));
/// let sink = fg.add(VectorSink::<i16>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let sink = fg.block::<VectorSink<i16>>(sink).unwrap();
/// assert_eq!(sink.data(), &[1, 2, 3, 1, 2, 3, 1]);
/// let offsets: Vec<u64> = sink.tags().iter().map(|t| t.offset).collect();
/// assert_eq!(offsets, [0, 3, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "vector_source",
    summary = "Plays `data`, once or repeated.",
    dtypes = all,
    make = Self::new(data)
        .with_vlen(vlen)
        .map_err(|e| Refused::param("vlen", e))?
        .repeat(repeat)
        .tags(tags)
)]
#[param(data: Vec<T>, doc = "the items to play (flat: `vlen` scalars per item)")]
#[param(repeat: bool = false, doc = "play them again and again")]
#[param(tags: Vec<Tag> = [], doc = "tags as [offset, key, value] (or [offset, key, value, srcid]) lists, offsets into data (items)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct VectorSource<T: Item, S = Vec<T>> {
    /// The data (repeated if asked), with the tags.
    #[output(name = "out")]
    output: StreamOutput<T>,
    data: S,
    /// Sorted by offset (in items); every offset is below the number of items in `data`.
    tags: Vec<Tag>,
    /// Scalars per item (the output's vector length).
    vlen: usize,
    repeat: bool,
    /// Index in `data` of the next item to write.
    pos: usize,
    /// Index in `tags` of the first tag at or after `pos`.
    next_tag: usize,
}

impl<T: Item> VectorSource<T> {
    /// Plays `data` once, without tags.
    pub fn new(data: Vec<T>) -> Self {
        Self::from_storage(data)
    }
}

#[block]
impl<T: Item, S: AsRef<[T]> + Send + 'static> VectorSource<T, S> {
    /// Plays the items `data` holds once, without tags.
    pub fn from_storage(data: S) -> Self {
        Self {
            output: StreamOutput::new(),
            data,
            tags: Vec::new(),
            vlen: 1,
            repeat: false,
            pos: 0,
            next_tag: 0,
        }
    }

    /// Plays vectors of `vlen` scalars (at least 1): the data is flat, its length a multiple of
    /// `vlen`; tag offsets count vectors.
    ///
    /// # Errors
    /// If the data is not a whole number of vectors, or a tag is past the last vector.
    pub fn with_vlen(mut self, vlen: usize) -> Result<Self, String> {
        let vlen = vlen.max(1);
        let len = self.data.as_ref().len();
        if !len.is_multiple_of(vlen) {
            return Err(format!(
                "{len} data values are not a whole number of vectors of {vlen}"
            ));
        }
        if let Some(t) = self.tags.iter().find(|t| t.offset >= (len / vlen) as u64) {
            return Err(format!(
                "tag at offset {} is past the last of {} vectors",
                t.offset,
                len / vlen
            ));
        }
        self.vlen = vlen;
        self.output.set_vlen(vlen);
        Ok(self)
    }

    /// Whether to start over at the end of the data instead of finishing.
    pub fn repeat(mut self, repeat: bool) -> Self {
        self.repeat = repeat;
        self
    }

    /// Tags to emit, at offsets into the data (in any order; in items, vectors where
    /// [`with_vlen`](Self::with_vlen) says so).
    ///
    /// # Panics
    /// If a tag's offset is not below the number of items of the data.
    pub fn tags(mut self, mut tags: Vec<Tag>) -> Self {
        let len = self.data.as_ref().len() / self.vlen;
        if let Some(t) = tags.iter().find(|t| t.offset >= len as u64) {
            panic!(
                "tag at offset {} is past the end of {len} data items",
                t.offset
            );
        }
        tags.sort_by_key(|t| t.offset);
        self.tags = tags;
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let mut written = 0;
        let data = self.data.as_ref();
        // Loops only when repeating: a short vector fills the whole free space in one call.
        loop {
            // Whole vectors only: the window, the data and `pos` are multiples of `vlen`.
            let vlen = self.vlen as u64;
            let base = self.output.offset() + written as u64 / vlen;
            let out = &mut self.output.slice()[written..];
            let n = out.len().min(data.len() - self.pos);
            out[..n].copy_from_slice(&data[self.pos..self.pos + n]);
            let end = (self.pos + n) as u64 / vlen;
            while let Some(t) = self.tags.get(self.next_tag).filter(|t| t.offset < end) {
                let at = base + (t.offset - self.pos as u64 / vlen);
                self.output.push_tag(Tag {
                    offset: at,
                    ..t.clone()
                });
                self.next_tag += 1;
            }
            self.pos += n;
            written += n;
            if self.pos < data.len() {
                break;
            }
            if !self.repeat || data.is_empty() {
                self.output.produce(written);
                return Ok(WorkStatus::Done);
            }
            self.pos = 0;
            self.next_tag = 0;
            if written == self.output.slice().len() {
                break;
            }
        }
        self.output.produce(written);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn plays_as_much_as_fits_then_is_done() {
        let tags = vec![Tag::new(2, "two", 2i64), Tag::new(0, "zero", 0i64)];
        let mut h = Harness::new(VectorSource::new(vec![1u8, 2, 3, 4]).tags(tags));
        h.set_space("out", 3);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!(
            h.output_tags("out"),
            [Tag::new(0, "zero", 0i64), Tag::new(2, "two", 2i64)]
        );
        assert_eq!(h.take_output::<u8>("out"), [1, 2, 3]);
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.take_output::<u8>("out"), [4]);
    }

    #[test]
    fn repeats_within_and_across_calls_with_shifted_tags() {
        let src = VectorSource::new(vec![1u8, 2, 3])
            .repeat(true)
            .tags(vec![Tag::new(1, "t", 0i64)]);
        let mut h = Harness::new(src);
        h.set_space("out", 7);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        let offsets: Vec<u64> = h.output_tags("out").iter().map(|t| t.offset).collect();
        assert_eq!(offsets, [1, 4]);
        assert_eq!(h.take_output::<u8>("out"), [1, 2, 3, 1, 2, 3, 1]);
        h.set_space("out", 4);
        h.work().unwrap();
        let offsets: Vec<u64> = h.output_tags("out").iter().map(|t| t.offset).collect();
        assert_eq!(offsets, [7, 10]);
        assert_eq!(h.take_output::<u8>("out"), [2, 3, 1, 2]);
    }

    #[test]
    fn plays_whole_vectors_with_tags_on_vector_offsets() {
        let src = VectorSource::new(vec![1u8, 2, 3, 4, 5, 6])
            .with_vlen(2)
            .unwrap()
            .repeat(true)
            .tags(vec![Tag::new(1, "t", 0i64)]);
        let mut h = Harness::new(src);
        h.set_space("out", 9);
        h.work().unwrap();
        let offsets: Vec<u64> = h.output_tags("out").iter().map(|t| t.offset).collect();
        assert_eq!(offsets, [1], "vector 1; vector 4 is not written yet");
        assert_eq!(h.take_output::<u8>("out"), [1, 2, 3, 4, 5, 6, 1, 2]);
        assert!(VectorSource::new(vec![1u8, 2, 3]).with_vlen(2).is_err());
        let past = VectorSource::new(vec![1u8, 2]).tags(vec![Tag::new(1, "t", 0i64)]);
        assert!(
            past.with_vlen(2).is_err(),
            "one vector: offset 1 is past it"
        );
    }

    #[test]
    fn an_empty_vector_is_done_at_once_even_when_repeating() {
        let mut h = Harness::new(VectorSource::<f32>::new(Vec::new()).repeat(true));
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.produced("out"), 0);
    }
}
