//! A scheduler that cannot get the threads it needs (issue 32, item 9): the run is refused with
//! an error naming the scheduler, the thread and the count, no block runs, every block that
//! started is stopped, no thread is left behind, and the same graph runs once threads are
//! available again. The failure is injected at every spawn of every scheduler
//! (`testing::fail_thread_spawns_after`, the system's EAGAIN); a `flow` worker count beyond
//! the machine's limit is refused before any block starts.

use radioflow_runtime::prelude::*;
use radioflow_runtime::testing::{
    fail_thread_spawns_after, runtime_threads, runtime_threads_settled, Counter, Sink,
};
use radioflow_runtime::{max_workers, FlowScheduler, Scheduler, SingleThread, ThreadPerBlock};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;

/// Passes `u32` items on and counts its hooks and work calls.
#[derive(Ports)]
struct Hooked {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    hooks: Arc<Hooks>,
    blocking: bool,
}

#[derive(Debug, Default)]
struct Hooks {
    starts: AtomicUsize,
    stops: AtomicUsize,
    works: AtomicUsize,
}

impl Block for Hooked {
    fn ports(&mut self, p: &mut Ports<'_>) {
        self.list_ports(p);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        self.hooks.works.fetch_add(1, SeqCst);
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
            o.copy_from_slice(i)
        });
        Ok(WorkStatus::Continue)
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.hooks.starts.fetch_add(1, SeqCst);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.hooks.stops.fetch_add(1, SeqCst);
        Ok(())
    }

    fn is_blocking(&self) -> bool {
        self.blocking
    }
}

use radioflow_runtime::PortFields;

/// Every scheduler, `flow` also with more workers than chains (idle workers join the team) and
/// a blocking block on a thread of its own.
fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
        Box::new(FlowScheduler::new().workers(3)),
        Box::new(FlowScheduler::new().workers(2).balance(false)),
    ]
}

const ITEMS: u64 = 50_000;

/// The tests count the process's runtime threads: one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// counter -> hooked -> hooked (blocking) -> hooked -> sink.
fn graph(hooks: &Arc<Hooks>) -> (Flowgraph, BlockId) {
    let mut fg = Flowgraph::new();
    let mut prev = fg.add(Counter::new(ITEMS));
    for blocking in [false, true, false] {
        let b = fg.add(Hooked {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            hooks: hooks.clone(),
            blocking,
        });
        fg.connect(prev, b).unwrap();
        prev = b;
    }
    let sink = fg.add(Sink::new());
    fg.connect(prev, sink).unwrap();
    (fg, sink)
}

#[test]
fn a_thread_that_cannot_be_spawned_stops_the_run_cleanly_at_every_spawn() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    for s in schedulers() {
        let baseline = runtime_threads();
        let hooks = Arc::new(Hooks::default());
        let (mut fg, sink) = graph(&hooks);
        // Fail the first spawn, then the second, ... until the run gets every thread it needs.
        let mut allowed = 0;
        loop {
            fail_thread_spawns_after(Some(allowed));
            let started = fg.start(s.as_ref());
            fail_thread_spawns_after(None);
            let Err(e) = started else { break };
            let name = s.name();
            match &e {
                RunError::Scheduler { scheduler, error } => {
                    assert_eq!(scheduler, name, "{e}");
                    assert!(
                        error.contains(&format!("cannot start thread {} of the ", allowed + 1))
                            && error.contains("Resource temporarily unavailable")
                            && error.contains("no block ran and every one was stopped"),
                        "{name}: {e}"
                    );
                }
                other => panic!("{name}: {other}"),
            }
            assert!(!fg.is_running(), "{name}");
            assert_eq!(hooks.works.load(SeqCst), 0, "{name}: a block ran");
            assert_eq!(
                hooks.stops.load(SeqCst),
                hooks.starts.load(SeqCst),
                "{name}: every started block is stopped"
            );
            assert_eq!(
                runtime_threads_settled(baseline),
                baseline,
                "{name}: threads left behind"
            );
            assert!(
                fg.block::<Sink>(sink).unwrap().items.is_empty(),
                "{name}: the blocks stay in the graph"
            );
            allowed += 1;
            assert!(allowed < 100, "{name}: never started");
        }
        assert!(allowed >= 1, "{}: the first spawn was refused", s.name());
        eprintln!("{}: {allowed} threads", s.name());
        fg.wait().unwrap();
        let got = &fg.block::<Sink>(sink).unwrap().items;
        assert!(got.iter().copied().eq(0..ITEMS as u32), "{}", s.name());
        assert_eq!(hooks.stops.load(SeqCst), hooks.starts.load(SeqCst));
    }
}

#[test]
fn more_flow_workers_than_the_limit_are_refused_before_any_block_starts() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let hooks = Arc::new(Hooks::default());
    let (mut fg, sink) = graph(&hooks);
    let max = max_workers();
    let e = fg
        .run_with(&FlowScheduler::new().workers(max + 1))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "scheduler 'flow': workers={} is more than this machine's limit of {max} worker \
             threads (16 per CPU)",
            max + 1
        )
    );
    assert_eq!(hooks.starts.load(SeqCst), 0);
    fg.run_with(&FlowScheduler::new().workers(max)).unwrap();
    assert_eq!(fg.block::<Sink>(sink).unwrap().items.len(), ITEMS as usize);
}
