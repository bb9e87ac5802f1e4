//! One packet of a tagged stream gathered for the tagged encoder and decoder, and GNU Radio's
//! placement of the packet's other tags on the output.

use radioflow_runtime::prelude::*;

/// The packet being gathered: its items, its tags other than the length tag (absolute input
/// offsets), the items it still lacks, and the absolute offset of its first item.
#[derive(Debug)]
pub(crate) struct Packet<T> {
    key: Pmt,
    pub(crate) items: Vec<T>,
    pub(crate) tags: Vec<Tag>,
    left: usize,
    whole: bool,
}

impl<T: Item> Packet<T> {
    /// Packets of length tags with key `key`.
    pub(crate) fn new(key: &str) -> Self {
        Self {
            key: Pmt::symbol(key),
            items: Vec::new(),
            tags: Vec::new(),
            left: 0,
            whole: false,
        }
    }

    /// Reads `input` into the packet (a new one after a whole one was taken by
    /// [`take`](Self::take)); true once it is whole.
    ///
    /// # Errors
    /// An item that starts no packet (no length tag, or one that is not a whole number
    /// above 0), naming `block`.
    pub(crate) fn gather(
        &mut self,
        input: &mut StreamInput<T>,
        block: &str,
    ) -> Result<bool, BlockError> {
        let used = self.gather_from(input.slice(), input.offset(), input.tags(), block)?;
        input.consume(used);
        Ok(self.whole)
    }

    /// As [`gather`](Self::gather) from `items`, the first at absolute offset `start`, with
    /// `tags` (absolute offsets); returns how many items it took.
    pub(crate) fn gather_from(
        &mut self,
        items: &[T],
        start: u64,
        tags: &[Tag],
        block: &str,
    ) -> Result<usize, BlockError> {
        let avail = items.len();
        let mut used = 0;
        while used < avail && !self.whole {
            let at = start + used as u64;
            let first = self.left == 0;
            if first {
                let len = tags
                    .iter()
                    .rfind(|t| t.offset == at && t.key == self.key)
                    .map(|t| t.value.as_i64());
                self.left = match len {
                    Some(Some(n)) if n > 0 => n as usize,
                    _ => {
                        return Err(BlockError::msg(format!(
                            "{block} in: item {at} starts no packet: it has no length tag '{}' \
                             with a whole number above 0",
                            self.key
                        )));
                    }
                };
                self.items.clear();
                self.tags.clear();
            }
            let n = self.left.min(avail - used);
            let range = at..at + n as u64;
            // GNU Radio takes the length tags off the packet's first item only: one further
            // in moves with the other tags.
            self.tags.extend(
                tags.iter()
                    .filter(|t| {
                        range.contains(&t.offset) && !(first && t.offset == at && t.key == self.key)
                    })
                    .cloned(),
            );
            self.items.extend_from_slice(&items[used..used + n]);
            used += n;
            self.left -= n;
            self.whole = self.left == 0;
        }
        Ok(used)
    }

    /// Whether the packet is whole.
    pub(crate) fn is_whole(&self) -> bool {
        self.whole
    }

    /// Marks the whole packet taken: the next [`gather`](Self::gather) starts another.
    pub(crate) fn take(&mut self) {
        self.whole = false;
    }

    /// Writes the packet's `n_out` items out: the length tag (`n_out`) on the first, then
    /// each other tag where GNU Radio's scheduler puts it, at its input offset times `rate`
    /// rounded to the nearest item (the tagged blocks' relative rate). GNU Radio also places
    /// a tag that lands before the packet's first item out, where its reader sees it only
    /// if it has not read past that item yet (thread timing): those are left out.
    pub(crate) fn tag_output<U: Item>(
        &mut self,
        output: &mut StreamOutput<U>,
        n_out: usize,
        rate: f64,
    ) {
        let at = output.offset();
        output.add_tag(at, self.key.clone(), Pmt::Int(n_out as i64));
        for t in self.tags.drain(..) {
            let offset = scale(t.offset, rate);
            if offset >= at {
                output.push_tag(Tag { offset, ..t });
            }
        }
    }
}

/// `offset · rate` rounded half up, exactly: GNU Radio's scheduler multiplies by the rate
/// as the exact value of its double (1/3 a little under a third), in rational arithmetic.
pub(crate) fn scale(offset: u64, rate: f64) -> u64 {
    let bits = rate.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    if rate <= 0.0 || exp == 0x7ff {
        return 0;
    }
    let (mant, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp - 1075)
    };
    let product = u128::from(offset) * u128::from(mant);
    if e >= 0 {
        return u64::try_from(product << e.min(64)).unwrap_or(u64::MAX);
    }
    let s = (-e) as u32;
    if s >= 128 {
        return 0;
    }
    u64::try_from((product + (1u128 << (s - 1))) >> s).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_rounds_half_up_on_the_exact_double() {
        assert_eq!(scale(5, 3.0), 15);
        assert_eq!(scale(3, 0.5), 2);
        assert_eq!(scale(1, 0.5), 1);
        assert_eq!(scale(4, 1.0 / 3.0), 1);
        assert_eq!(scale(5, 1.0 / 3.0), 2);
        assert_eq!(scale(2, 1.0 / 3.0), 1);
        // 1/6 as a double is under a sixth: 3/6 falls below one half.
        assert_eq!(scale(3, 1.0 / 6.0), 0);
        assert_eq!(scale(u64::MAX, 1.0), u64::MAX);
        // A rate like no other, against a naive sum in f64 where it is exact.
        for o in 0..1000u64 {
            assert_eq!(scale(o, 0.25), (o as f64 * 0.25 + 0.5).floor() as u64);
        }
    }
}
