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

/// Samples per pipe [`chain_layout_seconds`] moves before it scales its time up.
const LAYOUT_SAMPLES: u64 = 20_000_000;

/// One connection of a chain: a page-aligned ring of `f32` and its two positions.
struct Ring {
    memory: Vec<f32>,
    start: usize,
    capacity: usize,
    written: u64,
    read: u64,
}

impl Ring {
    fn new(capacity: usize) -> Self {
        // Page aligned like the runtime's mapped buffers, so that the copies meet the caches
        // the same way.
        let memory = vec![0.0f32; capacity + 1024];
        let start = memory.as_ptr().align_offset(4096).min(1024);
        Ring {
            memory,
            start,
            capacity,
            written: 0,
            read: 0,
        }
    }

    /// Items that may be written now, contiguous (up to the end of the ring), at most `max`.
    fn writable(&self, max: u64) -> usize {
        let free = self.read + self.capacity as u64 - self.written;
        let to_end = self.capacity - (self.written % self.capacity as u64) as usize;
        free.min(max).min(to_end as u64) as usize
    }

    /// Items that may be read now, contiguous, at most `max`.
    fn readable(&self, max: u64) -> usize {
        let there = self.written - self.read;
        let to_end = self.capacity - (self.read % self.capacity as u64) as usize;
        there.min(max).min(to_end as u64) as usize
    }

    fn at(&self, pos: u64) -> usize {
        self.start + (pos % self.capacity as u64) as usize
    }
}

/// One `buf` pipe with no runtime: null source -> head(`samples`) -> `stages` copies -> null
/// sink through `stages + 2` rings. Returns the items the sink received.
struct LayoutPipe {
    rings: Vec<Ring>,
    left: u64,
    delivered: u64,
}

impl LayoutPipe {
    fn new(stages: usize, samples: u64, buffer_items: usize) -> Self {
        LayoutPipe {
            rings: (0..stages + 2).map(|_| Ring::new(buffer_items)).collect(),
            left: samples,
            delivered: 0,
        }
    }

    /// One depth-first pass moving at most `chunk` items per connection; whether anything moved.
    fn pass(&mut self, chunk: u64) -> bool {
        let mut moved = false;
        // The null source fills its output (a memset, as the runtime's does).
        let src = &mut self.rings[0];
        let n = src.writable(chunk);
        if n > 0 {
            let at = src.at(src.written);
            src.memory[at..at + n].fill(0.0);
            src.written += n as u64;
            moved = true;
        }
        // The head, then the copies.
        for i in 0..self.rings.len() - 1 {
            let (upstream, downstream) = self.rings.split_at_mut(i + 1);
            let (from, to) = (&mut upstream[i], &mut downstream[0]);
            let mut n = from.readable(chunk).min(to.writable(chunk));
            if i == 0 {
                n = n.min(self.left as usize);
                self.left -= n as u64;
            }
            if n == 0 {
                continue;
            }
            let (a, b) = (from.at(from.read), to.at(to.written));
            to.memory[b..b + n].copy_from_slice(black_box(&from.memory[a..a + n]));
            from.read += n as u64;
            to.written += n as u64;
            moved = true;
        }
        // The null sink.
        let sink = self.rings.last_mut().expect("a pipe has rings");
        self.delivered += sink.written - sink.read;
        sink.read = sink.written;
        moved
    }

    fn finished(&self) -> bool {
        self.left == 0 && self.rings[1..].iter().all(|r| r.read == r.written)
    }
}

/// Runs `pipes` pipes to the end on one thread the way the `flow` scheduler orders them: up to
/// 64 passes over one pipe before the next. Returns the items delivered per pipe.
fn run_layout(pipes: &mut [LayoutPipe], chunk: u64) {
    while pipes.iter().any(|p| !p.finished()) {
        for p in pipes.iter_mut().filter(|p| !p.finished()) {
            for _ in 0..64 {
                if !p.pass(chunk) || p.finished() {
                    break;
                }
            }
        }
    }
}

/// Seconds `buf` takes with no runtime at all, through the memory layout of a chain
/// scheduler: one page-aligned ring of `buffer_bytes` per connection, data moved `chunk_bytes`
/// at a time depth-first along each pipe (source fill, head copy, `stages` copies, sink), up
/// to 64 passes over one pipe before the next, the pipes dealt out to `cores` threads. It
/// separates what the layout costs (where the copies find their data in the caches) from
/// what a runtime adds on top. The best of three trials on at most 2e7 samples per pipe,
/// scaled to `samples`.
pub fn chain_layout_seconds(
    pipes: usize,
    stages: usize,
    samples: u64,
    chunk_bytes: usize,
    buffer_bytes: usize,
    cores: usize,
) -> f64 {
    let chunk = (chunk_bytes / 4).max(1);
    let buffer = (buffer_bytes / 4).max(chunk);
    let measured = samples.min(LAYOUT_SAMPLES);
    let cores = cores.clamp(1, pipes.max(1));
    let trial = || {
        let t0 = Instant::now();
        std::thread::scope(|s| {
            for core in 0..cores {
                let mine = (core..pipes).step_by(cores).count();
                s.spawn(move || {
                    let mut ps: Vec<LayoutPipe> = (0..mine)
                        .map(|_| LayoutPipe::new(stages, measured, buffer))
                        .collect();
                    run_layout(&mut ps, chunk as u64);
                    black_box(&ps);
                });
            }
        });
        t0.elapsed().as_secs_f64()
    };
    // The best of three, like the memcpy bandwidth: a limit is what the machine can do.
    let best = (0..3).map(|_| trial()).fold(f64::INFINITY, f64::min);
    best * samples as f64 / measured.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_is_measured_and_the_floor_scales_with_work() {
        let bw = memcpy_bandwidth(8192);
        assert!(bw > 1e8, "memcpy at {bw} B/s is not plausible");
        let one = buf_floor_seconds(1, 1, 1_000_000, bw, 1);
        assert!((buf_floor_seconds(10, 10, 1_000_000, bw, 2) / one - 50.0).abs() < 1e-9);
    }

    #[test]
    fn the_layout_pipes_deliver_every_sample_whatever_the_ring_and_chunk() {
        // Rings that are not a multiple of the chunk wrap mid-chunk; rings smaller than a
        // chunk cap it.
        for (chunk, buffer) in [(2048, 8192), (3000, 7000), (4096, 1024), (1, 3)] {
            let mut ps: Vec<LayoutPipe> = (0..3)
                .map(|k| LayoutPipe::new(4, 100_003 + k, buffer))
                .collect();
            run_layout(&mut ps, chunk);
            for (k, p) in ps.iter().enumerate() {
                assert_eq!(
                    p.delivered,
                    100_003 + k as u64,
                    "chunk {chunk} ring {buffer}"
                );
                assert!(p.finished());
                for r in &p.rings[1..] {
                    assert_eq!(r.written, 100_003 + k as u64);
                }
            }
        }
        assert!(chain_layout_seconds(3, 2, 50_000, 8192, 32768, 2) > 0.0);
    }
}
