//! [`RandomSource`]: `num_samps` random integers drawn once, played once or repeated.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Why a [`RandomSource`] cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RandomSourceError {
    /// The range `[min, max)` is empty.
    #[error("the range [{min}, {max}) is empty: min must be below max (max is excluded)")]
    Empty {
        /// The smallest value asked for.
        min: i64,
        /// One past the largest value asked for.
        max: i64,
    },
    /// A value of the range does not fit the item type.
    #[error("{value} does not fit the item type {item}")]
    DoesNotFit {
        /// The value.
        value: i64,
        /// The item type's name.
        item: &'static str,
    },
}

/// Plays `num_samps` integers drawn uniformly from `[min, max)` when the block is made,
/// once or over and over, like GNU Radio's Random Source (`analog_random_source_x`, which
/// GNU Radio makes as a `vector_source` of `numpy.random.randint(min, max, num_samps)`).
///
/// GNU Radio draws from numpy's unseeded generator: other numbers each run. So does seed 0
/// here (from the operating system's entropy); any other seed draws the same numbers each
/// time (not numpy's). Bytes may be drawn from -128 to 255: each is its low 8 bits, so
/// `[0, 256)` gives GNU Radio's unsigned bytes whether the stream is `u8` or `i8`.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, RandomSource, VectorSink};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(RandomSource::<u8>::new(0, 2, 100, true, 1)?);
/// let head = fg.add(Head::<u8>::new(250));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let bits = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert!(bits.iter().all(|&b| b < 2));
/// assert_eq!(bits[..100], bits[100..200], "repeated");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "random_source",
    summary = "`num_samps` integers drawn uniformly from [`min`, `max`) once, played once or repeated (GNU Radio's analog_random_source_x).",
    dtypes = [Int32, Int16, Int8, Uint8],
    make = Self::new(min, max, num_samps, repeat, seed).map_err(Refused::other)
)]
#[param(min: i64 = 0, doc = "the smallest value")]
#[param(max: i64 = 2, doc = "one past the largest value")]
#[param(num_samps: usize = 1000, doc = "how many values to draw")]
#[param(repeat: bool = true, doc = "play them again and again")]
#[param(seed: u64 = 0, doc = "of the draw; 0: other numbers each run, as GNU Radio's")]
#[derive(Debug)]
pub struct RandomSource<T: RandomItem> {
    /// The values (repeated if asked).
    #[output(name = "out")]
    output: StreamOutput<T>,
    data: Vec<T>,
    repeat: bool,
    /// Index in `data` of the next item to write.
    pos: usize,
}

/// An item type a [`RandomSource`] plays: `i32`, `i16`, `i8` or `u8`.
pub trait RandomItem: Item {
    /// The item of integer `value` (a byte: its low 8 bits), if it fits.
    fn from_i64(value: i64) -> Option<Self>;
}

impl RandomItem for i32 {
    fn from_i64(value: i64) -> Option<Self> {
        value.try_into().ok()
    }
}

impl RandomItem for i16 {
    fn from_i64(value: i64) -> Option<Self> {
        value.try_into().ok()
    }
}

impl RandomItem for i8 {
    fn from_i64(value: i64) -> Option<Self> {
        (-128..256).contains(&value).then_some(value as i8)
    }
}

impl RandomItem for u8 {
    fn from_i64(value: i64) -> Option<Self> {
        (-128..256).contains(&value).then_some(value as u8)
    }
}

#[block]
impl<T: RandomItem> RandomSource<T> {
    /// A source of `num_samps` values drawn from `[min, max)` with `seed` (0: from the
    /// operating system's entropy), played once or, with `repeat`, forever.
    ///
    /// # Errors
    /// If `min >= max` or a value of the range does not fit `T`.
    pub fn new(
        min: i64,
        max: i64,
        num_samps: usize,
        repeat: bool,
        seed: u64,
    ) -> Result<Self, RandomSourceError> {
        if min >= max {
            return Err(RandomSourceError::Empty { min, max });
        }
        for value in [min, max - 1] {
            if T::from_i64(value).is_none() {
                return Err(RandomSourceError::DoesNotFit {
                    value,
                    item: std::any::type_name::<T>(),
                });
            }
        }
        let mut rng = match seed {
            0 => StdRng::from_entropy(),
            s => StdRng::seed_from_u64(s),
        };
        let data = (0..num_samps)
            .map(|_| T::from_i64(rng.gen_range(min..max)).expect("checked at both ends"))
            .collect();
        Ok(Self {
            output: StreamOutput::new(),
            data,
            repeat,
            pos: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let mut written = 0;
        // Loops only when repeating: a short vector fills the whole free space in one call.
        while written < out.len() {
            let n = (out.len() - written).min(self.data.len() - self.pos);
            out[written..written + n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            written += n;
            self.pos += n;
            if self.pos == self.data.len() {
                if !self.repeat || self.data.is_empty() {
                    self.output.produce(written);
                    return Ok(WorkStatus::Done);
                }
                self.pos = 0;
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
    fn plays_the_draw_once_or_repeated() {
        let mut h = Harness::new(RandomSource::<i16>::new(-5, 5, 7, false, 3).unwrap());
        h.set_space("out", 4);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        let mut once = h.take_output::<i16>("out");
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        once.extend(h.take_output::<i16>("out"));
        assert_eq!(once.len(), 7);
        assert!(once.iter().all(|x| (-5..5).contains(x)));

        let mut h = Harness::new(RandomSource::<i16>::new(-5, 5, 7, true, 3).unwrap());
        h.set_space("out", 17);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        let got = h.take_output::<i16>("out");
        assert_eq!(got[..7], once[..]);
        assert_eq!(got[7..14], once[..]);
        assert_eq!(got[14..], once[..3]);

        let mut h = Harness::new(RandomSource::<i32>::new(0, 1, 0, true, 3).unwrap());
        assert_eq!(h.work().unwrap(), WorkStatus::Done, "nothing to play");
    }

    #[test]
    fn bytes_hold_their_low_bits_and_bad_ranges_are_refused() {
        let mut h = Harness::new(RandomSource::<i8>::new(200, 256, 50, false, 1).unwrap());
        h.set_space("out", 50);
        h.work().unwrap();
        assert!(h
            .take_output::<i8>("out")
            .iter()
            .all(|&b| (200..256).contains(&(b as u8 as i64))));
        assert_eq!(
            RandomSource::<u8>::new(3, 3, 1, true, 0).unwrap_err(),
            RandomSourceError::Empty { min: 3, max: 3 }
        );
        assert!(matches!(
            RandomSource::<i16>::new(0, 40_000, 1, true, 0),
            Err(RandomSourceError::DoesNotFit { value: 39_999, .. })
        ));
        // Seed 0: a new draw each time (two equal draws of 64 values from 2^32: never).
        let draw = || {
            let mut h = Harness::new(
                RandomSource::<i32>::new(0, i64::from(i32::MAX), 64, false, 0).unwrap(),
            );
            h.set_space("out", 64);
            h.work().unwrap();
            h.take_output::<i32>("out")
        };
        assert_ne!(draw(), draw());
    }
}
