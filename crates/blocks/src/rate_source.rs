//! [`RateSource`]: a source that must deliver samples at a real-time rate, dropping what the
//! graph cannot take in time.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::time::{Duration, Instant};

/// Wake-ups per second while waiting for the next samples to fall due.
const TICKS_PER_SECOND: f64 = 1000.0;

/// Emits `rate` samples per second of wall-clock time, like a radio front end: samples fall due
/// with time whether or not the graph is ready for them, and those that find the output buffer
/// full are dropped (an overflow), counted in [`dropped`](Self::dropped). It stops after
/// `total` samples have fallen due. The samples count up (`0, 1, 2, ...` converted to `T`), so
/// a sink can tell which arrived. With [`RateProbe`](crate::RateProbe) at the end of the graph
/// this measures the "signal quality" of Green et al.: delivered over required samples.
///
/// # Example
/// ```
/// use radioflow_blocks::{RateProbe, RateSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(RateSource::new(100_000.0, 5_000)); // 50 ms of samples
/// let probe = fg.add(RateProbe::new());
/// fg.connect(src, probe)?;
/// fg.run()?;
/// let delivered = fg.block::<RateProbe>(probe).unwrap().items();
/// let dropped = fg.block::<RateSource>(src).unwrap().dropped();
/// assert_eq!(delivered + dropped, 5_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "rate_source",
    summary = "A source of `rate` float32 samples per second in real time, `total` in all, counting what it had to drop because the graph was not ready (a device's overflow).",
    dtypes = [Float32]
)]
// At most 1000 s between two samples (as `throttle`); at about 1e-19 the wait for the next
// sample is past what a `Duration` holds.
#[param(rate: f64, at_least = 1e-3, doc = "samples per second")]
#[param(total: u64, doc = "samples in all")]
#[derive(Debug)]
pub struct RateSource {
    /// The samples that found room, counting up.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    rate: f64,
    total: u64,
    start: Option<Instant>,
    /// Samples that fell due so far (emitted or dropped).
    due: u64,
    dropped: u64,
}

#[block(blocking)]
impl RateSource {
    /// A source of `rate` samples per second, `total` samples in all.
    ///
    /// # Panics
    /// If `rate` is not finite and at least 0.001 (the registry refuses it with an error
    /// when the block is made from parameters).
    pub fn new(rate: f64, total: u64) -> Self {
        if let Err(e) = Self::DESCRIPTION.check_float("rate", rate) {
            panic!("rate_source: rate {e}");
        }
        Self {
            output: StreamOutput::new(),
            rate,
            total,
            start: None,
            due: 0,
            dropped: 0,
        }
    }

    /// Samples dropped because the output was full when they fell due.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Samples delivered into the graph.
    pub fn delivered(&self) -> u64 {
        self.due - self.dropped
    }

    /// Seconds from the first sample to the last one falling due.
    pub fn duration(&self) -> f64 {
        self.total as f64 / self.rate
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.due >= self.total {
            return Ok(WorkStatus::Done);
        }
        let start = *self.start.get_or_insert_with(Instant::now);
        let mut now_due = ((start.elapsed().as_secs_f64() * self.rate) as u64).min(self.total);
        if now_due == self.due {
            // Sleep until at least one tick's worth of samples is due.
            let next = (self.due as f64 + (self.rate / TICKS_PER_SECOND).max(1.0)) / self.rate;
            let wait = Duration::from_secs_f64(next).saturating_sub(start.elapsed());
            // A stop cuts the sleep short.
            if !interruptible_sleep(wait) {
                return Ok(WorkStatus::Continue);
            }
            now_due = ((start.elapsed().as_secs_f64() * self.rate) as u64).min(self.total);
        }
        let new = (now_due - self.due) as usize;
        let out = self.output.slice();
        let n = new.min(out.len());
        for (k, o) in out[..n].iter_mut().enumerate() {
            *o = (self.due - self.dropped + k as u64) as f32;
        }
        self.output.produce(n);
        self.dropped += (new - n) as u64;
        self.due = now_due;
        Ok(if self.due >= self.total {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn what_finds_the_output_full_is_dropped_and_counted() {
        // 2,000 samples at 1 MHz: 2 ms, taken 10 per call at most.
        let mut h = Harness::new(RateSource::new(1e6, 2_000));
        h.set_space("out", 10);
        let mut got = Vec::new();
        while h.work().unwrap() == WorkStatus::Continue {
            got.extend(h.take_output::<f32>("out"));
        }
        got.extend(h.take_output::<f32>("out"));
        let src = h.block();
        assert_eq!(src.delivered() + src.dropped(), 2_000);
        assert_eq!(got.len() as u64, src.delivered());
        assert!(src.dropped() > 0, "10 per call cannot keep up with 1 MHz");
        let counting: Vec<f32> = (0..got.len()).map(|k| k as f32).collect();
        assert_eq!(got, counting, "delivered samples count up without gaps");
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert!(h.block().is_blocking());
    }
}
