//! Blocks for tests and examples: deterministic `u32` streams with random chunk sizes, so a
//! test can compute the expected output of any graph without running it.

mod harness;
mod threads;

pub use harness::Harness;
pub use threads::{fail_thread_spawns_after, runtime_threads, runtime_threads_settled};

use crate::block::WorkStatus;
use crate::error::BlockError;
use crate::port::{propagate_tags, StreamInput, StreamOutput};
use crate::tag::Tag;
use crate::{block, Ports};
use radioflow_pmt::Pmt;

/// xorshift64*: small, seedable, good enough to pick chunk sizes.
#[derive(Clone, Debug)]
pub struct Chunks {
    state: u64,
    max: usize,
}

impl Chunks {
    /// Chunk sizes in `1..=max` from `seed`; `max == 0` means "everything available".
    pub fn new(seed: u64, max: usize) -> Self {
        Self {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            max,
        }
    }

    /// The next chunk size, at most `avail`.
    pub fn next(&mut self, avail: usize) -> usize {
        if self.max == 0 {
            return avail;
        }
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        let r = self.state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        avail.min(1 + (r % self.max as u64) as usize)
    }
}

/// Source of `0, 1, ..., n-1` as `u32`, optionally tagging every `k`-th item with key
/// `"n"` and its index as value.
#[derive(Debug, Ports)]
pub struct Counter {
    #[output(name = "out")]
    output: StreamOutput<u32>,
    next: u64,
    n: u64,
    tag_every: Option<u64>,
    chunks: Chunks,
}

#[block]
impl Counter {
    /// Counts to `n` in as large chunks as the buffer allows.
    pub fn new(n: u64) -> Self {
        Self {
            output: StreamOutput::new(),
            next: 0,
            n,
            tag_every: None,
            chunks: Chunks::new(0, 0),
        }
    }

    /// Produces random chunk sizes up to `max` per work call.
    pub fn chunked(mut self, seed: u64, max: usize) -> Self {
        self.chunks = Chunks::new(seed, max);
        self
    }

    /// Tags every `k`-th item.
    pub fn tag_every(mut self, k: u64) -> Self {
        self.tag_every = Some(k.max(1));
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = self
            .chunks
            .next(out.len().min((self.n - self.next) as usize));
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = (self.next + i as u64) as u32;
        }
        if let Some(k) = self.tag_every {
            let first = self.next.div_ceil(k) * k;
            for off in (first..self.next + n as u64).step_by(k as usize) {
                self.output
                    .add_tag(off, Pmt::Symbol("n".into()), Pmt::Uint64(off));
            }
        }
        self.output.produce(n);
        self.next += n as u64;
        Ok(if self.next == self.n {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

/// Collects every `u32` and tag it receives.
#[derive(Debug, Ports)]
pub struct Sink {
    #[input(name = "in")]
    input: StreamInput<u32>,
    chunks: Chunks,
    /// Items received, in order.
    pub items: Vec<u32>,
    /// Tags received, offsets in this sink's input stream.
    pub tags: Vec<Tag>,
}

impl Default for Sink {
    fn default() -> Self {
        Self::new()
    }
}

#[block]
impl Sink {
    /// A sink that takes everything available per call.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new(),
            chunks: Chunks::new(0, 0),
            items: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// Takes random chunk sizes up to `max` per work call.
    pub fn chunked(mut self, seed: u64, max: usize) -> Self {
        self.chunks = Chunks::new(seed, max);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        let n = self.chunks.next(i.len());
        let end = self.input.offset() + n as u64;
        self.tags.extend(
            self.input
                .tags()
                .iter()
                .take_while(|t| t.offset < end)
                .cloned(),
        );
        self.items.extend_from_slice(&i[..n]);
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

/// `k` inputs, one output: `out[i] = in0[i] + ... + in(k-1)[i] + add` (wrapping), in random
/// chunk sizes; tags of input 0 are propagated. With one input and `add == 0` it is a copy.
#[derive(Debug, Ports)]
pub struct Combine {
    #[input(name = "in")]
    inputs: Vec<StreamInput<u32>>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    add: u32,
    chunks: Chunks,
}

#[block]
impl Combine {
    /// A block summing `k >= 1` inputs plus `add`.
    pub fn new(k: usize, add: u32) -> Self {
        let k = k.max(1);
        Self {
            inputs: (0..k).map(|_| StreamInput::new()).collect(),
            output: StreamOutput::new(),
            add,
            chunks: Chunks::new(0, 0),
        }
    }

    /// Processes random chunk sizes up to `max` per work call.
    pub fn chunked(mut self, seed: u64, max: usize) -> Self {
        self.chunks = Chunks::new(seed, max);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let avail = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0);
        let n = self.chunks.next(avail.min(self.output.slice().len()));
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        propagate_tags(&self.inputs[0], &mut self.output, n);
        let out = &mut self.output.slice()[..n];
        out.fill(self.add);
        for input in &self.inputs {
            for (o, x) in out.iter_mut().zip(input.slice()) {
                *o = o.wrapping_add(*x);
            }
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

/// Turns every `n_in` input items into `n_out` output items (`out[j] = in[j % n_in]`), whole
/// frames only, like a frame-based receiver stage. [`declared`](Self::declared) states both
/// windows to the runtime; [`undeclared`](Self::undeclared) behaves like a block written
/// without declarations. [`reframed`] computes what a chain of them makes of a stream.
#[derive(Debug, Ports)]
pub struct Reframe<T: crate::Item> {
    #[input(name = "in")]
    input: StreamInput<T>,
    #[output(name = "out")]
    output: StreamOutput<T>,
    n_in: usize,
    n_out: usize,
}

#[block]
impl<T: crate::Item> Reframe<T> {
    /// Frames of `n_in` in, `n_out` out, both declared (`with_min_items`).
    pub fn declared(n_in: usize, n_out: usize) -> Self {
        Self {
            input: StreamInput::new().with_min_items(n_in),
            output: StreamOutput::new().with_min_items(n_out),
            n_in: n_in.max(1),
            n_out,
        }
    }

    /// Frames of `n_in` in, `n_out` out, neither declared.
    pub fn undeclared(n_in: usize, n_out: usize) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            n_in: n_in.max(1),
            n_out,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let (mut used, mut made) = (0, 0);
        while i.len() - used >= self.n_in && o.len() - made >= self.n_out {
            for j in 0..self.n_out {
                o[made + j] = i[used + j % self.n_in];
            }
            used += self.n_in;
            made += self.n_out;
        }
        self.input.consume(used);
        self.output.produce(made);
        Ok(WorkStatus::Continue)
    }
}

/// What a chain of [`Reframe`] blocks with these `(n_in, n_out)` frames makes of `input`
/// (trailing partial frames dropped).
pub fn reframed<T: Copy>(input: &[T], frames: &[(usize, usize)]) -> Vec<T> {
    let mut data = input.to_vec();
    for &(n_in, n_out) in frames {
        data = data
            .chunks_exact(n_in.max(1))
            .flat_map(|f| (0..n_out).map(move |j| f[j % f.len()]))
            .collect();
    }
    data
}

/// A copy that fails after `after` items (with an error or a panic), or in its `start` hook.
#[derive(Debug, Ports)]
pub struct FailAfter {
    #[input(name = "in")]
    input: StreamInput<u32>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    after: u64,
    seen: u64,
    panic: bool,
    at_start: bool,
}

#[block]
impl FailAfter {
    /// Returns an error once `after` items went through.
    pub fn error(after: u64) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            after,
            seen: 0,
            panic: false,
            at_start: false,
        }
    }

    /// Fails in its `start` hook, before anything runs.
    pub fn at_start() -> Self {
        Self {
            at_start: true,
            ..Self::error(0)
        }
    }

    /// Panics once `after` items went through.
    pub fn panic(after: u64) -> Self {
        Self {
            panic: true,
            ..Self::error(after)
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        if self.at_start {
            return Err(BlockError::msg("deliberate failure in start"));
        }
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.seen >= self.after {
            if self.panic {
                panic!("deliberate panic after {} items", self.seen);
            }
            return Err(BlockError::msg(format!(
                "deliberate failure after {} items",
                self.seen
            )));
        }
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.seen += n as u64;
        Ok(WorkStatus::Continue)
    }
}
