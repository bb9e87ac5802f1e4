//! [`RotatorCc`]: complex samples turned by a phase that grows each sample.

use radioflow_dsp::{ParamError, Rotator};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Complex32;
use std::collections::BTreeMap;
use std::f64::consts::TAU;

/// Multiplies each sample by `e^{jφ}`, `φ` growing by `phase_inc` radians a sample (GNU
/// Radio's `blocks.rotator_cc`), on the [`Rotator`] kernel.
///
/// A dict on `cmd` with `inc` (radians a sample) changes the increment: at the output item
/// `offset` where the dict has one (an offset already written is dropped, as GNU Radio drops
/// it), else at the next item written. With `tag_inc_update` the item where an increment
/// changes is tagged `rot_phase_inc` = the new increment. A `cmd` message that is not such a
/// dict stops the run, as GNU Radio's throws.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, RotatorCc, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 3]));
/// let rot = fg.add(RotatorCc::new(std::f64::consts::FRAC_PI_2, false)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, rot)?;
/// fg.connect(rot, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().to_vec();
/// assert!((y[1] - Complex32::new(0.0, 1.0)).norm() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "rotator_cc",
    summary = "Complex samples times e^{jφ}, φ growing by phase_inc a sample; `cmd` dicts (inc, offset) change it (GNU Radio's rotator_cc).",
    make = Self::new(phase_inc, tag_inc_update).map_err(|e| Refused::param(e.name, e.reason))?
)]
#[param(phase_inc: f64 = 0.0, doc = "radians the phase grows each sample")]
#[param(tag_inc_update: bool = false, doc = "tag rot_phase_inc where a cmd message changes the increment")]
#[message_input(
    name = "cmd",
    doc = "a dict: inc (radians a sample), offset (the output item it starts at; default: the next)"
)]
#[derive(Debug)]
pub struct RotatorCc {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The samples turned.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    rotator: Rotator,
    tag_updates: bool,
    /// Increments waiting for their output offset (in order; a later one at the same offset
    /// replaces an earlier).
    updates: BTreeMap<u64, f64>,
}

#[block]
impl RotatorCc {
    /// Turns by `phase_inc` radians a sample; `tag_inc_update` tags increments changed by
    /// `cmd`.
    ///
    /// # Errors
    /// `phase_inc` not finite.
    pub fn new(phase_inc: f64, tag_inc_update: bool) -> Result<Self, ParamError> {
        let rotator = Rotator::new(phase_inc / TAU, 1.0)
            .map_err(|e| ParamError::new("phase_inc", e.reason))?;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            rotator,
            tag_updates: tag_inc_update,
            updates: BTreeMap::new(),
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len().min(self.output.slice().len());
        let at = self.output.offset();
        let end = at + n as u64;
        let mut done = 0;
        while let Some((&offset, &inc)) = self.updates.first_key_value() {
            if offset >= end {
                break;
            }
            self.updates.pop_first();
            if offset < at + done as u64 {
                continue;
            }
            let upto = (offset - at) as usize;
            let (i, o) = (
                &self.input.slice()[done..upto],
                &mut self.output.slice()[done..upto],
            );
            self.rotator.process(i, o);
            done = upto;
            self.set_inc(inc)?;
            if self.tag_updates {
                self.output.add_tag(offset, "rot_phase_inc", inc);
            }
        }
        // Split borrows: the input and output slices of the same call.
        let input = &self.input.slice()[done..n];
        let output = &mut self.output.slice()[done..n];
        self.rotator.process(input, output);
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }

    fn set_inc(&mut self, inc: f64) -> Result<(), BlockError> {
        self.rotator
            .set_shift(inc / TAU)
            .map_err(|_| BlockError::msg(format!("cmd: inc {inc} is not a finite number")))
    }

    #[message_input]
    fn cmd(&mut self, msg: Pmt) -> Result<(), BlockError> {
        if !msg.is_dict() {
            return Err(BlockError::msg(format!(
                "cmd: {} is not a dict (GNU Radio: \"Rotator command message must be a PMT dictionary\")",
                radioflow_runtime::echo::cut(&msg.to_string())
            )));
        }
        let Some(inc) = msg.dict_get("inc") else {
            return Err(BlockError::msg(
                "cmd: the dict has no 'inc' (GNU Radio: \"Unsupported command message\")",
            ));
        };
        let inc = inc
            .as_f64()
            .ok_or_else(|| BlockError::msg(format!("cmd: inc {inc} is not a number")))?;
        let offset = match msg.dict_get("offset") {
            Some(o) => o.as_u64().ok_or_else(|| {
                BlockError::msg(format!("cmd: offset {o} is not a whole number >= 0"))
            })?,
            None => self.output.offset(),
        };
        self.updates.insert(offset, inc);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn an_increment_changes_at_its_offset_with_a_tag() {
        let mut h = Harness::new(RotatorCc::new(0.0, true).unwrap());
        h.post(
            "cmd",
            Pmt::dict_from([
                ("inc", Pmt::Double(std::f64::consts::PI)),
                ("offset", Pmt::Uint64(2)),
            ]),
        )
        .unwrap();
        h.push("in", &[Complex32::new(1.0, 0.0); 5]);
        h.work().unwrap();
        let (y, tags) = h.take_output_with_tags::<Complex32>("out");
        let re: Vec<i32> = y.iter().map(|c| c.re.round() as i32).collect();
        assert_eq!(re, [1, 1, 1, -1, 1]);
        assert_eq!(tags, [Tag::new(2, "rot_phase_inc", std::f64::consts::PI)]);
        assert!(h.post("cmd", Pmt::Int(1)).is_err());
        assert!(h.post("cmd", Pmt::dict_from([("x", 1i64)])).is_err());
    }
}
