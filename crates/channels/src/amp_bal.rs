//! [`AmpBal`]: the quadrature branch scaled to the in-phase branch's RMS.

use radioflow_dsp::{ParamError, SinglePoleIir};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Balances the amplitudes of I and Q (GNU Radio 3.10's `channels.amp_bal`): each output is
/// `re + j·im·(rms(re) / rms(im))`, where each branch's RMS is GNU Radio's `rms_ff(alpha)`:
/// the square root of a single-pole average of the squares (`f64` state, from 0). As in
/// GNU Radio, `alpha` 0 (its default) leaves both averages at 0, and the quadrature branch
/// is then NaN. Tags pass with their items.
///
/// # Errors
/// `alpha` outside [0, 1], naming the parameter (GNU Radio's filter refuses it too).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_channels::AmpBal;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.5); 4]));
/// let bal = fg.add(AmpBal::new(1.0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, bal)?;
/// fg.connect(bal, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data()[3], Complex32::new(1.0, 1.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "amp_bal",
    summary = "The quadrature branch scaled by rms(I)/rms(Q), each RMS a single-pole average (GNU Radio's channels.amp_bal).",
    make = Self::new(alpha).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(alpha: f64 = 0.0, doc = "the RMS averages' weight on each new square, in [0, 1]")]
#[derive(Debug)]
pub struct AmpBal {
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    i: SinglePoleIir,
    q: SinglePoleIir,
}

#[block]
impl AmpBal {
    /// Balances with RMS averages of weight `alpha`.
    ///
    /// # Errors
    /// `alpha` outside [0, 1], naming the parameter.
    pub fn new(alpha: f64) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            i: SinglePoleIir::new(alpha)?,
            q: SinglePoleIir::new(alpha)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len().min(self.output.slice().len());
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n];
        for (o, x) in self.output.slice()[..n].iter_mut().zip(input) {
            // GNU Radio's rms_ff: a float square averaged in f64, its root back to float.
            let rms = |f: &mut SinglePoleIir, v: f32| f.step(f64::from(v * v)).sqrt() as f32;
            let (ri, rq) = (rms(&mut self.i, x.re), rms(&mut self.q, x.im));
            *o = Complex32::new(x.re, x.im * (ri / rq));
        }
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
