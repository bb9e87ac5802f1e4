//! The scheduler a run uses, as a Python value: `radioflow.Scheduler("flow", workers=2)`.

use crate::errors::value_error;
use pyo3::prelude::*;
use radioflow_runtime::{
    FlowScheduler, RealtimePolicy, Scheduler, SingleThread, ThreadPerBlock, SCHEDULER_NAMES,
};

/// A scheduler and its settings; built anew for every run.
#[pyclass(frozen, module = "radioflow", name = "Scheduler")]
#[derive(Clone, Debug)]
pub(crate) struct PyScheduler {
    /// `flow`, `tpb` or `single`.
    #[pyo3(get)]
    name: String,
    workers: Option<usize>,
    pin: bool,
    realtime: bool,
    chunk_bytes: Option<usize>,
    buffer_bytes: Option<usize>,
    regions: bool,
    streaming_stores: bool,
}

#[pymethods]
impl PyScheduler {
    /// `name`: `flow` (default: a worker per core, chains kept on one core), `tpb` (a thread
    /// per block, GNU Radio 3.x style) or `single`. Flow only: `workers`, `pin` (worker i on
    /// CPU i), `chunk_bytes`, `buffer_bytes`, `regions` (False: every connection in its own
    /// ring, no chunk-sized regions shared down a chain), `streaming_stores` (False: copies into
    /// a connection read on another worker use ordinary stores, not non-temporal ones). Tpb
    /// only: `realtime` (SCHED_FIFO 50 where permitted, a warning where not).
    #[new]
    #[pyo3(signature = (name = "flow", *, workers = None, pin = false, realtime = false, chunk_bytes = None, buffer_bytes = None, regions = true, streaming_stores = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: &str,
        workers: Option<usize>,
        pin: bool,
        realtime: bool,
        chunk_bytes: Option<usize>,
        buffer_bytes: Option<usize>,
        regions: bool,
        streaming_stores: bool,
    ) -> PyResult<Self> {
        if !SCHEDULER_NAMES.contains(&name) {
            return Err(value_error(format!(
                "unknown scheduler '{name}': use one of {}",
                SCHEDULER_NAMES.join(", ")
            )));
        }
        let flow_only = workers.is_some()
            || pin
            || chunk_bytes.is_some()
            || buffer_bytes.is_some()
            || !regions
            || !streaming_stores;
        if flow_only && name != "flow" {
            return Err(value_error(format!(
                "workers, pin, chunk_bytes, buffer_bytes, regions and streaming_stores are \
                 settings of the flow scheduler, not of '{name}'"
            )));
        }
        if realtime && name != "tpb" {
            return Err(value_error(format!(
                "realtime is a setting of the tpb scheduler, not of '{name}'"
            )));
        }
        if workers == Some(0) || chunk_bytes == Some(0) || buffer_bytes == Some(0) {
            return Err(value_error(
                "workers, chunk_bytes and buffer_bytes must be positive",
            ));
        }
        Ok(Self {
            name: name.to_owned(),
            workers,
            pin,
            realtime,
            chunk_bytes,
            buffer_bytes,
            regions,
            streaming_stores,
        })
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Scheduler('{}'", self.name);
        if let Some(w) = self.workers {
            s += &format!(", workers={w}");
        }
        if self.pin {
            s += ", pin=True";
        }
        if self.realtime {
            s += ", realtime=True";
        }
        if let Some(b) = self.chunk_bytes {
            s += &format!(", chunk_bytes={b}");
        }
        if let Some(b) = self.buffer_bytes {
            s += &format!(", buffer_bytes={b}");
        }
        if !self.regions {
            s += ", regions=False";
        }
        if !self.streaming_stores {
            s += ", streaming_stores=False";
        }
        s + ")"
    }
}

impl PyScheduler {
    /// The default scheduler (`flow`, default settings).
    pub(crate) fn default_flow() -> Self {
        Self {
            name: "flow".into(),
            workers: None,
            pin: false,
            realtime: false,
            chunk_bytes: None,
            buffer_bytes: None,
            regions: true,
            streaming_stores: true,
        }
    }

    /// A scheduler with these settings.
    pub(crate) fn build(&self) -> Box<dyn Scheduler> {
        match self.name.as_str() {
            "tpb" => {
                let mut s = ThreadPerBlock::new();
                if self.realtime {
                    s = s.realtime(RealtimePolicy::Fifo(50));
                }
                Box::new(s)
            }
            "single" => Box::new(SingleThread::new()),
            _ => {
                let mut s = FlowScheduler::new()
                    .pin(self.pin)
                    .regions(self.regions)
                    .streaming_stores(self.streaming_stores);
                if let Some(w) = self.workers {
                    s = s.workers(w);
                }
                if let Some(b) = self.chunk_bytes {
                    s = s.chunk_bytes(b);
                }
                if let Some(b) = self.buffer_bytes {
                    s = s.buffer_bytes(b);
                }
                Box::new(s)
            }
        }
    }
}
