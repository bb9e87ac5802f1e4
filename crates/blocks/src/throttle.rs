//! [`Throttle`]: limits the average item rate.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::time::{Duration, Instant};

/// Longest stretch of items passed in one call, in seconds at the configured rate; keeps the
/// output smooth and the latency low.
const MAX_CHUNK_SECONDS: f64 = 0.005;

/// Largest lag behind the schedule that is caught up by passing items without sleeping.
const MAX_LAG: Duration = Duration::from_millis(50);

/// Passes items through unchanged (with their tags) at `items_per_second` on average, by
/// sleeping, like GNU Radio's `throttle`. For graphs without hardware to pace them; it is no
/// precise clock.
///
/// The clock starts at the first work call. Before passing a chunk the block sleeps until the
/// items already passed are due; one call passes at most about 5 ms worth of items (at least
/// one item). When upstream stalls, the block catches up at most 50 ms worth of items at full
/// speed and forgets the rest of the lag, so a stall causes no long burst.
///
/// `sample_rate` can be set while the graph runs; as GNU Radio's `set_sample_rate` does, a new
/// rate restarts the clock: the schedule counts from the next work call, at the new rate.
///
/// Blocking: yes (it sleeps), so thread-sharing schedulers give it its own thread.
///
/// # Example
/// ```
/// use radioflow_blocks::{NullSink, Throttle, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
/// use std::time::{Duration, Instant};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 1000]));
/// let throttle = fg.add(Throttle::<u8>::new(10_000.0));
/// let sink = fg.add(NullSink::<u8>::new());
/// fg.connect(src, throttle)?;
/// fg.connect(throttle, sink)?;
/// let t = Instant::now();
/// fg.run()?;
/// assert!(t.elapsed() >= Duration::from_millis(90)); // 1000 items at 10 000/s
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "throttle",
    summary = "Limits the item rate to `sample_rate` items per second (for graphs without hardware).",
    dtypes = all,
    make = Self::new(sample_rate).with_vlen(vlen)
)]
// At most 1000 s between two items: slower, a throttle no longer paces a stream but holds it
// (1e-9 put the second item 30 years away), and at about 1e-19 the sleep is past what a
// `Duration` holds (1e-300 panicked). No upper bound: a rate beyond what the graph can move
// simply never sleeps.
#[param(sample_rate: f64, at_least = 1e-3, settable, doc = "items per second (vectors where vlen > 1)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct Throttle<T: Item> {
    /// The items to pass.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The same items, paced.
    #[output(name = "out")]
    output: StreamOutput<T>,
    items_per_second: f64,
    max_chunk: usize,
    /// Time of the first work call, moved forward by lags beyond `MAX_LAG`.
    start: Option<Instant>,
    /// Items passed since `start`.
    passed: u64,
}

#[block(blocking, paced)]
impl<T: Item> Throttle<T> {
    /// Passes `items_per_second` items per second on average.
    ///
    /// # Panics
    /// If `items_per_second` is not finite and at least 0.001, the declared range of
    /// `sample_rate` (the registry refuses it with an error when the block is made from
    /// parameters).
    pub fn new(items_per_second: f64) -> Self {
        if let Err(e) = Self::DESCRIPTION.check_float("sample_rate", items_per_second) {
            panic!("throttle: items_per_second {e}");
        }
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            items_per_second,
            max_chunk: (items_per_second * MAX_CHUNK_SECONDS).max(1.0) as usize,
            start: None,
            passed: 0,
        }
    }

    /// Passes vectors of `vlen` scalars (at least 1): the rate counts vectors.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    /// Paces at `items_per_second` from now on: the clock restarts at the next work call (GNU
    /// Radio resets its start time and item count).
    ///
    /// # Panics
    /// As [`new`](Self::new) (the `sample_rate` message input checks the range first).
    pub fn set_sample_rate(&mut self, items_per_second: f64) {
        if let Err(e) = Self::DESCRIPTION.check_float("sample_rate", items_per_second) {
            panic!("throttle: items_per_second {e}");
        }
        self.items_per_second = items_per_second;
        self.max_chunk = (items_per_second * MAX_CHUNK_SECONDS).max(1.0) as usize;
        self.start = None;
        self.passed = 0;
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vlen = self.input.vlen();
        let n = self
            .input
            .slice()
            .len()
            .min(self.output.slice().len())
            .min(self.max_chunk.saturating_mul(vlen));
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let start = self.start.get_or_insert_with(Instant::now);
        let due = *start + Duration::from_secs_f64(self.passed as f64 / self.items_per_second);
        let now = Instant::now();
        if due > now {
            // A stop cuts the sleep short (a slow rate would hold `stop()` for a whole period).
            if !interruptible_sleep(due - now) {
                return Ok(WorkStatus::Continue);
            }
        } else if now - due > MAX_LAG {
            *start += now - due - MAX_LAG;
        }
        copy_work(&mut self.input, &mut self.output, n);
        self.passed += (n / vlen) as u64;
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn passes_at_most_5_ms_of_items_per_call_on_schedule() {
        // 2,000 items per second: 10 items per call, 5 ms apart.
        let mut h = Harness::new(Throttle::<u32>::new(2_000.0));
        h.push_tag("in", 12, "t", 12i64);
        h.push("in", &(0..25u32).collect::<Vec<_>>());
        let t = Instant::now();
        for want in [10, 20, 25] {
            h.work().unwrap();
            assert_eq!(h.produced("out"), want);
        }
        assert!(t.elapsed() >= Duration::from_millis(9), "{:?}", t.elapsed());
        assert_eq!(h.output_tags("out"), [Tag::new(12, "t", 12i64)]);
        assert_eq!(h.take_output::<u32>("out"), (0..25).collect::<Vec<_>>());
        h.set_space("out", 3);
        h.push("in", &[7u32; 5]);
        h.work().unwrap();
        assert_eq!(h.produced("out"), 28, "the output limits too");
        assert!(h.block().is_blocking());
        assert!(h.block().is_paced(), "it waits to its rate by design");
    }

    #[test]
    fn a_new_rate_restarts_the_clock_and_passes_the_items_unchanged() {
        let mut h = Harness::new(Throttle::<u32>::new(2_000.0));
        h.push("in", &(0..10u32).collect::<Vec<_>>());
        h.work().unwrap();
        assert_eq!(h.block().passed, 10);
        assert!(h.block().start.is_some());
        // Through the message input, as a running graph gets it; a rate outside the
        // declaration is ignored.
        h.post("sample_rate", Pmt::Double(0.0)).unwrap();
        assert_eq!(h.block().items_per_second, 2_000.0);
        h.post("sample_rate", Pmt::Double(400_000.0)).unwrap();
        // GNU Radio's set_sample_rate: item count and start time reset.
        let b = h.block();
        assert_eq!(
            (b.items_per_second, b.max_chunk, b.passed),
            (400_000.0, 2_000, 0)
        );
        assert!(b.start.is_none());
        h.push("in", &(10..3000u32).collect::<Vec<_>>());
        h.work().unwrap();
        assert_eq!(
            h.produced("out"),
            10 + 2_000,
            "5 ms at the new rate in one call"
        );
        h.work().unwrap();
        assert_eq!(h.take_output::<u32>("out"), (0..3000).collect::<Vec<_>>());
    }
}
