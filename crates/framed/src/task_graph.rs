//! [`TaskGraph`]: modules, tasks, sockets, binding and switchers, before anything runs.

use crate::error::BuildError;
use crate::frame::{Layout, ALIGN};
use crate::io::{In, Io, Out, Status};
use std::any::{Any, TypeId};
use std::marker::PhantomData;

/// Marker: a module (or stateless task) that can be cloned, so its tasks may be duplicated.
#[derive(Debug)]
pub enum Cloneable {}

/// Marker: a module whose state must stay on one thread (it cannot be cloned).
#[derive(Debug)]
pub enum Sequential {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Cloneable {}
    impl Sealed for super::Sequential {}
}

/// What a module kind accepts as state (or codelet): [`Cloneable`] requires `T: Clone`,
/// [`Sequential`] accepts anything. Sealed.
pub trait Admits<T>: sealed::Sealed + 'static {
    /// How to clone a `T`, if this kind can.
    #[doc(hidden)]
    fn cloner() -> Option<fn(&T) -> T>;
}

impl<T: Clone> Admits<T> for Cloneable {
    fn cloner() -> Option<fn(&T) -> T> {
        Some(T::clone)
    }
}

impl<T> Admits<T> for Sequential {
    fn cloner() -> Option<fn(&T) -> T> {
        None
    }
}

/// A module: state shared by its tasks. `K` says whether it can be duplicated.
pub struct Module<S, K = Cloneable> {
    pub(crate) id: u32,
    _p: PhantomData<fn() -> (S, K)>,
}

impl<S, K> Clone for Module<S, K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S, K> Copy for Module<S, K> {}

/// A task of a module with state `S` and kind `K`.
pub struct Task<S, K = Cloneable> {
    pub(crate) id: u32,
    _p: PhantomData<fn() -> (S, K)>,
}

impl<S, K> Clone for Task<S, K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S, K> Copy for Task<S, K> {}

/// Any task, cloneable or not (what a sequential pipeline stage lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId(pub(crate) u32);

/// A task that can be duplicated (what a replicated pipeline stage lists). Only tasks of
/// [`Cloneable`] modules, stateless tasks and switcher tasks convert into it, so a stage that
/// would duplicate a sequential module does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CloneableTaskId(pub(crate) u32);

impl<S, K> From<Task<S, K>> for TaskId {
    fn from(t: Task<S, K>) -> Self {
        TaskId(t.id)
    }
}

impl<S> From<Task<S, Cloneable>> for CloneableTaskId {
    fn from(t: Task<S, Cloneable>) -> Self {
        CloneableTaskId(t.id)
    }
}

impl From<CloneableTaskId> for TaskId {
    fn from(t: CloneableTaskId) -> Self {
        TaskId(t.0)
    }
}

/// What a task does when it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaskKind {
    /// Runs a codelet.
    Codelet,
    /// Select of switcher `sw`: its output aliases the input of the current path.
    Select(u32),
    /// Commute of switcher `sw`: input 0 is data, input 1 the path (`u32`); output k aliases
    /// the data for path k.
    Commute(u32),
    /// Written from outside the sequence (embedding); runs nothing.
    External,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    In,
    Out,
}

pub(crate) struct SocketSpec {
    pub(crate) name: String,
    pub(crate) task: u32,
    pub(crate) dir: Dir,
    pub(crate) ty: TypeId,
    pub(crate) ty_name: &'static str,
    pub(crate) len: usize,
    pub(crate) bytes: usize,
    /// Input: the output it reads.
    pub(crate) bound: Option<u32>,
    /// Output: the inputs reading it, in binding order.
    pub(crate) readers: Vec<u32>,
}

pub(crate) struct TaskSpec {
    pub(crate) name: String,
    pub(crate) module: u32,
    pub(crate) kind: TaskKind,
    pub(crate) inputs: Vec<u32>,
    pub(crate) outputs: Vec<u32>,
    pub(crate) codelet: Option<Box<dyn Codelet>>,
}

/// A module's state, type-erased, with its clone function if it has one.
pub(crate) struct ModuleSpec {
    pub(crate) name: String,
    /// Taken by the stage that runs the module.
    pub(crate) state: Option<Box<dyn Any + Send>>,
    pub(crate) cloner: Option<StateCloner>,
}

pub(crate) struct SwitcherSpec {
    pub(crate) name: String,
    pub(crate) paths: u32,
    pub(crate) select: u32,
    pub(crate) commute: u32,
}

/// A codelet before it is given its module state.
pub(crate) trait Codelet: Send {
    /// Binds to the module state `state` (a `Box<S>` of the owning replica).
    fn bind(self: Box<Self>, state: &mut (dyn Any + Send)) -> Box<dyn Runnable>;
    /// A copy for another replica, if the codelet can be cloned.
    fn try_clone(&self) -> Option<Box<dyn Codelet>>;
}

/// A codelet bound to its state: what the executor calls.
pub(crate) trait Runnable: Send {
    fn run(&mut self, io: &Io<'_>) -> Status;
}

struct Unbound<S, F> {
    f: F,
    cloner: Option<fn(&F) -> F>,
    _s: PhantomData<fn(S)>,
}

struct Bound<S, F> {
    f: F,
    /// Points into the `Box<S>` owned by the same replica, which outlives this value and is
    /// only reached through it (tasks of one module run one at a time on one thread).
    state: *mut S,
}

// SAFETY: `state` points to an `S: Send` owned by the replica that owns this value; both move
// between threads together and are used by one thread at a time.
unsafe impl<S: Send, F: Send> Send for Bound<S, F> {}

impl<S, F> Codelet for Unbound<S, F>
where
    S: Send + 'static,
    F: FnMut(&mut S, &Io<'_>) -> Status + Send + 'static,
{
    fn bind(self: Box<Self>, state: &mut (dyn Any + Send)) -> Box<dyn Runnable> {
        let state: *mut S = state
            .downcast_mut::<S>()
            .expect("a codelet is bound to its own module's state");
        Box::new(Bound { f: self.f, state })
    }

    fn try_clone(&self) -> Option<Box<dyn Codelet>> {
        let c = self.cloner?;
        Some(Box::new(Unbound::<S, F> {
            f: c(&self.f),
            cloner: self.cloner,
            _s: PhantomData,
        }))
    }
}

impl<S: Send, F: FnMut(&mut S, &Io<'_>) -> Status + Send> Runnable for Bound<S, F> {
    #[inline]
    fn run(&mut self, io: &Io<'_>) -> Status {
        // SAFETY: see the field invariant: the state is alive and no other reference to it
        // exists while this task runs.
        let s = unsafe { &mut *self.state };
        (self.f)(s, io)
    }
}

/// A switcher: a select task and a commute task sharing the current path, for loops and
/// n-way switches. Both are copy-less: their outputs alias their inputs.
///
/// - select: inputs `in0..in{n-1}`, output `out` = the input of the current path. The path is
///   `n - 1` when a frame starts, then the one the last commute chose.
/// - commute: input `in` (data), input `path` (`u32`, one element), outputs `out0..out{n-1}`;
///   only the chosen output is valid, and execution continues on the tasks bound to it.
#[derive(Clone, Copy, Debug)]
pub struct Switcher<T> {
    graph: u32,
    select: u32,
    commute: u32,
    select_in: u32,
    select_out: u32,
    commute_in: u32,
    commute_path: u32,
    commute_out: u32,
    paths: u32,
    len: u32,
    _t: PhantomData<fn() -> T>,
}

impl<T> Switcher<T> {
    fn check(&self, k: usize) -> u32 {
        assert!(
            k < self.paths as usize,
            "switcher has {} paths, asked for path {k}",
            self.paths
        );
        k as u32
    }

    /// Select input `k`.
    ///
    /// # Panics
    /// If `k` is not a path.
    pub fn select_in(&self, k: usize) -> In<T> {
        In::new(
            self.graph,
            self.select,
            self.check(k),
            self.select_in + k as u32,
            self.len,
        )
    }

    /// Select output.
    pub fn select_out(&self) -> Out<T> {
        Out::new(self.graph, self.select, 0, self.select_out, self.len)
    }

    /// Commute data input.
    pub fn commute_in(&self) -> In<T> {
        In::new(self.graph, self.commute, 0, self.commute_in, self.len)
    }

    /// Commute path input: one `u32`, the path to take.
    pub fn commute_path(&self) -> In<u32> {
        In::new(self.graph, self.commute, 1, self.commute_path, 1)
    }

    /// Commute output `k`.
    ///
    /// # Panics
    /// If `k` is not a path.
    pub fn commute_out(&self, k: usize) -> Out<T> {
        let k = self.check(k);
        Out::new(self.graph, self.commute, k, self.commute_out + k, self.len)
    }

    /// The select task (stateless: it may be duplicated).
    pub fn select_task(&self) -> CloneableTaskId {
        CloneableTaskId(self.select)
    }

    /// The commute task (stateless: it may be duplicated).
    pub fn commute_task(&self) -> CloneableTaskId {
        CloneableTaskId(self.commute)
    }
}

/// State of the counting control task made by [`TaskGraph::iterate`].
#[derive(Clone, Debug)]
pub struct Iterate {
    n: u32,
    done: u32,
}

/// A task graph under construction: modules with their state, tasks with typed fixed-size
/// sockets and codelets, bindings, switchers.
///
/// ```
/// use radioflow_framed::{TaskGraph, Sequence, Status};
///
/// let mut g = TaskGraph::new();
/// let src = g.module("counter", 0u32);
/// let generate = g.task(src, "generate");
/// let out = g.output::<u32>(generate, "out", 4);
/// g.codelet(generate, move |n: &mut u32, io| {
///     io.output(out).fill(*n);
///     *n += 1;
///     Status::Continue
/// });
/// let twice = g.stateless("twice");
/// let i = g.input::<u32>(twice, "in", 4);
/// let o = g.output::<u32>(twice, "out", 4);
/// g.codelet(twice, move |_, io| {
///     for (o, i) in io.output(o).iter_mut().zip(io.input(i)) {
///         *o = 2 * i;
///     }
///     Status::Continue
/// });
/// g.bind(i, out)?;
/// let mut seq = Sequence::new(g)?;
/// let mut frames = 0;
/// seq.exec(|| { frames += 1; frames == 3 })?;
/// assert_eq!(seq.read(o), &[4, 4, 4, 4]); // third frame: 2 * 2
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TaskGraph {
    /// Unique per graph, carried by socket handles so a handle of another graph is refused.
    pub(crate) uid: u32,
    pub(crate) modules: Vec<ModuleSpec>,
    pub(crate) tasks: Vec<TaskSpec>,
    pub(crate) sockets: Vec<SocketSpec>,
    pub(crate) switchers: Vec<SwitcherSpec>,
}

impl std::fmt::Debug for TaskGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskGraph")
            .field("modules", &self.modules.len())
            .field("tasks", &self.tasks.len())
            .field("sockets", &self.sockets.len())
            .finish()
    }
}

/// Clones a type-erased module state.
pub(crate) type StateCloner = fn(&(dyn Any + Send)) -> Box<dyn Any + Send>;

/// The type-erased clone function of a module state.
fn cloner_of<S: Clone + Send + 'static>() -> StateCloner {
    |a| {
        let s = a
            .downcast_ref::<S>()
            .expect("module state has its module's type");
        Box::new(s.clone())
    }
}

impl Default for TaskGraph {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        TaskGraph {
            uid: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            modules: Vec::new(),
            tasks: Vec::new(),
            sockets: Vec::new(),
            switchers: Vec::new(),
        }
    }
}

impl TaskGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    fn add_module(
        &mut self,
        name: &str,
        state: Box<dyn Any + Send>,
        cloner: Option<StateCloner>,
    ) -> u32 {
        self.modules.push(ModuleSpec {
            name: name.to_owned(),
            state: Some(state),
            cloner,
        });
        (self.modules.len() - 1) as u32
    }

    /// A module whose state can be cloned: its tasks may be duplicated on several threads,
    /// each replica with its own copy of `state`.
    pub fn module<S: Clone + Send + 'static>(&mut self, name: &str, state: S) -> Module<S> {
        let id = self.add_module(name, Box::new(state), Some(cloner_of::<S>()));
        Module {
            id,
            _p: PhantomData,
        }
    }

    /// A module whose state must stay on one thread (e.g. a synchronizer that depends on the
    /// previous frame): its tasks can only be in sequential stages.
    pub fn sequential_module<S: Send + 'static>(
        &mut self,
        name: &str,
        state: S,
    ) -> Module<S, Sequential> {
        let id = self.add_module(name, Box::new(state), None);
        Module {
            id,
            _p: PhantomData,
        }
    }

    fn add_task(&mut self, module: u32, name: &str, kind: TaskKind) -> u32 {
        self.tasks.push(TaskSpec {
            name: name.to_owned(),
            module,
            kind,
            inputs: Vec::new(),
            outputs: Vec::new(),
            codelet: None,
        });
        (self.tasks.len() - 1) as u32
    }

    /// A task of `module`; give it sockets with [`input`](Self::input) and
    /// [`output`](Self::output) and code with [`codelet`](Self::codelet).
    pub fn task<S, K>(&mut self, module: Module<S, K>, name: &str) -> Task<S, K> {
        Task {
            id: self.add_task(module.id, name, TaskKind::Codelet),
            _p: PhantomData,
        }
    }

    /// A stateless task (a module of its own with no state); its codelet must be `Clone`.
    pub fn stateless(&mut self, name: &str) -> Task<()> {
        let m = self.module(name, ());
        self.task(m, name)
    }

    fn add_socket<T: bytemuck::Pod>(&mut self, task: u32, name: &str, len: usize, dir: Dir) -> u32 {
        assert!(len > 0, "socket '{name}' has no elements");
        assert!(
            std::mem::align_of::<T>() <= ALIGN,
            "socket '{name}': alignment above {ALIGN} bytes",
        );
        let t = &self.tasks[task as usize];
        let count = match dir {
            Dir::In => t.inputs.len(),
            Dir::Out => t.outputs.len(),
        };
        assert!(count < 64, "a task has at most 64 inputs and 64 outputs");
        let id = self.sockets.len() as u32;
        self.sockets.push(SocketSpec {
            name: name.to_owned(),
            task,
            dir,
            ty: TypeId::of::<T>(),
            ty_name: std::any::type_name::<T>(),
            len,
            bytes: len * std::mem::size_of::<T>(),
            bound: None,
            readers: Vec::new(),
        });
        let t = &mut self.tasks[task as usize];
        match dir {
            Dir::In => t.inputs.push(id),
            Dir::Out => t.outputs.push(id),
        }
        id
    }

    /// An input socket of `len` elements of `T`.
    ///
    /// # Panics
    /// If `len` is 0, `T` is aligned above 64 bytes, or the task already has 64 inputs.
    pub fn input<T: bytemuck::Pod>(
        &mut self,
        task: impl Into<TaskId>,
        name: &str,
        len: usize,
    ) -> In<T> {
        let task = task.into().0;
        let index = self.tasks[task as usize].inputs.len() as u32;
        let id = self.add_socket::<T>(task, name, len, Dir::In);
        In::new(self.uid, task, index, id, len as u32)
    }

    /// An output socket of `len` elements of `T`.
    ///
    /// # Panics
    /// As for [`input`](Self::input).
    pub fn output<T: bytemuck::Pod>(
        &mut self,
        task: impl Into<TaskId>,
        name: &str,
        len: usize,
    ) -> Out<T> {
        let task = task.into().0;
        let index = self.tasks[task as usize].outputs.len() as u32;
        let id = self.add_socket::<T>(task, name, len, Dir::Out);
        Out::new(self.uid, task, index, id, len as u32)
    }

    /// The code the task runs for each frame: `f(&mut module_state, io)`. Return
    /// [`Status::Abort`] to drop the frame (early exit). For a [`Cloneable`] module the codelet
    /// must be `Clone` too (each replica gets a copy).
    ///
    /// # Panics
    /// If the task already has a codelet.
    pub fn codelet<S, K, F>(&mut self, task: Task<S, K>, f: F)
    where
        S: Send + 'static,
        K: Admits<F>,
        F: FnMut(&mut S, &Io<'_>) -> Status + Send + 'static,
    {
        let t = &mut self.tasks[task.id as usize];
        assert!(
            t.codelet.is_none(),
            "task '{}' already has a codelet",
            t.name
        );
        t.codelet = Some(Box::new(Unbound::<S, F> {
            f,
            cloner: K::cloner(),
            _s: PhantomData,
        }));
    }

    /// A socket written from outside the sequence ([`Sequence::write`](crate::Sequence::write)),
    /// e.g. by [`FramedBlock`](crate::FramedBlock) with the samples of a stream.
    pub fn external<T: bytemuck::Pod>(&mut self, name: &str, len: usize) -> Out<T> {
        let m = self.add_module(name, Box::new(()), Some(cloner_of::<()>()));
        let t = self.add_task(m, name, TaskKind::External);
        let id = self.add_socket::<T>(t, "out", len, Dir::Out);
        Out::new(self.uid, t, 0, id, len as u32)
    }

    /// Binds `input` to read `output` (one output may feed many inputs).
    ///
    /// # Errors
    /// [`BuildError::LengthMismatch`] or [`BuildError::AlreadyBound`], naming the sockets.
    ///
    /// # Panics
    /// If a socket belongs to another graph.
    pub fn bind<T>(&mut self, input: In<T>, output: Out<T>) -> Result<(), BuildError> {
        assert!(
            input.graph == self.uid && output.graph == self.uid,
            "socket of another graph"
        );
        self.bind_ids(input.id, output.id)
    }

    /// Binds by names, `"task::socket"` as in the paper (`"t2::in"` reads `"t1::out"`).
    ///
    /// # Errors
    /// [`BuildError::UnknownSocket`], [`BuildError::TypeMismatch`] and those of
    /// [`bind`](Self::bind).
    pub fn bind_names(&mut self, input: &str, output: &str) -> Result<(), BuildError> {
        let i = self.find(input, Dir::In)?;
        let o = self.find(output, Dir::Out)?;
        self.bind_ids(i, o)
    }

    fn find(&self, path: &str, dir: Dir) -> Result<u32, BuildError> {
        let unknown = || BuildError::UnknownSocket(path.to_owned());
        let (task, sock) = path.split_once("::").ok_or_else(unknown)?;
        let mut hits = self.sockets.iter().enumerate().filter(|(_, s)| {
            s.dir == dir && s.name == sock && self.tasks[s.task as usize].name == task
        });
        let first = hits.next().ok_or_else(unknown)?;
        if hits.next().is_some() {
            return Err(BuildError::Ambiguous(path.to_owned()));
        }
        Ok(first.0 as u32)
    }

    /// `task::socket` of a socket, for messages.
    pub(crate) fn socket_path(&self, s: u32) -> String {
        let s = &self.sockets[s as usize];
        format!("{}::{}", self.tasks[s.task as usize].name, s.name)
    }

    fn bind_ids(&mut self, i: u32, o: u32) -> Result<(), BuildError> {
        let (si, so) = (&self.sockets[i as usize], &self.sockets[o as usize]);
        debug_assert!(si.dir == Dir::In && so.dir == Dir::Out);
        if let Some(prev) = si.bound {
            return Err(BuildError::AlreadyBound {
                input: self.socket_path(i),
                output: self.socket_path(prev),
            });
        }
        if si.ty != so.ty {
            return Err(BuildError::TypeMismatch {
                input: self.socket_path(i),
                input_type: si.ty_name,
                output: self.socket_path(o),
                output_type: so.ty_name,
            });
        }
        if si.len != so.len {
            return Err(BuildError::LengthMismatch {
                input: self.socket_path(i),
                input_len: si.len,
                output: self.socket_path(o),
                output_len: so.len,
            });
        }
        self.sockets[i as usize].bound = Some(o);
        self.sockets[o as usize].readers.push(i);
        Ok(())
    }

    /// A switcher with `paths` exclusive paths carrying `len` elements of `T`.
    ///
    /// # Panics
    /// If `paths < 2`.
    pub fn switcher<T: bytemuck::Pod>(
        &mut self,
        name: &str,
        paths: usize,
        len: usize,
    ) -> Switcher<T> {
        assert!(paths >= 2, "a switcher needs at least 2 paths");
        let sw = self.switchers.len() as u32;
        let m = self.add_module(name, Box::new(()), Some(cloner_of::<()>()));
        let select = self.add_task(m, &format!("{name}::select"), TaskKind::Select(sw));
        let commute = self.add_task(m, &format!("{name}::commute"), TaskKind::Commute(sw));
        let mut select_in = 0;
        for k in 0..paths {
            let id = self.add_socket::<T>(select, &format!("in{k}"), len, Dir::In);
            if k == 0 {
                select_in = id;
            }
        }
        let select_out = self.add_socket::<T>(select, "out", len, Dir::Out);
        let commute_in = self.add_socket::<T>(commute, "in", len, Dir::In);
        let commute_path = self.add_socket::<u32>(commute, "path", 1, Dir::In);
        let mut commute_out = 0;
        for k in 0..paths {
            let id = self.add_socket::<T>(commute, &format!("out{k}"), len, Dir::Out);
            if k == 0 {
                commute_out = id;
            }
        }
        self.switchers.push(SwitcherSpec {
            name: name.to_owned(),
            paths: paths as u32,
            select,
            commute,
        });
        Switcher {
            graph: self.uid,
            select,
            commute,
            select_in,
            select_out,
            commute_in,
            commute_path,
            commute_out,
            paths: paths as u32,
            len: len as u32,
            _t: PhantomData,
        }
    }

    /// A `for` loop control task: reads `trigger` (ignored) and writes path 0 `n` times, then
    /// path 1 once, and starts over. Bind its output to a commute's path input.
    ///
    /// # Errors
    /// As for [`bind`](Self::bind).
    pub fn iterate<T: bytemuck::Pod>(
        &mut self,
        name: &str,
        n: u32,
        trigger: Out<T>,
    ) -> Result<(Task<Iterate>, Out<u32>), BuildError> {
        let m = self.module(name, Iterate { n, done: 0 });
        let t = self.task(m, name);
        let i = self.input::<T>(t, "in", trigger.len());
        let o = self.output::<u32>(t, "path", 1);
        self.codelet(t, move |s: &mut Iterate, io| {
            let p = if s.done < s.n {
                s.done += 1;
                0
            } else {
                s.done = 0;
                1
            };
            io.output(o)[0] = p;
            Status::Continue
        });
        self.bind(i, trigger)?;
        Ok((t, o))
    }

    /// Where each output socket lives in a frame: a buffer of its own, whole cache lines
    /// ([`ALIGN`]); inputs have none (they point at an output's data).
    pub(crate) fn frame_layout(&self) -> Layout {
        let mut offset = vec![usize::MAX; self.sockets.len()];
        let mut total = 0;
        for (id, s) in self.sockets.iter().enumerate() {
            if s.dir == Dir::Out {
                offset[id] = total;
                total += s.bytes.div_ceil(ALIGN) * ALIGN;
            }
        }
        Layout {
            offset,
            bytes: self.sockets.iter().map(|s| s.bytes).collect(),
            total,
        }
    }

    /// Whether the task's module can be cloned.
    pub(crate) fn cloneable(&self, t: u32) -> bool {
        self.modules[self.tasks[t as usize].module as usize]
            .cloner
            .is_some()
    }

    /// Checks what must hold before anything runs: every input bound, every codelet task
    /// has code, and no task can read its own output through a switcher.
    pub(crate) fn validate(&self) -> Result<(), BuildError> {
        for (t, spec) in self.tasks.iter().enumerate() {
            for &i in &spec.inputs {
                if self.sockets[i as usize].bound.is_none() {
                    return Err(BuildError::Unbound(self.socket_path(i)));
                }
            }
            if spec.kind == TaskKind::Codelet && spec.codelet.is_none() {
                return Err(BuildError::NoCodelet(self.tasks[t].name.clone()));
            }
        }
        // Which real buffers may each output socket show (aliases through switchers)?
        let n = self.sockets.len();
        let mut sources: Vec<Vec<u32>> = vec![Vec::new(); n];
        for spec in &self.tasks {
            if !matches!(spec.kind, TaskKind::Select(_) | TaskKind::Commute(_)) {
                for &o in &spec.outputs {
                    sources[o as usize].push(o);
                }
            }
        }
        loop {
            let mut changed = false;
            for spec in &self.tasks {
                let feeds: Vec<u32> = match spec.kind {
                    TaskKind::Select(_) => spec.inputs.clone(),
                    TaskKind::Commute(_) => vec![spec.inputs[0]],
                    _ => continue,
                };
                let mut from: Vec<u32> = feeds
                    .iter()
                    .flat_map(|&i| {
                        sources[self.sockets[i as usize].bound.unwrap() as usize].clone()
                    })
                    .collect();
                from.sort_unstable();
                from.dedup();
                for &o in &spec.outputs {
                    let s = &mut sources[o as usize];
                    for &f in &from {
                        if !s.contains(&f) {
                            s.push(f);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for spec in &self.tasks {
            if spec.kind != TaskKind::Codelet {
                continue;
            }
            for &i in &spec.inputs {
                let o = self.sockets[i as usize].bound.unwrap();
                if let Some(own) = sources[o as usize]
                    .iter()
                    .find(|s| spec.outputs.contains(s))
                {
                    return Err(BuildError::ReadsOwnOutput {
                        input: self.socket_path(i),
                        output: self.socket_path(*own),
                    });
                }
            }
        }
        Ok(())
    }
}
