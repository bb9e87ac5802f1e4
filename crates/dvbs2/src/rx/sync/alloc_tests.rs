//! Once locked, the synchroniser allocates nothing: every allocation of the test thread is
//! counted by a global allocator wrapping the system's.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use num_complex::Complex32;

use super::channel::{channel, Impairments};
use super::{SyncConfig, Synchronizer};
use crate::{FrameSize, Transmitter, TxConfig};

thread_local! {
    /// Allocations made by this thread (const-initialized: reading it does not allocate).
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

struct Counting;

// SAFETY: every call is forwarded unchanged to the system allocator; counting only touches a
// thread-local cell.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (through this allocator).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `realloc` is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn no_allocation_per_frame_once_locked() {
    // The counter sees this thread's allocations.
    let start = allocations();
    let v = std::hint::black_box(Vec::<u64>::with_capacity(3));
    assert_eq!(allocations(), start + 1);
    drop(v);
    // The last at another rate: through the resampler.
    for (modcod, frame, pilots, sps) in [
        ("qpsk-8/9", FrameSize::Short, true, 2.0),
        ("8psk-3/5", FrameSize::Short, false, 2.0),
        ("32apsk-3/4", FrameSize::Normal, true, 2.0),
        ("8psk-3/5", FrameSize::Short, true, 3.37),
    ] {
        let mut tx =
            Transmitter::new(TxConfig::new(modcod.parse().unwrap(), frame, pilots)).unwrap();
        let n = 140_000 / tx.frame_len();
        let mut ts = vec![0u8; tx.max_input() / 188 * 188];
        for p in ts.chunks_mut(188) {
            p[0] = 0x47;
        }
        let mut symbols = vec![Complex32::new(0.0, 0.0); n * tx.frame_len()];
        for f in symbols.chunks_mut(tx.frame_len()) {
            tx.encode_frame(&ts, f).unwrap();
        }
        let samples = channel(
            &symbols,
            &Impairments {
                esn0_db: Some(25.0),
                cfo: 0.01,
                timing: 0.3,
                sps,
                ..Impairments::default()
            },
        );
        let mut rx = Synchronizer::new(SyncConfig {
            samples_per_symbol: sps,
            ..SyncConfig::default()
        })
        .unwrap();
        let half = samples.len() / 2;
        let mut frames = 0;
        rx.process(&samples[..half], |_| frames += 1);
        assert!(
            rx.stats().locked,
            "{modcod}: not locked after half the signal"
        );
        let before = allocations();
        let mut locked_frames = 0;
        for chunk in samples[half..].chunks(7_777) {
            rx.process(chunk, |f| {
                if f.carrier_locked {
                    locked_frames += 1;
                }
            });
        }
        assert_eq!(
            allocations() - before,
            0,
            "{modcod}: allocations while locked"
        );
        assert!(locked_frames >= 2, "{modcod}: {locked_frames} frames");
    }
}
