//! [`Pipeline`]: stages of a task graph on their own threads, linked by adaptors.

use crate::adaptor::{Msg, Queue, Signal, Wait};
use crate::error::{BuildError, ExecError};
use crate::frame::{Frame, Layout};
use crate::io::Status;
use crate::plan::Plan;
use crate::profile::SequenceProfile;
use crate::program::{Program, Replica};
use crate::sequence::{profile_of, Info};
use crate::task_graph::{CloneableTaskId, TaskGraph, TaskId};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

struct StageDef {
    tasks: Vec<u32>,
    replicas: usize,
    pin: Vec<usize>,
}

/// Describes a pipeline: which tasks run in which stage, on how many threads, and how the
/// stages exchange frames.
///
/// ```
/// use radioflow_framed::{TaskGraph, PipelineBuilder, Status};
///
/// let mut g = TaskGraph::new();
/// let src = g.sequential_module("source", 0u64); // state depends on the previous frame
/// let generate = g.task(src, "generate");
/// let out = g.output::<u64>(generate, "out", 16);
/// g.codelet(generate, move |n: &mut u64, io| {
///     io.output(out).fill(*n);
///     *n += 1;
///     Status::Continue
/// });
/// let sq = g.stateless("square");
/// let (i, o) = (g.input::<u64>(sq, "in", 16), g.output::<u64>(sq, "out", 16));
/// g.codelet(sq, move |_, io| {
///     for (o, i) in io.output(o).iter_mut().zip(io.input(i)) { *o = i * i; }
///     Status::Continue
/// });
/// g.bind(i, out)?;
/// let sink = g.sequential_module("sink", Vec::new());
/// let put = g.task(sink, "put");
/// let si = g.input::<u64>(put, "in", 16);
/// let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
/// let s2 = seen.clone();
/// g.codelet(put, move |_: &mut Vec<u64>, io| { s2.lock().unwrap().push(io.input(si)[0]); Status::Continue });
/// g.bind(si, o)?;
///
/// let mut p = PipelineBuilder::new(g)
///     .stage([generate.into()])
///     .replicated_stage(2, [sq.into()]) // two threads, each with its own `square`
///     .stage([put.into()])
///     .build()?;
/// let mut n = 0;
/// let report = p.exec(move || { n += 1; n == 100 })?;
/// assert_eq!(report.frames, 100);
/// assert_eq!(*seen.lock().unwrap(), (0..100).map(|k| k * k).collect::<Vec<u64>>()); // in order
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PipelineBuilder {
    graph: TaskGraph,
    stages: Vec<StageDef>,
    buffer: usize,
    copy: bool,
    wait: Wait,
    profiling: bool,
}

impl std::fmt::Debug for PipelineBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineBuilder")
            .field("stages", &self.stages.len())
            .field("buffer", &self.buffer)
            .field("copy", &self.copy)
            .field("wait", &self.wait)
            .finish()
    }
}

impl PipelineBuilder {
    /// A pipeline over `graph` with no stage yet; adaptors of 1 frame per consumer replica,
    /// copy-less, passive waiting.
    pub fn new(graph: TaskGraph) -> Self {
        PipelineBuilder {
            graph,
            stages: Vec::new(),
            buffer: 1,
            copy: false,
            wait: Wait::Passive,
            profiling: false,
        }
    }

    /// The stages and replica counts of `plan` (see [`plan`](crate::plan())). Whether the
    /// replicated stages can be cloned is checked when the pipeline is built.
    pub fn from_plan(graph: TaskGraph, plan: &Plan) -> Self {
        let mut b = Self::new(graph);
        for s in &plan.stages {
            b.stages.push(StageDef {
                tasks: s.tasks.iter().map(|t| t.0).collect(),
                replicas: s.replicas,
                pin: Vec::new(),
            });
        }
        b
    }

    /// Appends a stage run by one thread.
    pub fn stage(mut self, tasks: impl IntoIterator<Item = TaskId>) -> Self {
        self.stages.push(StageDef {
            tasks: tasks.into_iter().map(|t| t.0).collect(),
            replicas: 1,
            pin: Vec::new(),
        });
        self
    }

    /// Appends a stage run by `replicas` threads, each with its own clone of the stage's
    /// modules. Only cloneable tasks can be listed: a task of a [`Sequential`](crate::Sequential)
    /// module does not convert into [`CloneableTaskId`], so this does not compile:
    ///
    /// ```compile_fail,E0277
    /// use radioflow_framed::{TaskGraph, PipelineBuilder, Status};
    /// struct Synchronizer { previous: Box<u32> } // not Clone
    /// let mut g = TaskGraph::new();
    /// let m = g.sequential_module("sync", Synchronizer { previous: Box::new(0) });
    /// let t = g.task(m, "synchronize");
    /// let p = PipelineBuilder::new(g).replicated_stage(2, [t.into()]);
    /// ```
    ///
    /// and a module that is not `Clone` cannot be made cloneable:
    ///
    /// ```compile_fail,E0277
    /// use radioflow_framed::TaskGraph;
    /// struct Synchronizer { previous: Box<u32> } // not Clone
    /// let mut g = TaskGraph::new();
    /// let m = g.module("sync", Synchronizer { previous: Box::new(0) });
    /// ```
    ///
    /// while the same with `#[derive(Clone)]` compiles:
    ///
    /// ```
    /// use radioflow_framed::{TaskGraph, PipelineBuilder, Status};
    /// #[derive(Clone)]
    /// struct Synchronizer { previous: Box<u32> }
    /// let mut g = TaskGraph::new();
    /// let m = g.module("sync", Synchronizer { previous: Box::new(0) });
    /// let t = g.task(m, "synchronize");
    /// let p = PipelineBuilder::new(g).replicated_stage(2, [t.into()]);
    /// ```
    pub fn replicated_stage(
        mut self,
        replicas: usize,
        tasks: impl IntoIterator<Item = CloneableTaskId>,
    ) -> Self {
        self.stages.push(StageDef {
            tasks: tasks.into_iter().map(|t| t.0).collect(),
            replicas,
            pin: Vec::new(),
        });
        self
    }

    /// Frames each adaptor holds per consumer replica (default 1).
    pub fn buffer(mut self, frames: usize) -> Self {
        self.buffer = frames;
        self
    }

    /// Copy the data crossing a stage boundary into and out of the adaptors (the paper's first
    /// implementation) instead of passing frame pointers (default: copy-less).
    pub fn copy(mut self, copy: bool) -> Self {
        self.copy = copy;
        self
    }

    /// How threads wait on adaptors (default: passive).
    pub fn wait(mut self, wait: Wait) -> Self {
        self.wait = wait;
        self
    }

    /// Pins replica `i` of stage `stage` to CPU `cpus[i % cpus.len()]`.
    ///
    /// # Panics
    /// If the stage does not exist yet.
    pub fn pin(mut self, stage: usize, cpus: Vec<usize>) -> Self {
        self.stages[stage].pin = cpus;
        self
    }

    /// Measure every task (see [`Pipeline::profile`]).
    pub fn profiling(mut self, on: bool) -> Self {
        self.profiling = on;
        self
    }

    /// Checks the stages and compiles each one.
    ///
    /// # Errors
    /// [`BuildError::StageMembership`] (a task in no stage or two, a module split over
    /// stages), [`BuildError::SwitcherSplit`], [`BuildError::OutsideSequence`] (a stage reads a
    /// later one), [`BuildError::NotCloneable`] (from a plan), [`BuildError::Params`], and
    /// the errors of [`Sequence::new`](crate::Sequence::new).
    pub fn build(self) -> Result<Pipeline, BuildError> {
        let PipelineBuilder {
            mut graph,
            stages,
            buffer,
            copy,
            wait,
            profiling,
        } = self;
        let g = &mut graph;
        g.validate()?;
        if stages.is_empty() || buffer == 0 || stages.iter().any(|s| s.replicas == 0) {
            return Err(BuildError::Params(
                "a pipeline needs at least one stage, replicas >= 1 and buffer >= 1".into(),
            ));
        }
        let nt = g.tasks.len();
        let mut stage_of = vec![usize::MAX; nt];
        for (s, def) in stages.iter().enumerate() {
            for &t in &def.tasks {
                if t as usize >= nt || stage_of[t as usize] != usize::MAX {
                    return Err(BuildError::StageMembership(
                        g.tasks
                            .get(t as usize)
                            .map_or("?".into(), |x| x.name.clone()),
                    ));
                }
                stage_of[t as usize] = s;
            }
        }
        let mut module_stage = vec![usize::MAX; g.modules.len()];
        for (t, &s) in stage_of.iter().enumerate() {
            let m = g.tasks[t].module as usize;
            if s == usize::MAX || (module_stage[m] != usize::MAX && module_stage[m] != s) {
                return Err(BuildError::StageMembership(g.tasks[t].name.clone()));
            }
            module_stage[m] = s;
        }
        for sw in &g.switchers {
            let s = stage_of[sw.select as usize];
            let sel = &g.tasks[sw.select as usize];
            let feeders = sel
                .inputs
                .iter()
                .map(|&i| g.sockets[g.sockets[i as usize].bound.expect("validated") as usize].task);
            // Paths may leave the stage (an exit read later), but every path back into the
            // select must come from this stage or an earlier one.
            let split = stage_of[sw.commute as usize] != s
                || feeders.into_iter().any(|t| stage_of[t as usize] > s);
            if split {
                return Err(BuildError::SwitcherSplit(sw.name.clone()));
            }
        }
        let info = Info::of(g);
        let layout = g.frame_layout();
        let mut rt = Vec::with_capacity(stages.len());
        for (s, def) in stages.iter().enumerate() {
            let in_stage: Vec<bool> = (0..nt).map(|t| stage_of[t] == s).collect();
            let before: Vec<bool> = (0..nt).map(|t| stage_of[t] < s).collect();
            let prog = Arc::new(Program::generate(g, &in_stage, &before, &[])?);
            let mut replicas = Replica::make(g, &prog, &prog.order, def.replicas, s)?;
            for r in &mut replicas {
                r.profiling = profiling;
            }
            // Output sockets written before this stage and read from it on.
            let mut crossing: Vec<u32> = Vec::new();
            for t in 0..nt {
                if stage_of[t] >= s {
                    continue;
                }
                for &o in &g.tasks[t].outputs {
                    if g.sockets[o as usize]
                        .readers
                        .iter()
                        .any(|&i| stage_of[g.sockets[i as usize].task as usize] >= s)
                    {
                        crossing.push(o);
                    }
                }
            }
            rt.push(StageRt {
                prog,
                replicas,
                pin: def.pin.clone(),
                crossing,
            });
        }
        Ok(Pipeline {
            info,
            layout,
            switchers: g.switchers.len(),
            stages: rt,
            buffer,
            copy,
            wait,
            frames: 0,
        })
    }
}

struct StageRt {
    prog: Arc<Program>,
    replicas: Vec<Replica>,
    pin: Vec<usize>,
    /// Sockets the adaptor before this stage carries.
    crossing: Vec<u32>,
}

/// Time of one stage, summed over its replicas.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageReport {
    /// Threads.
    pub replicas: usize,
    /// Frames the stage handled (aborted ones included).
    pub frames: u64,
    /// Seconds running tasks.
    pub work_s: f64,
    /// Seconds waiting for an adaptor slot (or a free frame, or the turn to start a frame).
    pub wait_s: f64,
    /// Seconds copying into and out of adaptors (copying mode).
    pub copy_s: f64,
    /// Seconds the threads ran in total.
    pub wall_s: f64,
}

/// What [`Pipeline::exec`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PipelineReport {
    /// Frames that went through.
    pub frames: u64,
    /// Frames a task aborted.
    pub aborted: u64,
    /// Wall-clock seconds from the start of the threads to the end of the last.
    pub seconds: f64,
    /// Per stage.
    pub stages: Vec<StageReport>,
}

/// A compiled pipeline: run it with [`exec`](Self::exec) (repeatedly if wanted).
pub struct Pipeline {
    info: Info,
    layout: Layout,
    switchers: usize,
    stages: Vec<StageRt>,
    buffer: usize,
    copy: bool,
    wait: Wait,
    frames: u64,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline")
            .field("stages", &self.stages.len())
            .field("copy", &self.copy)
            .finish()
    }
}

/// The copy-less frame pool.
struct Pool {
    frames: Box<[UnsafeCell<Frame>]>,
    free: Mutex<Vec<u32>>,
    signal: Signal,
}

// SAFETY: a pool frame is used by one thread at a time: the one that took its index from
// `free` (under the mutex) or received it through an adaptor slot (Release/Acquire), until it
// passes the index on.
unsafe impl Sync for Pool {}

struct Shared<'a> {
    layout: &'a Layout,
    copy: bool,
    wait: Wait,
    replicas: Vec<usize>,
    /// Per stage: the sockets the adaptor into it carries (copying mode).
    crossing: Vec<Vec<u32>>,
    /// `queues[s][j]`: into replica `j` of stage `s` (stage 0 has none).
    queues: Vec<Vec<Queue>>,
    pool: Pool,
    abort: AtomicBool,
    /// Stage 0: the sequence number whose turn it is to start (replicated first stage).
    turn: AtomicU64,
    turn_signal: Signal,
    /// Stage 0: no frame at or after this (`u64::MAX`: not yet known).
    end_at: AtomicU64,
    error: Mutex<Option<ExecError>>,
    stop: Mutex<&'a mut (dyn FnMut() -> bool + Send)>,
}

impl Shared<'_> {
    fn fail(&self, e: ExecError) {
        let mut g = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if g.is_none() {
            *g = Some(e);
        }
        drop(g);
        self.abort.store(true, Ordering::SeqCst);
        for qs in &self.queues {
            for q in qs {
                q.wake_all();
            }
        }
        self.pool.signal.notify();
        self.turn_signal.notify();
    }
}

impl Pipeline {
    /// Runs frames through the stages until `stop` returns true; `stop` is asked once before
    /// each frame after the first (so, as for [`Sequence::exec`](crate::Sequence::exec), the
    /// number of frames is the number of calls up to the first `true`).
    ///
    /// # Errors
    /// The first [`ExecError`] of any stage (a task that panics is reported as
    /// [`ExecError::Panicked`]); the other threads stop.
    pub fn exec(
        &mut self,
        mut stop: impl FnMut() -> bool + Send,
    ) -> Result<PipelineReport, ExecError> {
        let ns = self.stages.len();
        let replicas: Vec<usize> = self.stages.iter().map(|s| s.replicas.len()).collect();
        let layout = &self.layout;
        let nsw = self.switchers;
        let make = || Frame::new(layout, nsw);
        let queues: Vec<Vec<Queue>> = (0..ns)
            .map(|s| {
                if s == 0 {
                    return Vec::new();
                }
                (0..replicas[s])
                    .map(|j| {
                        Queue::new(
                            j,
                            replicas[s],
                            self.buffer,
                            if self.copy { Some(&make) } else { None },
                        )
                    })
                    .collect()
            })
            .collect();
        let pool_size = if self.copy {
            0
        } else {
            replicas.iter().sum::<usize>() + self.buffer * replicas[1..].iter().sum::<usize>() + 1
        };
        let shared = Shared {
            layout,
            copy: self.copy,
            wait: self.wait,
            replicas: replicas.clone(),
            crossing: self.stages.iter().map(|s| s.crossing.clone()).collect(),
            queues,
            pool: Pool {
                frames: (0..pool_size).map(|_| UnsafeCell::new(make())).collect(),
                free: Mutex::new((0..pool_size as u32).rev().collect()),
                signal: Signal::default(),
            },
            abort: AtomicBool::new(false),
            turn: AtomicU64::new(0),
            turn_signal: Signal::default(),
            end_at: AtomicU64::new(u64::MAX),
            error: Mutex::new(None),
            stop: Mutex::new(&mut stop),
        };
        let t0 = Instant::now();
        let mut reports: Vec<StageReport> = replicas
            .iter()
            .map(|&r| StageReport {
                replicas: r,
                ..Default::default()
            })
            .collect();
        let mut aborted = 0;
        let mut last_frames = 0;
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (s, stage) in self.stages.iter_mut().enumerate() {
                for (r, rep) in stage.replicas.iter_mut().enumerate() {
                    let shared = &shared;
                    let pin = (!stage.pin.is_empty()).then(|| stage.pin[r % stage.pin.len()]);
                    let name = format!("rf-stage{s}.{r}");
                    let h = std::thread::Builder::new()
                        .name(name)
                        .spawn_scoped(scope, move || {
                            if let Some(cpu) = pin {
                                // Best effort: a refused pin leaves the thread unpinned.
                                let _ = radioflow_runtime::pin_current_thread(&[cpu]);
                            }
                            let mut own = shared.copy.then(|| Frame::new(shared.layout, nsw));
                            let mut st = ReplicaStats::default();
                            let res =
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    run_replica(shared, s, r, rep, own.as_mut(), &mut st)
                                }));
                            match res {
                                Ok(Ok(())) => {}
                                Ok(Err(e)) => shared.fail(e),
                                Err(p) => shared.fail(ExecError::Panicked {
                                    stage: s,
                                    task: rep.current_task().to_owned(),
                                    message: panic_message(&p),
                                }),
                            }
                            (s, st)
                        })
                        .expect("spawn a pipeline thread");
                    handles.push(h);
                }
            }
            for h in handles {
                let (s, st) = h.join().expect("replica threads catch panics");
                let rep = &mut reports[s];
                rep.frames += st.frames;
                rep.work_s += st.work_ns as f64 * 1e-9;
                rep.wait_s += st.wait_ns as f64 * 1e-9;
                rep.copy_s += st.copy_ns as f64 * 1e-9;
                rep.wall_s += st.wall_ns as f64 * 1e-9;
                if s == ns - 1 {
                    aborted += st.aborted;
                    last_frames += st.frames;
                }
            }
        });
        let seconds = t0.elapsed().as_secs_f64();
        if let Some(e) = shared.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        self.frames += last_frames;
        Ok(PipelineReport {
            frames: last_frames,
            aborted,
            seconds,
            stages: reports,
        })
    }

    /// Per-task measurements of every stage so far (all replicas merged), in stage order;
    /// empty counts unless built with [`profiling`](PipelineBuilder::profiling).
    pub fn profile(&self) -> SequenceProfile {
        let mut p = SequenceProfile {
            frames: self.frames,
            ..Default::default()
        };
        for s in &self.stages {
            let stats: Vec<&Vec<_>> = s.replicas.iter().map(|r| &r.stats).collect();
            let part = profile_of(&self.info, &s.prog, &stats, self.frames);
            let base = p.tasks.len();
            p.spans
                .extend(part.spans.iter().map(|&(a, b)| (a + base, b + base)));
            p.tasks.extend(part.tasks);
        }
        p
    }
}

#[derive(Default)]
struct ReplicaStats {
    frames: u64,
    aborted: u64,
    work_ns: u64,
    wait_ns: u64,
    copy_ns: u64,
    wall_ns: u64,
}

fn ns(t: Instant) -> u64 {
    t.elapsed().as_nanos() as u64
}

/// The loop of replica `r` of stage `s`: frames `r`, `r + R`, `r + 2R`, ...
fn run_replica(
    sh: &Shared<'_>,
    s: usize,
    r: usize,
    rep: &mut Replica,
    mut own: Option<&mut Frame>,
    st: &mut ReplicaStats,
) -> Result<(), ExecError> {
    let start = Instant::now();
    let rs = sh.replicas[s] as u64;
    let last = s + 1 == sh.replicas.len();
    let mut k = r as u64;
    let result = loop {
        // 1. The frame for sequence number `k`, or the end.
        let mut end = None;
        let mut msg = Msg::default();
        if s == 0 {
            let t = Instant::now();
            if rs > 1
                && !sh.turn_signal.wait(sh.wait, &sh.abort, || {
                    sh.turn.load(Ordering::Acquire) == k || sh.end_at.load(Ordering::Acquire) <= k
                })
            {
                break Ok(());
            }
            let e = sh.end_at.load(Ordering::Acquire);
            if e <= k {
                end = Some(e);
            } else if k > 0 && (sh.stop.lock().unwrap_or_else(|e| e.into_inner()))() {
                sh.end_at.store(k, Ordering::Release);
                end = Some(k);
            }
            if rs > 1 {
                if end.is_none() {
                    sh.turn.store(k + 1, Ordering::Release);
                }
                sh.turn_signal.notify();
            }
            if end.is_none() && !sh.copy {
                let mut got = None;
                if !sh.pool.signal.wait(sh.wait, &sh.abort, || {
                    got = sh.pool.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    got.is_some()
                }) {
                    break Ok(());
                }
                msg.frame = got.expect("waited for a frame");
            }
            st.wait_ns += ns(t);
        } else {
            let t = Instant::now();
            let mut copy_ns = 0;
            let q = &sh.queues[s][r];
            let got = q.pop(k, sh.wait, &sh.abort, |m, buf| {
                if let (Some(buf), Some(own), None, false) =
                    (buf, own.as_deref_mut(), m.end, m.aborted)
                {
                    let c = Instant::now();
                    for &o in &sh.crossing[s] {
                        own.copy_in(sh.layout, buf, o);
                    }
                    copy_ns = ns(c);
                }
            });
            let Some(m) = got else { break Ok(()) };
            st.copy_ns += copy_ns;
            st.wait_ns += ns(t) - copy_ns;
            end = m.end;
            msg = m;
        }
        if let Some(e) = end {
            if !last {
                forward_end(sh, s, r, e);
            }
            break Ok(());
        }
        // 2. Run the stage's program on it.
        let frame: &mut Frame = match own.as_deref_mut() {
            Some(f) => f,
            // SAFETY: frame `msg.frame` was taken from the pool or received through an adaptor
            // by this thread, which is its only user until it passes the index on (`Pool`).
            None => unsafe { &mut *sh.pool.frames[msg.frame as usize].get() },
        };
        frame.seq = k;
        if !msg.aborted {
            let t = Instant::now();
            match rep.run(frame) {
                Ok(Status::Continue) => {}
                Ok(Status::Abort) => msg.aborted = true,
                Err(e) => break Err(e),
            }
            st.work_ns += ns(t);
        }
        st.frames += 1;
        // 3. Pass it on.
        if last {
            if msg.aborted {
                st.aborted += 1;
            }
            if !sh.copy {
                sh.pool
                    .free
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(msg.frame);
                sh.pool.signal.notify();
            }
        } else {
            let t = Instant::now();
            let next = s + 1;
            let q = &sh.queues[next][(k % sh.replicas[next] as u64) as usize];
            let mut copy_ns = 0;
            // No reference to the frame may live across `push`: once published, a copy-less
            // frame belongs to the consumer.
            let src: *const Frame = frame;
            let aborted = msg.aborted;
            let ok = q.push(k, msg, sh.wait, &sh.abort, |buf| {
                if let (Some(buf), false) = (buf, aborted) {
                    // SAFETY: slot buffers exist only in copying mode, where `src` is this
                    // replica's own frame, never shared, and alive for this whole call.
                    let frame = unsafe { &*src };
                    let c = Instant::now();
                    for &o in &sh.crossing[next] {
                        buf.copy_in(sh.layout, frame, o);
                    }
                    copy_ns = ns(c);
                }
            });
            st.copy_ns += copy_ns;
            st.wait_ns += ns(t) - copy_ns;
            if !ok {
                break Ok(());
            }
        }
        k += rs;
    };
    st.wall_ns = ns(start);
    result
}

/// Tells stage `s + 1` that no frame has a sequence number at or above `end`: this replica
/// sends the markers for the numbers it would have produced.
fn forward_end(sh: &Shared<'_>, s: usize, r: usize, end: u64) {
    let rs = sh.replicas[s] as u64;
    let next = s + 1;
    let rn = sh.replicas[next] as u64;
    for t in end..end + rn {
        if t % rs != r as u64 {
            continue;
        }
        let q = &sh.queues[next][(t % rn) as usize];
        let m = Msg {
            frame: 0,
            aborted: false,
            end: Some(end),
        };
        if !q.push(t, m, sh.wait, &sh.abort, |_| {}) {
            return;
        }
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}
