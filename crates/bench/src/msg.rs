//! `msg` (Bloessl et al. 2019, Fig. 2): a burst of B 500-byte messages -> a shared source
//! forwarder -> P chains of S forwarders -> one counter per chain. Verified: every counter saw
//! B messages. Measured side by side by [`crate::compare`].

use crate::experiment::{check_shape, timed_run};
use crate::measurement::{BenchError, Measurement};
use crate::values;
use clap::Args;
use radioflow_blocks::{MessageBurstSource, MessageCounter, MessageForwarder};
use radioflow_runtime::{BlockId, Flowgraph, Pmt, Scheduler};
use serde_json::json;

/// Size of each message's payload, as in the paper.
pub const MESSAGE_BYTES: usize = 500;

/// Parameters of the message benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsgParams {
    /// Parallel chains.
    pub pipes: usize,
    /// Forwarders per chain.
    pub stages: usize,
    /// Messages in the burst.
    pub burst: usize,
}

/// Size of the `msg` graph.
#[derive(Args, Clone, Copy)]
pub(crate) struct MsgArgs {
    #[arg(long, default_value = "10", value_parser = values::small, allow_negative_numbers = true)]
    pipes: usize,
    #[arg(long, default_value = "10", value_parser = values::small, allow_negative_numbers = true)]
    stages: usize,
    /// Messages in the burst (accepts 1e3; at most 1e7, built in memory before the run).
    #[arg(long, default_value = "1000", value_parser = values::messages, allow_negative_numbers = true)]
    burst: u64,
}

impl From<MsgArgs> for MsgParams {
    fn from(a: MsgArgs) -> Self {
        MsgParams {
            pipes: a.pipes,
            stages: a.stages,
            burst: a.burst as usize,
        }
    }
}

/// The graph and its counters.
pub fn build(p: &MsgParams) -> Result<(Flowgraph, Vec<BlockId>), BenchError> {
    check_shape("msg", p.pipes, p.stages)?;
    let mut fg = Flowgraph::new();
    let payload = Pmt::U8Vector(vec![0u8; MESSAGE_BYTES].into());
    let burst = fg.add(MessageBurstSource::repeat(payload, p.burst));
    let source = fg.add(MessageForwarder::new());
    let connect = |fg: &mut Flowgraph, a, b| {
        fg.connect_message(a, b)
            .unwrap_or_else(|e| unreachable!("the msg graph is well-formed: {e}"))
    };
    connect(&mut fg, burst, source);
    let mut counters = Vec::with_capacity(p.pipes);
    for _ in 0..p.pipes {
        let mut prev = source;
        for _ in 0..p.stages {
            let f = fg.add(MessageForwarder::new());
            connect(&mut fg, prev, f);
            prev = f;
        }
        let c = fg.add(MessageCounter::new());
        connect(&mut fg, prev, c);
        counters.push(c);
    }
    Ok((fg, counters))
}

/// Builds, runs and verifies one `msg` run.
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run(p: &MsgParams, scheduler: &dyn Scheduler) -> Result<Measurement, BenchError> {
    let (mut fg, counters) = build(p)?;
    let seconds = timed_run("msg", &mut fg, scheduler)?;
    let verified = counters.iter().all(|&c| {
        fg.block::<MessageCounter>(c)
            .is_some_and(|k| k.count() == p.burst as u64)
    });
    Ok(Measurement {
        experiment: "msg".into(),
        runtime: "radioflow".into(),
        scheduler: scheduler.name().to_owned(),
        params: json!({ "pipes": p.pipes, "stages": p.stages, "burst": p.burst }),
        seconds,
        verified,
        extra: serde_json::Value::Null,
        detail: format!("{} counters x {} messages", p.pipes, p.burst),
    })
}
