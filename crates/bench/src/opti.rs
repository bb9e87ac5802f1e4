//! `opti` (Bloessl et al. 2019, Fig. 7/8): `pipes` (4) independent branches, each its own null
//! source -> head(N) -> S copy blocks -> null sink. Swept over S, the cost per stage is the
//! slope of a linear regression of run time on S. Verified: every sink received exactly N
//! items. Measured side by side by [`crate::compare`].

use crate::experiment::{check_shape, connect, sinks_received, timed_run};
use crate::measurement::{BenchError, Measurement};
use crate::values;
use clap::Args;
use radioflow_blocks::{Copy, Head, NullSink, NullSource};
use radioflow_runtime::{BlockId, Flowgraph, Scheduler};
use serde_json::json;

/// Parameters of one `opti` point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptiParams {
    /// Independent branches (4 in the paper).
    pub pipes: usize,
    /// Copy blocks per branch.
    pub stages: usize,
    /// f32 samples per branch.
    pub samples: u64,
}

/// Size of the `opti` graph.
#[derive(Args, Clone, Copy)]
pub(crate) struct OptiArgs {
    #[arg(long, default_value = "4", value_parser = values::small, allow_negative_numbers = true)]
    pipes: usize,
    #[arg(long, default_value = "10", value_parser = values::small, allow_negative_numbers = true)]
    stages: usize,
    /// Samples per branch (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = values::count, allow_negative_numbers = true)]
    samples: u64,
}

impl From<OptiArgs> for OptiParams {
    fn from(a: OptiArgs) -> Self {
        OptiParams {
            pipes: a.pipes,
            stages: a.stages,
            samples: a.samples,
        }
    }
}

/// The graph and its sinks.
pub fn build(p: &OptiParams) -> Result<(Flowgraph, Vec<BlockId>), BenchError> {
    check_shape("opti", p.pipes, p.stages)?;
    let mut fg = Flowgraph::new();
    let mut sinks = Vec::with_capacity(p.pipes);
    for _ in 0..p.pipes {
        let src = fg.add(NullSource::<f32>::new());
        let head = fg.add(Head::<f32>::new(p.samples));
        connect(&mut fg, src, head);
        let mut prev = head;
        for _ in 0..p.stages {
            let c = fg.add(Copy::<f32>::new());
            connect(&mut fg, prev, c);
            prev = c;
        }
        let sink = fg.add(NullSink::<f32>::new());
        connect(&mut fg, prev, sink);
        sinks.push(sink);
    }
    Ok((fg, sinks))
}

/// The paper's "manual optimization" applied to radioflow's thread-per-block scheduler: each
/// branch pinned to one CPU (branch `i` to CPU `i % cpus`), and every block limited to an L1d's
/// worth of items per work call (`l1d_items`), as `build_tuned` sets.
pub fn tuned_tpb(p: &OptiParams, cpus: usize) -> radioflow_runtime::ThreadPerBlock {
    let mut s = radioflow_runtime::ThreadPerBlock::new();
    for pipe in 0..p.pipes {
        let core = vec![pipe % cpus.max(1)];
        s = s
            .pin(format!("null_source{pipe}"), core.clone())
            .pin(format!("head{pipe}"), core.clone())
            .pin(format!("null_sink{pipe}"), core.clone());
        for k in 0..p.stages {
            s = s.pin(format!("copy{}", pipe * p.stages + k), core.clone());
        }
    }
    s
}

/// Builds, runs and verifies one `opti` point.
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run(p: &OptiParams, scheduler: &dyn Scheduler) -> Result<Measurement, BenchError> {
    run_limited(p, scheduler, None)
}

/// [`run`] with every block limited to `max_items` per work call (the tuned configuration).
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run_limited(
    p: &OptiParams,
    scheduler: &dyn Scheduler,
    max_items: Option<usize>,
) -> Result<Measurement, BenchError> {
    let (mut fg, sinks) = build(p)?;
    if let Some(m) = max_items {
        for b in 0..fg.len() {
            fg.set_max_items(radioflow_runtime::BlockId::from_index(b), m);
        }
    }
    let seconds = timed_run("opti", &mut fg, scheduler)?;
    let verified = sinks_received(&fg, &sinks, p.samples);
    Ok(Measurement {
        experiment: "opti".into(),
        runtime: "radioflow".into(),
        scheduler: scheduler.name().to_owned(),
        params: json!({ "pipes": p.pipes, "stages": p.stages, "samples": p.samples }),
        seconds,
        verified,
        extra: serde_json::Value::Null,
        detail: format!("{} sinks x {} items", p.pipes, p.samples),
    })
}
