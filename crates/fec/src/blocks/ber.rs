//! [`Ber`]: the bit error rate between two byte streams (GNU Radio's `fec.ber_bf`).

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The bit error rate between two streams of bytes, as `log10(errors / bits)` (GNU Radio's
/// `fec.ber_bf`): the differing bits of each pair of bytes (all eight bits count) over eight
/// bits a byte, from the start of the stream.
///
/// Streaming (`test_mode` false): each time it runs on new bytes, it takes all both inputs
/// have and puts out one value, the rate so far (`-inf` while there is no error), as GNU
/// Radio puts out one value per call of its work function: how many values depends on how
/// the bytes arrive, the last one does not.
///
/// Test mode: it counts until `berminerrors` errors, puts out the rate then, and finishes;
/// or, once there is an error and the rate is below `berlimit`, puts out `berlimit` and
/// finishes (a simulation at high SNR stops early).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fec::Ber;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![0u8; 100]));
/// let b = fg.add(VectorSource::new(vec![0x0fu8; 100]));
/// let ber = fg.add(Ber::new(true, 100, -7.0));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(a, (ber, 0))?;
/// fg.connect(b, (ber, 1))?;
/// fg.connect(ber, sink)?;
/// fg.run()?;
/// // Half the bits differ.
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[0.5f32.log10()]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_ber_bf",
    summary = "The bit error rate between two byte streams, as log10 (GNU Radio's fec.ber_bf).",
    make = Self::new(test_mode, berminerrors, berlimit)
)]
#[param(test_mode: bool = false, doc = "stop after berminerrors errors or below berlimit, with one value; else one value per run on new bytes")]
#[param(berminerrors: i64 = 100, doc = "test mode: the errors to count before the value")]
#[param(berlimit: f32 = -7.0, doc = "test mode: the log10 rate below which it stops at once (with an error counted)")]
#[derive(Debug)]
pub struct Ber {
    /// Bytes sent.
    #[input(name = "in0")]
    a: StreamInput<u8>,
    /// Bytes received.
    #[input(name = "in1")]
    b: StreamInput<u8>,
    /// `log10` of the bit error rate.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    test_mode: bool,
    min_errors: i64,
    limit: f32,
    errors: i64,
    bytes: u64,
}

#[block]
impl Ber {
    /// Compares two byte streams, in test mode or streaming.
    pub fn new(test_mode: bool, berminerrors: i64, berlimit: f32) -> Self {
        Self {
            a: StreamInput::new(),
            b: StreamInput::new(),
            output: StreamOutput::new(),
            test_mode,
            min_errors: berminerrors,
            limit: berlimit,
            errors: 0,
            bytes: 0,
        }
    }

    /// GNU Radio's `log10(errors / (bytes · 8))`, in f64 then f32.
    fn log_ber(&self) -> f32 {
        (self.errors as f64 / (self.bytes as f64 * 8.0)).log10() as f32
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.test_mode && self.errors >= self.min_errors {
            return Ok(WorkStatus::Done);
        }
        let (a, b) = (self.a.slice(), self.b.slice());
        let n = a.len().min(b.len());
        if n == 0 || self.output.slice().is_empty() {
            return Ok(WorkStatus::Continue);
        }
        self.errors += a[..n]
            .iter()
            .zip(&b[..n])
            .map(|(x, y)| i64::from((x ^ y).count_ones()))
            .sum::<i64>();
        self.bytes += n as u64;
        self.a.consume(n);
        self.b.consume(n);
        let value = if !self.test_mode || self.errors >= self.min_errors {
            self.log_ber()
        } else if self.errors > 0 && self.log_ber() < self.limit {
            self.errors = self.min_errors.saturating_add(1);
            self.limit
        } else {
            return Ok(WorkStatus::Continue);
        };
        self.output.slice()[0] = value;
        self.output.produce(1);
        Ok(WorkStatus::Continue)
    }
}
