//! The physical limit of copy-chain benchmarks: single-core in-cache memcpy bandwidth,
//! measured in the same run as the experiments (BENCHMARKS.md).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Bytes per second one core copies between two buffers that stay in L1 (`chunk_bytes` each,
/// default 8 KiB): the best of three 100 ms trials.
pub fn memcpy_bandwidth(chunk_bytes: usize) -> f64 {
    let n = (chunk_bytes / 4).max(1);
    let mut a = vec![1.0f32; n];
    let mut b = vec![0.0f32; n];
    let mut best = 0.0f64;
    for _ in 0..3 {
        let t0 = Instant::now();
        let mut copies = 0u64;
        while t0.elapsed() < Duration::from_millis(100) {
            for _ in 0..64 {
                b.copy_from_slice(black_box(&a));
                a.copy_from_slice(black_box(&b));
            }
            copies += 128;
        }
        let rate = (copies * (n * 4) as u64) as f64 / t0.elapsed().as_secs_f64();
        best = best.max(rate);
    }
    black_box((&a, &b));
    best
}

/// Bytes per second per core when `cores` cores copy at once as [`memcpy_bandwidth`] does, each
/// between buffers of its own (the mean over the cores). On the dev machine it is 10-15% below
/// one core copying alone (docs/benchmarks.md, "Two cores copying at once"): a `buf` run keeps
/// every core copying, so this is the bandwidth it can reach.
pub fn memcpy_bandwidth_all_cores(chunk_bytes: usize, cores: usize) -> f64 {
    let cores = cores.max(1);
    let rates: Vec<f64> = std::thread::scope(|s| {
        let running: Vec<_> = (0..cores)
            .map(|_| s.spawn(move || memcpy_bandwidth(chunk_bytes)))
            .collect();
        running
            .into_iter()
            .map(|t| t.join().unwrap_or(0.0))
            .collect()
    });
    rates.iter().sum::<f64>() / cores as f64
}

/// The shortest possible run time of `buf`: its copy blocks move `pipes * stages * samples`
/// f32 at `bandwidth` bytes/s per core on `cores` cores.
pub fn buf_floor_seconds(
    pipes: usize,
    stages: usize,
    samples: u64,
    bandwidth: f64,
    cores: usize,
) -> f64 {
    (pipes * stages) as f64 * samples as f64 * 4.0 / (bandwidth * cores.max(1) as f64)
}

/// Samples [`chain_layout_seconds`] moves per pipe before it scales its time up.
const LAYOUT_SAMPLES: u64 = 20_000_000;

/// A connection in the model: a page-aligned ring of `f32`, its writer's position and its
/// readers' positions.
struct Ring {
    memory: Vec<f32>,
    start: usize,
    capacity: usize,
    written: u64,
    reads: Vec<u64>,
}

impl Ring {
    fn new(capacity: usize, readers: usize) -> Self {
        // Page aligned like the runtime's mapped buffers, so that the copies meet the caches
        // the same way (`align_offset` counts f32 elements: at most 1023).
        let memory = vec![0.0f32; capacity + 1024];
        let start = memory.as_ptr().align_offset(4096).min(1024);
        Ring {
            memory,
            start,
            capacity,
            written: 0,
            reads: vec![0; readers],
        }
    }

    /// Items that may be written now, contiguous (up to the end of the ring), at most `max`.
    fn writable(&self, max: u64) -> usize {
        let oldest = self.reads.iter().copied().min().unwrap_or(self.written);
        let free = oldest + self.capacity as u64 - self.written;
        free.min(max).min(self.to_end(self.written)) as usize
    }

    /// Items reader `r` may read now, contiguous, at most `max`.
    fn readable(&self, r: usize, max: u64) -> usize {
        let there = self.written - self.reads[r];
        there.min(max).min(self.to_end(self.reads[r])) as usize
    }

    fn to_end(&self, pos: u64) -> u64 {
        self.capacity as u64 - pos % self.capacity as u64
    }

    fn at(&self, pos: u64) -> usize {
        self.start + (pos % self.capacity as u64) as usize
    }

    fn drained(&self) -> bool {
        self.reads.iter().all(|&r| r == self.written)
    }
}

/// Copies up to `max` items from reader `r` of `from` into `to`; returns how many.
fn copy_between(from: &mut Ring, r: usize, to: &mut Ring, max: u64) -> usize {
    let n = from.readable(r, max).min(to.writable(max));
    if n > 0 {
        let (a, b) = (from.at(from.reads[r]), to.at(to.written));
        to.memory[b..b + n].copy_from_slice(black_box(&from.memory[a..a + n]));
        from.reads[r] += n as u64;
        to.written += n as u64;
    }
    n
}

/// The part of `buf` one worker runs, with no runtime: null source -> head(`samples`),
/// fanned out to `pipes` chains of `stages` copies, each ending in a null sink.
struct LayoutGraph {
    source: Ring,
    head: Ring,
    /// Per pipe, the outputs of its copies.
    pipes: Vec<Vec<Ring>>,
    /// Per pipe, the two chunk-sized regions its copies write into in turn, when the model
    /// follows `flow`'s regions (the rings in `pipes` then stay unused).
    regions: Option<Vec<[Ring; 2]>>,
    left: u64,
    delivered: Vec<u64>,
}

impl LayoutGraph {
    /// `region`: the size of the regions (`flow`'s chunk) when the pipes use them.
    fn new(
        pipes: usize,
        stages: usize,
        samples: u64,
        buffer: usize,
        head_buffer: usize,
        region: Option<usize>,
    ) -> Self {
        LayoutGraph {
            source: Ring::new(buffer, 1),
            head: Ring::new(head_buffer, pipes),
            pipes: (0..pipes)
                .map(|_| (0..stages).map(|_| Ring::new(buffer, 1)).collect())
                .collect(),
            regions: region.map(|r| {
                (0..pipes)
                    .map(|_| [Ring::new(r, 1), Ring::new(r, 1)])
                    .collect()
            }),
            left: samples,
            delivered: vec![0; pipes],
        }
    }

    /// One pass over the source and the head; whether anything moved.
    fn head_pass(&mut self, chunk: u64) -> bool {
        // The null source fills its output (a memset, as the runtime's does).
        let n = self.source.writable(chunk);
        if n > 0 {
            let at = self.source.at(self.source.written);
            self.source.memory[at..at + n].fill(0.0);
            self.source.written += n as u64;
        }
        let copied = copy_between(&mut self.source, 0, &mut self.head, chunk.min(self.left));
        self.left -= copied as u64;
        n + copied > 0
    }

    /// One depth-first pass over pipe `p`; whether anything moved.
    fn pipe_pass(&mut self, p: usize, chunk: u64) -> bool {
        if let Some(regions) = &mut self.regions {
            return Self::region_pass(
                &mut self.head,
                p,
                &mut regions[p],
                self.pipes[p].len(),
                chunk,
                &mut self.delivered[p],
            );
        }
        let rings = &mut self.pipes[p];
        let mut moved = false;
        if let Some(first) = rings.first_mut() {
            moved |= copy_between(&mut self.head, p, first, chunk) > 0;
        }
        for i in 1..rings.len() {
            let (upstream, downstream) = rings.split_at_mut(i);
            moved |= copy_between(&mut upstream[i - 1], 0, &mut downstream[0], chunk) > 0;
        }
        // The null sink (on the head itself when the pipe has no copies).
        let (last, r) = match rings.last_mut() {
            Some(last) => (last, 0),
            None => (&mut self.head, p),
        };
        let n = last.written - last.reads[r];
        last.reads[r] = last.written;
        self.delivered[p] += n;
        moved || n > 0
    }

    /// One pass of pipe `p` through its two regions: a chunk of the head's ring into the first
    /// region, then from region to region down the `stages` copies (a chunk never waits: each
    /// copy takes all its input, as `buf`'s copies do in `flow`); the null sink takes the last.
    fn region_pass(
        head: &mut Ring,
        p: usize,
        [a, b]: &mut [Ring; 2],
        stages: usize,
        chunk: u64,
        delivered: &mut u64,
    ) -> bool {
        let n = head.readable(p, chunk.min(a.capacity as u64));
        if n == 0 {
            return false;
        }
        if stages > 0 {
            let at = head.at(head.reads[p]);
            a.memory[a.start..a.start + n].copy_from_slice(black_box(&head.memory[at..at + n]));
            for j in 1..stages {
                let (from, to) = if j % 2 == 1 {
                    (&*a, &mut *b)
                } else {
                    (&*b, &mut *a)
                };
                to.memory[to.start..to.start + n]
                    .copy_from_slice(black_box(&from.memory[from.start..from.start + n]));
            }
        }
        head.reads[p] += n as u64;
        *delivered += n as u64;
        true
    }

    fn pipe_finished(&self, p: usize) -> bool {
        self.left == 0
            && self.head.reads[p] == self.head.written
            && self.pipes[p].iter().all(Ring::drained)
    }

    /// Runs to the end the way a `flow` worker orders chains: up to 64 passes over one chain
    /// (here the source and head, then each pipe) before the next.
    fn run(&mut self, chunk: u64) {
        let pipes = self.pipes.len();
        while (0..pipes).any(|p| !self.pipe_finished(p)) {
            for _ in 0..64 {
                if !self.head_pass(chunk) {
                    break;
                }
            }
            for p in 0..pipes {
                for _ in 0..64 {
                    if self.pipe_finished(p) || !self.pipe_pass(p, chunk) {
                        break;
                    }
                }
            }
        }
    }
}

/// Seconds `buf` (`pipes` x `stages` copies of `samples` f32) takes with no runtime at all,
/// through the memory layout of the `flow` scheduler: a page-aligned ring per connection of
/// `geometry.buffer_bytes` (the head's, read from every worker, of
/// `geometry.crossing_buffer_bytes` when there are several), or, with `geometry.regions`,
/// two chunk-sized regions per pipe that its copies write into in turn; data moved
/// `chunk_bytes` at a time depth-first, up to 64 passes over one chain before the next, the
/// pipes dealt out to `geometry.workers` threads. It separates what the layout costs (where the copies find
/// their data in the caches) from what a runtime adds on top. Each thread has a source and a
/// head of its own (the real graph has one for all workers, so the model fills and copies
/// `workers - 1` streams more: 2% of `buf` 10x10's work on two cores), and so it does not
/// pay for reading the head's ring from another core's caches.
/// The best of three trials on at most 2e7 samples per pipe, scaled to `samples`.
pub fn chain_layout_seconds(
    pipes: usize,
    stages: usize,
    samples: u64,
    geometry: &radioflow_runtime::FlowGeometry,
) -> f64 {
    let chunk = (geometry.chunk_bytes / 4).max(1);
    let buffer = (geometry.buffer_bytes / 4).max(chunk);
    let threads = geometry.workers.clamp(1, pipes.max(1));
    let region =
        (geometry.regions && geometry.chunk_bytes <= geometry.buffer_bytes).then_some(chunk);
    let head_buffer = if threads > 1 {
        (geometry.crossing_buffer_bytes / 4).max(buffer)
    } else {
        buffer
    };
    let measured = samples.min(LAYOUT_SAMPLES);
    let trial = || {
        let t0 = Instant::now();
        std::thread::scope(|s| {
            for t in 0..threads {
                let mine = (t..pipes).step_by(threads).count();
                s.spawn(move || {
                    let mut g =
                        LayoutGraph::new(mine, stages, measured, buffer, head_buffer, region);
                    g.run(chunk as u64);
                    black_box(&g.delivered);
                });
            }
        });
        t0.elapsed().as_secs_f64()
    };
    // The best of three, like the memcpy bandwidth: a limit is what the machine can do.
    let best = (0..3).map(|_| trial()).fold(f64::INFINITY, f64::min);
    best * samples as f64 / measured.max(1) as f64
}

/// Bytes of each of the two buffers the in-cache memcpy limit copies between (they stay in L1).
pub const MEMCPY_CHUNK_BYTES: usize = 8192;

/// What `bench buf` reports next to its runs: how fast the copies could possibly go, measured
/// now on this machine.
#[derive(Clone, Copy, Debug)]
pub struct BufLimits {
    /// CPUs the copies spread over.
    pub cpus: usize,
    /// In-cache memcpy bandwidth of one core copying alone (B/s).
    pub bandwidth: f64,
    /// The shortest run time at [`bandwidth`](Self::bandwidth) on every core (s).
    pub floor_s: f64,
    /// In-cache memcpy bandwidth per core with every core copying at once (B/s).
    pub all_cores_bandwidth: f64,
    /// The shortest run time at [`all_cores_bandwidth`](Self::all_cores_bandwidth) (s).
    pub all_cores_floor_s: f64,
    /// The same copies with no runtime through the memory `flow` uses (s).
    pub layout_s: f64,
    /// The `flow` geometry the layout limit copies through.
    pub geometry: radioflow_runtime::FlowGeometry,
}

impl BufLimits {
    /// Measures the limits of `pipes` x `stages` copies of `samples` f32, the layout one
    /// through `geometry`.
    pub fn measure(
        pipes: usize,
        stages: usize,
        samples: u64,
        geometry: &radioflow_runtime::FlowGeometry,
    ) -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let bandwidth = memcpy_bandwidth(MEMCPY_CHUNK_BYTES);
        // One core copying alone runs faster than each of several copying at once (turbo,
        // shared L3 and memory paths): the bandwidth with every core busy is the one a run
        // can reach.
        let all_cores_bandwidth = memcpy_bandwidth_all_cores(MEMCPY_CHUNK_BYTES, cpus);
        BufLimits {
            cpus,
            bandwidth,
            floor_s: buf_floor_seconds(pipes, stages, samples, bandwidth, cpus),
            all_cores_bandwidth,
            all_cores_floor_s: buf_floor_seconds(pipes, stages, samples, all_cores_bandwidth, cpus),
            layout_s: chain_layout_seconds(pipes, stages, samples, geometry),
            geometry: *geometry,
        }
    }

    /// The memory the layout limit copies through: two regions per pipe, or a ring per
    /// connection.
    pub fn memory(&self) -> String {
        let g = &self.geometry;
        if g.regions && g.chunk_bytes <= g.buffer_bytes {
            "two regions per pipe".to_owned()
        } else {
            format!("a {} B ring per connection", g.buffer_bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_is_measured_and_the_floor_scales_with_work() {
        let bw = memcpy_bandwidth(8192);
        assert!(bw > 1e8, "memcpy at {bw} B/s is not plausible");
        let all = memcpy_bandwidth_all_cores(8192, 2);
        assert!(
            all > 1e8,
            "memcpy on two cores at once at {all} B/s per core"
        );
        let one = buf_floor_seconds(1, 1, 1_000_000, bw, 1);
        assert!((buf_floor_seconds(10, 10, 1_000_000, bw, 2) / one - 50.0).abs() < 1e-9);
    }

    #[test]
    fn the_layout_model_delivers_every_sample_to_every_pipe() {
        // Rings that are not a multiple of the chunk wrap mid-chunk; rings smaller than a
        // chunk cap it; a pipe without copies reads the head directly.
        for (chunk, buffer, head, stages) in [
            (2048, 8192, 8192, 4),
            (3000, 7000, 70_000, 3),
            (4096, 1024, 1024, 2),
            (1, 3, 5, 1),
            (512, 2048, 2048, 0),
        ] {
            for region in [None, Some(chunk as usize)] {
                let mut g = LayoutGraph::new(3, stages, 100_003, buffer, head, region);
                g.run(chunk);
                let what = format!(
                    "chunk {chunk} ring {buffer} head ring {head} stages {stages} regions {region:?}"
                );
                assert_eq!(g.delivered, vec![100_003; 3], "{what}");
                assert_eq!(g.head.written, 100_003, "{what}");
                let rings_used = region.is_none() as u64 * 100_003;
                for pipe in &g.pipes {
                    for ring in pipe {
                        assert_eq!(ring.written, rings_used, "{what}");
                    }
                }
            }
        }
        let geometry = radioflow_runtime::FlowGeometry {
            workers: 2,
            chunk_bytes: 8192,
            buffer_bytes: 16384,
            crossing_buffer_bytes: 1 << 20,
            regions: true,
        };
        assert!(chain_layout_seconds(3, 2, 50_000, &geometry) > 0.0);
    }

    #[test]
    fn buf_limits_scale_with_the_graph_and_name_the_memory() {
        let mut geometry = radioflow_runtime::FlowGeometry {
            workers: 2,
            chunk_bytes: 8192,
            buffer_bytes: 16384,
            crossing_buffer_bytes: 1 << 20,
            regions: true,
        };
        let l = BufLimits::measure(2, 3, 100_000, &geometry);
        let want = buf_floor_seconds(2, 3, 100_000, l.bandwidth, l.cpus);
        assert!((l.floor_s - want).abs() <= 1e-12 * want);
        let want = buf_floor_seconds(2, 3, 100_000, l.all_cores_bandwidth, l.cpus);
        assert!((l.all_cores_floor_s - want).abs() <= 1e-12 * want);
        assert!(l.layout_s > 0.0);
        assert_eq!(l.memory(), "two regions per pipe");
        geometry.chunk_bytes = 32768;
        let l = BufLimits { geometry, ..l };
        assert_eq!(l.memory(), "a 16384 B ring per connection");
    }
}
