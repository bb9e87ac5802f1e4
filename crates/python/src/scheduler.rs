//! The scheduler a run uses, as a Python value: `radioflow.Scheduler("flow", workers=2)`.

use crate::errors::value_error;
use pyo3::prelude::*;
use pyo3::types::PyBool;
use radioflow_runtime::{Scheduler, SchedulerSpec};

/// A scheduler and its settings ([`SchedulerSpec`]); built anew for every run.
#[pyclass(frozen, module = "radioflow", name = "Scheduler")]
#[derive(Clone, Debug)]
pub(crate) struct PyScheduler {
    spec: SchedulerSpec,
}

#[pymethods]
impl PyScheduler {
    /// `name`: `flow` (default: a worker per core, chains kept on one core), `tpb` (a thread
    /// per block, GNU Radio 3.x style) or `single`, or a whole spec as the command line takes
    /// it (`"flow:workers=2,pin"`, `"tpb:realtime"`). Flow only: `workers`, `pin` (worker i on
    /// CPU i), `chunk_bytes`, `buffer_bytes`, `regions` (False: every connection in its own
    /// ring, no chunk-sized regions shared down a chain), `streaming_stores` (False: copies into
    /// a connection read on another worker use ordinary stores, not non-temporal ones). Tpb
    /// only: `realtime` (SCHED_FIFO 50 where permitted, a warning where not).
    #[new]
    #[pyo3(signature = (name = "flow", *, workers = None, pin = false, realtime = false, chunk_bytes = None, buffer_bytes = None, regions = true, streaming_stores = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: &str,
        workers: Option<&Bound<'_, PyAny>>,
        pin: bool,
        realtime: bool,
        chunk_bytes: Option<&Bound<'_, PyAny>>,
        buffer_bytes: Option<&Bound<'_, PyAny>>,
        regions: bool,
        streaming_stores: bool,
    ) -> PyResult<Self> {
        let mut spec: SchedulerSpec = name.parse().map_err(|e| value_error(format!("{e}")))?;
        let flow_only = workers.is_some()
            || pin
            || chunk_bytes.is_some()
            || buffer_bytes.is_some()
            || !regions
            || !streaming_stores;
        // The runtime's limit (a multiple of the CPUs), so that a spec string and a keyword
        // are refused alike.
        let workers = positive("workers", workers, radioflow_runtime::max_workers())?;
        let chunk_bytes = positive("chunk_bytes", chunk_bytes, 1 << 40)?;
        let buffer_bytes = positive("buffer_bytes", buffer_bytes, 1 << 40)?;
        match &mut spec {
            SchedulerSpec::Flow(f) => {
                f.workers = workers.or(f.workers);
                f.chunk_bytes = chunk_bytes.or(f.chunk_bytes);
                f.buffer_bytes = buffer_bytes.or(f.buffer_bytes);
                f.pin |= pin;
                f.regions &= regions;
                f.streaming_stores &= streaming_stores;
            }
            other if flow_only => {
                return Err(value_error(format!(
                    "workers, pin, chunk_bytes, buffer_bytes, regions and streaming_stores are \
                     settings of the flow scheduler, not of '{}'",
                    other.name()
                )));
            }
            SchedulerSpec::ThreadPerBlock { realtime: r } => *r |= realtime,
            SchedulerSpec::Single => {}
        }
        if realtime && spec.name() != "tpb" {
            return Err(value_error(format!(
                "realtime is a setting of the tpb scheduler, not of '{}'",
                spec.name()
            )));
        }
        Ok(Self { spec })
    }

    /// `flow`, `tpb` or `single`.
    #[getter]
    fn name(&self) -> &'static str {
        self.spec.name()
    }

    /// The spec in the command line's form (`flow:workers=2,pin`).
    fn __str__(&self) -> String {
        self.spec.to_string()
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Scheduler('{}'", self.spec.name());
        match &self.spec {
            SchedulerSpec::Flow(f) => {
                if let Some(w) = f.workers {
                    s += &format!(", workers={w}");
                }
                if f.pin {
                    s += ", pin=True";
                }
                if let Some(b) = f.chunk_bytes {
                    s += &format!(", chunk_bytes={b}");
                }
                if let Some(b) = f.buffer_bytes {
                    s += &format!(", buffer_bytes={b}");
                }
                if !f.regions {
                    s += ", regions=False";
                }
                if !f.streaming_stores {
                    s += ", streaming_stores=False";
                }
            }
            SchedulerSpec::ThreadPerBlock { realtime: true } => s += ", realtime=True",
            _ => {}
        }
        s + ")"
    }
}

impl PyScheduler {
    /// The default scheduler (`flow`, default settings).
    pub(crate) fn default_flow() -> Self {
        Self {
            spec: SchedulerSpec::default(),
        }
    }

    /// A scheduler with these settings.
    pub(crate) fn build(&self) -> Box<dyn Scheduler> {
        self.spec.build()
    }
}

/// `value` as a count in 1..=max, or a `ValueError` naming `name`.
fn positive(name: &str, value: Option<&Bound<'_, PyAny>>, max: usize) -> PyResult<Option<usize>> {
    value
        .map(|v| match v.extract::<i64>().ok().map(usize::try_from) {
            Some(Ok(n)) if (1..=max).contains(&n) && !v.is_instance_of::<PyBool>() => Ok(n),
            _ => Err(value_error(format!(
                "Scheduler: {name} must be an integer between 1 and {max}, not {v}"
            ))),
        })
        .transpose()
}
