//! [`RateProbe`]: a sink that measures the rate at which samples arrive.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::time::Instant;

/// Consumes `f32` samples and records how many arrived and when the first and the last did,
/// so that the delivered rate can be compared with the required one (see
/// [`RateSource`](crate::RateSource)).
///
/// # Example
/// ```
/// use radioflow_blocks::{RateProbe, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32; 1000]));
/// let probe = fg.add(RateProbe::new());
/// fg.connect(src, probe)?;
/// fg.run()?;
/// assert_eq!(fg.block::<RateProbe>(probe).unwrap().items(), 1000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "rate_probe",
    summary = "Counts the float32 items it receives and the rate at which they arrive.",
    dtypes = [Float32]
)]
#[derive(Debug, Default)]
pub struct RateProbe {
    /// The samples to count.
    #[input(name = "in")]
    input: StreamInput<f32>,
    items: u64,
    first: Option<Instant>,
    last: Option<Instant>,
}

#[block]
impl RateProbe {
    /// A probe.
    pub fn new() -> Self {
        Self::default()
    }

    /// Samples received.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// Samples per second between the first and the last arrival (0 before two arrivals).
    pub fn delivered_rate(&self) -> f64 {
        match (self.first, self.last) {
            (Some(a), Some(b)) if b > a => self.items as f64 / (b - a).as_secs_f64(),
            _ => 0.0,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        if n > 0 {
            let now = Instant::now();
            self.first.get_or_insert(now);
            self.last = Some(now);
            self.items += n as u64;
            self.input.consume(n);
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;
    use std::time::Duration;

    #[test]
    fn counts_arrivals_and_their_rate() {
        let mut h = Harness::new(RateProbe::new());
        h.work().unwrap();
        assert_eq!(h.block().delivered_rate(), 0.0, "nothing arrived");
        h.push("in", &[0.0f32; 100]);
        h.work().unwrap();
        assert_eq!(h.block().delivered_rate(), 0.0, "one arrival");
        std::thread::sleep(Duration::from_millis(20));
        h.push("in", &[0.0f32; 100]);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.block().items()), (200, 200));
        // 200 items in at least 20 ms.
        let rate = h.block().delivered_rate();
        assert!(rate > 0.0 && rate <= 10_000.0, "{rate}");
    }
}
