//! [`Sequence`]: a task graph compiled into a static schedule, run frame after frame on the
//! calling thread.

use crate::error::{BuildError, ExecError};
use crate::frame::Frame;
use crate::io::{Out, Status};
use crate::profile::{SequenceProfile, TaskProfile};
use crate::program::{Program, Replica};
use crate::task_graph::{TaskGraph, TaskId, TaskKind};
use std::any::TypeId;
use std::sync::Arc;

/// What [`Sequence::exec`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Frames started.
    pub frames: u64,
    /// Frames a task aborted (early exit).
    pub aborted: u64,
}

/// Names, kinds and socket types of a graph, kept after its states moved into replicas.
#[derive(Clone, Debug)]
pub(crate) struct Info {
    pub(crate) uid: u32,
    pub(crate) names: Vec<String>,
    pub(crate) cloneable: Vec<bool>,
    pub(crate) control: Vec<bool>,
    pub(crate) types: Vec<TypeId>,
    pub(crate) lens: Vec<usize>,
}

impl Info {
    pub(crate) fn of(g: &TaskGraph) -> Info {
        Info {
            uid: g.uid,
            names: g.tasks.iter().map(|t| t.name.clone()).collect(),
            cloneable: (0..g.tasks.len() as u32).map(|t| g.cloneable(t)).collect(),
            control: g
                .tasks
                .iter()
                .map(|t| matches!(t.kind, TaskKind::Select(_) | TaskKind::Commute(_)))
                .collect(),
            types: g.sockets.iter().map(|s| s.ty).collect(),
            lens: g.sockets.iter().map(|s| s.len).collect(),
        }
    }

    pub(crate) fn check<T: 'static>(&self, o: Out<T>) {
        assert!(o.graph == self.uid, "socket of another graph");
        assert!(
            self.types[o.id as usize] == TypeId::of::<T>() && self.lens[o.id as usize] == o.len()
        );
    }
}

/// A static schedule of tasks over one frame, executed on the calling thread.
///
/// The order is computed once, as in the paper: depth-first from the first tasks, a task is
/// added when all its inputs have been visited (a select when its last input has), following
/// outputs in binding order. Switchers become jumps: a loop jumps back to its select, a switch
/// continues at the commute's chosen path and then at the select.
pub struct Sequence {
    info: Info,
    prog: Arc<Program>,
    replica: Replica,
    frame: Frame,
    frames: u64,
}

impl std::fmt::Debug for Sequence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sequence")
            .field("order", &self.order())
            .field("frames", &self.frames)
            .finish()
    }
}

impl Sequence {
    /// Compiles every task of the graph; tasks with no input start in creation order.
    ///
    /// # Errors
    /// See [`BuildError`]: unbound inputs, tasks without codelet, unreachable tasks, a task
    /// reading its own output through a switcher, badly nested switchers.
    pub fn new(graph: TaskGraph) -> Result<Sequence, BuildError> {
        Self::with_bounds(graph, &[], &[])
    }

    /// Compiles the tasks reachable from `first` (started in this order), not going past the
    /// tasks in `last`, as the paper's `Sequence(first, last)`. Other tasks are left out.
    ///
    /// # Errors
    /// As for [`new`](Self::new), and [`BuildError::OutsideSequence`] when a task of the
    /// sequence reads a task left out.
    pub fn with_bounds(
        mut graph: TaskGraph,
        first: &[TaskId],
        last: &[TaskId],
    ) -> Result<Sequence, BuildError> {
        graph.validate()?;
        let nt = graph.tasks.len();
        let mut member = vec![first.is_empty(); nt];
        if !first.is_empty() {
            let mut todo: Vec<u32> = first.iter().map(|t| t.0).collect();
            while let Some(t) = todo.pop() {
                if std::mem::replace(&mut member[t as usize], true) {
                    continue;
                }
                if last.iter().any(|l| l.0 == t) {
                    continue;
                }
                for &o in &graph.tasks[t as usize].outputs {
                    for &i in &graph.sockets[o as usize].readers {
                        todo.push(graph.sockets[i as usize].task);
                    }
                }
            }
        }
        let firsts: Vec<u32> = first.iter().map(|t| t.0).collect();
        let prog = Arc::new(Program::generate(
            &graph,
            &member,
            &vec![false; nt],
            &firsts,
        )?);
        let tasks: Vec<u32> = prog.order.clone();
        let mut replica = Replica::make(&mut graph, &prog, &tasks, 1, 0)?
            .pop()
            .expect("one replica");
        replica.profiling = false;
        let layout = graph.frame_layout();
        Ok(Sequence {
            info: Info::of(&graph),
            frame: Frame::new(&layout, graph.switchers.len()),
            prog,
            replica,
            frames: 0,
        })
    }

    /// Runs one frame.
    ///
    /// # Errors
    /// [`ExecError::PathOutOfRange`] when a commute gets a path it does not have.
    pub fn exec_once(&mut self) -> Result<Status, ExecError> {
        self.frames += 1;
        self.replica.run(&mut self.frame)
    }

    /// Runs frames until `stop` (asked after each frame) returns true.
    ///
    /// # Errors
    /// As for [`exec_once`](Self::exec_once); execution stops at the first error.
    pub fn exec(&mut self, mut stop: impl FnMut() -> bool) -> Result<Report, ExecError> {
        let mut r = Report::default();
        loop {
            r.frames += 1;
            if self.replica.run(&mut self.frame)? == Status::Abort {
                r.aborted += 1;
            }
            if stop() {
                break;
            }
        }
        self.frames += r.frames;
        Ok(r)
    }

    /// Measures every task from now on (two clock reads per task), or stops measuring.
    pub fn set_profiling(&mut self, on: bool) {
        self.replica.profiling = on;
    }

    /// Forgets the measurements so far.
    pub fn reset_profile(&mut self) {
        for s in &mut self.replica.stats {
            *s = Default::default();
        }
        self.frames = 0;
    }

    /// The measurements so far, in execution order (see [`set_profiling`](Self::set_profiling)).
    pub fn profile(&self) -> SequenceProfile {
        profile_of(&self.info, &self.prog, &[&self.replica.stats], self.frames)
    }

    /// Names of the tasks in the order they run (switcher tasks included).
    pub fn order(&self) -> Vec<&str> {
        self.prog
            .order
            .iter()
            .map(|&t| self.info.names[t as usize].as_str())
            .collect()
    }

    /// The data an output socket shows now (after a frame: what that frame wrote).
    ///
    /// # Panics
    /// If `o` belongs to another graph.
    pub fn read<T: bytemuck::Pod>(&self, o: Out<T>) -> &[T] {
        self.info.check(o);
        let p = self.frame.slots[o.id as usize];
        // SAFETY: the socket has type `T` and `o.len()` elements (checked just above); slots
        // point to live buffers of the frame, which `&self` keeps from being written.
        unsafe { std::slice::from_raw_parts(p as *const T, o.len()) }
    }

    /// The buffer of an output socket, to write before [`exec_once`](Self::exec_once) (for
    /// [`TaskGraph::external`] sockets).
    ///
    /// # Panics
    /// If `o` belongs to another graph.
    pub fn write<T: bytemuck::Pod>(&mut self, o: Out<T>) -> &mut [T] {
        self.info.check(o);
        let p = self.frame.slots[o.id as usize];
        // SAFETY: as in `read`; `&mut self` makes this the only reference into the frame.
        unsafe { std::slice::from_raw_parts_mut(p as *mut T, o.len()) }
    }
}

/// Merges replica statistics into a profile in program order.
pub(crate) fn profile_of(
    info: &Info,
    prog: &Program,
    stats: &[&Vec<crate::profile::TaskStats>],
    frames: u64,
) -> SequenceProfile {
    let tasks = prog
        .order
        .iter()
        .map(|&t| {
            let mut s = crate::profile::TaskStats::default();
            for r in stats {
                let x = r[t as usize];
                s.count += x.count;
                s.total_ns += x.total_ns;
                s.min_ns = s.min_ns.min(x.min_ns);
                s.max_ns = s.max_ns.max(x.max_ns);
            }
            TaskProfile {
                task: TaskId(t),
                name: info.names[t as usize].clone(),
                cloneable: info.cloneable[t as usize],
                control: info.control[t as usize],
                stats: s,
            }
        })
        .collect();
    SequenceProfile {
        tasks,
        frames,
        spans: prog.spans.clone(),
    }
}
