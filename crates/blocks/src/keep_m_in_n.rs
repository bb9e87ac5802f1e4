//! [`KeepMInN`]: `m` consecutive items of every `n`.

use crate::tag_map::{gr_rate_offset, move_tags};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Keeps items `offset .. offset + m` of every group of `n` and drops the others, like GNU
/// Radio's `keep_m_in_n`; only whole groups make output (a group the stream ends in makes
/// none). A tag on input item `i` goes to output item `i · m / n` rounded half up, where GNU
/// Radio's scheduler puts it.
///
/// # Example
/// ```
/// use radioflow_blocks::{KeepMInN, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new((1..=10).collect::<Vec<u8>>()));
/// let keep = fg.add(KeepMInN::<u8>::new(2, 5, 1).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, keep)?;
/// fg.connect(keep, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[2, 3, 7, 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "keep_m_in_n",
    summary = "Items `offset .. offset + m` of every group of `n`.",
    dtypes = all,
    make = Self::new(m, n, offset).map_err(|(name, e)| Refused::param(name, e))
)]
#[param(m: usize, min = 1, doc = "items kept per group")]
#[param(n: usize, min = 1, doc = "the group size")]
#[param(offset: usize = 0, doc = "the first item kept in a group")]
#[derive(Debug)]
pub struct KeepMInN<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// `m` items of each group.
    #[output(name = "out")]
    output: StreamOutput<T>,
    m: usize,
    n: usize,
    offset: usize,
}

#[block]
impl<T: Item> KeepMInN<T> {
    /// Keeps items `offset .. offset + m` of every `n`.
    ///
    /// # Errors
    /// If `m` or `n` is 0, or the kept items do not fit a group (`offset + m > n`), naming
    /// the parameter.
    pub fn new(m: usize, n: usize, offset: usize) -> Result<Self, (&'static str, String)> {
        if n == 0 {
            return Err((
                "n",
                "groups of 0 items keep nothing: n must be at least 1".into(),
            ));
        }
        if m == 0 {
            return Err(("m", "must keep at least one item per group".into()));
        }
        if offset.checked_add(m).is_none_or(|end| end > n) {
            return Err((
                "offset",
                format!(
                    "items {offset} to {} do not fit a group of {n}",
                    offset as u128 + m as u128 - 1
                ),
            ));
        }
        Ok(Self {
            input: StreamInput::new().with_min_items(n),
            output: StreamOutput::new().with_min_items(m),
            m,
            n,
            offset,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (m, n, offset) = (self.m, self.n, self.offset);
        let x = self.input.slice();
        let y = self.output.slice();
        let groups = (x.len() / n).min(y.len() / m);
        for (g, out) in y[..groups * m].chunks_exact_mut(m).enumerate() {
            out.copy_from_slice(&x[g * n + offset..g * n + offset + m]);
        }
        move_tags(&self.input, &mut self.output, 0..groups * n, |o| {
            gr_rate_offset(o, m as u64, n as u64)
        });
        self.input.consume(groups * n);
        self.output.produce(groups * m);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn whole_groups_only_with_tags_at_gnu_radio_s_rounded_offsets() {
        let mut h = Harness::new(KeepMInN::<f32>::new(2, 5, 3).unwrap());
        for o in [1, 2, 4, 5, 6] {
            h.push_tag("in", o, "t", o as i64);
        }
        let x: Vec<f32> = (1..=12).map(|i| i as f32).collect();
        h.push("in", &x);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<f32>("out");
        assert_eq!(items, [4.0, 5.0, 9.0, 10.0]);
        // GNU Radio 3.10: 1 -> 0, 2 -> 1, 4 -> 2, 5 -> 2, 6 -> 2.
        let at: Vec<(u64, i64)> = tags
            .iter()
            .map(|t| (t.offset, t.value.as_i64().unwrap()))
            .collect();
        assert_eq!(at, [(0, 1), (1, 2), (2, 4), (2, 5), (2, 6)]);
        assert_eq!(h.consumed("in"), 10);
    }

    #[test]
    fn kept_items_outside_a_group_are_refused_naming_the_parameter() {
        assert_eq!(KeepMInN::<u8>::new(2, 5, 4).unwrap_err().0, "offset");
        assert_eq!(KeepMInN::<u8>::new(0, 5, 0).unwrap_err().0, "m");
        assert_eq!(KeepMInN::<u8>::new(1, 0, 0).unwrap_err().0, "n");
        assert!(KeepMInN::<u8>::new(5, 5, 0).is_ok());
    }
}
