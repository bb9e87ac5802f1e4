//! The compiled form of a sequence: a flat list of operations with jumps, generated once from
//! the task graph (depth-first, a task added once all its inputs are visited, as in the paper),
//! and the executor that runs it on a frame.

use crate::error::{BuildError, ExecError};
use crate::frame::Frame;
use crate::io::{Io, Status};
use crate::profile::TaskStats;
use crate::task_graph::{Runnable, TaskGraph, TaskKind};
use std::any::Any;
use std::sync::Arc;
use std::time::Instant;

/// One operation of a program. Slot ids are socket ids (outputs); `side` holds lists.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    /// Run the codelet of task `0`.
    Task(u32),
    /// Point `out` at input `side[ins + path]`.
    Select {
        sw: u32,
        task: u32,
        ins: u32,
        out: u32,
    },
    /// Read the path from slot `path`, point `side[outs + path]` at slot `input`, continue at
    /// `side[targets + path]`.
    Commute {
        sw: u32,
        task: u32,
        input: u32,
        path: u32,
        outs: u32,
        targets: u32,
    },
    /// Continue at this position (the program length ends the frame).
    Jump(u32),
}

/// A compiled sequence (or pipeline stage).
#[derive(Debug)]
pub(crate) struct Program {
    pub(crate) ops: Vec<Op>,
    pub(crate) side: Vec<u32>,
    /// Paths per switcher (all switchers of the graph).
    pub(crate) paths: Vec<u32>,
    pub(crate) switcher_names: Vec<String>,
    /// Every task's name, by index (to name a task that panicked).
    pub(crate) task_names: Vec<String>,
    /// Tasks (codelet, external and switcher) in the order they were scheduled.
    pub(crate) order: Vec<u32>,
    /// Ranges of `order` (inclusive) that a pipeline cut must not split (switcher regions).
    pub(crate) spans: Vec<(usize, usize)>,
}

enum Label {
    Unset,
    Block(usize),
    Alias(usize),
    End,
}

/// How a basic block ends: not yet decided, a jump to a label, or a commute that jumps to the
/// label of the path it reads.
enum BlockEnd {
    Open,
    Jump(usize),
    Commute { op: Op, targets: Vec<usize> },
}

/// A run of operations with one way in (its label) and one way out (its end), laid out one
/// after the other when the program is linked.
struct BasicBlock {
    ops: Vec<Op>,
    end: BlockEnd,
}

const END: usize = 0;

/// Compiles a graph (or one stage of it) into basic blocks, then links them into a program.
struct Compiler<'g> {
    g: &'g TaskGraph,
    in_stage: &'g [bool],
    visited: Vec<u32>,
    needed: Vec<u32>,
    emitted: Vec<bool>,
    blocks: Vec<BasicBlock>,
    labels: Vec<Label>,
    select_label: Vec<Option<usize>>,
    select_pos: Vec<Option<usize>>,
    merge_label: Vec<Option<usize>>,
    commuted: Vec<bool>,
    merge_ready: Vec<bool>,
    hit: Option<usize>,
    order: Vec<u32>,
    side: Vec<u32>,
    spans: Vec<(usize, usize)>,
}

/// Where a region of the program starts: the tasks ready at the start, or the socket a commute
/// path leaves from.
enum RegionStart {
    Tasks(Vec<u32>),
    Socket(u32),
}

impl Compiler<'_> {
    fn new_label(&mut self) -> usize {
        self.labels.push(Label::Unset);
        self.labels.len() - 1
    }

    fn new_block(&mut self) -> (usize, usize) {
        self.blocks.push(BasicBlock {
            ops: Vec::new(),
            end: BlockEnd::Open,
        });
        let b = self.blocks.len() - 1;
        self.labels.push(Label::Block(b));
        (b, self.labels.len() - 1)
    }

    fn set_hit(&mut self, l: usize, sw: u32) -> Result<(), BuildError> {
        match self.hit {
            Some(h) if h != l => Err(BuildError::Unstructured(
                self.g.switchers[sw as usize].name.clone(),
            )),
            _ => {
                self.hit = Some(l);
                Ok(())
            }
        }
    }

    fn merge(&mut self, sw: u32) -> usize {
        match self.merge_label[sw as usize] {
            Some(l) => l,
            None => {
                let l = self.new_label();
                self.merge_label[sw as usize] = Some(l);
                l
            }
        }
    }

    /// Marks the readers of output `out` visited; appends the tasks that became ready.
    fn visit(&mut self, out: u32, ready: &mut Vec<u32>) -> Result<(), BuildError> {
        let g = self.g;
        for &i in &g.sockets[out as usize].readers {
            let u = g.sockets[i as usize].task;
            if !self.in_stage[u as usize] {
                continue;
            }
            match g.tasks[u as usize].kind {
                TaskKind::Select(sw) => {
                    let k = g.tasks[u as usize]
                        .inputs
                        .iter()
                        .position(|&x| x == i)
                        .expect("a select input belongs to its select");
                    let last = k as u32 == g.switchers[sw as usize].paths - 1;
                    if self.emitted[u as usize] {
                        let l = self.select_label[sw as usize].expect("emitted select has a label");
                        self.set_hit(l, sw)?;
                    } else if self.commuted[sw as usize] {
                        if last {
                            self.merge_ready[sw as usize] = true;
                        }
                        let m = self.merge(sw);
                        self.set_hit(m, sw)?;
                    } else if last {
                        ready.push(u);
                    }
                }
                _ => {
                    self.visited[u as usize] += 1;
                    if self.visited[u as usize] == self.needed[u as usize] {
                        ready.push(u);
                    }
                }
            }
        }
        Ok(())
    }

    fn push_successors(&mut self, t: u32, stack: &mut Vec<u32>) -> Result<(), BuildError> {
        let mut ready = Vec::new();
        for &o in &self.g.tasks[t as usize].outputs {
            self.visit(o, &mut ready)?;
        }
        stack.extend(ready.into_iter().rev());
        Ok(())
    }

    /// Next task to schedule: the top of the stack, but a commute only when nothing else is
    /// ready (what is ready before a branch is scheduled before it).
    fn pick(&self, stack: &mut Vec<u32>) -> Option<u32> {
        let is_commute = |t: &u32| matches!(self.g.tasks[*t as usize].kind, TaskKind::Commute(_));
        if let Some(top) = stack.last()
            && is_commute(top)
            && let Some(p) = stack.iter().rposition(|t| !is_commute(t))
        {
            return Some(stack.remove(p));
        }
        stack.pop()
    }

    fn emit_select(&mut self, b: usize, t: u32, sw: u32) {
        let spec = &self.g.tasks[t as usize];
        let ins = self.side.len() as u32;
        for &i in &spec.inputs {
            self.side
                .push(self.g.sockets[i as usize].bound.expect("validated: bound"));
        }
        self.blocks[b].ops.push(Op::Select {
            sw,
            task: t,
            ins,
            out: spec.outputs[0],
        });
        self.emitted[t as usize] = true;
        self.select_pos[sw as usize] = Some(self.order.len());
        self.order.push(t);
    }

    /// Schedules everything reachable from `start` into blocks starting at `first`; when the
    /// region runs dry it jumps to the switcher it reached, or else to `cont`. Returns whether
    /// it reached a switcher.
    fn region(
        &mut self,
        first: usize,
        start: RegionStart,
        cont: usize,
    ) -> Result<bool, BuildError> {
        let saved = self.hit.take();
        let mut stack = match start {
            RegionStart::Tasks(mut t) => {
                t.reverse();
                t
            }
            RegionStart::Socket(s) => {
                let mut r = Vec::new();
                self.visit(s, &mut r)?;
                r.reverse();
                r
            }
        };
        let mut cur = Some(first);
        while let Some(t) = self.pick(&mut stack) {
            let b = cur.expect("tasks are left only while a block is open");
            match self.g.tasks[t as usize].kind {
                TaskKind::Codelet | TaskKind::External => {
                    if self.g.tasks[t as usize].kind == TaskKind::Codelet {
                        self.blocks[b].ops.push(Op::Task(t));
                    }
                    self.emitted[t as usize] = true;
                    self.order.push(t);
                    self.push_successors(t, &mut stack)?;
                }
                TaskKind::Select(sw) => {
                    // A loop head: a block of its own, so the loop can jump back to it.
                    let (nb, nl) = self.new_block();
                    self.blocks[b].end = BlockEnd::Jump(nl);
                    cur = Some(nb);
                    self.select_label[sw as usize] = Some(nl);
                    self.emit_select(nb, t, sw);
                    self.push_successors(t, &mut stack)?;
                }
                TaskKind::Commute(sw) => {
                    let spec = &self.g.tasks[t as usize];
                    let n = self.g.switchers[sw as usize].paths as usize;
                    self.emitted[t as usize] = true;
                    self.commuted[sw as usize] = true;
                    let start = self.select_pos[sw as usize].unwrap_or(self.order.len());
                    self.order.push(t);
                    let bound = |s: u32| self.g.sockets[s as usize].bound.expect("validated");
                    let outs = self.side.len() as u32;
                    self.side.extend_from_slice(&spec.outputs);
                    let op = Op::Commute {
                        sw,
                        task: t,
                        input: bound(spec.inputs[0]),
                        path: bound(spec.inputs[1]),
                        outs,
                        targets: 0,
                    };
                    let outputs = spec.outputs.clone();
                    let after = self.new_label();
                    let mut targets = Vec::with_capacity(n);
                    let mut end = start;
                    for &out in &outputs {
                        let (pb, pl) = self.new_block();
                        targets.push(pl);
                        if self.region(pb, RegionStart::Socket(out), after)? {
                            end = end.max(self.order.len().saturating_sub(1));
                        }
                    }
                    self.blocks[b].end = BlockEnd::Commute { op, targets };
                    if self.merge_ready[sw as usize] || !stack.is_empty() {
                        let (nb, nl) = self.new_block();
                        self.labels[after] = Label::Alias(nl);
                        cur = Some(nb);
                        if self.merge_ready[sw as usize] {
                            if let Some(m) = self.merge_label[sw as usize] {
                                self.labels[m] = Label::Alias(nl);
                            }
                            let sel = self.g.switchers[sw as usize].select;
                            self.emit_select(nb, sel, sw);
                            end = self.order.len() - 1;
                            self.push_successors(sel, &mut stack)?;
                        }
                    } else {
                        self.labels[after] = Label::Alias(cont);
                        cur = None;
                    }
                    self.spans.push((start, end));
                }
            }
        }
        let reached = self.hit.is_some();
        if let Some(b) = cur {
            self.blocks[b].end = BlockEnd::Jump(self.hit.unwrap_or(cont));
        }
        self.hit = saved;
        Ok(reached)
    }

    fn resolve(&self, mut l: usize) -> Option<usize> {
        loop {
            match self.labels[l] {
                Label::Block(b) => return Some(b),
                Label::Alias(a) => l = a,
                Label::End => return None,
                Label::Unset => unreachable!("every label is defined before linking"),
            }
        }
    }

    /// Lays the blocks out one after the other, dropping jumps to the next block.
    #[allow(clippy::type_complexity)]
    fn link(mut self) -> (Vec<Op>, Vec<u32>, Vec<u32>, Vec<(usize, usize)>) {
        let nb = self.blocks.len();
        let target = |g: &Self, l: usize| g.resolve(l);
        // Pass 1: positions.
        let mut pc = vec![0usize; nb + 1];
        let mut pos = 0;
        #[allow(clippy::needless_range_loop)]
        for b in 0..nb {
            pc[b] = pos;
            pos += self.blocks[b].ops.len();
            pos += match &self.blocks[b].end {
                BlockEnd::Open => 0,
                BlockEnd::Jump(l) => usize::from(
                    target(&self, *l) != Some(b + 1)
                        && !(target(&self, *l).is_none() && b + 1 == nb),
                ),
                BlockEnd::Commute { .. } => 1,
            };
        }
        let len = pos;
        pc[nb] = len;
        let at = |g: &Self, l: usize| g.resolve(l).map_or(len, |b| pc[b]) as u32;
        let mut ops = Vec::with_capacity(len);
        for b in 0..nb {
            let block = std::mem::replace(
                &mut self.blocks[b],
                BasicBlock {
                    ops: Vec::new(),
                    end: BlockEnd::Open,
                },
            );
            ops.extend(block.ops);
            match block.end {
                BlockEnd::Open => {}
                BlockEnd::Jump(l) => {
                    let t = target(&self, l);
                    if t != Some(b + 1) && !(t.is_none() && b + 1 == nb) {
                        ops.push(Op::Jump(at(&self, l)));
                    }
                }
                BlockEnd::Commute { op, targets } => {
                    let Op::Commute {
                        sw,
                        task,
                        input,
                        path,
                        outs,
                        ..
                    } = op
                    else {
                        unreachable!()
                    };
                    let t0 = self.side.len() as u32;
                    for l in targets {
                        let p = at(&self, l);
                        self.side.push(p);
                    }
                    ops.push(Op::Commute {
                        sw,
                        task,
                        input,
                        path,
                        outs,
                        targets: t0,
                    });
                }
            }
        }
        debug_assert_eq!(ops.len(), len);
        (ops, self.side, self.order, self.spans)
    }
}

impl Program {
    /// Compiles the tasks marked in `in_stage` (their inputs from tasks marked in `before` count
    /// as visited). Roots (tasks with no input from the stage) start in the order of `first`,
    /// then in creation order.
    pub(crate) fn generate(
        g: &TaskGraph,
        in_stage: &[bool],
        before: &[bool],
        first: &[u32],
    ) -> Result<Program, BuildError> {
        let nt = g.tasks.len();
        let mut needed = vec![0u32; nt];
        let mut visited = vec![0u32; nt];
        for (t, spec) in g.tasks.iter().enumerate() {
            if !in_stage[t] {
                continue;
            }
            needed[t] = spec.inputs.len() as u32;
            for &i in &spec.inputs {
                let o = g.sockets[i as usize].bound.expect("validated: bound");
                let src = g.sockets[o as usize].task as usize;
                if before[src] {
                    visited[t] += 1;
                } else if !in_stage[src] {
                    return Err(BuildError::OutsideSequence {
                        input: g.socket_path(i),
                        output: g.socket_path(o),
                    });
                }
            }
        }
        let mut roots: Vec<u32> = first.to_vec();
        for t in 0..nt as u32 {
            let spec = &g.tasks[t as usize];
            let ready = match spec.kind {
                // A select is entered from its last input: here, from an earlier stage.
                TaskKind::Select(_) => {
                    let last = *spec.inputs.last().expect("a select has inputs");
                    let o = g.sockets[last as usize].bound.expect("validated: bound");
                    before[g.sockets[o as usize].task as usize]
                }
                _ => visited[t as usize] == needed[t as usize],
            };
            if in_stage[t as usize] && ready && !roots.contains(&t) {
                roots.push(t);
            }
        }
        let ns = g.switchers.len();
        let mut compiler = Compiler {
            g,
            in_stage,
            visited,
            needed,
            emitted: vec![false; nt],
            blocks: Vec::new(),
            labels: vec![Label::End],
            select_label: vec![None; ns],
            select_pos: vec![None; ns],
            merge_label: vec![None; ns],
            commuted: vec![false; ns],
            merge_ready: vec![false; ns],
            hit: None,
            order: Vec::new(),
            side: Vec::new(),
            spans: Vec::new(),
        };
        let (b0, _) = compiler.new_block();
        compiler.region(b0, RegionStart::Tasks(roots), END)?;
        if let Some(t) = (0..nt).find(|&t| in_stage[t] && !compiler.emitted[t]) {
            return Err(BuildError::Unreachable(g.tasks[t].name.clone()));
        }
        let (ops, side, order, spans) = compiler.link();
        Ok(Program {
            ops,
            side,
            paths: g.switchers.iter().map(|s| s.paths).collect(),
            switcher_names: g.switchers.iter().map(|s| s.name.clone()).collect(),
            task_names: g.tasks.iter().map(|t| t.name.clone()).collect(),
            order,
            spans,
        })
    }
}

/// A codelet bound to its replica's state, with the slots of its sockets.
struct BoundTask {
    run: Box<dyn Runnable>,
    ins: Box<[u32]>,
    outs: Box<[u32]>,
}

/// One executable copy of a program: its tasks, the module states they use, statistics.
pub(crate) struct Replica {
    prog: Arc<Program>,
    /// The graph's uid in the high half of an `Io` key.
    key_base: u64,
    tasks: Vec<Option<BoundTask>>,
    /// Module states, owned here so the bound codelets' pointers stay valid.
    _states: Vec<Option<Box<dyn Any + Send>>>,
    pub(crate) stats: Vec<TaskStats>,
    pub(crate) profiling: bool,
    /// The task running or last run (one store per task, read after a panic).
    current: u32,
}

impl Replica {
    /// Makes `n` replicas of the program over `tasks`: the first gets the graph's own module
    /// states and codelets, the others clones.
    ///
    /// # Errors
    /// [`BuildError::NotCloneable`] if `n > 1` and a module or codelet cannot be cloned.
    pub(crate) fn make(
        g: &mut TaskGraph,
        prog: &Arc<Program>,
        tasks: &[u32],
        n: usize,
        stage: usize,
    ) -> Result<Vec<Replica>, BuildError> {
        let nm = g.modules.len();
        let mut modules: Vec<u32> = tasks.iter().map(|&t| g.tasks[t as usize].module).collect();
        modules.sort_unstable();
        modules.dedup();
        let mut out = Vec::with_capacity(n);
        for r in (0..n).rev() {
            let mut states: Vec<Option<Box<dyn Any + Send>>> = (0..nm).map(|_| None).collect();
            let mut codelets: Vec<Option<Box<dyn crate::task_graph::Codelet>>> =
                (0..g.tasks.len()).map(|_| None).collect();
            for &m in &modules {
                if r > 0 && g.modules[m as usize].cloner.is_none() {
                    return Err(not_cloneable(g, m, tasks, stage));
                }
                let spec = &mut g.modules[m as usize];
                states[m as usize] = Some(match spec.cloner {
                    Some(c) if r > 0 => c(spec.state.as_deref().expect("state present")),
                    _ => spec
                        .state
                        .take()
                        .expect("a module state is used by one stage"),
                });
            }
            for &t in tasks {
                let spec = &mut g.tasks[t as usize];
                if spec.kind != TaskKind::Codelet {
                    continue;
                }
                codelets[t as usize] = Some(if r == 0 {
                    spec.codelet.take().expect("validated: codelet")
                } else {
                    let name = spec.name.clone();
                    spec.codelet
                        .as_ref()
                        .expect("validated: codelet")
                        .try_clone()
                        .ok_or(BuildError::NotCloneable { stage, task: name })?
                });
            }
            let mut bound: Vec<Option<BoundTask>> = (0..g.tasks.len()).map(|_| None).collect();
            for &t in tasks {
                let Some(c) = codelets[t as usize].take() else {
                    continue;
                };
                let spec = &g.tasks[t as usize];
                let state = states[spec.module as usize]
                    .as_deref_mut()
                    .expect("module of a stage task");
                bound[t as usize] = Some(BoundTask {
                    run: c.bind(state),
                    ins: spec
                        .inputs
                        .iter()
                        .map(|&i| g.sockets[i as usize].bound.expect("validated"))
                        .collect(),
                    outs: spec.outputs.clone().into_boxed_slice(),
                });
            }
            out.push(Replica {
                prog: prog.clone(),
                key_base: u64::from(g.uid) << 32,
                tasks: bound,
                _states: states,
                stats: vec![TaskStats::default(); g.tasks.len()],
                profiling: false,
                current: 0,
            });
        }
        out.reverse();
        Ok(out)
    }

    /// The name of the task that runs now or ran last (after a panic: the one that panicked).
    pub(crate) fn current_task(&self) -> &str {
        &self.prog.task_names[self.current as usize]
    }

    /// Runs the program on `frame`.
    ///
    /// # Errors
    /// [`ExecError::PathOutOfRange`] when a commute gets a path it does not have.
    #[inline]
    pub(crate) fn run(&mut self, frame: &mut Frame) -> Result<Status, ExecError> {
        if self.profiling {
            self.run_impl::<true>(frame)
        } else {
            self.run_impl::<false>(frame)
        }
    }

    fn run_impl<const PROFILE: bool>(&mut self, frame: &mut Frame) -> Result<Status, ExecError> {
        let prog = &*self.prog;
        for (p, n) in frame.paths.iter_mut().zip(&prog.paths) {
            *p = n - 1;
        }
        let ops = &prog.ops[..];
        let side = &prog.side[..];
        let mut pc = 0usize;
        while let Some(&op) = ops.get(pc) {
            match op {
                Op::Task(t) => {
                    self.current = t;
                    let rt = self.tasks[t as usize]
                        .as_mut()
                        .expect("every task of a program has a codelet");
                    let io = Io::new(
                        &frame.slots,
                        &rt.ins,
                        &rt.outs,
                        self.key_base | u64::from(t),
                    );
                    let status = if PROFILE {
                        let t0 = Instant::now();
                        let s = rt.run.run(&io);
                        self.stats[t as usize].record(t0.elapsed().as_nanos() as u64);
                        s
                    } else {
                        rt.run.run(&io)
                    };
                    if status == Status::Abort {
                        return Ok(Status::Abort);
                    }
                    pc += 1;
                }
                Op::Select { sw, task, ins, out } => {
                    let p = frame.paths[sw as usize];
                    frame.slots[out as usize] = frame.slots[side[(ins + p) as usize] as usize];
                    if PROFILE {
                        self.stats[task as usize].record(0);
                    }
                    pc += 1;
                }
                Op::Commute {
                    sw,
                    task,
                    input,
                    path,
                    outs,
                    targets,
                } => {
                    // SAFETY: slot `path` holds a `u32` socket of one element (the commute's
                    // path input is an `In<u32>` of length 1, and binding checked the type and
                    // length of the output it reads); slots always point to live buffers.
                    let p = unsafe { (frame.slots[path as usize] as *const u32).read() };
                    let n = prog.paths[sw as usize];
                    if p >= n {
                        return Err(ExecError::PathOutOfRange {
                            switcher: prog.switcher_names[sw as usize].clone(),
                            path: p,
                            paths: n,
                        });
                    }
                    frame.paths[sw as usize] = p;
                    frame.slots[side[(outs + p) as usize] as usize] = frame.slots[input as usize];
                    if PROFILE {
                        self.stats[task as usize].record(0);
                    }
                    pc = side[(targets + p) as usize] as usize;
                }
                Op::Jump(to) => pc = to as usize,
            }
        }
        Ok(Status::Continue)
    }
}

fn not_cloneable(g: &TaskGraph, m: u32, tasks: &[u32], stage: usize) -> BuildError {
    let task = tasks
        .iter()
        .find(|&&t| g.tasks[t as usize].module == m)
        .map_or_else(
            || g.modules[m as usize].name.clone(),
            |&t| g.tasks[t as usize].name.clone(),
        );
    BuildError::NotCloneable { stage, task }
}
